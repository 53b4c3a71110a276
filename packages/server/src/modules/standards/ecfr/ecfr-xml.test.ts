import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { builtInRows, CMS_HOSPITAL_COP } from '../frameworks.service.js';
import { deriveCrosswalk, type EditionNode } from './derive-crosswalk.js';
import { EcfrFormatError, normalise, parseEcfrPart } from './ecfr-xml.js';
import { depthsOf } from './paragraph-markers.js';

/**
 * The eCFR XML reader and the crosswalk it derives (docs/standards.md "Editions from the eCFR"). The fixture is the
 * eCFR text of §§ 482.13, 482.21 and 482.59 in the eCFR's XML elements (fixtures/README.md names its source).
 */
const FIXTURE = readFileSync(new URL('./fixtures/ecfr-42-482-excerpt.xml', import.meta.url), 'utf8');

const part = parseEcfrPart(FIXTURE, { optionalSubparts: ['D'] });
const row = (refId: string) => {
  const found = part.rows.find((r) => r.refId === refId);
  if (!found) throw new Error(`${refId} not read`);
  return found;
};

/** Every <P> of the fixture, read without the parser: its text with tags dropped and whitespace normalised. */
const fixtureParagraphs = [...FIXTURE.matchAll(/<P>([\s\S]*?)<\/P>/g)].map((match) =>
  normalise(match[1]!.replace(/<[^>]+>/g, '').replace(/&amp;/g, '&')),
);

describe('eCFR XML reader', () => {
  it('reads the part, its date, subparts as chapters and sections as conditions', () => {
    expect(part).toMatchObject({ title: 42, part: '482', amendedDate: '2025-01-01' });
    expect(part.heading).toBe('PART 482—CONDITIONS OF PARTICIPATION FOR HOSPITALS');
    expect(row('Subpart B')).toMatchObject({ type: 'chapter', title: 'Administration', parentRefId: null });
    expect(row('§482.21')).toMatchObject({
      type: 'condition',
      parentRefId: 'Subpart C',
      heading: 'Condition of participation: Quality assessment and performance improvement program.',
      title: 'Quality assessment and performance improvement program',
    });
    expect(row('§482.21').text).toMatch(/^The hospital must develop, implement, and maintain an effective/);
    expect(row('§482.21').sourceNote).toBe(
      '[68 FR 3454, Jan. 24, 2003, as amended at 84 FR 51818, Sept. 30, 2019; 89 FR 94591, Nov. 27, 2024]',
    );
  });

  it('builds identifiers from the designators, headings apart from the text, inline subparagraphs split', () => {
    // "(a) <I>Standard: Program scope.</I> (1) The program must include ..." is two paragraphs.
    expect(row('§482.21(a)')).toMatchObject({
      type: 'standard',
      heading: 'Standard: Program scope.',
      title: 'Program scope',
      text: null,
    });
    expect(row('§482.21(a)(1)')).toMatchObject({ type: 'element', parentRefId: '§482.21(a)', heading: null });
    expect(row('§482.21(a)(1)').text).toMatch(/^The program must include, but not be limited to/);
    // Renumbered in 2024: Executive responsibilities is (f), the multi-hospital systems standard (g).
    expect(row('§482.21(f)').heading).toBe('Standard: Executive responsibilities.');
    expect(row('§482.21(g)').heading).toBe('Standard: Unified and integrated QAPI program for multi-hospital systems.');
    // Four levels: (e)(12)(ii)(D), and numbered paragraphs past 9.
    expect(row('§482.13(e)(12)(ii)(D)').text).toBe('The need to continue or terminate the restraint or seclusion.');
    expect(row('§482.13(e)(16)(v)').parentRefId).toBe('§482.13(e)(16)');
    // An italic paragraph heading is a heading; an italic defined term opening the sentence is text.
    expect(row('§482.13(f)(1)').heading).toBe('Training intervals.');
    expect(row('§482.13(e)(1)(ii)')).toMatchObject({ heading: null });
    expect(row('§482.13(e)(1)(ii)').text).toMatch(/^Seclusion is the involuntary confinement of a patient alone/);
  });

  it('marks paragraphs with a later effective date in force from it, their subparagraphs too', () => {
    expect(row('§482.21(b)(4)').inForceFrom).toBe('2027-01-01');
    expect(row('§482.21(b)(4)(iv)').inForceFrom).toBe('2027-01-01');
    expect(row('§482.21(e)').inForceFrom).toBe('2027-01-01');
    expect(row('§482.21(e)(2)').inForceFrom).toBe('2027-01-01');
    expect(row('§482.59(a)(2)').inForceFrom).toBe('2026-01-01');
    expect(row('§482.59(c)(1)(ii)').inForceFrom).toBe('2027-01-01');
    expect(row('§482.21(f)(1)').inForceFrom).toBeNull();
  });

  it('marks optional subparts', () => {
    expect(row('§482.59(b)(2)').optional).toBe(true);
    expect(row('§482.21(b)(4)').optional).toBe(false);
  });

  it('loses and adds nothing: every paragraph of the XML is in the rows, word for word, once', () => {
    // Each row's designators, heading and text put back together give the fixture's paragraphs.
    const rebuilt: string[] = [];
    for (const r of part.rows) {
      if (r.type === 'chapter') continue;
      if (r.type === 'condition') {
        if (r.text) rebuilt.push(r.text);
        continue;
      }
      const marker = /\(([^()]+)\)$/.exec(r.refId)![1];
      const piece = normalise([`(${marker})`, r.heading ?? '', r.text ?? ''].join(' '));
      // A paragraph whose heading is followed on its line by its first subparagraph joins it, as the XML prints it.
      const last = rebuilt[rebuilt.length - 1];
      const parent = part.rows.find((p) => p.refId === r.parentRefId);
      if (
        parent?.heading &&
        !parent.text &&
        last === normalise(`(${/\(([^()]+)\)$/.exec(parent.refId)![1]}) ${parent.heading}`)
      ) {
        rebuilt[rebuilt.length - 1] = `${last} ${piece}`;
      } else rebuilt.push(piece);
    }
    expect(rebuilt).toEqual(fixtureParagraphs);
  });

  it('refuses what is not an eCFR part', () => {
    expect(() => parseEcfrPart('<ECFR><DIV5 N="482" TYPE="PART"><HEAD>x')).toThrow(EcfrFormatError);
    expect(() => parseEcfrPart('<ECFR><DIV1 N="42" TYPE="TITLE"/></ECFR>')).toThrow(/no CFR part/);
    expect(() => parseEcfrPart('<!DOCTYPE x [<!ENTITY a "b">]><ECFR/>')).toThrow(/document type/);
  });
});

describe('paragraph designators', () => {
  const depths = (values: string) =>
    depthsOf(values.split(' ').map((value) => ({ value: value.replace(/\*/g, ''), italic: value.startsWith('*') })));

  it('reads (i) as a letter after (h), and as a roman numeral below a number when (ii) follows', () => {
    expect(depths('a b c d e f g h i j')).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(depths('h 1 2 i j')).toEqual([0, 1, 1, 0, 0]);
    expect(depths('h 1 i ii 2 i')).toEqual([0, 1, 2, 2, 1, 0]);
    expect(depths('a 1 i ii iii iv v vi 2')).toEqual([0, 1, 2, 2, 2, 2, 2, 2, 1]);
    expect(depths('a 1 i A B ii 2 b')).toEqual([0, 1, 2, 3, 3, 2, 1, 0]);
    expect(depths('a 1 i A *1* *2* B')).toEqual([0, 1, 2, 3, 4, 4, 3]);
  });
});

describe('the crosswalk derived from the 2024 edition', () => {
  let id = 0;
  const nodes = (rows: { refId: string; title: string; text: string | null; heading?: string | null }[]) =>
    rows.map(
      (r): EditionNode => ({ id: ++id, refId: r.refId, title: r.title, text: r.text, heading: r.heading ?? null }),
    );
  const old = nodes(builtInRows(CMS_HOSPITAL_COP));
  const edition = nodes(part.rows);
  const mappings = deriveCrosswalk(old, edition);
  const ref = (nodeId: number) => [...old, ...edition].find((n) => n.id === nodeId)!.refId;
  const targetsOf = (refId: string) =>
    mappings.filter((m) => ref(m.sourceNodeId) === refId).map((m) => [ref(m.targetNodeId), m.relationship]);

  it('follows a standard to its new identifier (482.21(e) -> (f), (f) -> (g)) with its paragraphs', () => {
    expect(targetsOf('§482.21(e)')).toEqual([['§482.21(f)', 'equal']]);
    expect(targetsOf('§482.21(f)')).toEqual([['§482.21(g)', 'equal']]);
    expect(targetsOf('§482.21(e)(1)')).toEqual([['§482.21(f)(1)', 'equal']]);
    expect(mappings.find((m) => ref(m.targetNodeId) === '§482.21(f)(1)')?.rationale).toMatch(/renumbered/i);
  });

  it('keeps unchanged paragraphs equal and leaves new ones unmapped', () => {
    expect(targetsOf('§482.21(a)(1)')).toEqual([['§482.21(a)(1)', 'equal']]);
    for (const added of ['§482.21(b)(4)', '§482.21(e)(1)', '§482.59(c)(1)']) {
      expect(
        mappings.some((m) => ref(m.targetNodeId) === added),
        added,
      ).toBe(false);
    }
  });

  it('maps a paragraph the old edition held whole to each of its new subparagraphs', () => {
    // The 2024 edition's restraint standard (e) was one element; the eCFR divides it into (e)(1)-(16).
    const parts = targetsOf('§482.13(e)').map(([target]) => target);
    expect(parts).toEqual(expect.arrayContaining(['§482.13(e)(2)', '§482.13(e)(12)(ii)(D)', '§482.13(e)(16)(v)']));
  });
});
