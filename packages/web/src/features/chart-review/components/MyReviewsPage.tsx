import { Anchor, Badge, Button, Group, Paper, Progress, SegmentedControl, Stack, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { LoadFailure, PageHeading } from '../../../components/page-parts';
import { formatDay, formatMonth } from '../../../lib/dates';
import { usePageTitle } from '../../../lib/use-page-title';
import { type CrMyAssignment, type MyFilter, useMyAssignments } from '../api/reviews';
import { EmptyState, Loading } from './cr-parts';
import { REVIEW_STATUS_COLORS, REVIEW_STATUS_LABELS } from './review-words';
import { chartReviewRoute, useChartReviewProjectId } from './use-chart-review-project';

const FILTERS: { value: MyFilter; label: string }[] = [
  { value: 'todo', label: 'To do' },
  { value: 'submitted', label: 'Submitted' },
];

/**
 * /app/chart-review/{projectId}/my: the reviews assigned to me across programmes, overdue first, with a "Start next"
 * button. A second review looks like any other review (it is blind).
 */
export function MyReviewsPage() {
  usePageTitle('My reviews');
  const projectId = useChartReviewProjectId();
  const [params, setParams] = useSearchParams();
  const filter: MyFilter = params.get('show') === 'submitted' ? 'submitted' : 'todo';
  const list = useMyAssignments(projectId, filter);
  const next = filter === 'todo' ? list.data?.assignments[0] : undefined;

  let body: ReactNode;
  if (list.isPending) body = <Loading label="Loading my reviews" />;
  else if (list.isError)
    body = (
      <LoadFailure
        error={list.error}
        fallback="Your reviews could not be loaded. Please try again."
        retrying={list.isFetching}
        onRetry={() => void list.refetch()}
      />
    );
  else if (list.data.assignments.length === 0)
    body = (
      <EmptyState title="No chart reviews are assigned to you.">
        {filter === 'todo'
          ? 'When a programme lead locks a sample, the charts you are to review appear here with their due dates.'
          : 'Reviews you submit appear here.'}
      </EmptyState>
    );
  else body = <AssignmentsTable projectId={projectId} assignments={list.data.assignments} />;

  return (
    <Stack gap="lg" w="100%" maw={1200}>
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        <PageHeading title="My reviews">Charts assigned to you, the overdue ones first.</PageHeading>
        {next && (
          <Button component={Link} to={chartReviewRoute(projectId, `review/${next.id}`)}>
            Start next
          </Button>
        )}
      </Group>
      <SegmentedControl
        aria-label="Show"
        data={FILTERS}
        value={filter}
        onChange={(value) => setParams(value === 'submitted' ? { show: 'submitted' } : {}, { replace: true })}
        style={{ alignSelf: 'flex-start' }}
      />
      {body}
    </Stack>
  );
}

function AssignmentsTable({ projectId, assignments }: { projectId: string; assignments: CrMyAssignment[] }) {
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }}>
      <Table.ScrollContainer minWidth={860}>
        <Table verticalSpacing="sm" striped aria-label="My reviews">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Case</Table.Th>
              <Table.Th scope="col">Programme</Table.Th>
              <Table.Th scope="col">Unit</Table.Th>
              <Table.Th scope="col">Period</Table.Th>
              <Table.Th scope="col">Due</Table.Th>
              <Table.Th scope="col">Status</Table.Th>
              <Table.Th scope="col">Progress</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {assignments.map((row) => {
              const { answered, total } = row.progress;
              return (
                <Table.Tr key={row.id} data-assignment-id={row.id}>
                  <Table.Td>
                    <Anchor component={Link} to={chartReviewRoute(projectId, `review/${row.id}`)} fw={600}>
                      {row.case_code}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{row.program.name}</Table.Td>
                  <Table.Td>{row.unit ?? '—'}</Table.Td>
                  <Table.Td>{formatMonth(row.period_start)}</Table.Td>
                  <Table.Td>
                    <Group gap={6} wrap="nowrap">
                      <Text size="sm">{formatDay(row.due_at)}</Text>
                      {row.overdue && (
                        <Badge variant="filled" color="red.9">
                          Overdue
                        </Badge>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Stack gap={2}>
                      <Badge variant="light" color={REVIEW_STATUS_COLORS[row.status]}>
                        {REVIEW_STATUS_LABELS[row.status]}
                      </Badge>
                      {row.status === 'returned' && row.return_reason && (
                        <Text size="xs" c="dimmed" maw={260}>
                          {row.return_reason}
                        </Text>
                      )}
                    </Stack>
                  </Table.Td>
                  <Table.Td miw={140}>
                    <Stack gap={2}>
                      <Progress
                        value={total ? (answered / total) * 100 : 0}
                        aria-label={`${answered} of ${total} answered`}
                      />
                      <Text size="xs" c="dimmed">
                        {answered} of {total}
                      </Text>
                    </Stack>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
