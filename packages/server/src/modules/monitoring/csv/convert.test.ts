import type { ImportSettings } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { LINE_COLUMN, rowConverter } from './convert.js';
import { parseDate, parseNumber } from './values.js';

const settings = (extra: Partial<ImportSettings> = {}): ImportSettings => ({
  delimiter: ',',
  encoding: 'utf-8',
  has_header: true,
  columns: [
    { source: 0, skip: false, key: 'month', label: 'Month', type: 'date' },
    { source: 1, skip: false, key: 'ward', label: 'Ward', type: 'text' },
    { source: 2, skip: false, key: 'falls', label: 'Falls', type: 'number' },
    { source: 3, skip: false, key: 'audited', label: 'Audited', type: 'boolean' },
    { source: 4, skip: true, key: 'note', label: 'Note', type: 'text' },
  ],
  time_column: 'month',
  date_format: 'DD/MM/YYYY',
  mode: 'append',
  error_policy: 'skip',
  range_from: null,
  range_to: null,
  key_columns: [],
  ...extra,
});

describe('row conversion', () => {
  it('stores typed values: numbers, ISO dates, booleans, text, nulls; skipped columns are left out', () => {
    const row = rowConverter(settings(), 5).convert({ line: 2, cells: ['31/01/2026', ' North ', '"1,234"', 'Y', 'x'] });
    expect(row).toMatchObject({ line: 2, rowDate: '2026-01-31', errors: [{ key: 'falls', reason: 'Not a number.' }] });
    const good = rowConverter(settings(), 5).convert({ line: 3, cells: ['31/01/2026', 'North', '1,234', '0', ''] });
    expect(good).toEqual({
      line: 3,
      values: { month: '2026-01-31', ward: 'North', falls: 1234, audited: false },
      rowDate: '2026-01-31',
      errors: [],
    });
    expect(
      rowConverter(settings(), 5).convert({ line: 4, cells: ['01/02/2026', 'N/A', '-', 'NULL', ''] }).values,
    ).toEqual({
      month: '2026-02-01',
      ward: null,
      falls: null,
      audited: null,
    });
  });

  it('says what is wrong: not a number, not a date in the chosen format, missing time, not true/false', () => {
    const row = rowConverter(settings(), 5).convert({ line: 7, cells: ['2026-01-31', 'A', 'three', 'maybe', ''] });
    expect(row.errors).toEqual([
      { key: 'month', label: 'Month', value: '2026-01-31', reason: 'Not a date in the format DD/MM/YYYY.' },
      { key: 'falls', label: 'Falls', value: 'three', reason: 'Not a number.' },
      { key: 'audited', label: 'Audited', value: 'maybe', reason: 'Not true or false (yes/no, 1/0).' },
    ]);
    expect(row.rowDate).toBeNull();
    const missing = rowConverter(settings(), 5).convert({ line: 8, cells: ['', 'A', '1', 'yes', ''] });
    expect(missing.errors).toEqual([{ key: 'month', label: 'Month', value: '', reason: 'Missing time value.' }]);
  });

  it('reports a line with more or fewer values than the file, but not trailing empty ones', () => {
    const convert = rowConverter(settings(), 5);
    expect(convert.convert({ line: 2, cells: ['01/01/2026', 'A', '1'] }).errors[0]).toMatchObject({
      key: LINE_COLUMN,
      reason: "This line has 3 values; the file's lines have 5.",
    });
    expect(convert.convert({ line: 3, cells: ['01/01/2026', 'A', '1', 'no', '', 'extra'] }).errors).toHaveLength(1);
    expect(convert.convert({ line: 4, cells: ['01/01/2026', 'A', '1', 'no', '', ''] }).errors).toEqual([]);
  });

  it('refuses rows outside the range a replace_range import replaces', () => {
    const convert = rowConverter(
      settings({ mode: 'replace_range', range_from: '2026-01-01', range_to: '2026-01-31' }),
      5,
    );
    expect(convert.convert({ line: 2, cells: ['31/01/2026', 'A', '1', 'no', ''] }).errors).toEqual([]);
    expect(convert.convert({ line: 3, cells: ['01/02/2026', 'A', '1', 'no', ''] }).errors).toEqual([
      {
        key: 'month',
        label: 'Month',
        value: '01/02/2026',
        reason: 'Outside the range being replaced (2026-01-01 to 2026-01-31).',
      },
    ]);
  });
});

describe('cell values', () => {
  it('reads real calendar dates only, with or without a time', () => {
    expect(parseDate('2026-02-29', 'YYYY-MM-DD')).toBeNull();
    expect(parseDate('2028-02-29', 'YYYY-MM-DD')).toBe('2028-02-29');
    expect(parseDate('2026-03-04T10:15:00Z', 'YYYY-MM-DD')).toBe('2026-03-04');
    expect(parseDate('3/4/2026 7:30 PM', 'MM/DD/YYYY')).toBe('2026-03-04');
    expect(parseDate('3/4/2026', 'DD/MM/YYYY')).toBe('2026-04-03');
    expect(parseDate('2026-13', 'YYYY-MM')).toBeNull();
    expect(parseDate('31.12.2026', 'DD.MM.YYYY')).toBe('2026-12-31');
  });

  it('reads numbers with one kind of thousands separator in groups of three', () => {
    expect(parseNumber('1,234,567.25')).toBe(1234567.25);
    expect(parseNumber('-1 234')).toBe(-1234);
    expect(parseNumber('1.5e3')).toBe(1500);
    expect(parseNumber('.5')).toBe(0.5);
    expect(parseNumber('1,23')).toBeNull();
    expect(parseNumber('1,234 567')).toBeNull();
    expect(parseNumber('12%')).toBeNull();
  });
});
