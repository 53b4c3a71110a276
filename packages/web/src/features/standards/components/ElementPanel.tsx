import {
  Alert,
  Anchor,
  Box,
  Breadcrumbs,
  Button,
  Divider,
  Drawer,
  Group,
  List,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import {
  STD_LIMITS,
  STD_RESULT_LABELS,
  STD_RESULTS,
  STD_STATUS_LABELS,
  STD_STATUSES,
  type StdResult,
  type StdStatus,
  stdCommentInputSchema,
  stdElementUpdateSchema,
  stdWordingSchema,
} from '@portal/shared';
import { type FormEvent, type ReactNode, useState } from 'react';
import { toast } from 'sonner';
import { ErrorNotice, LoadFailure, LoadingRows } from '../../../components/page-parts';
import { ApiError, messageFor } from '../../../lib/api';
import { formatDateTime, formatDay, formatDayLong } from '../../../lib/dates';
import { fieldBinder } from '../../../lib/field-binding';
import { type FieldErrors, schemaFieldErrors, serverFieldErrors } from '../../../lib/field-errors';
import {
  type StdElement,
  type StdWordingInput,
  useAddComment,
  useSaveElement,
  useSaveWording,
  useStdElement,
} from '../api/elements';
import { useStdMembers } from '../api/members';
import { CarriedFrom } from './CarriedFrom';
import { ElementEvidence } from './ElementEvidence';
import { ElementFindings } from './ElementFindings';
import { ElementLinks } from './ElementLinks';
import { InForceBadge, OverdueBadge, ResultBadge } from './std-parts';
import { TEXT_POLICY_HELP } from './std-words';

/** The side panel of one element (`?element=` on the compliance page): a drawer on the right, full screen on phones. */
export function ElementDrawer({
  projectId,
  reqId,
  onClose,
}: {
  projectId: string;
  reqId: number | null;
  onClose: () => void;
}) {
  const phone = useMediaQuery('(max-width: 48em)');
  const element = useStdElement(projectId, reqId);
  const notFound = element.error instanceof ApiError && element.error.status === 404;
  const data = reqId !== null && element.data?.id === reqId ? element.data : undefined;
  return (
    <Drawer
      opened={reqId !== null}
      onClose={onClose}
      position="right"
      size={phone ? '100%' : 'xl'}
      title={data ? `${data.node.ref_id} ${data.node.title}` : 'Element'}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {reqId === null ? null : element.isPending ? (
        <LoadingRows label="Loading the element" rows={6} />
      ) : notFound ? (
        <Text>This element does not exist in this project, or it was removed.</Text>
      ) : element.isError ? (
        <LoadFailure
          error={element.error}
          fallback="The element could not be loaded. Please try again."
          retrying={element.isFetching}
          onRetry={() => void element.refetch()}
        />
      ) : data ? (
        <ElementPanel
          projectId={projectId}
          element={data}
          reloading={element.isFetching}
          onReload={() => void element.refetch()}
        />
      ) : null}
    </Drawer>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap="xs" component="section" aria-label={title}>
      <Title order={3} fz="h4">
        {title}
      </Title>
      {children}
    </Stack>
  );
}

const preWrap = { whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' } as const;

/** Everything about one element: where it sits, its text, its assessment, links, comments and history. */
export function ElementPanel({
  projectId,
  element,
  reloading,
  onReload,
}: {
  projectId: string;
  element: StdElement;
  reloading: boolean;
  onReload: () => void;
}) {
  const { node, framework } = element;
  return (
    <Stack gap="lg">
      <Stack gap={6}>
        {node.path.length > 0 && (
          <Box component="nav" aria-label="Where this element sits">
            <Breadcrumbs separator="›" styles={{ root: { flexWrap: 'wrap' } }}>
              {node.path.map((part) => (
                <Text key={part.ref_id} size="xs" c="dimmed">
                  {part.ref_id} {part.title}
                </Text>
              ))}
            </Breadcrumbs>
          </Box>
        )}
        <Text size="sm" c="dimmed">
          {framework.name}, edition {framework.edition}
        </Text>
        <Group gap="xs">
          <ResultBadge result={element.result} />
          {element.overdue && <OverdueBadge />}
        </Group>
        <CarriedFrom element={element} />
      </Stack>

      {node.official_text || node.heading ? (
        <Section title="Regulation text">
          {node.in_force_from && (
            <Text size="sm">
              <InForceBadge day={node.in_force_from} /> This paragraph takes effect on{' '}
              {formatDayLong(node.in_force_from)}; readiness does not count it before then.
            </Text>
          )}
          <Paper withBorder radius="md" p="sm" bg="gray.0">
            {node.heading && (
              <Text size="sm" fs="italic" mb={node.official_text ? 4 : 0}>
                {node.heading}
              </Text>
            )}
            {node.official_text && (
              <Text size="sm" style={preWrap}>
                {node.official_text}
              </Text>
            )}
          </Paper>
          {node.source_note && (
            <Text size="xs" c="dimmed">
              Source: {node.source_note}
            </Text>
          )}
          <Text size="xs" c="dimmed">
            Regulation text (public domain)
            {node.public_url && (
              <>
                {' · '}
                <Anchor href={node.public_url} target="_blank" rel="noopener noreferrer" size="xs" underline="always">
                  Source
                </Anchor>
              </>
            )}
          </Text>
        </Section>
      ) : (
        framework.text_policy === 'identifiers_only' && (
          <Text size="sm" c="dimmed">
            {TEXT_POLICY_HELP.identifiers_only}{' '}
            {node.public_url && (
              <Anchor href={node.public_url} target="_blank" rel="noopener noreferrer" size="sm">
                Read the official text at the publisher’s site
              </Anchor>
            )}
          </Text>
        )
      )}

      <Section title="Facility wording">
        {element.abilities.edit_wording ? (
          <WordingForm key={`${element.id}-${element.version}`} projectId={projectId} element={element} />
        ) : (
          <WordingView element={element} />
        )}
      </Section>

      <Divider />
      <Section title="Assessment">
        {element.abilities.edit ? (
          <AssessmentForm
            key={`${element.id}-${element.version}`}
            projectId={projectId}
            element={element}
            reloading={reloading}
            onReload={onReload}
          />
        ) : (
          <AssessmentView element={element} />
        )}
        {element.last_reviewed_at && (
          <Text size="xs" c="dimmed">
            Last reviewed {formatDateTime(element.last_reviewed_at)}
            {element.last_reviewed_by ? ` by ${element.last_reviewed_by}` : ''}
          </Text>
        )}
      </Section>

      <Divider />
      <Section title="Crosswalk">
        {element.crosswalk.length === 0 ? (
          <Text size="sm" c="dimmed">
            No other framework is mapped to this element.
          </Text>
        ) : (
          <List spacing={4} size="sm">
            {element.crosswalk.map((item) => (
              <List.Item key={`${item.framework}-${item.ref_id}`}>
                <Text component="span" fw={700} size="sm">
                  {item.framework} {item.ref_id}
                </Text>{' '}
                {item.title}{' '}
                <Text component="span" c="dimmed" size="sm">
                  ({item.relationship})
                </Text>
              </List.Item>
            ))}
          </List>
        )}
      </Section>

      <Divider />
      <ElementEvidence projectId={projectId} element={element} />
      <ElementLinks projectId={projectId} element={element} />

      <Divider />
      <ElementFindings projectId={projectId} element={element} />

      <Divider />
      <Comments projectId={projectId} element={element} />

      <Divider />
      <Section title="History">
        {element.history.length === 0 ? (
          <Text size="sm" c="dimmed">
            No changes recorded yet.
          </Text>
        ) : (
          <Stack gap="xs" component="ol" m={0} p={0} style={{ listStyle: 'none' }} aria-label="History">
            {element.history.map((entry) => (
              <li key={entry.id}>
                <Text size="sm" style={preWrap}>
                  {entry.summary || entry.action}
                </Text>
                <Text size="xs" c="dimmed">
                  {entry.actor} · {formatDateTime(entry.at)}
                </Text>
              </li>
            ))}
          </Stack>
        )}
      </Section>
    </Stack>
  );
}

// ------------------------------------------------------------------------------------------------ wording

type WordingField = keyof StdWordingInput;
const WORDING_FIELDS: WordingField[] = ['wording', 'guidance', 'public_url'];

function WordingView({ element }: { element: StdElement }) {
  const { wording, guidance, public_url } = element.local;
  return (
    <Stack gap="xs">
      {wording ? (
        <Text size="sm" style={preWrap}>
          {wording}
        </Text>
      ) : (
        <Text size="sm" c="dimmed">
          Your facility has not written its wording for this element yet.
        </Text>
      )}
      {guidance && (
        <Box>
          <Text size="xs" fw={700}>
            Guidance
          </Text>
          <Text size="sm" style={preWrap}>
            {guidance}
          </Text>
        </Box>
      )}
      {public_url && (
        <Anchor href={public_url} target="_blank" rel="noopener noreferrer" size="sm">
          Public page of this element
        </Anchor>
      )}
    </Stack>
  );
}

function WordingForm({ projectId, element }: { projectId: string; element: StdElement }) {
  const save = useSaveWording(projectId, element.id);
  const [values, setValues] = useState<StdWordingInput>(element.local);
  const [errors, setErrors] = useState<FieldErrors<WordingField>>({});
  const dirty = JSON.stringify(values) !== JSON.stringify(element.local);

  const change = (field: WordingField, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };
  const field = fieldBinder({ values, errors, change });

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = stdWordingSchema.safeParse(values);
    if (!parsed.success) {
      setErrors(schemaFieldErrors<WordingField>(parsed.error));
      return;
    }
    try {
      await save.mutateAsync(parsed.data);
      toast.success('Wording saved.');
    } catch (error) {
      setErrors(serverFieldErrors(error, WORDING_FIELDS));
      toast.error(messageFor(error, 'The wording could not be saved. Please try again.'));
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label="Facility wording">
      <Stack gap="sm">
        <Textarea
          label="Facility wording"
          description="What this element asks, in your facility's own words. Only members of this project see it."
          rows={3}
          resize="vertical"
          maxLength={STD_LIMITS.wording}
          {...field.text('wording')}
        />
        <Textarea
          label="Guidance"
          description="How your team meets it and which evidence shows it."
          rows={2}
          resize="vertical"
          maxLength={STD_LIMITS.guidance}
          {...field.text('guidance')}
        />
        <TextInput
          label="Public link"
          description="The publisher's public page for this element, if there is one."
          placeholder="https://"
          maxLength={STD_LIMITS.url}
          {...field.text('public_url')}
        />
        <Group>
          <Button type="submit" variant="light" loading={save.isPending} disabled={!dirty}>
            Save wording
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

// ------------------------------------------------------------------------------------------------ assessment

type AssessmentField = 'result' | 'status' | 'na_justification' | 'owner_id' | 'due_date' | 'observation';
const ASSESSMENT_FIELDS: AssessmentField[] = [
  'result',
  'status',
  'na_justification',
  'owner_id',
  'due_date',
  'observation',
];

interface AssessmentValues {
  result: StdResult;
  status: StdStatus;
  na_justification: string;
  owner_id: string | null;
  due_date: string;
  observation: string;
}

const RESULT_DATA = STD_RESULTS.map((value) => ({ value, label: STD_RESULT_LABELS[value] }));
const STATUS_DATA = STD_STATUSES.map((value) => ({ value, label: STD_STATUS_LABELS[value] }));

function AssessmentView({ element }: { element: StdElement }) {
  const rows: [string, ReactNode][] = [
    ['Result', STD_RESULT_LABELS[element.result]],
    ['Status', STD_STATUS_LABELS[element.status]],
    ...(element.result === 'not_applicable'
      ? ([['Why it does not apply', element.na_justification || '–']] as [string, ReactNode][])
      : []),
    ['Owner', element.owner?.name ?? 'No owner'],
    [
      'Due date',
      element.due_date ? (
        <Group key="due" gap="xs" component="span">
          {formatDay(element.due_date)}
          {element.overdue && <OverdueBadge />}
        </Group>
      ) : (
        'None'
      ),
    ],
    ['Observation', element.observation || '–'],
  ];
  return (
    <Table verticalSpacing={6} aria-label="Assessment">
      <Table.Tbody>
        {rows.map(([label, value]) => (
          <Table.Tr key={label}>
            <Table.Th scope="row" w="38%">
              {label}
            </Table.Th>
            <Table.Td style={preWrap}>{value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function AssessmentForm({
  projectId,
  element,
  reloading,
  onReload,
}: {
  projectId: string;
  element: StdElement;
  reloading: boolean;
  onReload: () => void;
}) {
  const save = useSaveElement(projectId, element.id);
  const members = useStdMembers(projectId);
  const [values, setValues] = useState<AssessmentValues>(() => ({
    result: element.result,
    status: element.status,
    na_justification: element.na_justification,
    owner_id: element.owner ? String(element.owner.id) : null,
    due_date: element.due_date ?? '',
    observation: element.observation,
  }));
  const [errors, setErrors] = useState<FieldErrors<AssessmentField>>({});
  const [conflict, setConflict] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const people = (members.data?.members ?? []).filter((member) => member.effective_role !== null);
  const ownerData = people.map((member) => ({ value: String(member.user_id), label: member.name }));
  // The current owner stays choosable even if they have lost their standards role since.
  if (element.owner && !ownerData.some((option) => option.value === String(element.owner!.id)))
    ownerData.unshift({ value: String(element.owner.id), label: element.owner.name });

  function change<K extends keyof AssessmentValues>(field: K, value: AssessmentValues[K]) {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  }
  const field = fieldBinder({ values, errors, change });

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    const parsed = stdElementUpdateSchema.safeParse({
      version: element.version,
      result: values.result,
      status: values.status,
      na_justification: values.result === 'not_applicable' ? values.na_justification : '',
      owner_id: values.owner_id === null ? null : Number(values.owner_id),
      due_date: values.due_date === '' ? null : values.due_date,
      observation: values.observation,
    });
    if (!parsed.success) {
      setErrors(schemaFieldErrors<AssessmentField>(parsed.error));
      return;
    }
    setErrors({});
    try {
      await save.mutateAsync(parsed.data);
      toast.success(`${element.node.ref_id} saved.`);
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        setConflict(messageFor(error, 'Someone else changed this element after you opened it.'));
        return;
      }
      const fields = serverFieldErrors(error, ASSESSMENT_FIELDS);
      setErrors(fields);
      const message =
        Object.keys(fields).length > 0
          ? 'Some fields need attention. See the messages at the fields.'
          : messageFor(error, 'The assessment could not be saved. Please try again.');
      setFailure(message);
      toast.error(message);
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label="Assessment">
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <Select label="Result" data={RESULT_DATA} {...field.select('result')} />
          <Select label="Status" data={STATUS_DATA} {...field.select('status')} />
        </SimpleGrid>
        {values.result === 'not_applicable' && (
          <Textarea
            label="Why it does not apply"
            description="Required for Not applicable; a second person should check it."
            required
            rows={2}
            resize="vertical"
            maxLength={STD_LIMITS.justification}
            {...field.text('na_justification')}
          />
        )}
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <Select
            label="Owner"
            placeholder={members.isPending ? 'Loading people…' : 'No owner'}
            data={ownerData}
            value={values.owner_id}
            onChange={(value) => change('owner_id', value)}
            clearable
            searchable
            nothingFoundMessage="Nobody with a standards role matches"
            error={errors.owner_id}
          />
          <TextInput type="date" label="Due date" {...field.text('due_date')} />
        </SimpleGrid>
        <Textarea
          label="Observation"
          description="What was seen, checked or missing."
          rows={3}
          resize="vertical"
          maxLength={STD_LIMITS.observation}
          {...field.text('observation')}
        />
        {conflict && (
          <Alert color="orange" variant="light" role="alert" title="Changed by someone else">
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{conflict}</Text>
              <Text size="sm">Reload to see the latest version; your changes here are not saved.</Text>
              <Button size="xs" variant="default" loading={reloading} onClick={onReload}>
                Reload
              </Button>
            </Stack>
          </Alert>
        )}
        <ErrorNotice message={failure} />
        <Group>
          <Button type="submit" loading={save.isPending}>
            Save assessment
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

// ------------------------------------------------------------------------------------------------ comments

function Comments({ projectId, element }: { projectId: string; element: StdElement }) {
  const add = useAddComment(projectId, element.id);
  const [body, setBody] = useState('');
  const [error, setError] = useState<string | undefined>();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = stdCommentInputSchema.safeParse({ body });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    try {
      await add.mutateAsync(parsed.data);
      setBody('');
      toast.success('Comment added.');
    } catch (failure) {
      const message = messageFor(failure, 'The comment could not be added. Please try again.');
      setError(serverFieldErrors(failure, ['body']).body ?? message);
      toast.error(message);
    }
  }

  return (
    <Section title="Comments">
      {element.comments.length === 0 ? (
        <Text size="sm" c="dimmed">
          No comments yet.
        </Text>
      ) : (
        <Stack gap="sm" component="ul" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Comments">
          {element.comments.map((comment) => (
            <li key={comment.id}>
              <Text size="xs" c="dimmed">
                <Text component="span" fw={700} size="xs" c="dark.7">
                  {comment.author.name}
                </Text>{' '}
                · {formatDateTime(comment.created_at)}
              </Text>
              <Text size="sm" style={preWrap}>
                {comment.body}
              </Text>
            </li>
          ))}
        </Stack>
      )}
      {element.abilities.comment && (
        <form onSubmit={(event) => void submit(event)} noValidate aria-label="Add a comment">
          <Stack gap="xs">
            <Textarea
              label="Add a comment"
              rows={2}
              resize="vertical"
              maxLength={STD_LIMITS.comment}
              value={body}
              onChange={(event) => {
                setBody(event.currentTarget.value);
                setError(undefined);
              }}
              error={error}
            />
            <Group>
              <Button type="submit" variant="light" loading={add.isPending}>
                Add comment
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Section>
  );
}
