import {
  Alert,
  Badge,
  Button,
  Grid,
  Group,
  List,
  Modal,
  MultiSelect,
  Paper,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { type FacilityProfile, PG_LIMITS, PROFILE_FLAGS, PROFILE_NAME_LABELS } from '@portal/shared';
import { type ReactNode, useCallback, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { ConfirmActionModal } from '../../../components/ConfirmActionModal';
import { useLeaveWarning } from '../../../components/leave-warning';
import { ErrorNotice } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';
import { fieldBinder } from '../../../lib/field-binding';
import { type TemplateDetail, useDiscardTemplateDraft, usePublishTemplate, useSaveTemplateDraft } from '../api';
import { SectionTitle } from './pg-parts';
import { SectionsEditor } from './SectionsEditor';
import { StandardsRefsEditor } from './StandardsRefsEditor';
import { TemplatePreview } from './TemplatePreview';
import {
  type FormErrors,
  formFromBody,
  isPlacedPath,
  type ListChange,
  type ProfileFlag,
  type SectionRow,
  type StandardRow,
  serverErrors,
  snapshot,
  type TemplateForm,
  type VariableRow,
  validateForm,
  withoutPrefix,
} from './template-form';
import { VariablesEditor } from './VariablesEditor';

export const GALLERY_PATH = '/app/policy_generator';

const FLAG_OPTIONS = PROFILE_FLAGS.map((flag) => ({ value: flag, label: PROFILE_NAME_LABELS[flag] ?? flag }));

const CHECK_FAILED = 'The draft was not saved: fix the problems marked below.';

interface TemplateEditorProps {
  projectId: number;
  template: TemplateDetail;
  /** undefined while it loads, null when it could not be read. */
  profile: FacilityProfile | null | undefined;
  /** Back to the template page (after publishing, discarding, or when the author closes the editor). */
  onClose: () => void;
}

/**
 * The editor of a project template's draft (DOMAIN.md 4.4 "template editor (admins)"): details and flags, the
 * sections, the variables, the linked standards, and a live preview with the facility profile. Saving opens a draft
 * from the published version when there is none; publishing makes the draft the version the wizard uses.
 */
export function TemplateEditor({ projectId, template, profile, onClose }: TemplateEditorProps) {
  const navigate = useNavigate();
  const working = template.working;
  const current = template.current;
  const [form, setForm] = useState<TemplateForm>(() =>
    formFromBody(working?.body ?? current?.body ?? null, template.title),
  );
  const [baseline, setBaseline] = useState(() => snapshot(form));
  const [errors, setErrors] = useState<FormErrors>({});
  const [formAlert, setFormAlert] = useState<string | null>(null);
  const [leaving, setLeaving] = useState(false);
  const [publishOpen, setPublishOpen] = useState(false);
  const [note, setNote] = useState('');
  const [noteError, setNoteError] = useState<string | null>(null);
  const [publishAlert, setPublishAlert] = useState<string | null>(null);
  const [discardOpen, setDiscardOpen] = useState(false);

  const save = useSaveTemplateDraft(projectId, template.id);
  const publish = usePublishTemplate(projectId, template.id);
  const discard = useDiscardTemplateDraft(projectId, template.id);

  const formSnapshot = useMemo(() => snapshot(form), [form]);
  const dirty = !leaving && formSnapshot !== baseline;
  const leaveWarning = useLeaveWarning(dirty, 'this template');

  const published = template.current !== null || template.versions.some((v) => v.status !== 'draft');
  const hasDraft = working !== null;
  const draftVersion = working?.version ?? Math.max(0, ...template.versions.map((v) => v.version)) + 1;

  function change<K extends keyof TemplateForm>(field: K, value: TemplateForm[K]) {
    setForm((previous) => ({ ...previous, [field]: value }));
    setErrors((previous) => withoutPrefix(previous, field));
  }
  const field = fieldBinder({ values: form, errors, change });

  // Stable, so typing in one section or row does not draw the others again.
  const onSections = useCallback<ListChange<SectionRow>>((update, stale) => {
    setForm((previous) => ({ ...previous, sections: update(previous.sections) }));
    setErrors((previous) => withoutPrefix(previous, stale));
  }, []);
  const onVariables = useCallback<ListChange<VariableRow>>((update, stale) => {
    setForm((previous) => ({ ...previous, variables: update(previous.variables) }));
    setErrors((previous) => withoutPrefix(previous, stale));
  }, []);
  const onStandards = useCallback<ListChange<StandardRow>>((update, stale) => {
    setForm((previous) => ({ ...previous, standards: update(previous.standards) }));
    setErrors((previous) => withoutPrefix(previous, stale));
  }, []);

  /** Checks the form, then PUTs it; true when the draft on the server is what the form holds. */
  async function saveDraft(): Promise<boolean> {
    const checked = validateForm(form);
    if (!checked.ok) {
      setErrors(checked.errors);
      setFormAlert(CHECK_FAILED);
      return false;
    }
    const sent = snapshot(form);
    try {
      await save.mutateAsync(checked.body);
      setBaseline(sent);
      setErrors({});
      setFormAlert(null);
      return true;
    } catch (error) {
      setErrors(serverErrors(error));
      setFormAlert(messageFor(error, 'The draft could not be saved. Please try again.'));
      return false;
    }
  }

  async function onSave() {
    if (await saveDraft()) toast.success('Draft saved.');
  }

  function openPublish() {
    setNote('');
    setNoteError(null);
    setPublishAlert(null);
    setPublishOpen(true);
  }

  async function onPublish() {
    const trimmed = note.trim();
    if (published && trimmed === '') {
      setNoteError('Describe what changed since the last published version.');
      return;
    }
    if (dirty && !(await saveDraft())) {
      setPublishOpen(false);
      return;
    }
    try {
      const result = await publish.mutateAsync({ note: trimmed });
      const version = result.current?.version ?? draftVersion;
      toast.success(`Version ${version} published.`);
      setPublishOpen(false);
      setLeaving(true);
      onClose();
    } catch (error) {
      const found = serverErrors(error);
      if (found.note) setNoteError(found.note);
      const { note: _note, ...rest } = found;
      if (Object.keys(rest).length > 0) setErrors(rest);
      if (!found.note) setPublishAlert(messageFor(error, 'The template could not be published. Please try again.'));
    }
  }

  async function onDiscard() {
    setDiscardOpen(false);
    if (!hasDraft) {
      setLeaving(true);
      onClose();
      return;
    }
    try {
      await discard.mutateAsync();
    } catch (error) {
      toast.error(messageFor(error, 'The draft could not be discarded. Please try again.'));
      return;
    }
    setLeaving(true);
    if (!published) {
      toast.success('The template was deleted.');
      void navigate(GALLERY_PATH);
    } else {
      toast.success('The draft was discarded.');
      onClose();
    }
  }

  const unplaced = Object.entries(errors).filter(([path]) => !isPlacedPath(path));
  const busy = save.isPending || publish.isPending || discard.isPending;

  return (
    <Stack gap="lg" miw={0}>
      {leaveWarning}
      <Group justify="space-between" align="flex-start" gap="md" wrap="wrap">
        <Stack gap={4} miw={0}>
          <Title order={2} fz={{ base: 'h3', sm: 'h2' }} style={{ overflowWrap: 'anywhere' }}>
            Edit: {form.title.trim() || template.title}
          </Title>
          <Group gap="xs" wrap="wrap">
            <Text size="sm" c="dimmed">
              {hasDraft
                ? `Draft of version ${draftVersion}`
                : current
                  ? `A new draft (version ${draftVersion}) from version ${current.version}: it opens when you save.`
                  : `Version ${draftVersion}`}
            </Text>
            <Text size="sm" role="status" aria-live="polite" span>
              {dirty && (
                <Badge color="orange.9" variant="light">
                  You have unsaved changes
                </Badge>
              )}
            </Text>
          </Group>
        </Stack>
        <Group gap="sm" wrap="wrap">
          <Button variant="default" onClick={onClose} disabled={busy}>
            Close editor
          </Button>
          <Button
            variant="default"
            color="red.8"
            onClick={() => setDiscardOpen(true)}
            disabled={busy || (!hasDraft && !dirty)}
          >
            Discard draft
          </Button>
          <Button variant="default" onClick={openPublish} disabled={busy || (!hasDraft && !dirty)}>
            Publish…
          </Button>
          <Button onClick={() => void onSave()} loading={save.isPending} disabled={publish.isPending}>
            Save draft
          </Button>
        </Group>
      </Group>

      {formAlert && (
        <Alert color="red" variant="light" role="alert" title="Not saved">
          <Stack gap={4}>
            <Text size="sm">{formAlert}</Text>
            {unplaced.length > 0 && (
              <List size="sm">
                {unplaced.map(([path, message]) => (
                  <List.Item key={path}>{message}</List.Item>
                ))}
              </List>
            )}
          </Stack>
        </Alert>
      )}

      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 7 }} miw={0}>
          <Stack gap="xl">
            <Block title="Details">
              <TextInput label="Title" required maxLength={PG_LIMITS.title} {...field.text('title')} />
              <TextInput
                label="Category"
                description="The department or area, e.g. Infection prevention."
                maxLength={PG_LIMITS.category}
                {...field.text('category')}
              />
              <Textarea
                label="Description"
                description="What the policy covers, shown in the gallery."
                rows={3}
                resize="vertical"
                maxLength={PG_LIMITS.description}
                {...field.text('description')}
              />
              <MultiSelect
                label="Required profile flags"
                description="The template fits a facility only when its profile has all of these."
                data={FLAG_OPTIONS}
                searchable
                clearable
                value={form.requires_flags}
                onChange={(value) => change('requires_flags', value as ProfileFlag[])}
                error={errors.requires_flags}
              />
            </Block>
            <Block title="Sections">
              <SectionsEditor
                sections={form.sections}
                variables={form.variables}
                errors={errors}
                onChange={onSections}
              />
            </Block>
            <Block title="Variables" description="The questions the wizard asks for this policy.">
              <VariablesEditor variables={form.variables} errors={errors} onChange={onVariables} />
            </Block>
            <Block title="Standards" description="The elements this policy is written to help satisfy.">
              <StandardsRefsEditor standards={form.standards} errors={errors} onChange={onStandards} />
            </Block>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 5 }} miw={0}>
          <Paper
            withBorder
            radius="md"
            p={{ base: 'sm', sm: 'md' }}
            pos="sticky"
            style={{ top: 'calc(var(--app-shell-header-offset, 0rem) + 1rem)' }}
          >
            <Stack gap="sm">
              <Title order={3} fz="h4">
                Preview
              </Title>
              <Text size="sm" c="dimmed">
                With this facility's profile and each question's default.
              </Text>
              <TemplatePreview
                sections={form.sections}
                variables={form.variables}
                profile={profile}
                label="Preview of the draft"
              />
            </Stack>
          </Paper>
        </Grid.Col>
      </Grid>

      <Modal
        opened={publishOpen}
        onClose={() => setPublishOpen(false)}
        title={`Publish version ${draftVersion}`}
        centered
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        <Stack gap="md">
          <Text size="sm">
            {published
              ? 'The wizard uses the new version from now on. Policies generated earlier keep the version they were made from.'
              : 'The wizard can use the template once it is published.'}
            {dirty ? ' Your unsaved changes are saved first.' : ''}
          </Text>
          <ErrorNotice message={publishAlert} />
          <Textarea
            label="What changed"
            description={
              published ? 'Required: readers see it in the version history.' : 'Optional for a first version.'
            }
            required={published}
            rows={3}
            resize="vertical"
            maxLength={PG_LIMITS.note}
            value={note}
            onChange={(event) => {
              setNote(event.currentTarget.value);
              setNoteError(null);
            }}
            error={noteError}
            data-autofocus
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setPublishOpen(false)}>
              Cancel
            </Button>
            <Button onClick={() => void onPublish()} loading={publish.isPending || save.isPending}>
              Publish
            </Button>
          </Group>
        </Stack>
      </Modal>

      <ConfirmActionModal
        opened={discardOpen}
        title="Discard the draft?"
        message={
          !hasDraft
            ? 'Your unsaved changes are lost.'
            : published
              ? `The draft (version ${draftVersion}) and all its changes are removed. Version ${current?.version ?? draftVersion - 1} stays published.`
              : 'This template has never been published: discarding its draft deletes the template.'
        }
        confirmLabel={hasDraft && !published ? 'Delete the template' : 'Discard draft'}
        danger
        onConfirm={() => void onDiscard()}
        onCancel={() => setDiscardOpen(false)}
      />
    </Stack>
  );
}

function Block({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
  return (
    <Stack gap="sm" component="section" aria-label={title}>
      <SectionTitle title={title} description={description} fz="h4" />
      {children}
    </Stack>
  );
}
