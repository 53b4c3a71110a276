import { Anchor, Stack, Table, Text } from '@mantine/core';
import { useQueries } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { PageHeading } from '../../../components/page-parts';
import { usePageTitle } from '../../../lib/use-page-title';
import { type CrProgram, usePrograms } from '../api/programs';
import { programSamplesQueryOptions } from '../api/sampling';
import { EmptyState, QueryPanel, TableCard } from './cr-parts';
import { periodLabel, SampleStatusBadge } from './SamplingParts';
import { describeSamplingPlan, GRAIN_LABELS } from './sampling-words';
import { chartReviewRoute, useChartReviewProjectId } from './use-chart-review-project';

/** /app/chart-review/{projectId}/sampling: the active programmes with the state of their latest sample. */
export function SamplingPage() {
  usePageTitle('Sampling');
  const projectId = useChartReviewProjectId();
  const programs = usePrograms(projectId);

  return (
    <Stack gap="lg" w="100%" maw={1100}>
      <PageHeading title="Sampling">
        Upload each period's eligible-case list, draw the sample, exclude what does not fit, then lock it and assign the
        reviews.
      </PageHeading>
      <QueryPanel
        query={programs}
        fallback="The programmes could not be loaded. Please try again."
        loadingLabel="Loading the programmes"
      >
        {(data) => {
          const active = data.programs.filter((program) => program.status === 'active');
          return active.length === 0 ? (
            <EmptyState title="No active programme.">
              Samples belong to a programme. Create one, or set a paused programme back to active, under Programmes.
            </EmptyState>
          ) : (
            <ProgramsTable projectId={projectId} programs={active} />
          );
        }}
      </QueryPanel>
    </Stack>
  );
}

function ProgramsTable({ projectId, programs }: { projectId: string; programs: CrProgram[] }) {
  const samples = useQueries({
    queries: programs.map((program) => programSamplesQueryOptions(projectId, program.id)),
  });
  return (
    <TableCard
      minWidth={720}
      aria-label="Programmes to sample"
      columns={['Programme', 'Period', 'Sample', 'Latest sample']}
    >
      {programs.map((program, i) => {
        const answer = samples[i];
        const latest = answer?.data?.samples[0];
        let state: ReactNode;
        if (answer?.isPending) state = <Text c="dimmed">Loading…</Text>;
        else if (answer?.isError) state = <Text c="red.9">Could not be loaded</Text>;
        else if (!latest) state = <Text c="dimmed">No list uploaded yet</Text>;
        else
          state = (
            <Text component="span">
              {periodLabel(latest.period_start, program.grain)} · <SampleStatusBadge status={latest.status} />
            </Text>
          );
        return (
          <Table.Tr key={program.id}>
            <Table.Td>
              <Anchor component={Link} to={chartReviewRoute(projectId, `sampling/${program.id}`)} fw={600}>
                {program.name}
              </Anchor>
            </Table.Td>
            <Table.Td>{GRAIN_LABELS[program.grain]}</Table.Td>
            <Table.Td>{describeSamplingPlan(program.sampling, program.grain)}</Table.Td>
            <Table.Td>{state}</Table.Td>
          </Table.Tr>
        );
      })}
    </TableCard>
  );
}
