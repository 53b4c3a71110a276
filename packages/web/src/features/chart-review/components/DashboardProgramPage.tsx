import { Anchor, Badge, Button, Group, Paper, Select, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import type { CrDashboard, CrPeriod } from '@portal/shared';
import { type ReactNode, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { PageHeading, QueryBody } from '../../../components/page-parts';
import { usePageTitle } from '../../../lib/use-page-title';
import { exportCsvUrl, useProgramDashboard } from '../api/dashboard';
import { ComplianceHeatMap } from './ComplianceHeatMap';
import { CompliancePChart } from './CompliancePChart';
import { EmptyState, idParam, PrivilegeBanner } from './cr-parts';
import { CountCard, formatIntervalRange, formatN, formatShare, RateCard, TargetBadge } from './DashboardParts';
import { chartReviewRoute, useChartReviewProjectId } from './use-chart-review-project';

const numberFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
const formatStat = (value: number | null) => (value === null ? '—' : numberFormat.format(value));

function Section({ title, children, action }: { title: string; children: ReactNode; action?: ReactNode }) {
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} component="section" aria-label={title}>
      <Stack gap="sm">
        <Group justify="space-between" align="center" wrap="wrap" gap="xs">
          <Title order={2} fz="h4">
            {title}
          </Title>
          {action}
        </Group>
        {children}
      </Stack>
    </Paper>
  );
}

const periodOptions = (periods: CrPeriod[]) => periods.map((p) => ({ value: p.period_start, label: p.label }));

/** From and to (periods with a sample) and the download of the de-identified CSV of that range. */
function ExportPanel({ projectId, dashboard }: { projectId: string; dashboard: CrDashboard }) {
  const current = dashboard.period?.period_start ?? null;
  const [from, setFrom] = useState<string | null>(current);
  const [to, setTo] = useState<string | null>(current);
  const backwards = from !== null && to !== null && from > to;
  const options = periodOptions([...dashboard.periods].reverse());
  return (
    <Group align="flex-end" gap="sm" wrap="wrap">
      <Select
        label="Export from"
        data={options}
        value={from}
        onChange={setFrom}
        clearable
        placeholder="First"
        w={160}
      />
      <Select
        label="Export to"
        data={options}
        value={to}
        onChange={setTo}
        clearable
        placeholder="Latest"
        w={160}
        error={backwards ? 'The end of the range is on or after its start.' : undefined}
      />
      {backwards ? (
        <Button variant="default" disabled>
          Export CSV
        </Button>
      ) : (
        <Button
          component="a"
          variant="default"
          href={exportCsvUrl(projectId, dashboard.program.id, { from, to })}
          download
        >
          Export CSV
        </Button>
      )}
    </Group>
  );
}

function Kpis({ kpis }: { kpis: CrDashboard['kpis'] }) {
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} spacing="sm">
      <CountCard label="Cases sampled" value={kpis.sampled} />
      <CountCard label="Assigned" value={kpis.assigned} />
      <CountCard label="Submitted" value={kpis.submitted} hint={`${kpis.counted} counted in the rates`} />
      <CountCard label="Overdue" value={kpis.overdue} hint="Not submitted by the due date" />
      <CountCard label="Waiting for adjudication" value={kpis.awaiting_adjudication} hint="Not in any rate yet" />
    </SimpleGrid>
  );
}

function QuestionTable({ dashboard }: { dashboard: CrDashboard }) {
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table striped verticalSpacing="xs" aria-label="Compliance by question">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Question</Table.Th>
            <Table.Th scope="col">Compliance</Table.Th>
            <Table.Th scope="col">n</Table.Th>
            <Table.Th scope="col">95% interval</Table.Th>
            <Table.Th scope="col">Target</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {dashboard.questions.map((q) => (
            <Table.Tr key={q.key}>
              <Table.Th scope="row" fw={500}>
                <Text size="sm">{q.text}</Text>
                {q.critical && (
                  <Badge size="xs" color="gray.8" variant="light">
                    Critical
                  </Badge>
                )}
              </Table.Th>
              <Table.Td fw={600}>{formatShare(q.rate)}</Table.Td>
              <Table.Td>{q.n}</Table.Td>
              <Table.Td>{formatIntervalRange(q) || '—'}</Table.Td>
              <Table.Td>
                {q.rate === null ? (
                  '—'
                ) : q.below_target ? (
                  <Badge color="red.9" variant="light">
                    Below target
                  </Badge>
                ) : (
                  <Badge color="green.9" variant="light">
                    Meets target
                  </Badge>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function Reliability({ projectId, dashboard }: { projectId: string; dashboard: CrDashboard }) {
  const r = dashboard.reliability;
  // The flagged questions by their words (a key is for the tool's editor only).
  const textOf = new Map(dashboard.questions.map((q) => [q.key, q.text]));
  const flagged = r.flagged.map((key) => textOf.get(key) ?? 'a question no longer in the tool');
  const link = dashboard.abilities.irr && (
    <Anchor component={Link} to={`${chartReviewRoute(projectId, 'irr')}?program=${dashboard.program.id}`} size="sm">
      Open reliability and adjudication
    </Anchor>
  );
  return (
    <Section title="Inter-rater reliability" action={link}>
      {r.pairs === 0 ? (
        <Text c="dimmed">No second reviews compared yet for this period.</Text>
      ) : (
        <Stack gap="xs">
          <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
            <CountCard label="Pairs compared" value={r.pairs} hint={`${r.items} items`} />
            <Stack gap={2}>
              <Text size="sm" c="dimmed" fw={600}>
                Agreement
              </Text>
              <Text fw={700}>{formatShare(r.agreement)}</Text>
              <Text size="xs" c="dimmed">
                {formatN(r.items)} · minimum {formatShare(r.thresholds.agreement_min)}
              </Text>
            </Stack>
            <Stack gap={2}>
              <Text size="sm" c="dimmed" fw={600}>
                Cohen's kappa
              </Text>
              <Text fw={700}>{formatStat(r.kappa)}</Text>
              <Text size="xs" c="dimmed">
                minimum {formatStat(r.thresholds.kappa_min)}
              </Text>
            </Stack>
            <Stack gap={2}>
              <Text size="sm" c="dimmed" fw={600}>
                PABAK
              </Text>
              <Text fw={700}>{formatStat(r.pabak)}</Text>
              <Text size="xs" c="dimmed">
                prevalence- and bias-adjusted
              </Text>
            </Stack>
          </SimpleGrid>
          <Group gap="xs" wrap="wrap">
            <Badge color={r.meets_thresholds ? 'green.9' : 'red.9'} variant="light">
              {r.meets_thresholds ? 'Meets the reliability thresholds' : 'Below the reliability thresholds'}
            </Badge>
            <Text size="sm">
              {r.flagged.length === 0
                ? 'No question flagged (kappa below 0.70).'
                : `${flagged.length} ${flagged.length === 1 ? 'question' : 'questions'} flagged (kappa below 0.70): ${flagged.join('; ')}`}
            </Text>
          </Group>
        </Stack>
      )}
    </Section>
  );
}

function Findings({ projectId, dashboard }: { projectId: string; dashboard: CrDashboard }) {
  const f = dashboard.findings;
  const link = dashboard.abilities.findings && (
    <Anchor
      component={Link}
      to={`${chartReviewRoute(projectId, 'findings')}?program=${dashboard.program.id}`}
      size="sm"
    >
      Open findings and action plans
    </Anchor>
  );
  return (
    <Section title="Findings" action={link}>
      <SimpleGrid cols={{ base: 3 }} spacing="sm">
        <CountCard label="Open" value={f.open} />
        <CountCard label="With an action plan" value={f.action_plan} />
        <CountCard label="Closed" value={f.closed} />
      </SimpleGrid>
    </Section>
  );
}

function Figures({ projectId, dashboard }: { projectId: string; dashboard: CrDashboard }) {
  const { kpis } = dashboard;
  return (
    <Stack gap="lg">
      <Kpis kpis={kpis} />
      {kpis.counted === 0 ? (
        <EmptyState title="No reviews submitted yet for this period.">
          Compliance, the questions and the heat map appear once the first review of this period is submitted (and,
          where a second review disagrees, adjudicated).
        </EmptyState>
      ) : (
        <>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
            <RateCard title="Overall compliance" rate={dashboard.compliance}>
              <TargetBadge meets={dashboard.meets_target} target={dashboard.program.target} />
            </RateCard>
            <RateCard title="All-or-none" rate={dashboard.all_or_none}>
              <Text size="xs" c="dimmed">
                Cases meeting every applicable critical item
              </Text>
            </RateCard>
            <RateCard
              title="Mean case score"
              rate={{ rate: dashboard.mean_score.mean, n: dashboard.mean_score.n, interval: null }}
            >
              <Text size="xs" c="dimmed">
                Weighted score of each case, averaged
              </Text>
            </RateCard>
          </SimpleGrid>
          <Section title="Compliance by question">
            <QuestionTable dashboard={dashboard} />
          </Section>
          <Section title="Compliance by question and unit">
            <ComplianceHeatMap rows={dashboard.heat_map} units={dashboard.units} target={dashboard.program.target} />
          </Section>
        </>
      )}
      <Section title={dashboard.program.grain === 'quarter' ? 'Quarterly compliance' : 'Monthly compliance'}>
        <CompliancePChart trend={dashboard.trend} target={dashboard.program.target} />
      </Section>
      <Reliability projectId={projectId} dashboard={dashboard} />
      <Findings projectId={projectId} dashboard={dashboard} />
    </Stack>
  );
}

/**
 * /app/chart-review/{projectId}/dashboard/{programId}?period=: one programme's period: progress, overall compliance
 * and all-or-none (with n and the 95% interval) against the target, each question, the question x unit heat map,
 * the P chart over all periods, reliability and findings; the period picker and the CSV export.
 */
export function DashboardProgramPage() {
  const projectId = useChartReviewProjectId();
  const programId = idParam(useParams().programId);
  const [search, setSearch] = useSearchParams();
  const period = search.get('period');
  const dashboard = useProgramDashboard(projectId, programId ?? 0, period);
  usePageTitle(dashboard.data ? `Dashboard: ${dashboard.data.program.name}` : 'Programme dashboard');

  if (programId === null) {
    return <EmptyState title="Programme not found.">Choose a programme from the dashboard.</EmptyState>;
  }

  const data = dashboard.data;
  return (
    <Stack gap="lg" w="100%" maw={1200}>
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        <PageHeading title={data ? data.program.name : 'Programme dashboard'}>
          <Anchor component={Link} to={chartReviewRoute(projectId, 'dashboard')}>
            All programmes
          </Anchor>
          {data ? ` · target ${formatShare(data.program.target)}` : ''}
        </PageHeading>
        {data && data.periods.length > 0 && (
          <Select
            label="Period"
            data={periodOptions(data.periods)}
            value={data.period?.period_start ?? null}
            allowDeselect={false}
            onChange={(value) => value && setSearch({ period: value })}
            w={180}
          />
        )}
      </Group>
      {data && <PrivilegeBanner label={data.privilege_label} />}
      <QueryBody
        query={dashboard}
        fallback="The figures of this programme could not be loaded. Please try again."
        loadingLabel="Loading the programme's figures"
        rows={6}
      >
        {(figures) =>
          figures.period === null ? (
            <EmptyState title="No sample yet.">
              This programme's figures start with its first sample: once cases are drawn and reviewed, progress and
              compliance show here.
            </EmptyState>
          ) : (
            <Figures projectId={projectId} dashboard={figures} />
          )
        }
      </QueryBody>
      {/* After the figures: reading comes first, exporting is the occasional task. */}
      {data && data.periods.length > 0 && (
        <Section title="Export">
          <Text size="sm" c="dimmed">
            One line per reviewed case: case code, unit, months and the final answers. No encounter references. The
            download is recorded.
          </Text>
          <ExportPanel key={data.period?.period_start ?? ''} projectId={projectId} dashboard={data} />
        </Section>
      )}
    </Stack>
  );
}
