import {
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  Progress,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import {
  SAFER_LIKELIHOOD_LABELS,
  SAFER_SCOPE_LABELS,
  type SaferLikelihood,
  type SaferScope,
  STD_FINDING_SOURCE_LABELS,
} from '@portal/shared';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { QueryBody } from '../../../components/page-parts';
import { apiDownload, messageFor } from '../../../lib/api';
import { formatDay } from '../../../lib/dates';
import { usePageTitle } from '../../../lib/use-page-title';
import { type StdAssessment, useStdTree } from '../api/assessments';
import { binderUrl, gapReportPdfUrl, gapReportUrl, type StdReadiness, useReadiness } from '../api/findings';
import { FindingDetailModal } from './FindingModals';
import { SaferGrid } from './SaferGrid';
import { AssessmentScreen, EmptyState, idParam, OverdueBadge, standardsRoute, useStdProjectId } from './std-parts';
import { countsText, formatShare, plural } from './std-words';
import { TracersSection } from './TracersSection';

/**
 * /app/standards/{projectId}/readiness: is the facility ready for a survey? How much was assessed in the last 12
 * months, compliance by chapter, open findings on the SAFER grid, corrections due, evidence (linked policies and
 * attached links, files and notes) expired or expiring, and the gap report (CSV). `?finding=` opens a finding.
 */
export function ReadinessPage() {
  usePageTitle('Readiness | Standards');
  const projectId = useStdProjectId();
  return (
    <AssessmentScreen
      title="Readiness"
      intro="What a surveyor would find today: what is assessed, what is compliant, and what still needs correcting."
      projectId={projectId}
      empty={
        <EmptyState title="No assessments yet.">
          Readiness reads an assessment: create one first, then assess its elements and record findings.
        </EmptyState>
      }
    >
      {(assessments, current) => <ReadinessView projectId={projectId} assessments={assessments} current={current} />}
    </AssessmentScreen>
  );
}

function ReadinessView({
  projectId,
  assessments,
  current,
}: {
  projectId: string;
  assessments: readonly StdAssessment[];
  current: StdAssessment;
}) {
  const [params, setParams] = useSearchParams();
  const readiness = useReadiness(projectId, current.id);
  const findingId = idParam(params.get('finding'));
  const setParam = (name: string, value: string | null) =>
    setParams((previous) => {
      const next = new URLSearchParams(previous);
      if (value === null) next.delete(name);
      else next.set(name, value);
      return next;
    });
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Select
          label="Assessment"
          data={assessments.map((a) => ({ value: String(a.id), label: `${a.name} (${a.framework.code})` }))}
          value={String(current.id)}
          onChange={(value) => value && setParam('assessment', value)}
          allowDeselect={false}
          w={{ base: '100%', sm: 420 }}
        />
        <Group gap="xs">
          <Button component="a" href={gapReportUrl(projectId, current.id)} download variant="default">
            Gap report (CSV)
          </Button>
          <Button component="a" href={gapReportPdfUrl(projectId, current.id)} download variant="default">
            Gap report (PDF)
          </Button>
        </Group>
      </Group>
      <BinderPicker projectId={projectId} assessmentId={current.id} />
      <QueryBody
        query={readiness}
        fallback="Readiness could not be loaded. Please try again."
        loadingLabel="Loading readiness"
        rows={6}
      >
        {(data) => <ReadinessBody projectId={projectId} assessmentId={current.id} r={data} />}
      </QueryBody>
      <TracersSection projectId={projectId} assessmentId={current.id} />
      <FindingDetailModal projectId={projectId} findingId={findingId} onClose={() => setParam('finding', null)} />
    </Stack>
  );
}

/**
 * The survey binder: one PDF for a chosen chapter, condition or standard with each element's wording and status, the
 * linked policies with their approval and signature trail, the measures' charts and the audit results.
 */
function BinderPicker({ projectId, assessmentId }: { projectId: string; assessmentId: number }) {
  const tree = useStdTree(projectId, assessmentId, 'all', '');
  const [node, setNode] = useState<string | null>(null);
  const [building, setBuilding] = useState<{ label: string; elements: number; seconds: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const rows = tree.data?.rows ?? [];
  const options = rows
    .filter((row) => row.req === null)
    .map((row) => ({
      value: String(row.node_id),
      label: `${'\u00a0'.repeat(row.depth * 2)}${row.ref_id} ${row.title}`,
    }));

  /** The elements below a node (what the binder holds), for the progress line. */
  const elementsBelow = (nodeId: number) => {
    const inside = new Set([nodeId]);
    let n = 0;
    for (const row of rows) {
      if (row.parent_id === null || !inside.has(row.parent_id)) continue;
      inside.add(row.node_id);
      if (row.req) n += 1;
    }
    return n;
  };

  async function download() {
    if (!node) return;
    const chosen = rows.find((row) => String(row.node_id) === node);
    const started = Date.now();
    setError(null);
    setBuilding({
      label: chosen ? `${chosen.ref_id} ${chosen.title}` : '',
      elements: elementsBelow(Number(node)),
      seconds: 0,
    });
    const timer = setInterval(
      () => setBuilding((b) => b && { ...b, seconds: Math.floor((Date.now() - started) / 1000) }),
      1000,
    );
    try {
      await apiDownload(
        binderUrl(projectId, assessmentId, Number(node)),
        'survey-binder.pdf',
        'The binder could not be built. Please try again.',
      );
    } catch (e) {
      setError(messageFor(e, 'The binder could not be built. Please try again.'));
    } finally {
      clearInterval(timer);
      setBuilding(null);
    }
  }

  return (
    <Paper withBorder radius="md" p="md">
      <Stack gap="sm">
        <Group align="flex-end" wrap="wrap">
          <Select
            label="Survey binder"
            description="One PDF for a surveyor: wording, status, policies with their signatures, measures, audits."
            placeholder={tree.isPending ? 'Loading the chapters…' : 'Choose a chapter or standard'}
            data={options}
            value={node}
            onChange={setNode}
            searchable
            nothingFoundMessage="No chapter or standard matches"
            w={{ base: '100%', sm: 460 }}
            disabled={building !== null}
          />
          <Button onClick={download} loading={building !== null} disabled={!node}>
            Download the binder (PDF)
          </Button>
        </Group>
        {!node && building === null && (
          <Text size="sm" c="dimmed">
            Choose a chapter or standard first.
          </Text>
        )}
        {building && (
          <Stack gap={4} role="status" aria-live="polite">
            <Progress value={100} animated striped aria-label="Building the binder" />
            <Text size="sm">
              Building the binder of {building.label}: {plural(building.elements, 'element')} with their policies,
              charts and audits{building.seconds > 0 ? ` (${building.seconds} s)` : ''}. It downloads when ready.
            </Text>
          </Stack>
        )}
        {error && (
          <Text size="sm" c="red" role="alert">
            {error}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

function Figure({ label, value, detail }: { label: string; value: string; detail: string }) {
  return (
    <Paper withBorder radius="md" p="md">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fz={28} fw={800} lh={1.2}>
        {value}
      </Text>
      <Text size="xs" c="dimmed">
        {detail}
      </Text>
    </Paper>
  );
}

function ReadinessBody({ projectId, assessmentId, r }: { projectId: string; assessmentId: number; r: StdReadiness }) {
  const assessedShare = r.applicable === 0 ? null : r.assessed_12m / r.applicable;
  const counts = Object.fromEntries(r.safer.map((c) => [`${c.likelihood}:${c.scope}`, c.count])) as Partial<
    Record<`${SaferLikelihood}:${SaferScope}`, number>
  >;
  const element = (reqId: number | null) =>
    reqId === null
      ? undefined
      : `${standardsRoute(projectId, 'compilence')}?assessment=${assessmentId}&element=${reqId}`;
  return (
    <Stack gap="lg">
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
        <Figure
          label="Assessed in the last 12 months"
          value={formatShare(assessedShare)}
          detail={`${r.assessed_12m} of ${plural(r.applicable, 'applicable element')}`}
        />
        <Figure label="Compliant" value={formatShare(r.score)} detail={countsText(r.counts)} />
        <Figure
          label="Open findings"
          value={String(r.due_corrections.length)}
          detail={`${plural(r.immediate_threats, 'immediate threat')}; ${r.due_corrections.filter((f) => f.overdue).length} overdue`}
        />
        <Figure label="Elements overdue" value={String(r.overdue_elements)} detail="Due date passed, not done" />
      </SimpleGrid>

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Paper withBorder radius="md" p="md">
          <Stack gap="sm">
            <Title order={2} fz="h4">
              Compliance by chapter
            </Title>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Chapter</Table.Th>
                  <Table.Th>Compliant</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {r.chapters.map((c) => (
                  <Table.Tr key={c.node_id}>
                    <Table.Td>
                      <Text size="sm" fw={600}>
                        {c.ref_id}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {c.title}
                      </Text>
                    </Table.Td>
                    <Table.Td miw={140}>
                      <Text size="sm">{formatShare(c.score)}</Text>
                      <Progress
                        value={(c.score ?? 0) * 100}
                        color={c.score === null ? 'gray' : c.score >= 0.9 ? 'green.8' : 'orange.8'}
                        aria-label={`${c.ref_id}: ${formatShare(c.score)} compliant; ${countsText(c.counts)}`}
                      />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Stack>
        </Paper>
        <Paper withBorder radius="md" p="md">
          <Stack gap="sm">
            <Title order={2} fz="h4">
              Open findings on the SAFER matrix
            </Title>
            <SaferGrid label="Open findings by likelihood to harm and scope" counts={counts} />
            <Text size="xs" c="dimmed">
              Darker cells need leadership involvement and a preventive analysis in the plan of correction.
            </Text>
          </Stack>
        </Paper>
      </SimpleGrid>

      <Paper withBorder radius="md" p="md">
        <Stack gap="sm">
          <Title order={2} fz="h4">
            Corrections due
          </Title>
          {r.due_corrections.length === 0 ? (
            <Text c="dimmed">
              No open findings. Findings are recorded from an element's panel on the Compliance screen.
            </Text>
          ) : (
            <Table.ScrollContainer minWidth={560}>
              <Table>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Element</Table.Th>
                    <Table.Th>Finding</Table.Th>
                    <Table.Th>SAFER</Table.Th>
                    <Table.Th>Due</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {r.due_corrections.map((f) => (
                    <Table.Tr key={f.id}>
                      <Table.Td>
                        <Anchor component={Link} to={element(f.req_id) ?? ''} size="sm">
                          {f.ref_id}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>
                        <Anchor component={Link} to={`?assessment=${assessmentId}&finding=${f.id}`} size="sm">
                          {f.text.length > 90 ? `${f.text.slice(0, 90)}…` : f.text}
                        </Anchor>
                        <Text size="xs" c="dimmed">
                          {STD_FINDING_SOURCE_LABELS[f.source]}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Group gap={4}>
                          <Badge variant="light" color={f.high_risk ? 'red.9' : 'gray.8'} tt="none">
                            {SAFER_LIKELIHOOD_LABELS[f.likelihood]} · {SAFER_SCOPE_LABELS[f.scope]}
                          </Badge>
                          {f.immediate_threat && (
                            <Badge color="red.9" variant="filled" tt="none">
                              Immediate threat
                            </Badge>
                          )}
                        </Group>
                      </Table.Td>
                      <Table.Td>
                        <Group gap={4} wrap="nowrap">
                          <Text size="sm">{formatDay(f.due_date)}</Text>
                          {f.overdue && <OverdueBadge />}
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </Stack>
      </Paper>

      <Paper withBorder radius="md" p="md">
        <Stack gap="sm">
          <Title order={2} fz="h4">
            Evidence expired or expiring
          </Title>
          {r.policy_evidence.length === 0 && r.evidence_items.length === 0 ? (
            <Text c="dimmed">
              Every linked policy is approved and its review is more than 60 days away, and no link, file or note
              attached to an element expires within 60 days.
            </Text>
          ) : (
            <Stack gap="xs">
              {r.evidence_items.map((item) => (
                <Group key={`item-${item.id}`} gap="xs" wrap="wrap">
                  <Badge color={item.state === 'expired' ? 'red.9' : 'orange.9'} variant="light" tt="none">
                    {item.state === 'expired' ? 'Expired' : 'Expiring'}
                  </Badge>
                  <Anchor component={Link} to={element(item.req_id) ?? ''} size="sm">
                    {item.title}
                  </Anchor>
                  <Text size="xs" c="dimmed">
                    {item.state === 'expired' ? 'expired on' : 'expires'} {formatDay(item.expires_on)} · evidence of{' '}
                    {item.ref_id}
                  </Text>
                </Group>
              ))}
              {r.policy_evidence.map((p) => (
                <Group key={p.policy_id} gap="xs" wrap="wrap">
                  <Badge color={p.state === 'expired' ? 'red.9' : 'orange.9'} variant="light" tt="none">
                    {p.state === 'expired' ? 'Expired' : 'Expiring'}
                  </Badge>
                  <Anchor
                    component={Link}
                    to={`/app/policy_management/${projectId}/documents/${p.policy_id}`}
                    size="sm"
                  >
                    {[p.number, p.title].filter(Boolean).join(' ')}
                  </Anchor>
                  <Text size="xs" c="dimmed">
                    {p.next_review_on ? `review ${formatDay(p.next_review_on)}` : 'not approved'} · supports{' '}
                    {p.elements.map((e) => e.ref_id).join(', ')}
                  </Text>
                </Group>
              ))}
            </Stack>
          )}
        </Stack>
      </Paper>
    </Stack>
  );
}
