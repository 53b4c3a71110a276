import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Modal,
  Paper,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { crToolInputSchema } from '@portal/shared';
import { type FormEvent, type ReactNode, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { LoadFailure, PageHeading } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';
import { type FieldErrors, schemaFieldErrors, serverFieldErrors } from '../../../lib/field-errors';
import { usePageTitle } from '../../../lib/use-page-title';
import { type CrToolSummary, useCreateTool, useTools } from '../api/tools-list';
import { EmptyState, Loading } from './cr-parts';
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

  let body: ReactNode;
  if (tools.isPending) body = <Loading label="Loading the audit tools" />;
  else if (tools.isError)
    body = (
      <LoadFailure
        error={tools.error}
        fallback="The audit tools could not be loaded. Please try again."
        retrying={tools.isFetching}
        onRetry={() => void tools.refetch()}
      />
    );
  else if (tools.data.tools.length === 0)
    body = (
      <EmptyState title="No audit tools yet." action={newTool}>
        An audit tool is the set of questions a reviewer answers for each chart, such as "Was the pain score documented
        within 1 hour of admission?", grouped in sections and answered Yes, No or N/A. Each change is published as a new
        version, so earlier results stay comparable.
      </EmptyState>
    );
  else body = <ToolsTable projectId={projectId} tools={tools.data.tools} />;

  return (
    <Stack gap="lg" w="100%" maw={1100}>
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        <PageHeading title="Audit tools">The question sets reviewers answer for each chart.</PageHeading>
        {tools.data && tools.data.tools.length > 0 && newTool}
      </Group>
      {body}
      <NewToolModal projectId={projectId} opened={creating} onClose={() => setCreating(false)} />
    </Stack>
  );
}

function ToolsTable({ projectId, tools }: { projectId: string; tools: CrToolSummary[] }) {
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }}>
      <Table.ScrollContainer minWidth={720}>
        <Table verticalSpacing="sm" striped aria-label="Audit tools">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Name</Table.Th>
              <Table.Th scope="col">Purpose</Table.Th>
              <Table.Th scope="col">Published version</Table.Th>
              <Table.Th scope="col">Programmes</Table.Th>
              <Table.Th scope="col">Status</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
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
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}

const TOOL_FIELDS = ['name', 'purpose'] as const;
type ToolField = (typeof TOOL_FIELDS)[number];

/** Name and purpose of a new tool; it opens on its empty draft version 1. */
function NewToolModal({ projectId, opened, onClose }: { projectId: string; opened: boolean; onClose: () => void }) {
  const navigate = useNavigate();
  const create = useCreateTool(projectId);
  const [name, setName] = useState('');
  const [purpose, setPurpose] = useState('');
  const [errors, setErrors] = useState<FieldErrors<ToolField>>({});
  const [failure, setFailure] = useState<string | null>(null);

  function close() {
    setName('');
    setPurpose('');
    setErrors({});
    setFailure(null);
    onClose();
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    const parsed = crToolInputSchema.safeParse({ name, purpose });
    if (!parsed.success) {
      setErrors(schemaFieldErrors<ToolField>(parsed.error));
      return;
    }
    setErrors({});
    try {
      const tool = await create.mutateAsync(parsed.data);
      toast.success(`Tool "${tool.name}" created. Add its questions, then publish it.`);
      await navigate(chartReviewRoute(projectId, `tools/${tool.id}`));
    } catch (error) {
      const fields = serverFieldErrors(error, TOOL_FIELDS);
      setErrors(fields);
      if (Object.keys(fields).length === 0)
        setFailure(messageFor(error, 'The tool could not be created. Please try again.'));
    }
  }

  return (
    <Modal opened={opened} onClose={close} title="New audit tool" centered closeButtonProps={{ 'aria-label': 'Close' }}>
      <form onSubmit={(event) => void submit(event)} noValidate aria-label="New audit tool">
        <Stack gap="md">
          <TextInput
            label="Name"
            description="For example: Nursing documentation audit."
            required
            maxLength={120}
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            error={errors.name}
            data-autofocus
          />
          <Textarea
            label="Purpose"
            description="What the audit checks and why, for reviewers and programme leads."
            rows={2}
            resize="vertical"
            maxLength={1000}
            value={purpose}
            onChange={(event) => setPurpose(event.currentTarget.value)}
            error={errors.purpose}
          />
          {failure && (
            <Alert color="red" variant="light" role="alert">
              {failure}
            </Alert>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Create tool
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
