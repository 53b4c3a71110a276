import type { ImportDetail, ImportSettings } from '@portal/shared';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { type StubRequest, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, typeInto, waitFor } from '../../../test/render';
import { AMBIGUOUS_DATES } from './import-parts';
import { dataset, detected, FakeXhr, importDetail, openCsvImport } from './import-test-fixtures';
import { API, sessionRoutes, toasts } from './pages-test-fixtures';
import { violations } from './people-test-fixtures';
import { chooseFile, field } from './structure-test-helpers';

const FALLS = dataset({ id: 3, name: 'Falls by unit' });

const TWO_ROWS: ImportDetail['preview'] = [
  { line: 2, values: { unit: '4 West', month: '2026-01-01', falls: 3, patient_days: 812 }, errors: [] },
  {
    line: 3,
    values: { unit: '4 West', month: '2026-02-01', falls: null, patient_days: 790 },
    errors: [{ column: 'falls', reason: 'Not a number.' }],
  },
];

beforeEach(() => {
  FakeXhr.sent = [];
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
});

/**
 * The server of one import. GET answers its current state; PUT settings stores them and answers `previewOf`; a
 * commit answers 'committing' and each later GET moves it one step on (half read, then committed).
 */
function server(start: ImportDetail, previewOf: (settings: ImportSettings) => Partial<ImportDetail> = () => ({})) {
  let current = start;
  let polls: ImportDetail[] = [];
  const api = stubApi({
    ...sessionRoutes(),
    [`GET ${API}/datasets`]: jsonResponse({ datasets: [FALLS] }),
    [`GET ${API}/datasets/3`]: jsonResponse(FALLS),
    [`GET ${API}/datasets/3/imports`]: () => jsonResponse({ imports: [] }),
    [`GET ${API}/imports/${start.id}`]: () => {
      current = polls.shift() ?? current;
      return jsonResponse(current);
    },
    [`PUT ${API}/imports/${start.id}/settings`]: (request: StubRequest) => {
      const settings = request.body as ImportSettings;
      current = { ...current, settings, ...previewOf(settings) };
      return jsonResponse(current);
    },
    [`POST ${API}/imports/${start.id}/commit`]: () => {
      current = { ...current, status: 'committing', rows_total: 1200, progress: 0 };
      polls = [
        { ...current, progress: 600 },
        {
          ...current,
          status: 'committed',
          progress: 1200,
          rows_ok: 1199,
          rows_err: 1,
          errors: [{ line: 3, column: 'falls', value: 'x', reason: 'Not a number.' }],
          committed_at: '2026-03-02T09:05:00Z',
          committed_by: { id: 7, name: 'Ann Lee' },
          can_roll_back: true,
        },
      ];
      return jsonResponse(current, 202);
    },
  });
  const settingsSent = () =>
    api.calls(`PUT ${API}/imports/${start.id}/settings`).map((call) => call.body as ImportSettings);
  return { api, settingsSent };
}

const nextButton = () => getControl('Next');
const reason = () => document.querySelector('[data-testid="next-reason"]')?.textContent ?? null;

describe('ImportWizard', () => {
  it('uploads the file with a progress bar and opens the detected settings', async () => {
    const uploaded = importDetail({ id: 50 });
    server(uploaded);
    const router = await openCsvImport('?dataset=3');
    await waitFor(() => expect(text()).toContain('Drag a CSV file here, or choose one'));
    expect(text()).toContain('CSV or text files (.csv, .txt) up to 512 MB.');

    // 1 Upload, with its progress.
    await chooseFile(new File(['Unit,Month,Falls,Patient days\n'], 'falls.csv', { type: 'text/csv' }));
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    const xhr = FakeXhr.sent[0]!;
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe(`${API}/datasets/3/imports`);
    expect((xhr.body?.get('file') as File | undefined)?.name).toBe('falls.csv');
    await xhr.progress(50, 100);
    expect(text()).toContain('Uploading… 50%');
    expect(document.querySelector('[data-testid="upload-progress"]')).not.toBeNull();
    await xhr.respond(201, uploaded);

    // 2 File settings: what was detected is complete.
    await waitFor(() => expect(router.state.location.search).toBe('?dataset=3&import=50'));
    await waitFor(() => expect(field('Column separator').value).toBe('Comma ( , )'));
    expect(field('Date format').value).toBe('Year-month-day (2026-03-31)');
    expect(reason()).toBeNull();
    // Back on the first step, the uploaded file is named and can be replaced.
    await click(getControl('Back'));
    await waitFor(() => expect(text()).toContain('Uploaded: falls.csv'));
    expect(getControl('Choose another file')).toBeDefined();
  });

  it('keeps what was typed on the way back, previews the errors and saves the changed policy', async () => {
    const { api, settingsSent } = server(importDetail({ id: 50 }), () => ({
      preview: TWO_ROWS,
      preview_errors: 1,
    }));
    await openCsvImport('?dataset=3&import=50');
    await waitFor(() => expect(field('Column separator').value).toBe('Comma ( , )'));
    await click(nextButton());

    // 3 Columns: a bad key holds Next back; what was typed survives a step back.
    await waitFor(() => expect(document.querySelectorAll('tr[data-source]')).toHaveLength(4));
    expect(field('Key of Patient days').value).toBe('patient_days');
    await typeInto(field('Label of Falls'), 'Falls with injury');
    await typeInto(field('Key of Falls'), 'Falls!');
    await waitFor(() => expect(reason()).toBe('Correct the keys and labels marked in the table.'));
    expect(nextButton().hasAttribute('disabled')).toBe(true);
    expect(nextButton().getAttribute('aria-describedby')).toBe('columns-next-reason');
    await typeInto(field('Key of Falls'), 'falls');
    await waitFor(() => expect(reason()).toBeNull());
    await click(getControl('Back'));
    await waitFor(() => expect(field('Column separator')).toBeDefined());
    await click(nextButton());
    await waitFor(() => expect(field('Label of Falls').value).toBe('Falls with injury'));
    expect(field('Time column').value).toBe('Month (month)');
    await click(nextButton());

    // 4 Preview: the bad cell shows its reason; with "stop at the first error" Next waits.
    await waitFor(() => expect(document.querySelectorAll('tr[data-line]')).toHaveLength(2));
    expect(settingsSent()).toHaveLength(1);
    expect(settingsSent()[0]).toEqual({
      delimiter: ',',
      encoding: 'utf-8',
      has_header: true,
      columns: [
        { source: 0, skip: false, key: 'unit', label: 'Unit', type: 'text' },
        { source: 1, skip: false, key: 'month', label: 'Month', type: 'date' },
        { source: 2, skip: false, key: 'falls', label: 'Falls with injury', type: 'number' },
        { source: 3, skip: false, key: 'patient_days', label: 'Patient days', type: 'number' },
      ],
      time_column: 'month',
      date_format: 'YYYY-MM-DD',
      mode: 'append',
      error_policy: 'abort',
      range_from: null,
      range_to: null,
      key_columns: [],
    });
    expect(document.querySelector('[data-cell-error]')?.textContent).toBe('—Not a number.');
    expect(text()).toContain('2 rows previewed, 1 row with errors. The file has 1,200 rows.');
    expect(reason()).toBe(
      'The preview found rows with errors: choose to skip bad rows, or correct the file and upload it again.',
    );
    await click(field('Skip bad rows and give me an error report'));
    await waitFor(() => expect(reason()).toBeNull());
    await click(nextButton());

    // 5 Import: the changed policy is saved first.
    await waitFor(() => expect(getControl('Import 1,200 rows')).toBeDefined());
    expect(settingsSent()).toHaveLength(2);
    expect(settingsSent()[1]).toMatchObject({ mode: 'append', error_policy: 'skip' });
    expect(api.calls(`POST ${API}/imports/50/commit`)).toHaveLength(0);
  });

  it('resumes an import at its preview, commits it and follows its progress to the result', async () => {
    const base = importDetail({ id: 50 });
    const settings: ImportSettings = {
      delimiter: ',',
      encoding: 'utf-8',
      has_header: true,
      columns: base.detected.columns.map(({ source, key, label, type }) => ({ source, skip: false, key, label, type })),
      time_column: 'month',
      date_format: 'YYYY-MM-DD',
      mode: 'append',
      error_policy: 'skip',
      range_from: null,
      range_to: null,
      key_columns: [],
    };
    const { api, settingsSent } = server({ ...base, settings, preview: TWO_ROWS, preview_errors: 1 });
    const router = await openCsvImport('?dataset=3&import=50');
    await waitFor(() => expect(document.querySelectorAll('tr[data-line]')).toHaveLength(2));
    expect(field('Skip bad rows and give me an error report').checked).toBe(true);
    expect(await violations()).toEqual([]);
    await click(nextButton());
    await waitFor(() => expect(getControl('Import 1,200 rows')).toBeDefined());
    expect(settingsSent()).toHaveLength(0);

    await click(getControl('Import 1,200 rows'));
    await waitFor(() => expect(text()).toContain('Read 0 of 1,200 rows…'));
    expect(api.calls(`POST ${API}/imports/50/commit`)).toHaveLength(1);
    expect(document.querySelector('[data-testid="commit-progress"]')).not.toBeNull();
    await waitFor(() => expect(text()).toContain('Read 600 of 1,200 rows…'), 8000);
    await waitFor(() => expect(text()).toContain('Import complete'), 8000);
    expect(text()).toContain('1,199 rows imported');
    expect(text()).toContain('1 row skipped');
    expect(text()).toContain('0 rows replaced');
    expect(getControl('Download the error report (CSV)').getAttribute('href')).toBe(`${API}/imports/50/errors.csv`);
    await waitFor(() => expect(toasts()).toContain('Imported 1,199 rows into "Falls by unit".'));

    await click(getControl('Import another file'));
    await waitFor(() => expect(router.state.location.search).toBe('?dataset=3'));
    await waitFor(() => expect(text()).toContain('Drag a CSV file here, or choose one'));
  });

  it('requires a choice when the dates could be read two ways', async () => {
    const ambiguous = importDetail({
      id: 51,
      detected: detected({
        date_format: null,
        date_format_choices: ['MM/DD/YYYY', 'DD/MM/YYYY'],
        sample: [
          ['4 West', '03/04/2026', '3', '812'],
          ['4 West', '03/05/2026', '2', '790'],
        ],
      }),
    });
    const { settingsSent } = server(ambiguous, () => ({ preview: TWO_ROWS.slice(0, 1) }));
    await openCsvImport('?dataset=3&import=51');
    await waitFor(() => expect(text()).toContain(AMBIGUOUS_DATES));
    expect(text()).toContain('Dates in the file: 03/04/2026, 03/05/2026');
    expect(reason()).toBe('Choose how the dates are written.');
    expect(nextButton().hasAttribute('disabled')).toBe(true);

    await click(field('Day first (03/04/2026 is April 3, 2026)'));
    await waitFor(() => expect(reason()).toBeNull());
    await click(nextButton());
    await waitFor(() => expect(document.querySelectorAll('tr[data-source]')).toHaveLength(4));
    await click(nextButton());
    await waitFor(() => expect(settingsSent()).toHaveLength(1));
    expect(settingsSent()[0]!.date_format).toBe('DD/MM/YYYY');
  });

  it('blocks the import while a column looks like a patient identifier', async () => {
    const withMrn = importDetail({
      id: 52,
      detected: detected({
        headers: ['MRN', 'Month', 'Falls'],
        columns: [
          { source: 0, header: 'MRN', key: 'mrn', label: 'MRN', type: 'text', phi: true },
          { source: 1, header: 'Month', key: 'month', label: 'Month', type: 'date', phi: false },
          { source: 2, header: 'Falls', key: 'falls', label: 'Falls', type: 'number', phi: false },
        ],
        sample: [['A1234', '2026-01-01', '1']],
      }),
    });
    const { api, settingsSent } = server(withMrn, (settings) => ({
      preview: [{ line: 2, values: { month: '2026-01-01', falls: 1 }, errors: [] }],
      phi_blocked: settings.columns.some((column) => column.source === 0 && !column.skip)
        ? [{ column: 'mrn', reason: 'Looks like a medical record number.' }]
        : [],
    }));
    await openCsvImport('?dataset=3&import=52');
    await waitFor(() => expect(field('Column separator')).toBeDefined());
    await click(nextButton());
    await waitFor(() => expect(document.querySelectorAll('[data-testid="phi-badge"]')).toHaveLength(1));
    expect(text()).toContain('Columns marked “May identify patients” are refused');
    expect(await violations()).toEqual([]);
    await click(nextButton());

    await waitFor(() => expect(text()).toContain('This file cannot be imported into this dataset'));
    expect(text()).toContain('mrn: Looks like a medical record number.');
    expect(reason()).toBe('Columns that look like patient identifiers cannot be imported into this dataset.');
    expect(nextButton().hasAttribute('disabled')).toBe(true);
    expect(() => getControl('Import 1 row')).toThrow();

    // Skipping the column lifts the block.
    await click(getControl('Back'));
    await waitFor(() => expect(field('Skip MRN')).toBeDefined());
    await click(field('Skip MRN'));
    await click(nextButton());
    await waitFor(() => expect(settingsSent()).toHaveLength(2));
    await waitFor(() => expect(reason()).toBeNull());
    expect(settingsSent()[1]!.columns[0]).toMatchObject({ source: 0, skip: true });
    await click(nextButton());
    await waitFor(() => expect(getControl('Import 1,200 rows').hasAttribute('disabled')).toBe(false));
    expect(api.calls(`POST ${API}/imports/52/commit`)).toHaveLength(0);
  });

  it('refuses a file that is not CSV before sending it', async () => {
    server(importDetail({ id: 53 }));
    await openCsvImport('?dataset=3');
    await waitFor(() => expect(text()).toContain('Drag a CSV file here, or choose one'));
    await chooseFile(new File(['PK'], 'falls.xlsx'));
    await waitFor(() => expect(text()).toContain('Choose a CSV or text file (.csv or .txt).'));
    expect(FakeXhr.sent).toHaveLength(0);
  });
});
