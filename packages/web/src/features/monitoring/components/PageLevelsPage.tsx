import { Anchor, Badge, Button, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { ConfirmActionModal } from '../../../components/ConfirmActionModal';
import { RowAction } from '../../../components/form-parts/RowAction';
import { ScrollTable } from '../../../components/form-parts/ScrollTable';
import { ErrorNotice, PageHeading, QueryBody } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';
import { usePageTitle } from '../../../lib/use-page-title';
import { type PageLevel, useDeletePageLevel, usePageLevels } from '../api/structure-levels';
import { LevelIcon } from './pages-parts';
import { monitoringRoute, useMonitoringProjectId } from './use-monitoring-project';

/** /app/monitoring/{projectId}/page-levels: the levels of the tree (Domain, Programme, Indicator...). */
export function PageLevelsPage(_props: Record<string, never>) {
  usePageTitle('Page levels');
  const projectId = useMonitoringProjectId();
  const levels = usePageLevels(projectId);
  const remove = useDeletePageLevel(projectId);
  const [deleting, setDeleting] = useState<PageLevel | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const list = levels.data?.levels ?? [];
  const deepest = list.at(-1);
  const full = levels.data ? list.length >= levels.data.max_levels : true;

  async function confirmDelete() {
    if (!deleting) return;
    const level = deleting;
    setDeleting(null);
    setFailure(null);
    try {
      await remove.mutateAsync(level.id);
      toast.success(`Level "${level.name}" deleted.`);
    } catch (error) {
      setFailure(messageFor(error, 'The level could not be deleted. Please try again.'));
    }
  }

  return (
    <Stack gap="lg" w="100%" maw={1000}>
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        <PageHeading title="Page levels">
          Each depth of the page tree is a level. The tree is never deeper than its levels.
        </PageHeading>
        {levels.data && (
          <Button
            component={Link}
            to={monitoringRoute(projectId, 'page-levels/add')}
            disabled={full}
            aria-disabled={full}
            onClick={(event) => full && event.preventDefault()}
          >
            Add level
          </Button>
        )}
      </Group>
      <QueryBody
        query={levels}
        fallback="The levels could not be loaded. Please try again."
        loadingLabel="Loading the levels"
      >
        {(data) => (
          <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} component="section" aria-label="Levels">
            <Stack gap="sm">
              <ErrorNotice message={failure} />
              {list.length === 0 ? (
                <Text>No levels yet. Add the first one.</Text>
              ) : (
                <ScrollTable
                  minWidth={560}
                  verticalSpacing="xs"
                  striped
                  aria-label="Page levels"
                  columns={['Depth', 'Icon', 'Name', 'Holds measures', 'Pages']}
                  actions
                >
                  {list.map((level) => (
                    <Table.Tr key={level.id} data-level-id={level.id}>
                      <Table.Td>{level.depth}</Table.Td>
                      <Table.Td>
                        <LevelIcon icon={level.icon} size={20} />
                      </Table.Td>
                      <Table.Td>{level.name}</Table.Td>
                      <Table.Td>
                        {level.may_hold_measures ? (
                          <Badge variant="light" color="green.9">
                            Yes
                          </Badge>
                        ) : (
                          <Badge variant="light" color="gray.8">
                            No
                          </Badge>
                        )}
                      </Table.Td>
                      <Table.Td>{level.page_count}</Table.Td>
                      <Table.Td>
                        <Group gap="xs" justify="flex-end" wrap="nowrap">
                          <Anchor
                            component={Link}
                            to={monitoringRoute(projectId, `page-levels/edit/${level.id}`)}
                            aria-label={`Edit ${level.name}`}
                          >
                            Edit
                          </Anchor>
                          {level.id === deepest?.id && list.length > 1 && (
                            <RowAction
                              color="red.9"
                              aria-label={`Delete ${level.name}`}
                              onClick={() => setDeleting(level)}
                            >
                              Delete
                            </RowAction>
                          )}
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </ScrollTable>
              )}
              <Text size="sm" c="dimmed">
                {full
                  ? `The tree has the most levels it may have (${data.max_levels}).`
                  : 'Only the deepest level can be deleted, and only while no page is that deep.'}
              </Text>
            </Stack>
          </Paper>
        )}
      </QueryBody>
      <ConfirmActionModal
        opened={deleting !== null}
        title="Delete level?"
        message={
          deleting
            ? deleting.page_count > 0
              ? `${deleting.page_count} ${deleting.page_count === 1 ? 'page is' : 'pages are'} at the level "${deleting.name}": move or delete them first, or the level cannot be deleted.`
              : `The level "${deleting.name}" (depth ${deleting.depth}) will be deleted. Pages can then be at most ${deleting.depth - 1} levels deep.`
            : ''
        }
        confirmLabel="Delete level"
        danger
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleting(null)}
      />
    </Stack>
  );
}
