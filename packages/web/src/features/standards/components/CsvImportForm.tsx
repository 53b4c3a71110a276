import { Button, Fieldset, Group, Stack } from '@mantine/core';
import { type FormEvent, type ReactNode, useState } from 'react';
import { toast } from 'sonner';
import type { z } from 'zod';
import { ErrorNotice } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';
import { type FieldErrors, schemaFieldErrors, serverFieldErrors } from '../../../lib/field-errors';
import { CsvFileField, csvMessages, readCsvText } from './CsvFileField';

/**
 * The state of a CSV import (framework or crosswalk): the chosen file, the field messages, the server's row problems
 * and the failure. `submit` checks the file's size, reads it, checks the body with the contract and saves it; the
 * server's messages land on the fields, the row problems under the file.
 */
export function useCsvImport<F extends string>({
  what,
  fields,
  maxBytes,
  tooLarge,
}: {
  /** The thing imported, in the messages: "framework", "crosswalk". */
  what: string;
  /** The fields the server may name, `csv` among them. */
  fields: readonly (F | 'csv')[];
  maxBytes: number;
  /** The message when the file is larger than `maxBytes`. */
  tooLarge: string;
}) {
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<FieldErrors<F | 'csv'>>({});
  const [fileProblems, setFileProblems] = useState<string[]>([]);
  const [failure, setFailure] = useState<string | null>(null);

  const clear = (field: F | 'csv') => setErrors((current) => ({ ...current, [field]: undefined }));

  const chooseFile = (next: File | null) => {
    setFile(next);
    clear('csv');
    setFileProblems([]);
  };

  /** Checks and saves the body `build` makes with the file's text; `save` does the call and what follows it. */
  async function submit<T>(
    event: FormEvent,
    schema: z.ZodType<T>,
    build: (csv: string) => unknown,
    save: (body: T) => Promise<void>,
  ) {
    event.preventDefault();
    setFailure(null);
    setFileProblems([]);
    if (file && file.size > maxBytes) {
      setErrors({ csv: tooLarge } as FieldErrors<F | 'csv'>);
      return;
    }
    let csv = '';
    try {
      csv = file ? await readCsvText(file) : '';
    } catch {
      setErrors({ csv: 'The file could not be read. Choose it again.' } as FieldErrors<F | 'csv'>);
      return;
    }
    const parsed = schema.safeParse(build(csv));
    if (!parsed.success) {
      setErrors(schemaFieldErrors<F | 'csv'>(parsed.error));
      return;
    }
    setErrors({});
    try {
      await save(parsed.data);
      setFile(null);
    } catch (error) {
      const found = serverFieldErrors(error, fields);
      const rows = csvMessages(error);
      setErrors(found);
      setFileProblems(rows.length > 1 ? rows : []);
      const message =
        Object.keys(found).length > 0
          ? `The ${what} was not imported. See the messages at the fields.`
          : messageFor(error, `The ${what} could not be imported. Please try again.`);
      setFailure(message);
      toast.error(message);
    }
  }

  return { what, file, errors, fileProblems, failure, clear, chooseFile, submit };
}

export type CsvImport<F extends string> = ReturnType<typeof useCsvImport<F>>;

/**
 * The form of a CSV import: "Import a {what} (CSV)" around the fields (`children`), then the file field, the
 * failure and the "Import {what}" button, then `footer`.
 */
export function CsvImportForm<F extends string>({
  importer,
  onSubmit,
  saving,
  fileLabel,
  fileDescription,
  problemsLabel,
  children,
  footer,
}: {
  importer: CsvImport<F>;
  onSubmit: (event: FormEvent) => Promise<void>;
  saving: boolean;
  fileLabel: string;
  fileDescription: string;
  problemsLabel: string;
  children: ReactNode;
  footer?: ReactNode;
}) {
  const { what } = importer;
  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate aria-label={`Import a ${what}`}>
      <Fieldset legend={`Import a ${what} (CSV)`} radius="md" styles={{ legend: { fontWeight: 700 } }}>
        <Stack gap="sm">
          {children}
          <CsvFileField
            label={fileLabel}
            description={fileDescription}
            file={importer.file}
            onChange={importer.chooseFile}
            error={importer.errors.csv}
            problems={importer.fileProblems}
            problemsLabel={problemsLabel}
          />
          <ErrorNotice message={importer.failure} />
          <Group>
            <Button type="submit" variant="light" loading={saving}>
              {`Import ${what}`}
            </Button>
          </Group>
          {footer}
        </Stack>
      </Fieldset>
    </form>
  );
}
