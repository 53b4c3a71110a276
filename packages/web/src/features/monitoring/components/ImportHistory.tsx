import { Anchor, Group, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { toast } from 'sonner';
import { ConfirmActionModal } from '../../../components/ConfirmActionModal';
import { RowAction } from '../../../components/form-parts/RowAction';
import { ScrollTable } from '../../../components/form-parts/ScrollTable';
import { FailureAlert, QueryBody } from '../../../components/page-parts';
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

  return (
    <DataCard id="history-heading" title="Import history">
      <FailureAlert message={failure} onClose={() => setFailure(null)} />
      <QueryBody
        query={imports}
        fallback="The imports could not be loaded. Please try again."
        loadingLabel="Loading the imports"
        rows={3}
      >
        {(data) =>
          data.imports.length === 0 ? (
            <Text>No imports yet.</Text>
          ) : (
            <ScrollTable
              minWidth={900}
              verticalSpacing="xs"
              striped
              aria-labelledby="history-heading"
              columns={['File', 'When', 'By', 'Mode', 'Status', 'Imported', 'Errors', 'Replaced']}
              actions
            >
              {data.imports.map((item) => (
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
                          <RowAction aria-label={`Continue ${item.file_name}`} onClick={() => onContinue(item.id)}>
                            Continue
                          </RowAction>
                        )}
                        {item.can_roll_back && (
                          <RowAction
                            color="red.9"
                            aria-label={`Roll back ${item.file_name}`}
                            loading={rollback.isPending && rollback.variables === item.id}
                            onClick={() => setPending({ kind: 'rollback', item })}
                          >
                            Roll back
                          </RowAction>
                        )}
                        {(item.status === 'uploaded' || item.status === 'failed') && (
                          <RowAction
                            color="red.9"
                            aria-label={`Discard ${item.file_name}`}
                            loading={discard.isPending && discard.variables === item.id}
                            onClick={() => setPending({ kind: 'discard', item })}
                          >
                            Discard
                          </RowAction>
                        )}
                      </Group>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </ScrollTable>
          )
        }
      </QueryBody>
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
