import { randomBytes } from 'node:crypto';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildDocx, buildManyEntries, buildZipBomb, TINY_PNG, writeZip } from '../../test/docx-fixture.js';
import { convertDocx, DOCX_MESSAGES, inspectDocx, sniffUpload } from './docx.js';
import { AppError } from './errors.js';

// No database here: these tests only read and write buffers.

const END_SIGNATURE = Buffer.from([0x50, 0x4b, 0x05, 0x06]);
const endOf = (zip: Buffer) => zip.lastIndexOf(END_SIGNATURE);
const plainZip = () => writeZip([{ name: 'readme.txt', data: 'hello' }]);

/** The AppError inspectDocx throws (a 400 with the message under `file`). */
function refusal(data: Buffer): AppError {
  try {
    inspectDocx(data);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error('inspectDocx accepted the file');
}

function expectRefused(data: Buffer, message: string) {
  const error = refusal(data);
  expect(error.code).toBe('VALIDATION_FAILED');
  expect(error.status).toBe(400);
  expect(error.message).toBe(message);
  expect(error.errors).toEqual({ file: [message] });
}

describe('sniffUpload', () => {
  it('recognises a docx and a PDF by content', () => {
    expect(sniffUpload(buildDocx({ title: 'A policy' }))).toBe('docx');
    expect(sniffUpload(Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n', 'latin1'))).toBe('pdf');
  });

  it('refuses random bytes, an empty file, a plain zip and a text file named .docx', () => {
    expect(sniffUpload(randomBytes(4096))).toBeNull();
    expect(sniffUpload(Buffer.alloc(0))).toBeNull();
    expect(sniffUpload(plainZip())).toBeNull();
    expect(sniffUpload(Buffer.from('This is not really a Word file.\n'))).toBeNull();
    // A zip with a document.xml but no [Content_Types].xml is not a Word package either.
    expect(sniffUpload(writeZip([{ name: 'word/document.xml', data: '<w:document/>' }]))).toBeNull();
    // A truncated docx (the central directory is gone).
    const docx = buildDocx({ title: 'Cut' });
    expect(sniffUpload(docx.subarray(0, docx.length - 30))).toBeNull();
  });
});

describe('inspectDocx', () => {
  it('accepts a valid docx, also with an image and many parts below the limit', () => {
    expect(() => inspectDocx(buildDocx({ title: 'Fine', paragraphs: ['Text'], image: TINY_PNG }))).not.toThrow();
    expect(() => inspectDocx(buildManyEntries(990))).not.toThrow();
  });

  it('refuses a damaged or non-Word zip as not a Word document', () => {
    expectRefused(randomBytes(2048), DOCX_MESSAGES.invalid);
    expectRefused(plainZip(), DOCX_MESSAGES.invalid);
    const docx = buildDocx({ title: 'Cut' });
    expectRefused(docx.subarray(0, docx.length - 100), DOCX_MESSAGES.invalid);
    // Trailing bytes after the end record.
    expectRefused(Buffer.concat([docx, Buffer.from('junk')]), DOCX_MESSAGES.invalid);
  });

  it('refuses more than 1000 parts', () => {
    expectRefused(buildManyEntries(1000), 'The Word file has too many parts (more than 1000).');
  });

  it('refuses a zip bomb by its declared size (200 MB of zeros in about 200 KB)', () => {
    const bomb = buildZipBomb();
    expect(bomb.length).toBeLessThan(1024 * 1024);
    expectRefused(bomb, 'The Word file expands to too much data; it looks like a zip bomb.');
  });

  it('refuses a part over 1 MB that expands more than 100 times', () => {
    // 2 MB of zeros: well under the 100 MB total, but about 1000:1.
    expectRefused(buildZipBomb({ size: 2 * 1024 * 1024 }), DOCX_MESSAGES.zipBomb);
    // The same ratio on a small part is fine (styles.xml and the like compress very well).
    const small = buildDocx({
      title: 'Small',
      extraEntries: [{ name: 'word/zeros.bin', data: Buffer.alloc(512 * 1024) }],
    });
    expect(() => inspectDocx(small)).not.toThrow();
  });

  it('refuses a part whose header lies about its size, without expanding it', () => {
    const started = performance.now();
    expectRefused(buildZipBomb({ lying: true }), DOCX_MESSAGES.invalid);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('refuses the total declared size above 100 MB even when each part looks harmless', () => {
    // 101 stored parts of 1 MB of random bytes would be a 101 MB upload; declare sizes instead (stored, so
    // they must match the data): use a lower limit to keep the test small.
    const docx = buildDocx({
      title: 'Big',
      extraEntries: Array.from({ length: 3 }, (_, i) => ({
        name: `word/media/big${i}.bin`,
        data: randomBytes(64 * 1024),
        compress: false,
      })),
    });
    expect(() => inspectDocx(docx)).not.toThrow();
    expect(() => inspectDocx(docx, { maxTotalUncompressedBytes: 150 * 1024 })).toThrow(DOCX_MESSAGES.zipBomb);
  });

  it.each([
    ['a parent folder', 'word/../../evil.xml'],
    ['a parent folder with backslashes', 'word\\..\\evil.xml'],
    ['an absolute path', '/etc/evil.xml'],
    ['a drive letter', 'C:/evil.xml'],
  ])('refuses a part name with %s', (_label, name) => {
    expectRefused(
      buildDocx({ title: 'Names', extraEntries: [{ name, data: '<x/>' }] }),
      'The Word file contains a part with an unsafe name.',
    );
  });

  it('refuses encrypted parts', () => {
    expectRefused(
      buildDocx({ title: 'Secret', extraEntries: [{ name: 'word/secret.xml', data: '<x/>', flags: 0x1 }] }),
      DOCX_MESSAGES.encrypted,
    );
  });

  it('refuses a DOCTYPE or ENTITY in any part, in any letter case', () => {
    expectRefused(buildDocx({ title: 'XXE', doctype: true }), DOCX_MESSAGES.entities);
    expect(DOCX_MESSAGES.entities).toBe('The Word file contains external entities, which are not allowed.');
    for (const xml of ['<!doctype x>', '<!EnTiTy x "y">', '<?xml version="1.0"?>\n<!DOCTYPE r SYSTEM "http://x/">']) {
      expectRefused(
        buildDocx({ title: 'XXE', extraEntries: [{ name: 'word/_rels/other.rels', data: xml }] }),
        DOCX_MESSAGES.entities,
      );
    }
    // UTF-16 text with a byte order mark.
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<!DOCTYPE x><x/>', 'utf16le')]);
    expectRefused(
      buildDocx({ title: 'XXE', extraEntries: [{ name: 'customXml/item1.xml', data: utf16 }] }),
      DOCX_MESSAGES.entities,
    );
  });

  it('refuses ZIP64 markers and multi-disk archives', () => {
    const zip64 = buildDocx({ title: 'Z' });
    zip64.writeUInt16LE(0xffff, endOf(zip64) + 10);
    zip64.writeUInt16LE(0xffff, endOf(zip64) + 8);
    expectRefused(zip64, DOCX_MESSAGES.invalid);
    const bigOffset = buildDocx({ title: 'Z' });
    bigOffset.writeUInt32LE(0xffffffff, endOf(bigOffset) + 16);
    expectRefused(bigOffset, DOCX_MESSAGES.invalid);
    const multiDisk = buildDocx({ title: 'Z' });
    multiDisk.writeUInt16LE(1, endOf(multiDisk) + 4);
    expectRefused(multiDisk, DOCX_MESSAGES.invalid);
  });

  it('refuses compression methods other than stored and deflate', () => {
    expectRefused(
      buildDocx({ title: 'M', extraEntries: [{ name: 'word/x.xml', data: '<x/>', method: 12 }] }),
      DOCX_MESSAGES.invalid,
    );
  });

  it('refuses a central entry that points at no local header, or a wrong checksum', () => {
    const docx = buildDocx({ title: 'L' });
    const local = docx.indexOf(Buffer.from('word/document.xml')) - 30;
    expect(docx.readUInt32LE(local)).toBe(0x04034b50);
    docx.writeUInt32LE(0x11111111, local);
    expectRefused(docx, DOCX_MESSAGES.invalid);
    expectRefused(
      buildDocx({ title: 'C', extraEntries: [{ name: 'word/x.xml', data: '<x/>', crc: 1234 }] }),
      DOCX_MESSAGES.invalid,
    );
  });

  it('refuses a deflate stream that does not match its declared size', () => {
    const data = Buffer.from('<x>'.repeat(1000));
    expectRefused(
      buildDocx({
        title: 'D',
        extraEntries: [{ name: 'word/x.xml', data, declaredSize: 10, compressedData: zlib.deflateRawSync(data) }],
      }),
      DOCX_MESSAGES.invalid,
    );
  });
});

describe('convertDocx', () => {
  const store = () => {
    const images: { contentType: string; data: Buffer }[] = [];
    const storeImage = async (image: { contentType: string; data: Buffer }) => {
      images.push(image);
      return `/api/files/${images.length}?x=1&y=2`;
    };
    return { images, storeImage };
  };

  it('keeps the title, headings, lists, a table, a link and images (stored, never data:)', async () => {
    const { images, storeImage } = store();
    const docx = buildDocx({
      title: 'Hand Hygiene Policy',
      headings: [
        { level: 1, text: 'Purpose' },
        { level: 2, text: 'Scope & limits' },
      ],
      paragraphs: ['All staff wash hands before and after patient contact.'],
      bullets: ['Soap and water', 'Alcohol rub'],
      numbered: ['Wet hands', 'Apply soap'],
      table: [
        ['Moment', 'Action'],
        ['Before contact', 'Clean hands'],
      ],
      link: { text: 'WHO guidance', href: 'https://www.who.int/hand-hygiene?a=1&b=2' },
      image: TINY_PNG,
      imageAlt: 'Hand washing poster',
    });
    const result = await convertDocx(docx, storeImage);

    expect(result.title).toBe('Hand Hygiene Policy');
    expect(result.html).toContain('<h1>Hand Hygiene Policy</h1>');
    expect(result.html).toContain('<h1>Purpose</h1>');
    expect(result.html).toContain('<h2>Scope &amp; limits</h2>');
    expect(result.html).toContain('<ul><li>Soap and water</li><li>Alcohol rub</li></ul>');
    expect(result.html).toContain('<ol><li>Wet hands</li><li>Apply soap</li></ol>');
    expect(result.html).toContain(
      '<table><tr><td><p>Moment</p></td><td><p>Action</p></td></tr><tr><td><p>Before contact</p></td>',
    );
    expect(result.html).toContain('<a href="https://www.who.int/hand-hygiene?a=1&amp;b=2">WHO guidance</a>');
    expect(result.html).toContain('<img alt="Hand washing poster" src="/api/files/1?x=1&amp;y=2" />');
    expect(result.html).not.toContain('data:');
    expect(result.images).toBe(1);
    expect(images).toHaveLength(1);
    expect(images[0]!.contentType).toBe('image/png');
    expect(images[0]!.data.equals(TINY_PNG)).toBe(true);
    expect(result.messages).toEqual([]);
  });

  it('takes the first h1 as the title, else the first paragraph (at most 200 characters), else nothing', async () => {
    const { storeImage } = store();
    const heading = await convertDocx(
      buildDocx({
        headings: [
          { level: 2, text: 'Intro' },
          { level: 1, text: 'Infection <Control>' },
        ],
      }),
      storeImage,
    );
    expect(heading.title).toBe('Infection <Control>');
    const long = 'Word '.repeat(80);
    const paragraph = await convertDocx(buildDocx({ paragraphs: ['', long] }), storeImage);
    expect(paragraph.title).toBe(long.slice(0, 200).trim());
    expect(paragraph.title.length).toBeLessThanOrEqual(200);
    const empty = await convertDocx(buildDocx({}), storeImage);
    expect(empty.title).toBe('');
    expect(empty.html).toBe('');
  });

  it('leaves out images of other types, with a message, and stores nothing for them', async () => {
    const { images, storeImage } = store();
    const tiff = Buffer.from([0x49, 0x49, 0x2a, 0x00, 0x08, 0x00, 0x00, 0x00]);
    const result = await convertDocx(
      buildDocx({ title: 'T', image: { data: tiff, contentType: 'image/tiff', extension: 'tif' } }),
      storeImage,
    );
    expect(images).toHaveLength(0);
    expect(result.images).toBe(0);
    expect(result.html).not.toContain('<img');
    expect(result.messages).toEqual([
      'An image of type image/tiff was left out: only PNG, JPEG, GIF and WebP images are kept.',
    ]);
  });

  it('turns unknown styles into plain, deduplicated messages', async () => {
    const { storeImage } = store();
    const styles = Array.from({ length: 30 }, (_, i) => `Custom${i}`);
    const paragraphs = styles.flatMap((id) => [
      `<w:p><w:pPr><w:pStyle w:val="${id}"/></w:pPr><w:r><w:t>x</w:t></w:r></w:p>`,
      `<w:p><w:pPr><w:pStyle w:val="${id}"/></w:pPr><w:r><w:t>y</w:t></w:r></w:p>`,
    ]);
    // Patch the document so its paragraphs use styles the styles part does not define.
    const docx = buildDocx({ title: 'Styles' });
    const result = await convertDocx(withBody(docx, paragraphs.join('')), storeImage);
    expect(result.messages).toHaveLength(20);
    expect(result.messages[0]).toBe(
      'The style "Custom0" is used but missing from the Word file; its text was kept as normal text.',
    );
    expect(new Set(result.messages).size).toBe(20);
    expect(result.messages[19]).toBe('11 more notes like these were left out.');
    for (const message of result.messages) expect(message).toMatch(/^[A-Z0-9].*\.$/);
  });

  it('names a style with no web equivalent', async () => {
    const { storeImage } = store();
    const body = '<w:p><w:pPr><w:pStyle w:val="ListParagraph"/></w:pPr><w:r><w:t>Not in a list</w:t></w:r></w:p>';
    const result = await convertDocx(withBody(buildDocx({}), body), storeImage);
    expect(result.html).toBe('<p>Not in a list</p>');
    expect(result.messages).toEqual([
      'The paragraph style "List Paragraph" has no web equivalent; its text was kept as normal text.',
    ]);
  });

  it('refuses a hostile file before converting it, with the same 400 as inspectDocx', async () => {
    const { images, storeImage } = store();
    for (const [docx, message] of [
      [buildDocx({ title: 'XXE', doctype: true, image: TINY_PNG }), DOCX_MESSAGES.entities],
      [buildZipBomb(), DOCX_MESSAGES.zipBomb],
      [buildZipBomb({ lying: true }), DOCX_MESSAGES.invalid],
    ] as const) {
      const error = await convertDocx(docx, storeImage).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ status: 400, message, errors: { file: [message] } });
    }
    expect(images).toHaveLength(0);
  });

  it('gives up on a conversion that takes too long', async () => {
    const { storeImage } = store();
    await expect(convertDocx(buildDocx({ title: 'Slow' }), storeImage, { timeoutMs: 1 })).rejects.toMatchObject({
      status: 400,
      message: 'The Word file took too long to convert.',
    });
  });

  it('keeps the event loop free while converting (the work runs in a worker thread)', async () => {
    const { storeImage } = store();
    const docx = buildDocx({ title: 'Long policy', padTo: 500 * 1024 });
    let maxGap = 0;
    let last = performance.now();
    const probe = setInterval(() => {
      const now = performance.now();
      maxGap = Math.max(maxGap, now - last);
      last = now;
    }, 5);
    try {
      const result = await convertDocx(docx, storeImage);
      expect(result.title).toBe('Long policy');
      expect(result.html.length).toBeGreaterThan(1_000_000);
      await new Promise((resolve) => setTimeout(resolve, 20)); // let a blocked probe report
    } finally {
      clearInterval(probe);
    }
    // In this thread mammoth would block for 0.5 s or more on this file; the worker leaves only the copy and
    // the string handling here. Generous, for busy test machines.
    expect(maxGap).toBeLessThan(300);
  });

  it('refuses a package mammoth cannot read as not a Word document', async () => {
    const { storeImage } = store();
    // Valid container, but the main document part is not XML.
    const docx = withDocument(buildDocx({ title: 'x' }), 'this is not xml <<<');
    await expect(convertDocx(docx, storeImage)).rejects.toThrow(DOCX_MESSAGES.invalid);
  });
});

/** Rewrites word/document.xml of a buildDocx file. */
function withDocument(docx: Buffer, xml: string): Buffer {
  const entries = readEntries(docx).map((entry) =>
    entry.name === 'word/document.xml' ? { ...entry, data: xml } : entry,
  );
  return writeZip(entries);
}

function withBody(docx: Buffer, body: string): Buffer {
  const document = readEntries(docx)
    .find((entry) => entry.name === 'word/document.xml')!
    .data.toString('utf8');
  return withDocument(docx, document.replace(/<w:body>[\s\S]*<\/w:body>/, `<w:body>${body}<w:sectPr/></w:body>`));
}

function readEntries(zip: Buffer): { name: string; data: Buffer }[] {
  const entries: { name: string; data: Buffer }[] = [];
  let offset = 0;
  while (zip.readUInt32LE(offset) === 0x04034b50) {
    const method = zip.readUInt16LE(offset + 8);
    const size = zip.readUInt32LE(offset + 18);
    const nameLength = zip.readUInt16LE(offset + 26);
    const start = offset + 30 + nameLength + zip.readUInt16LE(offset + 28);
    const raw = zip.subarray(start, start + size);
    entries.push({
      name: zip.toString('utf8', offset + 30, offset + 30 + nameLength),
      data: method === 8 ? zlib.inflateRawSync(raw) : Buffer.from(raw),
    });
    offset = start + size;
  }
  return entries;
}
