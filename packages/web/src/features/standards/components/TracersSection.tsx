import {
  Anchor,
  Badge,
  Button,
  Group,
  Modal,
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
import { useDebouncedValue } from '@mantine/hooks';
import {
  STD_TRACER_KIND_HELP,
  STD_TRACER_KIND_LABELS,
  STD_TRACER_KINDS,
  type StdTracerInput,
  type StdTracerKind,
  stdTracerInputSchema,
} from '@portal/shared';
import { type FormEvent, useEffect, useState } from 'react';
import { toast } from 'sonner';
import { LoadFailure } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';
import { formatDay } from '../../../lib/dates';
import { type FieldErrors, schemaFieldErrors, serverFieldErrors } from '../../../lib/field-errors';
import { useStdTree } from '../api/assessments';
import { useStdMembers } from '../api/members';
import { useCreateTracer, useTracer, useTracers } from '../api/tracers';
import { FindingDetailModal, FindingFormModal } from './FindingModals';
import { Loading } from './std-parts';
import { plural } from './std-words';

/**
 * Tracers of an assessment on the Readiness screen (docs/standards.md "Tracers"): the list, recording a tracer, and a
 * tracer's own window where findings are recorded on the elements they concern.
 */
export function TracersSection({ projectId, assessmentId }: { projectId: string; assessmentId: number }) {
  const tracers = useTracers(projectId, assessmentId);
  const [recording, setRecording] = useState(false);
  const [open, setOpen] = useState<number | null>(null);
  return (
    <Paper withBorder radius="md" p="md">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} fz="h4">
            Tracers
          </Title>
          {tracers.data?.abilities.create && (
            <Button size="xs" variant="light" onClick={() => setRecording(true)}>
              Record a tracer
            </Button>
          )}
        </Group>
        {tracers.isPending ? (
          <Loading label="Loading the tracers" />
        ) : tracers.isError ? (
          <LoadFailure
            error={tracers.error}
            fallback="The tracers could not be loaded. Please try again."
            retrying={tracers.isFetching}
            onRetry={() => void tracers.refetch()}
          />
        ) : tracers.data.tracers.length === 0 ? (
          <Text c="dimmed">
            No tracers yet. A tracer follows one patient's care, one process or one program the way a surveyor does, and
            records what it finds on the standards concerned.
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={520}>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Tracer</Table.Th>
                  <Table.Th>Date</Table.Th>
                  <Table.Th>Lead</Table.Th>
                  <Table.Th>Findings</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {tracers.data.tracers.map((t) => (
                  <Table.Tr key={t.id}>
                    <Table.Td>
                      <Anchor component="button" type="button" size="sm" ta="left" onClick={() => setOpen(t.id)}>
                        {t.title}
                      </Anchor>
                      <Text size="xs" c="dimmed">
                        {STD_TRACER_KIND_LABELS[t.kind]}
                        {t.unit ? ` · ${t.unit}` : ''}
                        {t.case_code ? ` · case ${t.case_code}` : ''}
                      </Text>
                    </Table.Td>
                    <Table.Td>{formatDay(t.traced_on)}</Table.Td>
                    <Table.Td>{t.lead?.name ?? '–'}</Table.Td>
                    <Table.Td>
                      {plural(t.findings, 'finding')}
                      {t.open_findings > 0 && (
                        <Badge ml={6} variant="light" color="orange.9" tt="none">
                          {t.open_findings} open
                        </Badge>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
      <TracerFormModal
        projectId={projectId}
        assessmentId={assessmentId}
        opened={recording}
        onClose={() => setRecording(false)}
        onCreated={(id) => setOpen(id)}
      />
      <TracerModal projectId={projectId} assessmentId={assessmentId} tracerId={open} onClose={() => setOpen(null)} />
    </Paper>
  );
}

type TracerField = keyof StdTracerInput;
const TRACER_FIELDS: TracerField[] = ['kind', 'title', 'traced_on', 'unit', 'lead_id', 'case_code', 'summary'];
const today = () => new Date().toISOString().slice(0, 10);

function TracerFormModal({
  projectId,
  assessmentId,
  opened,
  onClose,
  onCreated,
}: {
  projectId: string;
  assessmentId: number;
  opened: boolean;
  onClose: () => void;
  onCreated: (id: number) => void;
}) {
  const create = useCreateTracer(projectId, assessmentId);
  const members = useStdMembers(projectId);
  const blank = () => ({
    kind: 'individual' as StdTracerKind,
    title: '',
    traced_on: today(),
    unit: '',
    lead_id: null as string | null,
    case_code: '',
    summary: '',
  });
  const [draft, setDraft] = useState(blank);
  const [errors, setErrors] = useState<FieldErrors<TracerField>>({});
  // biome-ignore lint/correctness/useExhaustiveDependencies: a reopened form starts empty.
  useEffect(() => {
    if (opened) {
      setDraft(blank());
      setErrors({});
    }
  }, [opened]);
  const people = (members.data?.members ?? [])
    .filter((m) => m.effective_role !== null)
    .map((m) => ({ value: String(m.user_id), label: m.name }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = stdTracerInputSchema.safeParse({
      ...draft,
      lead_id: draft.lead_id === null ? null : Number(draft.lead_id),
    });
    if (!parsed.success) {
      setErrors(schemaFieldErrors(parsed.error));
      return;
    }
    setErrors({});
    create.mutate(parsed.data, {
      onSuccess: (tracer) => {
        toast.success('Tracer recorded.');
        onClose();
        onCreated(tracer.id);
      },
      onError: (error) => {
        setErrors(serverFieldErrors(error, TRACER_FIELDS));
        toast.error(messageFor(error, 'The tracer could not be saved. Please try again.'));
      },
    });
  };
  return (
    <Modal opened={opened} onClose={onClose} title="Record a tracer" size="lg">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Select
            label="Kind"
            data={STD_TRACER_KINDS.map((value) => ({ value, label: STD_TRACER_KIND_LABELS[value] }))}
            value={draft.kind}
            onChange={(value) => value && setDraft({ ...draft, kind: value as StdTracerKind })}
            allowDeselect={false}
            description={STD_TRACER_KIND_HELP[draft.kind]}
            error={errors.kind}
          />
          <TextInput
            label="What was traced"
            required
            maxLength={200}
            value={draft.title}
            onChange={(event) => setDraft({ ...draft, title: event.currentTarget.value })}
            error={errors.title}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              type="date"
              label="Date"
              required
              value={draft.traced_on}
              onChange={(event) => setDraft({ ...draft, traced_on: event.currentTarget.value })}
              error={errors.traced_on}
            />
            <TextInput
              label="Unit"
              maxLength={120}
              value={draft.unit}
              onChange={(event) => setDraft({ ...draft, unit: event.currentTarget.value })}
              error={errors.unit}
            />
            <Select
              label="Lead"
              data={people}
              value={draft.lead_id}
              onChange={(value) => setDraft({ ...draft, lead_id: value })}
              clearable
              searchable
              error={errors.lead_id}
            />
            <TextInput
              label="Case code"
              description="Never a name or medical record number."
              maxLength={40}
              value={draft.case_code}
              onChange={(event) => setDraft({ ...draft, case_code: event.currentTarget.value })}
              error={errors.case_code}
            />
          </SimpleGrid>
          <Textarea
            label="Summary"
            rows={3}
            value={draft.summary}
            onChange={(event) => setDraft({ ...draft, summary: event.currentTarget.value })}
            error={errors.summary}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Record tracer
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** A tracer's window: what was traced, its findings, and recording one on an element of the assessment. */
function TracerModal({
  projectId,
  assessmentId,
  tracerId,
  onClose,
}: {
  projectId: string;
  assessmentId: number;
  tracerId: number | null;
  onClose: () => void;
}) {
  const tracer = useTracer(projectId, tracerId);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const tree = useStdTree(projectId, assessmentId, 'all', debounced);
  const [element, setElement] = useState<string | null>(null);
  const [recording, setRecording] = useState(false);
  const [openFinding, setOpenFinding] = useState<number | null>(null);
  const elements = (tree.data?.rows ?? [])
    .filter((row) => row.req !== null)
    .slice(0, 50)
    .map((row) => ({ value: String(row.req!.id), label: `${row.ref_id} ${row.title}` }));
  const chosen = elements.find((option) => option.value === element) ?? null;
  const data = tracer.data;
  return (
    <Modal opened={tracerId !== null} onClose={onClose} size="xl" title={data ? data.title : 'Tracer'}>
      {tracer.isPending ? (
        <Loading label="Loading the tracer" />
      ) : tracer.isError ? (
        <LoadFailure
          error={tracer.error}
          fallback="The tracer could not be loaded. Please try again."
          retrying={tracer.isFetching}
          onRetry={() => void tracer.refetch()}
        />
      ) : data ? (
        <Stack gap="md">
          <Text size="sm">
            {STD_TRACER_KIND_LABELS[data.kind]} on {formatDay(data.traced_on)}
            {data.unit ? `, ${data.unit}` : ''}
            {data.lead ? `, led by ${data.lead.name}` : ''}
            {data.case_code ? ` · case ${data.case_code}` : ''}
          </Text>
          {data.summary && <Text style={{ whiteSpace: 'pre-wrap' }}>{data.summary}</Text>}
          <Title order={3} fz="h4">
            Findings
          </Title>
          {data.finding_list.length === 0 ? (
            <Text size="sm" c="dimmed">
              No findings from this tracer yet.
            </Text>
          ) : (
            <Stack gap={4} component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
              {data.finding_list.map((f) => (
                <li key={f.id}>
                  <Anchor component="button" type="button" size="sm" onClick={() => setOpenFinding(f.id)}>
                    {f.ref_id}: {f.text}
                  </Anchor>{' '}
                  <Text span size="xs" c="dimmed">
                    due {formatDay(f.due_date)}
                  </Text>
                </li>
              ))}
            </Stack>
          )}
          {data.abilities.edit && (
            <Group align="flex-end" wrap="wrap">
              <Select
                label="Element the finding concerns"
                placeholder="Search by identifier or title"
                data={elements}
                value={element}
                onChange={setElement}
                searchable
                searchValue={search}
                onSearchChange={setSearch}
                filter={({ options }) => options}
                nothingFoundMessage="No element matches"
                w={{ base: '100%', sm: 420 }}
              />
              <Button disabled={!chosen} onClick={() => setRecording(true)}>
                Record a finding
              </Button>
            </Group>
          )}
          {chosen && (
            <FindingFormModal
              projectId={projectId}
              opened={recording}
              onClose={() => setRecording(false)}
              reqId={Number(chosen.value)}
              elementLabel={chosen.label}
              tracerId={data.id}
            />
          )}
          <FindingDetailModal projectId={projectId} findingId={openFinding} onClose={() => setOpenFinding(null)} />
        </Stack>
      ) : null}
    </Modal>
  );
}
