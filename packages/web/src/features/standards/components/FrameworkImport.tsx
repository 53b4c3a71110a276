import { Alert, Code, Radio, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { STD_COPYRIGHTED_CODES, STD_LIMITS, stdFrameworkImportSchema } from '@portal/shared';
import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { fieldBinder } from '../../../lib/field-binding';
import { type StdFrameworkImport, useImportFramework } from '../api/frameworks';
import { CsvImportForm, useCsvImport } from './CsvImportForm';
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
  const importer = useCsvImport({
    what: 'framework',
    fields: FIELDS,
    maxBytes: STD_LIMITS.csvBytes,
    tooLarge: 'The file is larger than 2 MB.',
  });
  const { errors } = importer;
  const copyrighted = STD_COPYRIGHTED_CODES.test(values.code.trim());

  const change = <K extends keyof Values>(field: K, value: Values[K]) => {
    setValues((current) => ({ ...current, [field]: value }));
    importer.clear(field);
  };
  const field = fieldBinder({ values, errors, change });

  const submit = (event: FormEvent) =>
    importer.submit(
      event,
      stdFrameworkImportSchema,
      (csv) => ({ ...values, csv }),
      async (body) => {
        const id = await save.mutateAsync(body);
        toast.success(`Imported ${body.name}.`);
        setValues(EMPTY);
        onImported(id);
      },
    );

  return (
    <CsvImportForm
      importer={importer}
      onSubmit={submit}
      saving={save.isPending}
      fileLabel="CSV file"
      fileDescription="At most 2 MB and 5,000 rows."
      problemsLabel="Problems in the file"
    >
      <Text size="sm">
        One row per node, with the columns <Code>ref_id,parent_ref_id,type,title</Code>, and a <Code>text</Code> column
        only for your facility’s own frameworks. Parents come before their children; a row without{' '}
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
          {...field.text('code')}
        />
        <TextInput label="Name" required maxLength={STD_LIMITS.name} {...field.text('name')} />
        <TextInput label="Publisher" required maxLength={STD_LIMITS.publisher} {...field.text('publisher')} />
        <TextInput
          label="Edition"
          description="Like 2026 or Rev. 25-1."
          required
          maxLength={STD_LIMITS.edition}
          {...field.text('edition')}
        />
      </SimpleGrid>
      <Radio.Group label="What the framework stores" {...field.value('text_policy')}>
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
        {...field.text('public_url')}
      />
    </CsvImportForm>
  );
}
