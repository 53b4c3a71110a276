import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  Paper,
  Radio,
  Select,
  SimpleGrid,
  Stack,
  Stepper,
  Table,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import {
  isRealDay,
  STD_ASSESSMENT_KINDS,
  STD_LIMITS,
  type StdAssessmentKind,
  stdAssessmentCreateSchema,
} from '@portal/shared';
import { type ReactNode, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { ErrorNotice, LoadFailure, PageHeading, QueryBody } from '../../../components/page-parts';
import { ApiError, messageFor } from '../../../lib/api';
import { usePageTitle } from '../../../lib/use-page-title';
import { type StdAssessmentCreate, useCreateAssessment } from '../api/assessments';
import { type StdFramework, useStdFrameworks } from '../api/frameworks';
import { useStdMe } from '../api/me';
import { useStdMembers } from '../api/members';
import { CrosswalkImport } from './CrosswalkImport';
import { EcfrEditionImport } from './EcfrEditionImport';
import { FrameworkImport } from './FrameworkImport';
import { standardsRoute, useStdProjectId } from './std-parts';
import { KIND_HELP, KIND_LABELS, plural, TEXT_POLICY_HELP, TEXT_POLICY_LABELS } from './std-words';

interface WizardValues {
  framework_id: number | null;
  name: string;
  kind: StdAssessmentKind;
  scope_note: string;
  /** Chapters ticked as not applicable, with their reason. */
  not_applicable: Record<number, string>;
  survey_window_start: string;
  survey_window_end: string;
  /** Owner (user id) by chapter. */
  owners: Record<number, string | null>;
}

const INITIAL: WizardValues = {
  framework_id: null,
  name: '',
  kind: 'self',
  scope_note: '',
  not_applicable: {},
  survey_window_start: '',
  survey_window_end: '',
  owners: {},
};

/** Messages by field: 'framework_id', 'name', ..., and 'na.{chapterId}' for a missing reason. */
type Errors = Record<string, string | undefined>;

const STEPS = [
  { label: 'Framework', description: 'What to assess against' },
  { label: 'Name and kind', description: 'What this assessment is' },
  { label: 'Not applicable', description: 'Chapters that do not apply' },
  { label: 'Survey window', description: 'When the survey is expected' },
  { label: 'Owners', description: 'Who answers for each chapter' },
] as const;

/** Which step a field of the body belongs to. */
const STEP_OF_FIELD: Record<string, number> = {
  framework_id: 0,
  name: 1,
  kind: 1,
  scope_note: 1,
  not_applicable: 2,
  survey_window_start: 3,
  survey_window_end: 3,
  owners: 4,
};

function toBody(values: WizardValues, framework: StdFramework | undefined): StdAssessmentCreate {
  const chapters = framework?.chapters ?? [];
  const notApplicable = chapters
    .filter((chapter) => chapter.id in values.not_applicable)
    .map((chapter) => ({ node_id: chapter.id, reason: values.not_applicable[chapter.id] ?? '' }));
  const owners = chapters
    .filter((chapter) => !(chapter.id in values.not_applicable) && values.owners[chapter.id])
    .map((chapter) => ({ node_id: chapter.id, user_id: Number(values.owners[chapter.id]) }));
  return {
    framework_id: values.framework_id ?? 0,
    name: values.name,
    kind: values.kind,
    scope_note: values.scope_note,
    survey_window_start: values.survey_window_start || null,
    survey_window_end: values.survey_window_end || null,
    not_applicable: notApplicable,
    owners,
  };
}

/** The key an error of `path` shows at: a chapter's reason has its own. */
function errorKey(path: readonly PropertyKey[], body: StdAssessmentCreate): string {
  const [first, index] = path;
  if (first === 'not_applicable' && typeof index === 'number') {
    const chapter = body.not_applicable[index];
    if (chapter) return `na.${chapter.node_id}`;
  }
  if (first === 'owners' && typeof index === 'number') {
    const owner = body.owners[index];
    if (owner) return `owner.${owner.node_id}`;
  }
  return String(first ?? '');
}

function stepOf(key: string): number {
  if (key.startsWith('na.')) return 2;
  if (key.startsWith('owner.')) return 4;
  return STEP_OF_FIELD[key] ?? 0;
}

/** Every message of the body, by field, in our own checks and the contract's. */
function check(values: WizardValues, framework: StdFramework | undefined): Errors {
  const body = toBody(values, framework);
  const errors: Errors = {};
  const parsed = stdAssessmentCreateSchema.safeParse(body);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = errorKey(issue.path, body);
      if (!errors[key]) errors[key] = issue.message;
    }
  }
  if (values.framework_id !== null && !framework) errors.framework_id = 'Choose a framework.';
  const { survey_window_start: start, survey_window_end: end } = values;
  if (start && !isRealDay(start)) errors.survey_window_start = 'Enter a date like 2027-03-01.';
  if (end && !isRealDay(end)) errors.survey_window_end = 'Enter a date like 2027-06-30.';
  if (start && end && isRealDay(start) && isRealDay(end) && end < start)
    errors.survey_window_end = 'The window ends before it starts.';
  return errors;
}

const onStep = (errors: Errors, step: number): Errors =>
  Object.fromEntries(Object.entries(errors).filter(([key, value]) => value && stepOf(key) === step));

/** The server's field errors ({errors: {field: [msg]}}, 'not_applicable.0.reason' style paths included). */
function serverErrors(error: unknown, body: StdAssessmentCreate): Errors {
  if (!(error instanceof ApiError) || error.status < 400 || error.status >= 500) return {};
  const raw = (error.body as { errors?: unknown } | null)?.errors;
  if (!raw || typeof raw !== 'object') return {};
  const errors: Errors = {};
  for (const [field, value] of Object.entries(raw as Record<string, unknown>)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first !== 'string' || !first.trim()) continue;
    const path = field.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part));
    const key = errorKey(path, body);
    if (!errors[key]) errors[key] = first;
  }
  return errors;
}

/** /app/standards/{projectId}/create: the wizard that makes an assessment (POST /assessments). */
export function CreateAssessmentPage() {
  usePageTitle('Create an assessment | Standards');
  const projectId = useStdProjectId();
  const me = useStdMe(projectId);
  const allowed = me.data?.abilities.create === true;
  const frameworks = useStdFrameworks(projectId, allowed);

  let body: ReactNode;
  if (!allowed)
    body = (
      <Alert color="gray" variant="light">
        Only a standards admin can create assessments. Ask one to create it, or to give you that role.
      </Alert>
    );
  else
    body = (
      <QueryBody
        query={frameworks}
        fallback="The frameworks could not be loaded. Please try again."
        loadingLabel="Loading the frameworks"
        rows={5}
      >
        {(data) => (
          <Wizard
            projectId={projectId}
            frameworks={data.frameworks}
            canImport={me.data?.abilities.import_frameworks === true}
            canLoadEditions={me.data?.abilities.load_editions === true}
          />
        )}
      </QueryBody>
    );

  return (
    <Stack gap="lg" maw={960}>
      <PageHeading title="Create an assessment">
        Choose a framework, say what the assessment is, mark what does not apply, and seed owners by chapter. Every
        element to assess gets its own row.
      </PageHeading>
      {body}
    </Stack>
  );
}

const OPTIONAL_REASON =
  'An optional part: it applies only to the facilities it names (for 42 CFR 482 subpart E, psychiatric hospitals and hospitals with transplant programs).';

function Wizard({
  projectId,
  frameworks,
  canImport,
  canLoadEditions,
}: {
  projectId: string;
  frameworks: readonly StdFramework[];
  canImport: boolean;
  canLoadEditions: boolean;
}) {
  const navigate = useNavigate();
  const create = useCreateAssessment(projectId);
  const [step, setStep] = useState(0);
  const [values, setValues] = useState<WizardValues>(INITIAL);
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const framework = frameworks.find((item) => item.id === values.framework_id);

  const update = (patch: Partial<WizardValues>, cleared: string[]) => {
    setValues((current) => ({ ...current, ...patch }));
    setErrors((current) => {
      const next = { ...current };
      for (const key of cleared) delete next[key];
      return next;
    });
  };

  const chooseFramework = (id: number | null) => {
    // The chapters belong to the framework: what was ticked for another one does not carry over. Optional parts
    // (42 CFR 482 subpart E) start as not applicable, with the reason; the facility unticks what it offers.
    const chosen = frameworks.find((item) => item.id === id);
    const optional = Object.fromEntries(
      (chosen?.chapters ?? []).filter((chapter) => chapter.optional).map((chapter) => [chapter.id, OPTIONAL_REASON]),
    );
    update({ framework_id: id, not_applicable: optional, owners: {} }, ['framework_id']);
  };

  const next = () => {
    const found = onStep(check(values, framework), step);
    setErrors(found);
    if (Object.keys(found).length === 0) setStep((current) => Math.min(current + 1, STEPS.length - 1));
  };

  const goTo = (target: number) => {
    if (target < step) {
      setStep(target);
      return;
    }
    // Forward only through steps that are complete.
    const all = check(values, framework);
    for (let index = step; index < target; index += 1) {
      const found = onStep(all, index);
      if (Object.keys(found).length > 0) {
        setErrors(found);
        setStep(index);
        return;
      }
    }
    setErrors({});
    setStep(target);
  };

  async function submit() {
    setFailure(null);
    const all = check(values, framework);
    const keys = Object.keys(all).filter((key) => all[key]);
    if (keys.length > 0) {
      setErrors(all);
      setStep(Math.min(...keys.map(stepOf)));
      return;
    }
    const body = toBody(values, framework);
    try {
      const created = await create.mutateAsync(body);
      toast.success(`Created ${body.name.trim()}.`);
      navigate(`${standardsRoute(projectId, 'compilence')}?assessment=${created.id}`);
    } catch (error) {
      const fields = serverErrors(error, body);
      const fieldKeys = Object.keys(fields);
      setErrors(fields);
      if (fieldKeys.length > 0) {
        setStep(Math.min(...fieldKeys.map(stepOf)));
        setFailure('The assessment was not created. See the messages at the fields.');
      } else setFailure(messageFor(error, 'The assessment could not be created. Please try again.'));
      toast.error('The assessment was not created.');
    }
  }

  const last = step === STEPS.length - 1;
  return (
    <Stack gap="lg">
      <Stepper active={step} onStepClick={goTo} size="sm" wrap>
        {STEPS.map((item) => (
          <Stepper.Step key={item.label} label={item.label} description={item.description} />
        ))}
      </Stepper>
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
        {step === 0 && (
          <FrameworkStep
            projectId={projectId}
            frameworks={frameworks}
            value={values.framework_id}
            error={errors.framework_id}
            canImport={canImport}
            canLoadEditions={canLoadEditions}
            onChange={chooseFramework}
          />
        )}
        {step === 1 && <NameStep values={values} errors={errors} update={update} />}
        {step === 2 && framework && (
          <NotApplicableStep framework={framework} values={values} errors={errors} update={update} />
        )}
        {step === 3 && <WindowStep values={values} errors={errors} update={update} />}
        {step === 4 && framework && (
          <OwnersStep projectId={projectId} framework={framework} values={values} errors={errors} update={update} />
        )}
      </Paper>
      <ErrorNotice message={failure} />
      <Group justify="space-between">
        <Button variant="default" onClick={() => setStep((current) => current - 1)} disabled={step === 0}>
          Back
        </Button>
        {last ? (
          <Button onClick={() => void submit()} loading={create.isPending}>
            Create assessment
          </Button>
        ) : (
          <Button onClick={next}>Next</Button>
        )}
      </Group>
    </Stack>
  );
}

type Update = (patch: Partial<WizardValues>, cleared: string[]) => void;

function FrameworkStep({
  projectId,
  frameworks,
  value,
  error,
  canImport,
  canLoadEditions,
  onChange,
}: {
  projectId: string;
  frameworks: readonly StdFramework[];
  value: number | null;
  error: string | undefined;
  canImport: boolean;
  canLoadEditions: boolean;
  onChange: (id: number | null) => void;
}) {
  return (
    <Stack gap="lg">
      {frameworks.length === 0 ? (
        <Text c="dimmed">
          No framework is available yet.{' '}
          {canImport ? 'Import one below.' : 'A standards admin can import one from a CSV file.'}
        </Text>
      ) : (
        <Radio.Group
          label="Framework and edition"
          description="The standards this assessment checks, in one edition."
          value={value === null ? null : String(value)}
          onChange={(next) => onChange(next ? Number(next) : null)}
          error={error}
          required
        >
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" mt="xs">
            {frameworks.map((framework) => (
              <Radio.Card
                key={framework.id}
                value={String(framework.id)}
                radius="md"
                p="md"
                aria-label={`${framework.name}, edition ${framework.edition}`}
                data-framework-id={framework.id}
              >
                <Group wrap="nowrap" align="flex-start" gap="sm">
                  <Radio.Indicator mt={3} />
                  <Stack gap={4} miw={0}>
                    <Text fw={700}>{framework.name}</Text>
                    <Text size="sm">
                      {framework.publisher} · edition {framework.edition} · {framework.code}
                    </Text>
                    <Group gap={6}>
                      <Badge variant="light" color="blue.9" tt="none">
                        {TEXT_POLICY_LABELS[framework.text_policy]}
                      </Badge>
                      {!framework.built_in && (
                        <Badge variant="light" color="gray.8" tt="none">
                          Imported by this project
                        </Badge>
                      )}
                    </Group>
                    <Text size="xs" c="dimmed">
                      {TEXT_POLICY_HELP[framework.text_policy]}
                      {framework.licence_note ? ` ${framework.licence_note}` : ''}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {plural(framework.assessable_count, 'element')} to assess in{' '}
                      {plural(framework.chapters.length, 'chapter')}
                    </Text>
                  </Stack>
                </Group>
              </Radio.Card>
            ))}
          </SimpleGrid>
        </Radio.Group>
      )}
      {canImport && <FrameworkImport projectId={projectId} onImported={(id) => id !== null && onChange(id)} />}
      {canImport && <CrosswalkImport projectId={projectId} frameworks={frameworks} />}
      {canLoadEditions && <EcfrEditionImport projectId={projectId} onLoaded={onChange} />}
    </Stack>
  );
}

function NameStep({ values, errors, update }: { values: WizardValues; errors: Errors; update: Update }) {
  return (
    <Stack gap="md">
      <TextInput
        label="Name"
        description="Like “Hospital self-assessment 2026”."
        required
        maxLength={STD_LIMITS.name}
        value={values.name}
        onChange={(event) => update({ name: event.currentTarget.value }, ['name'])}
        error={errors.name}
      />
      <Radio.Group
        label="Kind"
        required
        value={values.kind}
        onChange={(value) => update({ kind: value as StdAssessmentKind }, ['kind'])}
        error={errors.kind}
      >
        <Stack gap="xs" mt={6}>
          {STD_ASSESSMENT_KINDS.map((kind) => (
            <Radio key={kind} value={kind} label={KIND_LABELS[kind]} description={KIND_HELP[kind]} />
          ))}
        </Stack>
      </Radio.Group>
      <Textarea
        label="Scope"
        description="Sites, services or programmes this assessment covers (optional)."
        rows={2}
        resize="vertical"
        maxLength={STD_LIMITS.scopeNote}
        value={values.scope_note}
        onChange={(event) => update({ scope_note: event.currentTarget.value }, ['scope_note'])}
        error={errors.scope_note}
      />
    </Stack>
  );
}

function NotApplicableStep({
  framework,
  values,
  errors,
  update,
}: {
  framework: StdFramework;
  values: WizardValues;
  errors: Errors;
  update: Update;
}) {
  const toggle = (id: number, on: boolean) => {
    const next = { ...values.not_applicable };
    if (on) next[id] = next[id] ?? '';
    else delete next[id];
    update({ not_applicable: next }, [`na.${id}`]);
  };
  return (
    <Stack gap="md">
      <Text size="sm">
        Tick the chapters of {framework.name} that do not apply to your facility, and say why. Their elements are
        recorded as not applicable with your reason. Leave everything unticked when all of it applies.
      </Text>
      {framework.chapters.length === 0 && <Text c="dimmed">This framework has no chapters.</Text>}
      <Stack gap="sm" component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
        {framework.chapters.map((chapter) => {
          const ticked = chapter.id in values.not_applicable;
          return (
            <li key={chapter.id}>
              <Stack gap={6}>
                <Checkbox
                  label={`${chapter.ref_id} ${chapter.title}`}
                  description={plural(chapter.assessable_count, 'element')}
                  checked={ticked}
                  onChange={(event) => toggle(chapter.id, event.currentTarget.checked)}
                />
                {ticked && (
                  <Textarea
                    label={`Why ${chapter.ref_id} does not apply`}
                    required
                    rows={2}
                    resize="vertical"
                    ml={32}
                    maxLength={STD_LIMITS.justification}
                    value={values.not_applicable[chapter.id] ?? ''}
                    onChange={(event) =>
                      update(
                        { not_applicable: { ...values.not_applicable, [chapter.id]: event.currentTarget.value } },
                        [`na.${chapter.id}`],
                      )
                    }
                    error={errors[`na.${chapter.id}`]}
                  />
                )}
              </Stack>
            </li>
          );
        })}
      </Stack>
      {errors.not_applicable && (
        <Text size="sm" c="red.9" role="alert">
          {errors.not_applicable}
        </Text>
      )}
    </Stack>
  );
}

function WindowStep({ values, errors, update }: { values: WizardValues; errors: Errors; update: Update }) {
  return (
    <Stack gap="md">
      <Text size="sm">
        When you expect the survey, if you know (optional). Due dates and reminders can then work back from it.
      </Text>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md" maw={480}>
        <TextInput
          type="date"
          label="Window opens"
          value={values.survey_window_start}
          onChange={(event) =>
            update({ survey_window_start: event.currentTarget.value }, ['survey_window_start', 'survey_window_end'])
          }
          error={errors.survey_window_start}
        />
        <TextInput
          type="date"
          label="Window closes"
          value={values.survey_window_end}
          onChange={(event) => update({ survey_window_end: event.currentTarget.value }, ['survey_window_end'])}
          error={errors.survey_window_end}
        />
      </SimpleGrid>
    </Stack>
  );
}

function OwnersStep({
  projectId,
  framework,
  values,
  errors,
  update,
}: {
  projectId: string;
  framework: StdFramework;
  values: WizardValues;
  errors: Errors;
  update: Update;
}) {
  const members = useStdMembers(projectId);
  const people = (members.data?.members ?? []).filter((member) => member.effective_role !== null);
  const data = people.map((member) => ({ value: String(member.user_id), label: member.name }));
  const chapters = framework.chapters.filter((chapter) => !(chapter.id in values.not_applicable));
  return (
    <Stack gap="md">
      <Text size="sm">
        Give each chapter an owner (optional): every element below it starts with that owner, and the owner becomes the
        chapter’s lead. You can change owners later in Assign users.
      </Text>
      {members.isError && (
        <LoadFailure
          error={members.error}
          fallback="The people of this project could not be loaded."
          retrying={members.isFetching}
          onRetry={() => void members.refetch()}
        />
      )}
      {members.data && people.length === 0 && (
        <Text c="dimmed" size="sm">
          Nobody has a standards role yet. Give people roles in Manage users, or skip this step.
        </Text>
      )}
      {chapters.length === 0 ? (
        <Text c="dimmed">No chapter applies, so there is nobody to assign.</Text>
      ) : (
        <Table verticalSpacing="xs" aria-label="Owners by chapter">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Chapter</Table.Th>
              <Table.Th w="45%">Owner</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {chapters.map((chapter) => (
              <Table.Tr key={chapter.id}>
                <Table.Td>
                  <Text size="sm" fw={700} component="span">
                    {chapter.ref_id}
                  </Text>{' '}
                  <Text size="sm" component="span">
                    {chapter.title}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Select
                    aria-label={`Owner of ${chapter.ref_id}`}
                    placeholder={members.isPending ? 'Loading people…' : 'No owner'}
                    data={data}
                    value={values.owners[chapter.id] ?? null}
                    onChange={(value) =>
                      update({ owners: { ...values.owners, [chapter.id]: value } }, [`owner.${chapter.id}`])
                    }
                    clearable
                    searchable
                    nothingFoundMessage="Nobody with a standards role matches"
                    error={errors[`owner.${chapter.id}`]}
                  />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {errors.owners && (
        <Text size="sm" c="red.9" role="alert">
          {errors.owners}
        </Text>
      )}
    </Stack>
  );
}
