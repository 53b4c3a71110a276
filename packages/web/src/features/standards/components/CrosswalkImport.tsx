import { Alert, Button, Code, Fieldset, Group, List, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { STD_CROSSWALK_LIMITS, STD_RELATIONSHIPS, stdCrosswalkImportSchema } from '@portal/shared';
import { type FormEvent, useMemo, useState } from 'react';
import { toast } from 'sonner';
import { messageFor } from '../../../lib/api';
import { type FieldErrors, schemaFieldErrors, serverFieldErrors } from '../../../lib/field-errors';
import { type StdCrosswalkImport, useImportCrosswalk, useStdCrosswalks } from '../api/crosswalks';
import type { StdFramework } from '../api/frameworks';
import { CsvFileField, csvMessages, readCsvText } from './CsvFileField';
import { plural } from './std-words';

type Field = keyof StdCrosswalkImport;
const FIELDS: Field[] = ['source_framework_id', 'target_framework_id', 'csv'];

/** Every message the server gave for the file (a CSV can be wrong on many rows). */
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
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [fileProblems, setFileProblems] = useState<string[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const options = useMemo(
    () => frameworks.map((framework) => ({ value: String(framework.id), label: frameworkLabel(framework) })),
    [frameworks],
  );
  const sets = crosswalks.data?.sets ?? [];

  if (frameworks.length < 2) return null;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    setFileProblems([]);
    if (file && file.size > STD_CROSSWALK_LIMITS.csvBytes) {
      setErrors({ csv: 'The file is larger than 1 MB.' });
      return;
    }
    let csv = '';
    try {
      csv = file ? await readCsvText(file) : '';
    } catch {
      setErrors({ csv: 'The file could not be read. Choose it again.' });
      return;
    }
    const parsed = stdCrosswalkImportSchema.safeParse({
      source_framework_id: source ? Number(source) : 0,
      target_framework_id: target ? Number(target) : 0,
      csv,
    });
    if (!parsed.success) {
      setErrors(schemaFieldErrors<Field>(parsed.error));
      return;
    }
    setErrors({});
    try {
      const answer = await save.mutateAsync(parsed.data);
      toast.success(`Imported a crosswalk of ${plural(answer.mappings, 'mapping')}.`);
      setFile(null);
    } catch (error) {
      const fields = serverFieldErrors(error, FIELDS);
      const rows = csvMessages(error);
      setErrors(fields);
      setFileProblems(rows.length > 1 ? rows : []);
      const message =
        Object.keys(fields).length > 0
          ? 'The crosswalk was not imported. See the messages at the fields.'
          : messageFor(error, 'The crosswalk could not be imported. Please try again.');
      setFailure(message);
      toast.error(message);
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label="Import a crosswalk">
      <Fieldset legend="Import a crosswalk (CSV)" radius="md" styles={{ legend: { fontWeight: 700 } }}>
        <Stack gap="sm">
          <Text size="sm">
            A crosswalk says which element of one framework or edition matches which element of another. One row per
            pair, with the columns <Code>source_ref_id,target_ref_id,relationship</Code> and, if you like,{' '}
            <Code>rationale</Code>. The relationship is one of{' '}
            {STD_RELATIONSHIPS.map((relationship, i) => (
              <span key={relationship}>
                {i > 0 && (i === STD_RELATIONSHIPS.length - 1 ? ' or ' : ', ')}
                <Code>{relationship}</Code>
              </span>
            ))}
            : the source element equals the target, is part of it (subset), contains it (superset) or overlaps it.
            Importing the same two frameworks again replaces this project’s crosswalk between them.
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
                setErrors((current) => ({ ...current, source_framework_id: undefined }));
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
                setErrors((current) => ({ ...current, target_framework_id: undefined }));
              }}
              error={errors.target_framework_id}
            />
          </SimpleGrid>
          <CsvFileField
            label="Crosswalk CSV file"
            description="At most 1 MB and 5,000 rows."
            file={file}
            onChange={(next) => {
              setFile(next);
              setErrors((current) => ({ ...current, csv: undefined }));
              setFileProblems([]);
            }}
            error={errors.csv}
            problems={fileProblems}
            problemsLabel="Problems in the crosswalk file"
          />
          {failure && (
            <Alert color="red" variant="light" role="alert">
              {failure}
            </Alert>
          )}
          <Group>
            <Button type="submit" variant="light" loading={save.isPending}>
              Import crosswalk
            </Button>
          </Group>
          {sets.length > 0 && (
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
          )}
        </Stack>
      </Fieldset>
    </form>
  );
}
