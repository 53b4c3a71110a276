import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  Modal,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import {
  correctionDue,
  needsLeadership,
  SAFER_LIKELIHOOD_LABELS,
  SAFER_SCOPE_LABELS,
  type SaferLikelihood,
  type SaferScope,
  STD_FINDING_LIMITS,
  STD_FINDING_SOURCE_LABELS,
  STD_FINDING_SOURCES,
  STD_FINDING_STATUS_LABELS,
  type StdFindingSource,
  stdFindingInputSchema,
  stdPlanInputSchema,
} from '@portal/shared';
import { type FormEvent, useEffect, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { LoadFailure } from '../../../components/page-parts';
import { useLinkTargets } from '../../../components/standards-links/api';
import { ApiError, messageFor } from '../../../lib/api';
import { formatDay } from '../../../lib/dates';
import { type FieldErrors, schemaFieldErrors, serverFieldErrors } from '../../../lib/field-errors';
import {
  type StdFinding,
  type StdFindingInput,
  type StdPlanInput,
  useCloseFinding,
  useCreateFinding,
  useFinding,
  useSavePlan,
  useUpdateFinding,
} from '../api/findings';
import { useStdMembers } from '../api/members';
import { useRecordTracerFinding } from '../api/tracers';
import { SaferGrid } from './SaferGrid';
import { Loading, OverdueBadge } from './std-parts';

/**
 * Findings of standards (docs/standards.md "Findings"): the form that records or corrects one (its SAFER cell and
 * the correction's due date, 60 days or 3 for an immediate threat), and the finding's own window with its plan of
 * correction, how it is sustained, and closing or reopening it.
 */

const today = () => new Date().toISOString().slice(0, 10);
type FindingField = 'source' | 'text' | 'likelihood' | 'cited_on';
const FINDING_FIELDS: FindingField[] = ['source', 'text', 'likelihood', 'cited_on'];

interface FindingDraft {
  source: StdFindingSource;
  text: string;
  cell: { likelihood: SaferLikelihood; scope: SaferScope } | null;
  immediate_threat: boolean;
  cited_on: string;
}

export function FindingFormModal({
  projectId,
  opened,
  onClose,
  reqId,
  elementLabel,
  finding,
  defaultSource = 'self',
  tracerId,
}: {
  projectId: string;
  opened: boolean;
  onClose: () => void;
  /** The element a new finding is recorded on. */
  reqId: number;
  elementLabel: string;
  /** Set to correct an existing finding. */
  finding?: StdFinding;
  defaultSource?: StdFindingSource;
  /** Recording from a tracer: the finding's source is the tracer. */
  tracerId?: number;
}) {
  const create = useCreateFinding(projectId, reqId);
  const fromTracer = useRecordTracerFinding(projectId, tracerId ?? 0);
  const update = useUpdateFinding(projectId, finding?.id ?? 0);
  const initial = (): FindingDraft =>
    finding
      ? {
          source: finding.source,
          text: finding.text,
          cell: { likelihood: finding.likelihood, scope: finding.scope },
          immediate_threat: finding.immediate_threat,
          cited_on: finding.cited_on,
        }
      : {
          source: tracerId === undefined ? defaultSource : 'tracer',
          text: '',
          cell: null,
          immediate_threat: false,
          cited_on: today(),
        };
  const [draft, setDraft] = useState<FindingDraft>(initial);
  const [errors, setErrors] = useState<FieldErrors<FindingField>>({});
  // biome-ignore lint/correctness/useExhaustiveDependencies: a reopened form starts from the finding as it is now.
  useEffect(() => {
    if (opened) {
      setDraft(initial());
      setErrors({});
    }
  }, [opened]);
  const pending = create.isPending || update.isPending || fromTracer.isPending;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = {
      source: draft.source,
      text: draft.text,
      likelihood: draft.cell?.likelihood,
      scope: draft.cell?.scope,
      immediate_threat: draft.immediate_threat,
      cited_on: draft.cited_on,
    };
    const parsed = stdFindingInputSchema.safeParse(body);
    if (!parsed.success) {
      const found = schemaFieldErrors<FindingField | 'scope'>(parsed.error);
      setErrors({ ...found, likelihood: found.likelihood ?? found.scope });
      return;
    }
    setErrors({});
    const done = {
      onSuccess: () => {
        toast.success(finding ? 'Finding saved.' : 'Finding recorded.');
        onClose();
      },
      onError: (error: unknown) => {
        setErrors(serverFieldErrors(error, FINDING_FIELDS));
        toast.error(messageFor(error, 'The finding could not be saved. Please try again.'));
      },
    };
    const input = parsed.data as StdFindingInput;
    if (finding) update.mutate({ ...input, version: finding.version }, done);
    else if (tracerId !== undefined) {
      const { source: _source, ...fields } = input;
      fromTracer.mutate({ reqId, finding: fields }, done);
    } else create.mutate(input, done);
  };

  const due = draft.cited_on ? correctionDue(draft.cited_on, draft.immediate_threat) : null;
  const highRisk = draft.cell
    ? needsLeadership(draft.cell.likelihood, draft.cell.scope, draft.immediate_threat)
    : false;
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={finding ? 'Correct the finding' : 'Record a finding'}
      size="lg"
      fullScreen={false}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            On {elementLabel}
          </Text>
          {tracerId === undefined && (
            <Select
              label="Source"
              data={STD_FINDING_SOURCES.map((value) => ({ value, label: STD_FINDING_SOURCE_LABELS[value] }))}
              value={draft.source}
              onChange={(value) => value && setDraft({ ...draft, source: value as StdFindingSource })}
              allowDeselect={false}
              error={errors.source}
            />
          )}
          <Textarea
            label="What was found"
            required
            rows={3}
            maxLength={STD_FINDING_LIMITS.text}
            value={draft.text}
            onChange={(event) => setDraft({ ...draft, text: event.currentTarget.value })}
            error={errors.text}
          />
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              SAFER matrix: likelihood to harm by scope{' '}
              <Text span c="red.9">
                *
              </Text>
            </Text>
            <SaferGrid
              label="Likelihood to harm by scope"
              value={draft.cell}
              onChange={(cell) => setDraft({ ...draft, cell })}
            />
            {errors.likelihood && (
              <Text size="xs" c="red.9" role="alert">
                Choose a cell of the matrix: the likelihood to harm and the scope.
              </Text>
            )}
          </Stack>
          <Checkbox
            label="Immediate threat to life (must be removed within 72 hours)"
            checked={draft.immediate_threat}
            onChange={(event) => setDraft({ ...draft, immediate_threat: event.currentTarget.checked })}
          />
          <TextInput
            type="date"
            label="Cited on"
            required
            value={draft.cited_on}
            onChange={(event) => setDraft({ ...draft, cited_on: event.currentTarget.value })}
            error={errors.cited_on}
          />
          {due && (
            <Text size="sm">
              Correction due <strong>{formatDay(due)}</strong> ({draft.immediate_threat ? '3 days' : '60 days'} after it
              was cited).
            </Text>
          )}
          {highRisk && (
            <Alert color="red.9" variant="light" title="High-risk cell">
              Its plan of correction needs leadership involvement and a preventive analysis.
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={pending}>
              {finding ? 'Save finding' : 'Record finding'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** The finding named in the URL (`?finding=`), in a window of its own: what was found, the plan, sustainment. */
export function FindingDetailModal({
  projectId,
  findingId,
  onClose,
}: {
  projectId: string;
  findingId: number | null;
  onClose: () => void;
}) {
  const finding = useFinding(projectId, findingId);
  const [editing, setEditing] = useState(false);
  const data = finding.data;
  return (
    <Modal
      opened={findingId !== null}
      onClose={onClose}
      size="xl"
      title={data ? `Finding on ${data.ref_id}` : 'Finding'}
    >
      {finding.isPending ? (
        <Loading label="Loading the finding" />
      ) : finding.isError ? (
        <LoadFailure
          error={finding.error}
          fallback="The finding could not be loaded. Please try again."
          retrying={finding.isFetching}
          onRetry={() => void finding.refetch()}
        />
      ) : data ? (
        <Stack gap="lg">
          <FindingSummary finding={data} onEdit={data.abilities.edit ? () => setEditing(true) : undefined} />
          <PlanEditor projectId={projectId} finding={data} />
          <CloseControls projectId={projectId} finding={data} />
          <FindingFormModal
            projectId={projectId}
            opened={editing}
            onClose={() => setEditing(false)}
            reqId={data.req_id}
            elementLabel={`${data.ref_id} ${data.title}`}
            finding={data}
          />
        </Stack>
      ) : null}
    </Modal>
  );
}

function FindingSummary({ finding, onEdit }: { finding: StdFinding; onEdit?: () => void }) {
  return (
    <Paper withBorder radius="md" p="md">
      <Stack gap="xs">
        <Group gap="xs">
          <Badge variant="light" color={finding.status === 'closed' ? 'green.9' : 'orange.9'} tt="none">
            {STD_FINDING_STATUS_LABELS[finding.status]}
          </Badge>
          <Badge variant="outline" color="gray.8" tt="none">
            {STD_FINDING_SOURCE_LABELS[finding.source]}
          </Badge>
          <Badge variant="light" color={finding.high_risk ? 'red.9' : 'gray.8'} tt="none">
            {SAFER_LIKELIHOOD_LABELS[finding.likelihood]} likelihood · {SAFER_SCOPE_LABELS[finding.scope]}
          </Badge>
          {finding.immediate_threat && (
            <Badge color="red.9" variant="filled" tt="none">
              Immediate threat
            </Badge>
          )}
          {finding.overdue && <OverdueBadge />}
        </Group>
        <Text size="sm" c="dimmed">
          {finding.ref_id} {finding.title}
        </Text>
        <Text style={{ whiteSpace: 'pre-wrap' }}>{finding.text}</Text>
        <Text size="sm">
          Cited {formatDay(finding.cited_on)} by {finding.created_by}; correction due{' '}
          <strong>{formatDay(finding.due_date)}</strong>.
        </Text>
        {finding.closed_note && (
          <Text size="sm">
            <strong>Closing note:</strong> {finding.closed_note}
          </Text>
        )}
        {onEdit && (
          <Group>
            <Button variant="default" size="xs" onClick={onEdit}>
              Correct the finding
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

type PlanField = 'root_cause' | 'leadership_involvement' | 'preventive_analysis' | 'measure_id' | 'success_periods';
const PLAN_FIELDS: PlanField[] = [
  'root_cause',
  'leadership_involvement',
  'preventive_analysis',
  'measure_id',
  'success_periods',
];

/** Action rows keep a key of their own: removing one must not move another's typing into it. */
let actionKeys = 0;
const nextActionKey = () => {
  actionKeys += 1;
  return actionKeys;
};

interface ActionDraft {
  key: number;
  what: string;
  owner_id: string | null;
  due: string;
  done: boolean;
}

function PlanEditor({ projectId, finding }: { projectId: string; finding: StdFinding }) {
  const save = useSavePlan(projectId, finding.id);
  const members = useStdMembers(projectId);
  const [measureSearch, setMeasureSearch] = useState('');
  const measures = useLinkTargets(projectId, 'measure', measureSearch, finding.abilities.plan);
  const fromFinding = () => ({
    root_cause: finding.plan.root_cause,
    actions: finding.plan.actions.map((a) => ({
      key: nextActionKey(),
      what: a.what,
      owner_id: a.owner ? String(a.owner.id) : null,
      due: a.due ?? '',
      done: a.done,
    })),
    leadership_involvement: finding.plan.leadership_involvement,
    preventive_analysis: finding.plan.preventive_analysis,
    measure_id: finding.plan.measure_id === null ? null : String(finding.plan.measure_id),
    success_periods: finding.plan.success_periods,
  });
  const [plan, setPlan] = useState(fromFinding);
  const [errors, setErrors] = useState<FieldErrors<PlanField>>({});
  // biome-ignore lint/correctness/useExhaustiveDependencies: the saved plan replaces the draft when it changes.
  useEffect(() => setPlan(fromFinding()), [finding.version]);
  const editable = finding.abilities.plan;
  const people = (members.data?.members ?? [])
    .filter((m) => m.effective_role !== null && m.effective_role !== 'viewer' && m.effective_role !== 'mock_assessor')
    .map((m) => ({ value: String(m.user_id), label: m.name }));
  const measureOptions = [
    ...(finding.sustain.measure && !(measures.data?.targets ?? []).some((t) => t.id === finding.sustain.measure!.id)
      ? [{ value: String(finding.sustain.measure.id), label: finding.sustain.measure.name }]
      : []),
    ...(measures.data?.targets ?? []).map((t) => ({ value: String(t.id), label: `${t.label} (${t.detail})` })),
  ];

  const setAction = (index: number, change: Partial<ActionDraft>) =>
    setPlan({ ...plan, actions: plan.actions.map((a, i) => (i === index ? { ...a, ...change } : a)) });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body: StdPlanInput = {
      root_cause: plan.root_cause,
      actions: plan.actions.map((a) => ({
        what: a.what,
        owner_id: a.owner_id === null ? null : Number(a.owner_id),
        due: a.due === '' ? null : a.due,
        done: a.done,
      })),
      leadership_involvement: plan.leadership_involvement,
      preventive_analysis: plan.preventive_analysis,
      measure_id: plan.measure_id === null ? null : Number(plan.measure_id),
      success_periods: plan.success_periods,
    };
    const parsed = stdPlanInputSchema.safeParse(body);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      setErrors(schemaFieldErrors(parsed.error));
      toast.error(first?.message ?? 'Check the plan.');
      return;
    }
    setErrors({});
    save.mutate(parsed.data, {
      onSuccess: () => toast.success('Plan saved.'),
      onError: (error) => {
        setErrors(serverFieldErrors(error, PLAN_FIELDS));
        toast.error(messageFor(error, 'The plan could not be saved. Please try again.'));
      },
    });
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Plan of correction">
      <Stack gap="sm">
        <Title order={3} fz="h4">
          Plan of correction
        </Title>
        <Textarea
          label="Root cause"
          rows={2}
          readOnly={!editable}
          maxLength={STD_FINDING_LIMITS.rootCause}
          value={plan.root_cause}
          onChange={(event) => setPlan({ ...plan, root_cause: event.currentTarget.value })}
          error={errors.root_cause}
        />
        <Stack gap="xs">
          <Text size="sm" fw={500}>
            Actions
          </Text>
          {plan.actions.length === 0 && (
            <Text size="sm" c="dimmed">
              No actions yet.
            </Text>
          )}
          {plan.actions.map((action, index) => (
            <Paper key={action.key} withBorder p="xs" radius="sm">
              <SimpleGrid cols={{ base: 1, sm: 4 }} spacing="xs" verticalSpacing="xs">
                <TextInput
                  label={`Action ${index + 1}`}
                  value={action.what}
                  readOnly={!editable}
                  maxLength={STD_FINDING_LIMITS.what}
                  onChange={(event) => setAction(index, { what: event.currentTarget.value })}
                  style={{ gridColumn: 'span 2' }}
                />
                <Select
                  label="Owner"
                  data={people}
                  value={action.owner_id}
                  onChange={(value) => setAction(index, { owner_id: value })}
                  clearable
                  searchable
                  readOnly={!editable}
                />
                <TextInput
                  type="date"
                  label="Due"
                  value={action.due}
                  readOnly={!editable}
                  onChange={(event) => setAction(index, { due: event.currentTarget.value })}
                />
              </SimpleGrid>
              <Group justify="space-between" mt="xs">
                <Checkbox
                  label="Done"
                  checked={action.done}
                  disabled={!editable}
                  onChange={(event) => setAction(index, { done: event.currentTarget.checked })}
                />
                {editable && (
                  <ActionIcon
                    variant="subtle"
                    color="red.9"
                    aria-label={`Remove action ${index + 1}`}
                    onClick={() => setPlan({ ...plan, actions: plan.actions.filter((_, i) => i !== index) })}
                  >
                    ×
                  </ActionIcon>
                )}
              </Group>
            </Paper>
          ))}
          {editable && plan.actions.length < STD_FINDING_LIMITS.actions && (
            <Group>
              <Button
                variant="default"
                size="xs"
                onClick={() =>
                  setPlan({
                    ...plan,
                    actions: [
                      ...plan.actions,
                      { key: nextActionKey(), what: '', owner_id: null, due: '', done: false },
                    ],
                  })
                }
              >
                Add an action
              </Button>
            </Group>
          )}
        </Stack>
        {(finding.high_risk || plan.leadership_involvement || plan.preventive_analysis) && (
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Textarea
              label="Leadership involvement"
              description={finding.high_risk ? 'Required for this high-risk finding.' : undefined}
              required={finding.high_risk}
              rows={2}
              readOnly={!editable}
              value={plan.leadership_involvement}
              onChange={(event) => setPlan({ ...plan, leadership_involvement: event.currentTarget.value })}
              error={errors.leadership_involvement}
            />
            <Textarea
              label="Preventive analysis"
              description={finding.high_risk ? 'Required for this high-risk finding.' : undefined}
              required={finding.high_risk}
              rows={2}
              readOnly={!editable}
              value={plan.preventive_analysis}
              onChange={(event) => setPlan({ ...plan, preventive_analysis: event.currentTarget.value })}
              error={errors.preventive_analysis}
            />
          </SimpleGrid>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Select
            label="Sustained by measure"
            description="A monitoring measure that shows the correction holds."
            data={measureOptions}
            value={plan.measure_id}
            onChange={(value) => setPlan({ ...plan, measure_id: value })}
            searchable
            clearable
            onSearchChange={setMeasureSearch}
            nothingFoundMessage="No measure matches"
            readOnly={!editable}
            error={errors.measure_id}
          />
          <NumberInput
            label="Periods at target in a row"
            min={1}
            max={24}
            value={plan.success_periods}
            readOnly={!editable}
            onChange={(value) => setPlan({ ...plan, success_periods: typeof value === 'number' ? value : 1 })}
            error={errors.success_periods}
          />
        </SimpleGrid>
        <Sustainment finding={finding} projectId={projectId} />
        {editable && (
          <Group justify="flex-end">
            <Button type="submit" loading={save.isPending}>
              Save plan
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}

function Sustainment({ finding, projectId }: { finding: StdFinding; projectId: string }) {
  const { sustain } = finding;
  if (!sustain.measure) {
    return (
      <Text size="sm" c="dimmed">
        No measure: the finding closes once every action is done.
      </Text>
    );
  }
  return (
    <Paper withBorder radius="sm" p="sm" aria-label="Sustainment">
      <Stack gap={4}>
        <Text size="sm">
          <Link to={`/app/monitoring/${projectId}/pages/page/${sustain.measure.page_id}`}>{sustain.measure.name}</Link>
          {sustain.target !== null ? ` against its target ${sustain.target}` : ' (no target set)'}:{' '}
          {sustain.latest.length} of {sustain.required} complete periods after the citation{' '}
          <Badge variant="light" color={sustain.met ? 'green.9' : 'orange.9'} tt="none">
            {sustain.met ? 'Met' : 'Not met yet'}
          </Badge>
        </Text>
        {sustain.latest.length > 0 && (
          <Text size="xs" c="dimmed">
            {sustain.latest
              .map((p) => `${p.period.slice(0, 7)}: ${p.value === null ? 'no value' : p.value} ${p.met ? '✓' : '✗'}`)
              .join(' · ')}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

function CloseControls({ projectId, finding }: { projectId: string; finding: StdFinding }) {
  const closed = finding.status === 'closed';
  const action = closed ? 'reopen' : 'close';
  const mutation = useCloseFinding(projectId, finding.id, action);
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  if (!finding.abilities.close) return null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!note.trim()) {
      setError('Write a note.');
      return;
    }
    setError(null);
    mutation.mutate(note.trim(), {
      onSuccess: () => {
        setNote('');
        toast.success(closed ? 'Finding reopened.' : 'Finding closed.');
      },
      onError: (failure) => {
        const message = messageFor(failure, 'The finding could not be changed. Please try again.');
        setError(failure instanceof ApiError && failure.status === 400 ? message : null);
        toast.error(message);
      },
    });
  };
  return (
    <form onSubmit={submit} noValidate aria-label={closed ? 'Reopen the finding' : 'Close the finding'}>
      <Group align="flex-end" wrap="wrap">
        <TextInput
          label={closed ? 'Why reopen it' : 'Closing note'}
          value={note}
          onChange={(event) => setNote(event.currentTarget.value)}
          maxLength={STD_FINDING_LIMITS.note}
          error={error}
          style={{ flex: 1, minWidth: 220 }}
        />
        <Button type="submit" color={closed ? undefined : 'green.9'} loading={mutation.isPending}>
          {closed ? 'Reopen' : 'Close the finding'}
        </Button>
      </Group>
    </form>
  );
}
