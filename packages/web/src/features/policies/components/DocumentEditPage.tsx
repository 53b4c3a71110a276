import { Alert, Anchor, Button, Group, Paper, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { type DocumentDetail, type PolicyVersion, VERSION_STATE_LABELS } from '@portal/shared';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';
import { NotFoundPage } from '../../../components/NotFoundPage';
import { LoadFailure } from '../../../components/page-parts';
import { StatusBadge } from '../../../components/policy/StatusBadge';
import { RichTextEditor } from '../../../components/RichTextEditor';
import { ApiError, messageFor } from '../../../lib/api';
import { formatClock } from '../../../lib/dates';
import { usePageTitle } from '../../../lib/use-page-title';
import { useDocument } from '../api/get-document';
import { invalidatePolicies } from '../api/keys';
import { useStartNewVersion } from '../api/new-version';
import { saveDraft } from '../api/save-draft';
import { NOT_FOUND } from './DocumentPage';
import { DOCUMENT_ID, documentName, documentPage } from './document-format';
import { usePolicyProjectId } from './use-policy-project';

/** Autosave waits this long after the last change. */
export const AUTOSAVE_DELAY_MS = 2000;
/** Browsers cap the bodies of keepalive requests (sent while the tab closes) at 64 KB in all. */
const KEEPALIVE_MAX_CHARS = 60_000;

/**
 * /app/policy_management/{projectId}/documents/{documentId}/edit: the working draft in the rich-text editor, saved
 * automatically 2 s after the last change (and when the page is left). A save refused because someone else saved
 * meanwhile (409) stops autosaving and keeps the text typed here until the user reloads the latest draft.
 */
export function DocumentEditPage() {
  const projectId = usePolicyProjectId();
  const { documentId = '' } = useParams();
  if (!DOCUMENT_ID.test(documentId)) return <NotFoundPage />;
  return <EditDocument key={documentId} projectId={projectId} documentId={documentId} />;
}

function EditDocument({ projectId, documentId }: { projectId: string; documentId: string }) {
  const document = useDocument(projectId, documentId);
  usePageTitle(document.data ? `Edit ${documentName(document.data)}` : 'Edit policy');
  // Bumped by 'Reload the latest draft': the editor starts again from the draft as the server has it now.
  const [generation, setGeneration] = useState(0);

  const back = (
    <Anchor component={Link} to={documentPage(projectId, documentId)} size="sm" w="fit-content">
      ← Back to the policy
    </Anchor>
  );

  let body: ReactNode;
  // Data first: a failed background refetch keeps the data, and must never take the editor (and what is typed
  // in it) away.
  if (document.data) {
    const doc = document.data;
    const draft = doc.draft_version;
    if (!doc.abilities.edit || doc.status === 'archived') {
      body = (
        <Stack gap="md">
          <EditHeading document={doc} />
          <Alert color="yellow" variant="light" role="alert">
            {doc.status === 'archived'
              ? 'This policy is archived. Restore it from the archive before changing it.'
              : 'You may not edit this policy.'}
          </Alert>
        </Stack>
      );
    } else if (!draft) {
      body = <NoDraft projectId={projectId} document={doc} />;
    } else if (draft.state !== 'draft') {
      body = (
        <Stack gap="md">
          <EditHeading document={doc} version={draft} />
          <Alert color="yellow" variant="light" role="alert">
            Version {draft.version} is {VERSION_STATE_LABELS[draft.state].toLowerCase()}: it cannot be edited now.
          </Alert>
        </Stack>
      );
    } else {
      body = (
        <DraftEditor
          key={`${draft.id}-${generation}`}
          projectId={projectId}
          document={doc}
          draft={draft}
          onReload={async () => {
            const fresh = await document.refetch();
            if (fresh.isError) throw fresh.error;
            setGeneration((value) => value + 1);
          }}
        />
      );
    }
  } else if (document.isError) {
    const missing = document.error instanceof ApiError && document.error.status === 404;
    body = (
      <Stack gap="md">
        <Title order={1}>Edit policy</Title>
        {missing ? (
          <Alert color="yellow" variant="light" role="alert">
            {NOT_FOUND}
          </Alert>
        ) : (
          <LoadFailure
            error={document.error}
            fallback="The policy could not be loaded. Please try again."
            retrying={document.isFetching}
            onRetry={() => void document.refetch()}
          />
        )}
      </Stack>
    );
  } else {
    body = (
      <Stack gap="md" role="status" aria-label="Loading the draft">
        <Skeleton height={48} radius="md" />
        <Skeleton height={360} radius="md" />
      </Stack>
    );
  }

  return (
    <Stack gap="lg" w="100%" maw={1100} miw={0}>
      {back}
      {body}
    </Stack>
  );
}

function EditHeading({ document, version }: { document: DocumentDetail; version?: PolicyVersion }) {
  return (
    <Stack gap={4}>
      <Title order={1} fz={{ base: 'h3', sm: 'h2' }} style={{ overflowWrap: 'anywhere' }}>
        Edit: {document.title}
      </Title>
      <Group gap="sm" wrap="wrap">
        {document.number && (
          <Text ff="monospace" fw={700} c="dimmed">
            {document.number}
          </Text>
        )}
        <StatusBadge status={document.status} />
        {version && (
          <Text size="sm" c="dimmed">
            Version {version.version} ({VERSION_STATE_LABELS[version.state]})
          </Text>
        )}
      </Group>
    </Stack>
  );
}

function NoDraft({ projectId, document }: { projectId: string; document: DocumentDetail }) {
  const start = useStartNewVersion(projectId, String(document.id));
  return (
    <Stack gap="md">
      <EditHeading document={document} />
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }}>
        <Stack gap="sm" align="flex-start">
          <Text>
            This policy has no draft. Start a new version to change its text: it begins as a copy of the current
            version, and readers keep seeing the current version until the new one is published.
          </Text>
          {start.isError && (
            <Alert color="red" variant="light" role="alert" w="100%">
              {messageFor(start.error, 'The new version could not be started. Please try again.')}
            </Alert>
          )}
          <Button onClick={() => start.mutate()} loading={start.isPending}>
            Start new version
          </Button>
        </Stack>
      </Paper>
    </Stack>
  );
}

// ------------------------------------------------------------------------------------------------ autosave

export type SaveStatus =
  | { kind: 'idle' }
  | { kind: 'unsaved' }
  | { kind: 'saving' }
  | { kind: 'saved'; at: string }
  | { kind: 'failed'; message: string }
  | { kind: 'conflict'; message: string };

interface DraftValues {
  content: string;
  change_summary: string;
}

/**
 * Saves the draft AUTOSAVE_DELAY_MS after the last change, one request at a time, each carrying the revision the
 * previous one produced. A 409 stops it (nothing is overwritten silently); other failures wait for the next change
 * or `saveNow`. What is typed is only ever held here and sent: a failure never replaces it.
 */
function useDraftAutosave(projectId: string, documentId: string, initialRevision: number) {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<SaveStatus>({ kind: 'idle' });
  const latest = useRef<DraftValues | null>(null);
  const revision = useRef(initialRevision);
  const edits = useRef(0);
  const saved = useRef(0);
  const conflict = useRef(false);
  const unloading = useRef(false);
  const running = useRef<Promise<boolean> | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const clearTimer = useCallback(() => {
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = null;
  }, []);

  const saveNow = useCallback((): Promise<boolean> => {
    clearTimer();
    if (running.current) return running.current.then(() => saveNow());
    if (conflict.current) return Promise.resolve(false);
    if (edits.current === saved.current || !latest.current) return Promise.resolve(true);

    const run = async (): Promise<boolean> => {
      let savedAt: string | null = null;
      while (edits.current !== saved.current && latest.current) {
        const sent = edits.current;
        setStatus({ kind: 'saving' });
        try {
          const body = { ...latest.current, base_revision: revision.current };
          // While the tab closes, keepalive lets the request outlive the page; browsers refuse it past 64 KB.
          const keepalive = unloading.current && JSON.stringify(body).length < KEEPALIVE_MAX_CHARS;
          const answer = await saveDraft(projectId, documentId, body, { keepalive });
          revision.current = answer.revision;
          saved.current = sent;
          savedAt = answer.saved_at;
        } catch (error) {
          if (error instanceof ApiError && error.status === 409) {
            conflict.current = true;
            setStatus({
              kind: 'conflict',
              message: messageFor(error, 'Someone else saved this draft meanwhile.'),
            });
          } else {
            setStatus({ kind: 'failed', message: messageFor(error, 'The draft could not be saved.') });
          }
          return false;
        }
      }
      if (savedAt) {
        setStatus({ kind: 'saved', at: savedAt });
        void invalidatePolicies(queryClient, projectId);
      }
      return true;
    };
    const promise = run().finally(() => {
      running.current = null;
    });
    running.current = promise;
    return promise;
  }, [clearTimer, documentId, projectId, queryClient]);

  const change = useCallback(
    (values: DraftValues) => {
      latest.current = values;
      edits.current += 1;
      if (conflict.current) return;
      setStatus({ kind: 'unsaved' });
      clearTimer();
      timer.current = setTimeout(() => void saveNow(), AUTOSAVE_DELAY_MS);
    },
    [clearTimer, saveNow],
  );

  const hasUnsaved = useCallback(() => edits.current !== saved.current, []);

  /** After 'Reload the latest draft': what was typed here is given up on purpose, so leaving does not save it. */
  const discard = useCallback(() => {
    clearTimer();
    saved.current = edits.current;
  }, [clearTimer]);

  // Leaving the page for another route (the app keeps running): the pending change is saved at once.
  useEffect(
    () => () => {
      if (hasUnsaved() || running.current) void saveNow();
    },
    [hasUnsaved, saveNow],
  );

  // Closing or reloading the tab: start the save and ask the browser to warn while something is unsaved.
  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!hasUnsaved() && !running.current) return;
      if (!conflict.current) {
        unloading.current = true;
        // If the user stays after all, later saves go as usual.
        void saveNow().finally(() => {
          unloading.current = false;
        });
      }
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [hasUnsaved, saveNow]);

  return { status, change, saveNow, discard };
}

function statusText(status: SaveStatus): string {
  switch (status.kind) {
    case 'idle':
      return 'No changes yet.';
    case 'unsaved':
      return 'Unsaved changes…';
    case 'saving':
      return 'Saving…';
    case 'saved':
      return `All changes saved at ${formatClock(status.at)}`;
    case 'failed':
      return `Not saved: ${status.message}`;
    case 'conflict':
      return `Not saved: ${status.message}`;
  }
}

interface DraftEditorProps {
  projectId: string;
  document: DocumentDetail;
  draft: PolicyVersion;
  onReload: () => Promise<void>;
}

function DraftEditor({ projectId, document, draft, onReload }: DraftEditorProps) {
  const navigate = useNavigate();
  const documentId = String(document.id);
  const [content, setContent] = useState(draft.content);
  const [summary, setSummary] = useState(draft.change_summary);
  const [finishing, setFinishing] = useState(false);
  const [reloading, setReloading] = useState(false);
  const autosave = useDraftAutosave(projectId, documentId, draft.revision);
  const { status } = autosave;
  const values = useRef<DraftValues>({ content, change_summary: summary });

  function edit(next: Partial<DraftValues>) {
    values.current = { ...values.current, ...next };
    if (next.content !== undefined) setContent(next.content);
    if (next.change_summary !== undefined) setSummary(next.change_summary);
    autosave.change(values.current);
  }

  async function done() {
    setFinishing(true);
    const ok = await autosave.saveNow();
    setFinishing(false);
    if (ok) void navigate(documentPage(projectId, documentId));
  }

  async function reload() {
    setReloading(true);
    try {
      autosave.discard();
      await onReload();
    } catch (error) {
      toast.error(messageFor(error, 'The latest draft could not be loaded. Please try again.'));
      setReloading(false);
    }
  }

  const failed = status.kind === 'failed' || status.kind === 'conflict';

  return (
    <Stack gap="md" miw={0}>
      <Group justify="space-between" align="flex-start" gap="md" wrap="wrap">
        <EditHeading document={document} version={draft} />
        <Group gap="sm" wrap="wrap">
          {status.kind === 'failed' && (
            <Button variant="default" onClick={() => void autosave.saveNow()}>
              Save now
            </Button>
          )}
          <Button onClick={() => void done()} loading={finishing}>
            Done
          </Button>
        </Group>
      </Group>
      <Text size="sm" role="status" aria-live="polite" c={failed ? 'red.8' : 'dimmed'} data-testid="save-status">
        {statusText(status)}
      </Text>
      {status.kind === 'conflict' && (
        <Alert color="red" variant="light" title="This draft was changed elsewhere" role="alert">
          <Stack gap="sm" align="flex-start">
            <Text size="sm">{status.message}</Text>
            <Text size="sm">
              Your text stays in the editor and is not saved. Copy what you want to keep, then reload the latest draft
              and add it again.
            </Text>
            <Button variant="default" onClick={() => void reload()} loading={reloading}>
              Reload the latest draft
            </Button>
          </Stack>
        </Alert>
      )}
      <TextInput
        label="Change summary"
        description="What this version changes, for the history."
        maxLength={500}
        value={summary}
        onChange={(event) => edit({ change_summary: event.currentTarget.value })}
      />
      <RichTextEditor
        label="Policy text"
        value={content}
        onChange={(html) => edit({ content: html })}
        minHeight="24rem"
        tables
      />
    </Stack>
  );
}
