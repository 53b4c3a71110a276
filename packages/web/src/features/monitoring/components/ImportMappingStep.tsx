import { Alert, Badge, Checkbox, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { DATASET_COLUMN_TYPES, type Dataset, type DatasetColumnType } from '@portal/shared';
import { ScrollTable } from '../../../components/form-parts/ScrollTable';
import { columnProblems, type DraftColumn, type ImportDraft, mappedColumns } from './import-draft';
import { COLUMN_TYPE_LABELS } from './import-parts';

const TYPE_OPTIONS = DATASET_COLUMN_TYPES.map((value) => ({ value, label: COLUMN_TYPE_LABELS[value] }));
export const PHI_BADGE = 'May identify patients';

/** Step 3: which file columns are imported, under which key, label and type, and which one is the time column. */
export function ImportMappingStep({
  dataset,
  draft,
  onChange,
}: {
  dataset: Dataset;
  draft: ImportDraft;
  onChange: (patch: Partial<ImportDraft>) => void;
}) {
  const problems = columnProblems(draft, dataset);
  const existing = new Set(dataset.columns.map((column) => column.key));
  const dateColumns = mappedColumns(draft).filter(
    (column, index, all) =>
      column.type === 'date' &&
      column.key.trim() &&
      all.findIndex((other) => other.key.trim() === column.key.trim()) === index,
  );
  const phiMapped = mappedColumns(draft).some((column) => column.phi);

  function setColumn(source: number, patch: Partial<DraftColumn>) {
    const before = draft.columns.find((column) => column.source === source);
    const columns = draft.columns.map((column) => (column.source === source ? { ...column, ...patch } : column));
    const next: Partial<ImportDraft> = { columns };
    // The time and key columns are named by key: they follow a renamed column and drop a skipped one.
    if (before && patch.key !== undefined) {
      if (draft.time_column === before.key) next.time_column = patch.key.trim();
      next.key_columns = draft.key_columns.map((key) => (key === before.key ? patch.key!.trim() : key));
    }
    if (before && patch.skip) {
      if (draft.time_column === before.key) next.time_column = null;
      next.key_columns = draft.key_columns.filter((key) => key !== before.key);
    }
    if (before && patch.type && patch.type !== 'date' && draft.time_column === before.key) next.time_column = null;
    onChange(next);
  }

  return (
    <Stack gap="md">
      {phiMapped && !dataset.patient_level && (
        <Alert color="orange.9" variant="light" title="Columns that may identify patients">
          Columns marked “{PHI_BADGE}” are refused, because this dataset holds aggregate data. Skip them, or ask a
          monitoring admin to make the dataset patient-level.
        </Alert>
      )}
      <ScrollTable
        minWidth={860}
        verticalSpacing="xs"
        aria-label="Column mapping"
        columns={['File column', 'Sample values', 'Skip', 'Key', 'Label', 'Type']}
      >
        {draft.columns.map((column) => {
          const problem = problems.get(column.source);
          const samples = column.samples.filter((value) => value.trim()).slice(0, 3);
          return (
            <Table.Tr key={column.source} data-source={column.source} opacity={column.skip ? 0.7 : 1}>
              <Table.Td style={{ overflowWrap: 'anywhere' }} miw={140}>
                <Stack gap={4} align="flex-start">
                  <Text size="sm" fw={600}>
                    {column.header}
                  </Text>
                  {column.phi && (
                    <Badge variant="light" color="red.9" data-testid="phi-badge">
                      {PHI_BADGE}
                    </Badge>
                  )}
                </Stack>
              </Table.Td>
              <Table.Td maw={220}>
                <Text size="sm" c="gray.8" lineClamp={2} style={{ overflowWrap: 'anywhere' }}>
                  {samples.length > 0 ? samples.join(', ') : '(empty)'}
                </Text>
              </Table.Td>
              <Table.Td>
                <Checkbox
                  aria-label={`Skip ${column.header}`}
                  checked={column.skip}
                  onChange={(event) => setColumn(column.source, { skip: event.currentTarget.checked })}
                />
              </Table.Td>
              <Table.Td miw={170}>
                <TextInput
                  aria-label={`Key of ${column.header}`}
                  size="xs"
                  value={column.key}
                  disabled={column.skip}
                  error={column.skip ? undefined : problem?.key}
                  description={
                    !column.skip && dataset.columns.length > 0 && !existing.has(column.key.trim())
                      ? 'New column'
                      : undefined
                  }
                  onChange={(event) => setColumn(column.source, { key: event.currentTarget.value })}
                />
              </Table.Td>
              <Table.Td miw={170}>
                <TextInput
                  aria-label={`Label of ${column.header}`}
                  size="xs"
                  value={column.label}
                  disabled={column.skip}
                  error={column.skip ? undefined : problem?.label}
                  onChange={(event) => setColumn(column.source, { label: event.currentTarget.value })}
                />
              </Table.Td>
              <Table.Td miw={130}>
                <Select
                  aria-label={`Type of ${column.header}`}
                  size="xs"
                  allowDeselect={false}
                  data={TYPE_OPTIONS}
                  value={column.type}
                  disabled={column.skip}
                  onChange={(value) => value && setColumn(column.source, { type: value as DatasetColumnType })}
                />
              </Table.Td>
            </Table.Tr>
          );
        })}
      </ScrollTable>
      <Select
        label="Time column"
        required
        maw={420}
        description="The date that places each row in a period. Only imported columns of the type Date are listed."
        placeholder={dateColumns.length === 0 ? 'No imported column has the type Date' : 'Choose the date column'}
        data={dateColumns.map((column) => ({ value: column.key.trim(), label: `${column.label} (${column.key})` }))}
        value={draft.time_column}
        onChange={(value) => onChange({ time_column: value })}
      />
    </Stack>
  );
}
