import { Anchor, Badge, Button, Group, Stack, Table, Text } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { DialogActions } from '../../../components/form-parts/DialogActions';
import { DialogModal } from '../../../components/form-parts/DialogModal';
import { PageHeading } from '../../../components/page-parts';
import { usePageTitle } from '../../../lib/use-page-title';
import { type CrToolSummary, useCreateTool, useTools } from '../api/tools-list';
import { EmptyState, QueryPanel, TableCard } from './cr-parts';
import { ToolFields, useToolForm } from './tool-form';
import { publishedLabel } from './tool-words';
import { chartReviewRoute, useChartReviewProjectId } from './use-chart-review-project';

/** /app/chart-review/{projectId}/tools: the audit tools (question sets) reviewers fill in for each case. */
export function ToolsPage() {
  usePageTitle('Audit tools');
  const projectId = useChartReviewProjectId();
  const tools = useTools(projectId);
  const [creating, setCreating] = useState(false);
  const mayCreate = tools.data?.abilities.create === true;
  const newTool = mayCreate && <Button onClick={() => setCreating(true)}>New tool</Button>;

  return (
    <Stack gap="lg" w="100%" maw={1100}>
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        <PageHeading title="Audit tools">The question sets reviewers answer for each chart.</PageHeading>
        {tools.data && tools.data.tools.length > 0 && newTool}
      </Group>
      <QueryPanel
        query={tools}
        fallback="The audit tools could not be loaded. Please try again."
        loadingLabel="Loading the audit tools"
      >
        {({ tools: list }) =>
          list.length === 0 ? (
            <EmptyState title="No audit tools yet." action={newTool}>
              An audit tool is the set of questions a reviewer answers for each chart, such as "Was the pain score
              documented within 1 hour of admission?", grouped in sections and answered Yes, No or N/A. Each change is
              published as a new version, so earlier results stay comparable.
            </EmptyState>
          ) : (
            <ToolsTable projectId={projectId} tools={list} />
          )
        }
      </QueryPanel>
      <NewToolModal projectId={projectId} opened={creating} onClose={() => setCreating(false)} />
    </Stack>
  );
}

function ToolsTable({ projectId, tools }: { projectId: string; tools: CrToolSummary[] }) {
  return (
    <TableCard
      minWidth={720}
      aria-label="Audit tools"
      columns={['Name', 'Purpose', 'Published version', 'Programmes', 'Status']}
    >
      {tools.map((tool) => (
        <Table.Tr key={tool.id} data-tool-id={tool.id}>
          <Table.Td>
            <Anchor component={Link} to={chartReviewRoute(projectId, `tools/${tool.id}`)} fw={600}>
              {tool.name}
            </Anchor>
          </Table.Td>
          <Table.Td>
            <Text size="sm" lineClamp={2}>
              {tool.purpose || '—'}
            </Text>
          </Table.Td>
          <Table.Td>{publishedLabel(tool.published)}</Table.Td>
          <Table.Td>{tool.program_count}</Table.Td>
          <Table.Td>
            <Group gap={4} wrap="wrap">
              {tool.draft && (
                <Badge variant="light" color="blue.9">
                  Draft v{tool.draft.version}
                </Badge>
              )}
              {tool.retired && (
                <Badge variant="light" color="gray.8">
                  Retired
                </Badge>
              )}
              {!tool.draft && !tool.retired && (
                <Badge variant="light" color="green.9">
                  In use
                </Badge>
              )}
            </Group>
          </Table.Td>
        </Table.Tr>
      ))}
    </TableCard>
  );
}

/** Name and purpose of a new tool; it opens on its empty draft version 1. */
function NewToolModal({ projectId, opened, onClose }: { projectId: string; opened: boolean; onClose: () => void }) {
  const navigate = useNavigate();
  const create = useCreateTool(projectId);
  const form = useToolForm({ name: '', purpose: '' }, 'The tool could not be created. Please try again.');

  function close() {
    form.reset();
    onClose();
  }

  const submit = (event: FormEvent) =>
    form.submit(event, async (input) => {
      const tool = await create.mutateAsync(input);
      toast.success(`Tool "${tool.name}" created. Add its questions, then publish it.`);
      await navigate(chartReviewRoute(projectId, `tools/${tool.id}`));
    });

  return (
    <DialogModal opened={opened} onClose={close} title="New audit tool">
      <form onSubmit={(event) => void submit(event)} noValidate aria-label="New audit tool">
        <Stack gap="md">
          <ToolFields
            form={form}
            nameHint="For example: Nursing documentation audit."
            purposeHint="What the audit checks and why, for reviewers and programme leads."
            autoFocus
          />
          <DialogActions onCancel={close}>
            <Button type="submit" loading={create.isPending}>
              Create tool
            </Button>
          </DialogActions>
        </Stack>
      </form>
    </DialogModal>
  );
}
