import { Anchor, Badge, Button, Group, Paper, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { type FormEvent, type ReactNode, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { ConfirmActionModal } from '../../../components/ConfirmActionModal';
import { ErrorNotice, LoadFailure, PageHeading } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';
import { formatDate } from '../../../lib/dates';
import { usePageTitle } from '../../../lib/use-page-title';
import { useCrSettings } from '../api/settings';
import { type CrTool, type CrToolVersionSummary, useStartVersion, useTool, useUpdateTool } from '../api/tools-detail';
import { idParam, Loading } from './cr-parts';
import { ToolFields, useToolForm } from './tool-form';
import { questionCount } from './tool-words';
import { chartReviewRoute, useChartReviewProjectId } from './use-chart-review-project';
import { StatusBadge, VersionPanel } from './VersionPanel';

/** The version a tool opens on: its draft, else the published one, else the newest. */
function defaultVersionId(tool: CrTool): number | null {
  return tool.draft?.id ?? tool.published?.id ?? tool.versions[0]?.id ?? null;
}

/** /app/chart-review/{projectId}/tools/{toolId}: a tool's details, its versions, and the selected version (?version=). */
export function ToolPage() {
  const projectId = useChartReviewProjectId();
  const toolId = idParam(useParams().toolId);
  const tool = useTool(projectId, toolId);
  const settings = useCrSettings(projectId);
  usePageTitle(tool.data ? `${tool.data.name} | Audit tools` : 'Audit tool');
  const back = (
    <Anchor component={Link} to={chartReviewRoute(projectId, 'tools')} size="sm">
      ← All audit tools
    </Anchor>
  );

  let body: ReactNode;
  if (toolId === null) body = <ErrorNotice message="This audit tool does not exist." />;
  else if (tool.isPending || settings.isPending) body = <Loading label="Loading the audit tool" />;
  else if (tool.isError || settings.isError)
    body = (
      <LoadFailure
        error={tool.error ?? settings.error}
        fallback="The audit tool could not be loaded. Please try again."
        retrying={tool.isFetching || settings.isFetching}
        onRetry={() => {
          if (tool.isError) void tool.refetch();
          if (settings.isError) void settings.refetch();
        }}
      />
    );
  else return <ToolScreen projectId={projectId} tool={tool.data} back={back} />;

  return (
    <Stack gap="lg" w="100%" maw={1100}>
      {back}
      <PageHeading title="Audit tool" />
      {body}
    </Stack>
  );
}

function ToolScreen({ projectId, tool, back }: { projectId: string; tool: CrTool; back: ReactNode }) {
  const settings = useCrSettings(projectId);
  const [searchParams, setSearchParams] = useSearchParams();
  const start = useStartVersion(projectId, tool.id);
  const [failure, setFailure] = useState<string | null>(null);
  const asked = idParam(searchParams.get('version'));
  const selectedId = tool.versions.some((version) => version.id === asked) ? asked : defaultVersionId(tool);
  const select = (versionId: number | null) =>
    setSearchParams(versionId === null ? {} : { version: String(versionId) });

  async function startNewVersion() {
    setFailure(null);
    try {
      const version = await start.mutateAsync();
      toast.success(`Version ${version.version} started with the questions of the latest version.`);
      select(version.id);
    } catch (error) {
      setFailure(messageFor(error, 'A new version could not be started. Please try again.'));
    }
  }

  const startButton =
    tool.abilities.edit && !tool.draft ? (
      <Button onClick={() => void startNewVersion()} loading={start.isPending}>
        Start a new version
      </Button>
    ) : null;

  return (
    <Stack gap="lg" w="100%" maw={1100}>
      {back}
      <Group gap="sm" align="center" wrap="wrap">
        <PageHeading title={tool.name} />
        {tool.retired && (
          <Badge variant="light" color="gray.8" size="lg">
            Retired
          </Badge>
        )}
      </Group>
      <ToolDetails projectId={projectId} tool={tool} />
      <Paper
        withBorder
        radius="md"
        p={{ base: 'sm', sm: 'md' }}
        component="section"
        aria-labelledby="cr-versions-title"
      >
        <Stack gap="sm">
          <Title order={2} fz="h3" id="cr-versions-title">
            Versions
          </Title>
          <ErrorNotice message={failure} />
          <VersionsTable versions={tool.versions} selectedId={selectedId} onSelect={select} />
        </Stack>
      </Paper>
      {selectedId !== null && settings.data && (
        <VersionPanel
          key={selectedId}
          projectId={projectId}
          versionId={selectedId}
          settings={settings.data}
          startNewVersion={startButton}
          onDone={select}
        />
      )}
    </Stack>
  );
}

function VersionsTable({
  versions,
  selectedId,
  onSelect,
}: {
  versions: CrToolVersionSummary[];
  selectedId: number | null;
  onSelect: (versionId: number) => void;
}) {
  return (
    <Table.ScrollContainer minWidth={680}>
      <Table verticalSpacing="xs" aria-label="Versions">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Version</Table.Th>
            <Table.Th scope="col">Status</Table.Th>
            <Table.Th scope="col">Published</Table.Th>
            <Table.Th scope="col">What changed</Table.Th>
            <Table.Th scope="col">Questions</Table.Th>
            <Table.Th scope="col">
              <VisuallyHidden>Open</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {versions.map((version) => {
            const current = version.id === selectedId;
            return (
              <Table.Tr
                key={version.id}
                data-version-id={version.id}
                bg={current ? 'var(--mantine-color-blue-light)' : undefined}
              >
                <Table.Td>v{version.version}</Table.Td>
                <Table.Td>
                  <StatusBadge status={version.status} />
                </Table.Td>
                <Table.Td>
                  {version.published_at
                    ? `${formatDate(version.published_at)}${version.published_by ? ` by ${version.published_by.name}` : ''}`
                    : '—'}
                </Table.Td>
                <Table.Td>
                  <Text size="sm" lineClamp={2}>
                    {version.note || '—'}
                  </Text>
                </Table.Td>
                <Table.Td>{questionCount(version.question_count)}</Table.Td>
                <Table.Td>
                  <Button
                    variant={current ? 'light' : 'subtle'}
                    size="compact-sm"
                    aria-label={`Open version ${version.version}`}
                    aria-current={current ? 'true' : undefined}
                    onClick={() => onSelect(version.id)}
                  >
                    {current ? 'Open' : version.status === 'draft' ? 'Edit' : 'View'}
                  </Button>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Name and purpose (editable with the edit ability), and retiring or bringing back the tool. */
function ToolDetails({ projectId, tool }: { projectId: string; tool: CrTool }) {
  const update = useUpdateTool(projectId, tool.id);
  const form = useToolForm(tool, 'The tool could not be saved. Please try again.');
  const { setFailure } = form;
  const [confirming, setConfirming] = useState(false);

  if (!tool.abilities.edit)
    return (
      <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }}>
        <Text c={tool.purpose ? undefined : 'dimmed'}>{tool.purpose || 'No purpose given.'}</Text>
      </Paper>
    );

  const submit = (event: FormEvent) =>
    form.submit(event, async (input) => {
      const saved = await update.mutateAsync({ ...input, retired: tool.retired });
      form.setName(saved.name);
      form.setPurpose(saved.purpose);
      toast.success('Tool details saved.');
    });

  async function toggleRetired() {
    setConfirming(false);
    setFailure(null);
    try {
      await update.mutateAsync({ name: tool.name, purpose: tool.purpose, retired: !tool.retired });
      toast.success(tool.retired ? `"${tool.name}" is back in use.` : `"${tool.name}" is retired.`);
    } catch (error) {
      setFailure(messageFor(error, 'The tool could not be changed. Please try again.'));
    }
  }

  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} component="section" aria-label="Tool details">
      <form onSubmit={(event) => void submit(event)} noValidate aria-label="Tool details">
        <Stack gap="sm">
          <ToolFields form={form} />
          <Group gap="sm" wrap="wrap">
            <Button type="submit" variant="default" loading={update.isPending && !confirming}>
              Save details
            </Button>
            <Button variant="subtle" color={tool.retired ? undefined : 'red.9'} onClick={() => setConfirming(true)}>
              {tool.retired ? 'Bring back' : 'Retire tool'}
            </Button>
          </Group>
        </Stack>
      </form>
      <ConfirmActionModal
        opened={confirming}
        title={tool.retired ? `Bring back "${tool.name}"?` : `Retire "${tool.name}"?`}
        message={
          tool.retired
            ? 'It can then be chosen for programmes again.'
            : `It will no longer be offered for programmes${tool.program_count ? ` (${tool.program_count} use it now)` : ''}. Its versions and results are kept, and you can bring it back later.`
        }
        confirmLabel={tool.retired ? 'Bring back' : 'Retire tool'}
        danger={!tool.retired}
        onConfirm={() => void toggleRetired()}
        onCancel={() => setConfirming(false)}
      />
    </Paper>
  );
}
