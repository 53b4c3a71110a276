import { Alert, Badge, Code, Group, Paper, Stack, Tabs, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import type { CrSettings } from '../api/settings';
import { type CrQuestion, type CrToolVersion, useToolVersion } from '../api/tool-versions';
import { QueryPanel } from './cr-parts';
import { DraftEditor } from './DraftEditor';
import { QuestionSection } from './QuestionSection';
import { groupBySection } from './question-draft';
import { ToolPreview } from './ToolPreview';
import { ANSWER_TYPE_LABELS, publishedLabel, questionCount, VERSION_STATUS_LABELS } from './tool-words';

interface VersionPanelProps {
  projectId: string;
  versionId: number;
  settings: CrSettings;
  /** "Start a new version" for a version shown read-only, when the tool has no draft and I may edit it. */
  startNewVersion: ReactNode;
  onDone: (versionId: number | null) => void;
}

/** One version of a tool: the draft editor, or a read-only view of a published or retired version. */
export function VersionPanel({ projectId, versionId, settings, startNewVersion, onDone }: VersionPanelProps) {
  const version = useToolVersion(projectId, versionId);

  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'lg' }} component="section" aria-labelledby="cr-version-title">
      <Stack gap="md">
        <Group gap="sm" wrap="wrap">
          <Title order={2} fz="h3" id="cr-version-title">
            Version {version.data?.version ?? ''}
          </Title>
          {version.data && <StatusBadge status={version.data.status} />}
        </Group>
        <QueryPanel
          query={version}
          fallback="This version could not be loaded. Please try again."
          loadingLabel="Loading the version"
        >
          {(data) =>
            data.status === 'draft' && !data.frozen && data.abilities.edit ? (
              <DraftEditor
                key={data.id}
                projectId={projectId}
                version={data}
                partialEnabled={settings.partial_enabled}
                privilegeLabel={settings.privilege_label}
                onDone={onDone}
              />
            ) : (
              <ReadOnlyVersion version={data} settings={settings} startNewVersion={startNewVersion} />
            )
          }
        </QueryPanel>
      </Stack>
    </Paper>
  );
}

export function StatusBadge({ status }: { status: CrToolVersion['status'] }) {
  // Dark shades: the light badges' text must keep 4.5:1 contrast (yellow never does).
  const color = status === 'draft' ? 'blue.9' : status === 'published' ? 'green.9' : 'gray.8';
  return (
    <Badge variant="light" color={color}>
      {VERSION_STATUS_LABELS[status]}
    </Badge>
  );
}

function ReadOnlyVersion({
  version,
  settings,
  startNewVersion,
}: {
  version: CrToolVersion;
  settings: CrSettings;
  startNewVersion: ReactNode;
}) {
  const explanation =
    version.status === 'draft'
      ? 'You can read this draft; only a chart review admin or programme lead can change it.'
      : `${version.status === 'published' ? publishedLabel(version) : `Retired (was ${publishedLabel(version)})`}. A published version cannot change, so results stay comparable; changes go in a new version.`;
  return (
    <Stack gap="md">
      <Alert color="gray" variant="light">
        <Stack gap={4}>
          <Text size="sm">{explanation}</Text>
          {version.note && (
            <Text size="sm">
              <Text span fw={700}>
                What changed:
              </Text>{' '}
              {version.note}
            </Text>
          )}
        </Stack>
      </Alert>
      {startNewVersion && <Group>{startNewVersion}</Group>}
      <Tabs defaultValue="questions" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="questions">Questions</Tabs.Tab>
          <Tabs.Tab value="preview">Preview</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="questions" pt="md">
          <QuestionList questions={version.questions} />
        </Tabs.Panel>
        <Tabs.Panel value="preview" pt="md">
          <ToolPreview questions={version.questions} privilegeLabel={settings.privilege_label} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

function QuestionList({ questions }: { questions: CrQuestion[] }) {
  if (questions.length === 0) return <Text c="dimmed">This version has no questions.</Text>;
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {questionCount(questions.length)}
      </Text>
      {groupBySection(questions).map((group) => (
        <QuestionSection key={group.items[0]?.question.id} section={group.section} gap="xs">
          {group.items.map(({ question, index }) => (
            <Paper key={question.id} withBorder radius="md" p="sm" data-question-key={question.key}>
              <Stack gap={4}>
                <Text fw={600}>
                  {index + 1}. {question.text}
                </Text>
                {question.help && (
                  <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-line' }}>
                    {question.help}
                  </Text>
                )}
                <Group gap={6} wrap="wrap">
                  <Badge variant="light" color="gray.8" tt="none">
                    {ANSWER_TYPE_LABELS[question.answer_type]}
                  </Badge>
                  <Badge variant="light" color="gray.8" tt="none">
                    Weight {question.weight}
                  </Badge>
                  {question.critical && (
                    <Badge variant="light" color="red.9" tt="none">
                      Critical
                    </Badge>
                  )}
                  <Badge variant="light" color="gray.8" tt="none">
                    {question.na_allowed
                      ? question.na_reason_required
                        ? 'N/A with a reason'
                        : 'N/A allowed'
                      : 'No N/A'}
                  </Badge>
                  {question.show_if && (
                    <Badge variant="light" color="blue.9" tt="none">
                      {/* The condition as the editor wrote it, in the question keys it reads. */}
                      Shown when <code>{question.show_if}</code>
                    </Badge>
                  )}
                </Group>
                {/* The key is for the tool's editors (conditions and exports use it): secondary, small, as code. */}
                <Text size="xs" c="dimmed">
                  Key{' '}
                  <Code fz="xs" data-key>
                    {question.key}
                  </Code>
                </Text>
              </Stack>
            </Paper>
          ))}
        </QuestionSection>
      ))}
    </Stack>
  );
}
