import type { Benchmark, MeasureDetail, Target } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, render, text, typeInto, waitFor } from '../../../test/render';
import { useMeasure } from '../api/measures-detail';
import { measureDetail } from './charts-test-fixtures';
import { MeasureDetailsPanels } from './MeasureDetailsPanels';
import { currentPeriodStart } from './measure-parts';
import { dialog, toasts } from './pages-test-fixtures';
import { errorOf, field, labelled, pick } from './structure-test-helpers';

const API = '/api/projects/12/monitoring';

const START = measureDetail();

/** A small fake server: the measure as stored, changed by the part calls and answered whole. */
function measureServer(refusals: Response[] = []) {
  let stored: MeasureDetail = { ...START };
  let nextId = 100;
  const answer = (change: (m: MeasureDetail) => MeasureDetail) => {
    stored = { ...change(stored), version: stored.version + 1 };
    return jsonResponse(stored);
  };
  return stubApi({
    [`GET ${API}/measures/40`]: () => jsonResponse(stored),
    [`POST ${API}/measures/40/targets`]: (request) =>
      answer((m) => ({ ...m, targets: [...m.targets, { id: nextId++, ...(request.body as Omit<Target, 'id'>) }] })),
    [`DELETE ${API}/measures/40/targets/100`]: () =>
      answer((m) => ({ ...m, targets: m.targets.filter((target) => target.id !== 100) })),
    [`POST ${API}/measures/40/benchmarks`]: (request) =>
      refusals.shift() ??
      answer((m) => ({
        ...m,
        benchmarks: [...m.benchmarks, { id: nextId++, ...(request.body as Omit<Benchmark, 'id'>) }],
      })),
  });
}

function Harness() {
  const measure = useMeasure('12', 40);
  return measure.data ? <MeasureDetailsPanels projectId="12" measure={measure.data} canEdit /> : null;
}

const rows = (part: string) =>
  [...document.querySelectorAll(`[data-part="${part}"] tbody tr`)].map((row) =>
    [...row.children].slice(0, -1).map((cell) => cell.textContent),
  );

describe('MeasureDetailsPanels', () => {
  it('adds a target after checking its value, and deletes it after confirming', async () => {
    const api = measureServer();
    await render(<Harness />);
    await waitFor(() => expect(text()).toContain('No targets yet.'));

    await click(getControl('Add target'));
    await waitFor(() => expect(field('Effective from')).toBeDefined());
    expect(field('Effective from').value).toBe(currentPeriodStart('month'));
    await click(getControl('Save', dialog()));
    expect(errorOf('Value')).toBe('Enter a number for the target.');
    expect(api.calls(`POST ${API}/measures/40/targets`)).toHaveLength(0);

    await typeInto(field('Value'), '0.5');
    expect(errorOf('Value')).toBeNull();
    await typeInto(field('Effective from'), '2026-01-01');
    await pick('Kind', 'Stretch goal');
    await click(getControl('Save', dialog()));
    await waitFor(() => expect(api.calls(`POST ${API}/measures/40/targets`)).toHaveLength(1));
    expect(api.calls(`POST ${API}/measures/40/targets`)[0]!.body).toEqual({
      value: 0.5,
      effective_from: '2026-01-01',
      kind: 'stretch',
    });
    await waitFor(() =>
      expect(rows('targets')).toEqual([['0.5 per 1,000 patient days', 'Jan 1, 2026', 'Stretch goal']]),
    );
    expect(toasts()).toContain('Target added.');
    await waitFor(() => expect(document.querySelector('[role="dialog"]')).toBeNull());

    await click(labelled('Delete stretch goal 0.5 per 1,000 patient days'));
    await waitFor(() =>
      expect(text(dialog())).toContain('Delete the target of 0.5 per 1,000 patient days from Jan 1, 2026?'),
    );
    await click(getControl('Delete', dialog()));
    await waitFor(() => expect(api.calls(`DELETE ${API}/measures/40/targets/100`)).toHaveLength(1));
    await waitFor(() => expect(text()).toContain('No targets yet.'));
  });

  it('adds a benchmark: checks the fields, shows the server messages on them, then saves', async () => {
    const expected = {
      source: 'NHSN',
      statistic: 'percentile' as const,
      percentile: 50,
      value: 0.82,
      period_label: '2025 Q3',
      as_of: '2026-01-15',
      spec_match: false,
      citation_url: 'https://www.cdc.gov/nhsn/',
      note: '',
    };
    const api = measureServer([
      jsonResponse(
        { message: 'The as-of date is in the future.', errors: { as_of: ['The as-of date is in the future.'] } },
        400,
      ),
    ]);
    await render(<Harness />);
    await waitFor(() => expect(text()).toContain('No benchmarks yet.'));

    await click(getControl('Add benchmark'));
    await waitFor(() => expect(field('Percentile')).toBeDefined());
    expect(field('Percentile').value).toBe('90');
    await click(getControl('Save', dialog()));
    expect(errorOf('Source')).toBe('Enter the source (e.g. CMS Care Compare, NHSN).');
    expect(errorOf('Value')).toBe('Enter a number for the benchmark.');

    await typeInto(field('Source'), 'NHSN');
    await typeInto(field('Value'), '0.82');
    await typeInto(field('Period'), '2025 Q3');
    await typeInto(field('Citation link'), 'www.cdc.gov/nhsn/');
    await click(getControl('Save', dialog()));
    expect(errorOf('Citation link')).toBe('A link starts with http:// or https://.');

    await typeInto(field('Citation link'), 'https://www.cdc.gov/nhsn/');
    await typeInto(field('Percentile'), '');
    await click(getControl('Save', dialog()));
    expect(errorOf('Percentile')).toBe('Enter the percentile (1 to 99).');
    expect(api.calls(`POST ${API}/measures/40/benchmarks`)).toHaveLength(0);

    await typeInto(field('Percentile'), '50');
    await typeInto(field('As of'), '2027-01-15');
    // The "same definition" switch (its label also holds its description).
    await click(dialog().querySelector<HTMLInputElement>('input[type="checkbox"]')!);
    await click(getControl('Save', dialog()));
    await waitFor(() => expect(errorOf('As of')).toBe('The as-of date is in the future.'));
    expect(document.querySelector('[role="dialog"]')).not.toBeNull();

    await typeInto(field('As of'), '2026-01-15');
    await click(getControl('Save', dialog()));
    await waitFor(() => expect(api.calls(`POST ${API}/measures/40/benchmarks`)).toHaveLength(2));
    expect(api.calls(`POST ${API}/measures/40/benchmarks`)[1]!.body).toEqual(expected);
    await waitFor(() =>
      expect(rows('benchmarks')).toEqual([
        ['NHSN', '50th percentile', '0.82 per 1,000 patient days', '2025 Q3', 'Jan 15, 2026', 'No: not comparable'],
      ]),
    );
    expect(document.querySelector('[data-part="benchmarks"] a')?.getAttribute('href')).toBe(
      'https://www.cdc.gov/nhsn/',
    );
    expect(toasts()).toContain('Benchmark added.');
  });
});
