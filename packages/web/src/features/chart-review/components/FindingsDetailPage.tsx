import { Anchor, Badge, Button, Group, Paper, SimpleGrid, Stack, Table, Text, Textarea, Title } from '@mantine/core';
import { CR_FINDING_LIMITS, formatPercent } from '@portal/shared';
import { type ReactNode, useState } from 'react';
import { Link, useParams } from 'react-router';
import { toast } from 'sonner';
import { DialogActions } from '../../../components/form-parts/DialogActions';
import { DialogModal } from '../../../components/form-parts/DialogModal';
import { PageHeading } from '../../../components/page-parts';
import { ApiError, messageFor } from '../../../lib/api';
import { formatDate } from '../../../lib/dates';
import { usePageTitle } from '../../../lib/use-page-title';
import { type CrFinding, useChangeFindingStatus, useFinding } from '../api/findings';
import { ActionPlanEditor } from './ActionPlanEditor';
import { idParam, ProjectPrivilegeBanner, QueryPanel } from './cr-parts';
import { FINDING_STATUS_COLORS, FINDING_STATUS_LABELS, periodName, rateWithN, successWords } from './findings-words';
import { chartReviewRoute, useChartReviewProjectId } from './use-chart-review-project';

/** /app/chart-review/{projectId}/findings/{findingId}: the finding, its action plan and its success rule. */
export function FindingsDetailPage() {
  usePageTitle('Finding');
  const projectId = useChartReviewProjectId();
  const findingId = idParam(useParams().findingId);
  const finding = useFinding(projectId, findingId);

  return (
    <Stack gap="lg" w="100%" maw={1100}>
      <Anchor component={Link} to={chartReviewRoute(projectId, 'findings')}>
        Back to the findings
      </Anchor>
      {findingId === null ? (
        <Text>This finding does not exist.</Text>
      ) : (
        <QueryPanel
          query={finding}
          fallback="The finding could not be loaded. Please try again."
          loadingLabel="Loading the finding"
        >
          {(data) => <FindingView projectId={projectId} finding={data} />}
        </QueryPanel>
      )}
    </Stack>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fw={500}>{children}</Text>
    </Stack>
  );
}

function FindingView({ projectId, finding }: { projectId: string; finding: CrFinding }) {
  const edit = finding.abilities.edit;
  const closed = finding.status === 'closed';
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <PageHeading title={finding.title}>
          {finding.program.name} · {periodName(finding.period_start, finding.program.grain)}
        </PageHeading>
        <Badge color={FINDING_STATUS_COLORS[finding.status]} variant="light" size="lg">
          {FINDING_STATUS_LABELS[finding.status]}
        </Badge>
      </Group>
      <ProjectPrivilegeBanner projectId={projectId} />
      <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }}>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="md">
          <Fact label="Rate">{rateWithN(finding.rate, finding.n)}</Fact>
          <Fact label="Target">{formatPercent(finding.target, { digits: 2 })}</Fact>
          <Fact label="Period">{periodName(finding.period_start, finding.program.grain)}</Fact>
          <Fact label="Unit">{finding.unit ?? 'Every unit'}</Fact>
          <Fact label="Question">
            {finding.question_key === null
              ? 'All questions (overall)'
              : (finding.question_text ?? 'A question no longer in the tool')}
          </Fact>
          <Fact label="Recorded">
            {formatDate(finding.created_at)}
            {finding.created_by ? ` by ${finding.created_by.name}` : ''}
          </Fact>
        </SimpleGrid>
        {finding.small_n && (
          <Text c="dimmed" size="sm" mt="sm">
            Small n (fewer than 5 applicable): one chart changes the rate a lot. Read it with care.
          </Text>
        )}
        {closed && (
          <Text mt="sm">
            Closed {finding.closed_at ? formatDate(finding.closed_at) : ''}
            {finding.closed_by ? ` by ${finding.closed_by.name}` : ' automatically'}: {finding.close_note}
          </Text>
        )}
      </Paper>
      <ActionPlanEditor
        key={`${finding.id}-${finding.action_plan.updated_at ?? ''}-${finding.status}`}
        projectId={projectId}
        finding={finding}
        readOnly={!edit || closed}
      />
      <SuccessPanel finding={finding} />
      {edit && <StatusChange projectId={projectId} finding={finding} />}
    </Stack>
  );
}

function SuccessPanel({ finding }: { finding: CrFinding }) {
  const state = finding.plan.success;
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} component="section" aria-labelledby="success-rule">
      <Stack gap="sm">
        <Title order={2} fz="h4" id="success-rule">
          Success rule
        </Title>
        <Text>
          {finding.measure ? `Linked measure: ${finding.measure.name}.` : 'No linked measure.'} {successWords(state)}
        </Text>
        {state.latest.length === 0 ? (
          <Text c="dimmed">No complete period after the finding’s period yet.</Text>
        ) : (
          <Table.ScrollContainer minWidth={320}>
            <Table aria-label="Latest periods" striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Period</Table.Th>
                  <Table.Th scope="col">Value</Table.Th>
                  <Table.Th scope="col">At or beyond target</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {state.latest.map((point) => (
                  <Table.Tr key={point.period}>
                    <Table.Td>{periodName(point.period)}</Table.Td>
                    <Table.Td>{point.value === null ? 'No data' : formatPercent(point.value)}</Table.Td>
                    <Table.Td>{point.met ? 'Yes' : 'No'}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Paper>
  );
}

/** Close (with a note, after confirming) or reopen (with a note). */
function StatusChange({ projectId, finding }: { projectId: string; finding: CrFinding }) {
  const action = finding.status === 'closed' ? 'reopen' : 'close';
  const [opened, setOpened] = useState(false);
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const change = useChangeFindingStatus(projectId, finding.id);
  const label = action === 'close' ? 'Close finding' : 'Reopen finding';

  async function confirm() {
    if (note.trim() === '') {
      setError(
        action === 'close'
          ? 'Write a note: why this finding is closed.'
          : 'Write a note: why this finding is reopened.',
      );
      return;
    }
    try {
      await change.mutateAsync({ action, note });
      toast.success(action === 'close' ? 'Finding closed.' : 'Finding reopened.');
      setOpened(false);
      setNote('');
      setError(null);
    } catch (failure) {
      const fieldMessage =
        failure instanceof ApiError
          ? ((failure.body as { errors?: { note?: string[] } } | null)?.errors?.note?.[0] ?? null)
          : null;
      if (fieldMessage) setError(fieldMessage);
      else toast.error(messageFor(failure, 'The finding could not be changed. Please try again.'));
    }
  }

  return (
    <>
      <Group>
        <Button variant={action === 'close' ? 'default' : 'light'} onClick={() => setOpened(true)}>
          {label}
        </Button>
      </Group>
      <DialogModal
        opened={opened}
        onClose={() => setOpened(false)}
        title={action === 'close' ? 'Close this finding?' : 'Reopen this finding?'}
      >
        <Stack gap="md">
          <Text>
            {action === 'close'
              ? 'A closed finding and its plan no longer change. Say why it is closed: the note stays with it.'
              : 'The finding and its plan can change again. Say why it is reopened.'}
          </Text>
          <Textarea
            label="Note"
            required
            resize="vertical"
            rows={2}
            maxLength={CR_FINDING_LIMITS.note}
            value={note}
            onChange={(event) => {
              setNote(event.currentTarget.value);
              setError(null);
            }}
            error={error}
            data-autofocus
          />
          <DialogActions onCancel={() => setOpened(false)}>
            <Button onClick={() => void confirm()} loading={change.isPending}>
              {label}
            </Button>
          </DialogActions>
        </Stack>
      </DialogModal>
    </>
  );
}
