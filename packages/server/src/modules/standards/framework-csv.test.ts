import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/errors.js';
import { isCopyrightedCode, LICENCE_REFUSAL, parseFrameworkCsv } from './framework-csv.js';

/** The CSV reader of framework imports, and the licence rule at its source (no database). */

/** The AppError a parse throws (fails the test when it does not throw one). */
function refusal(csv: string, policy: Parameters<typeof parseFrameworkCsv>[1] = 'tenant_text'): AppError {
  try {
    parseFrameworkCsv(csv, policy);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error('the CSV was accepted');
}

describe('parseFrameworkCsv', () => {
  it('reads rows in order with their parents, types, titles and text', () => {
    const rows = parseFrameworkCsv(
      [
        'Ref ID,Parent-Ref-ID,TYPE,Title,Text',
        'A,,Chapter,  Governance  ,',
        'A.1,A,standard,"Board, duties and minutes","The board meets; ""quorum"" is half."',
        'A.1.1,A.1,EP,Minutes kept,',
        '',
        'B,,chapter,Infection control,Wash hands.',
      ].join('\r\n'),
      'tenant_text',
    );
    expect(rows).toEqual([
      { refId: 'A', parentRefId: null, type: 'chapter', title: 'Governance', text: null },
      {
        refId: 'A.1',
        parentRefId: 'A',
        type: 'standard',
        title: 'Board, duties and minutes',
        text: 'The board meets; "quorum" is half.',
      },
      { refId: 'A.1.1', parentRefId: 'A.1', type: 'ep', title: 'Minutes kept', text: null },
      { refId: 'B', parentRefId: null, type: 'chapter', title: 'Infection control', text: 'Wash hands.' },
    ]);
  });

  it('accepts a byte order mark, columns in any order and a file without a text column', () => {
    const rows = parseFrameworkCsv(
      '\uFEFFtitle,type,parent_ref_id,ref_id\nGovernance,chapter,,A\nBoard,tag,A,A.1',
      'identifiers_only',
    );
    expect(rows.map((r) => [r.refId, r.parentRefId, r.type, r.title, r.text])).toEqual([
      ['A', null, 'chapter', 'Governance', null],
      ['A.1', 'A', 'tag', 'Board', null],
    ]);
  });

  it('keeps no text for identifiers-only frameworks and refuses a text column with anything in it', () => {
    const empty = parseFrameworkCsv(
      'ref_id,parent_ref_id,type,title,text\nA,,chapter,One,\nB,,chapter,Two,   ',
      'identifiers_only',
    );
    expect(empty.every((row) => row.text === null)).toBe(true);
    const csv = [
      'ref_id,parent_ref_id,type,title,text',
      ...Array.from({ length: 8 }, (_, i) => `E${i},,element,Element ${i},${i % 2 === 0 ? 'Copyrighted words' : ''}`),
    ].join('\n');
    const error = refusal(csv, 'identifiers_only');
    expect(error.status).toBe(400);
    expect(error.message).toBe(`${LICENCE_REFUSAL} (Text on rows 2, 4, 6, 8.)`);
    expect(error.errors).toEqual({ csv: [error.message] });
    const many = [
      'ref_id,parent_ref_id,type,title,text',
      ...Array.from({ length: 9 }, (_, i) => `E${i},,element,Element ${i},Words`),
    ].join('\n');
    expect(refusal(many, 'identifiers_only').message).toBe(
      `${LICENCE_REFUSAL} (Text on rows 2, 3, 4, 5, 6 and 4 more.)`,
    );
    // The same file is fine for a facility's own framework.
    expect(parseFrameworkCsv(csv, 'tenant_text').filter((r) => r.text !== null)).toHaveLength(4);
  });

  it('refuses files it cannot read, and files without the columns or rows', () => {
    expect(refusal('').message).toBe('The file is empty.');
    expect(refusal('ref_id,parent_ref_id,type,title\n').message).toBe('The file has a header but no rows.');
    expect(refusal('ref_id,title,kind\nA,One,chapter').message).toBe(
      'The header needs the columns ref_id, parent_ref_id, type and title (missing: parent_ref_id, type).',
    );
    expect(refusal('ref_id,parent_ref_id,type,title\n"A,,chapter,One').message).toBe(
      'The file is not a readable CSV file.',
    );
  });

  it('refuses bad rows, naming every row of every problem', () => {
    const error = refusal(
      [
        'ref_id,parent_ref_id,type,title',
        'A,,chapter,One', // 2
        'A,,chapter,Again', // 3 duplicate
        'B.1,B,element,Before its parent', // 4 parent later
        'B,,chapter,Two', // 5
        'C,,paragraph,Bad type', // 6
        ',,chapter,No ref', // 7
        'D,,chapter,', // 8 no title
        `${'X'.repeat(61)},,chapter,Long ref`, // 9
        `E,,chapter,${'t'.repeat(301)}`, // 10
        'F,Z,element,Unknown parent', // 11
        'A.1,A,element,Fine', // 12
        'A.1,A,element,Again', // 13 duplicate
      ].join('\n'),
    );
    expect(error.status).toBe(400);
    expect(error.errors!.csv).toEqual([
      'A ref_id appears twice (rows 3, 13).',
      'A parent_ref_id is not on an earlier row (rows 4, 11).',
      'A type is not one of chapter, section, condition, standard, element, ep, tag, goal (rows 6).',
      'A row has no ref_id (rows 7).',
      'A row has no title (rows 8).',
      'A ref_id is longer than 60 characters (rows 9).',
      'A title is longer than 300 characters (rows 10).',
    ]);
    expect(error.message).toBe('A ref_id appears twice (rows 3, 13).');
    expect(refusal(`ref_id,parent_ref_id,type,title,text\nA,,chapter,One,${'w'.repeat(8001)}`).errors!.csv).toEqual([
      'A text is longer than 8000 characters (rows 2).',
    ]);
  });

  it('refuses a node that is its own parent', () => {
    expect(refusal('ref_id,parent_ref_id,type,title\nA,A,chapter,Loop').errors!.csv).toEqual([
      'A parent_ref_id is not on an earlier row (rows 2).',
    ]);
  });
});

describe('isCopyrightedCode', () => {
  it("knows the copyrighted publishers' codes, however they are written", () => {
    for (const code of [
      'TJC-HAP',
      'tjc-cah',
      ' TJC ',
      'JC.2026',
      'JCAHO',
      'DNV-NIAHO',
      'NIAHO',
      'HFAP-2025',
      'CIHQ',
      'ACHC',
      'AAAHC',
    ]) {
      expect(isCopyrightedCode(code), code).toBe(true);
    }
    for (const code of ['TJC_HAP', 'DNV_NIAHO', 'tjc_hap']) expect(isCopyrightedCode(code), code).toBe(true);
    for (const code of ['CMS-482', 'STATE-NY', 'LOCAL', 'NYS-DOH', 'ADNV']) {
      expect(isCopyrightedCode(code), code).toBe(false);
    }
  });
});
