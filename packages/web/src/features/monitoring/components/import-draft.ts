import {
  COLUMN_KEY_MESSAGE,
  type Dataset,
  type DatasetColumnType,
  type DateFormat,
  type ImportDetail,
  type ImportDetected,
  type ImportErrorPolicy,
  type ImportMode,
  type ImportSettings,
} from '@portal/shared';

/**
 * What the person chooses in the import wizard, kept while they move between steps, and the checks that decide
 * whether "Next" may be pressed. Pure functions: the screen and its tests share them.
 */

export type Encoding = ImportSettings['encoding'];

export interface DraftColumn {
  source: number;
  header: string;
  /** The first values of the column in the file, as read. */
  samples: string[];
  /** Looks like a patient identifier (the server's guess from the header). */
  phi: boolean;
  skip: boolean;
  key: string;
  label: string;
  type: DatasetColumnType;
}

export interface ImportDraft {
  delimiter: string;
  encoding: Encoding;
  has_header: boolean;
  date_format: DateFormat | null;
  columns: DraftColumn[];
  time_column: string | null;
  mode: ImportMode;
  error_policy: ImportErrorPolicy;
  range_from: string;
  range_to: string;
  key_columns: string[];
  /** What was typed per column (by place and header) before the columns were last read again. */
  memory: Record<string, ColumnEdit>;
}

type ColumnEdit = Pick<DraftColumn, 'skip' | 'key' | 'label' | 'type'>;
const memoryKey = (column: DraftColumn) => `${column.source}\u0000${column.header}`;

const KEY_PATTERN = /^[a-z][a-z0-9_]{0,62}$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const NULL_TOKENS = new Set(['', 'n/a', 'na', 'null', '-']);

/** The wizard's starting point: the settings already saved for the import, or what the server detected. */
export function initialDraft(detail: ImportDetail): ImportDraft {
  const { detected, settings } = detail;
  const base = columnsFor(
    detected,
    settings?.delimiter ?? detected.delimiter,
    settings?.has_header ?? detected.has_header,
  );
  if (!settings) {
    return {
      delimiter: detected.delimiter,
      encoding: detected.encoding,
      has_header: detected.has_header,
      date_format:
        detected.date_format ?? (detected.date_format_choices.length === 1 ? detected.date_format_choices[0]! : null),
      columns: base,
      time_column: detected.time_column,
      mode: 'append',
      error_policy: 'abort',
      range_from: '',
      range_to: '',
      key_columns: [],
      memory: {},
    };
  }
  const chosen = new Map(settings.columns.map((column) => [column.source, column]));
  return {
    delimiter: settings.delimiter,
    encoding: settings.encoding,
    has_header: settings.has_header,
    date_format: settings.date_format,
    columns: base.map((column) => {
      const saved = chosen.get(column.source);
      return saved
        ? { ...column, skip: saved.skip, key: saved.key, label: saved.label, type: saved.type }
        : { ...column, skip: true };
    }),
    time_column: settings.time_column,
    mode: settings.mode,
    error_policy: settings.error_policy,
    range_from: settings.range_from ?? '',
    range_to: settings.range_to ?? '',
    key_columns: settings.key_columns,
    memory: {},
  };
}

/**
 * The file's columns read with `delimiter` and `hasHeader`. With the detected layout these are the server's
 * suggestions; with another one, the first lines the server sent are joined back and split again, so the mapping
 * shows the columns the person asked for (the preview step then reads the file itself on the server).
 */
export function columnsFor(detected: ImportDetected, delimiter: string, hasHeader: boolean): DraftColumn[] {
  if (delimiter === detected.delimiter && hasHeader === detected.has_header) {
    return detected.columns.map((column) => ({
      source: column.source,
      header: column.header,
      samples: detected.sample.map((row) => row[column.source] ?? ''),
      phi: column.phi,
      skip: false,
      key: column.key,
      label: column.label,
      type: column.type,
    }));
  }
  const lines = [...(detected.has_header ? [detected.headers] : []), ...detected.sample].map((cells) =>
    splitLine(joinCells(cells, detected.delimiter), delimiter),
  );
  const width = Math.max(0, ...lines.map((cells) => cells.length));
  const headers = hasHeader ? (lines[0] ?? []) : [];
  const rows = hasHeader ? lines.slice(1) : lines;
  const phiHeaders = new Map(detected.columns.map((column) => [column.header.trim().toLowerCase(), column.phi]));
  const taken = new Set<string>();
  return Array.from({ length: width }, (_, source) => {
    const header = headers[source]?.trim() || `Column ${source + 1}`;
    const samples = rows.map((cells) => cells[source] ?? '');
    return {
      source,
      header,
      samples,
      phi: phiHeaders.get(header.toLowerCase()) ?? false,
      skip: false,
      key: uniqueKey(suggestKey(header, source), taken),
      label: header.slice(0, 120),
      type: guessType(samples),
    };
  });
}

/**
 * A change of delimiter or header row re-reads the columns; what the person typed for a column that is still
 * there (same place, same header) is kept.
 */
export function relayout(
  draft: ImportDraft,
  detected: ImportDetected,
  delimiter: string,
  hasHeader: boolean,
): ImportDraft {
  if (delimiter === draft.delimiter && hasHeader === draft.has_header) return draft;
  const memory = { ...draft.memory };
  for (const column of draft.columns) {
    memory[memoryKey(column)] = { skip: column.skip, key: column.key, label: column.label, type: column.type };
  }
  const columns = columnsFor(detected, delimiter, hasHeader).map((column) => {
    const kept = memory[memoryKey(column)];
    return kept ? { ...column, ...kept } : column;
  });
  const keys = new Set(columns.filter((column) => !column.skip).map((column) => column.key));
  return {
    ...draft,
    delimiter,
    has_header: hasHeader,
    columns,
    memory,
    time_column: draft.time_column && keys.has(draft.time_column) ? draft.time_column : null,
    key_columns: draft.key_columns.filter((key) => keys.has(key)),
  };
}

/** The line as it most likely was: only a cell holding the old separator must have been quoted. */
function joinCells(cells: string[], delimiter: string): string {
  return cells.map((cell) => (cell.includes(delimiter) ? `"${cell.replaceAll('"', '""')}"` : cell)).join(delimiter);
}

/** One CSV line split on `delimiter`, honouring double quotes. */
export function splitLine(line: string, delimiter: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let index = 0; index < line.length; index += 1) {
    const char = line[index];
    if (quoted) {
      if (char === '"' && line[index + 1] === '"') {
        cell += '"';
        index += 1;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"' && cell === '') quoted = true;
    else if (char === delimiter) {
      cells.push(cell);
      cell = '';
    } else cell += char;
  }
  cells.push(cell);
  return cells;
}

/** 'Patient days (ICU)' -> 'patient_days_icu'. */
export function suggestKey(header: string, source: number): string {
  const base = header
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  const key = /^[a-z]/.test(base) ? base : base ? `c_${base}` : `column_${source + 1}`;
  return key.slice(0, 63).replace(/_+$/, '');
}

function uniqueKey(key: string, taken: Set<string>): string {
  let candidate = key;
  for (let suffix = 2; taken.has(candidate); suffix += 1) candidate = `${key.slice(0, 60)}_${suffix}`;
  taken.add(candidate);
  return candidate;
}

/** The type most values of a column fit; blanks and N/A-like tokens do not count. */
export function guessType(values: string[]): DatasetColumnType {
  const present = values.map((value) => value.trim()).filter((value) => !NULL_TOKENS.has(value.toLowerCase()));
  if (present.length === 0) return 'text';
  if (present.every((value) => /^(true|false|yes|no)$/i.test(value))) return 'boolean';
  if (present.every((value) => /^[-+]?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?%?$/.test(value))) return 'number';
  if (present.every((value) => /^(\d{4}-\d{2}(-\d{2})?|\d{1,2}[/.]\d{1,2}[/.]\d{4})$/.test(value))) return 'date';
  return 'text';
}

export function mappedColumns(draft: ImportDraft): DraftColumn[] {
  return draft.columns.filter((column) => !column.skip);
}

/** The dataset the rows go into: its columns keep their types, and its rows their time column. */
export type ImportTarget = Pick<Dataset, 'columns' | 'time_column' | 'row_count'>;

const TYPE_NAMES: Record<DatasetColumnType, string> = {
  number: 'numbers',
  text: 'text',
  date: 'dates',
  boolean: 'yes/no values',
};

/** Per file column, what is wrong with its key or label (only columns that are imported). */
export function columnProblems(
  draft: ImportDraft,
  target?: ImportTarget,
): Map<number, { key?: string; label?: string }> {
  const problems = new Map<number, { key?: string; label?: string }>();
  const seen = new Map<string, number>();
  const known = new Map((target?.columns ?? []).map((column) => [column.key, column.type]));
  for (const column of mappedColumns(draft)) {
    const found: { key?: string; label?: string } = {};
    const key = column.key.trim();
    const knownType = known.get(key);
    if (!KEY_PATTERN.test(key)) found.key = COLUMN_KEY_MESSAGE;
    else if (seen.has(key)) found.key = 'Another column has this key.';
    else if (knownType && knownType !== column.type) {
      found.key = `The dataset's column "${key}" holds ${TYPE_NAMES[knownType]}: choose that type, or another key.`;
    } else seen.set(key, column.source);
    if (!column.label.trim()) found.label = 'Enter a label.';
    else if (column.label.trim().length > 120) found.label = 'A label is at most 120 characters.';
    if (found.key || found.label) problems.set(column.source, found);
  }
  return problems;
}

/** Why the file settings step is not complete yet, or null. */
export function fileSettingsProblem(draft: ImportDraft): string | null {
  if (draft.delimiter.length !== 1) return 'Choose the character that separates the columns.';
  if (!draft.date_format) return 'Choose how the dates are written.';
  return null;
}

/** Why the column step is not complete yet, or null. */
export function mappingProblem(draft: ImportDraft, target?: ImportTarget): string | null {
  const mapped = mappedColumns(draft);
  if (mapped.length === 0) return 'Import at least one column.';
  if (columnProblems(draft, target).size > 0) return 'Correct the keys and labels marked in the table.';
  const time = mapped.find((column) => column.key.trim() === draft.time_column);
  if (!time) return 'Choose the time column: the date that places each row in a period.';
  if (time.type !== 'date') return 'The time column must have the type Date.';
  if (target && target.row_count > 0 && target.time_column && target.time_column !== draft.time_column) {
    return `The rows of this dataset are placed by "${target.time_column}": choose that column as the time column.`;
  }
  return null;
}

/** Why the import choices (mode) are not complete yet, or null. */
export function modeProblem(draft: ImportDraft): string | null {
  if (draft.mode === 'replace_range') {
    if (!ISO_DATE.test(draft.range_from) || !ISO_DATE.test(draft.range_to)) {
      return 'Enter the first and last date of the period to replace.';
    }
    if (draft.range_from > draft.range_to) return 'The period to replace must end on or after its first date.';
  }
  if (draft.mode === 'upsert') {
    if (draft.key_columns.length === 0) return 'Choose the columns that identify a row.';
    if (draft.time_column && !draft.key_columns.includes(draft.time_column)) {
      return 'The key columns must include the time column.';
    }
  }
  return null;
}

/**
 * The settings the server reads. For the preview, mode choices that are still incomplete are sent as a plain
 * append (the preview does not depend on them); the commit step sends the real ones.
 */
export function settingsOf(draft: ImportDraft, forPreview = false): ImportSettings {
  const modeReady = modeProblem(draft) === null;
  const mode = forPreview && !modeReady ? 'append' : draft.mode;
  const mappedKeys = new Set(mappedColumns(draft).map((column) => column.key.trim()));
  // A skipped column still needs a valid key of its own; what the person typed there is never read.
  const skippedKey = (column: DraftColumn) => {
    const key = column.key.trim();
    return KEY_PATTERN.test(key) && !mappedKeys.has(key) ? key : `skipped_column_${column.source + 1}`;
  };
  return {
    delimiter: draft.delimiter,
    encoding: draft.encoding,
    has_header: draft.has_header,
    columns: draft.columns.map((column) => ({
      source: column.source,
      skip: column.skip,
      key: column.skip ? skippedKey(column) : column.key.trim(),
      label: (column.label.trim() || column.header.trim() || `Column ${column.source + 1}`).slice(0, 120),
      type: column.type,
    })),
    time_column: draft.time_column ?? '',
    date_format: draft.date_format ?? 'YYYY-MM-DD',
    mode,
    error_policy: draft.error_policy,
    range_from: mode === 'replace_range' ? draft.range_from : null,
    range_to: mode === 'replace_range' ? draft.range_to : null,
    key_columns: mode === 'upsert' ? draft.key_columns : [],
  };
}

/** The parts of the settings the preview depends on (everything but the mode and the error policy). */
export function previewSignature(settings: ImportSettings): string {
  const {
    mode: _mode,
    error_policy: _policy,
    range_from: _from,
    range_to: _to,
    key_columns: _keys,
    ...read
  } = settings;
  return canonical(read);
}

/** JSON with the keys of every object sorted, so settings compare equal whatever order the server wrote them in. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}
