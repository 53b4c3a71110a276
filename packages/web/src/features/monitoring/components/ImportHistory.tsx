import { Anchor, Button, Group, Table, Text, VisuallyHidden } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { toast } from 'sonner';
import { ConfirmActionModal } from '../../../components/ConfirmActionModal';
import { FailureAlert, LoadFailure, LoadingRows } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';
import { formatDateTime } from '../../../lib/dates';
import type { Dataset } from '../api/data-datasets';
import {
  type ImportSummary,
  importErrorsUrl,
  useDiscardImport,
  useImports,
  useRollbackImport,
} from '../api/data-imports';
import { DataCard, formatCount, MODE_LABELS, StatusBadge } from './import-parts';

type Pending = { kind: 'rollback' | 'discard'; item: ImportSummary };

export function rollbackQuestion(item: ImportSummary): string {
  return `Roll back the import of "${item.file_name}"? Its ${item.rows_ok.toLocaleString('en-US')} rows are removed and the rows it replaced come back.`;
}

/**
 * The imports of a dataset, newest first: who brought which file when, how it went, its error report, and roll
 * back (the latest committed import) or discard (never committed).
 */
export function ImportHistory({
  projectId,
  dataset,
  openImportId,
  onContinue,
  onDiscarded,
}: {
  projectId: string;
  dataset: Dataset;
  /** The import open in the wizard, if any. */
  openImportId: number | null;
  onContinue: (importId: number) => void;
  onDiscarded: (importId: number) => void;
}) {
  const imports = useImports(projectId, dataset.id);
  const rollback = useRollbackImport(projectId);
  const discard = useDiscardImport(projectId, dataset.id);
  const [pending, setPending] = useState<Pending | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const canWrite = dataset.abilities.import;

  async function confirm() {
    if (!pending) return;
    const { kind, item } = pending;
    setPending(null);
    setFailure(null);
    try {
      if (kind === 'rollback') {
        await rollback.mutateAsync(item.id);
        toast.success(`Rolled back the import of "${item.file_name}".`);
      } else {
        await discard.mutateAsync(item.id);
        toast.success(`Discarded "${item.file_name}".`);
        onDiscarded(item.id);
      }
    } catch (error) {
      setFailure(
        messageFor(
          error,
          kind === 'rollback'
            ? 'The import could not be rolled back. Please try again.'
            : 'The import could not be discarded. Please try again.',
        ),
      );
    }
  }

  let body: ReactNode;
  if (imports.isPending) body = <LoadingRows label="Loading the imports" rows={3} />;
  else if (imports.isError) {
    body = (
      <LoadFailure
        error={imports.error}
        fallback="The imports could not be loaded. Please try again."
        retrying={imports.isFetching}
        onRetry={() => void imports.refetch()}
      />
    );
  } else if (imports.data.imports.length === 0) {
    body = <Text>No imports yet.</Text>;
  } else {
    body = (
      <Table.ScrollContainer minWidth={900}>
        <Table verticalSpacing="xs" striped aria-labelledby="history-heading">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">File</Table.Th>
              <Table.Th scope="col">When</Table.Th>
              <Table.Th scope="col">By</Table.Th>
              <Table.Th scope="col">Mode</Table.Th>
              <Table.Th scope="col">Status</Table.Th>
              <Table.Th scope="col">Imported</Table.Th>
              <Table.Th scope="col">Errors</Table.Th>
              <Table.Th scope="col">Replaced</Table.Th>
              <Table.Th scope="col">
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {imports.data.imports.map((item) => (
              <Table.Tr key={item.id} data-import-id={item.id}>
                <Table.Td style={{ overflowWrap: 'anywhere' }} miw={160}>
                  {item.file_name}
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  {formatDateTime(item.committed_at ?? item.created_at)}
                </Table.Td>
                <Table.Td>{(item.committed_by ?? item.created_by)?.name ?? '—'}</Table.Td>
                <Table.Td>{MODE_LABELS[item.mode]}</Table.Td>
                <Table.Td>
                  <StatusBadge status={item.status} />
                </Table.Td>
                <Table.Td>{item.rows_ok.toLocaleString('en-US')}</Table.Td>
                <Table.Td>
                  {item.rows_err > 0 ? (
                    <Anchor
                      href={importErrorsUrl(projectId, item.id)}
                      download
                      aria-label={`Error report of ${item.file_name} (${formatCount(item.rows_err, 'error', 'errors')})`}
                    >
                      {item.rows_err.toLocaleString('en-US')} (report)
                    </Anchor>
                  ) : (
                    '0'
                  )}
                </Table.Td>
                <Table.Td>{item.rows_replaced.toLocaleString('en-US')}</Table.Td>
                <Table.Td>
                  {canWrite && (
                    <Group gap="xs" justify="flex-end" wrap="nowrap">
                      {item.status === 'uploaded' && item.id !== openImportId && (
                        <Button
                          variant="subtle"
                          size="compact-sm"
                          aria-label={`Continue ${item.file_name}`}
                          onClick={() => onContinue(item.id)}
                        >
                          Continue
                        </Button>
                      )}
                      {item.can_roll_back && (
                        <Button
                          variant="subtle"
                          color="red.9"
                          size="compact-sm"
                          aria-label={`Roll back ${item.file_name}`}
                          loading={rollback.isPending && rollback.variables === item.id}
                          onClick={() => setPending({ kind: 'rollback', item })}
                        >
                          Roll back
                        </Button>
                      )}
                      {(item.status === 'uploaded' || item.status === 'failed') && (
                        <Button
                          variant="subtle"
                          color="red.9"
                          size="compact-sm"
                          aria-label={`Discard ${item.file_name}`}
                          loading={discard.isPending && discard.variables === item.id}
                          onClick={() => setPending({ kind: 'discard', item })}
                        >
                          Discard
                        </Button>
                      )}
                    </Group>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );
  }

  return (
    <DataCard id="history-heading" title="Import history">
      <FailureAlert message={failure} onClose={() => setFailure(null)} />
      {body}
      <ConfirmActionModal
        opened={pending !== null}
        title={pending?.kind === 'discard' ? 'Discard import?' : 'Roll back import?'}
        message={
          pending === null
            ? ''
            : pending.kind === 'rollback'
              ? rollbackQuestion(pending.item)
              : `Discard "${pending.item.file_name}"? The uploaded file is deleted; nothing from it is in the dataset.`
        }
        confirmLabel={pending?.kind === 'discard' ? 'Discard' : 'Roll back'}
        danger
        onConfirm={() => void confirm()}
        onCancel={() => setPending(null)}
      />
    </DataCard>
  );
}
