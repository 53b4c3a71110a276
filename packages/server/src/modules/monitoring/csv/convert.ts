import type { DatasetColumnType, ImportSettings } from '@portal/shared';
import type { CsvRecord } from './read.js';
import { isNullCell, parseBoolean, parseDate, parseNumber } from './values.js';

/**
 * Turns a CSV record into the values a dataset row stores, by the import's settings: numbers as numbers, dates as
 * ISO 'YYYY-MM-DD', booleans, text, null for the null tokens. Every cell that does not fit its column is reported
 * with a reason a person can act on. Used by the settings preview and by the commit, so both judge rows alike.
 */

export type CellValue = string | number | boolean | null;

export interface CellError {
  /** Column key (the preview marks the cell by it). */
  key: string;
  /** The column's label (the error report names the column as the file does). */
  label: string;
  value: string;
  reason: string;
}

export interface ConvertedRow {
  line: number;
  values: Record<string, CellValue>;
  /** The time column's date, when it is valid. */
  rowDate: string | null;
  errors: CellError[];
}

/** A text value longer than this is refused (a dataset holds measures' inputs, not documents). */
export const TEXT_MAX = 10_000;
/** The pseudo-column of errors about a whole line. */
export const LINE_COLUMN = '(line)';

export interface Converter {
  convert(record: CsvRecord): ConvertedRow;
}

/**
 * `width`: fields a line should have (the header's or the first line's); a line with other than that many
 * (trailing empty fields aside) is reported, because a stray delimiter shifts every value after it.
 */
export function rowConverter(settings: ImportSettings, width: number): Converter {
  const columns = settings.columns.filter((column) => !column.skip);
  const format = settings.date_format;
  const range =
    settings.mode === 'replace_range' && settings.range_from && settings.range_to
      ? { from: settings.range_from, to: settings.range_to }
      : null;

  // Rows of monitoring data repeat the same few dates: each distinct cell is parsed once (the cache stays small).
  const dates = new Map<string, string | null>();
  function dateOf(cell: string): string | null {
    let value = dates.get(cell);
    if (value === undefined) {
      value = parseDate(cell, format);
      if (dates.size >= 10_000) dates.clear();
      dates.set(cell, value);
    }
    return value;
  }

  function cellValue(type: DatasetColumnType, cell: string): { value: CellValue; reason?: string } {
    if (isNullCell(cell)) return { value: null };
    switch (type) {
      case 'number': {
        const value = parseNumber(cell);
        return value === null ? { value: null, reason: 'Not a number.' } : { value };
      }
      case 'date': {
        const value = dateOf(cell);
        return value === null ? { value: null, reason: `Not a date in the format ${format}.` } : { value };
      }
      case 'boolean': {
        const value = parseBoolean(cell, true);
        return value === null ? { value: null, reason: 'Not true or false (yes/no, 1/0).' } : { value };
      }
      case 'text': {
        const value = cell.trim();
        return value.length > TEXT_MAX
          ? { value: null, reason: `Longer than ${TEXT_MAX.toLocaleString('en-US')} characters.` }
          : { value };
      }
    }
  }

  return {
    convert({ line, cells }) {
      const values: Record<string, CellValue> = {};
      const errors: CellError[] = [];
      if (cells.length < width || (cells.length > width && cells.slice(width).some((cell) => cell.trim() !== ''))) {
        errors.push({
          key: LINE_COLUMN,
          label: LINE_COLUMN,
          value: '',
          reason: `This line has ${cells.length} values; the file's lines have ${width}.`,
        });
      }
      for (const column of columns) {
        const cell = cells[column.source] ?? '';
        const { value, reason } = cellValue(column.type, cell);
        values[column.key] = value;
        if (reason) errors.push({ key: column.key, label: column.label, value: cell, reason });
      }
      const time = settings.time_column;
      const timeColumn = columns.find((column) => column.key === time);
      const rowDate = typeof values[time] === 'string' ? (values[time] as string) : null;
      if (timeColumn && values[time] === null && !errors.some((error) => error.key === time)) {
        errors.push({
          key: time,
          label: timeColumn.label,
          value: cells[timeColumn.source] ?? '',
          reason: 'Missing time value.',
        });
      }
      if (range && rowDate !== null && (rowDate < range.from || rowDate > range.to)) {
        errors.push({
          key: time,
          label: timeColumn?.label ?? time,
          value: cells[timeColumn?.source ?? 0] ?? '',
          reason: `Outside the range being replaced (${range.from} to ${range.to}).`,
        });
      }
      return { line, values, rowDate, errors };
    },
  };
}
