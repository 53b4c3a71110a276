import {
  Alert,
  Anchor,
  Badge,
  Button,
  Checkbox,
  Group,
  Modal,
  Paper,
  Progress,
  Stack,
  Table,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import {
  ATTESTATION_STATEMENT,
  BULK_CHUNK,
  BULK_MAX_ITEMS,
  type BulkAction,
  bulkSignAuthorizeSchema,
  documentName,
  SIGNING_BATCH_MINUTES,
  VERSION_STATE_LABELS,
} from '@portal/shared';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { ErrorNotice, LoadFailure, LoadingRows, PageHeading } from '../../../components/page-parts';
import { ColumnHeads } from '../../../components/shared-parts/ColumnHeads';
import { messageFor } from '../../../lib/api';
import { type FieldErrors, schemaFieldErrors, serverFieldErrors } from '../../../lib/field-errors';
import { usePageTitle } from '../../../lib/use-page-title';
import {
  authorizeBulkSign,
  type BulkCandidate,
  type BulkResult,
  type BulkSignToken,
  runBulkInChunks,
  type SigningCredential,
  useBulkCandidates,
} from '../api/bulk-actions';
import { invalidatePolicies } from '../api/keys';
import {
  CredentialFields,
  type CredentialValues,
  credentialOf,
  NO_CREDENTIALS,
  SignatureMeaning,
  useHasTwoFactor,
} from './DocumentWorkflowPanel';
import { documentPage } from './document-format';
import { usePolicyProjectId } from './use-policy-project';

/** '1 policy', '12 policies'. */
export function policies(count: number): string {
  return count === 1 ? '1 policy' : `${count.toLocaleString('en-US')} policies`;
}

interface ActionCopy {
  title: string;
  intro: string;
  empty: string;
  /** The primary button for `n` chosen policies. */
  start: (n: number) => string;
  confirmTitle: string;
  /** What the confirmation asks, for `n` policies. */
  confirm: (n: number) => ReactNode;
  confirmLabel: (n: number) => string;
  /** The progress line while it runs. */
  working: string;
  /** The toast once every policy went through. */
  finished: (n: number) => string;
}

export const BULK_COPY: Record<BulkAction, ActionCopy> = {
  sign: {
    title: 'Sign policies',
    intro:
      'Policies waiting for your signature. Choose them, confirm once with your password or authenticator code, and each one is signed on its own.',
    empty: 'No policies wait for your signature.',
    start: (n) => `Sign ${policies(n)}`,
    confirmTitle: 'Sign the chosen policies',
    confirm: (n) => `You are signing the version shown for each of the ${policies(n)} you chose.`,
    confirmLabel: (n) => `Sign ${policies(n)}`,
    working: 'Signing',
    finished: (n) => `${policies(n)} signed.`,
  },
  'send-to-sign': {
    title: 'Send policies for review and signature',
    intro:
      "Drafts you may send into the approval chain: each goes to its department's reviewers first, then to its signers.",
    empty: 'No drafts are ready to send for review.',
    start: (n) => `Send ${policies(n)} for review`,
    confirmTitle: 'Send the chosen policies for review',
    confirm: (n) =>
      `The reviewers of each policy's department are asked to review it. ${n === 1 ? 'The draft' : 'The drafts'} cannot be edited until they come back.`,
    confirmLabel: (n) => `Send ${policies(n)}`,
    working: 'Sending',
    finished: (n) => `${policies(n)} sent for review.`,
  },
  read: {
    title: 'Read and attest policies',
    intro: 'Published policies waiting for you to read them. Open and read each one, then confirm them here together.',
    empty: 'No policies wait for you to read them.',
    start: (n) => `Attest ${policies(n)}`,
    confirmTitle: 'Attest the chosen policies',
    confirm: (n) => (
      <>
        For each of the {policies(n)} you chose, you state: <strong>{ATTESTATION_STATEMENT}</strong>
      </>
    ),
    confirmLabel: (n) => `Attest ${policies(n)}`,
    working: 'Recording',
    finished: (n) => `${policies(n)} attested.`,
  },
  'new-version': {
    title: 'Start new versions',
    intro:
      'Published policies you may revise. A new version opens as a draft holding the current text; readers keep the current version until the new one is published.',
    empty: 'No published policies to start a new version of.',
    start: (n) => `Start new versions of ${policies(n)}`,
    confirmTitle: 'Start new versions',
    confirm: (n) => `A draft holding the current text is opened for each of the ${policies(n)} you chose.`,
    confirmLabel: (n) => `Start ${n === 1 ? '1 new version' : `${n.toLocaleString('en-US')} new versions`}`,
    working: 'Starting',
    finished: (n) => `New versions started for ${policies(n)}.`,
  },
};

const OUTCOMES: Record<BulkResult['outcome'], { label: string; color: string; text: string }> = {
  done: { label: 'Done', color: 'teal', text: 'dark.8' },
  already_done: { label: 'Already done', color: 'gray', text: 'dark.8' },
  failed: { label: 'Failed', color: 'red', text: 'red.9' },
};

/** A batch token still good for a little while (the server refuses it at expiry: leave a margin). */
function usable(token: BulkSignToken | null): token is BulkSignToken {
  return token !== null && new Date(token.expires_at).getTime() - Date.now() > 15_000;
}

/**
 * /app/policy_management/{projectId}/bulk-{sign|send-to-sign|read|new-version}: the policies the user may do the
 * action on, chosen with checkboxes, confirmed once (for signing with the password or an authenticator code), sent
 * in chunks of BULK_CHUNK with progress, then each policy's result with a retry of the failed ones.
 */
export function BulkActionPage({ action }: { action: BulkAction }) {
  // A fresh screen per action: nothing chosen or run on one carries over to another.
  return <BulkScreen key={action} action={action} />;
}

function BulkScreen({ action }: { action: BulkAction }) {
  const copy = BULK_COPY[action];
  usePageTitle(copy.title);
  const projectId = usePolicyProjectId();
  const queryClient = useQueryClient();
  const candidates = useBulkCandidates(projectId, action);
  const [chosen, setChosen] = useState<ReadonlySet<number>>(new Set());
  // The policies of this visit's runs, in order, with what each looked like when it was sent.
  const [sent, setSent] = useState<BulkCandidate[]>([]);
  const [results, setResults] = useState<ReadonlyMap<number, BulkResult>>(new Map());
  const [progress, setProgress] = useState<{ answered: number; total: number } | null>(null);
  const [confirming, setConfirming] = useState<number[] | null>(null);
  const token = useRef<BulkSignToken | null>(null);
  const abort = useRef<AbortController | null>(null);

  useEffect(() => () => abort.current?.abort(), []);

  const list = candidates.data ?? [];
  const selected = list.filter((item) => chosen.has(item.id)).map((item) => item.id);
  const running = progress !== null;
  const showResults = sent.length > 0;

  async function run(ids: number[]) {
    const known = new Map([...sent, ...list].map((item) => [item.id, item]));
    setSent((previous) => {
      const have = new Set(previous.map((item) => item.id));
      return [...previous, ...ids.filter((id) => !have.has(id)).map((id) => known.get(id) ?? unknown(id))];
    });
    setProgress({ answered: 0, total: ids.length });
    const controller = new AbortController();
    abort.current = controller;
    const outcome = await runBulkInChunks({
      projectId,
      action,
      documentIds: ids,
      batchToken: action === 'sign' ? token.current?.batch_token : undefined,
      signal: controller.signal,
      onChunk: (answered, count) => {
        if (controller.signal.aborted) return;
        setResults((previous) => {
          const next = new Map(previous);
          for (const result of answered) next.set(result.document_id, result);
          return next;
        });
        setProgress({ answered: count, total: ids.length });
      },
    });
    if (controller.signal.aborted) return;
    if (outcome.expired) token.current = null;
    setProgress(null);
    setChosen(new Set());
    void invalidatePolicies(queryClient, projectId);
    const failed = outcome.results.filter((result) => result.outcome === 'failed').length;
    if (failed === 0) toast.success(copy.finished(outcome.results.length));
  }

  function begin(ids: number[]) {
    if (ids.length === 0 || running) return;
    // A retry goes at once: the user confirmed these policies already. Signing needs the credentials again only
    // when the batch token of this visit is no longer good.
    if (showResults && (action !== 'sign' || usable(token.current))) {
      void run(ids);
      return;
    }
    setConfirming(ids);
  }

  async function confirm(credential: SigningCredential | null) {
    const ids = confirming ?? [];
    if (action === 'sign') {
      if (!credential) return;
      token.current = await authorizeBulkSign(projectId, ids, credential);
    }
    setConfirming(null);
    void run(ids);
  }

  function startOver() {
    setSent([]);
    setResults(new Map());
    setChosen(new Set());
    void candidates.refetch();
  }

  let body: ReactNode;
  if (showResults) {
    body = (
      <ResultsView
        projectId={projectId}
        sent={sent}
        results={results}
        progress={progress}
        working={copy.working}
        onRetry={begin}
        onStartOver={startOver}
      />
    );
  } else if (candidates.isPending) {
    body = <LoadingRows label="Loading the policies" />;
  } else if (candidates.isError) {
    body = (
      <LoadFailure
        error={candidates.error}
        fallback="The policies could not be loaded. Please try again."
        retrying={candidates.isFetching}
        onRetry={() => void candidates.refetch()}
      />
    );
  } else if (list.length === 0) {
    body = (
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
        <Text>{copy.empty}</Text>
      </Paper>
    );
  } else {
    body = (
      <CandidatesView
        projectId={projectId}
        candidates={list}
        chosen={chosen}
        onChoose={setChosen}
        selected={selected}
        startLabel={copy.start(selected.length)}
        onStart={() => begin(selected)}
      />
    );
  }

  return (
    <Stack gap="lg" w="100%" maw={1100} miw={0}>
      <PageHeading title={copy.title}>{copy.intro}</PageHeading>
      {body}
      <ConfirmBulkModal action={action} ids={confirming} onCancel={() => setConfirming(null)} onConfirm={confirm} />
    </Stack>
  );
}

function unknown(id: number): BulkCandidate {
  return {
    id,
    number: null,
    title: `Policy ${id}`,
    department: null,
    version_id: null,
    version: null,
    state: null,
    note: null,
  };
}

// ---------------------------------------------------------------- choosing

interface CandidatesProps {
  projectId: string;
  candidates: BulkCandidate[];
  chosen: ReadonlySet<number>;
  onChoose: (chosen: ReadonlySet<number>) => void;
  selected: number[];
  startLabel: string;
  onStart: () => void;
}

function CandidatesView({ projectId, candidates, chosen, onChoose, selected, startLabel, onStart }: CandidatesProps) {
  const all = selected.length === candidates.length;
  const tooMany = selected.length > BULK_MAX_ITEMS;

  function toggle(id: number, on: boolean) {
    const next = new Set(chosen);
    if (on) next.add(id);
    else next.delete(id);
    onChoose(next);
  }

  return (
    <Stack gap="md">
      <Paper withBorder radius="md" p={0}>
        <Table.ScrollContainer minWidth={560}>
          <Table verticalSpacing="sm" highlightOnHover aria-label="Policies to choose from">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col" w={48}>
                  <Checkbox
                    aria-label="Choose every policy"
                    checked={all}
                    indeterminate={selected.length > 0 && !all}
                    onChange={(event) =>
                      onChoose(event.currentTarget.checked ? new Set(candidates.map((item) => item.id)) : new Set())
                    }
                  />
                </Table.Th>
                <Table.Th scope="col">Policy</Table.Th>
                <Table.Th scope="col">Department</Table.Th>
                <Table.Th scope="col">Version</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {candidates.map((item) => {
                const name = documentName(item);
                return (
                  <Table.Tr
                    key={item.id}
                    data-candidate-id={item.id}
                    bg={chosen.has(item.id) ? 'var(--mantine-primary-color-light)' : undefined}
                  >
                    <Table.Td>
                      <Checkbox
                        aria-label={`Choose ${name}`}
                        checked={chosen.has(item.id)}
                        onChange={(event) => toggle(item.id, event.currentTarget.checked)}
                      />
                    </Table.Td>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>
                      <Stack gap={2}>
                        <Anchor
                          component={Link}
                          to={documentPage(
                            projectId,
                            item.id,
                            item.version_id !== null && item.state !== 'published'
                              ? { version: String(item.version_id) }
                              : undefined,
                          )}
                          target="_blank"
                          rel="noopener"
                          size="sm"
                          fw={600}
                        >
                          {name}
                          <VisuallyHidden> (opens in a new tab)</VisuallyHidden>
                        </Anchor>
                        {item.note && (
                          <Text size="xs" c="dark.6">
                            <Text span inherit fw={700}>
                              Note:
                            </Text>{' '}
                            {item.note}
                          </Text>
                        )}
                      </Stack>
                    </Table.Td>
                    <Table.Td>{item.department?.name ?? '—'}</Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>
                      {item.version === null ? '—' : `Version ${item.version}`}
                      {item.state && (
                        <Text size="xs" c="dimmed">
                          {VERSION_STATE_LABELS[item.state]}
                        </Text>
                      )}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>
      {tooMany && (
        <Alert color="yellow" variant="light">
          Choose at most {BULK_MAX_ITEMS} policies at once.
        </Alert>
      )}
      <Group gap="sm" wrap="wrap">
        <Button onClick={onStart} disabled={selected.length === 0 || tooMany}>
          {selected.length === 0 ? 'Choose policies first' : startLabel}
        </Button>
        <Text size="sm" c="dimmed" aria-live="polite">
          {selected.length} of {candidates.length} chosen
        </Text>
      </Group>
    </Stack>
  );
}

// ---------------------------------------------------------------- progress and results

interface ResultsProps {
  projectId: string;
  sent: BulkCandidate[];
  results: ReadonlyMap<number, BulkResult>;
  progress: { answered: number; total: number } | null;
  working: string;
  onRetry: (ids: number[]) => void;
  onStartOver: () => void;
}

function ResultsView({ projectId, sent, results, progress, working, onRetry, onStartOver }: ResultsProps) {
  const answered = sent.map((item) => results.get(item.id)).filter((result) => result !== undefined);
  const count = (outcome: BulkResult['outcome']) => answered.filter((result) => result.outcome === outcome).length;
  const failed = answered.filter((result) => result.outcome === 'failed').map((result) => result.document_id);
  const running = progress !== null;

  return (
    <Stack gap="md">
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
        <Stack gap="xs">
          {running ? (
            <>
              <Text size="sm" fw={600} aria-live="polite" data-testid="bulk-progress">
                {working}… {progress.answered} of {progress.total}
              </Text>
              <Progress
                value={progress.total === 0 ? 0 : (progress.answered / progress.total) * 100}
                aria-label={`${progress.answered} of ${progress.total}`}
                animated
                striped
              />
              <Text size="xs" c="dimmed">
                Sent {BULK_CHUNK} at a time. Keep this page open until it finishes.
              </Text>
            </>
          ) : (
            <Text size="sm" fw={600} aria-live="polite" data-testid="bulk-summary">
              {count('done')} done · {count('already_done')} already done · {count('failed')} failed
            </Text>
          )}
        </Stack>
      </Paper>
      {!running && failed.length > 0 && (
        <Alert color="red" variant="light" role="alert">
          {failed.length === 1 ? '1 policy was not done.' : `${failed.length} policies were not done.`} Each message
          says why. Retrying is safe: what is already done stays done.
        </Alert>
      )}
      <Paper withBorder radius="md" p={0}>
        <Table.ScrollContainer minWidth={520}>
          <Table verticalSpacing="sm" aria-label="Results">
            <ColumnHeads columns={['Policy', 'Result', 'Message']} />
            <Table.Tbody>
              {sent.map((item) => {
                const result = results.get(item.id);
                const outcome = result ? OUTCOMES[result.outcome] : null;
                return (
                  <Table.Tr key={item.id} data-result-id={item.id} data-outcome={result?.outcome ?? 'waiting'}>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>
                      <Anchor component={Link} to={documentPage(projectId, item.id)} size="sm">
                        {documentName(item)}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>
                      {outcome ? (
                        <Badge color={outcome.color} variant="light" c={outcome.text} radius="sm">
                          {outcome.label}
                        </Badge>
                      ) : (
                        <Text size="sm" c="dimmed">
                          Waiting
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>
                      <Text size="sm">{result?.message ?? ''}</Text>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>
      {!running && (
        <Group gap="sm" wrap="wrap">
          {failed.length > 0 && <Button onClick={() => onRetry(failed)}>Retry failed ({failed.length})</Button>}
          <Button variant="default" onClick={onStartOver}>
            Back to the list
          </Button>
        </Group>
      )}
    </Stack>
  );
}

// ---------------------------------------------------------------- confirmation

interface ConfirmProps {
  action: BulkAction;
  ids: number[] | null;
  onCancel: () => void;
  /** Signing passes the credentials; a rejection's message or field errors show in the dialog. */
  onConfirm: (credential: SigningCredential | null) => Promise<void>;
}

function ConfirmBulkModal({ action, ids, onCancel, onConfirm }: ConfirmProps) {
  return (
    <Modal
      opened={ids !== null}
      onClose={onCancel}
      title={BULK_COPY[action].confirmTitle}
      centered
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {ids !== null && <ConfirmForm action={action} ids={ids} onCancel={onCancel} onConfirm={onConfirm} />}
    </Modal>
  );
}

function ConfirmForm({ action, ids, onCancel, onConfirm }: ConfirmProps & { ids: number[] }) {
  const copy = BULK_COPY[action];
  const twoFactor = useHasTwoFactor();
  const [values, setValues] = useState<CredentialValues>(NO_CREDENTIALS);
  const [errors, setErrors] = useState<FieldErrors<'password' | 'code'>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const signing = action === 'sign';

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setFailure(null);
    let credential: SigningCredential | null = null;
    if (signing) {
      credential = credentialOf(twoFactor ? values : { ...values, method: 'password' });
      const parsed = bulkSignAuthorizeSchema.safeParse({ document_ids: ids, ...credential });
      if (!parsed.success) {
        const found = schemaFieldErrors<'password' | 'code' | 'document_ids'>(parsed.error);
        if (found.document_ids) {
          setFailure(found.document_ids);
          return;
        }
        setErrors('code' in credential ? { code: found.code ?? found.password } : { password: found.password });
        return;
      }
    }
    setBusy(true);
    try {
      await onConfirm(credential);
    } catch (error) {
      const fields = serverFieldErrors(error, ['password', 'code'] as const);
      setErrors(fields);
      if (!fields.password && !fields.code) {
        setFailure(messageFor(error, 'Your signature could not be confirmed. Please try again.'));
      }
      setBusy(false);
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="md">
        <Text size="sm">{copy.confirm(ids.length)}</Text>
        {signing && <SignatureMeaning />}
        <ErrorNotice message={failure} />
        {signing && (
          <>
            <CredentialFields
              values={values}
              onChange={(next) => {
                setValues(next);
                setErrors({});
              }}
              errors={errors}
            />
            <Text size="xs" c="dimmed">
              You confirm once for these {ids.length} policies; the confirmation stays good for them for{' '}
              {SIGNING_BATCH_MINUTES} minutes. Each signature is kept with your name, the time, your IP address and
              browser, and the fingerprint of the text.
            </Text>
          </>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={busy} data-autofocus={signing ? undefined : true}>
            {copy.confirmLabel(ids.length)}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
