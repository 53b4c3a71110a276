import {
  Alert,
  Anchor,
  Badge,
  Button,
  Code,
  Group,
  Kbd,
  Modal,
  Paper,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import {
  CR_ANSWER_LIMITS,
  type CrAnswerValue,
  type CrAnswerWarning,
  type CrQuestion,
  reviewProgress,
  reviewQuestionStates,
} from '@portal/shared';
import { useQueryClient } from '@tanstack/react-query';
import { type KeyboardEvent, type ReactNode, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { toast } from 'sonner';
import { DialogActions } from '../../../components/form-parts/DialogActions';
import { useLeaveWarning } from '../../../components/leave-warning';
import { PageHeading } from '../../../components/page-parts';
import { ApiError, messageFor } from '../../../lib/api';
import { formatDay, formatMonth } from '../../../lib/dates';
import { usePageTitle } from '../../../lib/use-page-title';
import { useCrPeople } from '../api/people';
import {
  type CrReviewForm,
  revealEncounterRef,
  reviewFormKey,
  saveAnswers,
  useReassignReview,
  useReturnReview,
  useReviewForm,
  useSubmitReview,
} from '../api/reviews';
import { AnswerButtons, answerChoices } from './AnswerButtons';
import { idParam, PrivilegeBanner, QueryPanel } from './cr-parts';
import { groupBySection } from './question-draft';
import { REVIEW_STATUS_COLORS, REVIEW_STATUS_LABELS } from './review-words';
import { chartReviewRoute, useChartReviewProjectId } from './use-chart-review-project';

/** Autosave waits this long after the last change, so typing a note saves once. */
export const AUTOSAVE_DELAY_MS = 600;

interface Draft {
  value: CrAnswerValue | null;
  na_reason: string;
  note: string;
  evidence_location: string;
}
const EMPTY: Draft = { value: null, na_reason: '', note: '', evidence_location: '' };
type SaveState = 'idle' | 'saving' | 'saved' | 'error' | 'conflict';

/** /app/chart-review/{projectId}/review/{assignmentId}: the review form (read-only for leads and once submitted). */
/**
 * "2 of 5 questions answered." and, while a conditional question waits on an answer still to come, "1 of them depends
 * on your answers." (it is in the total from the start, so the total never grows while answering).
 */
function progressWords(progress: { answered: number; total: number; pending: number }): string {
  const words = `${progress.answered} of ${progress.total} questions answered.`;
  if (progress.pending === 0) return words;
  return `${words} ${progress.pending} of them ${progress.pending === 1 ? 'depends' : 'depend'} on your answers.`;
}

export function ReviewFormPage() {
  usePageTitle('Review');
  const projectId = useChartReviewProjectId();
  const assignmentId = idParam(useParams().assignmentId);
  const form = useReviewForm(projectId, assignmentId);
  const queryClient = useQueryClient();
  // A reload (after a conflict) starts the form afresh from the server's answers.
  const [generation, setGeneration] = useState(0);
  const reload = useCallback(async () => {
    if (assignmentId === null) return;
    await queryClient.refetchQueries({ queryKey: reviewFormKey(projectId, assignmentId) });
    setGeneration((n) => n + 1);
  }, [assignmentId, projectId, queryClient]);

  if (assignmentId === null || (form.isError && form.error instanceof ApiError && form.error.status === 404)) {
    return (
      <Stack gap="lg" maw={900}>
        <PageHeading title="Review not found" />
        <Text>This review does not exist or is not yours to see.</Text>
        <Anchor component={Link} to={chartReviewRoute(projectId, 'my')}>
          Back to my reviews
        </Anchor>
      </Stack>
    );
  }
  return (
    <QueryPanel
      query={form}
      fallback="The review could not be loaded. Please try again."
      loadingLabel="Loading the review"
    >
      {(data) => <ReviewForm key={`${data.id}-${generation}`} projectId={projectId} form={data} onReload={reload} />}
    </QueryPanel>
  );
}

function draftsOf(form: CrReviewForm): Record<number, Draft> {
  return Object.fromEntries(
    form.answers.map((a) => [
      a.question_id,
      { value: a.value, na_reason: a.na_reason, note: a.note, evidence_location: a.evidence_location },
    ]),
  );
}

function ReviewForm({
  projectId,
  form,
  onReload,
}: {
  projectId: string;
  form: CrReviewForm;
  onReload: () => Promise<void>;
}) {
  const editable = form.abilities.edit;
  const [drafts, setDrafts] = useState<Record<number, Draft>>(() => draftsOf(form));
  const draftsRef = useRef(drafts);
  const versionRef = useRef(form.version);
  /** Question id -> change count not yet saved. */
  const dirtyRef = useRef(new Map<number, number>());
  const [dirtyCount, setDirtyCount] = useState(0);
  const [saveState, setSaveState] = useState<SaveState>('idle');
  // The first saved answer starts the review: the header shows the status the server answered.
  const [status, setStatus] = useState(form.status);
  useEffect(() => setStatus(form.status), [form.status]);
  const [saveMessage, setSaveMessage] = useState('');
  const [warnings, setWarnings] = useState<CrAnswerWarning[]>([]);
  const [missing, setMissing] = useState<Record<number, string>>({});
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const inflight = useRef<Promise<boolean> | null>(null);
  const blocked = useRef(false);

  const saveRef = useRef<() => Promise<boolean>>(async () => true);
  const schedule = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => void saveRef.current(), AUTOSAVE_DELAY_MS);
  }, []);

  const save = useCallback(async (): Promise<boolean> => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    if (inflight.current) await inflight.current;
    if (blocked.current) return false;
    if (dirtyRef.current.size === 0) return true;
    const snapshot = new Map(dirtyRef.current);
    const answers = [...snapshot.keys()].map((id) => ({ question_id: id, ...(draftsRef.current[id] ?? EMPTY) }));
    setSaveState('saving');
    const attempt = saveAnswers(projectId, form.id, { version: versionRef.current, answers }).then(
      (saved) => {
        versionRef.current = saved.version;
        setStatus(saved.status);
        for (const [id, count] of snapshot) if (dirtyRef.current.get(id) === count) dirtyRef.current.delete(id);
        setDirtyCount(dirtyRef.current.size);
        setWarnings((current) => [...current.filter((w) => !snapshot.has(w.question_id)), ...saved.warnings]);
        setSaveState('saved');
        return true;
      },
      (error: unknown) => {
        if (error instanceof ApiError && error.status === 409) {
          blocked.current = true;
          setSaveState('conflict');
          setSaveMessage(error.message);
        } else {
          setSaveState('error');
          setSaveMessage(messageFor(error, 'The answers could not be saved.'));
        }
        return false;
      },
    );
    inflight.current = attempt.finally(() => {
      inflight.current = null;
    });
    const ok = await attempt;
    if (ok && dirtyRef.current.size > 0) schedule();
    return ok;
  }, [projectId, form.id, schedule]);
  saveRef.current = save;

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const change = (questionId: number, patch: Partial<Draft>) => {
    if (!editable || blocked.current) return;
    const next = { ...draftsRef.current, [questionId]: { ...(draftsRef.current[questionId] ?? EMPTY), ...patch } };
    draftsRef.current = next;
    setDrafts(next);
    dirtyRef.current.set(questionId, (dirtyRef.current.get(questionId) ?? 0) + 1);
    setDirtyCount(dirtyRef.current.size);
    if (patch.value !== undefined && missing[questionId]) {
      setMissing(({ [questionId]: _, ...rest }) => rest);
    }
    schedule();
  };

  const leave = useLeaveWarning(editable && (dirtyCount > 0 || saveState === 'saving'), 'this review');

  // Which questions show and the progress: the shared rule (reviewQuestionStates), the one My reviews and the server
  // count with, so the total the reviewer reads here is the one in their list.
  const values = useMemo(() => {
    const byKey: Record<string, string> = {};
    for (const q of form.questions) {
      const value = drafts[q.id]?.value;
      if (value) byKey[q.key] = value;
    }
    return byKey;
  }, [drafts, form.questions]);
  const visibility = reviewQuestionStates(form.questions, values);
  const visible = form.questions.filter((_, index) => visibility[index] === 'shown');
  const progress = reviewProgress(form.questions, values);

  // Keyboard: Y N A P answer the current question; Up/Down or J/K move between questions.
  const [current, setCurrent] = useState<number | null>(visible[0]?.id ?? null);
  const cards = useRef(new Map<number, HTMLElement>());
  const focusQuestion = (id: number) => {
    setCurrent(id);
    const card = cards.current.get(id);
    card?.focus();
    card?.scrollIntoView?.({ block: 'center', behavior: 'smooth' });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    const target = event.target as HTMLElement;
    const typing =
      target.tagName === 'TEXTAREA' ||
      (target.tagName === 'INPUT' && (target as HTMLInputElement).type !== 'radio') ||
      target.isContentEditable;
    if (typing || event.ctrlKey || event.metaKey || event.altKey) return;
    const key = event.key.toLowerCase();
    const index = visible.findIndex((q) => q.id === current);
    if (key === 'arrowdown' || key === 'j' || key === 'arrowup' || key === 'k') {
      const step = key === 'arrowdown' || key === 'j' ? 1 : -1;
      const next = visible[Math.min(Math.max(index + step, 0), visible.length - 1)];
      if (next) {
        event.preventDefault();
        focusQuestion(next.id);
      }
      return;
    }
    const question = visible[index];
    const wanted = ({ y: 'yes', n: 'no', a: 'na', p: 'partial' } as const)[key as 'y' | 'n' | 'a' | 'p'];
    if (!question || !wanted || !editable) return;
    if (!answerChoices(question, form.partial_enabled).includes(wanted)) return;
    event.preventDefault();
    change(question.id, { value: wanted });
  };

  // Submit: save what is pending, confirm, then the server checks every visible question.
  const submit = useSubmitReview(projectId, form.id);
  const [confirming, setConfirming] = useState(false);
  const [submitError, setSubmitError] = useState<string | null>(null);
  const submitButton = useRef<HTMLButtonElement>(null);
  const focusAfterClose = useRef<number | null>(null);
  const confirmationClosed = () => {
    if (focusAfterClose.current !== null) focusQuestion(focusAfterClose.current);
    focusAfterClose.current = null;
  };
  const keepReviewing = () => {
    setConfirming(false);
    submitButton.current?.focus();
  };
  const doSubmit = async () => {
    setConfirming(false);
    setSubmitError(null);
    if (!(await save())) {
      toast.error('Your answers are not saved yet, so the review was not submitted.');
      return;
    }
    submit.mutate(undefined, {
      onSuccess: () => toast.success('Review submitted.'),
      onError: (error) => {
        const errors = error instanceof ApiError ? (error.body as { errors?: Record<string, string[]> })?.errors : null;
        const found: Record<number, string> = {};
        for (const [field, messages] of Object.entries(errors ?? {})) {
          const match = /^answers\.(\d+)$/.exec(field);
          if (match && messages[0]) found[Number(match[1])] = messages[0];
        }
        setMissing(found);
        setSubmitError(messageFor(error, 'The review could not be submitted.'));
        const first = form.questions.find((q) => found[q.id]);
        if (first) {
          // Also once the confirmation has finished closing: its focus trap holds focus until then.
          focusAfterClose.current = first.id;
          focusQuestion(first.id);
        }
      },
    });
  };

  return (
    <Stack gap="lg" w="100%" maw={960} onKeyDown={onKeyDown}>
      {leave}
      <PrivilegeBanner label={form.privilege_label} />
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        <PageHeading title={`Review ${form.case.case_code}`}>
          {form.program.name} · {formatMonth(form.period_start)}
        </PageHeading>
        <Anchor component={Link} to={chartReviewRoute(projectId, 'my')}>
          Back to my reviews
        </Anchor>
      </Group>
      <CaseHeader projectId={projectId} form={{ ...form, status }} />
      {form.status === 'returned' && form.return_reason && (
        <Alert color="orange.9" variant="light" title={form.mine ? 'Returned to you' : 'Returned to the reviewer'}>
          {form.return_reason}
        </Alert>
      )}
      {!form.mine && (
        <Alert color="blue" variant="light" title="Read-only">
          This review belongs to {form.reviewer.name}. You can read it but not change its answers.
        </Alert>
      )}
      {form.mine && form.status === 'submitted' && (
        <Alert color="green" variant="light" title="Submitted">
          This review is submitted. Its answers change only if a programme lead returns it to you.
        </Alert>
      )}
      <LeadActions projectId={projectId} form={form} />
      {editable && (
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Text size="sm" c="dimmed">
            Keyboard: <Kbd>Y</Kbd> yes, <Kbd>N</Kbd> no, <Kbd>A</Kbd> N/A, <Kbd>P</Kbd> partial; <Kbd>↑</Kbd>{' '}
            <Kbd>↓</Kbd> or <Kbd>J</Kbd> <Kbd>K</Kbd> move between questions.
          </Text>
          <SaveStatus state={saveState} message={saveMessage} onRetry={() => void save()} />
        </Group>
      )}
      {saveState === 'conflict' && (
        <Alert color="red" variant="light" title="Not saved">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{saveMessage}</Text>
            <Button size="compact-sm" onClick={() => void onReload()}>
              Reload
            </Button>
          </Stack>
        </Alert>
      )}
      {submitError && (
        <Alert color="red" variant="light" title="Not submitted">
          {submitError}
        </Alert>
      )}
      {groupBySection(form.questions).map((group) => {
        const items = group.items.filter(({ index }) => visibility[index] === 'shown');
        if (items.length === 0) return null;
        return (
          <Stack key={`${group.section}-${group.items[0]?.index}`} gap="sm" component="section">
            {group.section && (
              <Title order={2} fz="h4">
                {group.section}
              </Title>
            )}
            {items.map(({ question, index }) => (
              <QuestionItem
                key={question.id}
                question={question}
                number={index + 1}
                draft={drafts[question.id] ?? EMPTY}
                partialEnabled={form.partial_enabled}
                editable={editable}
                current={current === question.id}
                missing={missing[question.id] ?? null}
                warnings={warnings.filter((w) => w.question_id === question.id)}
                onChange={(patch) => change(question.id, patch)}
                onFocus={() => setCurrent(question.id)}
                cardRef={(element) => {
                  if (element) cards.current.set(question.id, element);
                  else cards.current.delete(question.id);
                }}
              />
            ))}
          </Stack>
        );
      })}
      {form.abilities.submit && (
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Text size="sm" c="dimmed" aria-live="polite">
            {progressWords(progress)}
          </Text>
          <Button
            ref={submitButton}
            onClick={() => {
              focusAfterClose.current = null;
              setConfirming(true);
            }}
            loading={submit.isPending}
            disabled={saveState === 'conflict'}
          >
            Submit review
          </Button>
        </Group>
      )}
      {/* Focus is placed by hand: back on "Submit review" when kept reviewing, on the first unanswered question when
          the server refuses the submission (the modal's own return of focus would land after that, on the button). */}
      <Modal
        opened={confirming}
        onClose={keepReviewing}
        onExitTransitionEnd={confirmationClosed}
        returnFocus={false}
        title="Submit this review?"
        centered
      >
        <Stack gap="md">
          <Text>After submitting, the answers no longer change unless a programme lead returns the review to you.</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={keepReviewing} data-autofocus>
              Keep reviewing
            </Button>
            <Button onClick={() => void doSubmit()}>Submit</Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

function SaveStatus({ state, message, onRetry }: { state: SaveState; message: string; onRetry: () => void }) {
  let content: ReactNode = null;
  if (state === 'saving') content = <Text size="sm">Saving…</Text>;
  else if (state === 'saved')
    content = (
      <Text size="sm" fw={500}>
        Saved
      </Text>
    );
  else if (state === 'error')
    content = (
      <Group gap="xs">
        <Text size="sm" c="red.9">
          Not saved: {message}
        </Text>
        <Button size="compact-sm" variant="light" onClick={onRetry}>
          Retry
        </Button>
      </Group>
    );
  else if (state === 'conflict')
    content = (
      <Text size="sm" c="red.9">
        Not saved
      </Text>
    );
  return (
    <div role="status" aria-live="polite" aria-label="Save status">
      {content}
    </div>
  );
}

interface QuestionItemProps {
  question: CrQuestion;
  number: number;
  draft: Draft;
  partialEnabled: boolean;
  editable: boolean;
  current: boolean;
  missing: string | null;
  warnings: CrAnswerWarning[];
  onChange: (patch: Partial<Draft>) => void;
  onFocus: () => void;
  cardRef: (element: HTMLElement | null) => void;
}

function QuestionItem(props: QuestionItemProps) {
  const { question, draft, editable, warnings } = props;
  const labelId = useId();
  const warningOf = (field: CrAnswerWarning['field']) => warnings.find((w) => w.field === field)?.message;
  const naReasonWarning = warningOf('na_reason');
  const noteWarning = warningOf('note');
  const evidenceWarning = warningOf('evidence_location');
  return (
    <Paper
      withBorder
      radius="md"
      p={{ base: 'sm', sm: 'md' }}
      data-question-id={question.id}
      data-question-key={question.key}
      tabIndex={0}
      ref={props.cardRef}
      onFocus={props.onFocus}
      onClick={props.onFocus}
      aria-labelledby={labelId}
      style={{
        outline: props.current ? '2px solid var(--mantine-color-blue-8)' : undefined,
        borderColor: props.missing ? 'var(--mantine-color-red-8)' : undefined,
      }}
    >
      <Stack gap="xs">
        <Text fw={600} id={labelId}>
          {props.number}. {question.text}
          {question.critical && (
            <Badge ml="xs" variant="light" color="red.9" size="sm">
              Critical
            </Badge>
          )}
        </Text>
        {question.help && (
          <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-line' }}>
            {question.help}
          </Text>
        )}
        <AnswerButtons
          labelledBy={labelId}
          choices={answerChoices(question, props.partialEnabled)}
          value={draft.value}
          disabled={!editable}
          onChange={(value) => props.onChange({ value })}
        />
        {props.missing && (
          <Text size="sm" c="red.9" role="alert">
            {props.missing}
          </Text>
        )}
        {draft.value === 'na' && (
          <TextInput
            label="Reason for N/A"
            required={question.na_reason_required}
            value={draft.na_reason}
            readOnly={!editable}
            maxLength={CR_ANSWER_LIMITS.naReason}
            onChange={(event) => props.onChange({ na_reason: event.currentTarget.value })}
          />
        )}
        {naReasonWarning && <FieldWarning>{naReasonWarning}</FieldWarning>}
        <Group grow align="flex-start" wrap="wrap" gap="sm">
          <Textarea
            label="Note"
            rows={2}
            value={draft.note}
            readOnly={!editable}
            maxLength={CR_ANSWER_LIMITS.note}
            miw={220}
            onChange={(event) => props.onChange({ note: event.currentTarget.value })}
          />
          <TextInput
            label="Where in the chart"
            placeholder="e.g. MAR 3/4"
            value={draft.evidence_location}
            readOnly={!editable}
            maxLength={CR_ANSWER_LIMITS.evidenceLocation}
            miw={180}
            onChange={(event) => props.onChange({ evidence_location: event.currentTarget.value })}
          />
        </Group>
        {noteWarning && <FieldWarning>{noteWarning}</FieldWarning>}
        {evidenceWarning && <FieldWarning>{evidenceWarning}</FieldWarning>}
      </Stack>
    </Paper>
  );
}

function FieldWarning({ children }: { children: ReactNode }) {
  return (
    <Text size="sm" c="orange.9" role="status">
      {children}
    </Text>
  );
}

/** Case code, unit and discharge month; the encounter reference masked, revealed (and logged) with a reason. */
function CaseHeader({ projectId, form }: { projectId: string; form: CrReviewForm }) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [revealed, setRevealed] = useState<string | null>(null);
  const reveal = async () => {
    if (reason.trim() === '') {
      setError('Say why you need to see the encounter reference.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      setRevealed(await revealEncounterRef(projectId, form.case.case_id, reason.trim()));
      setOpen(false);
      setReason('');
    } catch (caught) {
      setError(messageFor(caught, 'The encounter reference could not be revealed. Please try again.'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }}>
      <Group gap="xl" wrap="wrap" align="flex-start">
        <Fact label="Case">{form.case.case_code}</Fact>
        <Fact label="Unit">{form.case.unit ?? '—'}</Fact>
        <Fact label="Discharge month">{form.case.discharge_month ? formatMonth(form.case.discharge_month) : '—'}</Fact>
        <Fact label="Due">
          {formatDay(form.due_at)}
          {form.overdue && (
            <Badge ml="xs" variant="filled" color="red.9">
              Overdue
            </Badge>
          )}
        </Fact>
        <Fact label="Status">
          <Badge variant="light" color={REVIEW_STATUS_COLORS[form.status]}>
            {REVIEW_STATUS_LABELS[form.status]}
          </Badge>
        </Fact>
        {form.case.has_encounter_ref && (
          <Fact label="Encounter reference">
            {revealed ? (
              <Code>{revealed}</Code>
            ) : (
              <Group gap="xs">
                <Text aria-label="Encounter reference hidden">••••••••</Text>
                {form.case.may_reveal && (
                  <Button size="compact-sm" variant="light" onClick={() => setOpen(true)}>
                    Reveal
                  </Button>
                )}
              </Group>
            )}
          </Fact>
        )}
      </Group>
      <Modal opened={open} onClose={() => setOpen(false)} title="Reveal the encounter reference" centered>
        <Stack gap="md">
          <Text size="sm">Every reveal is logged with your name and reason.</Text>
          <Textarea
            label="Reason"
            required
            value={reason}
            maxLength={500}
            error={error}
            onChange={(event) => setReason(event.currentTarget.value)}
            data-autofocus
          />
          <DialogActions onCancel={() => setOpen(false)}>
            <Button onClick={() => void reveal()} loading={busy}>
              Reveal
            </Button>
          </DialogActions>
        </Stack>
      </Modal>
    </Paper>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <div>{children}</div>
    </Stack>
  );
}

/** Return (a submitted review) and reassign (one not yet submitted), for programme leads and admins. */
function LeadActions({ projectId, form }: { projectId: string; form: CrReviewForm }) {
  const [returning, setReturning] = useState(false);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [reassigning, setReassigning] = useState(false);
  const [reviewer, setReviewer] = useState<string | null>(null);
  const [reviewerError, setReviewerError] = useState<string | null>(null);
  const returnReview = useReturnReview(projectId, form.id);
  const reassign = useReassignReview(projectId, form.id);
  const people = useCrPeople(projectId);
  if (!form.abilities.return && !form.abilities.reassign) return null;
  const options = (people.data ?? [])
    .filter((person) => person.role !== 'viewer' && person.id !== form.reviewer.id)
    .map((person) => ({ value: String(person.id), label: person.name }));
  const fieldError = (error: unknown, field: string) => {
    const errors = error instanceof ApiError ? (error.body as { errors?: Record<string, string[]> })?.errors : null;
    return errors?.[field]?.[0] ?? messageFor(error, 'That did not work. Please try again.');
  };
  return (
    <Group gap="sm">
      {form.abilities.return && (
        <Button variant="default" onClick={() => setReturning(true)}>
          Return to reviewer
        </Button>
      )}
      {form.abilities.reassign && (
        <Button variant="default" onClick={() => setReassigning(true)}>
          Reassign
        </Button>
      )}
      <Modal opened={returning} onClose={() => setReturning(false)} title="Return this review?" centered>
        <Stack gap="md">
          <Text size="sm">
            {form.reviewer.name} gets it back with your reason. The answers stay; the case stops counting until it is
            submitted again.
          </Text>
          <Textarea
            label="Reason"
            required
            value={reason}
            maxLength={CR_ANSWER_LIMITS.reason}
            error={reasonError}
            onChange={(event) => setReason(event.currentTarget.value)}
            data-autofocus
          />
          <DialogActions onCancel={() => setReturning(false)}>
            <Button
              color="orange.9"
              loading={returnReview.isPending}
              onClick={() =>
                returnReview.mutate(reason, {
                  onSuccess: () => {
                    setReturning(false);
                    setReason('');
                    toast.success('Review returned to its reviewer.');
                  },
                  onError: (error) => setReasonError(fieldError(error, 'reason')),
                })
              }
            >
              Return review
            </Button>
          </DialogActions>
        </Stack>
      </Modal>
      <Modal opened={reassigning} onClose={() => setReassigning(false)} title="Reassign this review" centered>
        <Stack gap="md">
          <Text size="sm">The new reviewer starts afresh: the answers saved so far are removed.</Text>
          <Select
            label="New reviewer"
            data={options}
            value={reviewer}
            onChange={setReviewer}
            searchable
            error={reviewerError}
            comboboxProps={{ withinPortal: false }}
          />
          <DialogActions onCancel={() => setReassigning(false)}>
            <Button
              loading={reassign.isPending}
              disabled={reviewer === null}
              onClick={() =>
                reassign.mutate(Number(reviewer), {
                  onSuccess: (updated) => {
                    setReassigning(false);
                    toast.success(`Review reassigned to ${updated.reviewer.name}.`);
                  },
                  onError: (error) => setReviewerError(fieldError(error, 'reviewer_id')),
                })
              }
            >
              Reassign
            </Button>
          </DialogActions>
        </Stack>
      </Modal>
    </Group>
  );
}
