import type { DatasetColumn, ImportDetected, ImportSettings } from '@portal/shared';
import { AppError, addFieldError } from '../../../lib/errors.js';
import { phiKind, phiReason } from './phi.js';

/**
 * The rules an import's settings must meet beyond the zod contract, and the PHI guard (DOMAIN.md 1.4). Checked when
 * the settings are saved, again when the commit starts and once more inside the commit's transaction (the dataset
 * may have changed in between: another import added columns or a time column).
 */

/** The parts of a dataset row the rules read. */
export interface DatasetShape {
  columns: unknown;
  timeColumn: string | null;
  rowCount: number;
  patientLevel: boolean;
}

const columnsOf = (dataset: Pick<DatasetShape, 'columns'>) => dataset.columns as DatasetColumn[];

/**
 * Mapped columns that look like patient identifiers while the dataset is not patient-level. The file's header, the
 * label and the key chosen for it are all read, so renaming a column does not get it past the guard.
 */
export function phiBlocked(
  detected: ImportDetected,
  settings: ImportSettings | null,
  dataset: Pick<DatasetShape, 'patientLevel' | 'columns'>,
): { column: string; reason: string }[] {
  if (!settings || dataset.patientLevel) return [];
  const existing = columnsOf(dataset);
  const blocked: { column: string; reason: string }[] = [];
  for (const column of settings.columns) {
    if (column.skip) continue;
    const header = detected.headers[column.source] ?? '';
    const kind =
      phiKind(header) ??
      phiKind(column.label) ??
      phiKind(column.key) ??
      (existing.some((known) => known.key === column.key && known.phi) ? 'marked as one in this dataset' : null);
    if (kind) blocked.push({ column: column.key, reason: phiReason(kind) });
  }
  return blocked;
}

const TYPE_NAMES = { number: 'numbers', date: 'dates', boolean: 'true/false values', text: 'text' } as const;

/** Checks of settings against the file and the dataset that the zod contract cannot make: 400 with field errors. */
export function checkSettings(
  settings: ImportSettings,
  dataset: Pick<DatasetShape, 'columns' | 'timeColumn' | 'rowCount'>,
  fileWidth: number | null,
): void {
  const errors: Record<string, string[]> = {};
  const mapped = settings.columns.filter((column) => !column.skip);
  if (mapped.length === 0) addFieldError(errors, 'columns', 'Map at least one column.');
  if (/["\r\n]/.test(settings.delimiter)) addFieldError(errors, 'delimiter', 'Choose , ; | or TAB as the delimiter.');
  const seen = new Set<string>();
  for (const column of mapped) {
    if (seen.has(column.key)) addFieldError(errors, 'columns', `The key "${column.key}" is used for two columns.`);
    seen.add(column.key);
    if (fileWidth !== null && column.source >= fileWidth) {
      addFieldError(errors, 'columns', `The file has no column ${column.source + 1}.`);
    }
  }
  const time = mapped.find((column) => column.key === settings.time_column);
  if (time?.type !== 'date') {
    addFieldError(errors, 'time_column', 'Choose a date column that places each row in a period.');
  } else if (dataset.rowCount > 0 && dataset.timeColumn && dataset.timeColumn !== settings.time_column) {
    addFieldError(
      errors,
      'time_column',
      `The rows of this dataset are placed by "${dataset.timeColumn}"; choose that column as the time column.`,
    );
  }
  for (const known of columnsOf(dataset)) {
    const column = mapped.find((candidate) => candidate.key === known.key);
    if (column && column.type !== known.type) {
      addFieldError(
        errors,
        'columns',
        `The dataset's column "${known.key}" holds ${TYPE_NAMES[known.type]}; map it as ${known.type} or use another key.`,
      );
    }
  }
  if (settings.mode === 'replace_range') {
    if (!settings.range_from) addFieldError(errors, 'range_from', 'Enter the first day of the range to replace.');
    if (!settings.range_to) addFieldError(errors, 'range_to', 'Enter the last day of the range to replace.');
    if (settings.range_from && settings.range_to && settings.range_from > settings.range_to) {
      addFieldError(errors, 'range_to', 'The range ends before it starts.');
    }
  }
  if (settings.mode === 'upsert') {
    if (settings.key_columns.length === 0) {
      addFieldError(errors, 'key_columns', 'Choose the columns that identify a row (the time column among them).');
    }
    for (const key of settings.key_columns) {
      if (!seen.has(key)) addFieldError(errors, 'key_columns', `"${key}" is not one of the imported columns.`);
    }
    if (settings.key_columns.length > 0 && !settings.key_columns.includes(settings.time_column)) {
      addFieldError(errors, 'key_columns', `The key columns must include the time column "${settings.time_column}".`);
    }
    if (new Set(settings.key_columns).size !== settings.key_columns.length) {
      addFieldError(errors, 'key_columns', 'A key column is listed twice.');
    }
  }
  const first = Object.values(errors)[0]?.[0];
  if (first) throw new AppError('VALIDATION_FAILED', first, errors);
}

/** Settings as stored: the zod contract's shape, with the mode's unused fields cleared. */
export function normalizeSettings(settings: ImportSettings): ImportSettings {
  return {
    ...settings,
    range_from: settings.mode === 'replace_range' ? settings.range_from : null,
    range_to: settings.mode === 'replace_range' ? settings.range_to : null,
    key_columns: settings.mode === 'upsert' ? settings.key_columns : [],
  };
}
