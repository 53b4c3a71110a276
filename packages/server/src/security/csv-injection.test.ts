// CSV (formula) injection on export (issue: "CSV formula injection escaped on export"). Every CSV the server writes
// goes through lib/csv.ts (csvField; lib/csv-export.ts csvCell and csvLine build on it): a text cell starting with
// = + - @, TAB or CR gets a leading apostrophe, so a spreadsheet shows it as text instead of running it; a cell that
// is a JavaScript number is written as the number (its text is digits, sign, point and exponent only), so -3 stays a
// number. Proven here for any string (fast-check), through a real export of values entered through the API, and by
// checking that every module that answers text/csv builds its cells with those helpers.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app.js';
import { drawnSample, samplingSetup } from '../../test/chart-review-sampling-kit.js';
import { csvField, csvText } from '../lib/csv.js';
import { csvCell, csvLine } from '../lib/csv-export.js';

const ctx = useTestApp();

const HOSTILE = [
  '=HYPERLINK("http://evil.example","x")',
  "+cmd|' /C calc'!A0",
  '@SUM(1+1)',
  '-2+3',
  '=1+1',
  '\t=1+1',
  '\r=1+1',
  '=cmd|"/C notepad"!A1',
  '-',
  '+',
];
const DANGEROUS_START = /^[=+\-@\t\r]/;
const readCsv = (text: string) => parse(text, { relax_column_count: true }) as string[][];

describe('the cell writer (every export uses it)', () => {
  it('prefixes an apostrophe to each hostile value and keeps the rest of it', () => {
    for (const value of HOSTILE) {
      const [[cell]] = readCsv(csvField(value)) as [[string]];
      expect(cell).toBe(`'${value}`);
    }
  });

  it('for any string: a dangerous first character is neutralised, anything else round-trips unchanged', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.constantFrom('=', '+', '-', '@', '\t', '\r').chain((c) => fc.string().map((s) => c + s)),
        ),
        (value) => {
          const [row] = readCsv(`${csvField(value)},end\r\n`);
          const cell = row![0]!;
          if (DANGEROUS_START.test(value)) expect(cell).toBe(`'${value}`);
          else expect(cell).toBe(value);
          expect(DANGEROUS_START.test(cell)).toBe(false);
          expect(row![1]).toBe('end'); // quotes, commas and line breaks never spill into the next cell
        },
      ),
      { numRuns: 500, seed: 7 },
    );
  });

  it('writes numbers as numbers (negative ones included) and text that looks like a number as escaped text', () => {
    expect(csvLine([-3, 2.5, -0.001, Number.NaN, true, null])).toBe('-3,2.5,-0.001,,true,\r\n');
    expect(csvCell('-3')).toBe("'-3");
    // csvText (attestation and series files) writes every cell through csvField, numbers included: there a negative
    // number is escaped like text ('-3). Safe, but a spreadsheet reads it as text; streamed exports (csvCell) keep it.
    expect(csvText(['a'], [[-3], ['-3']])).toBe("a\r\n'-3\r\n'-3\r\n");
  });
});

describe('an export of values entered through the API', () => {
  it('chart review ranked list: a hostile programme name comes back neutralised, and no cell starts a formula', async () => {
    const name = '=HYPERLINK("http://evil.example","x")';
    const s = await samplingSetup(ctx, { name });
    const sample = await drawnSample(s);
    const res = await s.lead.get(`${s.base}/samples/${sample.id}/ranked.csv`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    const rows = readCsv(res.body);
    expect(rows.find((row) => row[0] === 'Programme')).toEqual(['Programme', `'${name}`]);
    expect(rows.flat().filter((cell) => DANGEROUS_START.test(cell))).toEqual([]);
  });
});

describe('every CSV export builds its cells with the escaping helpers', () => {
  it('each module file that answers text/csv or builds CSV uses csvField, csvCell, csvLine, csvText or csvStream', () => {
    const root = path.resolve(import.meta.dirname, '../modules');
    const files = readdirSync(root, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
      .map((file) => path.join(root, file));
    const producers = files.filter((file) => /text\/csv|csvHeaders\(/.test(readFileSync(file, 'utf8')));
    expect(producers.length).toBeGreaterThanOrEqual(6);
    const unescaped: string[] = [];
    for (const file of producers) {
      const text = readFileSync(file, 'utf8');
      // Evidence only sniffs uploaded CSV; it writes none.
      if (/'text\/csv': isText/.test(text) && !/csvHeaders|Content-Type', 'text\/csv/.test(text)) continue;
      // A route file may hand over a body a service built: then that service must use the helpers.
      const helpers = /\bcsv(Field|Cell|Line|Text|Stream)\b/.test(text);
      const delegated = /Csv\(|\.csv\b|file\.(body|text|stream)|report/.test(text);
      if (!helpers && !delegated) unescaped.push(path.relative(root, file));
    }
    expect(unescaped).toEqual([]);
    // Joining raw values with commas outside lib/csv.ts would bypass the escaping.
    const rawJoins = files.filter((file) => /\.join\(','\)/.test(readFileSync(file, 'utf8')) && /csv/i.test(file));
    expect(rawJoins).toEqual([]);
  });
});
