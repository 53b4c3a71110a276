import { describe, expect, it } from 'vitest';
import { type StubRequest, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, typeInto, waitFor } from '../../../test/render';
import { dataset, openCsvImport, summary } from './import-test-fixtures';
import { API, dialog, sessionRoutes, toasts } from './pages-test-fixtures';
import { violations } from './people-test-fixtures';
import { errorOf, field } from './structure-test-helpers';

const FALLS = dataset({
  id: 3,
  name: 'Falls by unit',
  row_count: 1200,
  first_date: '2024-01-01',
  last_date: '2026-02-01',
  version: 4,
  measure_count: 2,
  columns: [
    { key: 'unit', label: 'Unit', type: 'text', phi: false },
    { key: 'month', label: 'Month', type: 'date', phi: false },
  ],
});
const ADMISSIONS = dataset({ id: 4, name: 'Admissions', patient_level: true, retention_months: 36 });

const patientSwitch = () => document.querySelector<HTMLInputElement>('input[role="switch"]')!;
const rows = () =>
  [...document.querySelectorAll('tr[data-dataset-id]')].map((tr) =>
    [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '').join(' | '),
  );

function server(extra: Record<string, Parameters<typeof stubApi>[0][string]> = {}) {
  return stubApi({
    ...sessionRoutes(),
    [`GET ${API}/datasets`]: jsonResponse({ datasets: [FALLS, ADMISSIONS] }),
    [`GET ${API}/datasets/3`]: jsonResponse(FALLS),
    [`GET ${API}/datasets/3/imports`]: jsonResponse({ imports: [] }),
    ...extra,
  });
}

describe('CsvImportPage: datasets', () => {
  it('says how to start when the project has no dataset', async () => {
    stubApi({ ...sessionRoutes(), [`GET ${API}/datasets`]: jsonResponse({ datasets: [] }) });
    await openCsvImport();
    await waitFor(() => expect(text()).toContain('No datasets yet. Create one, then import a CSV file.'));
    expect(getControl('New dataset')).toBeDefined();
    expect(document.title).toContain('CSV import');
  });

  it('lists the datasets and opens the one named in the URL', async () => {
    server();
    const router = await openCsvImport();
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(rows()).toEqual([
      'Falls by unit | 1,200 | Jan 1, 2024 – Feb 1, 2026 | 4 | 2',
      'AdmissionsPatient-level | 0 | — | 1 | 0',
    ]);
    expect(text()).toContain('Choose a dataset');

    await click(getControl('Falls by unit'));
    await waitFor(() => expect(router.state.location.search).toBe('?dataset=3'));
    await waitFor(() => expect(document.getElementById('dataset-heading')?.textContent).toBe('Falls by unit'));
    expect(getControl('Falls by unit').getAttribute('aria-current')).toBe('true');
    expect(text()).toContain('Columns: Unit (unit, text), Month (month, date)');
    expect(getControl('Download rows (CSV)').getAttribute('href')).toBe(`${API}/datasets/3/rows.csv`);
    await waitFor(() => expect(text()).toContain('No imports yet.'));
    expect(await violations()).toEqual([]);
  });

  it('checks the new dataset, shows the server refusing the name, then creates and selects it', async () => {
    const api = server({
      [`POST ${API}/datasets`]: [
        jsonResponse(
          {
            message: 'A dataset with this name already exists.',
            errors: { name: ['A dataset with this name already exists.'] },
          },
          400,
        ),
        (request: StubRequest) => jsonResponse(dataset({ id: 9, ...(request.body as { name: string }) }), 201),
      ],
      [`GET ${API}/datasets/9`]: jsonResponse(dataset({ id: 9, name: 'Pressure injuries' })),
      [`GET ${API}/datasets/9/imports`]: jsonResponse({ imports: [] }),
    });
    const router = await openCsvImport();
    await waitFor(() => expect(rows()).toHaveLength(2));
    await click(getControl('New dataset'));
    await waitFor(() => dialog());
    await click(getControl('Create dataset', dialog()));
    await waitFor(() => expect(errorOf('Name')).toBe('Enter a name.'));
    expect(api.calls(`POST ${API}/datasets`)).toHaveLength(0);

    await typeInto(field('Name'), 'Falls by unit');
    await click(getControl('Create dataset', dialog()));
    await waitFor(() => expect(errorOf('Name')).toBe('A dataset with this name already exists.'));
    expect(api.calls(`POST ${API}/datasets`)[0]!.body).toEqual({ name: 'Falls by unit', description: '' });

    await typeInto(field('Name'), '  Pressure injuries ');
    await typeInto(field('Description'), 'From the wound care register');
    await click(getControl('Create dataset', dialog()));
    await waitFor(() => expect(toasts()).toContain('Dataset "Pressure injuries" created.'));
    expect(api.calls(`POST ${API}/datasets`)[1]!.body).toEqual({
      name: 'Pressure injuries',
      description: 'From the wound care register',
    });
    await waitFor(() => expect(router.state.location.search).toBe('?dataset=9'));
  });

  it('asks before deleting and shows why a dataset in use cannot go', async () => {
    const api = server({
      [`DELETE ${API}/datasets/3`]: jsonResponse(
        { message: '2 measures read this dataset. Change or delete them first.', code: 'CONFLICT' },
        409,
      ),
    });
    await openCsvImport('?dataset=3');
    await waitFor(() => expect(getControl('Delete dataset')).toBeDefined());
    await click(getControl('Delete dataset'));
    await waitFor(() => expect(text(dialog())).toContain('Delete dataset "Falls by unit"?'));
    expect(text(dialog())).toContain('Its 1,200 rows and its import history are deleted.');
    expect(api.calls(`DELETE ${API}/datasets/3`)).toHaveLength(0);
    await click(getControl('Delete dataset', dialog()));
    await waitFor(() =>
      expect(document.querySelector('[role="alert"]')?.textContent).toContain(
        '2 measures read this dataset. Change or delete them first.',
      ),
    );
    expect(api.calls(`DELETE ${API}/datasets/3`)).toHaveLength(1);
  });

  it('makes a dataset patient-level only after a dialog that explains it and asks for the retention', async () => {
    let stored = FALLS;
    const api = server({
      [`GET ${API}/datasets/3`]: () => jsonResponse(stored),
      [`PUT ${API}/datasets/3`]: (request: StubRequest) => {
        stored = { ...FALLS, ...(request.body as object), updated_at: '2026-03-03T10:00:00Z' };
        return jsonResponse(stored);
      },
    });
    await openCsvImport('?dataset=3');
    await waitFor(() => expect(patientSwitch().checked).toBe(false));
    await click(patientSwitch());
    await waitFor(() => expect(text(dialog())).toContain('columns that identify patients'));
    expect(api.calls(`PUT ${API}/datasets/3`)).toHaveLength(0);
    await typeInto(field('Keep rows for (months)', dialog()), '0');
    await click(getControl('Make patient-level', dialog()));
    await waitFor(() => expect(text(dialog())).toContain('Enter a whole number of months from 1 to 600.'));
    expect(api.calls(`PUT ${API}/datasets/3`)).toHaveLength(0);

    await typeInto(field('Keep rows for (months)', dialog()), '36');
    await click(getControl('Make patient-level', dialog()));
    await waitFor(() => expect(toasts()).toContain('"Falls by unit" is now patient-level.'));
    expect(api.calls(`PUT ${API}/datasets/3`)[0]!.body).toEqual({ patient_level: true, retention_months: 36 });
    await waitFor(() => expect(patientSwitch().checked).toBe(true));
    expect(field('Keep rows for (months)').value).toBe('36');
  });

  it('renames a dataset', async () => {
    const api = server({
      [`PUT ${API}/datasets/3`]: (request: StubRequest) => jsonResponse({ ...FALLS, ...(request.body as object) }),
    });
    await openCsvImport('?dataset=3');
    await waitFor(() => expect(field('Name').value).toBe('Falls by unit'));
    await typeInto(field('Name'), '');
    await click(getControl('Save changes'));
    await waitFor(() => expect(errorOf('Name')).toBe('Enter a name.'));
    await typeInto(field('Name'), 'Falls by ward');
    await click(getControl('Save changes'));
    await waitFor(() => expect(toasts()).toContain('Dataset "Falls by ward" saved.'));
    expect(api.calls(`PUT ${API}/datasets/3`)[0]!.body).toEqual({ name: 'Falls by ward', description: '' });
  });

  it('shows no write control to someone who may neither import nor manage', async () => {
    const readOnly = { ...FALLS, abilities: { import: false, manage: false } };
    server({
      [`GET ${API}/datasets`]: jsonResponse({ datasets: [readOnly] }),
      [`GET ${API}/datasets/3`]: jsonResponse(readOnly),
      [`GET ${API}/datasets/3/imports`]: jsonResponse({
        imports: [summary({ id: 5, status: 'committed', rows_ok: 1200, can_roll_back: true })],
      }),
    });
    await openCsvImport('?dataset=3');
    await waitFor(() => expect(document.querySelectorAll('tr[data-import-id]')).toHaveLength(1));
    expect(text()).toContain('You can see this dataset and its imports, but not import into it.');
    expect(() => getControl('Delete dataset')).toThrow();
    expect(() => getControl('Roll back')).toThrow();
    expect(() => getControl('Save changes')).toThrow();
    expect(document.querySelector('input[type="file"]')).toBeNull();
    expect(text()).toContain('Aggregate data');
  });

  it('says when the dataset in the URL does not exist', async () => {
    server({ [`GET ${API}/datasets/77`]: jsonResponse({ message: 'Dataset not found.' }, 404) });
    await openCsvImport('?dataset=77');
    await waitFor(() => expect(text()).toContain('This dataset does not exist, or it was deleted.'));
  });
});
