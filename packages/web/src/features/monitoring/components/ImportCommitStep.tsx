import { Alert, Anchor, Button, Group, List, Progress, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { ScrollTable } from '../../../components/form-parts/ScrollTable';
import { messageFor } from '../../../lib/api';
import { type ImportDetail, importErrorsUrl, useCommitImport } from '../api/data-imports';
import { formatCount, MODE_LABELS, POLICY_LABELS } from './import-parts';

/**
 * Step 5: the summary and the Import button; then the progress while the server writes the rows (the import is
 * asked for again every second), and the result: rows imported, skipped and replaced, the error report, or why it
 * failed.
 */
export function ImportCommitStep({
  projectId,
  detail,
  blocked,
  onBack,
  onRestart,
}: {
  projectId: string;
  detail: ImportDetail;
  /** Why the import cannot start (columns refused as patient identifiers...), or null. */
  blocked: string | null;
  onBack: () => void;
  onRestart: () => void;
}) {
  const commit = useCommitImport(projectId, detail.id);
  const [failure, setFailure] = useState<string | null>(null);
  const total = detail.rows_total || detail.detected.row_count;
  const settings = detail.settings;

  async function start() {
    setFailure(null);
    try {
      await commit.mutateAsync();
    } catch (error) {
      setFailure(messageFor(error, 'The import could not be started. Please try again.'));
    }
  }

  if (detail.status === 'uploaded') {
    return (
      <Stack gap="md">
        <List size="sm" spacing={4}>
          <List.Item>
            File: <strong style={{ overflowWrap: 'anywhere' }}>{detail.file_name}</strong>,{' '}
            {formatCount(detail.detected.row_count, 'row', 'rows')}
          </List.Item>
          {settings && (
            <>
              <List.Item>
                Mode: {MODE_LABELS[settings.mode]}
                {settings.mode === 'replace_range' && ` (${settings.range_from} to ${settings.range_to})`}
                {settings.mode === 'upsert' && ` (key: ${settings.key_columns.join(', ')})`}
              </List.Item>
              <List.Item>When a row has an error: {POLICY_LABELS[settings.error_policy].toLowerCase()}</List.Item>
            </>
          )}
        </List>
        {(failure || blocked) && (
          <Alert color="red" variant="light" role="alert">
            {failure ?? blocked}
          </Alert>
        )}
        <Group justify="space-between" gap="sm" wrap="wrap">
          <Button variant="default" onClick={onBack}>
            Back
          </Button>
          <Button onClick={() => void start()} loading={commit.isPending} disabled={blocked !== null}>
            Import {formatCount(detail.detected.row_count, 'row', 'rows')}
          </Button>
        </Group>
      </Stack>
    );
  }

  if (detail.status === 'committing') {
    const percent = total > 0 ? Math.min(100, Math.round((detail.progress / total) * 100)) : 0;
    return (
      <Stack gap={6} role="status" aria-label="Importing the rows">
        <Progress value={percent} aria-label="Import progress" data-testid="commit-progress" animated />
        <Text size="sm" data-testid="commit-progress-text">
          Read {detail.progress.toLocaleString('en-US')} of {formatCount(total, 'row', 'rows')}… You may leave this
          page: the import goes on.
        </Text>
      </Stack>
    );
  }

  const report = detail.rows_err > 0 || detail.errors.length > 0;
  return (
    <Stack gap="md">
      {detail.status === 'committed' && (
        <Alert color="green" variant="light" title="Import complete" data-testid="commit-result">
          <List size="sm" spacing={2}>
            <List.Item>{formatCount(detail.rows_ok, 'row', 'rows')} imported</List.Item>
            <List.Item>{formatCount(detail.rows_err, 'row', 'rows')} skipped</List.Item>
            <List.Item>{formatCount(detail.rows_replaced, 'row', 'rows')} replaced</List.Item>
          </List>
        </Alert>
      )}
      {detail.status === 'failed' && (
        <Alert color="red" variant="light" role="alert" title="The import failed" data-testid="commit-result">
          {detail.message ?? 'Nothing was imported.'}
        </Alert>
      )}
      {detail.status === 'rolled_back' && (
        <Alert color="gray" variant="light" data-testid="commit-result">
          This import was rolled back: its rows are no longer in the dataset.
        </Alert>
      )}
      {detail.errors.length > 0 && <ErrorSample detail={detail} />}
      <Group justify="space-between" gap="sm" wrap="wrap">
        {report ? (
          <Anchor href={importErrorsUrl(projectId, detail.id)} download>
            Download the error report (CSV)
          </Anchor>
        ) : (
          <span />
        )}
        <Button onClick={onRestart}>Import another file</Button>
      </Group>
    </Stack>
  );
}

const SHOWN_ERRORS = 10;

function ErrorSample({ detail }: { detail: ImportDetail }) {
  return (
    <Stack gap={4}>
      <Text size="sm" fw={600}>
        {detail.errors.length > SHOWN_ERRORS ? `The first ${SHOWN_ERRORS} errors` : 'Errors'}
      </Text>
      <ScrollTable
        minWidth={520}
        verticalSpacing={4}
        aria-label="Errors of the import"
        columns={['Line', 'Column', 'Value', 'Reason']}
      >
        {detail.errors.slice(0, SHOWN_ERRORS).map((error) => (
          <Table.Tr key={`${error.line}:${error.column}:${error.reason}`}>
            <Table.Td>{error.line}</Table.Td>
            <Table.Td>{error.column || '—'}</Table.Td>
            <Table.Td style={{ overflowWrap: 'anywhere' }}>{error.value || '—'}</Table.Td>
            <Table.Td>{error.reason}</Table.Td>
          </Table.Tr>
        ))}
      </ScrollTable>
    </Stack>
  );
}
