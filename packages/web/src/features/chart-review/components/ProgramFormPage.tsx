import {
  Alert,
  Anchor,
  Button,
  Fieldset,
  Group,
  NumberInput,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  TagsInput,
  Text,
  TextInput,
} from '@mantine/core';
import {
  CR_PROGRAM_STATUSES,
  type CrGrain,
  type CrProgramInput,
  type CrProgramStatus,
  crProgramInputSchema,
  planSampleSize,
  type SamplingPlan,
  samplingPlanSchema,
} from '@portal/shared';
import { type FormEvent, type ReactNode, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';
import { useLeaveWarning } from '../../../components/leave-warning';
import { ErrorNotice, LoadFailure, PageHeading } from '../../../components/page-parts';
import { ApiError, messageFor } from '../../../lib/api';
import { usePageTitle } from '../../../lib/use-page-title';
import { type CrPerson, useCrPeople } from '../api/people';
import { type CrProgram, useProgram, useSaveProgram } from '../api/programs';
import { useTool } from '../api/tools-detail';
import { type CrToolSummary, useTools } from '../api/tools-list';
import { CR_ROLE_LABELS, idParam, Loading, PercentInput } from './cr-parts';
import { PROGRAM_STATUS_LABELS } from './ProgramsPage';
import { numberOf, percentError, percentToShare, shareToPercent } from './percent';
import { GRAIN_LABELS, SAMPLING_METHOD_LABELS } from './sampling-words';
import { chartReviewRoute, useChartReviewProjectId } from './use-chart-review-project';

/** The form as typed: ids as Select values, numbers as NumberInput gives them, shares as percentages. */
interface ProgramForm {
  name: string;
  tool_id: string | null;
  /** '' = the tool's latest published version at each draw. */
  pinned_version_id: string;
  units: string[];
  grain: CrGrain;
  method: SamplingPlan['method'];
  n: number | string;
  pct: number | string;
  min: number | string;
  max: number | string;
  stratify_by_unit: boolean;
  due_days: number | string;
  irr_rate: number | string;
  target: number | string;
  owner_id: string | null;
  status: CrProgramStatus;
}

/** Where messages go: the contract's field names, sampling fields as `sampling.{field}`. */
type Field =
  | 'name'
  | 'tool_id'
  | 'pinned_version_id'
  | 'units'
  | 'grain'
  | 'sampling.method'
  | 'sampling.n'
  | 'sampling.pct'
  | 'sampling.min'
  | 'sampling.max'
  | 'sampling.stratify_by_unit'
  | 'due_days'
  | 'irr_rate'
  | 'target'
  | 'owner_id'
  | 'status';
type Errors = Partial<Record<Field, string>>;
const FIELD_SET = new Set<string>([
  'name',
  'tool_id',
  'pinned_version_id',
  'units',
  'grain',
  'sampling.method',
  'sampling.n',
  'sampling.pct',
  'sampling.min',
  'sampling.max',
  'sampling.stratify_by_unit',
  'due_days',
  'irr_rate',
  'target',
  'owner_id',
  'status',
]);

/** The field a message path belongs to: `units.3` -> units, `sampling` (no method chosen) -> sampling.method. */
function fieldOf(path: string): Field | null {
  if (path.startsWith('units.')) return 'units';
  if (path === 'sampling') return 'sampling.method';
  return FIELD_SET.has(path) ? (path as Field) : null;
}

/** Defaults of a new programme: monthly, Joint Commission table, due in 14 days, 5% second reviews, target 90%. */
const NEW_PROGRAM: ProgramForm = {
  name: '',
  tool_id: null,
  pinned_version_id: '',
  units: [],
  grain: 'month',
  method: 'jc_table',
  n: 30,
  pct: 10,
  min: '',
  max: '',
  stratify_by_unit: false,
  due_days: 14,
  irr_rate: 5,
  target: 90,
  owner_id: null,
  status: 'active',
};

function toForm(program: CrProgram): ProgramForm {
  const plan = program.sampling;
  return {
    name: program.name,
    tool_id: String(program.tool_id),
    pinned_version_id: program.pinned_version_id === null ? '' : String(program.pinned_version_id),
    units: program.units,
    grain: program.grain,
    method: plan.method,
    n: plan.method === 'fixed' ? plan.n : NEW_PROGRAM.n,
    pct: plan.method === 'percent' ? plan.pct : NEW_PROGRAM.pct,
    min: plan.method === 'percent' ? (plan.min ?? '') : '',
    max: plan.method === 'percent' ? (plan.max ?? '') : '',
    stratify_by_unit: plan.stratify_by_unit === true,
    due_days: program.due_days,
    irr_rate: shareToPercent(program.irr_rate),
    target: shareToPercent(program.target),
    owner_id: program.owner_id === null ? null : String(program.owner_id),
    status: program.status,
  };
}

/** The plan the form describes (not yet checked): only the fields its method uses. */
function planOf(values: ProgramForm): unknown {
  const stratify_by_unit = values.stratify_by_unit;
  switch (values.method) {
    case 'fixed':
      return { method: 'fixed', n: numberOf(values.n), stratify_by_unit };
    case 'percent':
      return {
        method: 'percent',
        pct: numberOf(values.pct),
        ...(numberOf(values.min) === undefined ? {} : { min: numberOf(values.min) }),
        ...(numberOf(values.max) === undefined ? {} : { max: numberOf(values.max) }),
        stratify_by_unit,
      };
    default:
      return { method: values.method, stratify_by_unit };
  }
}

/** The body to send, or a message per field. `measureId` is kept as it is: this form does not pick measures. */
function toInput(values: ProgramForm, measureId: number | null): { input: CrProgramInput } | { errors: Errors } {
  const errors: Errors = {};
  const irr = percentError(values.irr_rate, 'second-review share');
  if (irr) errors.irr_rate = irr;
  const target = percentError(values.target, 'target');
  if (target) errors.target = target;
  if (values.tool_id === null) errors.tool_id = 'Choose the audit tool this programme uses.';
  const share = (value: number | string) => {
    const percent = numberOf(value);
    return percent === undefined ? Number.NaN : percentToShare(percent);
  };
  const parsed = crProgramInputSchema.safeParse({
    name: values.name,
    tool_id: values.tool_id === null ? undefined : Number(values.tool_id),
    pinned_version_id: values.pinned_version_id === '' ? null : Number(values.pinned_version_id),
    units: values.units,
    grain: values.grain,
    sampling: planOf(values),
    due_days: numberOf(values.due_days),
    irr_rate: share(values.irr_rate),
    target: share(values.target),
    owner_id: values.owner_id === null ? null : Number(values.owner_id),
    status: values.status,
    mon_measure_id: measureId,
  });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = fieldOf(issue.path.map(String).join('.'));
      if (field && !errors[field]) errors[field] = issue.message;
    }
  }
  if (Object.keys(errors).length > 0 || !parsed.success) return { errors };
  return { input: parsed.data };
}

/** The server's field messages of a failed save, and whether any named a field of this form. */
function serverErrors(error: unknown): Errors {
  if (!(error instanceof ApiError) || error.status < 400 || error.status >= 500) return {};
  const body = (error.body as { errors?: unknown } | null)?.errors;
  if (!body || typeof body !== 'object') return {};
  const errors: Errors = {};
  for (const [path, value] of Object.entries(body as Record<string, unknown>)) {
    const message = Array.isArray(value) ? value[0] : value;
    const field = fieldOf(path);
    if (field && typeof message === 'string' && !errors[field]) errors[field] = message;
  }
  return errors;
}

/** /app/chart-review/{projectId}/programs/new and .../programs/{programId}/edit. */
export function ProgramFormPage() {
  const projectId = useChartReviewProjectId();
  const rawId = useParams().programId;
  const editing = rawId !== undefined;
  const programId = editing ? idParam(rawId) : null;
  usePageTitle(editing ? 'Edit programme' : 'New programme');
  const program = useProgram(projectId, programId);
  const tools = useTools(projectId);
  const people = useCrPeople(projectId);

  let body: ReactNode;
  if (editing && programId === null) body = <ErrorNotice message="This programme does not exist." />;
  else if ((editing && program.isPending) || tools.isPending || people.isPending)
    body = <Loading label="Loading the programme form" />;
  else if ((editing && program.isError) || tools.isError || people.isError) {
    const failed = [program, tools, people].filter((query) => query.isError);
    body = (
      <LoadFailure
        error={failed[0]?.error}
        fallback="The programme form could not be loaded. Please try again."
        retrying={failed.some((query) => query.isFetching)}
        onRetry={() => {
          for (const query of failed) void query.refetch();
        }}
      />
    );
  } else
    body = (
      <ProgramEditor
        key={program.data?.id ?? 'new'}
        projectId={projectId}
        program={program.data ?? null}
        tools={tools.data?.tools ?? []}
        people={people.data ?? []}
      />
    );

  return (
    <Stack gap="lg" w="100%" maw={960}>
      <Anchor component={Link} to={chartReviewRoute(projectId, 'programs')} size="sm">
        ← All programmes
      </Anchor>
      <PageHeading title={editing ? 'Edit programme' : 'New programme'}>
        A recurring audit: which tool, which units, how often, and how many charts each time.
      </PageHeading>
      {body}
    </Stack>
  );
}

interface ProgramEditorProps {
  projectId: string;
  program: CrProgram | null;
  tools: CrToolSummary[];
  people: CrPerson[];
}

const OWNER_ROLES = new Set(['chart_review_admin', 'program_lead']);
const POPULATION_EXAMPLES = [100, 600];

function ProgramEditor({ projectId, program, tools, people }: ProgramEditorProps) {
  const navigate = useNavigate();
  const save = useSaveProgram(projectId, program?.id ?? null);
  const [saved, setSaved] = useState(() => (program ? toForm(program) : NEW_PROGRAM));
  const [values, setValues] = useState(saved);
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const dirty = JSON.stringify(values) !== JSON.stringify(saved);
  const leaveWarning = useLeaveWarning(dirty, 'this programme');
  const chosenTool = useTool(projectId, values.tool_id === null ? null : Number(values.tool_id));

  function change<K extends keyof ProgramForm>(field: K, value: ProgramForm[K], clears: Field[]) {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => {
      const next = { ...current };
      for (const key of clears) delete next[key];
      return next;
    });
  }

  // Tools that can start reviews: published and in use; the programme's own tool stays listed whatever it became.
  const toolOptions = tools
    .filter((tool) => (tool.published && !tool.retired) || String(tool.id) === saved.tool_id)
    .map((tool) => ({
      value: String(tool.id),
      label: tool.retired ? `${tool.name} (retired)` : tool.published ? tool.name : `${tool.name} (not published)`,
    }));
  if (program && !toolOptions.some((option) => option.value === String(program.tool_id)))
    toolOptions.push({ value: String(program.tool_id), label: program.tool.name });

  const latest = chosenTool.data?.published;
  const versionOptions = [
    { value: '', label: latest ? `Latest published version (now v${latest.version})` : 'Latest published version' },
    ...(chosenTool.data?.versions ?? [])
      .filter((version) => version.status !== 'draft')
      .map((version) => ({
        value: String(version.id),
        label: `Always v${version.version}${version.status === 'retired' ? ' (retired)' : ''}`,
      })),
  ];

  const ownerOptions = people
    .filter((person) => OWNER_ROLES.has(person.role))
    .map((person) => ({ value: String(person.id), label: `${person.name} (${CR_ROLE_LABELS[person.role]})` }));
  if (program?.owner && !ownerOptions.some((option) => option.value === String(program.owner?.id)))
    ownerOptions.push({ value: String(program.owner.id), label: program.owner.name });

  const plan = samplingPlanSchema.safeParse(planOf(values));

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    const checked = toInput(values, program?.mon_measure_id ?? null);
    if ('errors' in checked) {
      setErrors(checked.errors);
      setFailure('Some fields need attention. See the messages at the fields.');
      return;
    }
    setErrors({});
    try {
      const stored = await save.mutateAsync(checked.input);
      setSaved(values);
      toast.success(program ? `Programme "${stored.name}" saved.` : `Programme "${stored.name}" created.`);
      await navigate(chartReviewRoute(projectId, 'programs'));
    } catch (error) {
      const fields = serverErrors(error);
      setErrors(fields);
      setFailure(
        Object.keys(fields).length > 0
          ? 'Some fields need attention. See the messages at the fields.'
          : messageFor(error, 'The programme could not be saved. Please try again.'),
      );
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label={program ? 'Edit programme' : 'New programme'}>
      <Stack gap="lg">
        <Fieldset legend="Programme" radius="md">
          <Stack gap="md">
            <TextInput
              label="Name"
              description="For example: Falls prevention documentation, medical wards."
              required
              maxLength={120}
              value={values.name}
              onChange={(event) => change('name', event.currentTarget.value, ['name'])}
              error={errors.name}
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
              <Select
                label="Owner"
                description="A programme lead or chart review admin who follows up the results."
                placeholder="No owner"
                data={ownerOptions}
                clearable
                searchable
                nothingFoundMessage="No programme lead or chart review admin has that name."
                value={values.owner_id}
                onChange={(value) => change('owner_id', value, ['owner_id'])}
                error={errors.owner_id}
              />
              <Select
                label="Status"
                description="Paused and closed programmes draw no new samples."
                data={CR_PROGRAM_STATUSES.map((status) => ({ value: status, label: PROGRAM_STATUS_LABELS[status] }))}
                allowDeselect={false}
                value={values.status}
                onChange={(value) => value && change('status', value as CrProgramStatus, ['status'])}
                error={errors.status}
              />
            </SimpleGrid>
          </Stack>
        </Fieldset>

        <Fieldset legend="What is reviewed" radius="md">
          <Stack gap="md">
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
              <Select
                label="Audit tool"
                description="Only published tools that are in use can be chosen."
                placeholder="Choose a tool"
                required
                data={toolOptions}
                searchable
                nothingFoundMessage="No published tool has that name."
                value={values.tool_id}
                onChange={(value) => {
                  change('tool_id', value, ['tool_id', 'pinned_version_id']);
                  // A pinned version belongs to the tool it was chosen from.
                  change('pinned_version_id', '', []);
                }}
                error={errors.tool_id}
              />
              <Select
                label="Version"
                description="Reviews use the latest published version unless you pin one."
                data={versionOptions}
                allowDeselect={false}
                disabled={values.tool_id === null}
                value={values.pinned_version_id}
                onChange={(value) => change('pinned_version_id', value ?? '', ['pinned_version_id'])}
                error={errors.pinned_version_id}
              />
            </SimpleGrid>
            {toolOptions.length === 0 && (
              <Text size="sm" c="dimmed">
                No audit tool is published yet.{' '}
                <Anchor component={Link} to={chartReviewRoute(projectId, 'tools')}>
                  Publish a tool
                </Anchor>{' '}
                first.
              </Text>
            )}
            <TagsInput
              label="Units"
              description="Wards or departments whose charts are reviewed. Press Enter after each. Leave empty to review every unit in the eligible-case list."
              placeholder="Add a unit"
              value={values.units}
              onChange={(units) => change('units', units, ['units'])}
              error={errors.units}
            />
            <Stack gap={4}>
              <Text size="sm" fw={500} id="cr-grain-label">
                Review period
              </Text>
              <SegmentedControl
                aria-labelledby="cr-grain-label"
                data={[
                  { value: 'month', label: GRAIN_LABELS.month },
                  { value: 'quarter', label: GRAIN_LABELS.quarter },
                ]}
                value={values.grain}
                onChange={(value) => change('grain', value as CrGrain, ['grain'])}
                maw={320}
              />
              {errors.grain && (
                <Text size="sm" c="red.9">
                  {errors.grain}
                </Text>
              )}
            </Stack>
          </Stack>
        </Fieldset>

        <Fieldset legend="Sample" radius="md">
          <Stack gap="md">
            <Select
              label="Sampling method"
              data={(Object.keys(SAMPLING_METHOD_LABELS) as SamplingPlan['method'][]).map((method) => ({
                value: method,
                label: SAMPLING_METHOD_LABELS[method],
              }))}
              allowDeselect={false}
              value={values.method}
              onChange={(value) =>
                value &&
                change('method', value as SamplingPlan['method'], [
                  'sampling.method',
                  'sampling.n',
                  'sampling.pct',
                  'sampling.min',
                  'sampling.max',
                ])
              }
              error={errors['sampling.method']}
              maw={420}
              description={
                values.method === 'jc_table'
                  ? 'Per period: 102 cases from 510 eligible, 20% from 255 to 509, 51 from 51 to 254, all below 51.'
                  : values.method === 'all'
                    ? 'Every eligible case is reviewed.'
                    : undefined
              }
            />
            {values.method === 'fixed' && (
              <NumberInput
                label="Cases per period"
                required
                min={1}
                max={10_000}
                allowDecimal={false}
                maw={240}
                value={values.n}
                onChange={(value) => change('n', value, ['sampling.n'])}
                error={errors['sampling.n']}
              />
            )}
            {values.method === 'percent' && (
              <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
                <PercentInput
                  label="Share of eligible cases (%)"
                  required
                  value={values.pct}
                  onChange={(value) => change('pct', value, ['sampling.pct'])}
                  error={errors['sampling.pct']}
                />
                <NumberInput
                  label="At least"
                  description="Cases; optional."
                  min={1}
                  max={10_000}
                  allowDecimal={false}
                  value={values.min}
                  onChange={(value) => change('min', value, ['sampling.min', 'sampling.max'])}
                  error={errors['sampling.min']}
                />
                <NumberInput
                  label="At most"
                  description="Cases; optional."
                  min={1}
                  max={10_000}
                  allowDecimal={false}
                  value={values.max}
                  onChange={(value) => change('max', value, ['sampling.min', 'sampling.max'])}
                  error={errors['sampling.max']}
                />
              </SimpleGrid>
            )}
            <Switch
              label="Sample each unit separately"
              description="The plan then applies to each unit's eligible cases, so every unit is audited."
              checked={values.stratify_by_unit}
              onChange={(event) =>
                change('stratify_by_unit', event.currentTarget.checked, ['sampling.stratify_by_unit'])
              }
              error={errors['sampling.stratify_by_unit']}
            />
            <Alert color="blue" variant="light" aria-live="polite" data-sample-preview>
              {plan.success
                ? POPULATION_EXAMPLES.map((population) => {
                    const size = planSampleSize(plan.data, population);
                    return `${population} eligible cases → ${size} reviewed.`;
                  }).join(' ') + (values.stratify_by_unit ? ' (Per unit, when each unit is sampled separately.)' : '')
                : 'Complete the sampling fields to see how many cases are reviewed.'}
            </Alert>
            <NumberInput
              label="Days to complete a review"
              description="A review is due this many days after it is assigned."
              min={1}
              max={365}
              allowDecimal={false}
              maw={240}
              value={values.due_days}
              onChange={(value) => change('due_days', value, ['due_days'])}
              error={errors.due_days}
            />
          </Stack>
        </Fieldset>

        <Fieldset legend="Quality checks" radius="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <PercentInput
              label="Second-review share (%)"
              description="Share of submitted reviews that get a blind second review."
              value={values.irr_rate}
              onChange={(value) => change('irr_rate', value, ['irr_rate'])}
              error={errors.irr_rate}
            />
            <PercentInput
              label="Target compliance (%)"
              description="Results below it become findings to act on."
              value={values.target}
              onChange={(value) => change('target', value, ['target'])}
              error={errors.target}
            />
          </SimpleGrid>
        </Fieldset>

        <ErrorNotice message={failure} />
        <Group gap="sm">
          <Button type="submit" loading={save.isPending}>
            {program ? 'Save programme' : 'Create programme'}
          </Button>
          <Button component={Link} to={chartReviewRoute(projectId, 'programs')} variant="default">
            Cancel
          </Button>
        </Group>
      </Stack>
      {leaveWarning}
    </form>
  );
}
