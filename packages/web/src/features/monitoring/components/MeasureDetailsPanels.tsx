import {
  Anchor,
  Autocomplete,
  Button,
  Group,
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
import { DialogActions } from '../../../components/form-parts/DialogActions';
import { DialogModal } from '../../../components/form-parts/DialogModal';
import { ScrollTable } from '../../../components/form-parts/ScrollTable';
import { ErrorNotice } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';
import { formatDay } from '../../../lib/dates';
import { fieldBinder } from '../../../lib/field-binding';
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
import { SubmitForm } from './submit-form';

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

/** The editable values of a saved part, to open it in the modal. */
const valuesOf = <P extends object, K extends keyof P>(saved: P, fields: readonly K[]) =>
  Object.fromEntries(fields.map((key) => [key, saved[key]])) as Pick<P, K>;

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

/** The part in the modal (id null while adding), its values as typed, and the form that saves them. */
function usePartEditor<V extends object>(part: PartMutation, fields: readonly (keyof V & string)[]) {
  const form = usePartSave(part, fields);
  const [editing, setEditing] = useState<{ id: number | null; values: V } | null>(null);
  const open = (id: number | null, values: V) => {
    form.reset();
    setEditing({ id, values });
  };
  const change = <K extends keyof V & string>(key: K, value: V[K]) => {
    setEditing((now) => (now ? { ...now, values: { ...now.values, [key]: value } } : now));
    form.clear(key);
  };
  const close = () => setEditing(null);
  return { form, editing, values: editing?.values, open, change, close, saving: part.isPending };
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

type PartEditor<V extends object> = ReturnType<typeof usePartEditor<V>>;

type FieldBinder<V extends object> = ReturnType<typeof fieldBinder<V>>;

/** The modal that adds or edits a part: its fields (`children`, given the values as typed), Cancel and Save. */
function PartModal<V extends object>({
  editor,
  title,
  onSubmit,
  children,
}: {
  editor: PartEditor<V>;
  title: string;
  onSubmit: () => void;
  children: (field: FieldBinder<V>, values: V) => ReactNode;
}) {
  const { editing, close, saving } = editor;
  const failure = editor.form.failure;
  return (
    <DialogModal opened={editing !== null} onClose={close} title={title}>
      <SubmitForm onSubmit={onSubmit}>
        <Stack gap="sm">
          <ErrorNotice message={failure} />
          {editing &&
            children(
              fieldBinder({ values: editing.values, errors: editor.form.errors, change: editor.change }),
              editing.values,
            )}
          <DialogActions onCancel={close} mt="xs">
            <Button type="submit" loading={saving}>
              Save
            </Button>
          </DialogActions>
        </Stack>
      </SubmitForm>
    </DialogModal>
  );
}

/** The table of a panel's parts: its column heads, with an Actions column for an editor. */
function PartTable({
  part,
  minWidth,
  heads,
  canEdit,
  children,
}: {
  part: string;
  minWidth: number;
  heads: readonly string[];
  canEdit: boolean;
  children: ReactNode;
}) {
  return (
    <ScrollTable minWidth={minWidth} fz="sm" data-part={part} columns={heads} actions={canEdit}>
      {children}
    </ScrollTable>
  );
}

/** The last cell of a row for an editor: Edit (where a part can be changed) and Delete. */
function RowActionsCell({
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
    <Table.Td>
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
    </Table.Td>
  );
}

// ---------------------------------------------------------------------------------------------------------------

const TARGET_FIELDS = ['value', 'effective_from', 'kind'] as const;

interface TargetValues {
  value: number | string;
  effective_from: string;
  kind: TargetKind;
}

function TargetsPanel({ measure, canEdit, part, askDelete }: PanelProps) {
  const editor = usePartEditor<TargetValues>(part, TARGET_FIELDS);
  const { form, values } = editor;
  const add = () => editor.open(null, { value: '', effective_from: currentPeriodStart(measure.grain), kind: 'target' });
  const submit = () => {
    if (!values) return;
    form.save(
      targetCreateSchema,
      { ...values, value: numberOf(values.value) },
      partRequests.addTarget,
      'Target added.',
      editor.close,
    );
  };

  return (
    <Panel title="Targets" addLabel="Add target" canEdit={canEdit} onAdd={add}>
      {measure.targets.length === 0 ? (
        <Text size="sm" c="dimmed">
          No targets yet. A target is drawn on the charts and gives the assurance reading.
        </Text>
      ) : (
        <PartTable part="targets" minWidth={420} heads={['Value', 'Effective from', 'Kind']} canEdit={canEdit}>
          {measure.targets.map((target) => {
            const shown = formatValue(target.value, measure.unit_label);
            return (
              <Table.Tr key={target.id}>
                <Table.Td>{shown}</Table.Td>
                <Table.Td>{formatDay(target.effective_from)}</Table.Td>
                <Table.Td>{TARGET_KIND_LABELS[target.kind]}</Table.Td>
                <RowActionsCell
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
              </Table.Tr>
            );
          })}
        </PartTable>
      )}
      <PartModal editor={editor} title="Add a target" onSubmit={submit}>
        {(field) => (
          <>
            <NumberInput
              label="Value"
              withAsterisk
              description={measure.unit_label ? `In ${measure.unit_label}.` : undefined}
              {...field.number('value')}
              data-autofocus
            />
            <TextInput type="date" label="Effective from" withAsterisk {...field.text('effective_from')} />
            <Select label="Kind" data={optionsOf(TARGET_KIND_LABELS)} {...field.select('kind')} />
          </>
        )}
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
  const editor = usePartEditor<BenchmarkValues>(part, BENCHMARK_FIELDS);
  const { form, editing } = editor;
  const open = (benchmark: Benchmark | null) =>
    editor.open(
      benchmark?.id ?? null,
      benchmark
        ? { ...valuesOf(benchmark, BENCHMARK_FIELDS), percentile: benchmark.percentile ?? '' }
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
    );
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
      editor.close,
    );
  };
  const statisticText = (benchmark: Benchmark) =>
    benchmark.statistic === 'percentile' && benchmark.percentile !== null
      ? `${ordinal(benchmark.percentile)} percentile`
      : BENCHMARK_STATISTIC_LABELS[benchmark.statistic];

  return (
    <Panel title="Benchmarks" addLabel="Add benchmark" canEdit={canEdit} onAdd={() => open(null)}>
      {measure.benchmarks.length === 0 ? (
        <Text size="sm" c="dimmed">
          No benchmarks yet. Compare with national or network figures (for example CMS Care Compare or NHSN).
        </Text>
      ) : (
        <PartTable
          part="benchmarks"
          minWidth={720}
          heads={['Source', 'Statistic', 'Value', 'Period', 'As of', 'Same definition']}
          canEdit={canEdit}
        >
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
              <RowActionsCell
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
            </Table.Tr>
          ))}
        </PartTable>
      )}
      <PartModal editor={editor} title={editing?.id ? 'Edit benchmark' : 'Add a benchmark'} onSubmit={submit}>
        {(field, values) => (
          <>
            <Autocomplete
              label="Source"
              withAsterisk
              data={BENCHMARK_SOURCES}
              {...field.value('source')}
              maxLength={200}
              data-autofocus
            />
            <Group grow align="flex-start" wrap="wrap">
              <Select
                label="Statistic"
                data={optionsOf(BENCHMARK_STATISTIC_LABELS)}
                {...field.select('statistic')}
                miw={160}
              />
              {values.statistic === 'percentile' && (
                <NumberInput
                  label="Percentile"
                  withAsterisk
                  min={1}
                  max={99}
                  allowDecimal={false}
                  {...field.number('percentile')}
                  miw={120}
                />
              )}
            </Group>
            <Group grow align="flex-start" wrap="wrap">
              <NumberInput
                label="Value"
                withAsterisk
                description={measure.unit_label ? `In ${measure.unit_label}.` : undefined}
                {...field.number('value')}
                miw={140}
              />
              <TextInput
                label="Period"
                description="The period it describes, e.g. 2025 Q3."
                {...field.text('period_label')}
                maxLength={60}
                miw={140}
              />
            </Group>
            <TextInput
              type="date"
              label="As of"
              withAsterisk
              description="When the source published it."
              {...field.text('as_of')}
            />
            <Switch
              label="Same definition as this measure"
              description="Off: shown, but marked as not comparable."
              {...field.checked('spec_match')}
            />
            <TextInput
              type="url"
              label="Citation link"
              placeholder="https://"
              {...field.text('citation_url')}
              maxLength={2000}
            />
            <Textarea label="Note" {...field.text('note')} maxLength={2000} rows={2} resize="vertical" />
          </>
        )}
      </PartModal>
    </Panel>
  );
}

// ---------------------------------------------------------------------------------------------------------------

const PHASE_FIELDS = ['start_period', 'label', 'reason'] as const;

interface PhaseValues {
  start_period: string;
  label: string;
  reason: PhaseReason;
}

function PhasesPanel({ measure, canEdit, part, askDelete }: PanelProps) {
  const editor = usePartEditor<PhaseValues>(part, PHASE_FIELDS);
  const { form, values } = editor;
  const add = () =>
    editor.open(null, { start_period: currentPeriodStart(measure.grain), label: '', reason: 'intervention' });
  const submit = () => {
    if (!values) return;
    form.save(
      phaseCreateSchema,
      { ...values, start_period: periodOf(values.start_period, measure.grain) },
      partRequests.addPhase,
      'Phase added.',
      editor.close,
    );
  };

  return (
    <Panel title="Phases" addLabel="Add phase" canEdit={canEdit} onAdd={add}>
      <Text size="sm" c="dimmed">
        A phase starts new limits: after a sustained shift, an intervention or a change of definition.
      </Text>
      {measure.phases.length > 0 && (
        <PartTable part="phases" minWidth={420} heads={['Starts', 'Label', 'Reason']} canEdit={canEdit}>
          {measure.phases.map((phase) => (
            <Table.Tr key={phase.id}>
              <Table.Td>{periodLabel(phase.start_period, measure.grain)}</Table.Td>
              <Table.Td>{phase.label}</Table.Td>
              <Table.Td>{PHASE_REASON_LABELS[phase.reason]}</Table.Td>
              <RowActionsCell
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
            </Table.Tr>
          ))}
        </PartTable>
      )}
      <PartModal editor={editor} title="Add a phase" onSubmit={submit}>
        {(field) => (
          <>
            <TextInput
              type="date"
              label="Starts in the period of"
              withAsterisk
              description={`Any day of the first ${measure.grain} of the phase.`}
              {...field.text('start_period')}
            />
            <TextInput
              label="Label"
              withAsterisk
              description="Shown on the chart, e.g. New bed alarms."
              {...field.text('label')}
              maxLength={120}
              data-autofocus
            />
            <Select label="Reason" data={optionsOf(PHASE_REASON_LABELS)} {...field.select('reason')} />
          </>
        )}
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
  const editor = usePartEditor<AnnotationValues>(part, ANNOTATION_FIELDS);
  const { form, editing } = editor;
  const open = (annotation: Annotation | null) =>
    editor.open(
      annotation?.id ?? null,
      annotation
        ? valuesOf(annotation, ANNOTATION_FIELDS)
        : { period_start: currentPeriodStart(measure.grain), kind: 'event', text: '', exclude_from_limits: false },
    );
  const submit = () => {
    if (!editing) return;
    const { id, values } = editing;
    form.save(
      annotationInputSchema,
      { ...values, period_start: periodOf(values.period_start, measure.grain) },
      (body) => partRequests.saveAnnotation(id, body),
      id === null ? 'Annotation added.' : 'Annotation saved.',
      editor.close,
    );
  };
  const short = (text: string) => (text.length > 60 ? `${text.slice(0, 57)}…` : text);

  return (
    <Panel title="Annotations" addLabel="Add annotation" canEdit={canEdit} onAdd={() => open(null)}>
      {measure.annotations.length === 0 ? (
        <Text size="sm" c="dimmed">
          No annotations yet. Note interventions, PDSA cycles, events and data issues at their period.
        </Text>
      ) : (
        <PartTable
          part="annotations"
          minWidth={560}
          heads={['Period', 'Kind', 'Note', 'Out of limits']}
          canEdit={canEdit}
        >
          {measure.annotations.map((annotation) => (
            <Table.Tr key={annotation.id}>
              <Table.Td>{periodLabel(annotation.period_start, measure.grain)}</Table.Td>
              <Table.Td>{ANNOTATION_KIND_LABELS[annotation.kind]}</Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{annotation.text}</Table.Td>
              <Table.Td>{annotation.exclude_from_limits ? 'Left out' : 'No'}</Table.Td>
              <RowActionsCell
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
            </Table.Tr>
          ))}
        </PartTable>
      )}
      <PartModal editor={editor} title={editing?.id ? 'Edit annotation' : 'Add an annotation'} onSubmit={submit}>
        {(field) => (
          <>
            <TextInput
              type="date"
              label="Period"
              withAsterisk
              description={`Any day of the ${measure.grain} it is about.`}
              {...field.text('period_start')}
            />
            <Select label="Kind" data={optionsOf(ANNOTATION_KIND_LABELS)} {...field.select('kind')} />
            <Textarea
              label="Note"
              withAsterisk
              {...field.text('text')}
              maxLength={1000}
              rows={2}
              resize="vertical"
              data-autofocus
            />
            <Switch
              label="Leave this period out of the limits"
              description="For a known special cause or a data issue: the point is drawn but not used for the limits."
              {...field.checked('exclude_from_limits')}
            />
          </>
        )}
      </PartModal>
    </Panel>
  );
}
