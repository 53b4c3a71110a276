import { Code, List, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { STD_CROSSWALK_LIMITS, STD_RELATIONSHIPS, stdCrosswalkImportSchema } from '@portal/shared';
import { type FormEvent, useMemo, useState } from 'react';
import { toast } from 'sonner';
import { type StdCrosswalkImport, useImportCrosswalk, useStdCrosswalks } from '../api/crosswalks';
import type { StdFramework } from '../api/frameworks';
import { CsvImportForm, useCsvImport } from './CsvImportForm';
import { plural } from './std-words';

type Field = keyof StdCrosswalkImport;
const FIELDS: Field[] = ['source_framework_id', 'target_framework_id', 'csv'];

const frameworkLabel = (framework: { name: string; edition: string; code: string }) =>
  `${framework.name}, edition ${framework.edition} (${framework.code})`;

/**
 * Imports a crosswalk from a CSV file (POST /crosswalks/import): which element of one framework or edition matches
 * which element of another. Element panels show it, and an assessment upgrades to the next edition through it.
 */
export function CrosswalkImport({ projectId, frameworks }: { projectId: string; frameworks: readonly StdFramework[] }) {
  const save = useImportCrosswalk(projectId);
  const crosswalks = useStdCrosswalks(projectId);
  const [source, setSource] = useState<string | null>(null);
  const [target, setTarget] = useState<string | null>(null);
  const importer = useCsvImport({
    what: 'crosswalk',
    fields: FIELDS,
    maxBytes: STD_CROSSWALK_LIMITS.csvBytes,
    tooLarge: 'The file is larger than 1 MB.',
  });
  const { errors } = importer;
  const options = useMemo(
    () => frameworks.map((framework) => ({ value: String(framework.id), label: frameworkLabel(framework) })),
    [frameworks],
  );
  const sets = crosswalks.data?.sets ?? [];

  if (frameworks.length < 2) return null;

  const submit = (event: FormEvent) =>
    importer.submit(
      event,
      stdCrosswalkImportSchema,
      (csv) => ({
        source_framework_id: source ? Number(source) : 0,
        target_framework_id: target ? Number(target) : 0,
        csv,
      }),
      async (body) => {
        const answer = await save.mutateAsync(body);
        toast.success(`Imported a crosswalk of ${plural(answer.mappings, 'mapping')}.`);
      },
    );

  return (
    <CsvImportForm
      importer={importer}
      onSubmit={submit}
      saving={save.isPending}
      fileLabel="Crosswalk CSV file"
      fileDescription="At most 1 MB and 5,000 rows."
      problemsLabel="Problems in the crosswalk file"
      footer={
        sets.length > 0 && (
          <Stack gap={4}>
            <Text size="sm" fw={600}>
              Crosswalks this project uses
            </Text>
            <List size="sm" aria-label="Crosswalks this project uses">
              {sets.map((set) => (
                <List.Item key={`${set.source.id}-${set.target.id}-${set.built_in}`}>
                  {set.source.code} {set.source.edition} to {set.target.code} {set.target.edition}:{' '}
                  {plural(set.mappings, 'mapping')}
                  {set.built_in ? ' (built in)' : ''}
                </List.Item>
              ))}
            </List>
          </Stack>
        )
      }
    >
      <Text size="sm">
        A crosswalk says which element of one framework or edition matches which element of another. One row per pair,
        with the columns <Code>source_ref_id,target_ref_id,relationship</Code> and, if you like, <Code>rationale</Code>.
        The relationship is one of{' '}
        {STD_RELATIONSHIPS.map((relationship, i) => (
          <span key={relationship}>
            {i > 0 && (i === STD_RELATIONSHIPS.length - 1 ? ' or ' : ', ')}
            <Code>{relationship}</Code>
          </span>
        ))}
        : the source element equals the target, is part of it (subset), contains it (superset) or overlaps it. Importing
        the same two frameworks again replaces this project’s crosswalk between them.
      </Text>
      <Text size="sm" c="dimmed">
        An assessment upgrades to a new edition through its crosswalk: on the compliance page, choose “Upgrade to
        another edition”.
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <Select
          label="Maps from"
          description="The source_ref_id column: the earlier edition, say."
          placeholder="Choose a framework"
          required
          data={options}
          value={source}
          onChange={(value) => {
            setSource(value);
            importer.clear('source_framework_id');
          }}
          error={errors.source_framework_id}
        />
        <Select
          label="Maps to"
          description="The target_ref_id column: the new edition, say."
          placeholder="Choose a framework"
          required
          data={options}
          value={target}
          onChange={(value) => {
            setTarget(value);
            importer.clear('target_framework_id');
          }}
          error={errors.target_framework_id}
        />
      </SimpleGrid>
    </CsvImportForm>
  );
}
