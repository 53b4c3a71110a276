import {
  Accordion,
  Alert,
  Anchor,
  Badge,
  Box,
  Button,
  CopyButton,
  Group,
  List,
  Modal,
  Paper,
  PasswordInput,
  Progress,
  SegmentedControl,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  ThemeIcon,
  Title,
  Tooltip,
} from '@mantine/core';
import {
  ATTESTATION_STATEMENT,
  DOCUMENT_STATUS_LABELS,
  type DocumentDetail,
  type DocumentWorkflow,
  documentName,
  type RequestStatus,
  SIGNATURE_MEANING,
  type Signature,
  sendToReviewBodySchema,
  signBodySchema,
  VERSION_STATE_LABELS,
  type VersionState,
  WORKFLOW_PROBLEM_HINTS,
  type WorkflowEvent,
  type WorkflowProblem,
  type WorkflowRequest,
  withdrawBodySchema,
} from '@portal/shared';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import type { ZodError } from 'zod';
import { ErrorNotice, LoadFailure, LoadingRows } from '../../../components/page-parts';
import { ColumnHeads } from '../../../components/shared-parts/ColumnHeads';
import { ApiError, messageFor } from '../../../lib/api';
import { formatDateLong, formatDateTime, formatDayLong } from '../../../lib/dates';
import { type FieldErrors, schemaFieldErrors, serverFieldErrors } from '../../../lib/field-errors';
import { useSession } from '../../../lib/session';
import { describeUserAgent } from '../../../lib/user-agent';
import {
  type DocumentAttestations,
  documentAttestationsCsvUrl,
  useDocumentAttestations,
} from '../api/get-document-attestations';
import { useWorkflow } from '../api/get-workflow';
import { useWorkflowStep, type WorkflowStep } from '../api/workflow-actions';
import { documentEditPage } from './document-format';
import { policyRoute } from './use-policy-project';

/**
 * The review, signature and reading workflow of one policy, under its header on the document page: where the working
 * version stands, who was asked and what they answered, why it cannot go on, the steps the signed-in user may take
 * (the server's `abilities`), their own attestation, the signature manifest and the history of the workflow.
 */
export function DocumentWorkflowPanel({
  projectId,
  document,
  onChooseDepartment,
}: {
  projectId: string;
  document: DocumentDetail;
  /** Opens the policy's settings, where its department is chosen (the fix of a policy without one). */
  onChooseDepartment?: () => void;
}) {
  const workflow = useWorkflow(projectId, document.id);
  if (workflow.data) {
    return (
      <WorkflowView
        projectId={projectId}
        document={document}
        workflow={workflow.data}
        onChooseDepartment={onChooseDepartment}
      />
    );
  }
  if (workflow.isError) {
    // Someone who may not see the workflow (or a server without it) simply sees the policy.
    if (workflow.error instanceof ApiError && [403, 404].includes(workflow.error.status)) return null;
    return (
      <LoadFailure
        error={workflow.error}
        fallback="The review and signature status could not be loaded. Please try again."
        retrying={workflow.isFetching}
        onRetry={() => void workflow.refetch()}
      />
    );
  }
  return <Skeleton height={132} radius="md" role="status" aria-label="Loading the review and signature status" />;
}

// ---------------------------------------------------------------- words and small formats

const STEPS: { state: VersionState; label: string }[] = [
  { state: 'draft', label: DOCUMENT_STATUS_LABELS.draft },
  { state: 'in_review', label: DOCUMENT_STATUS_LABELS.in_review },
  { state: 'pending_signature', label: DOCUMENT_STATUS_LABELS.pending_signature },
  { state: 'published', label: DOCUMENT_STATUS_LABELS.published },
];

const REQUEST_LABELS: Record<RequestStatus, { label: string; color: string }> = {
  pending: { label: 'Waiting', color: 'gray' },
  approved: { label: 'Approved', color: 'teal' },
  changes_requested: { label: 'Changes requested', color: 'orange' },
  signed: { label: 'Signed', color: 'teal' },
  declined: { label: 'Declined', color: 'red' },
  withdrawn: { label: 'Withdrawn', color: 'gray' },
};

export const EVENT_LABELS: Record<WorkflowEvent['action'], string> = {
  send_to_review: 'Sent for review',
  withdraw: 'Withdrawn from the workflow',
  approve: 'Approved',
  request_changes: 'Changes requested',
  sign: 'Signed',
  decline: 'Signature declined',
  published: 'Published',
  new_version: 'New version started',
  reassigned: 'Reviewers or signers changed',
};

const METHOD_LABELS: Record<Signature['method'], string> = { password: 'Password', totp: 'Authenticator code' };

/** The signatures table's device column is narrow: the whole user agent is in its title. */
const SIGNATURE_AGENT = { missing: 'Unknown', maxLength: 40 };

/** The start of a SHA-256 hex digest, enough to compare by eye. */
export function shortHash(hash: string, length: number): string {
  return hash.length > length ? `${hash.slice(0, length)}…` : hash;
}

/** The fingerprint of the working version, when a valid signature of it already tells it. */
function workingHash(workflow: DocumentWorkflow): string | null {
  const working = workflow.working_version;
  if (!working) return null;
  return workflow.signatures.find((item) => item.version_id === working.id && item.valid)?.content_sha256 ?? null;
}

// ---------------------------------------------------------------- the panel

interface ViewProps {
  projectId: string;
  document: DocumentDetail;
  workflow: DocumentWorkflow;
  onChooseDepartment?: () => void;
}

type DialogName = 'send' | 'withdraw' | 'approve' | 'changes' | 'decline' | 'sign';

function WorkflowView({ projectId, document, workflow, onChooseDepartment }: ViewProps) {
  const headingId = useId();
  const reasonsId = useId();
  const step = useWorkflowStep(projectId, document.id);
  const [dialog, setDialog] = useState<DialogName | null>(null);
  const { abilities, working_version: working } = workflow;
  const hasActions =
    abilities.send_to_review ||
    abilities.withdraw ||
    abilities.approve ||
    abilities.request_changes ||
    abilities.sign ||
    abilities.decline;
  const author = document.abilities.edit || abilities.send_to_review || abilities.withdraw;
  // The server refuses to send a draft while it has problems: the button says so beside it instead of failing.
  const sendBlocked = abilities.send_to_review && workflow.problems.length > 0;
  const reasons = (
    <ProblemList
      idPrefix={reasonsId}
      problems={workflow.problems}
      projectId={projectId}
      document={document}
      onChooseDepartment={onChooseDepartment}
    />
  );
  const close = () => setDialog(null);

  async function run(call: WorkflowStep, success: (after: DocumentWorkflow) => string) {
    const after = await step.mutateAsync(call);
    toast.success(success(after));
  }

  const versionNo = working?.version ?? 0;
  const versionId = working?.id ?? 0;

  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby={headingId}>
      <Stack gap="md">
        <Stack gap={4}>
          <Title order={2} fz="h4" id={headingId}>
            Review and sign-off
          </Title>
          <Text size="sm" c="dimmed">
            {summaryOf(workflow, document)}
          </Text>
        </Stack>

        <AttestationBox projectId={projectId} document={document} workflow={workflow} />

        {working && <Steps state={working.state} version={working.version} />}

        {author && !sendBlocked && workflow.problems.length > 0 && (
          <Alert color="yellow" variant="light" title="This version cannot go on yet">
            {reasons}
          </Alert>
        )}

        {(workflow.reviews.length > 0 || workflow.signature_requests.length > 0) && (
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
            <RequestList
              title={working && working.round > 1 ? `Reviewers (round ${working.round})` : 'Reviewers'}
              requests={workflow.reviews}
              empty="No reviewer was asked."
            />
            <RequestList
              title="Signers"
              note={
                workflow.settings.signatures_required === 'all'
                  ? 'Every signer asked must sign.'
                  : 'The first signature publishes the version.'
              }
              requests={workflow.signature_requests}
              empty={
                working?.state === 'pending_signature' ? 'No signer was asked.' : 'Asked once the reviewers approve.'
              }
            />
          </SimpleGrid>
        )}

        {working && hasActions && (
          <Group gap="sm" wrap="wrap" align="center">
            <Group gap="sm" wrap="wrap" role="group" aria-label="Workflow actions">
              {abilities.send_to_review &&
                (sendBlocked ? (
                  // Looks and acts disabled but stays focusable, so a keyboard reaches it and hears why.
                  <Button
                    data-disabled
                    aria-disabled="true"
                    aria-describedby={workflow.problems.map((_, index) => `${reasonsId}-${index}`).join(' ')}
                    onClick={(event) => event.preventDefault()}
                  >
                    Send for review
                  </Button>
                ) : (
                  <Button onClick={() => setDialog('send')}>Send for review</Button>
                ))}
              {abilities.approve && <Button onClick={() => setDialog('approve')}>Approve</Button>}
              {abilities.request_changes && (
                <Button variant="default" onClick={() => setDialog('changes')}>
                  Request changes
                </Button>
              )}
              {abilities.sign && <Button onClick={() => setDialog('sign')}>Sign</Button>}
              {abilities.decline && (
                <Button variant="default" onClick={() => setDialog('decline')}>
                  Decline
                </Button>
              )}
              {abilities.withdraw && (
                <Button variant="default" color="red.8" onClick={() => setDialog('withdraw')}>
                  Withdraw
                </Button>
              )}
            </Group>
            {sendBlocked && (
              <Box data-testid="send-blocked" miw={0} style={{ flex: '1 1 16rem' }}>
                {reasons}
              </Box>
            )}
          </Group>
        )}

        <Accordion multiple variant="separated" radius="md" chevronPosition="right">
          <Accordion.Item value="signatures">
            <Accordion.Control>
              Signatures ({workflow.published_signatures.length + workflow.signatures.length})
            </Accordion.Control>
            <Accordion.Panel>
              <SignatureManifest workflow={workflow} />
            </Accordion.Panel>
          </Accordion.Item>
          <Accordion.Item value="history">
            <Accordion.Control>Workflow history ({workflow.events.length})</Accordion.Control>
            <Accordion.Panel>
              <WorkflowHistory events={workflow.events} />
            </Accordion.Panel>
          </Accordion.Item>
        </Accordion>
      </Stack>

      <CommentDialog
        opened={dialog === 'send'}
        title={`Send version ${versionNo} for review`}
        intro="The reviewers of the policy's department are asked to approve it or to request changes."
        label="Comment for the reviewers"
        confirmLabel="Send for review"
        fallback="The version could not be sent for review. Please try again."
        validate={(comment) => sendToReviewBodySchema.safeParse({ comment })}
        onSubmit={(comment) =>
          run(
            { step: 'send-to-review', body: comment ? { comment } : {} },
            () => `Version ${versionNo} was sent for review.`,
          )
        }
        onClose={close}
      />
      <CommentDialog
        opened={dialog === 'withdraw'}
        title={`Withdraw version ${versionNo}?`}
        intro="The version goes back to draft. Open reviews and signature requests are withdrawn, and signatures already given become void."
        label="Why are you withdrawing it?"
        required
        danger
        confirmLabel="Withdraw"
        fallback="The version could not be withdrawn. Please try again."
        validate={(comment) => withdrawBodySchema.safeParse({ comment })}
        onSubmit={(comment) =>
          run({ step: 'withdraw', body: { comment } }, () => `Version ${versionNo} is a draft again.`)
        }
        onClose={close}
      />
      <CommentDialog
        opened={dialog === 'approve'}
        title={`Approve version ${versionNo}`}
        intro="Once every reviewer asked has approved, the signers are asked to sign."
        label="Comment (optional)"
        confirmLabel="Approve"
        fallback="Your approval could not be saved. Please try again."
        validate={(comment) => sendToReviewBodySchema.safeParse({ comment })}
        onSubmit={(comment) =>
          run({ step: 'review', body: { decision: 'approve', comment } }, () => `You approved version ${versionNo}.`)
        }
        onClose={close}
      />
      <CommentDialog
        opened={dialog === 'changes'}
        title={`Request changes to version ${versionNo}`}
        intro="The version goes back to its author as a draft, with your comment."
        label="What needs to change?"
        required
        confirmLabel="Request changes"
        fallback="Your request could not be saved. Please try again."
        validate={(comment) => withdrawBodySchema.safeParse({ comment })}
        onSubmit={(comment) =>
          run(
            { step: 'review', body: { decision: 'request_changes', comment } },
            () => `Version ${versionNo} was sent back to its author.`,
          )
        }
        onClose={close}
      />
      <CommentDialog
        opened={dialog === 'decline'}
        title={`Decline to sign version ${versionNo}`}
        intro="The version goes back to its author as a draft, with your comment. Signatures already given become void."
        label="Why do you decline?"
        required
        danger
        confirmLabel="Decline"
        fallback="Your answer could not be saved. Please try again."
        validate={(comment) => withdrawBodySchema.safeParse({ comment })}
        onSubmit={(comment) =>
          run(
            { step: 'decline', body: { version_id: versionId, comment } },
            () => `You declined to sign version ${versionNo}.`,
          )
        }
        onClose={close}
      />
      <SignDialog
        opened={dialog === 'sign'}
        documentTitle={documentName(document)}
        version={versionNo}
        hash={workingHash(workflow)}
        onSign={(credential) =>
          run({ step: 'sign', body: { version_id: versionId, ...credential } }, (after) =>
            after.current_version?.version === versionNo
              ? `Version ${versionNo} is signed and published.`
              : `You signed version ${versionNo}.`,
          )
        }
        onClose={close}
      />
    </Paper>
  );
}

/** Each reason the version cannot go on, with its fix one click away or, for someone who cannot fix it, who can. */
function ProblemList({
  idPrefix,
  problems,
  projectId,
  document,
  onChooseDepartment,
}: {
  idPrefix: string;
  problems: WorkflowProblem[];
  projectId: string;
  document: DocumentDetail;
  onChooseDepartment?: () => void;
}) {
  return (
    <Stack gap={4}>
      {problems.map((problem, index) => (
        <Text size="sm" key={`${problem.kind}-${problem.message}`} data-problem={problem.kind}>
          <span id={`${idPrefix}-${index}`}>{problem.message}</span>{' '}
          <ProblemFix
            problem={problem}
            projectId={projectId}
            document={document}
            onChooseDepartment={onChooseDepartment}
          />
        </Text>
      ))}
    </Stack>
  );
}

function ProblemFix({
  problem,
  projectId,
  document,
  onChooseDepartment,
}: {
  problem: WorkflowProblem;
  projectId: string;
  document: DocumentDetail;
  onChooseDepartment?: () => void;
}) {
  const hint = WORKFLOW_PROBLEM_HINTS[problem.kind];
  const link = (to: string, label: string) => (
    <Anchor component={Link} to={to} size="sm" underline="always" fw={600}>
      {label}
    </Anchor>
  );
  if (problem.can_fix) {
    if (problem.kind === 'no_reviewers' && problem.department) {
      return link(policyRoute(projectId, `department-reviewers/${problem.department.id}`), 'Assign reviewers');
    }
    if (problem.kind === 'no_signers' && problem.department) {
      return link(policyRoute(projectId, `department-signers/${problem.department.id}`), 'Assign signers');
    }
    if (problem.kind === 'template_fields' && document.abilities.edit) {
      return link(documentEditPage(projectId, document.id), 'Edit the text');
    }
    if (problem.kind === 'no_department' && onChooseDepartment && document.abilities.edit) {
      return (
        <Anchor component="button" type="button" size="sm" underline="always" fw={600} onClick={onChooseDepartment}>
          Choose a department
        </Anchor>
      );
    }
  }
  return hint ? <span>{hint}</span> : null;
}

function summaryOf(workflow: DocumentWorkflow, document: DocumentDetail): string {
  const { working_version: working, current_version: current } = workflow;
  if (workflow.status === 'archived') return 'This policy is archived: nothing moves in its workflow.';
  if (working) {
    const state = VERSION_STATE_LABELS[working.state].toLowerCase();
    const by = working.author ? ` by ${working.author.name}` : '';
    const keep = current ? ` Readers keep version ${current.version} until it is published.` : '';
    return `Version ${working.version}${by} is ${working.state === 'draft' ? 'a draft' : state}.${keep}`;
  }
  if (current) {
    const effective = current.effective_on ? `, effective ${formatDayLong(current.effective_on)}` : '';
    return `Version ${current.version} is in force${effective}. No new version is being prepared.`;
  }
  return document.draft_version ? 'The draft is being written.' : 'This policy has no version yet.';
}

// ---------------------------------------------------------------- steps

function Steps({ state, version }: { state: VersionState; version: number }) {
  const at = STEPS.findIndex((item) => item.state === state);
  return (
    <Box
      component="ol"
      aria-label={`Steps of version ${version}`}
      m={0}
      p={0}
      style={{
        listStyle: 'none',
        display: 'grid',
        gap: 'var(--mantine-spacing-xs)',
        gridTemplateColumns: 'repeat(auto-fit, minmax(9rem, 1fr))',
      }}
    >
      {STEPS.map((item, index) => {
        const done = index < at;
        const now = index === at;
        return (
          <Group
            key={item.state}
            component="li"
            gap="xs"
            wrap="nowrap"
            aria-current={now ? 'step' : undefined}
            data-step={item.state}
            p={6}
            style={{
              borderRadius: 'var(--mantine-radius-sm)',
              background: now ? 'var(--mantine-primary-color-light)' : undefined,
            }}
          >
            <ThemeIcon
              radius="xl"
              size="md"
              color={done ? 'teal.8' : now ? 'blue.8' : 'gray.3'}
              c={done || now ? 'white' : 'dark.6'}
              aria-hidden
            >
              <Text span size="xs" fw={700} inherit>
                {done ? '✓' : index + 1}
              </Text>
            </ThemeIcon>
            <Text size="sm" fw={now ? 700 : 400} c={done || now ? undefined : 'dimmed'}>
              {item.label}
              <Box component="span" style={visuallyHidden}>
                {done ? ' (done)' : now ? ' (current step)' : ''}
              </Box>
            </Text>
          </Group>
        );
      })}
    </Box>
  );
}

const visuallyHidden = {
  position: 'absolute',
  width: 1,
  height: 1,
  padding: 0,
  margin: -1,
  overflow: 'hidden',
  clip: 'rect(0, 0, 0, 0)',
  whiteSpace: 'nowrap',
  border: 0,
} as const;

// ---------------------------------------------------------------- requests

function RequestList({
  title,
  note,
  requests,
  empty,
}: {
  title: string;
  note?: string;
  requests: WorkflowRequest[];
  empty: string;
}) {
  return (
    <Stack gap="xs">
      <Stack gap={0}>
        <Title order={3} fz="sm" fw={700}>
          {title}
        </Title>
        {note && (
          <Text size="xs" c="dimmed">
            {note}
          </Text>
        )}
      </Stack>
      {requests.length === 0 ? (
        <Text size="sm" c="dimmed">
          {empty}
        </Text>
      ) : (
        <Stack component="ul" gap="xs" m={0} p={0} style={{ listStyle: 'none' }} aria-label={title}>
          {requests.map((request) => {
            const status = REQUEST_LABELS[request.status];
            return (
              <Stack component="li" key={request.id} gap={2} data-request-id={request.id}>
                <Group gap="xs" wrap="wrap">
                  <Text size="sm" fw={600}>
                    {request.person.name}
                  </Text>
                  <Badge color={status.color} variant="light" c="dark.8" radius="sm">
                    {status.label}
                  </Badge>
                  {request.decided_at && (
                    <Text size="xs" c="dimmed">
                      {formatDateTime(request.decided_at)}
                    </Text>
                  )}
                </Group>
                {request.comment && <Quote>{request.comment}</Quote>}
              </Stack>
            );
          })}
        </Stack>
      )}
    </Stack>
  );
}

function Quote({ children }: { children: ReactNode }) {
  return (
    <Text
      size="sm"
      pl="sm"
      style={{ borderLeft: '3px solid var(--mantine-color-gray-4)', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
    >
      {children}
    </Text>
  );
}

// ---------------------------------------------------------------- attestation

function AttestationBox({ projectId, document, workflow }: ViewProps) {
  const step = useWorkflowStep(projectId, document.id);
  const [failure, setFailure] = useState<string | null>(null);
  const { attestation, current_version: current } = workflow;
  if (!attestation) return null;
  const version = current && current.id === attestation.version_id ? current.version : null;
  const named = version === null ? 'the current version' : `version ${version}`;

  if (attestation.attested_at) {
    return (
      <Text size="sm" c="dimmed" data-testid="attested">
        ✓ You attested {named} on {formatDateLong(attestation.attested_at)}.
      </Text>
    );
  }
  if (!workflow.abilities.attest) return null;

  async function attest() {
    if (!attestation || step.isPending) return;
    setFailure(null);
    try {
      await step.mutateAsync({ step: 'attest', body: { version_id: attestation.version_id } });
      toast.success(`Thank you. Your reading of ${named} is recorded.`);
    } catch (error) {
      setFailure(messageFor(error, 'Your attestation could not be saved. Please try again.'));
    }
  }

  return (
    <Alert
      color="blue"
      variant="light"
      title={attestation.required ? 'Please read this policy and confirm' : 'Confirm that you read this policy'}
    >
      <Stack gap="sm" align="flex-start">
        <Text size="sm">
          {attestation.required
            ? `You are asked to read ${named} of this policy. Once you have read it, confirm it here.`
            : `You may confirm that you read ${named} of this policy.`}
        </Text>
        <Button onClick={() => void attest()} loading={step.isPending} style={{ whiteSpace: 'normal', height: 'auto' }}>
          <Text span inherit py={8}>
            {ATTESTATION_STATEMENT.replace(/\.$/, '')}
          </Text>
        </Button>
        {failure && (
          <Text size="sm" c="red.8" role="alert">
            {failure}
          </Text>
        )}
      </Stack>
    </Alert>
  );
}

// ---------------------------------------------------------------- dialogs

interface CommentDialogProps {
  opened: boolean;
  title: string;
  intro: string;
  label: string;
  required?: boolean;
  danger?: boolean;
  confirmLabel: string;
  fallback: string;
  validate: (comment: string) => { success: true } | { success: false; error: ZodError };
  onSubmit: (comment: string) => Promise<void>;
  onClose: () => void;
}

/** A step that takes a comment (optional or required): the comment, its errors, and the server's refusal. */
function CommentDialog(props: CommentDialogProps) {
  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title={props.title}
      centered
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {/* Mounted only while open: every opening starts empty. */}
      {props.opened && <CommentForm {...props} />}
    </Modal>
  );
}

function CommentForm({
  intro,
  label,
  required,
  danger,
  confirmLabel,
  fallback,
  validate,
  onSubmit,
  onClose,
}: CommentDialogProps) {
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setFailure(null);
    const parsed = validate(comment);
    if (!parsed.success) {
      setError(schemaFieldErrors<'comment'>(parsed.error).comment ?? parsed.error.issues[0]?.message);
      return;
    }
    setBusy(true);
    try {
      await onSubmit(comment.trim());
      onClose();
    } catch (caught) {
      const fields = serverFieldErrors(caught, ['comment'] as const);
      setError(fields.comment);
      if (!fields.comment) setFailure(messageFor(caught, fallback));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="md">
        <Text size="sm">{intro}</Text>
        <ErrorNotice message={failure} />
        <Textarea
          label={label}
          withAsterisk={required}
          rows={4}
          resize="vertical"
          maxLength={2000}
          value={comment}
          onChange={(event) => {
            setComment(event.currentTarget.value);
            setError(undefined);
          }}
          error={error}
          data-autofocus
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={busy} color={danger ? 'red.8' : undefined}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** How a signer confirms who they are: the password, or (with two-factor on) an authenticator code. */
export type CredentialMethod = 'password' | 'code';
export interface CredentialValues {
  method: CredentialMethod;
  password: string;
  code: string;
}
export const NO_CREDENTIALS: CredentialValues = { method: 'password', password: '', code: '' };

/** The body part of the credentials: exactly one of password and code. */
export function credentialOf(values: CredentialValues): { password: string } | { code: string } {
  return values.method === 'code' ? { code: values.code.trim() } : { password: values.password };
}

/** Whether the signed-in user has an authenticator app set up (then they may sign with a code). */
export function useHasTwoFactor(): boolean {
  const session = useSession();
  return session.status === 'signed-in' && session.user.two_factor_confirmed_at !== null;
}

/** The password or code fields of a signature, with the switch between them when the user has two-factor. */
export function CredentialFields({
  values,
  onChange,
  errors,
}: {
  values: CredentialValues;
  onChange: (values: CredentialValues) => void;
  errors: FieldErrors<'password' | 'code'>;
}) {
  const twoFactor = useHasTwoFactor();
  const method = twoFactor ? values.method : 'password';
  return (
    <Stack gap="sm">
      {twoFactor && (
        <Stack gap={4}>
          <Text size="sm" fw={500} id="credential-method-label">
            Confirm with
          </Text>
          <SegmentedControl
            aria-labelledby="credential-method-label"
            value={method}
            onChange={(next) => onChange({ ...values, method: next as CredentialMethod })}
            data={[
              { value: 'password', label: 'Password' },
              { value: 'code', label: 'Authenticator app' },
            ]}
            style={{ alignSelf: 'flex-start' }}
          />
        </Stack>
      )}
      {method === 'password' ? (
        <PasswordInput
          label="Password"
          description="Your signature needs your password again."
          autoComplete="current-password"
          withAsterisk
          value={values.password}
          onChange={(event) => onChange({ ...values, password: event.currentTarget.value })}
          error={errors.password}
          data-autofocus
        />
      ) : (
        <TextInput
          label="Authenticator code"
          description="The 6-digit code your authenticator app shows now."
          autoComplete="one-time-code"
          inputMode="numeric"
          maxLength={6}
          withAsterisk
          value={values.code}
          onChange={(event) => onChange({ ...values, code: event.currentTarget.value.replace(/\D/g, '') })}
          error={errors.code}
          data-autofocus
        />
      )}
    </Stack>
  );
}

/** The statement a signer agrees to, as it is stored with the signature. */
export function SignatureMeaning({ children }: { children?: ReactNode }) {
  return (
    <Paper withBorder radius="sm" p="sm" bg="gray.0">
      <Stack gap={4}>
        <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
          By signing you state
        </Text>
        <Text fw={600}>{SIGNATURE_MEANING}</Text>
        {children}
      </Stack>
    </Paper>
  );
}

interface SignDialogProps {
  opened: boolean;
  documentTitle: string;
  version: number;
  hash: string | null;
  onSign: (credential: { password: string } | { code: string }) => Promise<void>;
  onClose: () => void;
}

function SignDialog(props: SignDialogProps) {
  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title={`Sign version ${props.version}`}
      centered
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {props.opened && <SignForm {...props} />}
    </Modal>
  );
}

function SignForm({ documentTitle, version, hash, onSign, onClose }: SignDialogProps) {
  const [values, setValues] = useState<CredentialValues>(NO_CREDENTIALS);
  const [errors, setErrors] = useState<FieldErrors<'password' | 'code'>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const twoFactor = useHasTwoFactor();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setFailure(null);
    const credential = credentialOf(twoFactor ? values : { ...values, method: 'password' });
    const parsed = signBodySchema.safeParse({ version_id: 1, ...credential });
    if (!parsed.success) {
      const found = schemaFieldErrors<'password' | 'code'>(parsed.error);
      setErrors('code' in credential ? { code: found.code ?? found.password } : { password: found.password });
      return;
    }
    setBusy(true);
    try {
      await onSign(credential);
      onClose();
    } catch (error) {
      const fields = serverFieldErrors(error, ['password', 'code'] as const);
      setErrors(fields);
      if (!fields.password && !fields.code) {
        setFailure(messageFor(error, 'Your signature could not be saved. Please try again.'));
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="md">
        <Text size="sm">
          You are signing version {version} of “{documentTitle}”.
        </Text>
        <SignatureMeaning>
          {hash && (
            <Text size="xs" c="dimmed">
              Fingerprint of the text (SHA-256):{' '}
              <Text span ff="monospace" size="xs" c="dark.8" title={hash}>
                {shortHash(hash, 12)}
              </Text>
            </Text>
          )}
        </SignatureMeaning>
        <ErrorNotice message={failure} />
        <CredentialFields
          values={values}
          onChange={(next) => {
            setValues(next);
            setErrors({});
          }}
          errors={errors}
        />
        <Text size="xs" c="dimmed">
          Your signature is kept with your name, the time, your IP address and browser, and the fingerprint of the text
          you signed.
        </Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            Sign version {version}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

// ---------------------------------------------------------------- signatures and history

function SignatureManifest({ workflow }: { workflow: DocumentWorkflow }) {
  const current = workflow.current_version;
  const working = workflow.working_version;
  if (workflow.published_signatures.length === 0 && workflow.signatures.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No signatures yet.
      </Text>
    );
  }
  return (
    <Stack gap="lg">
      {workflow.published_signatures.length > 0 && (
        <SignatureTable
          title={current ? `Version ${current.version} (current)` : 'Current version'}
          signatures={workflow.published_signatures}
        />
      )}
      {workflow.signatures.length > 0 && (
        <SignatureTable
          title={working ? `Version ${working.version} (${VERSION_STATE_LABELS[working.state]})` : 'Working version'}
          signatures={workflow.signatures}
        />
      )}
    </Stack>
  );
}

function SignatureTable({ title, signatures }: { title: string; signatures: Signature[] }) {
  const meanings = [...new Set(signatures.map((item) => item.meaning))];
  return (
    <Stack gap="xs">
      <Title order={3} fz="sm" fw={700}>
        {title}
      </Title>
      <Table.ScrollContainer minWidth={860}>
        <Table verticalSpacing="xs" fz="sm" aria-label={`Signatures of ${title}`}>
          <ColumnHeads
            columns={['Signer', 'Signed', 'Method', 'IP address', 'Browser', 'Fingerprint (SHA-256)', 'Status']}
          />
          <Table.Tbody>
            {signatures.map((signature) => (
              <Table.Tr key={signature.id} data-signature-id={signature.id}>
                <Table.Td fw={600}>{signature.signer.name}</Table.Td>
                <Table.Td>{formatDateTime(signature.signed_at)}</Table.Td>
                <Table.Td>{METHOD_LABELS[signature.method]}</Table.Td>
                <Table.Td ff="monospace">{signature.ip ?? '—'}</Table.Td>
                <Table.Td title={signature.user_agent ?? undefined}>
                  {describeUserAgent(signature.user_agent, SIGNATURE_AGENT)}
                </Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    <Text span ff="monospace" size="sm" title={signature.content_sha256} data-hash>
                      {shortHash(signature.content_sha256, 16)}
                    </Text>
                    <CopyButton value={signature.content_sha256}>
                      {({ copied, copy }) => (
                        <Tooltip label={copied ? 'Copied' : 'Copy the whole fingerprint'} withArrow>
                          <Button
                            variant="subtle"
                            size="compact-xs"
                            onClick={copy}
                            aria-label={`Copy the fingerprint of ${signature.signer.name}'s signature`}
                          >
                            {copied ? 'Copied' : 'Copy'}
                          </Button>
                        </Tooltip>
                      )}
                    </CopyButton>
                  </Group>
                </Table.Td>
                <Table.Td>
                  <SignatureStatus signature={signature} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Text size="xs" c="dimmed">
        {meanings.length === 1 ? `Each signer stated: “${meanings[0]}”` : 'Signers stated: '}
        {meanings.length > 1 && meanings.map((meaning) => `“${meaning}”`).join(' ')}
      </Text>
    </Stack>
  );
}

function SignatureStatus({ signature }: { signature: Signature }) {
  if (signature.voided_at) {
    return (
      <Stack gap={2}>
        <Badge color="gray" variant="light" c="dark.8" radius="sm">
          Void
        </Badge>
        <Text size="xs" c="dimmed">
          {formatDateTime(signature.voided_at)}
          {signature.void_reason ? `: ${signature.void_reason}` : ''}
        </Text>
      </Stack>
    );
  }
  if (!signature.valid) {
    return (
      <Stack gap={2}>
        <Badge color="red" variant="light" c="red.9" radius="sm">
          Not valid
        </Badge>
        <Text size="xs" c="dimmed">
          The text no longer matches the fingerprint.
        </Text>
      </Stack>
    );
  }
  return (
    <Badge color="teal" variant="light" c="dark.8" radius="sm">
      Valid
    </Badge>
  );
}

function WorkflowHistory({ events }: { events: WorkflowEvent[] }) {
  if (events.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        Nothing has happened in the workflow yet.
      </Text>
    );
  }
  const newest = [...events].sort((a, b) => b.at.localeCompare(a.at) || b.id - a.id);
  return (
    <Stack component="ol" gap="sm" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Workflow history">
      {newest.map((event) => (
        <Stack
          component="li"
          key={event.id}
          gap={2}
          pl="sm"
          data-event={event.action}
          style={{ borderLeft: '3px solid var(--mantine-color-blue-2)' }}
        >
          <Group gap="xs" wrap="wrap">
            <Text size="sm" fw={600}>
              {EVENT_LABELS[event.action]}
            </Text>
            <Text size="xs" c="dimmed">
              Version {event.version} · {event.actor?.name ?? 'The system'} · {formatDateTime(event.at)}
            </Text>
          </Group>
          {event.comment && <Quote>{event.comment}</Quote>}
        </Stack>
      ))}
    </Stack>
  );
}

// ---------------------------------------------------------------- the readers report (Readers tab)

/** Percent of a 0-1 rate, whole numbers ('67%'). */
export function percent(rate: number): string {
  return `${Math.round(rate * 100)}%`;
}

/**
 * The Readers tab of a policy (section attestation-reports): who must read the current version, who attested it
 * and when, who still has to, and who attested without being a reader; with the CSV download.
 */
export function DocumentAttestationReport({ projectId, documentId }: { projectId: string; documentId: number }) {
  const report = useDocumentAttestations(projectId, documentId);
  if (report.isPending) return <LoadingRows label="Loading the readers" />;
  if (report.isError) {
    return (
      <LoadFailure
        error={report.error}
        fallback="The readers could not be loaded. Please try again."
        retrying={report.isFetching}
        onRetry={() => void report.refetch()}
      />
    );
  }
  return <ReportView projectId={projectId} documentId={documentId} report={report.data} />;
}

type ReaderFilter = 'all' | 'pending' | 'attested';

function ReportView({
  projectId,
  documentId,
  report,
}: {
  projectId: string;
  documentId: number;
  report: DocumentAttestations;
}) {
  const [filter, setFilter] = useState<ReaderFilter>('all');
  if (!report.version) {
    return (
      <Paper withBorder radius="md" p="lg">
        <Text c="dimmed">This policy has no published version yet, so nobody has anything to read.</Text>
      </Paper>
    );
  }
  const version = report.version.version;
  const readers = [...report.readers]
    .filter((reader) =>
      filter === 'all' ? true : filter === 'attested' ? reader.attested_at !== null : reader.attested_at === null,
    )
    .sort(
      (a, b) =>
        Number(a.attested_at !== null) - Number(b.attested_at !== null) || a.person.name.localeCompare(b.person.name),
    );

  return (
    <Stack gap="lg">
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
        <Stack gap="sm">
          <Group justify="space-between" gap="sm" wrap="wrap">
            <Title order={2} fz="h4">
              Readers of version {version}
            </Title>
            <Button component="a" href={documentAttestationsCsvUrl(projectId, documentId)} download variant="default">
              Download CSV
            </Button>
          </Group>
          {report.required === 0 ? (
            <Text size="sm" c="dimmed">
              No readers: {report.document.department ? `${report.document.department.name} has` : 'this policy has'}{' '}
              nobody who must read it.
            </Text>
          ) : (
            <>
              <Text size="sm" data-testid="attestation-summary">
                {report.attested} of {report.required} readers attested version {version}
                {report.version.effective_on ? `, effective ${formatDayLong(report.version.effective_on)}` : ''} (
                {percent(report.rate ?? report.attested / report.required)}).
              </Text>
              <Progress
                value={(report.rate ?? report.attested / report.required) * 100}
                color="teal.8"
                aria-label={`Attested: ${percent(report.rate ?? report.attested / report.required)}`}
              />
            </>
          )}
        </Stack>
      </Paper>

      {report.readers.length > 0 && (
        <Stack gap="sm">
          <SegmentedControl
            aria-label="Show readers"
            value={filter}
            onChange={(next) => setFilter(next as ReaderFilter)}
            data={[
              { value: 'all', label: `All (${report.readers.length})` },
              {
                value: 'pending',
                label: `Not yet (${report.readers.filter((reader) => reader.attested_at === null).length})`,
              },
              {
                value: 'attested',
                label: `Attested (${report.readers.filter((reader) => reader.attested_at).length})`,
              },
            ]}
            style={{ alignSelf: 'flex-start', maxWidth: '100%' }}
          />
          <Paper withBorder radius="md" p={0}>
            <Table.ScrollContainer minWidth={620}>
              <Table verticalSpacing="sm" striped aria-label="Readers">
                <ColumnHeads columns={['Name', 'Email', 'Attested', 'Last version read']} />
                <Table.Tbody>
                  {readers.map((reader) => (
                    <Table.Tr key={reader.person.id} data-reader-id={reader.person.id}>
                      <Table.Td fw={600}>{reader.person.name}</Table.Td>
                      <Table.Td style={{ overflowWrap: 'anywhere' }}>{reader.person.email}</Table.Td>
                      <Table.Td>
                        {reader.attested_at ? (
                          formatDateTime(reader.attested_at)
                        ) : (
                          <Badge color="orange" variant="light" c="dark.8" radius="sm">
                            Not yet
                          </Badge>
                        )}
                      </Table.Td>
                      <Table.Td>
                        {reader.last_attested_version === null ? '—' : `Version ${reader.last_attested_version}`}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Paper>
        </Stack>
      )}

      {report.others.length > 0 && (
        <Stack gap="xs">
          <Title order={3} fz="sm" fw={700}>
            Also read by
          </Title>
          <Text size="sm" c="dimmed">
            People who are not readers of the department but attested version {version}.
          </Text>
          <List size="sm" spacing={2} aria-label="Also read by">
            {report.others.map((other) => (
              <List.Item key={other.person.id}>
                {other.person.name}{' '}
                <Text span size="xs" c="dimmed">
                  · {formatDateTime(other.attested_at)}
                </Text>
              </List.Item>
            ))}
          </List>
        </Stack>
      )}
    </Stack>
  );
}
