import { describe, expect, it } from 'vitest';
import { csvCell, csvLine, csvStream } from '../../../lib/csv-export.js';

describe('CSV export cells', () => {
  it.each([
    ['=SUM(A1:A9)', "'=SUM(A1:A9)"],
    ['+1+2', "'+1+2"],
    ['-2+3', "'-2+3"],
    ['@cmd', "'@cmd"],
    ['\tTAB', "'\tTAB"],
    ['\rCR', `"'\rCR"`],
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['=1,2', `"'=1,2"`],
  ])('escapes %j as %j', (value, expected) => {
    expect(csvCell(value)).toBe(expected);
  });

  it('writes numbers and booleans as themselves and null as an empty cell', () => {
    expect(csvLine([-3, 1.5, true, null, undefined, 'x'])).toBe('-3,1.5,true,,,x\r\n');
  });

  it('streams a header and batches of rows', async () => {
    async function* batches() {
      yield [['2026-01-01', '=HYPERLINK("x")']];
      yield [];
      yield [['2026-02-01', 4]];
    }
    let text = '';
    for await (const piece of csvStream(['Month', '@Label'], batches())) text += piece.toString();
    expect(text).toBe(`Month,'@Label\r\n2026-01-01,"'=HYPERLINK(""x"")"\r\n2026-02-01,4\r\n`);
  });
});
