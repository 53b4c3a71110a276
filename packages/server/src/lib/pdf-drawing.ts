import DOMPurify from 'isomorphic-dompurify';
import PDFDocument from 'pdfkit';

/**
 * PDF drawing helpers (the survey binder, the gap report, the printed policy and its QR sheets):
 * pdfkit with its built-in Helvetica (no font files), headings, wrapped paragraphs, small tables that repeat their
 * header across pages, a footer with "page N of M", the policy text from its sanitised HTML, and a small line chart
 * of a measure series. Every function here draws; none reads the database.
 */

export type Pdf = PDFKit.PDFDocument;
export type Paper = 'letter' | 'a4';

export interface PdfOptions {
  paper: Paper;
  layout?: 'portrait' | 'landscape';
  /** false writes uncompressed content streams (tests read the text). */
  compress: boolean;
  title: string;
  author: string;
  createdAt: Date;
}

const FONT = {
  regular: 'Helvetica',
  bold: 'Helvetica-Bold',
  italic: 'Helvetica-Oblique',
  boldItalic: 'Helvetica-BoldOblique',
  mono: 'Courier',
} as const;
const INK = '#212529';
const MUTED = '#6c757d';
const RULE = '#ced4da';
const SHADE = '#f1f3f5';
const BODY_SIZE = 9.5;

/** A new document on Letter or A4 with 0.75 in margins, kept in memory until the footers are written. */
export function createPdf(options: PdfOptions): Pdf {
  const doc = new PDFDocument({
    size: options.paper === 'a4' ? 'A4' : 'LETTER',
    layout: options.layout ?? 'portrait',
    margins: { top: 54, bottom: 60, left: 54, right: 54 },
    compress: options.compress,
    bufferPages: true,
    info: {
      Title: pdfText(options.title),
      Author: pdfText(options.author),
      Creator: 'Accreditation portal',
      CreationDate: options.createdAt,
    },
  });
  doc.font(FONT.regular).fontSize(BODY_SIZE).fillColor(INK);
  return doc;
}

// ------------------------------------------------------------------------------------------------ text

/** Characters of Windows-1252 above 0x7f that are not Latin-1: the standard fonts' WinAnsi encoding has them. */
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
const REPLACEMENTS: Record<string, string> = {
  '→': '->',
  '←': '<-',
  '≥': '>=',
  '≤': '<=',
  '≠': '!=',
  '−': '-',
  '✓': 'v',
  '✔': 'v',
  '✗': 'x',
  '\u00a0': ' ',
  '\u2009': ' ',
  '\u202f': ' ',
  '\t': ' ',
};

/**
 * Text the built-in fonts can show: Windows-1252 characters as they are, a few common symbols spelled out, control
 * characters dropped, anything else a question mark (the standard fonts have no glyph for it).
 */
export function pdfText(value: string): string {
  let out = '';
  for (const ch of value.normalize('NFC')) {
    const code = ch.codePointAt(0)!;
    if (ch === '\n') out += ch;
    else if (REPLACEMENTS[ch] !== undefined) out += REPLACEMENTS[ch];
    else if (code < 0x20 || (code >= 0x7f && code < 0xa0)) continue;
    else if (code < 0x100 || WIN_ANSI_EXTRA.has(ch)) out += ch;
    else if (code >= 0x200b && code <= 0x200f) continue;
    else out += '?';
  }
  return out;
}

/** At most `max` characters, with an ellipsis when cut (table cells stay shorter than a page). */
export const clip = (value: string, max: number) => (value.length > max ? `${value.slice(0, max - 1)}…` : value);

const left = (doc: Pdf) => doc.page.margins.left;
export const contentWidth = (doc: Pdf) => doc.page.width - doc.page.margins.left - doc.page.margins.right;
const bottomLimit = (doc: Pdf) => doc.page.height - doc.page.margins.bottom;

/** Starts a new page unless `height` points still fit on this one. */
export function ensureSpace(doc: Pdf, height: number): void {
  if (doc.y + height > bottomLimit(doc)) doc.addPage();
}

/** A new page, unless the current one is still empty. */
export function freshPage(doc: Pdf): void {
  if (doc.y > doc.page.margins.top + 1) doc.addPage();
}

/** The zero-based index of the page being written. */
export function pageIndex(doc: Pdf): number {
  const range = doc.bufferedPageRange();
  return range.start + range.count - 1;
}

const HEADING_SIZES = { 1: 18, 2: 14, 3: 11.5, 4: 10 } as const;

/** A bold heading kept with the two lines that follow it. */
export function heading(doc: Pdf, text: string, level: 1 | 2 | 3 | 4 = 2): void {
  const size = HEADING_SIZES[level];
  ensureSpace(doc, size * 1.4 + BODY_SIZE * 3);
  if (doc.y > doc.page.margins.top + 1) doc.moveDown(level <= 2 ? 0.6 : 0.35);
  doc
    .font(FONT.bold)
    .fontSize(size)
    .fillColor(INK)
    .text(pdfText(text), left(doc), doc.y, { width: contentWidth(doc) });
  doc.moveDown(level <= 2 ? 0.3 : 0.15);
  doc.font(FONT.regular).fontSize(BODY_SIZE);
}

/** A wrapped paragraph in the body font (or muted, italic, bold, smaller). */
export function paragraph(
  doc: Pdf,
  text: string,
  style: { muted?: boolean; italic?: boolean; bold?: boolean; size?: number; indent?: number } = {},
): void {
  if (text.trim() === '') return;
  const size = style.size ?? BODY_SIZE;
  ensureSpace(doc, size * 2.4);
  const font = style.bold ? FONT.bold : style.italic ? FONT.italic : FONT.regular;
  const indent = style.indent ?? 0;
  doc
    .font(font)
    .fontSize(size)
    .fillColor(style.muted ? MUTED : INK)
    .text(pdfText(text), left(doc) + indent, doc.y, { width: contentWidth(doc) - indent });
  doc.fillColor(INK).font(FONT.regular).fontSize(BODY_SIZE);
  doc.moveDown(0.3);
}

/** A hash or code in a monospaced font (a SHA-256 fits on one line). */
export function monoLine(doc: Pdf, label: string, value: string, indent = 0): void {
  ensureSpace(doc, 20);
  const x = left(doc) + indent;
  doc
    .font(FONT.regular)
    .fontSize(7.5)
    .fillColor(MUTED)
    .text(pdfText(label), x, doc.y, { width: contentWidth(doc) });
  doc
    .font(FONT.mono)
    .fontSize(7.5)
    .fillColor(INK)
    .text(pdfText(value), x, doc.y, { width: contentWidth(doc) });
  doc.font(FONT.regular).fontSize(BODY_SIZE);
  doc.moveDown(0.2);
}

/** Label and value pairs in two columns (label muted and bold), wrapped. Empty values read "None". */
export function facts(doc: Pdf, pairs: readonly (readonly [string, string])[], labelWidth = 120): void {
  const x = left(doc);
  const valueWidth = contentWidth(doc) - labelWidth - 6;
  for (const [label, raw] of pairs) {
    const value = pdfText(raw.trim() === '' ? 'None' : raw);
    doc.font(FONT.regular).fontSize(BODY_SIZE);
    const height = Math.max(doc.heightOfString(value, { width: valueWidth }), BODY_SIZE * 1.2);
    ensureSpace(doc, Math.min(height, BODY_SIZE * 4) + 2);
    const y = doc.y;
    doc
      .font(FONT.bold)
      .fontSize(8.5)
      .fillColor(MUTED)
      .text(pdfText(label), x, y + 0.8, { width: labelWidth, lineBreak: false });
    doc
      .font(FONT.regular)
      .fontSize(BODY_SIZE)
      .fillColor(INK)
      .text(value, x + labelWidth + 6, y, { width: valueWidth });
    doc.x = x;
    doc.y = Math.max(doc.y, y + BODY_SIZE * 1.2) + 1.5;
  }
  doc.moveDown(0.3);
}

/** A thin horizontal rule across the text width. */
export function rule(doc: Pdf): void {
  ensureSpace(doc, 10);
  const y = doc.y + 3;
  doc
    .moveTo(left(doc), y)
    .lineTo(left(doc) + contentWidth(doc), y)
    .lineWidth(0.5)
    .strokeColor(RULE)
    .stroke();
  doc.y = y + 6;
}

// ------------------------------------------------------------------------------------------------ tables

export interface Column {
  header: string;
  /** Relative width. */
  weight: number;
  align?: 'left' | 'right' | 'center';
  mono?: boolean;
}

const CELL_PAD = 3;
const MAX_CELL_CHARS = 1_500;

function columnWidths(doc: Pdf, columns: readonly Column[]): number[] {
  const total = columns.reduce((sum, c) => sum + c.weight, 0);
  return columns.map((c) => (contentWidth(doc) * c.weight) / total);
}

function cellFont(doc: Pdf, column: Column, header: boolean, size: number): void {
  doc.font(header ? FONT.bold : column.mono ? FONT.mono : FONT.regular).fontSize(size);
}

function rowHeight(
  doc: Pdf,
  columns: readonly Column[],
  widths: number[],
  cells: string[],
  size: number,
  header: boolean,
) {
  let height = size * 1.2;
  cells.forEach((cell, i) => {
    cellFont(doc, columns[i]!, header, size);
    height = Math.max(height, doc.heightOfString(cell, { width: widths[i]! - 2 * CELL_PAD }));
  });
  return height + 2 * CELL_PAD;
}

function drawRow(
  doc: Pdf,
  columns: readonly Column[],
  widths: number[],
  cells: string[],
  size: number,
  header: boolean,
): void {
  const y = doc.y;
  const height = Math.min(rowHeight(doc, columns, widths, cells, size, header), bottomLimit(doc) - y);
  if (header) doc.rect(left(doc), y, contentWidth(doc), height).fill(SHADE);
  let x = left(doc);
  cells.forEach((cell, i) => {
    cellFont(doc, columns[i]!, header, size);
    doc.fillColor(header ? MUTED : INK).text(cell, x + CELL_PAD, y + CELL_PAD, {
      width: widths[i]! - 2 * CELL_PAD,
      height: height - 2 * CELL_PAD,
      align: columns[i]!.align ?? 'left',
      ellipsis: true,
    });
    x += widths[i]!;
  });
  doc
    .moveTo(left(doc), y + height)
    .lineTo(left(doc) + contentWidth(doc), y + height)
    .lineWidth(0.4)
    .strokeColor(RULE)
    .stroke();
  doc.fillColor(INK);
  doc.x = left(doc);
  doc.y = y + height;
}

/** A table across the text width: a shaded header row, repeated on every page the rows run onto. */
export function table(doc: Pdf, columns: readonly Column[], rows: readonly (readonly string[])[], size = 8): void {
  if (rows.length === 0) return;
  const widths = columnWidths(doc, columns);
  const headers = columns.map((c) => pdfText(c.header));
  const body = rows.map((row) => columns.map((_, i) => pdfText(clip(row[i] ?? '', MAX_CELL_CHARS))));
  const headerHeight = rowHeight(doc, columns, widths, headers, size, true);
  ensureSpace(doc, headerHeight + rowHeight(doc, columns, widths, body[0]!, size, false));
  drawRow(doc, columns, widths, headers, size, true);
  for (const cells of body) {
    const height = rowHeight(doc, columns, widths, cells, size, false);
    if (doc.y + height > bottomLimit(doc)) {
      doc.addPage();
      drawRow(doc, columns, widths, headers, size, true);
    }
    drawRow(doc, columns, widths, cells, size, false);
  }
  doc.font(FONT.regular).fontSize(BODY_SIZE);
  doc.moveDown(0.5);
}

// ------------------------------------------------------------------------------------------------ contents

export interface ContentsEntry {
  ref: string;
  title: string;
  depth: number;
  page: number;
}

export const CONTENTS_LINE = 13;

/** How many contents lines fit on a page from `top` (the first page has the cover above them). */
export function contentsLinesPerPage(doc: Pdf, top: number): number {
  return Math.floor((bottomLimit(doc) - top) / CONTENTS_LINE);
}

/** One line of the contents: ref, title cut to fit, the page number at the right. */
export function contentsLine(doc: Pdf, entry: ContentsEntry, y: number): void {
  const x = left(doc) + Math.min(entry.depth, 6) * 10;
  const pageWidth = 36;
  const refWidth = 70;
  const titleWidth = left(doc) + contentWidth(doc) - pageWidth - x - refWidth - 6;
  doc
    .font(entry.depth === 0 ? FONT.bold : FONT.regular)
    .fontSize(8.5)
    .fillColor(INK);
  doc.text(pdfText(entry.ref), x, y, { width: refWidth, lineBreak: false, height: CONTENTS_LINE, ellipsis: true });
  let title = pdfText(entry.title);
  while (title.length > 1 && doc.widthOfString(title) > titleWidth) title = `${title.slice(0, -2)}…`;
  doc.text(title, x + refWidth, y, { width: titleWidth, lineBreak: false });
  doc.text(String(entry.page), left(doc) + contentWidth(doc) - pageWidth, y, {
    width: pageWidth,
    align: 'right',
    lineBreak: false,
  });
}

// ------------------------------------------------------------------------------------------------ footer

/** Writes `text(page, pages)` at the foot of every page (the document must buffer its pages). */
export function footers(doc: Pdf, text: (page: number, pages: number) => string): void {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i += 1) {
    doc.switchToPage(i);
    const margin = doc.page.margins.bottom;
    // Writing below the bottom margin would otherwise start a new page.
    doc.page.margins.bottom = 0;
    doc
      .font(FONT.regular)
      .fontSize(7.5)
      .fillColor(MUTED)
      .text(pdfText(text(i + 1, range.count)), left(doc), doc.page.height - margin + 22, {
        width: contentWidth(doc),
        align: 'center',
        lineBreak: false,
      });
    doc.page.margins.bottom = margin;
  }
  doc.fillColor(INK);
}

// ------------------------------------------------------------------------------------------------ policy HTML

export interface Run {
  text: string;
  bold: boolean;
  italic: boolean;
}
export type HtmlBlock =
  | { kind: 'heading'; level: 1 | 2 | 3 | 4; runs: Run[] }
  | { kind: 'paragraph'; runs: Run[]; indent: number; bullet: string | null }
  | { kind: 'table'; rows: string[][] }
  | { kind: 'rule' };

/** The little of the DOM the walker needs (jsdom nodes, without the DOM library's types). */
interface DomNode {
  nodeType: number;
  nodeName: string;
  nodeValue: string | null;
  textContent: string | null;
  childNodes: ArrayLike<DomNode>;
  getAttribute?: (name: string) => string | null;
}

const BLOCK_TAGS = new Set([
  'p',
  'div',
  'section',
  'article',
  'header',
  'footer',
  'aside',
  'address',
  'blockquote',
  'figure',
  'figcaption',
  'pre',
  'dl',
  'dt',
  'dd',
]);
const HEADING_LEVEL: Record<string, 1 | 2 | 3 | 4> = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 4, h6: 4 };

interface Style {
  bold: boolean;
  italic: boolean;
  pre: boolean;
}

/** Turns sanitised policy HTML into blocks of styled runs (a tiny walker over the DOM that DOMPurify parses). */
class BlockBuilder {
  readonly blocks: HtmlBlock[] = [];
  private runs: Run[] = [];
  private bullet: string | null = null;
  private readonly lists: { ordered: boolean; n: number }[] = [];
  private quote = 0;

  add(text: string, style: Style): void {
    const value = style.pre ? text : text.replace(/\s+/g, ' ');
    if (value === '') return;
    const last = this.runs.at(-1);
    if (last && last.bold === style.bold && last.italic === style.italic) last.text += value;
    else this.runs.push({ text: value, bold: style.bold, italic: style.italic });
  }

  /** Ends the paragraph being collected (nothing when it holds only spaces). */
  flush(): Run[] {
    const runs = this.runs;
    this.runs = [];
    const first = runs[0];
    const last = runs.at(-1);
    if (first) first.text = first.text.replace(/^[ ]+/, '');
    if (last) last.text = last.text.replace(/[ \n]+$/, '');
    const kept = runs.filter((r) => r.text !== '');
    if (kept.length === 0) return [];
    const indent = (this.lists.length + this.quote) * 14;
    this.blocks.push({ kind: 'paragraph', runs: kept, indent, bullet: this.bullet });
    this.bullet = null;
    return kept;
  }

  walk(node: DomNode, style: Style): void {
    if (node.nodeType === 3) {
      this.add(node.nodeValue ?? '', style);
      return;
    }
    if (node.nodeType !== 1 && node.nodeType !== 11) return;
    const tag = node.nodeName.toLowerCase();
    if (tag in HEADING_LEVEL) {
      this.headingOf(node, HEADING_LEVEL[tag]!, style);
      return;
    }
    switch (tag) {
      case 'script':
      case 'style':
      case 'template':
        return;
      case 'br':
        this.add('\n', { ...style, pre: true });
        return;
      case 'img': {
        const alt = node.getAttribute?.('alt')?.trim();
        this.add(alt ? ` [image: ${alt}] ` : ' [image] ', { ...style, italic: true });
        return;
      }
      case 'hr':
        this.flush();
        this.blocks.push({ kind: 'rule' });
        return;
      case 'table':
        this.flush();
        this.blocks.push({ kind: 'table', rows: tableRows(node) });
        return;
      case 'ul':
      case 'ol':
        this.flush();
        this.lists.push({ ordered: tag === 'ol', n: 0 });
        for (const child of Array.from(node.childNodes)) this.walk(child, style);
        this.flush();
        this.lists.pop();
        return;
      case 'li': {
        this.flush();
        const list = this.lists.at(-1);
        if (list) list.n += 1;
        this.bullet = list?.ordered ? `${list.n}.` : '•';
        for (const child of Array.from(node.childNodes)) this.walk(child, style);
        this.flush();
        this.bullet = null;
        return;
      }
      case 'strong':
      case 'b':
        for (const child of Array.from(node.childNodes)) this.walk(child, { ...style, bold: true });
        return;
      case 'em':
      case 'i':
      case 'cite':
        for (const child of Array.from(node.childNodes)) this.walk(child, { ...style, italic: true });
        return;
      default:
        if (!BLOCK_TAGS.has(tag)) {
          for (const child of Array.from(node.childNodes)) this.walk(child, style);
          return;
        }
        this.flush();
        if (tag === 'blockquote') this.quote += 1;
        for (const child of Array.from(node.childNodes))
          this.walk(child, { ...style, pre: style.pre || tag === 'pre' });
        this.flush();
        if (tag === 'blockquote') this.quote -= 1;
    }
  }

  private headingOf(node: DomNode, level: 1 | 2 | 3 | 4, style: Style): void {
    this.flush();
    for (const child of Array.from(node.childNodes)) this.walk(child, { ...style, bold: true });
    const runs = this.runs;
    this.runs = [];
    const text = runs
      .map((r) => r.text)
      .join('')
      .trim();
    if (text !== '') this.blocks.push({ kind: 'heading', level, runs: [{ text, bold: true, italic: false }] });
  }
}

/** Rows of a table as the text of their cells (th and td), nested tables flattened into their cell. */
function tableRows(table: DomNode): string[][] {
  const rows: string[][] = [];
  const visit = (node: DomNode) => {
    for (const child of Array.from(node.childNodes)) {
      const tag = child.nodeName.toLowerCase();
      if (tag === 'tr') {
        rows.push(
          Array.from(child.childNodes)
            .filter((c) => ['td', 'th'].includes(c.nodeName.toLowerCase()))
            .map((c) => (c.textContent ?? '').replace(/\s+/g, ' ').trim()),
        );
      } else if (['thead', 'tbody', 'tfoot'].includes(tag)) visit(child);
    }
  };
  visit(table);
  return rows.filter((r) => r.length > 0);
}

/** The blocks of a policy's sanitised HTML, parsed (and sanitised once more) by the server's DOMPurify. */
export function htmlBlocks(html: string): HtmlBlock[] {
  const fragment = DOMPurify.sanitize(html, { RETURN_DOM_FRAGMENT: true }) as unknown as DomNode;
  const builder = new BlockBuilder();
  builder.walk(fragment, { bold: false, italic: false, pre: false });
  builder.flush();
  return builder.blocks;
}

const fontOf = (run: Run) =>
  run.bold && run.italic ? FONT.boldItalic : run.bold ? FONT.bold : run.italic ? FONT.italic : FONT.regular;

/** Styled runs flowing as one wrapped paragraph from x. */
function drawRuns(doc: Pdf, runs: readonly Run[], x: number, width: number, size: number): void {
  runs.forEach((run, i) => {
    const text = pdfText(run.text);
    const more = i < runs.length - 1;
    doc.font(fontOf(run)).fontSize(size).fillColor(INK);
    if (i === 0) doc.text(text, x, doc.y, { width, continued: more });
    else doc.text(text, { continued: more });
  });
}

function drawHtmlParagraph(doc: Pdf, block: Extract<HtmlBlock, { kind: 'paragraph' }>): void {
  ensureSpace(doc, BODY_SIZE * 2.4);
  const x = left(doc) + block.indent;
  const bulletWidth = block.bullet ? 14 : 0;
  if (block.bullet) {
    const y = doc.y;
    doc
      .font(FONT.regular)
      .fontSize(BODY_SIZE)
      .text(pdfText(block.bullet), x, y, { width: bulletWidth, lineBreak: false });
    doc.y = y;
  }
  drawRuns(doc, block.runs, x + bulletWidth, contentWidth(doc) - block.indent - bulletWidth, BODY_SIZE);
  doc.x = left(doc);
  doc.moveDown(block.bullet ? 0.15 : 0.45);
}

/** A table of the policy: a real table up to 6 columns, else each row as one line of text. */
function drawHtmlTable(doc: Pdf, rows: string[][]): void {
  const width = Math.max(...rows.map((r) => r.length));
  if (width <= 6) {
    const [head, ...rest] = rows;
    const columns = Array.from({ length: width }, (_, i) => ({ header: head?.[i] ?? '', weight: 1 }));
    if (rest.length > 0) table(doc, columns, rest, 8);
    else paragraph(doc, (head ?? []).join(' | '));
    return;
  }
  for (const row of rows) paragraph(doc, row.join(' | '), { size: 8 });
}

/** Draws the blocks of a policy's HTML: headings one level below the binder's own, lists, tables, rules. */
export function drawHtml(doc: Pdf, blocks: readonly HtmlBlock[]): void {
  for (const block of blocks) {
    switch (block.kind) {
      case 'heading':
        heading(doc, block.runs.map((r) => r.text).join(''), Math.min(4, block.level + 2) as 3 | 4);
        break;
      case 'paragraph':
        drawHtmlParagraph(doc, block);
        break;
      case 'table':
        drawHtmlTable(doc, block.rows);
        break;
      case 'rule':
        rule(doc);
        break;
    }
  }
  doc.x = left(doc);
}

// ------------------------------------------------------------------------------------------------ chart

export interface ChartPoint {
  label: string;
  value: number | null;
  cl: number | null;
  ucl: number | null;
  lcl: number | null;
  target: number | null;
  provisional: boolean;
}

interface Frame {
  x: number;
  y: number;
  width: number;
  height: number;
  min: number;
  max: number;
}

const CHART_COLORS = { value: '#1c64b4', centre: '#495057', limit: '#adb5bd', target: '#2b8a3e', axis: '#868e96' };

/** Round steps for the value axis (1, 2, 2.5 or 5 times a power of ten). */
export function niceTicks(min: number, max: number, count = 5): number[] {
  if (!(max > min)) return [min];
  const raw = (max - min) / Math.max(1, count - 1);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 2.5, 5, 10].find((m) => m * power >= raw) ?? 10) * power;
  const ticks: number[] = [];
  for (let t = Math.ceil(min / step) * step; t <= max + step * 1e-9; t += step) ticks.push(Number(t.toPrecision(12)));
  return ticks;
}

/**
 * A number as a short axis label (up to two decimals, thousands grouped, so a 0.25 step stays readable); a percentage
 * takes its sign without a space, as the shared percent format writes it.
 */
export const formatNumber = (value: number | null, unit = '') =>
  value === null
    ? ''
    : `${value.toLocaleString('en-US', { maximumFractionDigits: Math.abs(value) >= 100 ? 1 : 2 })}${unit === '%' ? '%' : ''}`;

function valueRange(points: readonly ChartPoint[]): { min: number; max: number } {
  const values = points
    .flatMap((p) => [p.value, p.cl, p.ucl, p.lcl, p.target])
    .filter((v): v is number => v !== null && Number.isFinite(v));
  if (values.length === 0) return { min: 0, max: 1 };
  let min = Math.min(...values);
  let max = Math.max(...values);
  if (max === min) {
    min -= Math.abs(min) * 0.1 || 1;
    max += Math.abs(max) * 0.1 || 1;
  }
  const pad = (max - min) * 0.08;
  const ticks = niceTicks(min - pad, max + pad);
  return { min: Math.min(min - pad, ticks[0]!), max: Math.max(max + pad, ticks.at(-1)!) };
}

const xOf = (frame: Frame, i: number, n: number) =>
  n <= 1 ? frame.x + frame.width / 2 : frame.x + 6 + ((frame.width - 12) * i) / (n - 1);
const yOf = (frame: Frame, v: number) =>
  frame.y + frame.height - ((v - frame.min) / (frame.max - frame.min)) * frame.height;

function drawAxes(doc: Pdf, frame: Frame): void {
  doc
    .moveTo(frame.x, frame.y)
    .lineTo(frame.x, frame.y + frame.height)
    .lineTo(frame.x + frame.width, frame.y + frame.height)
    .lineWidth(0.6)
    .strokeColor(CHART_COLORS.axis)
    .stroke();
}

function drawValueTicks(doc: Pdf, frame: Frame, unit: string): void {
  doc.font(FONT.regular).fontSize(6.5).fillColor(MUTED);
  for (const tick of niceTicks(frame.min, frame.max)) {
    const y = yOf(frame, tick);
    doc
      .moveTo(frame.x - 3, y)
      .lineTo(frame.x, y)
      .lineWidth(0.5)
      .strokeColor(CHART_COLORS.axis)
      .stroke();
    doc.text(pdfText(formatNumber(tick, unit)), frame.x - 46, y - 3, { width: 41, align: 'right', lineBreak: false });
  }
}

/** Period labels under the axis, every few points so they do not collide. */
function drawPeriodLabels(doc: Pdf, frame: Frame, points: readonly ChartPoint[]): void {
  const every = Math.max(1, Math.ceil(points.length / 8));
  const slot = points.length <= 1 ? frame.width : ((frame.width - 12) / (points.length - 1)) * every;
  doc.font(FONT.regular).fontSize(6.5).fillColor(MUTED);
  points.forEach((point, i) => {
    if (i % every !== 0 && i !== points.length - 1) return;
    if (i === points.length - 1 && i % every !== 0 && i % every < every / 2) return;
    const x = xOf(frame, i, points.length);
    doc.text(pdfText(point.label), x - slot / 2, frame.y + frame.height + 4, {
      width: slot,
      align: 'center',
      lineBreak: false,
    });
  });
}

/** A level line (centre, limit, target): one horizontal stretch per run of equal values, breaking at gaps. */
function drawLevelLine(
  doc: Pdf,
  frame: Frame,
  points: readonly ChartPoint[],
  pick: (p: ChartPoint) => number | null,
  style: { color: string; width: number; dash?: [number, number] },
): void {
  const n = points.length;
  const half = n <= 1 ? frame.width / 4 : (frame.width - 12) / (n - 1) / 2;
  let start = 0;
  while (start < n) {
    const value = pick(points[start]!);
    let end = start;
    while (end + 1 < n && pick(points[end + 1]!) === value) end += 1;
    if (value !== null && Number.isFinite(value) && value >= frame.min && value <= frame.max) {
      const y = yOf(frame, value);
      const x0 = Math.max(frame.x, xOf(frame, start, n) - (start === end ? half : 0));
      const x1 = Math.min(frame.x + frame.width, xOf(frame, end, n) + (start === end ? half : 0));
      if (style.dash) doc.dash(style.dash[0], { space: style.dash[1] });
      doc.moveTo(x0, y).lineTo(x1, y).lineWidth(style.width).strokeColor(style.color).stroke();
      if (style.dash) doc.undash();
    }
    start = end + 1;
  }
}

/** The value line: joins consecutive values (a gap breaks it); the segment to the provisional period is dashed. */
function drawValueLine(doc: Pdf, frame: Frame, points: readonly ChartPoint[]): void {
  const n = points.length;
  for (let i = 1; i < n; i += 1) {
    const a = points[i - 1]!;
    const b = points[i]!;
    if (a.value === null || b.value === null) continue;
    if (b.provisional) doc.dash(2, { space: 2 });
    doc
      .moveTo(xOf(frame, i - 1, n), yOf(frame, a.value))
      .lineTo(xOf(frame, i, n), yOf(frame, b.value))
      .lineWidth(1.1)
      .strokeColor(CHART_COLORS.value)
      .stroke();
    if (b.provisional) doc.undash();
  }
}

/** A dot per value; the provisional (current, incomplete) period hollow. */
function drawPoints(doc: Pdf, frame: Frame, points: readonly ChartPoint[]): void {
  const n = points.length;
  points.forEach((point, i) => {
    if (point.value === null) return;
    doc.circle(xOf(frame, i, n), yOf(frame, point.value), 2.2).lineWidth(0.9);
    if (point.provisional) doc.fillAndStroke('#ffffff', CHART_COLORS.value);
    else doc.fillAndStroke(CHART_COLORS.value, CHART_COLORS.value);
  });
}

function legendItem(doc: Pdf, x: number, y: number, label: string, draw: (x: number, y: number) => void): number {
  draw(x, y + 3.5);
  doc
    .font(FONT.regular)
    .fontSize(6.5)
    .fillColor(MUTED)
    .text(pdfText(label), x + 18, y, { lineBreak: false });
  return x + 24 + doc.widthOfString(pdfText(label));
}

function drawLegend(doc: Pdf, x: number, y: number, points: readonly ChartPoint[]): void {
  const line = (color: string, dash?: [number, number]) => (lx: number, ly: number) => {
    if (dash) doc.dash(dash[0], { space: dash[1] });
    doc
      .moveTo(lx, ly)
      .lineTo(lx + 14, ly)
      .lineWidth(1)
      .strokeColor(color)
      .stroke();
    if (dash) doc.undash();
  };
  let at = legendItem(doc, x, y, 'Value', line(CHART_COLORS.value));
  if (points.some((p) => p.cl !== null)) at = legendItem(doc, at, y, 'Centre line', line(CHART_COLORS.centre, [3, 2]));
  if (points.some((p) => p.ucl !== null || p.lcl !== null)) {
    at = legendItem(doc, at, y, 'Control limits', line(CHART_COLORS.limit, [1, 1.5]));
  }
  if (points.some((p) => p.target !== null)) at = legendItem(doc, at, y, 'Target', line(CHART_COLORS.target));
  if (points.some((p) => p.provisional && p.value !== null)) {
    legendItem(doc, at, y, 'Current period (incomplete)', (lx, ly) => {
      doc
        .circle(lx + 7, ly, 2.2)
        .lineWidth(0.9)
        .fillAndStroke('#ffffff', CHART_COLORS.value);
    });
  }
}

/**
 * A small line chart of a measure series at the current position: axes with round ticks, the centre line dashed,
 * control limits dotted, the target line, the values joined with a dot each (the provisional period hollow), period
 * labels every few points and a legend.
 */
export function lineChart(doc: Pdf, points: readonly ChartPoint[], unit: string, height = 150): void {
  if (points.length === 0) return;
  ensureSpace(doc, height + 34);
  const range = valueRange(points);
  const frame: Frame = {
    x: left(doc) + 50,
    y: doc.y + 4,
    width: contentWidth(doc) - 60,
    height,
    ...range,
  };
  drawValueTicks(doc, frame, unit);
  drawLevelLine(doc, frame, points, (p) => p.ucl, { color: CHART_COLORS.limit, width: 0.6, dash: [1, 1.5] });
  drawLevelLine(doc, frame, points, (p) => p.lcl, { color: CHART_COLORS.limit, width: 0.6, dash: [1, 1.5] });
  drawLevelLine(doc, frame, points, (p) => p.cl, { color: CHART_COLORS.centre, width: 0.8, dash: [3, 2] });
  drawLevelLine(doc, frame, points, (p) => p.target, { color: CHART_COLORS.target, width: 1 });
  drawAxes(doc, frame);
  drawValueLine(doc, frame, points);
  drawPoints(doc, frame, points);
  drawPeriodLabels(doc, frame, points);
  drawLegend(doc, frame.x, frame.y + frame.height + 15, points);
  doc.fillColor(INK).strokeColor(INK).font(FONT.regular).fontSize(BODY_SIZE);
  doc.x = left(doc);
  doc.y = frame.y + frame.height + 30;
}
