import { Anchor, Badge, Group, Paper, Select, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { formatPercent } from '@portal/shared';
import type { ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { LoadFailure, PageHeading } from '../../../components/page-parts';
import { formatMonth } from '../../../lib/dates';
import { usePageTitle } from '../../../lib/use-page-title';
import { usePrograms } from '../api/programs';
import { type CrIrrProgram, useIrrProgram } from '../api/reviews';
import { EmptyState, idParam, Loading, PrivilegeBanner, TableCard } from './cr-parts';
import { PAIR_STATUS_COLORS, PAIR_STATUS_LABELS } from './review-words';
import { chartReviewRoute, useChartReviewProjectId } from './use-chart-review-project';

const kappaText = (value: number | null) => (value === null ? '—' : value.toFixed(2));
const percentText = (value: number | null) => formatPercent(value);

/**
 * /app/chart-review/{projectId}/irr?program=&period=: second reviews of a programme, their reliability per question
 * (agreement, Cohen's kappa and PABAK, each with n; flagged below the thresholds) and the pairs to adjudicate.
 */
export function IrrPage() {
  usePageTitle('Reliability');
  const projectId = useChartReviewProjectId();
  const [params, setParams] = useSearchParams();
  const programs = usePrograms(projectId);
  const programId = idParam(params.get('program')) ?? programs.data?.programs[0]?.id ?? null;
  const period = params.get('period');
  const irr = useIrrProgram(projectId, programId, period);
  const choose = (next: { program?: string | null; period?: string | null }) => {
    const program = next.program !== undefined ? next.program : programId === null ? null : String(programId);
    const chosenPeriod = next.period !== undefined ? next.period : period;
    setParams(
      {
        ...(program ? { program } : {}),
        ...(chosenPeriod && next.program === undefined ? { period: chosenPeriod } : {}),
      },
      { replace: true },
    );
  };

  let body: ReactNode;
  if (programs.isPending || (programId !== null && irr.isPending)) body = <Loading label="Loading the reliability" />;
  else if (programs.isError || irr.isError)
    body = (
      <LoadFailure
        error={programs.error ?? irr.error}
        fallback="The reliability could not be loaded. Please try again."
        retrying={programs.isFetching || irr.isFetching}
        onRetry={() => void (programs.isError ? programs.refetch() : irr.refetch())}
      />
    );
  else if (programId === null || !irr.data)
    body = (
      <EmptyState title="No programmes yet.">
        Second reviews come from a programme's samples: a share of the cases is reviewed twice, blind.
      </EmptyState>
    );
  else body = <IrrReport projectId={projectId} irr={irr.data} />;

  return (
    <Stack gap="lg" w="100%" maw={1200}>
      <PageHeading title="Reliability">
        Second reviews: how often two reviewers give the same answer, and the cases waiting for adjudication.
      </PageHeading>
      {irr.data && <PrivilegeBanner label={irr.data.privilege_label} />}
      <Group gap="sm" wrap="wrap" align="flex-end">
        <Select
          label="Programme"
          data={(programs.data?.programs ?? []).map((p) => ({ value: String(p.id), label: p.name }))}
          value={programId === null ? null : String(programId)}
          onChange={(value) => choose({ program: value })}
          allowDeselect={false}
          miw={260}
        />
        <Select
          label="Period"
          data={[
            { value: '', label: 'All periods' },
            ...(irr.data?.periods ?? []).map((p) => ({ value: p, label: formatMonth(p) })),
          ]}
          value={period ?? ''}
          onChange={(value) => choose({ period: value || null })}
          allowDeselect={false}
          miw={180}
        />
      </Group>
      {body}
    </Stack>
  );
}

function IrrReport({ projectId, irr }: { projectId: string; irr: CrIrrProgram }) {
  if (irr.pairs.length === 0)
    return (
      <EmptyState title="No second reviews yet.">
        When a sample is locked, a share of its cases gets a blind second review. Their agreement shows here.
      </EmptyState>
    );
  const { overall, thresholds } = irr;
  return (
    <Stack gap="lg">
      <SimpleGrid cols={{ base: 1, sm: 4 }}>
        <Figure label="Agreement" value={percentText(overall.percent)} note={`n = ${overall.n} items`} />
        <Figure label="Cohen's kappa" value={kappaText(overall.kappa)} note={`target ≥ ${thresholds.kappa_min}`} />
        <Figure label="PABAK" value={kappaText(overall.pabak)} note="prevalence-adjusted" />
        <Figure
          label="Completed pairs"
          value={String(overall.completed_pairs)}
          note={overall.meets ? 'Meets the thresholds' : 'Below the thresholds'}
        />
      </SimpleGrid>
      <TableCard
        title="By question"
        minWidth={640}
        verticalSpacing="xs"
        aria-label="Reliability by question"
        columns={['Question', 'Agreement', 'Kappa', 'PABAK', 'n', 'Flag']}
        note={
          <Text size="xs" c="dimmed" mt="xs">
            Flagged when kappa is below 0.70, below {thresholds.kappa_min}, or agreement below{' '}
            {formatPercent(thresholds.agreement_min, { digits: 2 })}.
          </Text>
        }
      >
        {irr.questions.map((q) => (
          <Table.Tr key={q.key}>
            <Table.Td>{q.text}</Table.Td>
            <Table.Td>{percentText(q.percent)}</Table.Td>
            <Table.Td>{kappaText(q.kappa)}</Table.Td>
            <Table.Td>{kappaText(q.pabak)}</Table.Td>
            <Table.Td>{q.n}</Table.Td>
            <Table.Td>
              {q.flagged && (
                <Badge variant="light" color="red.9">
                  Below threshold
                </Badge>
              )}
            </Table.Td>
          </Table.Tr>
        ))}
      </TableCard>
      <TableCard
        title="Pairs"
        minWidth={760}
        verticalSpacing="xs"
        aria-label="Second reviews"
        columns={['Case', 'Unit', 'Period', 'Reviewers', 'Agreed', 'Status']}
      >
        {irr.pairs.map((pair) => (
          <Table.Tr key={pair.case_id}>
            <Table.Td>
              {pair.id !== null && (pair.status === 'disagreed' || pair.status === 'adjudicated') ? (
                <Anchor component={Link} to={chartReviewRoute(projectId, `irr/${pair.id}`)} fw={600}>
                  {pair.case_code}
                </Anchor>
              ) : (
                pair.case_code
              )}
            </Table.Td>
            <Table.Td>{pair.unit ?? '—'}</Table.Td>
            <Table.Td>{formatMonth(pair.period_start)}</Table.Td>
            <Table.Td>
              {pair.primary_reviewer?.name ?? '—'} and {pair.second_reviewer?.name ?? '—'}
            </Table.Td>
            <Table.Td>{pair.items_compared === null ? '—' : `${pair.items_agreed} of ${pair.items_compared}`}</Table.Td>
            <Table.Td>
              <Badge variant="light" color={PAIR_STATUS_COLORS[pair.status]}>
                {PAIR_STATUS_LABELS[pair.status]}
              </Badge>
            </Table.Td>
          </Table.Tr>
        ))}
      </TableCard>
    </Stack>
  );
}

function Figure({ label, value, note }: { label: string; value: string; note: string }) {
  return (
    <Paper withBorder radius="md" p="md">
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text fz="xl" fw={700}>
        {value}
      </Text>
      <Text size="xs" c="dimmed">
        {note}
      </Text>
    </Paper>
  );
}
