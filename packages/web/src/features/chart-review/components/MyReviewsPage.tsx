import { Anchor, Badge, Button, Group, Progress, SegmentedControl, Stack, Table, Text } from '@mantine/core';
import { Link, useSearchParams } from 'react-router';
import { PageHeading } from '../../../components/page-parts';
import { formatDay, formatMonth } from '../../../lib/dates';
import { usePageTitle } from '../../../lib/use-page-title';
import { type CrMyAssignment, type MyFilter, useMyAssignments } from '../api/reviews';
import { EmptyState, QueryPanel, TableCard } from './cr-parts';
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
      <QueryPanel
        query={list}
        fallback="Your reviews could not be loaded. Please try again."
        loadingLabel="Loading my reviews"
      >
        {({ assignments }) =>
          assignments.length === 0 ? (
            <EmptyState title="No chart reviews are assigned to you.">
              {filter === 'todo'
                ? 'When a programme lead locks a sample, the charts you are to review appear here with their due dates.'
                : 'Reviews you submit appear here.'}
            </EmptyState>
          ) : (
            <AssignmentsTable projectId={projectId} assignments={assignments} />
          )
        }
      </QueryPanel>
    </Stack>
  );
}

function AssignmentsTable({ projectId, assignments }: { projectId: string; assignments: CrMyAssignment[] }) {
  return (
    <TableCard
      minWidth={860}
      aria-label="My reviews"
      columns={['Case', 'Programme', 'Unit', 'Period', 'Due', 'Status', 'Progress']}
    >
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
    </TableCard>
  );
}
