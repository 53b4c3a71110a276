import type { Dataset, ImportDetail, ImportDetected, ImportSummary } from '@portal/shared';
import { CsvImportPage } from './CsvImportPage';
import { BASE, openMonitoringScreen } from './pages-test-fixtures';

/** What the CSV import screen tests share: datasets, imports, a fake XMLHttpRequest and the screen itself. */

export function dataset(overrides: Partial<Dataset> & Pick<Dataset, 'id' | 'name'>): Dataset {
  return {
    description: '',
    time_column: 'month',
    columns: [],
    patient_level: false,
    retention_months: null,
    version: 1,
    row_count: 0,
    first_date: null,
    last_date: null,
    measure_count: 0,
    updated_at: '2026-03-01T10:00:00Z',
    abilities: { import: true, manage: true },
    ...overrides,
  };
}

/** A small monthly falls file: unit, month, falls, patient days. */
export function detected(overrides: Partial<ImportDetected> = {}): ImportDetected {
  return {
    delimiter: ',',
    encoding: 'utf-8',
    has_header: true,
    headers: ['Unit', 'Month', 'Falls', 'Patient days'],
    date_format: 'YYYY-MM-DD',
    date_format_choices: ['YYYY-MM-DD'],
    columns: [
      { source: 0, header: 'Unit', key: 'unit', label: 'Unit', type: 'text', phi: false },
      { source: 1, header: 'Month', key: 'month', label: 'Month', type: 'date', phi: false },
      { source: 2, header: 'Falls', key: 'falls', label: 'Falls', type: 'number', phi: false },
      { source: 3, header: 'Patient days', key: 'patient_days', label: 'Patient days', type: 'number', phi: false },
    ],
    time_column: 'month',
    sample: [
      ['4 West', '2026-01-01', '3', '812'],
      ['4 West', '2026-02-01', 'x', '790'],
    ],
    row_count: 1200,
    ...overrides,
  };
}

export function summary(overrides: Partial<ImportSummary> & Pick<ImportSummary, 'id'>): ImportSummary {
  return {
    dataset_id: 3,
    file_name: 'falls.csv',
    size: 24_000,
    sha256: 'a'.repeat(64),
    status: 'uploaded',
    mode: 'append',
    error_policy: 'abort',
    rows_total: 0,
    rows_ok: 0,
    rows_err: 0,
    rows_replaced: 0,
    progress: 0,
    message: null,
    created_at: '2026-03-02T09:00:00Z',
    created_by: { id: 7, name: 'Ann Lee' },
    committed_at: null,
    committed_by: null,
    rolled_back_at: null,
    rolled_back_by: null,
    can_roll_back: false,
    ...overrides,
  };
}

export function importDetail(overrides: Partial<ImportDetail> & Pick<ImportDetail, 'id'>): ImportDetail {
  return {
    ...summary(overrides),
    detected: detected(),
    settings: null,
    preview: [],
    preview_errors: 0,
    phi_blocked: [],
    errors: [],
    ...overrides,
  };
}

export const openCsvImport = (search = '') =>
  openMonitoringScreen(`${BASE}/csv-import${search}`, ['csv-import'], <CsvImportPage />);

export { FakeXhr } from '../../../test/fake-xhr';
