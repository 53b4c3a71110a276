import {
  Anchor,
  Button,
  Checkbox,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import {
  CHART_LABELS,
  type Chart,
  type ChartOptions,
  type Measure,
  recommendedChart,
  type Series,
  SPC_CHARTS,
  SPC_RULE_SETS,
  type SpcChart,
  type SpcRuleSet,
} from '@portal/shared';
import { useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { useLeaveWarning } from '../../../components/leave-warning';
import { ErrorNotice, LoadFailure, LoadingRows, PageHeading } from '../../../components/page-parts';
import { CHART_HEIGHT } from '../../../components/spc/series-format';
import { ApiError, messageFor } from '../../../lib/api';
import { fieldBinder } from '../../../lib/field-binding';
import { type FieldErrors, serverFieldErrors } from '../../../lib/field-errors';
import { usePageTitle } from '../../../lib/use-page-title';
import { useChart, useUpdateChart } from '../api/charts-detail';
import { useChartMeasures } from '../api/charts-measures';
import { useCreateChart } from '../api/charts-page';
import { usePage } from '../api/pages-detail';
import { type SeriesParams, useSeries } from '../api/series-measure';
import { MEASURE_TYPE_WORD, RULE_SET_TEXT } from './chart-editor-words';
import { ConflictAlert, pageName } from './pages-parts';
import { SeriesView } from './SavedChart';
import { FormCard } from './submit-form';
import { monitoringRoute, useMonitoringProjectId } from './use-monitoring-project';

const ALL = 'all';
const MEASURE_DEFAULT = 'measure';
const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

interface FormValues {
  measure: string | null;
  title: string;
  chart_type: SpcChart;
  stratum: string;
  /** 'YYYY-MM' or '' (the whole series). */
  from: string;
  to: string;
  sigma: string[];
  show_target: boolean;
  show_benchmark: boolean;
  show_annotations: boolean;
  rule_profile: string;
}
const FIELDS = ['measure_id', 'title', 'chart_type', 'options', 'version'] as const;
type Field = (typeof FIELDS)[number] | 'from' | 'to';

function valuesOfChart(chart: Chart): FormValues {
  const o = chart.options;
  return {
    measure: String(chart.measure.id),
    title: chart.title,
    chart_type: chart.chart_type,
    stratum: o.stratum ?? ALL,
    from: o.from?.slice(0, 7) ?? '',
    to: o.to?.slice(0, 7) ?? '',
    sigma: o.sigma_lines.map(String),
    show_target: o.show_target,
    show_benchmark: o.show_benchmark,
    show_annotations: o.show_annotations,
    rule_profile: o.rule_profile ?? MEASURE_DEFAULT,
  };
}

function valuesOfMeasure(measure: Measure | undefined): FormValues {
  return {
    measure: measure ? String(measure.id) : null,
    title: measure?.name ?? '',
    chart_type: measure?.chart_default ?? 'run',
    stratum: ALL,
    from: '',
    to: '',
    sigma: [],
    show_target: true,
    show_benchmark: true,
    show_annotations: true,
    rule_profile: MEASURE_DEFAULT,
  };
}

const monthStart = (month: string) => (MONTH.test(month) ? `${month}-01` : null);

function optionsOf(values: FormValues): ChartOptions {
  return {
    stratum: values.stratum === ALL ? null : values.stratum,
    from: monthStart(values.from),
    to: monthStart(values.to),
    sigma_lines: [1, 2].filter((n) => values.sigma.includes(String(n))) as (1 | 2)[],
    show_target: values.show_target,
    show_benchmark: values.show_benchmark,
    show_annotations: values.show_annotations,
    rule_profile: values.rule_profile === MEASURE_DEFAULT ? null : (values.rule_profile as SpcRuleSet),
  };
}

/**
 * Many points outside P or U limits with large denominators: the overdispersion that P' and U' charts are for
 * (DOMAIN.md 1.10; a quarter of the points and a median n of 1,000 are our thresholds, not a published rule).
 */
function overdispersed(series: Series | undefined): boolean {
  if (!series || (series.chart !== 'p' && series.chart !== 'u')) return false;
  const points = series.points.filter((p) => p.value !== null && !p.provisional);
  if (points.length < 12) return false;
  const outside = points.filter((p) => p.signals.includes('outside_limits')).length;
  const denominators = points.map((p) => p.denominator ?? 0).sort((a, b) => a - b);
  return outside / points.length >= 0.25 && denominators[Math.floor(denominators.length / 2)]! >= 1000;
}

/** add-page-chart?page={pageId} and edit-page-chart/{chartId}: a chart's measure, type and options, previewed live. */
export function ChartFormPage({ mode }: { mode: 'create' | 'edit' }) {
  const projectId = useMonitoringProjectId();
  const { chartId: rawChart } = useParams();
  const [search] = useSearchParams();
  const chartId = mode === 'edit' && /^\d{1,10}$/.test(rawChart ?? '') ? Number(rawChart) : null;
  const chart = useChart(projectId, chartId);
  const rawPage = search.get('page');
  const pageId =
    mode === 'create'
      ? rawPage && /^\d{1,10}$/.test(rawPage)
        ? Number(rawPage)
        : null
      : (chart.data?.page_id ?? null);
  const page = usePage(projectId, pageId);
  const measures = useChartMeasures(projectId, pageId);
  usePageTitle(mode === 'create' ? 'Add chart' : chart.data ? `Edit chart: ${chart.data.title}` : 'Edit chart');
  const heading = mode === 'create' ? 'Add chart' : 'Edit chart';

  const notFound = (text: string) => (
    <Stack gap="md" align="flex-start">
      <PageHeading title={mode === 'create' ? 'Page not found' : 'Chart not found'} />
      <Text>{text}</Text>
      <Anchor component={Link} to={monitoringRoute(projectId, 'page-charts')}>
        Back to the page charts
      </Anchor>
    </Stack>
  );
  const is404 = (error: unknown) => error instanceof ApiError && error.status === 404;

  if (mode === 'create' && pageId === null) {
    return (
      <Stack gap="md" align="flex-start">
        <PageHeading title={heading} />
        <Text>Choose the page the chart belongs to first.</Text>
        <Anchor component={Link} to={monitoringRoute(projectId, 'page-charts')}>
          Choose a page
        </Anchor>
      </Stack>
    );
  }
  if (mode === 'edit' && (chartId === null || is404(chart.error))) {
    return notFound('This chart does not exist, was deleted, or belongs to a page you cannot see.');
  }
  if (is404(page.error) || is404(measures.error)) {
    return notFound('This page does not exist, was deleted, or is not shared with you.');
  }
  const failed = [chart, page, measures].find((query) => query.isError);
  if (failed) {
    return (
      <LoadFailure
        error={failed.error}
        fallback="The chart editor could not be loaded."
        retrying={failed.isFetching}
        onRetry={() => void failed.refetch()}
      />
    );
  }
  if ((mode === 'edit' && !chart.data) || !page.data || !measures.data) {
    return <LoadingRows label="Loading the chart editor" />;
  }
  if (measures.data.measures.length === 0) {
    return (
      <Stack gap="md" align="flex-start">
        <PageHeading title={heading}>Page {pageName(page.data)}</PageHeading>
        <Text>This page has no measures yet: a chart draws a measure.</Text>
        <Anchor component={Link} to={monitoringRoute(projectId, `formula-builder?page=${page.data.id}`)}>
          Define a measure first
        </Anchor>
      </Stack>
    );
  }
  const preselected = measures.data.measures.find((m) => String(m.id) === search.get('measure'));
  return (
    <ChartForm
      mode={mode}
      pageId={page.data.id}
      pageLabel={pageName(page.data)}
      chart={chart.data ?? null}
      measures={measures.data.measures}
      start={chart.data ? valuesOfChart(chart.data) : valuesOfMeasure(preselected ?? measures.data.measures[0])}
      reloadChart={async () => (await chart.refetch()).data}
    />
  );
}

interface ChartFormProps {
  mode: 'create' | 'edit';
  pageId: number;
  pageLabel: string;
  chart: Chart | null;
  measures: Measure[];
  start: FormValues;
  reloadChart: () => Promise<Chart | undefined>;
}

function ChartForm({ mode, pageId, pageLabel, chart, measures, start, reloadChart }: ChartFormProps) {
  const projectId = useMonitoringProjectId();
  const navigate = useNavigate();
  const create = useCreateChart(projectId, pageId);
  const update = useUpdateChart(projectId);
  const [values, setValues] = useState<FormValues>(start);
  const [saved, setSaved] = useState<FormValues>(start);
  const [version, setVersion] = useState(chart?.version ?? 0);
  const [chartTouched, setChartTouched] = useState(mode === 'edit');
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [conflict, setConflict] = useState<{ message: string; current: number | null } | null>(null);
  const dirty = JSON.stringify(values) !== JSON.stringify(saved);
  const saving = create.isPending || update.isPending;
  const backTo = monitoringRoute(projectId, `page-charts?page=${pageId}`);
  const blocker = useLeaveWarning(dirty, 'this chart');

  const measure = measures.find((m) => String(m.id) === values.measure);
  const options = optionsOf(values);
  const params: SeriesParams = {
    chart: values.chart_type,
    stratum: options.stratum,
    from: options.from,
    to: options.to,
    rule_profile: options.rule_profile,
  };
  const preview = useSeries(projectId, measure?.id ?? null, params, true);
  const large = overdispersed(preview.data);
  const recommended = measure ? recommendedChart(measure.type, { largeDenominators: large }) : null;

  const set = <K extends keyof FormValues>(key: K, value: FormValues[K]) => {
    setValues((current) => ({ ...current, [key]: value }));
    setErrors((current) => ({ ...current, [key]: undefined }));
  };
  const bind = fieldBinder({ values, errors, change: set });

  const chooseMeasure = (id: string | null) => {
    const next = measures.find((m) => String(m.id) === id);
    if (!next) return;
    setValues((current) => ({
      ...current,
      measure: String(next.id),
      // The title follows the measure until someone writes their own.
      title: current.title.trim() === '' || current.title === measure?.name ? next.name : current.title,
      chart_type: chartTouched ? current.chart_type : next.chart_default,
      stratum: ALL,
    }));
    setErrors((current) => ({ ...current, measure_id: undefined, title: undefined }));
  };

  const strata = [...new Set([...(preview.data?.strata ?? []), ...(values.stratum === ALL ? [] : [values.stratum])])];

  const submit = () => {
    setFailure(null);
    const problems: FieldErrors<Field> = {};
    const title = values.title.trim();
    if (!measure) problems.measure_id = 'Choose a measure.';
    if (!title) problems.title = 'Enter a title.';
    else if (title.length > 200) problems.title = 'A title is at most 200 characters.';
    if (values.from && !MONTH.test(values.from)) problems.from = 'Use a month like 2025-01.';
    if (values.to && !MONTH.test(values.to)) problems.to = 'Use a month like 2026-03.';
    if (!problems.from && !problems.to && values.from && values.to && values.from > values.to) {
      problems.to = 'The end is on or after the start.';
    }
    if (Object.keys(problems).length > 0 || !measure) {
      setErrors(problems);
      return;
    }
    const body = { measure_id: measure.id, title, chart_type: values.chart_type, options };
    const done = () => {
      setSaved(values);
      toast.success(mode === 'create' ? `Chart "${title}" added.` : `Chart "${title}" saved.`);
      void navigate(backTo);
    };
    const fail = (error: unknown) => {
      if (error instanceof ApiError && error.status === 409) {
        const current = Number(serverFieldErrors(error, ['version']).version);
        setConflict({ message: error.message, current: Number.isInteger(current) && current > 0 ? current : null });
        return;
      }
      const fields = serverFieldErrors(error, FIELDS);
      setErrors(fields);
      if (Object.keys(fields).length === 0) setFailure(messageFor(error, 'The chart could not be saved.'));
    };
    if (mode === 'create') create.mutate(body, { onSuccess: done, onError: fail });
    else if (chart)
      update.mutate({ chartId: chart.id, input: { ...body, version } }, { onSuccess: done, onError: fail });
  };

  /** After a conflict: their version replaces the form. */
  const reload = async () => {
    const fresh = await reloadChart();
    if (!fresh) {
      setFailure('The chart could not be reloaded. Try again.');
      return;
    }
    const next = valuesOfChart(fresh);
    setValues(next);
    setSaved(next);
    setVersion(fresh.version);
    setConflict(null);
    setErrors({});
  };

  const ruleText = RULE_SET_TEXT[(options.rule_profile ?? measure?.rule_profile ?? 'anhoej') as SpcRuleSet];

  return (
    <Stack gap="md">
      <PageHeading title={mode === 'create' ? 'Add chart' : 'Edit chart'}>Page {pageLabel}</PageHeading>
      {conflict && (
        <ConflictAlert
          onReload={() => void reload()}
          onKeep={
            conflict.current !== null
              ? () => {
                  setVersion(conflict.current ?? version);
                  setConflict(null);
                }
              : undefined
          }
        >
          <Text size="sm">{conflict.message}</Text>
        </ConflictAlert>
      )}
      <ErrorNotice message={failure} />
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
        <FormCard onSubmit={submit}>
          <Stack gap="sm">
            <Select
              label="Measure"
              withAsterisk
              data={measures.map((m) => ({ value: String(m.id), label: m.name }))}
              value={values.measure}
              onChange={chooseMeasure}
              allowDeselect={false}
              error={errors.measure_id}
            />
            <TextInput label="Title" withAsterisk {...bind.text('title')} />
            <Select
              label="Chart type"
              data={SPC_CHARTS.map((type) => ({
                value: type,
                label: type === recommended ? `${CHART_LABELS[type]} (recommended)` : CHART_LABELS[type],
              }))}
              value={values.chart_type}
              onChange={(value) => {
                if (!value) return;
                setChartTouched(true);
                set('chart_type', value as SpcChart);
              }}
              allowDeselect={false}
              description={
                measure && recommended
                  ? `Recommended for a ${MEASURE_TYPE_WORD[measure.type]} measure${large ? ' with large denominators (many points outside the limits)' : ''}: ${CHART_LABELS[recommended]}.`
                  : undefined
              }
              error={errors.chart_type}
            />
            {measure && measure.strata_keys.length > 0 && (
              <Select
                label={`Stratum (${measure.strata_keys[0]})`}
                data={[{ value: ALL, label: 'All' }, ...strata.map((s) => ({ value: s, label: s }))]}
                value={values.stratum}
                onChange={(value) => set('stratum', value ?? ALL)}
                allowDeselect={false}
              />
            )}
            <Group grow align="flex-start">
              <TextInput
                type="month"
                label="From"
                placeholder="YYYY-MM"
                description="Optional: the first month shown."
                {...bind.text('from')}
              />
              <TextInput
                type="month"
                label="To"
                placeholder="YYYY-MM"
                description="Optional: the last month shown."
                {...bind.text('to')}
              />
            </Group>
            <Checkbox.Group
              label="Extra sigma lines"
              description={
                values.chart_type === 'run'
                  ? 'Run charts have a median and no sigma lines.'
                  : 'The 3σ control limits are always drawn.'
              }
              value={values.sigma}
              onChange={(value) => set('sigma', value)}
            >
              <Group gap="md" mt={4}>
                <Checkbox value="1" label="1σ lines" disabled={values.chart_type === 'run'} />
                <Checkbox value="2" label="2σ lines" disabled={values.chart_type === 'run'} />
              </Group>
            </Checkbox.Group>
            <Switch
              label="Show the target"
              checked={values.show_target}
              onChange={(event) => set('show_target', event.currentTarget.checked)}
            />
            <Switch
              label="Show benchmarks"
              checked={values.show_benchmark}
              onChange={(event) => set('show_benchmark', event.currentTarget.checked)}
            />
            <Switch
              label="Show annotations"
              checked={values.show_annotations}
              onChange={(event) => set('show_annotations', event.currentTarget.checked)}
            />
            <Select
              label="Rules for signals"
              data={[
                {
                  value: MEASURE_DEFAULT,
                  label: `The measure's rules${measure ? ` (${RULE_SET_TEXT[measure.rule_profile].label})` : ''}`,
                },
                ...SPC_RULE_SETS.map((rules) => ({ value: rules, label: RULE_SET_TEXT[rules].label })),
              ]}
              value={values.rule_profile}
              onChange={(value) => set('rule_profile', value ?? MEASURE_DEFAULT)}
              allowDeselect={false}
              description={ruleText.explanation}
            />
            {errors.options && (
              <Text c="red.8" size="sm" role="alert">
                {errors.options}
              </Text>
            )}
            <Group gap="sm" mt="xs">
              <Button type="submit" loading={saving}>
                {mode === 'create' ? 'Add chart' : 'Save chart'}
              </Button>
              <Button component={Link} to={backTo} variant="default">
                Cancel
              </Button>
            </Group>
          </Stack>
        </FormCard>
        <Paper withBorder p="md" component="section" aria-labelledby="chart-preview-title">
          <Stack gap="sm">
            <Title order={2} size="h4" id="chart-preview-title">
              Preview
            </Title>
            {!measure ? (
              <Text c="dimmed">Choose a measure to see its chart.</Text>
            ) : preview.isPending ? (
              <Skeleton height={CHART_HEIGHT} radius="sm" role="status" aria-label="Loading the preview" />
            ) : preview.isError ? (
              <LoadFailure
                error={preview.error}
                fallback="The preview could not be loaded."
                retrying={preview.isFetching}
                onRetry={() => void preview.refetch()}
              />
            ) : (
              <SeriesView series={preview.data} options={options} title={values.title.trim() || measure.name} />
            )}
          </Stack>
        </Paper>
      </SimpleGrid>
      {blocker}
    </Stack>
  );
}
