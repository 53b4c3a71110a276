import type { DatasetColumn, FormulaValidate } from '@portal/shared';
import { act, useState } from 'react';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, render, text, typeInto, waitFor } from '../../../test/render';
import { FormulaField } from './FormulaField';
import { errorOf, field, labelled } from './structure-test-helpers';

const API = '/api/projects/12/monitoring';
const COLUMNS: DatasetColumn[] = [
  { key: 'ward', label: 'Ward', type: 'text', phi: false },
  { key: 'falls', label: 'Falls', type: 'number', phi: false },
  { key: 'falls_injury', label: 'Falls with injury', type: 'number', phi: false },
  { key: 'patient_days', label: 'Patient days', type: 'number', phi: false },
];

function Harness({ initial = '' }: { initial?: string }) {
  const [value, setValue] = useState(initial);
  return (
    <FormulaField
      projectId="12"
      label="Numerator"
      value={value}
      onChange={setValue}
      kind="numerator"
      datasetId={5}
      columns={COLUMNS}
      grain="month"
    />
  );
}

const area = () => field('Numerator') as unknown as HTMLTextAreaElement;
const options = () => [...document.querySelectorAll<HTMLElement>('[role="option"]')];
const activeOption = () => options().find((option) => option.getAttribute('aria-selected') === 'true');

async function press(key: string) {
  await act(async () => {
    area().dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
  });
}

/** The server's check: 'sum(ward)' is refused at "ward"; anything else passes, explained and previewed. */
function validator() {
  return stubApi({
    [`POST ${API}/formulas/validate`]: (request) => {
      const body = request.body as FormulaValidate;
      if (body.expression === 'sum(ward)')
        return jsonResponse({
          ok: false,
          errors: [{ start: 4, end: 8, message: "'ward' is a text column: sum() needs numbers." }],
          columns: ['ward'],
          explanation: null,
          preview: [],
        });
      return jsonResponse({
        ok: true,
        errors: [],
        columns: ['falls_injury'],
        explanation: 'the number of rows in the period where Falls with injury equals 1',
        preview: [
          { period: '2026-01-01', value: 4, rows: 31 },
          { period: '2026-02-01', value: 2, rows: 28 },
        ],
      });
    },
  });
}

describe('FormulaField', () => {
  it('shows the server error at its characters, then the explanation and the latest periods', async () => {
    const api = validator();
    await render(<Harness />);

    await typeInto(area(), 'sum(ward)');
    await waitFor(() => expect(errorOf('Numerator')).toBe("'ward' is a text column: sum() needs numbers."));
    expect(api.calls(`POST ${API}/formulas/validate`).at(-1)!.body).toEqual({
      dataset_id: 5,
      role: 'numerator',
      expression: 'sum(ward)',
      grain: 'month',
    });
    const marked = document.querySelector('[data-formula-error] mark');
    expect(marked?.textContent).toBe('ward');
    expect(text(document.querySelector('[data-formula-error]')!)).toContain('sum(ward)');
    expect(text()).toContain('Marked: from character 5.');
    expect(area().getAttribute('aria-invalid')).toBe('true');

    await typeInto(area(), 'countIf(falls_injury == 1)');
    await waitFor(() =>
      expect(text()).toContain('In words: the number of rows in the period where Falls with injury equals 1'),
    );
    expect(errorOf('Numerator')).toBeNull();
    expect(document.querySelector('[data-formula-error]')).toBeNull();
    const rows = [...document.querySelectorAll('[data-formula-preview] tbody tr')].map((row) =>
      [...row.children].map((cell) => cell.textContent),
    );
    expect(rows).toEqual([
      ['Jan 2026', '4', '31'],
      ['Feb 2026', '2', '28'],
    ]);
  });

  it('checks the syntax at once, without asking the server', async () => {
    const api = validator();
    await render(<Harness />);
    await typeInto(area(), 'sum(falls');
    // Immediately: no debounce, no call.
    expect(errorOf('Numerator')).toMatch(/\)/);
    expect(document.querySelector('[data-formula-error] mark')).not.toBeNull();
    await typeInto(area(), 'sum(fals)');
    expect(errorOf('Numerator')).toContain("'fals'");
    expect(document.querySelector('[data-formula-error] mark')?.textContent).toBe('fals');
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 400));
    });
    expect(api.calls(`POST ${API}/formulas/validate`)).toHaveLength(0);
  });

  it('suggests columns and functions for the word at the caret; keys choose, Enter and Tab insert, Escape closes', async () => {
    validator();
    await render(<Harness />);

    await typeInto(area(), 'countIf(fa');
    await waitFor(() =>
      expect(options().map((option) => option.textContent)).toEqual([
        'falls column: Falls',
        'falls_injury column: Falls with injury',
      ]),
    );
    expect(area().getAttribute('aria-controls')).toBe(document.querySelector('[role="listbox"]')!.id);
    expect(area().getAttribute('aria-activedescendant')).toBe(activeOption()!.id);
    await press('ArrowDown');
    expect(activeOption()?.textContent).toContain('falls_injury');
    await press('ArrowDown');
    expect(activeOption()?.textContent).toContain('falls column');
    await press('ArrowUp');
    await press('Enter');
    expect(area().value).toBe('countIf(falls_injury');
    expect(area().selectionStart).toBe('countIf(falls_injury'.length);
    expect(options()).toHaveLength(0);

    // A function by Tab: its call with the caret inside the brackets.
    await typeInto(area(), 'countIf(falls_injury == 1) / su');
    await waitFor(() => expect(options().length).toBeGreaterThan(0));
    expect(activeOption()?.textContent).toContain('sum(x)');
    await press('Tab');
    expect(area().value).toBe('countIf(falls_injury == 1) / sum()');
    expect(area().selectionStart).toBe('countIf(falls_injury == 1) / sum('.length);

    // Escape closes the list; the text stays.
    await typeInto(area(), 'countIf(falls_injury == 1) / sum(pat');
    await waitFor(() =>
      expect(options().map((option) => option.textContent)).toEqual(['patient_days column: Patient days']),
    );
    await press('Escape');
    expect(options()).toHaveLength(0);
    expect(area().value).toBe('countIf(falls_injury == 1) / sum(pat');
  });

  it('inserts a suggestion clicked with the mouse, and columns and functions from the chips at the caret', async () => {
    validator();
    await render(<Harness />);
    await typeInto(area(), 'sum(pa');
    await waitFor(() => expect(options()).toHaveLength(1));
    await act(async () => {
      options()[0]!.dispatchEvent(new MouseEvent('mousedown', { bubbles: true, cancelable: true }));
    });
    expect(area().value).toBe('sum(patient_days');

    // Chips insert at the caret: the end of the text, then the start once the caret is moved there.
    await typeInto(area(), 'sum(falls) / ');
    await click(labelled('Insert column Patient days'));
    expect(area().value).toBe('sum(falls) / patient_days');
    await act(async () => {
      area().setSelectionRange(0, 0);
      area().click();
    });
    await click(labelled('Insert function round(x, digits?)'));
    expect(area().value).toBe('round()sum(falls) / patient_days');
    expect(area().selectionStart).toBe('round('.length);
  });
});
