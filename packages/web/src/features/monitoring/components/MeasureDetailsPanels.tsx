import {
  Alert,
  Anchor,
  Autocomplete,
  Button,
  Group,
  Modal,
  NumberInput,
  Paper,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import {
  type Annotation,
  type AnnotationKind,
  annotationInputSchema,
  type Benchmark,
  type BenchmarkStatistic,
  benchmarkInputSchema,
  type MeasureDetail,
  type PeriodGrain,
  type PhaseReason,
  periodLabel,
  periodStart,
  phaseCreateSchema,
  type TargetKind,
  targetCreateSchema,
} from '@portal/shared';
import { memo, type ReactNode, useState } from 'react';
import { toast } from 'sonner';
import type { z } from 'zod';
import { ConfirmActionModal } from '../../../components/ConfirmActionModal';
import { messageFor } from '../../../lib/api';
import { formatDay } from '../../../lib/dates';
import { type FieldErrors, schemaFieldErrors, serverFieldErrors } from '../../../lib/field-errors';
import { type PartRequest, partRequests, useMeasurePart } from '../api/measures-parts';
import {
  ANNOTATION_KIND_LABELS,
  BENCHMARK_STATISTIC_LABELS,
  currentPeriodStart,
  formatValue,
  isIsoDate,
  optionsOf,
  PHASE_REASON_LABELS,
  TARGET_KIND_LABELS,
} from './measure-parts';

type PartMutation = ReturnType<typeof useMeasurePart>;
type AskDelete = (request: { message: string; done: string; call: PartRequest }) => void;

interface PanelProps {
  measure: MeasureDetail;
  canEdit: boolean;
  part: PartMutation;
  askDelete: AskDelete;
}

const BENCHMARK_SOURCES = ['CMS Care Compare', 'NHSN', 'State hospital association', 'Network', 'Internal'];

/** NumberInput gives a number, or a string while empty or half typed ("-"). */
const numberOf = (value: number | string): number | undefined =>
  typeof value === 'number' ? value : value.trim() === '' ? undefined : Number(value);

/** A day typed for a period: the first day of the period that holds it. */
const periodOf = (day: string, grain: PeriodGrain) => (isIsoDate(day) ? periodStart(day, grain) : day);

const ordinal = (n: number) => {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10];
  return `${n}${suffix ?? 'th'}`;
};

/** The targets, benchmarks, phases and annotations of a saved measure, each added, changed and deleted here. */
export const MeasureDetailsPanels = memo(function MeasureDetailsPanels({
  projectId,
  measure,
  canEdit,
}: {
  projectId: string;
  measure: MeasureDetail;
  canEdit: boolean;
}) {
  const part = useMeasurePart(projectId, measure.id);
  const [deleting, setDeleting] = useState<{ message: string; done: string; call: PartRequest } | null>(null);
  const props: PanelProps = { measure, canEdit, part, askDelete: setDeleting };

  const confirmDelete = () => {
    if (!deleting) return;
    part.mutate(deleting.call, {
      onSuccess: () => toast.success(deleting.done),
      onError: (error) => toast.error(messageFor(error, 'It could not be deleted.')),
      onSettled: () => setDeleting(null),
    });
  };

  return (
    <Stack gap="md">
      <TargetsPanel {...props} />
      <BenchmarksPanel {...props} />
      <PhasesPanel {...props} />
      <AnnotationsPanel {...props} />
      <ConfirmActionModal
        opened={deleting !== null}
        title="Delete"
        message={deleting?.message ?? ''}
        confirmLabel="Delete"
        danger
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      />
    </Stack>
  );
});

/** Client check with the contract, then the call; the server's field messages land on the same fields. */
function usePartSave<K extends string>(part: PartMutation, fields: readonly K[]) {
  const [errors, setErrors] = useState<FieldErrors<K>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const save = <T,>(
    schema: z.ZodType<T>,
    input: unknown,
    call: (body: T) => PartRequest,
    done: string,
    close: () => void,
  ) => {
    setFailure(null);
    const parsed = schema.safeParse(input);
    if (!parsed.success) {
      setErrors(schemaFieldErrors<K>(parsed.error));
      return;
    }
    part.mutate(call(parsed.data), {
      onSuccess: () => {
        toast.success(done);
        close();
      },
      onError: (error) => {
        const found = serverFieldErrors(error, fields);
        setErrors(found);
        if (Object.keys(found).length === 0) setFailure(messageFor(error, 'It could not be saved.'));
      },
    });
  };
  const reset = () => {
    setErrors({});
    setFailure(null);
  };
  const clear = (key: K) => setErrors((now) => ({ ...now, [key]: undefined }));
  return { errors, failure, save, reset, clear };
}

function Panel({
  title,
  addLabel,
  canEdit,
  onAdd,
  children,
}: {
  title: string;
  addLabel: string;
  canEdit: boolean;
  onAdd: () => void;
  children: ReactNode;
}) {
  return (
    <Paper withBorder p="md" component="section" aria-label={title}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Title order={3} fz="h4">
            {title}
          </Title>
          {canEdit && (
            <Button size="compact-sm" variant="light" onClick={onAdd}>
              {addLabel}
            </Button>
          )}
        </Group>
        {children}
      </Stack>
    </Paper>
  );
}

function PartModal({
  opened,
  title,
  saving,
  failure,
  onClose,
  onSubmit,
  children,
}: {
  opened: boolean;
  title: string;
  saving: boolean;
  failure: string | null;
  onClose: () => void;
  onSubmit: () => void;
  children: ReactNode;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered closeButtonProps={{ 'aria-label': 'Close' }}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit();
        }}
      >
        <Stack gap="sm">
          {failure && (
            <Alert color="red" variant="light" role="alert">
              {failure}
            </Alert>
          )}
          {children}
          <Group justify="flex-end" gap="sm" mt="xs">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={saving}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function RowActions({
  name,
  canEdit,
  onEdit,
  onDelete,
}: {
  name: string;
  canEdit: boolean;
  onEdit?: () => void;
  onDelete: () => void;
}) {
  if (!canEdit) return null;
  return (
    <Group gap={4} wrap="nowrap" justify="flex-end">
      {onEdit && (
        <Button size="compact-xs" variant="subtle" onClick={onEdit} aria-label={`Edit ${name}`}>
          Edit
        </Button>
      )}
      <Button size="compact-xs" variant="subtle" color="red.9" onClick={onDelete} aria-label={`Delete ${name}`}>
        Delete
      </Button>
    </Group>
  );
}

const ActionsHead = ({ canEdit }: { canEdit: boolean }) =>
  canEdit ? (
    <Table.Th>
      <VisuallyHidden>Actions</VisuallyHidden>
    </Table.Th>
  ) : null;

// ---------------------------------------------------------------------------------------------------------------

const TARGET_FIELDS = ['value', 'effective_from', 'kind'] as const;

function TargetsPanel({ measure, canEdit, part, askDelete }: PanelProps) {
  const form = usePartSave(part, TARGET_FIELDS);
  const [open, setOpen] = useState(false);
  const [value, setValue] = useState<number | string>('');
  const [from, setFrom] = useState('');
  const [kind, setKind] = useState<TargetKind>('target');
  const add = () => {
    form.reset();
    setValue('');
    setFrom(currentPeriodStart(measure.grain));
    setKind('target');
    setOpen(true);
  };
  const submit = () =>
    form.save(
      targetCreateSchema,
      { value: numberOf(value), effective_from: from, kind },
      partRequests.addTarget,
      'Target added.',
      () => setOpen(false),
    );

  return (
    <Panel title="Targets" addLabel="Add target" canEdit={canEdit} onAdd={add}>
      {measure.targets.length === 0 ? (
        <Text size="sm" c="dimmed">
          No targets yet. A target is drawn on the charts and gives the assurance reading.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={420}>
          <Table fz="sm" data-part="targets">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Value</Table.Th>
                <Table.Th>Effective from</Table.Th>
                <Table.Th>Kind</Table.Th>
                <ActionsHead canEdit={canEdit} />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {measure.targets.map((target) => {
                const shown = formatValue(target.value, measure.unit_label);
                return (
                  <Table.Tr key={target.id}>
                    <Table.Td>{shown}</Table.Td>
                    <Table.Td>{formatDay(target.effective_from)}</Table.Td>
                    <Table.Td>{TARGET_KIND_LABELS[target.kind]}</Table.Td>
                    {canEdit && (
                      <Table.Td>
                        <RowActions
                          name={`${TARGET_KIND_LABELS[target.kind].toLowerCase()} ${shown}`}
                          canEdit={canEdit}
                          onDelete={() =>
                            askDelete({
                              message: `Delete the target of ${shown} from ${formatDay(target.effective_from)}?`,
                              done: 'Target deleted.',
                              call: partRequests.deleteTarget(target.id),
                            })
                          }
                        />
                      </Table.Td>
                    )}
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <PartModal
        opened={open}
        title="Add a target"
        saving={part.isPending}
        failure={form.failure}
        onClose={() => setOpen(false)}
        onSubmit={submit}
      >
        <NumberInput
          label="Value"
          withAsterisk
          description={measure.unit_label ? `In ${measure.unit_label}.` : undefined}
          value={value}
          onChange={(next) => {
            setValue(next);
            form.clear('value');
          }}
          error={form.errors.value}
          data-autofocus
        />
        <TextInput
          type="date"
          label="Effective from"
          withAsterisk
          value={from}
          onChange={(event) => {
            setFrom(event.currentTarget.value);
            form.clear('effective_from');
          }}
          error={form.errors.effective_from}
        />
        <Select
          label="Kind"
          data={optionsOf(TARGET_KIND_LABELS)}
          value={kind}
          onChange={(next) => next && setKind(next as TargetKind)}
          allowDeselect={false}
          error={form.errors.kind}
        />
      </PartModal>
    </Panel>
  );
}

// ---------------------------------------------------------------------------------------------------------------

const BENCHMARK_FIELDS = [
  'source',
  'statistic',
  'percentile',
  'value',
  'period_label',
  'as_of',
  'spec_match',
  'citation_url',
  'note',
] as const;

interface BenchmarkValues {
  source: string;
  statistic: BenchmarkStatistic;
  percentile: number | string;
  value: number | string;
  period_label: string;
  as_of: string;
  spec_match: boolean;
  citation_url: string;
  note: string;
}

function BenchmarksPanel({ measure, canEdit, part, askDelete }: PanelProps) {
  const form = usePartSave(part, BENCHMARK_FIELDS);
  const [editing, setEditing] = useState<{ id: number | null; values: BenchmarkValues } | null>(null);
  const open = (benchmark: Benchmark | null) => {
    form.reset();
    setEditing({
      id: benchmark?.id ?? null,
      values: benchmark
        ? {
            source: benchmark.source,
            statistic: benchmark.statistic,
            percentile: benchmark.percentile ?? '',
            value: benchmark.value,
            period_label: benchmark.period_label,
            as_of: benchmark.as_of,
            spec_match: benchmark.spec_match,
            citation_url: benchmark.citation_url,
            note: benchmark.note,
          }
        : {
            source: '',
            statistic: 'percentile',
            percentile: 90,
            value: '',
            period_label: '',
            as_of: currentPeriodStart('month'),
            spec_match: true,
            citation_url: '',
            note: '',
          },
    });
  };
  const change = <K extends keyof BenchmarkValues>(key: K, value: BenchmarkValues[K]) => {
    setEditing((now) => (now ? { ...now, values: { ...now.values, [key]: value } } : now));
    form.clear(key);
  };
  const submit = () => {
    if (!editing) return;
    const { values, id } = editing;
    form.save(
      benchmarkInputSchema,
      {
        ...values,
        percentile: values.statistic === 'percentile' ? (numberOf(values.percentile) ?? null) : null,
        value: numberOf(values.value),
      },
      (body) => partRequests.saveBenchmark(id, body),
      id === null ? 'Benchmark added.' : 'Benchmark saved.',
      () => setEditing(null),
    );
  };
  const statisticText = (benchmark: Benchmark) =>
    benchmark.statistic === 'percentile' && benchmark.percentile !== null
      ? `${ordinal(benchmark.percentile)} percentile`
      : BENCHMARK_STATISTIC_LABELS[benchmark.statistic];
  const values = editing?.values;

  return (
    <Panel title="Benchmarks" addLabel="Add benchmark" canEdit={canEdit} onAdd={() => open(null)}>
      {measure.benchmarks.length === 0 ? (
        <Text size="sm" c="dimmed">
          No benchmarks yet. Compare with national or network figures (for example CMS Care Compare or NHSN).
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={720}>
          <Table fz="sm" data-part="benchmarks">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Source</Table.Th>
                <Table.Th>Statistic</Table.Th>
                <Table.Th>Value</Table.Th>
                <Table.Th>Period</Table.Th>
                <Table.Th>As of</Table.Th>
                <Table.Th>Same definition</Table.Th>
                <ActionsHead canEdit={canEdit} />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {measure.benchmarks.map((benchmark) => (
                <Table.Tr key={benchmark.id}>
                  <Table.Td>
                    {benchmark.citation_url ? (
                      <Anchor href={benchmark.citation_url} target="_blank" rel="noopener noreferrer">
                        {benchmark.source}
                      </Anchor>
                    ) : (
                      benchmark.source
                    )}
                    {benchmark.note && (
                      <Text size="xs" c="dimmed">
                        {benchmark.note}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>{statisticText(benchmark)}</Table.Td>
                  <Table.Td>{formatValue(benchmark.value, measure.unit_label)}</Table.Td>
                  <Table.Td>{benchmark.period_label || '—'}</Table.Td>
                  <Table.Td>{formatDay(benchmark.as_of)}</Table.Td>
                  <Table.Td>{benchmark.spec_match ? 'Yes' : 'No: not comparable'}</Table.Td>
                  {canEdit && (
                    <Table.Td>
                      <RowActions
                        name={`benchmark ${benchmark.source}`}
                        canEdit={canEdit}
                        onEdit={() => open(benchmark)}
                        onDelete={() =>
                          askDelete({
                            message: `Delete the benchmark from ${benchmark.source} (${statisticText(benchmark)})?`,
                            done: 'Benchmark deleted.',
                            call: partRequests.deleteBenchmark(benchmark.id),
                          })
                        }
                      />
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <PartModal
        opened={editing !== null}
        title={editing?.id ? 'Edit benchmark' : 'Add a benchmark'}
        saving={part.isPending}
        failure={form.failure}
        onClose={() => setEditing(null)}
        onSubmit={submit}
      >
        {values && (
          <>
            <Autocomplete
              label="Source"
              withAsterisk
              data={BENCHMARK_SOURCES}
              value={values.source}
              onChange={(next) => change('source', next)}
              error={form.errors.source}
              maxLength={200}
              data-autofocus
            />
            <Group grow align="flex-start" wrap="wrap">
              <Select
                label="Statistic"
                data={optionsOf(BENCHMARK_STATISTIC_LABELS)}
                value={values.statistic}
                onChange={(next) => next && change('statistic', next as BenchmarkStatistic)}
                allowDeselect={false}
                error={form.errors.statistic}
                miw={160}
              />
              {values.statistic === 'percentile' && (
                <NumberInput
                  label="Percentile"
                  withAsterisk
                  min={1}
                  max={99}
                  allowDecimal={false}
                  value={values.percentile}
                  onChange={(next) => change('percentile', next)}
                  error={form.errors.percentile}
                  miw={120}
                />
              )}
            </Group>
            <Group grow align="flex-start" wrap="wrap">
              <NumberInput
                label="Value"
                withAsterisk
                description={measure.unit_label ? `In ${measure.unit_label}.` : undefined}
                value={values.value}
                onChange={(next) => change('value', next)}
                error={form.errors.value}
                miw={140}
              />
              <TextInput
                label="Period"
                description="The period it describes, e.g. 2025 Q3."
                value={values.period_label}
                onChange={(event) => change('period_label', event.currentTarget.value)}
                error={form.errors.period_label}
                maxLength={60}
                miw={140}
              />
            </Group>
            <TextInput
              type="date"
              label="As of"
              withAsterisk
              description="When the source published it."
              value={values.as_of}
              onChange={(event) => change('as_of', event.currentTarget.value)}
              error={form.errors.as_of}
            />
            <Switch
              label="Same definition as this measure"
              description="Off: shown, but marked as not comparable."
              checked={values.spec_match}
              onChange={(event) => change('spec_match', event.currentTarget.checked)}
              error={form.errors.spec_match}
            />
            <TextInput
              type="url"
              label="Citation link"
              placeholder="https://"
              value={values.citation_url}
              onChange={(event) => change('citation_url', event.currentTarget.value)}
              error={form.errors.citation_url}
              maxLength={2000}
            />
            <Textarea
              label="Note"
              value={values.note}
              onChange={(event) => change('note', event.currentTarget.value)}
              error={form.errors.note}
              maxLength={2000}
              rows={2}
              resize="vertical"
            />
          </>
        )}
      </PartModal>
    </Panel>
  );
}

// ---------------------------------------------------------------------------------------------------------------

const PHASE_FIELDS = ['start_period', 'label', 'reason'] as const;

function PhasesPanel({ measure, canEdit, part, askDelete }: PanelProps) {
  const form = usePartSave(part, PHASE_FIELDS);
  const [open, setOpen] = useState(false);
  const [start, setStart] = useState('');
  const [label, setLabel] = useState('');
  const [reason, setReason] = useState<PhaseReason>('intervention');
  const add = () => {
    form.reset();
    setStart(currentPeriodStart(measure.grain));
    setLabel('');
    setReason('intervention');
    setOpen(true);
  };
  const submit = () =>
    form.save(
      phaseCreateSchema,
      { start_period: periodOf(start, measure.grain), label, reason },
      partRequests.addPhase,
      'Phase added.',
      () => setOpen(false),
    );

  return (
    <Panel title="Phases" addLabel="Add phase" canEdit={canEdit} onAdd={add}>
      <Text size="sm" c="dimmed">
        A phase starts new limits: after a sustained shift, an intervention or a change of definition.
      </Text>
      {measure.phases.length > 0 && (
        <Table.ScrollContainer minWidth={420}>
          <Table fz="sm" data-part="phases">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Starts</Table.Th>
                <Table.Th>Label</Table.Th>
                <Table.Th>Reason</Table.Th>
                <ActionsHead canEdit={canEdit} />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {measure.phases.map((phase) => (
                <Table.Tr key={phase.id}>
                  <Table.Td>{periodLabel(phase.start_period, measure.grain)}</Table.Td>
                  <Table.Td>{phase.label}</Table.Td>
                  <Table.Td>{PHASE_REASON_LABELS[phase.reason]}</Table.Td>
                  {canEdit && (
                    <Table.Td>
                      <RowActions
                        name={`phase ${phase.label}`}
                        canEdit={canEdit}
                        onDelete={() =>
                          askDelete({
                            message: `Delete the phase "${phase.label}"? The limits then run across it.`,
                            done: 'Phase deleted.',
                            call: partRequests.deletePhase(phase.id),
                          })
                        }
                      />
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <PartModal
        opened={open}
        title="Add a phase"
        saving={part.isPending}
        failure={form.failure}
        onClose={() => setOpen(false)}
        onSubmit={submit}
      >
        <TextInput
          type="date"
          label="Starts in the period of"
          withAsterisk
          description={`Any day of the first ${measure.grain} of the phase.`}
          value={start}
          onChange={(event) => {
            setStart(event.currentTarget.value);
            form.clear('start_period');
          }}
          error={form.errors.start_period}
        />
        <TextInput
          label="Label"
          withAsterisk
          description="Shown on the chart, e.g. New bed alarms."
          value={label}
          onChange={(event) => {
            setLabel(event.currentTarget.value);
            form.clear('label');
          }}
          error={form.errors.label}
          maxLength={120}
          data-autofocus
        />
        <Select
          label="Reason"
          data={optionsOf(PHASE_REASON_LABELS)}
          value={reason}
          onChange={(next) => next && setReason(next as PhaseReason)}
          allowDeselect={false}
          error={form.errors.reason}
        />
      </PartModal>
    </Panel>
  );
}

// ---------------------------------------------------------------------------------------------------------------

const ANNOTATION_FIELDS = ['period_start', 'kind', 'text', 'exclude_from_limits'] as const;

interface AnnotationValues {
  period_start: string;
  kind: AnnotationKind;
  text: string;
  exclude_from_limits: boolean;
}

function AnnotationsPanel({ measure, canEdit, part, askDelete }: PanelProps) {
  const form = usePartSave(part, ANNOTATION_FIELDS);
  const [editing, setEditing] = useState<{ id: number | null; values: AnnotationValues } | null>(null);
  const open = (annotation: Annotation | null) => {
    form.reset();
    setEditing({
      id: annotation?.id ?? null,
      values: annotation
        ? {
            period_start: annotation.period_start,
            kind: annotation.kind,
            text: annotation.text,
            exclude_from_limits: annotation.exclude_from_limits,
          }
        : { period_start: currentPeriodStart(measure.grain), kind: 'event', text: '', exclude_from_limits: false },
    });
  };
  const change = <K extends keyof AnnotationValues>(key: K, value: AnnotationValues[K]) => {
    setEditing((now) => (now ? { ...now, values: { ...now.values, [key]: value } } : now));
    form.clear(key);
  };
  const submit = () => {
    if (!editing) return;
    const { id, values } = editing;
    form.save(
      annotationInputSchema,
      { ...values, period_start: periodOf(values.period_start, measure.grain) },
      (body) => partRequests.saveAnnotation(id, body),
      id === null ? 'Annotation added.' : 'Annotation saved.',
      () => setEditing(null),
    );
  };
  const values = editing?.values;
  const short = (text: string) => (text.length > 60 ? `${text.slice(0, 57)}…` : text);

  return (
    <Panel title="Annotations" addLabel="Add annotation" canEdit={canEdit} onAdd={() => open(null)}>
      {measure.annotations.length === 0 ? (
        <Text size="sm" c="dimmed">
          No annotations yet. Note interventions, PDSA cycles, events and data issues at their period.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table fz="sm" data-part="annotations">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Period</Table.Th>
                <Table.Th>Kind</Table.Th>
                <Table.Th>Note</Table.Th>
                <Table.Th>Out of limits</Table.Th>
                <ActionsHead canEdit={canEdit} />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {measure.annotations.map((annotation) => (
                <Table.Tr key={annotation.id}>
                  <Table.Td>{periodLabel(annotation.period_start, measure.grain)}</Table.Td>
                  <Table.Td>{ANNOTATION_KIND_LABELS[annotation.kind]}</Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{annotation.text}</Table.Td>
                  <Table.Td>{annotation.exclude_from_limits ? 'Left out' : 'No'}</Table.Td>
                  {canEdit && (
                    <Table.Td>
                      <RowActions
                        name={`annotation ${short(annotation.text)}`}
                        canEdit={canEdit}
                        onEdit={() => open(annotation)}
                        onDelete={() =>
                          askDelete({
                            message: `Delete the annotation "${short(annotation.text)}"?`,
                            done: 'Annotation deleted.',
                            call: partRequests.deleteAnnotation(annotation.id),
                          })
                        }
                      />
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <PartModal
        opened={editing !== null}
        title={editing?.id ? 'Edit annotation' : 'Add an annotation'}
        saving={part.isPending}
        failure={form.failure}
        onClose={() => setEditing(null)}
        onSubmit={submit}
      >
        {values && (
          <>
            <TextInput
              type="date"
              label="Period"
              withAsterisk
              description={`Any day of the ${measure.grain} it is about.`}
              value={values.period_start}
              onChange={(event) => change('period_start', event.currentTarget.value)}
              error={form.errors.period_start}
            />
            <Select
              label="Kind"
              data={optionsOf(ANNOTATION_KIND_LABELS)}
              value={values.kind}
              onChange={(next) => next && change('kind', next as AnnotationKind)}
              allowDeselect={false}
              error={form.errors.kind}
            />
            <Textarea
              label="Note"
              withAsterisk
              value={values.text}
              onChange={(event) => change('text', event.currentTarget.value)}
              error={form.errors.text}
              maxLength={1000}
              rows={2}
              resize="vertical"
              data-autofocus
            />
            <Switch
              label="Leave this period out of the limits"
              description="For a known special cause or a data issue: the point is drawn but not used for the limits."
              checked={values.exclude_from_limits}
              onChange={(event) => change('exclude_from_limits', event.currentTarget.checked)}
              error={form.errors.exclude_from_limits}
            />
          </>
        )}
      </PartModal>
    </Panel>
  );
}
