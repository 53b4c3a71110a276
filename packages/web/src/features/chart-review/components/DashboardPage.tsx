import { Anchor, Stack, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { PageHeading, QueryBody } from '../../../components/page-parts';
import { usePageTitle } from '../../../lib/use-page-title';
import { type CrDashboardProgram, useDashboardList } from '../api/dashboard';
import { EmptyState, TableCard } from './cr-parts';
import { formatInterval, formatN, formatShare, TargetBadge } from './DashboardParts';
import { PROGRAM_STATUS_LABELS } from './ProgramsPage';
import { chartReviewRoute, useChartReviewProjectId } from './use-chart-review-project';

/** A rate with its n (and interval) in a table cell. */
function RateCell({ rate }: { rate: CrDashboardProgram['compliance'] }) {
  return (
    <Stack gap={0}>
      <Text size="sm" fw={600}>
        {formatShare(rate.rate)}
      </Text>
      <Text size="xs" c="dimmed">
        {formatN(rate.n)}
        {rate.interval ? ` · ${formatInterval(rate)}` : ''}
      </Text>
    </Stack>
  );
}

function ProgramRow({ projectId, program }: { projectId: string; program: CrDashboardProgram }) {
  return (
    <Table.Tr>
      <Table.Th scope="row" fw={500}>
        <Anchor component={Link} to={chartReviewRoute(projectId, `dashboard/${program.id}`)}>
          {program.name}
        </Anchor>
        {program.status !== 'active' && (
          <Text size="xs" c="dimmed">
            {PROGRAM_STATUS_LABELS[program.status]}
          </Text>
        )}
      </Table.Th>
      <Table.Td>{program.period?.label ?? 'No sample yet'}</Table.Td>
      <Table.Td>
        <RateCell rate={program.compliance} />
      </Table.Td>
      <Table.Td>
        <RateCell rate={program.all_or_none} />
      </Table.Td>
      <Table.Td>
        <TargetBadge meets={program.meets_target} target={program.target} />
      </Table.Td>
      <Table.Td>
        {program.submitted} / {program.sampled}
      </Table.Td>
      <Table.Td>{program.overdue}</Table.Td>
      <Table.Td>{program.open_findings}</Table.Td>
    </Table.Tr>
  );
}

/** /app/chart-review/{projectId}/dashboard: every programme's latest period at a glance, each linking to its own. */
export function DashboardPage() {
  usePageTitle('Chart review dashboard');
  const projectId = useChartReviewProjectId();
  const list = useDashboardList(projectId);

  return (
    <Stack gap="lg" w="100%" maw={1200}>
      <PageHeading title="Dashboard">
        Each programme's latest period: compliance and all-or-none with the number of items or cases behind them,
        progress of the reviews and open findings.
      </PageHeading>
      <QueryBody
        query={list}
        fallback="The dashboard could not be loaded. Please try again."
        loadingLabel="Loading the programmes' figures"
      >
        {({ programs }) =>
          programs.length === 0 ? (
            <EmptyState title="No programmes yet.">
              Once a programme is set up and its first sample reviewed, its compliance, progress and findings show here.
            </EmptyState>
          ) : (
            <TableCard
              minWidth={900}
              aria-label="Programmes at a glance"
              columns={[
                'Programme',
                'Latest period',
                'Compliance',
                'All-or-none',
                'Target',
                'Submitted / sampled',
                'Overdue',
                'Open findings',
              ]}
            >
              {programs.map((program) => (
                <ProgramRow key={program.id} projectId={projectId} program={program} />
              ))}
            </TableCard>
          )
        }
      </QueryBody>
    </Stack>
  );
}
