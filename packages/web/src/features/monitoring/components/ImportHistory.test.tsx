import { describe, expect, it } from 'vitest';
import { stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, waitFor } from '../../../test/render';
import { dataset, openCsvImport, summary } from './import-test-fixtures';
import { API, dialog, sessionRoutes, toasts } from './pages-test-fixtures';
import { labelled } from './structure-test-helpers';

const FALLS = dataset({ id: 3, name: 'Falls by unit', row_count: 1200 });
const MARCH = summary({
  id: 8,
  file_name: 'falls-march.csv',
  status: 'committed',
  mode: 'replace_range',
  rows_total: 40,
  rows_ok: 38,
  rows_err: 2,
  rows_replaced: 36,
  committed_at: '2026-03-03T08:30:00Z',
  committed_by: { id: 7, name: 'Ann Lee' },
  can_roll_back: true,
});
const FEBRUARY = summary({
  id: 6,
  file_name: 'falls-feb.csv',
  status: 'committed',
  rows_ok: 1200,
  committed_at: '2026-02-03T08:30:00Z',
  committed_by: { id: 9, name: 'Bob Stone' },
});
const DRAFT = summary({ id: 9, file_name: 'falls-april.csv', status: 'uploaded' });

const rows = () =>
  [...document.querySelectorAll('tr[data-import-id]')].map((tr) =>
    [...tr.querySelectorAll('td')]
      .slice(0, 8)
      .map((td) => td.textContent ?? '')
      .join(' | '),
  );

function server(extra: Parameters<typeof stubApi>[0] = {}) {
  return stubApi({
    ...sessionRoutes(),
    [`GET ${API}/datasets`]: jsonResponse({ datasets: [FALLS] }),
    [`GET ${API}/datasets/3`]: jsonResponse(FALLS),
    [`GET ${API}/datasets/3/imports`]: [
      jsonResponse({ imports: [DRAFT, MARCH, FEBRUARY] }),
      jsonResponse({ imports: [DRAFT, { ...MARCH, status: 'rolled_back', can_roll_back: false }, FEBRUARY] }),
    ],
    ...extra,
  });
}

describe('ImportHistory', () => {
  it('lists the imports with their counts, error report and the actions each allows', async () => {
    server();
    await openCsvImport('?dataset=3');
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(rows()[1]).toBe(
      `falls-march.csv | Mar 3, 2026, ${new Date('2026-03-03T08:30:00Z').toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' })} | Ann Lee | Replace a period | Imported | 38 | 2 (report) | 36`,
    );
    expect(labelled('Error report of falls-march.csv (2 errors)').getAttribute('href')).toBe(
      `${API}/imports/8/errors.csv`,
    );
    // Roll back only on the latest committed import; continue and discard only on one never committed.
    expect(document.querySelectorAll('[aria-label^="Roll back"]')).toHaveLength(1);
    expect(labelled('Continue falls-april.csv')).toBeDefined();
    expect(document.querySelectorAll('[aria-label^="Discard"]')).toHaveLength(1);
    expect(text()).toContain('Not imported yet');
  });

  it('asks before rolling back, then rolls back', async () => {
    const api = server({
      [`POST ${API}/imports/8/rollback`]: jsonResponse({ ...MARCH, status: 'rolled_back', can_roll_back: false }),
    });
    await openCsvImport('?dataset=3');
    await waitFor(() => expect(rows()).toHaveLength(3));
    await click(labelled('Roll back falls-march.csv'));
    await waitFor(() =>
      expect(text(dialog())).toContain(
        'Roll back the import of "falls-march.csv"? Its 38 rows are removed and the rows it replaced come back.',
      ),
    );
    await click(getControl('Cancel', dialog()));
    expect(api.calls(`POST ${API}/imports/8/rollback`)).toHaveLength(0);

    await click(labelled('Roll back falls-march.csv'));
    await waitFor(() => expect(getControl('Roll back', dialog())).toBeDefined());
    await click(getControl('Roll back', dialog()));
    await waitFor(() => expect(toasts()).toContain('Rolled back the import of "falls-march.csv".'));
    expect(api.calls(`POST ${API}/imports/8/rollback`)).toHaveLength(1);
    await waitFor(() => expect(text()).toContain('Rolled back'));
    expect(document.querySelectorAll('[aria-label^="Roll back"]')).toHaveLength(0);
  });

  it('shows why a roll back was refused', async () => {
    server({
      [`POST ${API}/imports/8/rollback`]: jsonResponse(
        { message: 'Only the latest import of a dataset can be rolled back.' },
        409,
      ),
    });
    await openCsvImport('?dataset=3');
    await waitFor(() => expect(rows()).toHaveLength(3));
    await click(labelled('Roll back falls-march.csv'));
    await waitFor(() => expect(getControl('Roll back', dialog())).toBeDefined());
    await click(getControl('Roll back', dialog()));
    await waitFor(() =>
      expect(document.querySelector('[role="alert"]')?.textContent).toContain(
        'Only the latest import of a dataset can be rolled back.',
      ),
    );
  });

  it('discards an import that was never committed, closing it in the wizard', async () => {
    const api = server({
      [`DELETE ${API}/imports/9`]: new Response(null, { status: 204 }),
      [`GET ${API}/imports/9`]: jsonResponse({ message: 'Import not found.' }, 404),
    });
    const router = await openCsvImport('?dataset=3&import=9');
    await waitFor(() => expect(rows()).toHaveLength(3));
    await click(labelled('Discard falls-april.csv'));
    await waitFor(() => expect(text(dialog())).toContain('Discard "falls-april.csv"?'));
    await click(getControl('Discard', dialog()));
    await waitFor(() => expect(toasts()).toContain('Discarded "falls-april.csv".'));
    expect(api.calls(`DELETE ${API}/imports/9`)).toHaveLength(1);
    await waitFor(() => expect(router.state.location.search).toBe('?dataset=3'));
  });
});
