import { FileInput, List } from '@mantine/core';
import { ApiError } from '../../../lib/api';
import { fileText } from '../../../lib/file-text';

/**
 * What the framework and crosswalk imports share: the CSV file field with the server's row problems under it, the
 * file's text, and the messages a 400 lists under `csv` (one per kind of problem, naming its rows).
 */

/** The messages of a 400 under `errors.csv`. */
export function csvMessages(error: unknown): string[] {
  if (!(error instanceof ApiError)) return [];
  const list = (error.body as { errors?: Record<string, unknown> } | null)?.errors?.csv;
  return Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string') : [];
}

/** A chosen file's text. */
export const readCsvText = fileText;

export function CsvFileField({
  label,
  description,
  file,
  onChange,
  error,
  problems,
  problemsLabel,
}: {
  label: string;
  description: string;
  file: File | null;
  onChange: (file: File | null) => void;
  error: string | undefined;
  /** Every problem the server named, when there is more than one. */
  problems: readonly string[];
  problemsLabel: string;
}) {
  return (
    <>
      <FileInput
        label={label}
        description={description}
        placeholder="Choose a CSV file"
        accept=".csv,text/csv"
        required
        clearable
        value={file}
        onChange={onChange}
        error={error}
      />
      {problems.length > 0 && (
        <List size="sm" c="red.9" aria-label={problemsLabel}>
          {problems.map((problem) => (
            <List.Item key={problem}>{problem}</List.Item>
          ))}
        </List>
      )}
    </>
  );
}
