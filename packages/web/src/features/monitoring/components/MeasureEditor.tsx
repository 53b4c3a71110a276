import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  Fieldset,
  Group,
  MultiSelect,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  type AstronomicalPointCriterion,
  CHART_LABELS,
  type Dataset,
  type ExpressionError,
  type FormulaPreview,
  type IhiRunsTest,
  type ImprovementDirection,
  MEASURE_TYPE_LABELS,
  MEASURE_TYPES,
  type Measure,
  type MeasureCreate,
  type MeasureDefinition,
  type MeasureDetail,
  type MeasureType,
  type MeasureUpdate,
  measureCreateSchema,
  measureUsesDenominator,
  type PeriodGrain,
  parseExpression,
  periodStart,
  recommendedChart,
  SPC_CHARTS,
  type SpcChart,
  type SpcRuleSet,
  STALE_MEASURE_MESSAGE,
} from '@portal/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { ConfirmActionModal } from '../../../components/ConfirmActionModal';
import { DialogActions } from '../../../components/form-parts/DialogActions';
import { DialogModal } from '../../../components/form-parts/DialogModal';
import { useLeaveWarning } from '../../../components/leave-warning';
import { ErrorNotice } from '../../../components/page-parts';
import { ApiError, messageFor } from '../../../lib/api';
import { fieldBinder } from '../../../lib/field-binding';
import { type FieldErrors, serverFieldErrors } from '../../../lib/field-errors';
import { measureQueryOptions, useDeleteMeasure, useUpdateMeasure } from '../api/measures-detail';
import { useMeasurePreview } from '../api/measures-formulas';
import { useCreateMeasure } from '../api/measures-list';
import { FormulaField } from './FormulaField';
import { MeasureDetailsPanels } from './MeasureDetailsPanels';
import {
  ASTRONOMICAL_POINT_LABELS,
  currentPeriodStart,
  DIRECTION_LABELS,
  type FormulaField as FormulaKey,
  FormulaVersionsList,
  formulaSpansOf,
  GRAIN_LABELS,
  IHI_RUNS_TEST_LABELS,
  isIsoDate,
  MEASURE_TYPE_SHORT,
  MeasurePreviewTable,
  optionsOf,
  RULE_PROFILE_LABELS,
  typeDefaults,
} from './measure-parts';
import { SubmitForm } from './submit-form';
import { monitoringRoute } from './use-monitoring-project';

interface Values {
  name: string;
  type: MeasureType;
  dataset: string | null;
  numerator: string;
  denominator: string;
  value_expr: string;
  multiplier: number | string;
  unit_label: string;
  direction: ImprovementDirection;
  grain: PeriodGrain;
  strata_keys: string[];
  definition: MeasureDefinition;
  chart_default: SpcChart;
  rule_profile: SpcRuleSet;
  ihi_runs_test: IhiRunsTest;
  astronomical_point: AstronomicalPointCriterion;
  baseline_from: string;
  baseline_to: string;
}

/** The whole definition as it is sent (the create body; an update sends the fields that differ). */
type Body = Required<Omit<MeasureCreate, 'definition'>> & { definition: MeasureDefinition };

const DEFINITION_FIELDS = [
  { key: 'description', label: 'Description', long: true, hint: 'What the measure tells and why it matters.' },
  { key: 'inclusions', label: 'Inclusions', long: true, hint: 'Who or what is counted (population, setting, time).' },
  { key: 'exclusions', label: 'Exclusions', long: true, hint: 'Who or what is left out, and exceptions.' },
  { key: 'data_source', label: 'Data source', long: false, hint: 'Where the data comes from.' },
  { key: 'owner', label: 'Owner', long: false, hint: 'Who answers for the measure and its data.' },
  { key: 'collection_plan', label: 'Data collection plan', long: true, hint: 'Who collects, how and how often.' },
] as const;

const FIELDS = [
  'name',
  'type',
  'dataset_id',
  'numerator',
  'denominator',
  'value_expr',
  'multiplier',
  'unit_label',
  'direction',
  'grain',
  'strata_keys',
  'chart_default',
  'rule_profile',
  'ihi_runs_test',
  'astronomical_point',
  'baseline_from',
  'baseline_to',
  'formula_note',
  'phase_start',
  ...DEFINITION_FIELDS.map((field) => `definition.${field.key}` as const),
] as const;
type Field = (typeof FIELDS)[number];
const DEFINITION_CHANGES = ['dataset_id', 'numerator', 'denominator', 'value_expr'] as const;

function valuesOf(measure: Measure): Values {
  return {
    name: measure.name,
    type: measure.type,
    dataset: measure.dataset ? String(measure.dataset.id) : null,
    numerator: measure.numerator,
    denominator: measure.denominator,
    value_expr: measure.value_expr,
    multiplier: measure.multiplier,
    unit_label: measure.unit_label,
    direction: measure.direction,
    grain: measure.grain,
    strata_keys: measure.strata_keys,
    definition: { ...measure.definition },
    chart_default: measure.chart_default,
    rule_profile: measure.rule_profile,
    ihi_runs_test: measure.ihi_runs_test,
    astronomical_point: measure.astronomical_point,
    baseline_from: measure.baseline_from ?? '',
    baseline_to: measure.baseline_to ?? '',
  };
}

function blankValues(datasets: Dataset[]): Values {
  return {
    name: '',
    type: 'proportion',
    // The only dataset is the one a new measure reads.
    dataset: datasets.length === 1 ? String(datasets[0]!.id) : null,
    numerator: '',
    denominator: '',
    value_expr: '',
    ...typeDefaults('proportion', null),
    grain: 'month',
    strata_keys: [],
    definition: { description: '', inclusions: '', exclusions: '', data_source: '', owner: '', collection_plan: '' },
    chart_default: recommendedChart('proportion'),
    rule_profile: 'anhoej',
    ihi_runs_test: 'swed_eisenhart',
    astronomical_point: 'i_chart',
    baseline_from: '',
    baseline_to: '',
  };
}

function bodyOf(values: Values): Body {
  const ratio = measureUsesDenominator(values.type);
  return {
    name: values.name.trim(),
    type: values.type,
    dataset_id: values.dataset ? Number(values.dataset) : null,
    numerator: ratio ? values.numerator.trim() : '',
    denominator: ratio ? values.denominator.trim() : '',
    value_expr: ratio ? '' : values.value_expr.trim(),
    multiplier: values.multiplier === '' ? Number.NaN : Number(values.multiplier),
    unit_label: values.unit_label.trim(),
    direction: values.direction,
    grain: values.grain,
    strata_keys: values.strata_keys,
    definition: values.definition,
    chart_default: values.chart_default,
    rule_profile: values.rule_profile,
    ihi_runs_test: values.ihi_runs_test,
    astronomical_point: values.astronomical_point,
    baseline_from: values.baseline_from || null,
    baseline_to: values.baseline_to || null,
  };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The fields of `next` that differ from `before`. */
function changedFields(next: Body, before: Body): Partial<Body> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(next) as (keyof Body)[]) if (!same(next[key], before[key])) out[key] = next[key];
  return out as Partial<Body>;
}

interface MeasureEditorProps {
  projectId: string;
  pageId: number;
  /** null: a new measure. */
  measure: MeasureDetail | null;
  datasets: Dataset[];
  canEdit: boolean;
  /** After a new measure is created (its editor then opens). */
  onCreated?: (measureId: number) => void;
  onDeleted: () => void;
}

/**
 * The editor of one measure: what it is, the formulas over a dataset with a live preview, strata, chart and rules,
 * its operational definition; for a saved measure also its targets, benchmarks, phases, annotations and the history
 * of its definition. A changed dataset or formula is saved as a new formula version (optionally starting a phase).
 */
export function MeasureEditor({
  projectId,
  pageId,
  measure,
  datasets,
  canEdit,
  onCreated,
  onDeleted,
}: MeasureEditorProps) {
  const [start] = useState(() => (measure ? valuesOf(measure) : blankValues(datasets)));
  const [values, setValues] = useState<Values>(start);
  const [saved, setSaved] = useState<Values>(start);
  const [version, setVersion] = useState(measure?.version ?? 0);
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [spans, setSpans] = useState<Partial<Record<FormulaKey, ExpressionError[]>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [stale, setStale] = useState(false);
  const [pendingChanges, setPendingChanges] = useState<Partial<Body> | null>(null);
  const [deleting, setDeleting] = useState(false);
  const create = useCreateMeasure(projectId, pageId);
  const update = useUpdateMeasure(projectId, measure?.id ?? 0);
  const remove = useDeleteMeasure(projectId);
  const queryClient = useQueryClient();
  const [reloading, setReloading] = useState(false);
  const saving = create.isPending || update.isPending;
  const dirty = !same(bodyOf(values), bodyOf(saved));

  // A newer copy of the measure (a target added here, a refetch): adopt its version when our baseline still matches
  // it; take its values too when nothing is being edited. Otherwise a save answers 409 and the person decides.
  const latest = useRef({ saved, dirty });
  latest.current = { saved, dirty };
  useEffect(() => {
    if (!measure) return;
    const incoming = valuesOf(measure);
    if (same(bodyOf(incoming), bodyOf(latest.current.saved))) setVersion(measure.version);
    else if (!latest.current.dirty) {
      setValues(incoming);
      setSaved(incoming);
      setVersion(measure.version);
    }
  }, [measure]);

  const dataset = datasets.find((item) => String(item.id) === values.dataset) ?? null;
  const columns = dataset?.columns ?? null;
  const ratio = measureUsesDenominator(values.type);
  const formulaKeys: FormulaKey[] = ratio ? ['numerator', 'denominator'] : ['value_expr'];
  const recommended = recommendedChart(values.type);

  const set = <K extends keyof Values>(key: K, value: Values[K]) => {
    setValues((now) => ({ ...now, [key]: value }));
    const field = (key === 'dataset' ? 'dataset_id' : key) as Field;
    setErrors((now) => ({ ...now, [field]: undefined }));
    if (key === 'numerator' || key === 'denominator' || key === 'value_expr')
      setSpans((now) => ({ ...now, [key]: undefined }));
  };
  const bind = fieldBinder({ values, errors, change: set });

  const chooseType = (type: MeasureType) => {
    const exposure = (() => {
      if (!columns || !values.denominator.trim()) return null;
      const parsed = parseExpression(values.denominator, { columns: columns.map((c) => c.key), level: 'period' });
      if (!parsed.ok || parsed.columns.length !== 1) return null;
      return columns.find((column) => column.key === parsed.columns[0])?.label ?? null;
    })();
    setValues((now) => ({ ...now, type, ...typeDefaults(type, exposure), chart_default: recommendedChart(type) }));
    setErrors((now) => ({ ...now, type: undefined, multiplier: undefined, unit_label: undefined }));
  };

  /** Errors found before asking the server: the contract's own checks, the formulas, the baseline. */
  const localProblems = (body: Body): FieldErrors<Field> => {
    const problems: Record<string, string> = {};
    const parsed = measureCreateSchema.safeParse(body);
    if (!parsed.success)
      for (const issue of parsed.error.issues) {
        const key = issue.path.map(String).join('.');
        problems[key] ??= issue.message;
      }
    const written = formulaKeys.filter((key) => body[key] !== '');
    if (body.dataset_id === null && written.length > 0) problems.dataset_id = 'Choose the dataset the formulas read.';
    if (body.dataset_id !== null)
      for (const key of formulaKeys) {
        if (body[key] === '') {
          problems[key] ??=
            key === 'value_expr'
              ? 'Enter the value formula.'
              : `Enter the ${key === 'numerator' ? 'numerator' : 'denominator'}.`;
        } else if (columns) {
          const check = parseExpression(body[key], { columns: columns.map((c) => c.key), level: 'period' });
          if (!check.ok) problems[key] ??= check.errors[0]!.message;
        }
      }
    if (body.baseline_from && body.baseline_to && body.baseline_from > body.baseline_to)
      problems.baseline_to = 'The baseline ends before it starts.';
    return problems as FieldErrors<Field>;
  };

  const done = (result: MeasureDetail, created: boolean) => {
    const next = valuesOf(result);
    setValues(next);
    setSaved(next);
    setVersion(result.version);
    setErrors({});
    setSpans({});
    setPendingChanges(null);
    toast.success(created ? `Measure "${result.name}" created.` : `Measure "${result.name}" saved.`);
    if (created) onCreated?.(result.id);
  };

  const failed = (error: unknown, inDialog = false) => {
    if (error instanceof ApiError && error.status === 409) {
      setPendingChanges(null);
      setStale(true);
      return;
    }
    const fields = serverFieldErrors(error, FIELDS);
    const positions = formulaSpansOf(error);
    if (inDialog && (fields.formula_note || fields.phase_start)) {
      setErrors(fields);
      return;
    }
    setPendingChanges(null);
    setErrors(fields);
    setSpans(positions);
    if (Object.keys(fields).length === 0 && Object.keys(positions).length === 0)
      setFailure(messageFor(error, 'The measure could not be saved.'));
  };

  const submit = () => {
    setFailure(null);
    setStale(false);
    const body = bodyOf(values);
    const problems = localProblems(body);
    if (Object.keys(problems).length > 0) {
      setErrors(problems);
      setFailure('Some fields need attention: see the messages below.');
      return;
    }
    if (!measure) {
      create.mutate(body, { onSuccess: (result) => done(result, true), onError: (error) => failed(error) });
      return;
    }
    const changes = changedFields(body, bodyOf(saved));
    if (DEFINITION_CHANGES.some((key) => key in changes)) {
      setPendingChanges(changes);
      return;
    }
    const input: MeasureUpdate = { ...changes, version };
    update.mutate(input, { onSuccess: (result) => done(result, false), onError: (error) => failed(error) });
  };

  const saveVersion = (note: string, phaseStart: string | null) => {
    if (!pendingChanges) return;
    const input: MeasureUpdate = { ...pendingChanges, version, formula_note: note, phase_start: phaseStart };
    update.mutate(input, { onSuccess: (result) => done(result, false), onError: (error) => failed(error, true) });
  };

  const reload = async () => {
    if (!measure) return;
    setReloading(true);
    const fresh = await queryClient
      .fetchQuery({ ...measureQueryOptions(projectId, measure.id), staleTime: 0 })
      .catch(() => null);
    setReloading(false);
    if (!fresh) {
      setFailure('The measure could not be reloaded. Try again.');
      return;
    }
    const next = valuesOf(fresh);
    setValues(next);
    setSaved(next);
    setVersion(fresh.version);
    setStale(false);
    setErrors({});
    setSpans({});
  };

  const confirmDelete = () => {
    if (!measure) return;
    remove.mutate(measure.id, {
      onSuccess: () => {
        setDeleting(false);
        setValues(saved);
        toast.success(`Measure "${measure.name}" deleted.`);
        onDeleted();
      },
      onError: (error) => {
        setDeleting(false);
        toast.error(messageFor(error, 'The measure could not be deleted.'));
      },
    });
  };

  const formulasReady =
    dataset !== null &&
    formulaKeys.every(
      (key) =>
        values[key].trim() !== '' &&
        parseExpression(values[key], { columns: dataset.columns.map((c) => c.key), level: 'period' }).ok,
    );
  const previewInput: FormulaPreview | null =
    formulasReady && dataset
      ? {
          dataset_id: dataset.id,
          type: values.type,
          numerator: ratio ? values.numerator : '',
          denominator: ratio ? values.denominator : '',
          value_expr: ratio ? '' : values.value_expr,
          multiplier: Number(values.multiplier) > 0 ? Number(values.multiplier) : 1,
          grain: values.grain,
        }
      : null;
  const [previewKey] = useDebouncedValue(JSON.stringify(previewInput), 500);
  const previewBody = useMemo(() => JSON.parse(previewKey) as FormulaPreview | null, [previewKey]);
  const preview = useMeasurePreview(projectId, previewBody);

  const blocker = useLeaveWarning(dirty, 'this measure');

  const datasetOptions = datasets.map((item) => ({ value: String(item.id), label: item.name }));
  if (measure?.dataset && !datasets.some((item) => item.id === measure.dataset!.id))
    datasetOptions.push({ value: String(measure.dataset.id), label: measure.dataset.name });
  const strataOptions = (columns ?? [])
    .filter((column) => column.key !== dataset?.time_column)
    .map((column) => ({ value: column.key, label: `${column.label} (${column.key})` }));

  const formulaField = (key: FormulaKey, label: string, description: string) => (
    <FormulaField
      projectId={projectId}
      label={label}
      description={columns ? description : undefined}
      value={values[key]}
      onChange={(text) => set(key, text)}
      kind={key === 'value_expr' ? 'value' : key}
      datasetId={dataset?.id ?? null}
      columns={columns}
      grain={values.grain}
      saveError={errors[key]}
      saveSpans={spans[key]}
      required={dataset !== null}
      disabled={!canEdit}
    />
  );

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start" wrap="wrap">
        <Title order={2} fz="h3">
          {measure ? measure.name : 'New measure'}
        </Title>
        {measure && (
          <Text size="sm" c="dimmed">
            {MEASURE_TYPE_SHORT[measure.type]} · definition version {measure.formula_version}
          </Text>
        )}
      </Group>
      {stale && (
        <Alert color="orange.9" variant="light" role="alert" title="Not saved">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{STALE_MEASURE_MESSAGE}</Text>
            <Text size="sm">Your changes are still in the form; reloading replaces them with the saved measure.</Text>
            <Button size="compact-sm" variant="default" onClick={() => void reload()} loading={reloading}>
              Reload
            </Button>
          </Stack>
        </Alert>
      )}
      <ErrorNotice message={failure} />
      {!canEdit && (
        <Alert color="gray" variant="light">
          You may read this measure but not change it.
        </Alert>
      )}
      <SubmitForm onSubmit={submit}>
        <Fieldset variant="unstyled" disabled={!canEdit}>
          <Stack gap="md">
            <Paper withBorder p="md">
              <Stack gap="sm">
                <Title order={3} fz="h4">
                  What is measured
                </Title>
                <TextInput label="Name" withAsterisk {...bind.text('name')} maxLength={200} />
                <SimpleGrid cols={{ base: 1, sm: 2 }}>
                  <Select
                    label="Type"
                    data={MEASURE_TYPES.map((type) => ({ value: type, label: MEASURE_TYPE_LABELS[type] }))}
                    value={values.type}
                    onChange={(value) => value && chooseType(value as MeasureType)}
                    allowDeselect={false}
                    error={errors.type}
                    description="Sets the multiplier, unit, direction and chart to the usual ones."
                  />
                  <Select
                    label="Dataset"
                    placeholder={datasets.length === 0 ? 'No dataset yet' : 'Choose a dataset'}
                    data={datasetOptions}
                    value={values.dataset}
                    onChange={(value) => {
                      set('dataset', value);
                      const next = datasets.find((item) => String(item.id) === value);
                      const keys = new Set(next?.columns.map((column) => column.key) ?? []);
                      set(
                        'strata_keys',
                        values.strata_keys.filter((key) => keys.has(key)),
                      );
                    }}
                    searchable
                    clearable
                    nothingFoundMessage="No dataset by that name"
                    error={errors.dataset_id}
                    description={
                      dataset
                        ? `${dataset.row_count.toLocaleString('en-US')} rows${dataset.first_date ? `, ${dataset.first_date} to ${dataset.last_date ?? dataset.first_date}` : ''}.`
                        : undefined
                    }
                  />
                </SimpleGrid>
                {datasets.length === 0 && (
                  <Text size="sm">
                    No data yet.{' '}
                    <Anchor component={Link} to={monitoringRoute(projectId, 'csv-import')}>
                      Import a CSV file
                    </Anchor>{' '}
                    to have columns to count.
                  </Text>
                )}
                <Select
                  label="Period"
                  description="The formulas are computed per period of this length."
                  data={optionsOf(GRAIN_LABELS)}
                  {...bind.select('grain')}
                  maw={320}
                />
              </Stack>
            </Paper>

            <Paper withBorder p="md">
              <Stack gap="sm">
                <Title order={3} fz="h4">
                  Formulas
                </Title>
                {ratio ? (
                  <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
                    {formulaField('numerator', 'Numerator', 'What is counted, e.g. countIf(fall == 1).')}
                    {formulaField('denominator', 'Denominator', 'Out of what, e.g. sum(patient_days) or count().')}
                  </SimpleGrid>
                ) : (
                  formulaField('value_expr', 'Value', 'One value per period, e.g. median(minutes).')
                )}
                <SimpleGrid cols={{ base: 1, sm: 3 }}>
                  <NumberInput
                    label="Multiplier"
                    description={
                      ratio ? 'The ratio is multiplied by this (100 for %).' : 'The value is multiplied by this.'
                    }
                    value={values.multiplier}
                    onChange={(value) => set('multiplier', value)}
                    min={0}
                    thousandSeparator=","
                    error={errors.multiplier}
                  />
                  <TextInput
                    label="Unit"
                    description="Shown after values, e.g. % or per 1,000 patient days."
                    value={values.unit_label}
                    onChange={(event) => set('unit_label', event.currentTarget.value)}
                    maxLength={60}
                    error={errors.unit_label}
                  />
                  <Select
                    label="Direction of improvement"
                    data={optionsOf(DIRECTION_LABELS)}
                    {...bind.select('direction')}
                  />
                </SimpleGrid>
                <Stack gap={4}>
                  <Title order={4} fz="h5">
                    Preview
                  </Title>
                  {!previewInput ? (
                    <Text size="sm" c="dimmed">
                      The preview appears once a dataset is chosen and the formulas are valid.
                    </Text>
                  ) : preview.isError ? (
                    <Text size="sm" c="red.8" role="alert">
                      {messageFor(preview.error, 'The preview could not be computed.')}
                    </Text>
                  ) : preview.data ? (
                    <MeasurePreviewTable series={preview.data} withDenominator={ratio} />
                  ) : (
                    <Text size="sm" c="dimmed" role="status">
                      Computing the preview…
                    </Text>
                  )}
                </Stack>
              </Stack>
            </Paper>

            <Paper withBorder p="md">
              <Stack gap="sm">
                <Title order={3} fz="h4">
                  Strata, chart and rules
                </Title>
                <MultiSelect
                  label="Strata"
                  description="Up to 3 columns to break the measure down by (e.g. ward, shift)."
                  placeholder={columns ? 'Choose columns' : 'Choose a dataset first'}
                  data={strataOptions}
                  value={values.strata_keys}
                  onChange={(keys) => set('strata_keys', keys)}
                  maxValues={3}
                  searchable
                  clearable
                  error={errors.strata_keys}
                />
                <SimpleGrid cols={{ base: 1, sm: 2 }}>
                  <Select
                    label="Default chart"
                    description={`Recommended for a ${MEASURE_TYPE_SHORT[values.type].toLowerCase()} measure: ${CHART_LABELS[recommended]}.`}
                    data={SPC_CHARTS.map((chart) => ({
                      value: chart,
                      label: chart === recommended ? `${CHART_LABELS[chart]} (recommended)` : CHART_LABELS[chart],
                    }))}
                    {...bind.select('chart_default')}
                  />
                  <Select
                    label="Rule profile"
                    description="The rules that tell a signal from noise."
                    data={optionsOf(RULE_PROFILE_LABELS)}
                    {...bind.select('rule_profile')}
                  />
                  {values.rule_profile === 'ihi_run' && (
                    <>
                      <Select
                        label="Number of runs"
                        description="Perla et al. 2011 judge it against the Swed-Eisenhart limits."
                        data={optionsOf(IHI_RUNS_TEST_LABELS)}
                        {...bind.select('ihi_runs_test')}
                      />
                      <Select
                        label="Astronomical data point"
                        description="Left to judgement by the source; sigma as on an I chart."
                        data={optionsOf(ASTRONOMICAL_POINT_LABELS)}
                        {...bind.select('astronomical_point')}
                      />
                    </>
                  )}
                  <TextInput
                    type="date"
                    label="Baseline from"
                    description="Limits are computed over the baseline and extended. Empty: from the first period."
                    {...bind.text('baseline_from')}
                  />
                  <TextInput
                    type="date"
                    label="Baseline to"
                    description="Empty: to the last period."
                    {...bind.text('baseline_to')}
                  />
                </SimpleGrid>
              </Stack>
            </Paper>

            <Paper withBorder p="md">
              <Stack gap="sm">
                <Title order={3} fz="h4">
                  Operational definition
                </Title>
                <SimpleGrid cols={{ base: 1, md: 2 }}>
                  {DEFINITION_FIELDS.map((field) => {
                    const common = {
                      label: field.label,
                      description: field.hint,
                      value: values.definition[field.key],
                      error: errors[`definition.${field.key}`],
                    };
                    const change = (text: string) => {
                      setValues((now) => ({ ...now, definition: { ...now.definition, [field.key]: text } }));
                      setErrors((now) => ({ ...now, [`definition.${field.key}`]: undefined }));
                    };
                    return field.long ? (
                      <Textarea
                        key={field.key}
                        {...common}
                        rows={2}
                        resize="vertical"
                        maxLength={5000}
                        onChange={(event) => change(event.currentTarget.value)}
                      />
                    ) : (
                      <TextInput
                        key={field.key}
                        {...common}
                        maxLength={field.key === 'owner' ? 200 : 1000}
                        onChange={(event) => change(event.currentTarget.value)}
                      />
                    );
                  })}
                </SimpleGrid>
              </Stack>
            </Paper>

            {canEdit && (
              <Group gap="sm">
                <Button type="submit" loading={saving} disabled={measure !== null && !dirty}>
                  {measure ? 'Save' : 'Create measure'}
                </Button>
                {measure && dirty && (
                  <Button variant="default" onClick={() => setValues(saved)}>
                    Discard changes
                  </Button>
                )}
                {measure?.abilities.edit && (
                  <Button variant="subtle" color="red.9" ml="auto" onClick={() => setDeleting(true)}>
                    Delete measure
                  </Button>
                )}
              </Group>
            )}
          </Stack>
        </Fieldset>
      </SubmitForm>

      {measure && (
        <>
          <MeasureDetailsPanels projectId={projectId} measure={measure} canEdit={canEdit} />
          <FormulaVersionsList projectId={projectId} measureId={measure.id} />
        </>
      )}

      <VersionDialog
        opened={pendingChanges !== null}
        nextVersion={(measure?.formula_version ?? 0) + 1}
        grain={values.grain}
        saving={update.isPending}
        noteError={errors.formula_note}
        phaseError={errors.phase_start}
        onCancel={() => setPendingChanges(null)}
        onConfirm={saveVersion}
      />
      <ConfirmActionModal
        opened={deleting}
        title="Delete measure"
        message={measure ? `Delete measure "${measure.name}"? Its charts are removed too.` : ''}
        confirmLabel="Delete"
        danger
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(false)}
      />
      {blocker}
    </Stack>
  );
}

interface VersionDialogProps {
  opened: boolean;
  nextVersion: number;
  grain: PeriodGrain;
  saving: boolean;
  noteError?: string;
  phaseError?: string;
  onCancel: () => void;
  onConfirm: (note: string, phaseStart: string | null) => void;
}

/** Before a changed definition is saved: its note, and whether a new phase starts with it. */
function VersionDialog({
  opened,
  nextVersion,
  grain,
  saving,
  noteError,
  phaseError,
  onCancel,
  onConfirm,
}: VersionDialogProps) {
  const [note, setNote] = useState('');
  const [newPhase, setNewPhase] = useState(false);
  const [phaseStart, setPhaseStart] = useState(() => currentPeriodStart(grain));
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    if (!opened) return;
    setNote('');
    setNewPhase(false);
    setPhaseStart(currentPeriodStart(grain));
    setProblem(null);
  }, [opened, grain]);

  const confirm = () => {
    if (newPhase && !isIsoDate(phaseStart)) {
      setProblem('Enter the date the new phase starts.');
      return;
    }
    onConfirm(note.trim(), newPhase ? periodStart(phaseStart, grain) : null);
  };

  return (
    <DialogModal opened={opened} onClose={onCancel} title="Save a new definition">
      <SubmitForm onSubmit={confirm}>
        <Stack gap="md">
          <Text>Changing the definition records version {nextVersion}. Old points keep their history.</Text>
          <Textarea
            label="Note"
            description="Why the definition changed; shown in the history."
            value={note}
            onChange={(event) => setNote(event.currentTarget.value)}
            maxLength={500}
            rows={2}
            resize="vertical"
            error={noteError}
            data-autofocus
          />
          <Checkbox
            label="Start a new phase from"
            description="New limits from this period, so old and new definitions are not mixed on one centre line."
            checked={newPhase}
            onChange={(event) => setNewPhase(event.currentTarget.checked)}
          />
          <TextInput
            type="date"
            label="Phase starts"
            value={phaseStart}
            onChange={(event) => {
              setPhaseStart(event.currentTarget.value);
              setProblem(null);
            }}
            disabled={!newPhase}
            error={problem ?? phaseError}
          />
          <DialogActions onCancel={onCancel}>
            <Button type="submit" loading={saving}>
              Save version {nextVersion}
            </Button>
          </DialogActions>
        </Stack>
      </SubmitForm>
    </DialogModal>
  );
}
