import { Alert, Button, Group, List, MultiSelect, Radio, Stack, Table, Text, TextInput } from '@mantine/core';
import type { ImportErrorPolicy, ImportMode, PreviewRow } from '@portal/shared';
import { LoadingRows } from '../../../components/page-parts';
import type { ImportDetail } from '../api/data-imports';
import { type ImportDraft, mappedColumns } from './import-draft';
import { formatCount, MODE_LABELS, POLICY_LABELS } from './import-parts';

const MODE_HELP: Record<ImportMode, string> = {
  append: 'Add the rows to those already in the dataset.',
  replace_range: "Rows of the dataset dated in a period are replaced by the file's rows.",
  upsert: 'A row with the same values in the key columns replaces the one already there; other rows are added.',
};

const POLICY_HELP: Record<ImportErrorPolicy, string> = {
  abort: 'Nothing is imported if any row has an error.',
  skip: 'Good rows are imported; the bad ones are listed in a report you can download.',
};

/**
 * Step 4: the first rows as they would be stored, with what is wrong in them, the columns refused as patient
 * identifiers, and the choices of mode and error policy.
 */
export function ImportPreviewStep({
  detail,
  draft,
  loading,
  failure,
  onRetry,
  onChange,
}: {
  /** The import as last saved; null while its preview is being read. */
  detail: ImportDetail | null;
  draft: ImportDraft;
  loading: boolean;
  failure: string | null;
  onRetry: () => void;
  onChange: (patch: Partial<ImportDraft>) => void;
}) {
  const keyOptions = [...new Set(mappedColumns(draft).map((column) => column.key.trim()))];
  return (
    <Stack gap="md">
      {failure ? (
        <Stack gap="sm" align="flex-start">
          <Alert color="red" variant="light" role="alert" w="100%">
            {failure}
          </Alert>
          <Button variant="default" onClick={onRetry}>
            Try again
          </Button>
        </Stack>
      ) : loading || !detail ? (
        <LoadingRows label="Reading the preview" rows={4} />
      ) : (
        <PreviewResult detail={detail} draft={draft} />
      )}
      <Radio.Group
        label="What should the import do?"
        value={draft.mode}
        onChange={(value) => {
          const mode = value as ImportMode;
          // Update by key always matches on the period: start from the time column.
          const keys =
            mode === 'upsert' && draft.key_columns.length === 0 && draft.time_column ? [draft.time_column] : undefined;
          onChange({ mode, ...(keys ? { key_columns: keys } : {}) });
        }}
      >
        <Stack gap="xs" mt="xs">
          {(['append', 'replace_range', 'upsert'] as const).map((mode) => (
            <Radio key={mode} value={mode} label={MODE_LABELS[mode]} description={MODE_HELP[mode]} />
          ))}
        </Stack>
      </Radio.Group>
      {draft.mode === 'replace_range' && (
        <Group grow align="flex-start" wrap="wrap" maw={520}>
          <TextInput
            type="date"
            label="Replace from"
            required
            miw={180}
            value={draft.range_from}
            onChange={(event) => onChange({ range_from: event.currentTarget.value })}
          />
          <TextInput
            type="date"
            label="Replace to"
            required
            miw={180}
            value={draft.range_to}
            onChange={(event) => onChange({ range_to: event.currentTarget.value })}
          />
        </Group>
      )}
      {draft.mode === 'upsert' && (
        <MultiSelect
          label="Key columns"
          required
          maw={520}
          description="Rows with the same values in these columns are the same row. Include the time column."
          data={keyOptions}
          value={draft.key_columns}
          onChange={(keys) => onChange({ key_columns: keys })}
          comboboxProps={{ withinPortal: true }}
        />
      )}
      <Radio.Group
        label="When a row has an error"
        value={draft.error_policy}
        onChange={(value) => onChange({ error_policy: value as ImportErrorPolicy })}
      >
        <Stack gap="xs" mt="xs">
          {(['abort', 'skip'] as const).map((policy) => (
            <Radio key={policy} value={policy} label={POLICY_LABELS[policy]} description={POLICY_HELP[policy]} />
          ))}
        </Stack>
      </Radio.Group>
    </Stack>
  );
}

function PreviewResult({ detail, draft }: { detail: ImportDetail; draft: ImportDraft }) {
  const columns = mappedColumns(draft);
  const shown = new Set(columns.map((column) => column.key.trim()));
  const rowProblems = (row: PreviewRow) => row.errors.filter((error) => !shown.has(error.column));
  const withRowProblems = detail.preview.some((row) => rowProblems(row).length > 0);

  return (
    <Stack gap="sm">
      {detail.phi_blocked.length > 0 && (
        <Alert color="red" variant="light" role="alert" title="This file cannot be imported into this dataset">
          <Stack gap="xs">
            <Text size="sm">
              These columns look like patient identifiers, and the dataset holds aggregate data. Skip them on the
              Columns step, or ask a monitoring admin to make the dataset patient-level.
            </Text>
            <List size="sm" spacing={2}>
              {detail.phi_blocked.map((item) => (
                <List.Item key={item.column}>
                  <strong>{item.column}</strong>: {item.reason}
                </List.Item>
              ))}
            </List>
          </Stack>
        </Alert>
      )}
      <Text size="sm" data-testid="preview-counts">
        {formatCount(detail.preview.length, 'row', 'rows')} previewed,{' '}
        {formatCount(detail.preview_errors, 'row', 'rows')} with errors. The file has{' '}
        {formatCount(detail.detected.row_count, 'row', 'rows')}.
      </Text>
      {detail.preview.length > 0 && (
        <Table.ScrollContainer
          minWidth={Math.max(480, 140 * (columns.length + 1))}
          maxHeight={480}
          // A region that scrolls must be reachable with the keyboard.
          scrollAreaProps={{ viewportProps: { tabIndex: 0, 'aria-label': 'Preview rows' } }}
        >
          <Table verticalSpacing={4} striped stickyHeader aria-label="Preview of the first rows">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Line</Table.Th>
                {columns.map((column) => (
                  <Table.Th key={column.source} scope="col">
                    {column.label}
                  </Table.Th>
                ))}
                {withRowProblems && <Table.Th scope="col">Problems</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {detail.preview.map((row) => (
                <Table.Tr key={row.line} data-line={row.line} data-error={row.errors.length > 0 || undefined}>
                  <Table.Td>{row.line}</Table.Td>
                  {columns.map((column) => {
                    const error = row.errors.find((item) => item.column === column.key.trim());
                    return (
                      <Table.Td
                        key={column.source}
                        data-cell-error={error ? 'true' : undefined}
                        bg={error ? 'var(--mantine-color-red-light)' : undefined}
                        style={{ overflowWrap: 'anywhere' }}
                      >
                        {cellText(row.values[column.key.trim()])}
                        {error && (
                          <Text size="xs" c="red.9" fw={600}>
                            {error.reason}
                          </Text>
                        )}
                      </Table.Td>
                    );
                  })}
                  {withRowProblems && (
                    <Table.Td>
                      {rowProblems(row).map((error) => (
                        <Text key={`${error.column}:${error.reason}`} size="xs" c="red.9" fw={600}>
                          {error.column ? `${error.column}: ` : ''}
                          {error.reason}
                        </Text>
                      ))}
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

function cellText(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number') return value.toLocaleString('en-US', { maximumFractionDigits: 6 });
  return value;
}
