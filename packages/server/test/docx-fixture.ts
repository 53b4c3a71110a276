// Builds .docx files for tests and benchmarks with a small ZIP writer of our own, so tests can also build
// broken, lying or hostile archives that no real writer would produce.
import zlib from 'node:zlib';

export interface ZipEntryInput {
  name: string;
  data: Buffer | string;
  /** Deflate the data (default true); false stores it. */
  compress?: boolean;
  /** Overrides for hostile archives: general purpose flags, method, declared sizes, CRC. */
  flags?: number;
  method?: number;
  declaredSize?: number;
  compressedData?: Buffer;
  crc?: number;
}

const LOCAL = 0x04034b50;
const CENTRAL = 0x02014b50;
const END = 0x06054b50;
// 2024-01-02 03:04:06 in MS-DOS form.
const DOS_TIME = (3 << 11) | (4 << 5) | 3;
const DOS_DATE = ((2024 - 1980) << 9) | (1 << 5) | 2;

/** Writes a ZIP archive (no ZIP64, one disk). */
export function writeZip(entries: ZipEntryInput[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const data = typeof entry.data === 'string' ? Buffer.from(entry.data, 'utf8') : entry.data;
    const name = Buffer.from(entry.name, 'utf8');
    const compress = entry.compress ?? true;
    const method = entry.method ?? (compress ? 8 : 0);
    const body = entry.compressedData ?? (compress ? zlib.deflateRawSync(data) : data);
    const crc = entry.crc ?? zlib.crc32(data);
    const size = entry.declaredSize ?? data.length;
    const flags = (entry.flags ?? 0) | (/[^\x20-\x7e]/.test(entry.name) ? 0x800 : 0);

    const local = Buffer.alloc(30);
    local.writeUInt32LE(LOCAL, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(DOS_TIME, 10);
    local.writeUInt16LE(DOS_DATE, 12);
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    locals.push(local, name, body);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(CENTRAL, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt16LE(DOS_TIME, 12);
    central.writeUInt16LE(DOS_DATE, 14);
    central.writeUInt32LE(crc >>> 0, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += 30 + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(END, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** A 1 x 1 red PNG. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

export interface DocxOptions {
  /** A paragraph in the Word "Title" style, first in the document. */
  title?: string;
  /** Headings (Heading 1 to 3 styles), after the title. */
  headings?: { level: 1 | 2 | 3; text: string }[];
  paragraphs?: string[];
  /** A bulleted list (uses a word/numbering.xml part). */
  bullets?: string[];
  /** A numbered (decimal) list. */
  numbered?: string[];
  /** Rows of cells; the first row is an ordinary row (Word has no header cells). */
  table?: string[][];
  link?: { text: string; href: string };
  /** A PNG (or another image, with its content type and file extension) shown inline. */
  image?: Buffer | { data: Buffer; contentType: string; extension: string };
  /** Alt text of the image. */
  imageAlt?: string;
  /** Raw parts added to the archive as they are. */
  extraEntries?: ZipEntryInput[];
  /** Put a DOCTYPE with an entity in word/document.xml. */
  doctype?: boolean;
  /** Add generated paragraphs, headings and tables until the file is at least this many bytes. */
  padTo?: number;
}

const NS_W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const NS_R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const NS_WP = 'http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing';
const NS_A = 'http://schemas.openxmlformats.org/drawingml/2006/main';
const NS_PIC = 'http://schemas.openxmlformats.org/drawingml/2006/picture';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

const esc = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const run = (text: string) => `<w:r><w:t xml:space="preserve">${esc(text)}</w:t></w:r>`;
const para = (text: string, style?: string, extra = '') =>
  `<w:p>${style || extra ? `<w:pPr>${style ? `<w:pStyle w:val="${style}"/>` : ''}${extra}</w:pPr>` : ''}${run(text)}</w:p>`;
const listItem = (text: string, numId: number) =>
  para(text, 'ListParagraph', `<w:numPr><w:ilvl w:val="0"/><w:numId w:val="${numId}"/></w:numPr>`);
const table = (rows: string[][]) => {
  const columns = Math.max(1, ...rows.map((row) => row.length));
  const grid = '<w:gridCol w:w="2000"/>'.repeat(columns);
  const body = rows.map((row) => `<w:tr>${row.map((cell) => `<w:tc>${para(cell)}</w:tc>`).join('')}</w:tr>`).join('');
  return `<w:tbl><w:tblPr><w:tblStyle w:val="TableGrid"/></w:tblPr><w:tblGrid>${grid}</w:tblGrid>${body}</w:tbl>`;
};
const image = (relId: string, alt: string) =>
  `<w:p><w:r><w:drawing><wp:inline><wp:extent cx="952500" cy="952500"/><wp:docPr id="1" name="Picture 1" descr="${esc(alt)}"/>` +
  `<a:graphic><a:graphicData uri="${NS_PIC}"><pic:pic><pic:nvPicPr><pic:cNvPr id="0" name="image"/><pic:cNvPicPr/></pic:nvPicPr>` +
  `<pic:blipFill><a:blip r:embed="${relId}"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill>` +
  `<pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="952500" cy="952500"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr>` +
  `</pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`;

const STYLES =
  `${XML_HEAD}<w:styles xmlns:w="${NS_W}">` +
  '<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>' +
  '<w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/><w:basedOn w:val="Normal"/></w:style>' +
  '<w:style w:type="paragraph" w:styleId="Subtitle"><w:name w:val="Subtitle"/><w:basedOn w:val="Normal"/></w:style>' +
  [1, 2, 3]
    .map(
      (level) =>
        `<w:style w:type="paragraph" w:styleId="Heading${level}"><w:name w:val="heading ${level}"/><w:basedOn w:val="Normal"/>` +
        `<w:pPr><w:outlineLvl w:val="${level - 1}"/></w:pPr></w:style>`,
    )
    .join('') +
  '<w:style w:type="paragraph" w:styleId="ListParagraph"><w:name w:val="List Paragraph"/><w:basedOn w:val="Normal"/></w:style>' +
  '<w:style w:type="table" w:styleId="TableGrid"><w:name w:val="Table Grid"/></w:style>' +
  '</w:styles>';

const NUMBERING =
  `${XML_HEAD}<w:numbering xmlns:w="${NS_W}">` +
  '<w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="bullet"/><w:lvlText w:val="\u2022"/></w:lvl></w:abstractNum>' +
  '<w:abstractNum w:abstractNumId="1"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/></w:lvl></w:abstractNum>' +
  '<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num><w:num w:numId="2"><w:abstractNumId w:val="1"/></w:num>' +
  '</w:numbering>';

const WORDS = (
  'patient care policy procedure staff nurse physician infection control medication safety review quality ' +
  'record consent discharge admission assessment monitoring compliance training emergency response facility ' +
  'department manager approval annual revision hand hygiene isolation specimen laboratory pharmacy dosage ' +
  'allergy incident report escalation documentation privacy confidentiality audit standard accreditation ' +
  'the of and to in for with on by is are be must should may each all any within after before during'
).split(' ');

/** A deterministic pseudo-random generator (mulberry32), so padded files are the same on every run. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Generated policy-like content: numbered sections, paragraphs, bullets and a table every few sections. */
function filler(targetChars: number, next: () => number, start: number): { xml: string; sections: number } {
  const sentence = () => {
    const length = 8 + Math.floor(next() * 16);
    const words = Array.from({ length }, () => WORDS[Math.floor(next() * WORDS.length)]!);
    const text = words.join(' ');
    return `${text[0]!.toUpperCase()}${text.slice(1)}.`;
  };
  const parts: string[] = [];
  let size = 0;
  let section = start;
  while (size < targetChars) {
    section += 1;
    const block: string[] = [para(`Section ${section}: ${sentence()}`, 'Heading2')];
    for (let i = 0; i < 6; i++) block.push(para(Array.from({ length: 4 }, sentence).join(' ')));
    for (let i = 0; i < 3; i++) block.push(listItem(sentence(), 1));
    if (section % 3 === 0)
      block.push(table(Array.from({ length: 6 }, () => Array.from({ length: 4 }, () => sentence().slice(0, 40)))));
    const xml = block.join('');
    parts.push(xml);
    size += xml.length;
  }
  return { xml: parts.join(''), sections: section };
}

/** A minimal but valid .docx: the parts Word itself needs, with styles for Title and Heading 1-3. */
export function buildDocx(options: DocxOptions = {}): Buffer {
  const rels: string[] = [
    `<Relationship Id="rIdStyles" Type="${REL}/styles" Target="styles.xml"/>`,
    `<Relationship Id="rIdNumbering" Type="${REL}/numbering" Target="numbering.xml"/>`,
  ];
  const media: ZipEntryInput[] = [];
  const defaults = new Map<string, string>([
    ['rels', 'application/vnd.openxmlformats-package.relationships+xml'],
    ['xml', 'application/xml'],
  ]);

  const body: string[] = [];
  if (options.title !== undefined) body.push(para(options.title, 'Title'));
  for (const heading of options.headings ?? []) body.push(para(heading.text, `Heading${heading.level}`));
  for (const text of options.paragraphs ?? []) body.push(para(text));
  for (const text of options.bullets ?? []) body.push(listItem(text, 1));
  for (const text of options.numbered ?? []) body.push(listItem(text, 2));
  if (options.table) body.push(table(options.table));
  if (options.link) {
    rels.push(
      `<Relationship Id="rIdLink1" Type="${REL}/hyperlink" Target="${esc(options.link.href)}" TargetMode="External"/>`,
    );
    body.push(`<w:p><w:hyperlink r:id="rIdLink1">${run(options.link.text)}</w:hyperlink></w:p>`);
  }
  if (options.image) {
    const picture = Buffer.isBuffer(options.image)
      ? { data: options.image, contentType: 'image/png', extension: 'png' }
      : options.image;
    defaults.set(picture.extension, picture.contentType);
    rels.push(`<Relationship Id="rIdImage1" Type="${REL}/image" Target="media/image1.${picture.extension}"/>`);
    media.push({ name: `word/media/image1.${picture.extension}`, data: picture.data, compress: false });
    body.push(image('rIdImage1', options.imageAlt ?? ''));
  }

  const doctype = options.doctype ? '<!DOCTYPE w:document [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n' : '';
  const document = (content: string) =>
    `${XML_HEAD}${doctype}<w:document xmlns:w="${NS_W}" xmlns:r="${NS_R}" xmlns:wp="${NS_WP}" xmlns:a="${NS_A}" ` +
    `xmlns:pic="${NS_PIC}"><w:body>${content}<w:sectPr/></w:body></w:document>`;

  const zip = (content: string) => {
    const types =
      `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
      [...defaults].map(([extension, type]) => `<Default Extension="${extension}" ContentType="${type}"/>`).join('') +
      '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
      '<Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/>' +
      '<Override PartName="/word/numbering.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml"/>' +
      '</Types>';
    return writeZip([
      { name: '[Content_Types].xml', data: types },
      {
        name: '_rels/.rels',
        data: `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="word/document.xml"/></Relationships>`,
      },
      { name: 'word/document.xml', data: document(content) },
      {
        name: 'word/_rels/document.xml.rels',
        data: `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels.join('')}</Relationships>`,
      },
      { name: 'word/styles.xml', data: STYLES },
      { name: 'word/numbering.xml', data: NUMBERING },
      ...media,
      ...(options.extraEntries ?? []),
    ]);
  };

  let content = body.join('');
  let result = zip(content);
  if (options.padTo && result.length < options.padTo) {
    const next = random(20240102);
    // Estimate how well the generated XML compresses from a sample, then generate about enough; top up if short.
    const sample = filler(64 * 1024, random(1), 0).xml;
    const ratio = sample.length / zlib.deflateRawSync(sample).length;
    let sections = 0;
    while (result.length < options.padTo) {
      const more = filler(Math.max(4096, (options.padTo - result.length) * ratio * 1.02), next, sections);
      sections = more.sections;
      content += more.xml;
      result = zip(content);
    }
  }
  return result;
}

/**
 * A zip bomb: a docx whose document.xml expands to `size` bytes of zeros (default 200 MB, deflated to about
 * 200 KB). With `lying`, the headers declare only 1 KB, so only a bounded inflate notices.
 */
export function buildZipBomb(options: { size?: number; lying?: boolean } = {}): Buffer {
  const size = options.size ?? 200 * 1024 * 1024;
  const chunkSize = 1024 * 1024;
  // Deflate one 1 MB chunk of zeros without a final block, repeat it, then close the stream with an empty
  // final block: a valid deflate stream of `size` zeros without ever holding them in memory.
  const chunk = Buffer.alloc(chunkSize);
  const deflated = zlib.deflateRawSync(chunk, { level: 9, finishFlush: zlib.constants.Z_SYNC_FLUSH });
  const count = Math.ceil(size / chunkSize);
  let crc = 0;
  for (let i = 0; i < count; i++) crc = zlib.crc32(chunk, crc);
  const stream = Buffer.concat([...Array.from({ length: count }, () => deflated), Buffer.from([0x03, 0x00])]);
  const valid = buildDocx({ title: 'Bomb' });
  const bomb: ZipEntryInput = {
    name: 'word/bomb.xml',
    data: Buffer.alloc(0),
    compressedData: stream,
    method: 8,
    crc,
    declaredSize: options.lying ? 1024 : count * chunkSize,
  };
  return appendEntries(valid, [bomb]);
}

/** A valid docx with `n` extra tiny parts. */
export function buildManyEntries(n: number): Buffer {
  return buildDocx({
    title: 'Many parts',
    extraEntries: Array.from({ length: n }, (_, i) => ({ name: `customXml/item${i}.txt`, data: 'x', compress: false })),
  });
}

/** Rebuilds a docx made by buildDocx with more entries (re-reading its own simple layout). */
function appendEntries(zip: Buffer, extra: ZipEntryInput[]): Buffer {
  const entries: ZipEntryInput[] = [];
  let offset = 0;
  while (zip.readUInt32LE(offset) === LOCAL) {
    const method = zip.readUInt16LE(offset + 8);
    const compressedSize = zip.readUInt32LE(offset + 18);
    const nameLength = zip.readUInt16LE(offset + 26);
    const name = zip.toString('utf8', offset + 30, offset + 30 + nameLength);
    const start = offset + 30 + nameLength + zip.readUInt16LE(offset + 28);
    const raw = zip.subarray(start, start + compressedSize);
    entries.push({ name, data: method === 8 ? zlib.inflateRawSync(raw) : raw, compress: method === 8 });
    offset = start + compressedSize;
  }
  return writeZip([...entries, ...extra]);
}
