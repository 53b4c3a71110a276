import { Anchor, Badge, Button, Group, Paper, Select, Stack, Table, Text, Title } from '@mantine/core';
import { CR_FINDING_STATUSES, type CrFindingStatus, type CrFindingSuggestion, formatPercent } from '@portal/shared';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { PageHeading } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';
import { formatDay } from '../../../lib/dates';
import { usePageTitle } from '../../../lib/use-page-title';
import {
  type CrFindingList,
  type CrFindingSuggestions,
  useFindingSuggestions,
  useFindings,
  useRecordFinding,
} from '../api/findings';
import { type CrProgram, usePrograms } from '../api/programs';
import { EmptyState, idParam, ProjectPrivilegeBanner, QueryPanel, TableCard } from './cr-parts';
import { FINDING_STATUS_COLORS, FINDING_STATUS_LABELS, periodName, rateWithN, recentPeriods } from './findings-words';
import { chartReviewRoute, useChartReviewProjectId } from './use-chart-review-project';

const isStatus = (value: string | null): value is CrFindingStatus =>
  value !== null && (CR_FINDING_STATUSES as readonly string[]).includes(value);

/**
 * /app/chart-review/{projectId}/findings: the findings of every programme (filters in the address: status and
 * programme), with their plan's progress and overdue actions, and the suggested findings of a programme's period.
 */
export function FindingsPage() {
  usePageTitle('Findings');
  const projectId = useChartReviewProjectId();
  const [params, setParams] = useSearchParams();
  const status = isStatus(params.get('status')) ? (params.get('status') as CrFindingStatus) : null;
  const program = idParam(params.get('program'));
  const findings = useFindings(projectId, { status, program });
  const programs = usePrograms(projectId);

  function filter(name: 'status' | 'program', value: string | null) {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next, { replace: true });
  }

  const programOptions = (programs.data?.programs ?? []).map((p) => ({ value: String(p.id), label: p.name }));
  return (
    <Stack gap="lg" w="100%" maw={1200}>
      <PageHeading title="Findings">
        Results below target and their corrective action plans, followed until the improvement holds.
      </PageHeading>
      <ProjectPrivilegeBanner projectId={projectId} />
      <Group gap="sm" wrap="wrap" align="flex-end">
        <Select
          label="Status"
          placeholder="Every status"
          data={CR_FINDING_STATUSES.map((value) => ({ value, label: FINDING_STATUS_LABELS[value] }))}
          value={status}
          onChange={(value) => filter('status', value)}
          clearable
          w={{ base: '100%', xs: 200 }}
        />
        <Select
          label="Programme"
          placeholder="Every programme"
          data={programOptions}
          value={program === null ? null : String(program)}
          onChange={(value) => filter('program', value)}
          clearable
          w={{ base: '100%', xs: 280 }}
        />
      </Group>
      <QueryPanel
        query={findings}
        fallback="The findings could not be loaded. Please try again."
        loadingLabel="Loading the findings"
      >
        {({ findings: list }) =>
          list.length === 0 ? (
            <EmptyState title={status || program ? 'No findings match these filters.' : 'No findings yet.'}>
              A finding records a result below the programme’s target in one period: the whole programme, one question
              or one unit. Its action plan says what will be done, by whom and by when, and how success is measured.
            </EmptyState>
          ) : (
            <FindingsTable projectId={projectId} findings={list} />
          )
        }
      </QueryPanel>
      <SuggestionsPanel
        projectId={projectId}
        programs={programs.data?.programs ?? []}
        initialProgram={program}
        canRecord={findings.data?.abilities.create === true}
      />
    </Stack>
  );
}

function PlanProgress({ finding }: { finding: CrFindingList['findings'][number] }) {
  const { plan } = finding;
  if (plan.actions_total === 0) return <Text c="dimmed">No actions yet</Text>;
  return (
    <Stack gap={2}>
      <Text>
        {plan.actions_done} of {plan.actions_total} actions done
      </Text>
      {plan.overdue > 0 && (
        <Text c="red.9" fw={700}>
          {plan.overdue} overdue
        </Text>
      )}
      {plan.next_due && finding.status !== 'closed' && <Text c="dimmed">Next due {formatDay(plan.next_due)}</Text>}
      <Text c={plan.success.met ? 'green.9' : 'dimmed'}>
        Success rule{' '}
        {plan.success.met ? 'met' : `${plan.success.latest.filter((p) => p.met).length} of ${plan.success.required}`}
      </Text>
    </Stack>
  );
}

function FindingsTable({ projectId, findings }: { projectId: string; findings: CrFindingList['findings'] }) {
  return (
    <TableCard
      minWidth={860}
      aria-label="Findings"
      columns={['Finding', 'Programme and period', 'Rate against target', 'Status', 'Plan']}
    >
      {findings.map((finding) => (
        <Table.Tr key={finding.id}>
          <Table.Td>
            <Anchor component={Link} to={chartReviewRoute(projectId, `findings/${finding.id}`)} fw={700}>
              {finding.title}
            </Anchor>
            <Text c="dimmed" size="sm">
              {finding.unit ?? 'Every unit'} ·{' '}
              {finding.question_key === null
                ? 'All questions'
                : (finding.question_text ?? 'A question no longer in the tool')}
            </Text>
          </Table.Td>
          <Table.Td>
            <Text>{finding.program.name}</Text>
            <Text c="dimmed" size="sm">
              {periodName(finding.period_start, finding.program.grain)}
            </Text>
          </Table.Td>
          <Table.Td>
            <Text>
              {rateWithN(finding.rate, finding.n)} against {formatPercent(finding.target, { digits: 2 })}
            </Text>
            {finding.small_n && (
              <Text c="dimmed" size="sm">
                Small n: read with care
              </Text>
            )}
          </Table.Td>
          <Table.Td>
            <Badge color={FINDING_STATUS_COLORS[finding.status]} variant="light">
              {FINDING_STATUS_LABELS[finding.status]}
            </Badge>
          </Table.Td>
          <Table.Td>
            <PlanProgress finding={finding} />
          </Table.Td>
        </Table.Tr>
      ))}
    </TableCard>
  );
}

/** Pick a programme and a period: what falls short and has no finding yet, each with "Record finding". */
function SuggestionsPanel({
  projectId,
  programs,
  initialProgram,
  canRecord,
}: {
  projectId: string;
  programs: CrProgram[];
  initialProgram: number | null;
  canRecord: boolean;
}) {
  const [programId, setProgramId] = useState<number | null>(initialProgram);
  const chosen = programs.find((p) => p.id === programId) ?? programs[0] ?? null;
  const periods = chosen ? recentPeriods(chosen.grain, new Date()) : [];
  const [period, setPeriod] = useState<string | null>(null);
  const shownPeriod = period !== null && periods.includes(period) ? period : (periods[0] ?? null);
  const suggestions = useFindingSuggestions(projectId, chosen?.id ?? null, shownPeriod);
  const record = useRecordFinding(projectId);
  const navigate = useNavigate();
  const [recording, setRecording] = useState<string | null>(null);

  async function recordOne(suggestion: CrFindingSuggestion) {
    if (!chosen || !shownPeriod) return;
    const key = `${suggestion.unit ?? ''}|${suggestion.question_key ?? ''}`;
    setRecording(key);
    try {
      const finding = await record.mutateAsync({
        programId: chosen.id,
        body: { period_start: shownPeriod, unit: suggestion.unit, question_key: suggestion.question_key },
      });
      toast.success('Finding recorded. Write its action plan.');
      await navigate(chartReviewRoute(projectId, `findings/${finding.id}`));
    } catch (error) {
      toast.error(messageFor(error, 'The finding could not be recorded. Please try again.'));
    } finally {
      setRecording(null);
    }
  }

  const list = (data: CrFindingSuggestions) =>
    data.suggestions.length === 0 ? (
      <Text c="dimmed">
        {data.cases === 0
          ? 'No counted reviews in this period yet.'
          : `Nothing below the ${formatPercent(data.program.target, { digits: 2 })} target without a finding in this period (${data.cases} counted cases).`}
      </Text>
    ) : (
      <Stack gap="xs" component="ul" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Suggested findings">
        {data.suggestions.map((suggestion) => {
          const key = `${suggestion.unit ?? ''}|${suggestion.question_key ?? ''}`;
          return (
            <Paper component="li" key={key} withBorder radius="sm" p="sm">
              <Group justify="space-between" wrap="wrap" gap="sm">
                <Stack gap={2}>
                  <Text fw={700}>{suggestion.title}</Text>
                  {suggestion.small_n && (
                    <Text size="sm" c="dimmed">
                      Small n (fewer than 5): read with care
                    </Text>
                  )}
                </Stack>
                {canRecord && (
                  <Button
                    variant="light"
                    loading={recording === key}
                    disabled={recording !== null && recording !== key}
                    onClick={() => void recordOne(suggestion)}
                    aria-label={`Record finding: ${suggestion.title}`}
                  >
                    Record finding
                  </Button>
                )}
              </Group>
            </Paper>
          );
        })}
      </Stack>
    );

  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} component="section" aria-labelledby="suggested-findings">
      <Stack gap="md">
        <Title order={2} fz="h4" id="suggested-findings">
          Suggested findings
        </Title>
        <Text c="dimmed">
          What fell below the programme’s target in a period and has no finding yet: the programme overall, each
          question and each unit.
        </Text>
        <Group gap="sm" wrap="wrap" align="flex-end">
          <Select
            label="Programme of the suggestions"
            data={programs.map((p) => ({ value: String(p.id), label: p.name }))}
            value={chosen ? String(chosen.id) : null}
            onChange={(value) => setProgramId(value === null ? null : Number(value))}
            allowDeselect={false}
            w={{ base: '100%', xs: 280 }}
          />
          <Select
            label="Period"
            data={periods.map((p) => ({ value: p, label: periodName(p, chosen?.grain) }))}
            value={shownPeriod}
            onChange={setPeriod}
            allowDeselect={false}
            w={{ base: '100%', xs: 200 }}
          />
        </Group>
        {chosen ? (
          <QueryPanel
            query={suggestions}
            fallback="The suggested findings could not be loaded. Please try again."
            loadingLabel="Loading the suggested findings"
          >
            {list}
          </QueryPanel>
        ) : (
          <Text c="dimmed">There are no programmes yet.</Text>
        )}
      </Stack>
    </Paper>
  );
}
