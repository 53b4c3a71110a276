import type { StdNodeType } from '@portal/shared';
import { DOMParser } from '@xmldom/xmldom';
import { depthsOf, type Marker } from './paragraph-markers.js';

/**
 * Reads one CFR part from the official eCFR XML (the eCFR versioner API's `full/{date}/title-N.xml?part=`, or GovInfo's
 * bulk ECFR files; elements as in GPO's "e-CFR XML User Guide": DIV5 part, DIV6 subpart, DIV7 subject group, DIV8
 * section, HEAD, P/FP paragraphs with I/E italics, CITA source notes) into framework rows, mechanically: identifiers
 * from the paragraph designators, the regulation's own headings kept apart from the product's short titles, each
 * section's source note, and "Effective <date>," paragraphs marked in force from that date (their subparagraphs too).
 */

export interface EcfrRow {
  refId: string;
  parentRefId: string | null;
  type: StdNodeType;
  /** The product's short title: the heading without "Standard:" and the full stop, else the text's first words. */
  title: string;
  /** The regulation's own heading, as printed ("Standard: Organization and staffing."), or null. */
  heading: string | null;
  text: string | null;
  /** The day a paragraph with a future effective date comes into force (ISO date), inherited by its subparagraphs. */
  inForceFrom: string | null;
  /** A section's source note ("[51 FR 22042, June 17, 1986, as amended at ...]"). */
  sourceNote: string | null;
  /** Parts a facility takes on only when it applies (subpart E: psychiatric hospitals, transplant programs). */
  optional: boolean;
}

export interface EcfrPart {
  title: number;
  part: string;
  heading: string;
  /** The snapshot date the XML says it holds (AMDDATE), when it says one. */
  amendedDate: string | null;
  rows: EcfrRow[];
}

export class EcfrFormatError extends Error {}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const MONTHS_SHORT = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'June', 'July', 'Aug', 'Sept', 'Oct', 'Nov', 'Dec'];

/** Whitespace as a reader sees it: runs of spaces, tabs and newlines are one space. */
export const normalise = (text: string) => text.replace(/\s+/g, ' ').trim();

const elements = (node: Node): Element[] => {
  const out: Element[] = [];
  for (let child = node.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === 1) out.push(child as Element);
  }
  return out;
};

const isItalic = (element: Element) =>
  element.tagName === 'I' || (element.tagName === 'E' && element.getAttribute('T') === '03');

/** A paragraph's content as pieces: text, and italic runs (where headings and italic designators live). */
type Piece = { italic: boolean; text: string };

function pieces(node: Node, italic = false, out: Piece[] = []): Piece[] {
  for (let child = node.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === 3 || child.nodeType === 4) out.push({ italic, text: child.nodeValue ?? '' });
    else if (child.nodeType === 1) pieces(child, italic || isItalic(child as Element), out);
  }
  return out;
}

/** Reads the designators, then an italic heading, at the start of a paragraph; returns what is left. */
function splitParagraph(parts: Piece[]): { markers: Marker[]; heading: string | null; rest: Piece[] }[] {
  const result: { markers: Marker[]; heading: string | null; rest: Piece[] }[] = [];
  let queue = mergeAdjacent(parts);
  for (;;) {
    const markers: Marker[] = [];
    // Designators: "(a)", "(1)", "(<I>1</I>)", possibly several in a row: "(a)(1)".
    for (;;) {
      const marker = takeMarker(queue);
      if (!marker) break;
      markers.push(marker.marker);
      queue = marker.rest;
    }
    let heading: string | null = null;
    const first = firstNonBlank(queue);
    // A paragraph heading is italic and ends with its stop ("Definitions."); an italic defined term that opens the
    // sentence ("<I>Seclusion</I> is the involuntary ...") is text.
    if (markers.length > 0 && first && queue[first.index]!.italic && /[.:—]$/.test(queue[first.index]!.text.trim())) {
      heading = normalise(queue[first.index]!.text);
      queue = queue.slice(first.index + 1);
    }
    // After a heading, the text may open the first subparagraph on the same line: "(a) Standard: X. (1) The ...".
    if (heading !== null) {
      const inline = takeMarker(queue);
      if (inline) {
        result.push({ markers, heading, rest: [] });
        continue;
      }
    }
    result.push({ markers, heading, rest: queue });
    return result;
  }
}

function mergeAdjacent(parts: Piece[]): Piece[] {
  const out: Piece[] = [];
  for (const part of parts) {
    const last = out[out.length - 1];
    if (last && last.italic === part.italic) last.text += part.text;
    else out.push({ ...part });
  }
  return out;
}

function firstNonBlank(queue: Piece[]) {
  const index = queue.findIndex((piece) => piece.text.trim() !== '');
  return index < 0 ? null : { index };
}

/** Takes one designator off the front of a paragraph: plain "(a)" or with its inside in italics "(<I>1</I>)". */
function takeMarker(queue: Piece[]): { marker: Marker; rest: Piece[] } | null {
  const joined = queue.map((piece) => piece.text).join('');
  const match = /^\s*\(([a-zA-Z]{1,4}|\d{1,3})\)/.exec(joined);
  if (!match) return null;
  // Which characters were italic: the inside of the parentheses.
  let offset = 0;
  let italic = false;
  const start = match[0].indexOf('(') + 1;
  for (const piece of queue) {
    if (offset + piece.text.length > start) {
      italic = piece.italic;
      break;
    }
    offset += piece.text.length;
  }
  return { marker: { value: match[1]!, italic }, rest: dropChars(queue, match[0].length) };
}

function dropChars(queue: Piece[], count: number): Piece[] {
  const out: Piece[] = [];
  let left = count;
  for (const piece of queue) {
    if (left >= piece.text.length) {
      left -= piece.text.length;
      continue;
    }
    out.push({ italic: piece.italic, text: piece.text.slice(left) });
    left = 0;
  }
  return out;
}

const textOf = (queue: Piece[]) => normalise(queue.map((piece) => piece.text).join(''));

/** "Effective January 1, 2027, ..." at the start of a paragraph's text or heading. */
export function effectiveDate(text: string): string | null {
  const match =
    /^Effective (January|February|March|April|May|June|July|August|September|October|November|December) (\d{1,2}), (\d{4})\b/.exec(
      text,
    );
  if (!match) return null;
  const month = MONTHS.indexOf(match[1]!) + 1;
  return `${match[3]}-${String(month).padStart(2, '0')}-${match[2]!.padStart(2, '0')}`;
}

/** "Jan. 1, 2025" (AMDDATE) as an ISO date. */
function amendedDate(text: string): string | null {
  const match = /^([A-Za-z]+)\.? (\d{1,2}), (\d{4})$/.exec(normalise(text));
  if (!match) return null;
  const name = match[1]!;
  let month = MONTHS_SHORT.findIndex((short) => short.toLowerCase() === name.toLowerCase()) + 1;
  if (month === 0) month = MONTHS.findIndex((full) => full.toLowerCase() === name.toLowerCase()) + 1;
  if (month === 0) return null;
  return `${match[3]}-${String(month).padStart(2, '0')}-${match[2]!.padStart(2, '0')}`;
}

/** The product's short title: the heading without its label and full stop, else the first words of the text. */
export function shortTitle(heading: string | null, text: string | null, fallback: string): string {
  if (heading) {
    const bare = heading
      .replace(/^(Condition of participation|Standard|Condition for coverage):\s*/i, '')
      .replace(/[.:—-]+$/, '')
      .trim();
    if (bare) return bare.charAt(0).toUpperCase() + bare.slice(1);
  }
  const words = normalise(text ?? '');
  if (!words) return fallback;
  const sentence = words.split(/(?<=[.;:—])\s/)[0]!.replace(/[.;:—]+$/, '');
  if (sentence.length <= 90) return sentence;
  const cut = sentence.slice(0, 90);
  return `${cut.slice(0, cut.lastIndexOf(' '))}…`;
}

interface SectionParagraph {
  markers: Marker[];
  heading: string | null;
  text: string;
}

function sectionRows(div8: Element, parentRefId: string, optional: boolean): EcfrRow[] {
  const head = elements(div8).find((el) => el.tagName === 'HEAD');
  const headText = normalise(head?.textContent ?? '');
  const numberMatch = /^§+\s*([\d.]+)\s*(.*)$/.exec(headText);
  const number = div8.getAttribute('N')?.replace(/^§+\s*/, '') || numberMatch?.[1];
  if (!number) throw new EcfrFormatError(`A section has no number: "${headText.slice(0, 80)}".`);
  const sectionRef = `§${number}`;
  const sectionHeading = numberMatch ? normalise(numberMatch[2] ?? '') : headText;
  const intro: string[] = [];
  const paragraphs: SectionParagraph[] = [];
  const notes: string[] = [];
  for (const el of elements(div8)) {
    if (el.tagName === 'HEAD') continue;
    if (el.tagName === 'CITA') {
      notes.push(normalise(el.textContent ?? ''));
      continue;
    }
    if (el.tagName !== 'P' && el.tagName !== 'FP') continue;
    for (const part of splitParagraph(pieces(el))) {
      const text = textOf(part.rest);
      if (part.markers.length === 0) {
        // Text before (a) belongs to the section; an unnumbered paragraph later on continues the one above it.
        const last = paragraphs[paragraphs.length - 1];
        if (last) last.text = normalise(`${last.text}\n${text}`);
        else intro.push(text);
        continue;
      }
      part.markers.forEach((marker, index) => {
        const lastOne = index === part.markers.length - 1;
        paragraphs.push({
          markers: [marker],
          heading: lastOne ? part.heading : null,
          text: lastOne ? text : '',
        });
      });
    }
  }
  const depths = depthsOf(paragraphs.map((p) => p.markers[0]!));
  const introText = normalise(intro.join('\n')) || null;
  const rows: EcfrRow[] = [
    {
      refId: sectionRef,
      parentRefId,
      type: 'condition',
      title: shortTitle(sectionHeading, introText, sectionRef),
      heading: sectionHeading || null,
      text: introText,
      inForceFrom: null,
      sourceNote: notes.join('\n') || null,
      optional,
    },
  ];
  const path: { refId: string; inForceFrom: string | null }[] = [];
  const seen = new Set<string>();
  paragraphs.forEach((paragraph, i) => {
    const depth = depths[i]!;
    path.length = depth;
    const parent = path[depth - 1];
    const parentRef = parent?.refId ?? sectionRef;
    const marker = paragraph.markers[0]!;
    const refId = `${parentRef}(${marker.value})`;
    if (seen.has(refId)) throw new EcfrFormatError(`Paragraph ${refId} appears twice.`);
    seen.add(refId);
    const inForceFrom =
      effectiveDate(paragraph.text) ?? effectiveDate(paragraph.heading ?? '') ?? parent?.inForceFrom ?? null;
    path.push({ refId, inForceFrom });
    rows.push({
      refId,
      parentRefId: parentRef,
      type: depth === 0 ? 'standard' : 'element',
      title: shortTitle(paragraph.heading, paragraph.text, `Paragraph (${marker.value})`),
      heading: paragraph.heading,
      text: paragraph.text || null,
      inForceFrom,
      sourceNote: null,
      optional,
    });
  });
  return rows;
}

export interface ParseOptions {
  /** Subparts that a facility takes on only when they apply (e.g. ['E']). */
  optionalSubparts?: readonly string[];
}

/** Parses the XML of one part (a whole title's XML is read for its first DIV5 part). */
export function parseEcfrPart(xml: string, options: ParseOptions = {}): EcfrPart {
  const errors: string[] = [];
  const doc = new DOMParser({
    errorHandler: {
      error: (message) => errors.push(String(message)),
      fatalError: (message) => errors.push(String(message)),
    },
  }).parseFromString(xml, 'text/xml');
  // A document type could define entities: the eCFR's XML never needs one.
  if (doc.doctype) throw new EcfrFormatError('The file declares a document type; eCFR XML has none.');
  if (errors.length > 0 || !doc.documentElement) {
    throw new EcfrFormatError('The file is not well-formed XML.');
  }
  const div5 = Array.from(doc.getElementsByTagName('DIV5')).find((el) => el.getAttribute('TYPE') === 'PART');
  if (!div5) throw new EcfrFormatError('The file holds no CFR part (no DIV5 element of type PART).');
  const part = div5.getAttribute('N') ?? '';
  const partHead = normalise(elements(div5).find((el) => el.tagName === 'HEAD')?.textContent ?? '');
  const amd = doc.getElementsByTagName('AMDDATE')[0];
  const title = Number(
    Array.from(doc.getElementsByTagName('DIV1'))
      .find((el) => el.getAttribute('TYPE') === 'TITLE')
      ?.getAttribute('N') ?? 42,
  );
  const rows: EcfrRow[] = [];
  const optionalSubparts = new Set(options.optionalSubparts ?? []);
  const subparts = elements(div5).filter((el) => el.tagName === 'DIV6' && el.getAttribute('TYPE') === 'SUBPART');
  if (subparts.length === 0) throw new EcfrFormatError(`Part ${part} has no subparts.`);
  for (const div6 of subparts) {
    const letter = div6.getAttribute('N') ?? '';
    const head = normalise(elements(div6).find((el) => el.tagName === 'HEAD')?.textContent ?? '');
    const subpartRef = `Subpart ${letter}`;
    const heading = head.replace(/^Subpart\s+[A-Z]+\s*[—–-]\s*/, '') || null;
    const optional = optionalSubparts.has(letter);
    rows.push({
      refId: subpartRef,
      parentRefId: null,
      type: 'chapter',
      title: heading ?? subpartRef,
      heading: head || null,
      text: null,
      inForceFrom: null,
      sourceNote: null,
      optional,
    });
    // Sections sit in the subpart or in its subject groups (DIV7), in document order.
    const sections = (node: Element): Element[] =>
      elements(node).flatMap((el) =>
        el.tagName === 'DIV8' && el.getAttribute('TYPE') === 'SECTION'
          ? [el]
          : el.tagName === 'DIV7'
            ? sections(el)
            : [],
      );
    for (const div8 of sections(div6)) rows.push(...sectionRows(div8, subpartRef, optional));
  }
  return { title, part, heading: partHead, amendedDate: amd ? amendedDate(amd.textContent ?? '') : null, rows };
}
