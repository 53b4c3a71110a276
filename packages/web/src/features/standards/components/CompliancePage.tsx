import {
  Badge,
  Button,
  Group,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import {
  STD_LIMITS,
  STD_RESULT_LABELS,
  STD_TREE_FILTER_LABELS,
  STD_TREE_FILTERS,
  type StdTreeFilter,
} from '@portal/shared';
import { useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { QueryBody } from '../../../components/page-parts';
import { formatDay } from '../../../lib/dates';
import { usePageTitle } from '../../../lib/use-page-title';
import { type StdAssessment, useStdTree } from '../api/assessments';
import { useStdMe } from '../api/me';
import { BulkBar, ComplianceTree } from './ComplianceTree';
import { ElementDrawer } from './ElementPanel';
import { AssessmentScreen, EmptyState, idParam, standardsRoute, useStdProjectId } from './std-parts';
import { formatShare, KIND_LABELS, RESULT_COLORS, RESULT_ORDER } from './std-words';
import { UpgradeAssessment } from './UpgradeAssessment';

const FILTER_DATA = STD_TREE_FILTERS.map((value) => ({ value, label: STD_TREE_FILTER_LABELS[value] }));

function filterParam(value: string | null): StdTreeFilter {
  return (STD_TREE_FILTERS as readonly string[]).includes(value ?? '') ? (value as StdTreeFilter) : 'all';
}

/**
 * /app/standards/{projectId}/compilence: the assessment picked with `?assessment=` (the newest by default), its
 * summary, the compliance tree with filters and search, and the side panel of the element in `?element=`.
 */
export function CompliancePage() {
  usePageTitle('Compliance | Standards');
  const projectId = useStdProjectId();
  const me = useStdMe(projectId);
  return (
    <AssessmentScreen
      title="Compliance"
      intro="Where each standard stands, who answers for it and what shows it is met."
      projectId={projectId}
      empty={
        <EmptyState
          title="No assessments yet."
          action={
            me.data?.abilities.create ? (
              <Button component={Link} to={standardsRoute(projectId, 'create')}>
                Create an assessment
              </Button>
            ) : (
              <Text size="sm">A standards admin can create the first one.</Text>
            )
          }
        >
          An assessment is one pass through a framework of standards: a self-assessment, a mock survey or the record of
          a real survey. It gives every element a result, an owner and a due date, and links each element to the
          policies, measures and audits that show it is met.
        </EmptyState>
      }
    >
      {(assessments, current) => <AssessmentView projectId={projectId} assessments={assessments} current={current} />}
    </AssessmentScreen>
  );
}

function AssessmentView({
  projectId,
  assessments,
  current,
}: {
  projectId: string;
  assessments: readonly StdAssessment[];
  current: StdAssessment;
}) {
  const [params, setParams] = useSearchParams();
  const filter = filterParam(params.get('filter'));
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const tree = useStdTree(projectId, current.id, filter, debounced);
  const [selected, setSelected] = useState<Set<number>>(() => new Set());
  const openReqId = idParam(params.get('element'));
  const phone = useMediaQuery('(max-width: 36em)');

  const options = useMemo(
    () =>
      [...assessments]
        .sort((a, b) => (a.created_at === b.created_at ? b.id - a.id : b.created_at.localeCompare(a.created_at)))
        .map((item) => ({
          value: String(item.id),
          label: `${item.name} (${item.framework.code} ${item.framework.edition})`,
        })),
    [assessments],
  );

  const setParam = (name: string, value: string | null) =>
    setParams((previous) => {
      const next = new URLSearchParams(previous);
      if (value === null) next.delete(name);
      else next.set(name, value);
      return next;
    });

  const chooseAssessment = (value: string | null) => {
    if (!value) return;
    setSelected(new Set());
    setParams((previous) => {
      const next = new URLSearchParams(previous);
      next.set('assessment', value);
      next.delete('element');
      return next;
    });
  };

  // The tree's own copy of the assessment is the freshest (it comes back after every change).
  const summary = tree.data?.assessment.id === current.id ? tree.data.assessment : current;
  const bulk = tree.data?.abilities.bulk === true;
  const filtered = filter !== 'all' || debounced !== '';
  // The tree is remembered per question, so a new filter opens its matches.
  const treeKey = `${current.id}|${filter}|${debounced}`;

  return (
    <Stack gap="md">
      <Group align="flex-end" gap="sm">
        <Select
          label="Assessment"
          data={options}
          value={String(current.id)}
          onChange={chooseAssessment}
          allowDeselect={false}
          maw={520}
          w="100%"
        />
        <UpgradeAssessment projectId={projectId} current={current} />
      </Group>
      <Summary assessment={summary} />
      <Stack gap="sm">
        <SegmentedControl
          aria-label="Show"
          data={FILTER_DATA}
          value={filter}
          onChange={(value) => setParam('filter', value === 'all' ? null : value)}
          fullWidth
          orientation={phone ? 'vertical' : 'horizontal'}
        />
        <TextInput
          type="search"
          label="Search"
          description="By identifier, title or your facility's wording."
          placeholder="§482.42, RC.01.01.01 or infection"
          value={search}
          maxLength={STD_LIMITS.search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          maw={420}
        />
        {tree.data && (
          <Text size="sm" c="dimmed" aria-live="polite">
            {tree.data.matches === 1 ? '1 element matches.' : `${tree.data.matches} elements match.`}
          </Text>
        )}
      </Stack>
      <QueryBody
        query={tree}
        fallback="The compliance tree could not be loaded. Please try again."
        loadingLabel="Loading the compliance tree"
        rows={8}
      >
        {(data) => (
          <ComplianceTree
            key={treeKey}
            rows={data.rows}
            filtered={filtered}
            selectable={bulk}
            selected={selected}
            onSelect={setSelected}
            openReqId={openReqId}
            onOpen={(reqId) => setParam('element', String(reqId))}
          />
        )}
      </QueryBody>
      {bulk && selected.size > 0 && (
        <BulkBar projectId={projectId} selected={selected} onDone={() => setSelected(new Set())} />
      )}
      <ElementDrawer projectId={projectId} reqId={openReqId} onClose={() => setParam('element', null)} />
    </Stack>
  );
}

/** Counts by result, the score and the overdue elements of one assessment. */
function Summary({ assessment }: { assessment: StdAssessment }) {
  const total = RESULT_ORDER.reduce((sum, result) => sum + assessment.counts[result], 0);
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} aria-label="Summary" role="region">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {KIND_LABELS[assessment.kind]} of {assessment.framework.name}, edition {assessment.framework.edition} ·{' '}
          {total === 1 ? '1 element' : `${total} elements`}
          {assessment.survey_window_start &&
            ` · Survey window ${formatDay(assessment.survey_window_start)} to ${assessment.survey_window_end ? formatDay(assessment.survey_window_end) : 'open'}`}
        </Text>
        <Group gap="xs" wrap="wrap" data-testid="result-counts">
          {RESULT_ORDER.map((result) => (
            <Badge
              key={result}
              size="lg"
              variant={result === 'not_assessed' ? 'outline' : 'light'}
              color={result === 'not_assessed' ? 'gray.7' : `${RESULT_COLORS[result]}.9`}
              tt="none"
              fw={600}
            >
              {assessment.counts[result]} {STD_RESULT_LABELS[result]}
            </Badge>
          ))}
        </Group>
        <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="sm" maw={520}>
          <Stack gap={0}>
            <Text size="xs" c="dimmed" fw={600} tt="uppercase">
              Score
            </Text>
            <Text fw={700} fz="xl" data-testid="score">
              {formatShare(assessment.score)}
            </Text>
            <Text size="xs" c="dimmed">
              Compliant of the applicable elements assessed
            </Text>
          </Stack>
          <Stack gap={0}>
            <Text size="xs" c="dimmed" fw={600} tt="uppercase">
              Overdue
            </Text>
            <Text fw={700} fz="xl" c={assessment.overdue > 0 ? 'red.9' : undefined} data-testid="overdue">
              {assessment.overdue}
            </Text>
            <Text size="xs" c="dimmed">
              Elements past their due date
            </Text>
          </Stack>
        </SimpleGrid>
      </Stack>
    </Paper>
  );
}
