import { Badge, Button, Group, Paper, SegmentedControl, Skeleton, Stack, Text, Typography } from '@mantine/core';
import { termsContentSchema } from '@portal/shared';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { ConfirmActionModal } from '../../../components/ConfirmActionModal';
import { useLeaveWarning } from '../../../components/leave-warning';
import { RichTextEditor } from '../../../components/RichTextEditor';
import { messageFor } from '../../../lib/api';
import { formatDateLong, formatDateTime } from '../../../lib/dates';
import { serverFieldErrors } from '../../../lib/field-errors';
import { sanitizeHtml } from '../../../lib/sanitize';
import { usePageTitle } from '../../../lib/use-page-title';
import { type TermsEditorState, useTermsEditor } from '../api/get-terms-editor';
import { usePublishTerms } from '../api/publish-terms';
import { useSaveTermsDraft } from '../api/save-terms-draft';
import { ConsolePageHeader, QueryLoadError } from './parts';

export const PUBLISH_WARNING = 'Every user must accept the new terms at their next sign-in.';
const PREVIEW_HEIGHT = '24rem';
const EDITOR_HEIGHT = '20rem';

/** /superadmin/terms_and_conditions: write the terms, save a draft, preview and publish a new version. */
export function TermsEditorPage() {
  usePageTitle('Terms and Conditions');
  const editor = useTermsEditor();

  return (
    <Stack gap="lg" w="100%" maw={960}>
      <ConsolePageHeader
        title="Terms and Conditions"
        description="The system use notification every user accepts. Publishing a new version asks everyone to accept it again."
        actions={
          <Button component={Link} to="/superadmin/terms_and_conditions/history" variant="default">
            Version history
          </Button>
        }
      />
      {editor.data ? (
        <TermsForm state={editor.data} />
      ) : editor.isError ? (
        <QueryLoadError query={editor} fallback="The terms could not be loaded. Please try again." />
      ) : (
        <Stack gap="sm" role="status" aria-label="Loading the terms">
          <Skeleton height={22} width="16rem" maw="100%" />
          <Skeleton height={`calc(${EDITOR_HEIGHT} + 4rem)`} radius="md" />
          <Skeleton height={36} width="20rem" maw="100%" />
        </Stack>
      )}
    </Stack>
  );
}

function TermsForm({ state }: { state: TermsEditorState }) {
  const start = state.draft?.content ?? state.published?.content ?? '';
  // What is stored (the draft, else the published text): the editor is "changed" when it differs from this.
  const [saved, setSaved] = useState(start);
  const [content, setContent] = useState(start);
  const [error, setError] = useState<string | undefined>();
  const [mode, setMode] = useState<'edit' | 'preview'>('edit');
  const [confirming, setConfirming] = useState(false);
  const saveDraft = useSaveTermsDraft();
  const publish = usePublishTerms();
  const dirty = content !== saved;
  const busy = saveDraft.isPending || publish.isPending;

  const leaveWarning = useLeaveWarning(dirty, 'the terms');

  function change(html: string) {
    setContent(html);
    if (error) setError(undefined);
  }

  /** The client check of the schema; false (and the message on the field) when the text cannot be sent. */
  function valid(): boolean {
    const parsed = termsContentSchema.safeParse({ content });
    if (parsed.success) return true;
    setError(parsed.error.issues[0]?.message ?? 'Check the terms.');
    setMode('edit');
    return false;
  }

  function failed(cause: unknown, fallback: string) {
    const fields = serverFieldErrors(cause, ['content']);
    if (fields.content) {
      setError(fields.content);
      setMode('edit');
    }
    toast.error(fields.content ? 'The terms were not saved: check the text.' : messageFor(cause, fallback));
  }

  async function onSaveDraft() {
    if (!valid()) return;
    try {
      const draft = await saveDraft.mutateAsync(content);
      // The server stores the sanitised HTML; the editor keeps what the writer sees, now counted as saved.
      setSaved(content);
      toast.success(`Draft saved at ${formatDateTime(draft.updated_at)}.`);
    } catch (cause) {
      failed(cause, 'The draft could not be saved. Please try again.');
    }
  }

  function onPublishClick() {
    if (valid()) setConfirming(true);
  }

  async function onPublish() {
    setConfirming(false);
    try {
      const version = await publish.mutateAsync(content);
      setSaved(content);
      toast.success(`Version ${version.id} published. ${PUBLISH_WARNING}`);
    } catch (cause) {
      failed(cause, 'The terms could not be published. Please try again.');
    }
  }

  const lastPublished = state.published?.published_at ?? null;

  return (
    <Stack gap="md">
      <Group justify="space-between" gap="sm" align="center">
        <Stack gap={2}>
          <Text fw={500} data-testid="last-published">
            {lastPublished ? (
              <>
                Last published <time dateTime={lastPublished}>{formatDateLong(lastPublished)}</time>
                {state.published ? ` (version ${state.published.id})` : ''}
              </>
            ) : (
              'Not published yet'
            )}
          </Text>
          <Text size="sm" c="gray.7">
            {state.draft
              ? `Editing the draft saved ${formatDateTime(state.draft.updated_at)}.`
              : state.published
                ? 'Editing a copy of the published version. Save it as a draft or publish it.'
                : 'Write the first version of the terms.'}
          </Text>
        </Stack>
        <Group gap="sm">
          {dirty && (
            <Badge color="yellow.5" autoContrast data-testid="unsaved">
              Unsaved changes
            </Badge>
          )}
          <SegmentedControl
            aria-label="View"
            value={mode}
            onChange={(value) => setMode(value === 'preview' ? 'preview' : 'edit')}
            data={[
              { value: 'edit', label: 'Edit' },
              { value: 'preview', label: 'Preview' },
            ]}
          />
        </Group>
      </Group>

      {/* The editor stays mounted under the preview so its undo history survives a look at the result. */}
      <div hidden={mode !== 'edit'}>
        <RichTextEditor
          label="Terms text"
          value={content}
          onChange={change}
          error={error}
          minHeight={EDITOR_HEIGHT}
          withAsterisk
        />
      </div>
      {mode === 'preview' && <TermsPreview html={content} />}

      <Group gap="sm">
        <Button variant="default" onClick={() => void onSaveDraft()} loading={saveDraft.isPending} disabled={busy}>
          Save draft
        </Button>
        <Button onClick={onPublishClick} loading={publish.isPending} disabled={busy}>
          Publish new version
        </Button>
      </Group>

      <ConfirmActionModal
        opened={confirming}
        title="Publish new version"
        message={PUBLISH_WARNING}
        confirmLabel="Publish"
        onConfirm={() => void onPublish()}
        onCancel={() => setConfirming(false)}
      />
      {leaveWarning}
    </Stack>
  );
}

/** The text as users will read it: sanitised with the SPEC section 5 policy, in the public page's 24rem box. */
function TermsPreview({ html }: { html: string }) {
  const clean = useMemo(() => sanitizeHtml(html), [html]);
  return (
    <Paper
      withBorder
      radius="md"
      p="md"
      h={PREVIEW_HEIGHT}
      role="region"
      aria-label="Preview of the terms"
      tabIndex={0}
      style={{ overflowY: 'auto' }}
    >
      {clean.trim() ? (
        // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised just above with the SPEC policy
        <Typography dangerouslySetInnerHTML={{ __html: clean }} />
      ) : (
        <Text c="gray.7">Nothing to preview yet.</Text>
      )}
    </Paper>
  );
}
