import { Alert, Anchor, Button, Group, Modal, Paper, SimpleGrid, Stack, Text, Textarea } from '@mantine/core';
import { CR_ANSWER_LIMITS, type CrAnswerValue, type CrIrrDisagreement } from '@portal/shared';
import { type ReactNode, useId, useState } from 'react';
import { Link, useParams } from 'react-router';
import { toast } from 'sonner';
import { PageHeading } from '../../../components/page-parts';
import { ApiError, messageFor } from '../../../lib/api';
import { formatDate, formatMonth } from '../../../lib/dates';
import { usePageTitle } from '../../../lib/use-page-title';
import { type CrIrrPair, useAdjudicate, useIrrPair } from '../api/reviews';
import { ANSWER_LABELS, AnswerButtons, answerChoices } from './AnswerButtons';
import { idParam, PrivilegeBanner, QueryPanel } from './cr-parts';
import { PAIR_STATUS_LABELS } from './review-words';
import { chartReviewRoute, useChartReviewProjectId } from './use-chart-review-project';

type Choice = { value: CrAnswerValue | null; comment: string };

/**
 * /app/chart-review/{projectId}/irr/{pairId}: a case reviewed twice, its disagreeing questions side by side; someone
 * who reviewed neither picks the final answer of each, with a comment. Matching answers were accepted as they are.
 */
export function AdjudicationPage() {
  usePageTitle('Adjudication');
  const projectId = useChartReviewProjectId();
  const pairId = idParam(useParams().pairId);
  const pair = useIrrPair(projectId, pairId);
  const back = (
    <Anchor component={Link} to={chartReviewRoute(projectId, 'irr')}>
      Back to reliability
    </Anchor>
  );
  if (pairId === null || (pair.isError && pair.error instanceof ApiError && pair.error.status === 404))
    return (
      <Stack gap="lg" maw={900}>
        <PageHeading title="Second review not found" />
        {back}
      </Stack>
    );
  return (
    <QueryPanel
      query={pair}
      fallback="The second review could not be loaded. Please try again."
      loadingLabel="Loading the second review"
    >
      {(data) => (
        <Adjudication key={`${data.id}-${data.adjudicated_at}`} projectId={projectId} pair={data} back={back} />
      )}
    </QueryPanel>
  );
}

function Adjudication({ projectId, pair, back }: { projectId: string; pair: CrIrrPair; back: ReactNode }) {
  const [choices, setChoices] = useState<Record<string, Choice>>(() =>
    Object.fromEntries(
      pair.disagreements.map((d) => [d.key, { value: d.final?.value ?? null, comment: d.final?.comment ?? '' }]),
    ),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [confirming, setConfirming] = useState(false);
  const adjudicate = useAdjudicate(projectId, pair.id);
  const agreed = pair.items_agreed ?? 0;
  const canAdjudicate = pair.abilities.adjudicate;

  const save = () => {
    setConfirming(false);
    adjudicate.mutate(
      {
        final: Object.fromEntries(
          Object.entries(choices).map(([key, choice]) => [key, { value: choice.value, comment: choice.comment }]),
        ),
      },
      {
        onSuccess: () => {
          setErrors({});
          toast.success('Adjudication saved. The case counts again.');
        },
        onError: (error) => {
          const body = error instanceof ApiError ? (error.body as { errors?: Record<string, string[]> }) : null;
          const found: Record<string, string> = {};
          for (const [field, messages] of Object.entries(body?.errors ?? {})) {
            if (field.startsWith('final.') && messages[0]) found[field.slice('final.'.length)] = messages[0];
          }
          setErrors(found);
          toast.error(messageFor(error, 'The adjudication could not be saved.'));
        },
      },
    );
  };

  return (
    <Stack gap="lg" w="100%" maw={1100}>
      <PrivilegeBanner label={pair.privilege_label} />
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        <PageHeading title={`Adjudicate ${pair.case_code}`}>
          {pair.program.name} · {pair.unit ?? 'No unit'} · {formatMonth(pair.period_start)} ·{' '}
          {PAIR_STATUS_LABELS[pair.status]}
        </PageHeading>
        {back}
      </Group>
      {pair.adjudicate_blocked && (
        <Alert color="orange.9" variant="light" title="You cannot adjudicate this case">
          {pair.adjudicate_blocked}
        </Alert>
      )}
      {pair.status === 'pending' || pair.status === 'agreed' ? (
        <Text>
          {pair.status === 'pending'
            ? 'Both reviews must be submitted before they can be compared.'
            : 'The two reviews agree on every question: there is nothing to adjudicate.'}
        </Text>
      ) : (
        <>
          <Text>
            {agreed} of {pair.items_compared ?? 0} answers matched and were accepted as they are. Choose the final
            answer of the {pair.disagreements.length} that differ.
            {pair.adjudicated_by &&
              ` Adjudicated by ${pair.adjudicated_by.name}${pair.adjudicated_at ? ` on ${formatDate(pair.adjudicated_at)}` : ''}.`}
          </Text>
          {pair.disagreements.map((item) => (
            <DisagreementCard
              key={item.key}
              item={item}
              pair={pair}
              choice={choices[item.key] ?? { value: null, comment: '' }}
              error={errors[item.key] ?? null}
              editable={canAdjudicate}
              onChange={(next) => setChoices((current) => ({ ...current, [item.key]: next }))}
            />
          ))}
          {canAdjudicate && (
            <Group justify="flex-end">
              <Button onClick={() => setConfirming(true)} loading={adjudicate.isPending}>
                Save adjudication
              </Button>
            </Group>
          )}
        </>
      )}
      <Modal opened={confirming} onClose={() => setConfirming(false)} title="Save the adjudication?" centered>
        <Stack gap="md">
          <Text>The case's result is recomputed with these final answers and counts in the rates again.</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setConfirming(false)} data-autofocus>
              Cancel
            </Button>
            <Button onClick={save}>Save adjudication</Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

function Side({ title, value, note }: { title: string; value: CrAnswerValue | null; note: string }) {
  return (
    <Paper withBorder radius="sm" p="sm" bg="var(--mantine-color-gray-0)">
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {title}
      </Text>
      <Text fw={700}>{value ? ANSWER_LABELS[value] : 'Not shown to this reviewer'}</Text>
      {note && (
        <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
          {note}
        </Text>
      )}
    </Paper>
  );
}

function DisagreementCard(props: {
  item: CrIrrDisagreement;
  pair: CrIrrPair;
  choice: Choice;
  error: string | null;
  editable: boolean;
  onChange: (choice: Choice) => void;
}) {
  const { item, pair, choice } = props;
  const labelId = useId();
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} data-key={item.key}>
      <Stack gap="sm">
        <Text fw={600}>{item.text}</Text>
        {item.help && (
          <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-line' }}>
            {item.help}
          </Text>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Side title={`Reviewer A: ${pair.reviewer_a?.name ?? 'unknown'}`} value={item.a.value} note={item.a.note} />
          <Side title={`Reviewer B: ${pair.reviewer_b?.name ?? 'unknown'}`} value={item.b.value} note={item.b.note} />
        </SimpleGrid>
        <Text size="sm" fw={600} id={labelId}>
          Final answer
        </Text>
        <AnswerButtons
          labelledBy={labelId}
          choices={answerChoices(item, pair.partial_enabled)}
          value={choice.value}
          disabled={!props.editable}
          onChange={(value) => props.onChange({ ...choice, value })}
        />
        {props.error && (
          <Text size="sm" c="red.9" role="alert">
            {props.error}
          </Text>
        )}
        <Textarea
          label="Comment"
          rows={2}
          value={choice.comment}
          readOnly={!props.editable}
          maxLength={CR_ANSWER_LIMITS.comment}
          onChange={(event) => props.onChange({ ...choice, comment: event.currentTarget.value })}
        />
      </Stack>
    </Paper>
  );
}
