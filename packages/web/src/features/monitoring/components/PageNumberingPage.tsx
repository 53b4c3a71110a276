import { Button, Code, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { toast } from 'sonner';
import { ConfirmActionModal } from '../../../components/ConfirmActionModal';
import { ScrollTable } from '../../../components/form-parts/ScrollTable';
import { ErrorNotice, PageHeading, QueryBody } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';
import { usePageTitle } from '../../../lib/use-page-title';
import { useApplyRenumbering, useNumbering, useRenumberPreview } from '../api/structure-numbering';
import { useMonitoringProjectId } from './use-monitoring-project';

export const NOTHING_TO_RENUMBER =
  'Every page already has the number its place in the tree gives it. Nothing to change.';

/** /app/monitoring/{projectId}/page-numbering: what numbering from the tree would change, and applying it. */
export function PageNumberingPage(_props: Record<string, never>) {
  usePageTitle('Renumber pages');
  const projectId = useMonitoringProjectId();
  const preview = useRenumberPreview(projectId);
  const numbering = useNumbering(projectId);
  const apply = useApplyRenumbering(projectId);
  const [confirming, setConfirming] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const manual = numbering.data?.mode === 'manual';
  const changes = preview.data ?? [];

  async function confirm() {
    setConfirming(false);
    setFailure(null);
    try {
      const result = await apply.mutateAsync();
      toast.success(`Renumbering applied: ${result.changed} ${result.changed === 1 ? 'page' : 'pages'} renumbered.`);
    } catch (error) {
      setFailure(messageFor(error, 'The pages could not be renumbered. Please try again.'));
    }
  }

  return (
    <Stack gap="lg" w="100%" maw={900}>
      <PageHeading title="Renumber pages">
        Give every page the number of its place in the tree. Check what would change before applying it.
      </PageHeading>
      <QueryBody
        query={preview}
        fallback="The new numbers could not be worked out. Please try again."
        loadingLabel="Loading the new numbers"
      >
        {() => (
          <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} component="section" aria-label="New numbers">
            <Stack gap="md">
              {manual && (
                <Text size="sm" c="dimmed">
                  This project numbers its pages by hand: applying replaces the typed numbers once, and numbering stays
                  manual.
                </Text>
              )}
              {changes.length === 0 ? (
                <Text role="status">{NOTHING_TO_RENUMBER}</Text>
              ) : (
                <>
                  <Text>
                    {changes.length} {changes.length === 1 ? 'page gets' : 'pages get'} a new number.
                  </Text>
                  <ScrollTable
                    minWidth={420}
                    verticalSpacing="xs"
                    striped
                    aria-label="Numbers that change"
                    data-testid="renumber-preview"
                    columns={['Page', 'From', 'To']}
                  >
                    {changes.map((change) => (
                      <Table.Tr key={change.id}>
                        <Table.Td>{change.title}</Table.Td>
                        <Table.Td>{change.from ? <Code>{change.from}</Code> : '—'}</Table.Td>
                        <Table.Td>{change.to ? <Code>{change.to}</Code> : '—'}</Table.Td>
                      </Table.Tr>
                    ))}
                  </ScrollTable>
                </>
              )}
              <ErrorNotice message={failure} />
              {changes.length > 0 && (
                <Group>
                  <Button onClick={() => setConfirming(true)} loading={apply.isPending}>
                    Apply renumbering
                  </Button>
                </Group>
              )}
            </Stack>
          </Paper>
        )}
      </QueryBody>
      <ConfirmActionModal
        opened={confirming}
        title="Apply renumbering?"
        message={`${changes.length} ${changes.length === 1 ? 'page gets' : 'pages get'} a new number. Links keep working: they never use numbers.`}
        confirmLabel="Apply renumbering"
        onConfirm={() => void confirm()}
        onCancel={() => setConfirming(false)}
      />
    </Stack>
  );
}
