import { describe, expect, it } from 'vitest';
import {
  canonical,
  columnProblems,
  columnsFor,
  guessType,
  initialDraft,
  mappingProblem,
  modeProblem,
  relayout,
  settingsOf,
  splitLine,
  suggestKey,
} from './import-draft';
import { detected, importDetail } from './import-test-fixtures';

/** A semicolon file read as if commas separated it: each line is one column (split at the decimal commas). */
const MISREAD = detected({
  delimiter: ',',
  headers: ['Unit;Month;Rate'],
  columns: [
    {
      source: 0,
      header: 'Unit;Month;Rate',
      key: 'unit_month_rate',
      label: 'Unit;Month;Rate',
      type: 'text',
      phi: false,
    },
  ],
  time_column: null,
  date_format: null,
  date_format_choices: [],
  sample: [
    ['4 West;2026-01-01;3', '5'],
    ['"ICU; North";2026-02-01;1', '25'],
  ],
});

describe('import draft', () => {
  it('splits CSV lines with quotes', () => {
    expect(splitLine('a;"b;c";"say ""hi"""', ';')).toEqual(['a', 'b;c', 'say "hi"']);
  });

  it('reads the columns again with another separator', () => {
    const columns = columnsFor(MISREAD, ';', true);
    expect(columns.map((column) => [column.header, column.key, column.type])).toEqual([
      ['Unit', 'unit', 'text'],
      ['Month', 'month', 'date'],
      ['Rate', 'rate', 'text'],
    ]);
    expect(columns[0]!.samples).toEqual(['4 West', 'ICU; North']);
    expect(columns[2]!.samples).toEqual(['3,5', '1,25']);
  });

  it('reads the first line as data when there is no header line', () => {
    const columns = columnsFor(detected(), ',', false);
    expect(columns.map((column) => column.header)).toEqual(['Column 1', 'Column 2', 'Column 3', 'Column 4']);
    expect(columns[0]!.samples).toEqual(['Unit', '4 West', '4 West']);
    expect(columns[0]!.key).toBe('column_1');
  });

  it('keeps what was typed for a column still there after a new layout', () => {
    const draft = initialDraft(importDetail({ id: 1 }));
    const edited = {
      ...draft,
      columns: draft.columns.map((column) =>
        column.key === 'falls' ? { ...column, label: 'Falls with harm' } : column,
      ),
    };
    const back = relayout(relayout(edited, detected(), ',', false), detected(), ',', true);
    expect(back.columns.find((column) => column.source === 2)!.label).toBe('Falls with harm');
    expect(back.columns.find((column) => column.source === 0)!.label).toBe('Unit');
  });

  it('suggests keys and types', () => {
    expect(suggestKey('Patient days (ICU)', 0)).toBe('patient_days_icu');
    expect(suggestKey('2026 total', 3)).toBe('c_2026_total');
    expect(suggestKey('%', 3)).toBe('column_4');
    expect(guessType(['1,200', '3.5', 'N/A', ''])).toBe('number');
    expect(guessType(['03/04/2026', '2026-04-01'])).toBe('date');
    expect(guessType(['Yes', 'no'])).toBe('boolean');
    expect(guessType(['', 'NULL'])).toBe('text');
  });

  it('checks the columns and the mode choices', () => {
    const draft = initialDraft(importDetail({ id: 1 }));
    expect(mappingProblem(draft)).toBeNull();
    expect(mappingProblem({ ...draft, time_column: 'gone' })).toBe(
      'Choose the time column: the date that places each row in a period.',
    );
    expect(mappingProblem({ ...draft, time_column: 'unit' })).toBe('The time column must have the type Date.');
    const target = {
      row_count: 10,
      time_column: 'period',
      columns: [{ key: 'falls', label: 'Falls', type: 'text' as const, phi: false }],
    };
    expect(columnProblems(draft, target).get(2)).toEqual({
      key: 'The dataset\'s column "falls" holds text: choose that type, or another key.',
    });
    expect(mappingProblem(draft, { ...target, columns: [] })).toBe(
      'The rows of this dataset are placed by "period": choose that column as the time column.',
    );
    const duplicate = { ...draft, columns: draft.columns.map((column) => ({ ...column, key: 'unit' })) };
    expect(mappingProblem(duplicate)).toBe('Correct the keys and labels marked in the table.');
    expect(modeProblem({ ...draft, mode: 'replace_range', range_from: '2026-03-01', range_to: '2026-01-31' })).toBe(
      'The period to replace must end on or after its first date.',
    );
    expect(modeProblem({ ...draft, mode: 'upsert', key_columns: ['unit'] })).toBe(
      'The key columns must include the time column.',
    );
  });

  it('sends a valid key for a skipped column and a plain append for an unfinished mode in the preview', () => {
    const draft = initialDraft(importDetail({ id: 1 }));
    const skipped = {
      ...draft,
      mode: 'replace_range' as const,
      columns: draft.columns.map((column) => (column.source === 0 ? { ...column, skip: true, key: 'month' } : column)),
    };
    const preview = settingsOf(skipped, true);
    expect(preview.columns[0]).toMatchObject({ skip: true, key: 'skipped_column_1' });
    expect(preview).toMatchObject({ mode: 'append', range_from: null, range_to: null });
    expect(settingsOf(skipped).mode).toBe('replace_range');
  });
});

describe('settings comparison', () => {
  it('ignores the order of keys', () => {
    expect(canonical({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } })).toBe(
      canonical({ a: { c: null, d: [1, { x: 1, y: 2 }] }, b: 1 }),
    );
  });
});
