import { Anchor, Paper, Stack, Table, Text } from '@mantine/core';
import { useQueries } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { LoadFailure, PageHeading } from '../../../components/page-parts';
import { usePageTitle } from '../../../lib/use-page-title';
import { type CrProgram, usePrograms } from '../api/programs';
import { programSamplesQueryOptions } from '../api/sampling';
import { EmptyState, Loading } from './cr-parts';
import { periodLabel, SampleStatusBadge } from './SamplingParts';
import { describeSamplingPlan, GRAIN_LABELS } from './sampling-words';
import { chartReviewRoute, useChartReviewProjectId } from './use-chart-review-project';

/** /app/chart-review/{projectId}/sampling: the active programmes with the state of their latest sample. */
export function SamplingPage() {
  usePageTitle('Sampling');
  const projectId = useChartReviewProjectId();
  const programs = usePrograms(projectId);
  const active = programs.data?.programs.filter((program) => program.status === 'active') ?? [];

  let body: ReactNode;
  if (programs.isPending) body = <Loading label="Loading the programmes" />;
  else if (programs.isError)
    body = (
      <LoadFailure
        error={programs.error}
        fallback="The programmes could not be loaded. Please try again."
        retrying={programs.isFetching}
        onRetry={() => void programs.refetch()}
      />
    );
  else if (active.length === 0)
    body = (
      <EmptyState title="No active programme.">
        Samples belong to a programme. Create one, or set a paused programme back to active, under Programmes.
      </EmptyState>
    );
  else body = <ProgramsTable projectId={projectId} programs={active} />;

  return (
    <Stack gap="lg" w="100%" maw={1100}>
      <PageHeading title="Sampling">
        Upload each period's eligible-case list, draw the sample, exclude what does not fit, then lock it and assign the
        reviews.
      </PageHeading>
      {body}
    </Stack>
  );
}

function ProgramsTable({ projectId, programs }: { projectId: string; programs: CrProgram[] }) {
  const samples = useQueries({
    queries: programs.map((program) => programSamplesQueryOptions(projectId, program.id)),
  });
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }}>
      <Table.ScrollContainer minWidth={720}>
        <Table verticalSpacing="sm" striped aria-label="Programmes to sample">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Programme</Table.Th>
              <Table.Th scope="col">Period</Table.Th>
              <Table.Th scope="col">Sample</Table.Th>
              <Table.Th scope="col">Latest sample</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
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
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
