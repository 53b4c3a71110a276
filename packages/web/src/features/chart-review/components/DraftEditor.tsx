import { Alert, Button, Group, Stack, Tabs, Text, Textarea } from '@mantine/core';
import { CR_LIMITS } from '@portal/shared';
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { ConfirmActionModal } from '../../../components/ConfirmActionModal';
import { DialogActions } from '../../../components/form-parts/DialogActions';
import { DialogModal } from '../../../components/form-parts/DialogModal';
import { RowAction } from '../../../components/form-parts/RowAction';
import { useLeaveWarning } from '../../../components/leave-warning';
import { ErrorNotice } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';
import { serverFieldErrors } from '../../../lib/field-errors';
import { type CrToolVersion, useDiscardVersion, usePublishVersion, useSaveQuestions } from '../api/tool-versions';
import { QuestionCard, questionControlId } from './QuestionCard';
import { QuestionSection } from './QuestionSection';
import {
  checkDraft,
  type DraftQuestion,
  draftSignature,
  groupBySection,
  moveQuestion,
  newQuestion,
  type QuestionErrors,
  type QuestionField,
  serverQuestionErrors,
  toDraft,
} from './question-draft';
import { earlierKeys } from './show-if';
import { ToolPreview } from './ToolPreview';
import { questionCount } from './tool-words';

interface DraftEditorProps {
  projectId: string;
  version: CrToolVersion;
  partialEnabled: boolean;
  privilegeLabel: string;
  /** After publishing or discarding: the version to show next (null: the tool's default). */
  onDone: (versionId: number | null) => void;
}

const NOTE_REQUIRED = 'Say what changed in this version.';

/** Why a publication did not happen, for the dialog: a message at the note, or one for the whole request. */
type PublishProblem = { note: string; general?: undefined } | { general: string; note?: undefined };

/** The editor of a draft version: questions by section, save, preview, publish and discard. */
export function DraftEditor({ projectId, version, partialEnabled, privilegeLabel, onDone }: DraftEditorProps) {
  const saveQuestions = useSaveQuestions(projectId, version.id);
  const publish = usePublishVersion(projectId, version.id);
  const discard = useDiscardVersion(projectId, version.id);
  const [questions, setQuestions] = useState(() => toDraft(version.questions));
  const [savedSignature, setSavedSignature] = useState(() => draftSignature(questions));
  const [errors, setErrors] = useState<QuestionErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [removing, setRemoving] = useState<number | null>(null);
  const [publishing, setPublishing] = useState(false);
  const [discarding, setDiscarding] = useState(false);
  const [focusId, setFocusId] = useState<string | null>(null);
  const dirty = draftSignature(questions) !== savedSignature;
  const leaveWarning = useLeaveWarning(dirty, `the draft of version ${version.version}`);

  // Focus follows a question that moved to another section group (its card is mounted anew) or was just added.
  useEffect(() => {
    if (!focusId) return;
    const element = document.getElementById(focusId);
    if (element instanceof HTMLButtonElement && element.disabled) {
      const uid = focusId.replace(/^cr-(.+)-(up|down)$/, '$1');
      document.getElementById(questionControlId(uid, focusId.endsWith('-up') ? 'down' : 'up'))?.focus();
    } else element?.focus();
    setFocusId(null);
  }, [focusId]);

  const sections = [...new Set(questions.map((question) => question.section.trim()).filter(Boolean))];

  function change<K extends QuestionField>(uid: string, field: K, value: DraftQuestion[K]) {
    setQuestions((current) =>
      current.map((question) => (question.uid === uid ? { ...question, [field]: value } : question)),
    );
    setErrors((current) =>
      current[uid]?.[field] ? { ...current, [uid]: { ...current[uid], [field]: undefined } } : current,
    );
  }

  function move(index: number, offset: -1 | 1) {
    const question = questions[index];
    if (!question) return;
    setQuestions((current) => moveQuestion(current, index, offset));
    setFocusId(questionControlId(question.uid, offset === -1 ? 'up' : 'down'));
  }

  /** Adds a question after `afterIndex` (the end when null), in `section`. */
  function add(section: string, afterIndex: number | null) {
    const question = newQuestion(questions, section);
    setQuestions((current) => {
      const at = afterIndex === null ? current.length : afterIndex + 1;
      return [...current.slice(0, at), question, ...current.slice(at)];
    });
    setFocusId(questionControlId(question.uid, 'text'));
  }

  function confirmRemove() {
    if (removing === null) return;
    setQuestions((current) => current.filter((_, index) => index !== removing));
    setRemoving(null);
  }

  /** Checks and saves the questions; true when the server holds exactly what is on screen. */
  async function save(): Promise<boolean> {
    setFailure(null);
    const checked = checkDraft(questions, partialEnabled);
    if ('errors' in checked) {
      setErrors(checked.errors);
      setFailure(checked.general ?? 'Some questions need attention. See the messages at the fields.');
      return false;
    }
    setErrors({});
    const sent = questions;
    try {
      await saveQuestions.mutateAsync(checked.questions);
      setSavedSignature(draftSignature(sent));
      return true;
    } catch (error) {
      const server = serverQuestionErrors(error, sent);
      setErrors(server.errors);
      const named = Object.keys(server.errors).length > 0;
      setFailure(
        server.general ??
          (named
            ? 'Some questions need attention. See the messages at the fields.'
            : messageFor(error, 'The draft could not be saved. Please try again.')),
      );
      return false;
    }
  }

  async function saveDraft() {
    if (await save()) toast.success('Draft saved.');
  }

  function startPublishing() {
    setFailure(null);
    if (questions.length === 0) {
      setFailure('Add at least one question before publishing.');
      return;
    }
    setPublishing(true);
  }

  async function confirmPublish(note: string): Promise<PublishProblem | null> {
    if (version.version > 1 && note.trim() === '') return { note: NOTE_REQUIRED };
    if (dirty && !(await save())) {
      setPublishing(false);
      return null;
    }
    try {
      const published = await publish.mutateAsync(note.trim());
      setPublishing(false);
      toast.success(`Version ${published.version} published. New reviews use it from now on.`);
      onDone(published.id);
      return null;
    } catch (error) {
      const { note: noteError } = serverFieldErrors(error, ['note'] as const);
      return noteError
        ? { note: noteError }
        : { general: messageFor(error, 'The version could not be published. Please try again.') };
    }
  }

  async function confirmDiscard() {
    setDiscarding(false);
    setFailure(null);
    try {
      await discard.mutateAsync();
      // Nothing is left to lose: the navigation that follows must not ask.
      setSavedSignature(draftSignature(questions));
      toast.success(`The draft of version ${version.version} was discarded.`);
      onDone(null);
    } catch (error) {
      setFailure(messageFor(error, 'The draft could not be discarded. Please try again.'));
    }
  }

  const removingQuestion = removing === null ? null : questions[removing];

  return (
    <Stack gap="md">
      <Tabs defaultValue="edit" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="edit">Edit questions</Tabs.Tab>
          <Tabs.Tab value="preview">Preview</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="edit" pt="md">
          <Stack gap="md">
            {questions.length === 0 && (
              <Text c="dimmed">
                No questions yet. Add the first one: each question is answered Yes, No or N/A for every chart reviewed.
              </Text>
            )}
            {groupBySection(questions).map((group) => {
              const last = group.items.at(-1);
              return (
                <QuestionSection key={group.items[0]?.question.uid} section={group.section} gap="sm">
                  {group.items.map(({ question, index }) => (
                    <QuestionCard
                      key={question.uid}
                      question={question}
                      number={index + 1}
                      total={questions.length}
                      errors={errors[question.uid]}
                      earlierKeys={earlierKeys(questions, index)}
                      sections={sections}
                      partialEnabled={partialEnabled}
                      onChange={(field, value) => change(question.uid, field, value)}
                      onMove={(offset) => move(index, offset)}
                      onRemove={() => setRemoving(index)}
                    />
                  ))}
                  <Group>
                    <RowAction onClick={() => add(group.section, last?.index ?? null)}>
                      {group.section ? `Add a question to ${group.section}` : 'Add a question here'}
                    </RowAction>
                  </Group>
                </QuestionSection>
              );
            })}
            <Group gap="sm">
              <Button
                variant="default"
                onClick={() => add(questions.at(-1)?.section.trim() ?? '', null)}
                disabled={questions.length >= CR_LIMITS.questions}
              >
                Add question
              </Button>
              <Button
                variant="default"
                onClick={() => add(`Section ${groupBySection(questions).length + 1}`, null)}
                disabled={questions.length >= CR_LIMITS.questions}
              >
                Add section
              </Button>
            </Group>
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="preview" pt="md">
          <ToolPreview questions={questions} privilegeLabel={privilegeLabel} />
        </Tabs.Panel>
      </Tabs>

      <ErrorNotice message={failure} />
      <Group gap="sm" wrap="wrap">
        <Button onClick={() => void saveDraft()} loading={saveQuestions.isPending && !publishing}>
          Save draft
        </Button>
        {version.abilities.publish && (
          <Button variant="light" onClick={startPublishing}>
            Publish
          </Button>
        )}
        {version.abilities.discard && (
          <Button variant="subtle" color="red.9" onClick={() => setDiscarding(true)}>
            Discard draft
          </Button>
        )}
        <Text size="sm" c="dimmed">
          {questionCount(questions.length)}
          {dirty ? ' · unsaved changes' : ' · saved'}
        </Text>
      </Group>

      <ConfirmActionModal
        opened={removingQuestion !== null && removingQuestion !== undefined}
        title={`Remove question ${removing === null ? '' : removing + 1}?`}
        message={
          removingQuestion
            ? `"${removingQuestion.text || removingQuestion.key}" will be removed from this draft when you save it. Conditions that use its key (${removingQuestion.key}) will need changing.`
            : ''
        }
        confirmLabel="Remove question"
        danger
        onConfirm={confirmRemove}
        onCancel={() => setRemoving(null)}
      />
      <ConfirmActionModal
        opened={discarding}
        title={`Discard the draft of version ${version.version}?`}
        message="Its questions and changes are deleted. The published version stays in use."
        confirmLabel="Discard draft"
        danger
        onConfirm={() => void confirmDiscard()}
        onCancel={() => setDiscarding(false)}
      />
      <PublishModal
        opened={publishing}
        version={version.version}
        saving={saveQuestions.isPending || publish.isPending}
        unsaved={dirty}
        onPublish={confirmPublish}
        onCancel={() => setPublishing(false)}
      />
      {leaveWarning}
    </Stack>
  );
}

interface PublishModalProps {
  opened: boolean;
  version: number;
  saving: boolean;
  unsaved: boolean;
  /** Resolves to what to show in the dialog, or null when it is done. */
  onPublish: (note: string) => Promise<PublishProblem | null>;
  onCancel: () => void;
}

function PublishModal({ opened, version, saving, unsaved, onPublish, onCancel }: PublishModalProps) {
  const [note, setNote] = useState('');
  const [problem, setProblem] = useState<PublishProblem | null>(null);
  const noteRequired = version > 1;

  useEffect(() => {
    if (opened) {
      setNote('');
      setProblem(null);
    }
  }, [opened]);

  async function submit() {
    setProblem(await onPublish(note));
  }

  return (
    <DialogModal opened={opened} onClose={onCancel} title={`Publish version ${version}`}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
        noValidate
      >
        <Stack gap="md">
          <Text size="sm">
            New reviews use the published version. It cannot change afterwards: later changes go in a new version.
            {version > 1 && ' The version in use now is retired; its results are kept.'}
            {unsaved && ' Your unsaved changes are saved first.'}
          </Text>
          <Textarea
            label="What changed"
            description={
              noteRequired
                ? 'Required: reviewers and programme leads read it when results shift between versions.'
                : 'Optional for the first version.'
            }
            required={noteRequired}
            rows={3}
            resize="vertical"
            maxLength={1000}
            value={note}
            onChange={(event) => {
              setNote(event.currentTarget.value);
              setProblem(null);
            }}
            error={problem?.note}
            data-autofocus
          />
          {problem?.general && (
            <Alert color="red" variant="light" role="alert">
              {problem.general}
            </Alert>
          )}
          <DialogActions onCancel={onCancel}>
            <Button type="submit" loading={saving}>
              Publish version {version}
            </Button>
          </DialogActions>
        </Stack>
      </form>
    </DialogModal>
  );
}
