import { Alert, Button, Code, Fieldset, Group, Radio, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { STD_COPYRIGHTED_CODES, STD_LIMITS, stdFrameworkImportSchema } from '@portal/shared';
import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { messageFor } from '../../../lib/api';
import { type FieldErrors, schemaFieldErrors, serverFieldErrors } from '../../../lib/field-errors';
import { type StdFrameworkImport, useImportFramework } from '../api/frameworks';
import { CsvFileField, csvMessages, readCsvText } from './CsvFileField';
import { LICENCE_RULE, TEXT_POLICY_HELP } from './std-words';

type Field = keyof StdFrameworkImport;
const FIELDS: Field[] = ['code', 'name', 'publisher', 'edition', 'text_policy', 'public_url', 'csv'];

interface Values {
  code: string;
  name: string;
  publisher: string;
  edition: string;
  text_policy: 'identifiers_only' | 'tenant_text';
  public_url: string;
}

const EMPTY: Values = {
  code: '',
  name: '',
  publisher: '',
  edition: '',
  text_policy: 'identifiers_only',
  public_url: '',
};

/** Every message the server gave for the file (a CSV can be wrong on many rows). */
/**
 * Imports a framework from a CSV file (POST /frameworks/import): a state's rules, a publisher's structure kept as
 * identifiers and titles, or the facility's own framework with its text.
 */
export function FrameworkImport({
  projectId,
  onImported,
}: {
  projectId: string;
  onImported: (frameworkId: number | null) => void;
}) {
  const save = useImportFramework(projectId);
  const [values, setValues] = useState<Values>(EMPTY);
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [fileProblems, setFileProblems] = useState<string[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const copyrighted = STD_COPYRIGHTED_CODES.test(values.code.trim());

  const change = <K extends keyof Values>(field: K, value: Values[K]) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    setFileProblems([]);
    if (file && file.size > STD_LIMITS.csvBytes) {
      setErrors({ csv: 'The file is larger than 2 MB.' });
      return;
    }
    let csv = '';
    try {
      csv = file ? await readCsvText(file) : '';
    } catch {
      setErrors({ csv: 'The file could not be read. Choose it again.' });
      return;
    }
    const parsed = stdFrameworkImportSchema.safeParse({ ...values, csv });
    if (!parsed.success) {
      setErrors(schemaFieldErrors<Field>(parsed.error));
      return;
    }
    setErrors({});
    try {
      const id = await save.mutateAsync(parsed.data);
      toast.success(`Imported ${parsed.data.name}.`);
      setValues(EMPTY);
      setFile(null);
      onImported(id);
    } catch (error) {
      const fields = serverFieldErrors(error, FIELDS);
      const rows = csvMessages(error);
      setErrors(fields);
      setFileProblems(rows.length > 1 ? rows : []);
      const message =
        Object.keys(fields).length > 0
          ? 'The framework was not imported. See the messages at the fields.'
          : messageFor(error, 'The framework could not be imported. Please try again.');
      setFailure(message);
      toast.error(message);
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label="Import a framework">
      <Fieldset legend="Import a framework (CSV)" radius="md" styles={{ legend: { fontWeight: 700 } }}>
        <Stack gap="sm">
          <Text size="sm">
            One row per node, with the columns <Code>ref_id,parent_ref_id,type,title</Code>, and a <Code>text</Code>{' '}
            column only for your facility’s own frameworks. Parents come before their children; a row without{' '}
            <Code>parent_ref_id</Code> is a chapter.
          </Text>
          <Alert color="blue" variant="light" p="xs">
            <Text size="sm">{LICENCE_RULE}</Text>
          </Alert>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput
              label="Code"
              description="Letters, digits, dots, dashes: TJC-HAP, STATE-NY."
              required
              maxLength={STD_LIMITS.code}
              value={values.code}
              onChange={(event) => change('code', event.currentTarget.value)}
              error={errors.code}
            />
            <TextInput
              label="Name"
              required
              maxLength={STD_LIMITS.name}
              value={values.name}
              onChange={(event) => change('name', event.currentTarget.value)}
              error={errors.name}
            />
            <TextInput
              label="Publisher"
              required
              maxLength={STD_LIMITS.publisher}
              value={values.publisher}
              onChange={(event) => change('publisher', event.currentTarget.value)}
              error={errors.publisher}
            />
            <TextInput
              label="Edition"
              description="Like 2026 or Rev. 25-1."
              required
              maxLength={STD_LIMITS.edition}
              value={values.edition}
              onChange={(event) => change('edition', event.currentTarget.value)}
              error={errors.edition}
            />
          </SimpleGrid>
          <Radio.Group
            label="What the framework stores"
            value={values.text_policy}
            onChange={(value) => change('text_policy', value as Values['text_policy'])}
            error={errors.text_policy}
          >
            <Stack gap="xs" mt={6}>
              <Radio
                value="identifiers_only"
                label="Identifiers and titles only"
                description={TEXT_POLICY_HELP.identifiers_only}
              />
              <Radio
                value="tenant_text"
                label="Our facility’s own framework, with its text"
                description={TEXT_POLICY_HELP.tenant_text}
              />
            </Stack>
          </Radio.Group>
          {copyrighted && values.text_policy === 'tenant_text' && (
            <Alert color="orange" variant="light" p="xs" role="note">
              <Text size="sm">
                This code looks like a copyrighted publisher’s framework. Import it as identifiers and titles only.
              </Text>
            </Alert>
          )}
          <TextInput
            label="Public link"
            description="Where people can read the official standards, if anywhere."
            placeholder="https://"
            maxLength={STD_LIMITS.url}
            value={values.public_url}
            onChange={(event) => change('public_url', event.currentTarget.value)}
            error={errors.public_url}
          />
          <CsvFileField
            label="CSV file"
            description="At most 2 MB and 5,000 rows."
            file={file}
            onChange={(next) => {
              setFile(next);
              setErrors((current) => ({ ...current, csv: undefined }));
              setFileProblems([]);
            }}
            error={errors.csv}
            problems={fileProblems}
            problemsLabel="Problems in the file"
          />
          {failure && (
            <Alert color="red" variant="light" role="alert">
              {failure}
            </Alert>
          )}
          <Group>
            <Button type="submit" variant="light" loading={save.isPending}>
              Import framework
            </Button>
          </Group>
        </Stack>
      </Fieldset>
    </form>
  );
}
