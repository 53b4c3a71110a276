import { Badge, Button, Code, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { toast } from 'sonner';
import { ConfirmActionModal } from '../../../components/ConfirmActionModal';
import { ScrollTable } from '../../../components/form-parts/ScrollTable';
import { ErrorNotice, PageHeading, QueryBody } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';
import { usePageTitle } from '../../../lib/use-page-title';
import {
  type NumberingMode,
  type NumberingResult,
  useNumbering,
  useSetNumberingMode,
} from '../api/structure-numbering';
import { useMonitoringProjectId } from './use-monitoring-project';

const MODES: Record<NumberingMode, { label: string; explanation: string }> = {
  auto: {
    label: 'Automatic',
    explanation:
      'Numbers follow the tree: the first top-level page is 1, its second sub-page 1.2, and so on. Moving or adding a page renumbers the pages after it.',
  },
  manual: {
    label: 'Manual',
    explanation:
      'People type each page’s number; every number is used once in the project. Moving a page keeps its number.',
  },
};

/** /app/monitoring/{projectId}/numbering: automatic or manual page numbers. */
export function NumberingPage(_props: Record<string, never>) {
  usePageTitle('Numbering');
  const projectId = useMonitoringProjectId();
  const numbering = useNumbering(projectId);
  const switchMode = useSetNumberingMode(projectId);
  const [confirming, setConfirming] = useState(false);
  const [result, setResult] = useState<NumberingResult | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const mode = numbering.data?.mode;
  const other: NumberingMode = mode === 'auto' ? 'manual' : 'auto';

  async function apply() {
    setConfirming(false);
    setFailure(null);
    try {
      const answer = await switchMode.mutateAsync(other);
      setResult(answer);
      toast.success(
        answer.mode === 'auto'
          ? `Automatic numbering is on: ${answer.changed} ${answer.changed === 1 ? 'page' : 'pages'} renumbered.`
          : 'Manual numbering is on: every page keeps its number.',
      );
    } catch (error) {
      setFailure(messageFor(error, 'The numbering could not be changed. Please try again.'));
    }
  }

  return (
    <Stack gap="lg" w="100%" maw={900}>
      <PageHeading title="Numbering">How the pages of the tree get their numbers.</PageHeading>
      <QueryBody
        query={numbering}
        fallback="The numbering could not be loaded. Please try again."
        loadingLabel="Loading the numbering"
        rows={2}
      >
        {(data) => (
          <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby="mode-heading">
            <Stack gap="md">
              <Group gap="sm">
                <Title order={2} fz="h4" id="mode-heading">
                  Numbering mode
                </Title>
                <Badge variant="light" data-testid="numbering-mode">
                  {MODES[data.mode].label}
                </Badge>
              </Group>
              <Text>{MODES[data.mode].explanation}</Text>
              <Text size="sm" c="dimmed">
                {data.pages} {data.pages === 1 ? 'page' : 'pages'} in the tree.
              </Text>
              <ErrorNotice message={failure} />
              <Group>
                <Button onClick={() => setConfirming(true)} loading={switchMode.isPending}>
                  {other === 'auto' ? 'Switch to automatic numbering' : 'Switch to manual numbering'}
                </Button>
              </Group>
            </Stack>
          </Paper>
        )}
      </QueryBody>
      {result && <SwitchResult result={result} />}
      <ConfirmActionModal
        opened={confirming}
        title={other === 'auto' ? 'Switch to automatic numbering?' : 'Switch to manual numbering?'}
        message={
          other === 'auto'
            ? 'Every page gets its number from its place in the tree. Numbers typed by hand are replaced.'
            : 'Every page keeps its current number; from now on people type the numbers of new and moved pages.'
        }
        confirmLabel={other === 'auto' ? 'Switch and renumber' : 'Switch to manual'}
        onConfirm={() => void apply()}
        onCancel={() => setConfirming(false)}
      />
    </Stack>
  );
}

function SwitchResult({ result }: { result: NumberingResult }) {
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby="result-heading">
      <Stack gap="sm">
        <Title order={2} fz="h4" id="result-heading">
          Result
        </Title>
        <Text role="status">
          {result.mode === 'manual'
            ? 'Manual numbering is on. No number changed.'
            : result.changed === 0
              ? 'Automatic numbering is on. Every page already had its number.'
              : `Automatic numbering is on. ${result.changed} ${result.changed === 1 ? 'page was' : 'pages were'} renumbered.`}
        </Text>
        {result.changes.length > 0 && (
          <ScrollTable
            minWidth={420}
            verticalSpacing="xs"
            striped
            aria-label="Renumbered pages"
            columns={['Page', 'From', 'To']}
          >
            {result.changes.map((change) => (
              <Table.Tr key={change.id}>
                <Table.Td>{change.title}</Table.Td>
                <Table.Td>{change.from ? <Code>{change.from}</Code> : '—'}</Table.Td>
                <Table.Td>{change.to ? <Code>{change.to}</Code> : '—'}</Table.Td>
              </Table.Tr>
            ))}
          </ScrollTable>
        )}
      </Stack>
    </Paper>
  );
}
