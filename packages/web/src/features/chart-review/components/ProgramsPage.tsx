import { Anchor, Badge, Button, Group, Stack, Table, Text } from '@mantine/core';
import { type CrProgramStatus, formatPercent } from '@portal/shared';
import { Link } from 'react-router';
import { PageHeading } from '../../../components/page-parts';
import { usePageTitle } from '../../../lib/use-page-title';
import { type CrProgram, usePrograms } from '../api/programs';
import { EmptyState, QueryPanel, TableCard } from './cr-parts';
import { describeSamplingPlan, GRAIN_LABELS } from './sampling-words';
import { chartReviewRoute, useChartReviewProjectId } from './use-chart-review-project';

export const PROGRAM_STATUS_LABELS: Record<CrProgramStatus, string> = {
  active: 'Active',
  paused: 'Paused',
  closed: 'Closed',
};
// Dark shades: the light badges' text must keep 4.5:1 contrast (yellow never does).
const STATUS_COLORS: Record<CrProgramStatus, string> = { active: 'green.9', paused: 'orange.9', closed: 'gray.8' };

/** "Falls audit · v2", "Falls audit · v1 (pinned)", or "Falls audit · nothing published yet". */
function toolInUse(program: CrProgram): string {
  if (!program.version_in_use) return `${program.tool.name} · nothing published yet`;
  const pinned = program.pinned_version_id !== null ? ' (pinned)' : '';
  return `${program.tool.name} · v${program.version_in_use.version}${pinned}`;
}

/** /app/chart-review/{projectId}/programs: the recurring audits, each a tool applied to units on a schedule. */
export function ProgramsPage() {
  usePageTitle('Programmes');
  const projectId = useChartReviewProjectId();
  const programs = usePrograms(projectId);
  const newProgram = programs.data?.abilities.create === true && (
    <Button component={Link} to={chartReviewRoute(projectId, 'programs/new')}>
      New programme
    </Button>
  );

  return (
    <Stack gap="lg" w="100%" maw={1200}>
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        <PageHeading title="Programmes">
          Recurring chart audits: what is reviewed, where, how often and how many.
        </PageHeading>
        {programs.data && programs.data.programs.length > 0 && newProgram}
      </Group>
      <QueryPanel
        query={programs}
        fallback="The programmes could not be loaded. Please try again."
        loadingLabel="Loading the programmes"
      >
        {({ programs: list }) =>
          list.length === 0 ? (
            <EmptyState title="No programmes yet." action={newProgram}>
              A programme is a recurring audit: an audit tool applied to chosen units every month or quarter, with a
              sampling plan that says how many charts to review, a target compliance and an owner.
            </EmptyState>
          ) : (
            <ProgramsTable projectId={projectId} programs={list} />
          )
        }
      </QueryPanel>
    </Stack>
  );
}

const PROGRAM_COLUMNS = ['Name', 'Tool and version', 'Units', 'Period', 'Sample', 'Target', 'Owner', 'Status'];

function ProgramsTable({ projectId, programs }: { projectId: string; programs: CrProgram[] }) {
  return (
    <TableCard minWidth={960} aria-label="Programmes" columns={PROGRAM_COLUMNS}>
      {programs.map((program) => (
        <Table.Tr key={program.id} data-program-id={program.id}>
          <Table.Td>
            {program.abilities.edit ? (
              <Anchor
                component={Link}
                to={chartReviewRoute(projectId, `programs/${program.id}/edit`)}
                fw={600}
                aria-label={`Edit ${program.name}`}
              >
                {program.name}
              </Anchor>
            ) : (
              <Text fw={600}>{program.name}</Text>
            )}
          </Table.Td>
          <Table.Td>{toolInUse(program)}</Table.Td>
          <Table.Td>{program.units.length ? program.units.join(', ') : 'All units'}</Table.Td>
          <Table.Td>{GRAIN_LABELS[program.grain]}</Table.Td>
          <Table.Td>{describeSamplingPlan(program.sampling, program.grain)}</Table.Td>
          <Table.Td>{formatPercent(program.target, { digits: 2 })}</Table.Td>
          <Table.Td>{program.owner?.name ?? <Text c="dimmed">No owner</Text>}</Table.Td>
          <Table.Td>
            <Badge variant="light" color={STATUS_COLORS[program.status]}>
              {PROGRAM_STATUS_LABELS[program.status]}
            </Badge>
          </Table.Td>
        </Table.Tr>
      ))}
    </TableCard>
  );
}
