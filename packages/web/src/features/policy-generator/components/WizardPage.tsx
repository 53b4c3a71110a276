import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  List,
  Menu,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Stepper,
  Switch,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import {
  type Answer,
  type AnswerLookup,
  ASSIST_ACTION_LABELS,
  ASSIST_REWRITES,
  type AssistAction,
  assemblePolicy,
  citesStandard,
  defaultAnswers,
  type generateResultSchema,
  PG_LIMITS,
  PROFILE_FLAGS,
  PROFILE_NAME_LABELS,
  PROFILE_NAMES,
  PROFILE_VARIABLES,
  profileValues,
  resolveAnswers,
  type StandardCoverage,
  type StandardRef,
  TEMPLATE_SECTION_TITLES,
  type TemplateDetail,
  type TemplateSectionKey,
  templateNames,
} from '@portal/shared';
import { type ReactNode, useEffect, useId, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { z } from 'zod';
import { LoadFailure, LoadingRows } from '../../../components/page-parts';
import { PolicyContent } from '../../../components/policy/PolicyContent';
import { ColumnHeads } from '../../../components/shared-parts/ColumnHeads';
import { ApiError, messageFor } from '../../../lib/api';
import { usePageTitle } from '../../../lib/use-page-title';
import {
  type FacilityProfile,
  type GenerateInput,
  type GeneratorLookups,
  type RefineResult,
  type TemplateVersion,
  useAssist,
  useAssistDecision,
  useGenerate,
  useLookups,
  useProfile,
  useRefine,
  useTemplate,
} from '../api';
import { documentRoute, FactBadge, nameLabel, PG_BASE, pgRoute, plural } from './pg-parts';

type GenerateResult = z.infer<typeof generateResultSchema>;
type Variable = TemplateVersion['body']['variables'][number];
type Overrides = Partial<Record<TemplateSectionKey, string>>;

export const NO_PUBLISHED_VERSION = 'This template has no published version yet.';

/** 'N required fields are empty…' (the warning of the answers when a generated policy is made again). */
export function missingWarning(count: number): string {
  return `${count === 1 ? '1 required field is' : `${count} required fields are`} empty. You can still generate the draft, but it cannot be sent for review until they are filled in.`;
}

/** What a required answer left empty says under its field when the wizard will not go on without it. */
export function requiredMessage(type: Variable['type']): string {
  if (type === 'date') return 'Choose a date to go on.';
  if (type === 'number') return 'Enter a number to go on.';
  if (type === 'select' || type === 'department' || type === 'user') return 'Choose one to go on.';
  return 'Fill this in to go on.';
}

export const DEPARTMENT_REQUIRED = 'Choose the department whose chapter the policy goes into.';
export const NUMBER_USED = 'This number is already used by another policy: choose another.';

/** Ids of the destination's fields, to focus the first one that stops the wizard. */
const FIELD_IDS = {
  title: 'pg-destination-title',
  department_id: 'pg-destination-department',
  number: 'pg-destination-number',
} as const;
const answerId = (key: string) => `pg-answer-${key}`;

const STEPS = [
  { label: 'Facility profile', description: 'What the template takes from it' },
  { label: 'Answers', description: 'The template’s questions' },
  { label: 'Preview', description: 'The draft as it will be' },
  { label: 'Destination', description: 'Department, number, owner' },
] as const;

/** /app/policy_generator/templates/{id}/generate: from a template's published version to a draft policy. */
export function WizardPage({ projectId, templateId }: { projectId: number; templateId: number }) {
  const template = useTemplate(projectId, templateId);
  const profile = useProfile(projectId);
  const lookups = useLookups(projectId);
  const assist = useAssist(projectId);
  usePageTitle(`${template.data ? `Generate: ${template.data.title}` : 'Generate a policy'} | Policy Generator`);

  const failed = [template, profile, lookups].find((query) => query.isError);
  let body: ReactNode;
  if (failed) {
    const notFound = template.error instanceof ApiError && template.error.status === 404;
    body = notFound ? (
      <Alert color="yellow" variant="light">
        This template does not exist or is not available to this project.
      </Alert>
    ) : (
      <LoadFailure
        error={failed.error}
        fallback="The template could not be loaded. Please try again."
        retrying={failed.isFetching}
        onRetry={() => {
          for (const query of [template, profile, lookups]) if (query.isError) void query.refetch();
        }}
      />
    );
  } else if (!template.data || !profile.data || !lookups.data) {
    body = <LoadingRows label="Loading the template" rows={6} />;
  } else if (!template.data.current) {
    body = (
      <Alert color="yellow" variant="light" title={NO_PUBLISHED_VERSION}>
        <Anchor component={Link} to={pgRoute(`templates/${templateId}`)} size="sm" underline="always">
          Open the template
        </Anchor>
      </Alert>
    );
  } else {
    body = (
      <Wizard
        key={template.data.current.id}
        projectId={projectId}
        version={template.data.current}
        standards={template.data.current_standards}
        profile={profile.data}
        lookups={lookups.data}
        assistActions={assist.data ? assist.data.actions : null}
      />
    );
  }

  return (
    <Stack gap="md" miw={0}>
      <Stack gap={2}>
        <Anchor component={Link} to={PG_BASE} size="sm">
          ← All templates
        </Anchor>
        <Title order={2} fz="h3" style={{ overflowWrap: 'anywhere' }}>
          {template.data ? `Generate: ${template.data.title}` : 'Generate a policy'}
        </Title>
        {template.data?.current && (
          <Text c="dimmed" size="sm">
            Version {template.data.current.version}
            {template.data.category ? ` · ${template.data.category}` : ''}
          </Text>
        )}
      </Stack>
      {body}
    </Stack>
  );
}

interface Destination {
  title: string;
  department: string | null;
  number: string;
  /** The number was typed by the member: a department change no longer replaces it. */
  numberEdited: boolean;
  owner: string | null;
}

/**
 * The department a template's category names, proposed as the destination: the same name, or one that begins with it
 * ("Infection Prevention" finds "Infection Prevention and Control"). None when no single department matches.
 */
export function departmentFor<D extends { name: string }>(category: string, departments: readonly D[]): D | null {
  const wanted = category.trim().toLocaleLowerCase();
  if (!wanted) return null;
  const name = (d: D) => d.name.trim().toLocaleLowerCase();
  const exact = departments.filter((d) => name(d) === wanted);
  if (exact.length === 1) return exact[0]!;
  const starting = departments.filter((d) => name(d).startsWith(`${wanted} `));
  return starting.length === 1 ? starting[0]! : null;
}

/** Names for the department and person answers, as the renderer writes them. */
export function useAnswerLookup(lookups: GeneratorLookups): AnswerLookup {
  return useMemo(
    () => ({
      departments: new Map(lookups.departments.map((d) => [d.id, d.name])),
      users: new Map(lookups.people.map((p) => [p.id, p.name])),
    }),
    [lookups],
  );
}

/** The answers as the server takes them: one per question, an empty text as no answer. */
export function answersPayload(variables: readonly Variable[], answers: Record<string, Answer>) {
  return Object.fromEntries(
    variables.map((v) => {
      const value = answers[v.key];
      return [v.key, value === undefined || (typeof value === 'string' && value.trim() === '') ? null : value];
    }),
  );
}

function Wizard({
  projectId,
  version,
  standards,
  profile,
  lookups,
  assistActions,
}: {
  projectId: number;
  version: TemplateVersion;
  standards: TemplateDetail['current_standards'];
  profile: FacilityProfile;
  lookups: GeneratorLookups;
  assistActions: readonly AssistAction[] | null;
}) {
  const body = version.body;
  const variables = body.variables;
  const generate = useGenerate(projectId);
  const phone = useMediaQuery('(max-width: 48em)');
  const [step, setStep] = useState(0);
  const [answers, setAnswers] = useState<Record<string, Answer>>(() => defaultAnswers(variables));
  const [overrides, setOverrides] = useState<Overrides>({});
  const [destination, setDestination] = useState<Destination>(() => {
    const suggested = departmentFor(body.category, lookups.departments);
    return {
      title: body.title,
      department: suggested ? String(suggested.id) : null,
      number: (suggested ? suggested.next_number : lookups.next_number) ?? '',
      numberEdited: false,
      owner: null,
    };
  });
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [result, setResult] = useState<GenerateResult | null>(null);
  const [focusId, setFocusId] = useState<string | null>(null);
  // Steps the member tried to leave (or generate from): their empty required fields say so from then on.
  const [checked, setChecked] = useState<ReadonlySet<number>>(() => new Set());
  const contentRef = useRef<HTMLDivElement>(null);

  const lookup = useAnswerLookup(lookups);
  const resolved = useMemo(() => resolveAnswers(variables, answers, lookup), [variables, answers, lookup]);
  const values = useMemo(() => ({ ...profileValues(profile), ...resolved.values }), [profile, resolved]);
  // The department decides the chapter the number is in: with departments to choose from, one must be chosen.
  const needsDepartment = lookups.departments.length > 0;
  const numberUsed = destination.number.trim() !== '' && lookups.used_numbers.includes(destination.number.trim());

  // Moves focus to a field (the first one that stops the wizard, an unresolved name in the preview) once it shows.
  useEffect(() => {
    if (!focusId) return;
    document.getElementById(focusId)?.focus();
    setFocusId(null);
  }, [focusId]);

  /** Each answer's message: the server's, a wrong answer's, or (once the member tried to go on) an empty one's. */
  const answerErrors: Record<string, string> = {};
  for (const v of variables) {
    const message =
      serverErrors[`answers.${v.key}`] ??
      resolved.errors[v.key] ??
      (checked.has(1) && resolved.missing.includes(v.key) ? requiredMessage(v.type) : undefined);
    if (message) answerErrors[v.key] = message;
  }
  const destinationErrors: Record<string, string> = { ...serverErrors };
  if (checked.has(3)) {
    if (!destination.title.trim()) destinationErrors.title ??= 'Enter a title.';
    if (needsDepartment && !destination.department) destinationErrors.department_id ??= DEPARTMENT_REQUIRED;
  }

  /** The id of the first field that keeps the member on `index`, or null when the step is complete. */
  function firstInvalid(index: number): string | null {
    if (index === 1) {
      const first = variables.find((v) => v.key in resolved.errors || resolved.missing.includes(v.key));
      return first ? answerId(first.key) : null;
    }
    if (index === 3) {
      if (!destination.title.trim()) return FIELD_IDS.title;
      if (needsDepartment && !destination.department) return FIELD_IDS.department_id;
      if (numberUsed) return FIELD_IDS.number;
    }
    return null;
  }

  /** Checks `index`: when something is missing, the step shows why and its first such field takes the focus. */
  function check(index: number): boolean {
    const invalid = firstInvalid(index);
    if (!invalid) return true;
    setChecked((current) => new Set(current).add(index));
    setStep(index);
    setFocusId(invalid);
    contentRef.current?.scrollIntoView({ block: 'nearest' });
    return false;
  }

  const answer = (key: string, value: Answer) => {
    setAnswers((current) => ({ ...current, [key]: value }));
    setServerErrors((current) => {
      const { [`answers.${key}`]: _gone, ...rest } = current;
      return rest;
    });
  };

  /** To another step; going forward, each step passed on the way must be complete (it stops at the first that is not). */
  const go = (target: number) => {
    const to = Math.max(0, Math.min(STEPS.length - 1, target));
    for (let index = step; index < to; index++) if (!check(index)) return;
    setStep(to);
    contentRef.current?.scrollIntoView({ block: 'nearest' });
  };

  const next = () => go(step + 1);

  const submit = async () => {
    if (generate.isPending) return;
    setFailure(null);
    if (!check(1) || !check(3)) return;
    const input: GenerateInput = {
      template_version_id: version.id,
      answers: answersPayload(variables, answers),
      ...(Object.keys(overrides).length > 0 ? { overrides } : {}),
      title: destination.title.trim(),
      department_id: destination.department ? Number(destination.department) : null,
      number: destination.number.trim() || null,
      owner_id: destination.owner ? Number(destination.owner) : null,
    };
    try {
      setResult(await generate.mutateAsync(input));
    } catch (error) {
      const fields = fieldErrors(error);
      setServerErrors(fields);
      const keys = Object.keys(fields);
      if (keys.some((key) => key.startsWith('answers.'))) go(1);
      if (keys.length === 0 || keys.every((key) => !isShownField(key, variables))) {
        setFailure(messageFor(error, 'The draft could not be generated. Please try again.'));
      }
    }
  };

  if (result) {
    return <ResultPanel projectId={projectId} result={result} title={destination.title} variables={variables} />;
  }

  return (
    <Stack gap="lg" miw={0}>
      <Stepper
        active={step}
        onStepClick={go}
        size={phone ? 'xs' : 'sm'}
        wrap
        styles={{ steps: { flexWrap: 'wrap', rowGap: 'var(--mantine-spacing-xs)' } }}
      >
        {STEPS.map((item) => (
          <Stepper.Step key={item.label} label={item.label} description={phone ? undefined : item.description} />
        ))}
      </Stepper>
      <div ref={contentRef} style={{ minWidth: 0 }}>
        {failure && (
          <Alert color="red" variant="light" role="alert" mb="md" withCloseButton onClose={() => setFailure(null)}>
            {failure}
          </Alert>
        )}
        {step === 0 && <ProfileCheck version={version} profile={profile} />}
        {step === 1 && (
          <AnswersStep
            variables={variables}
            answers={answers}
            errors={answerErrors}
            lookups={lookups}
            required
            onAnswer={answer}
          />
        )}
        {step === 2 && (
          <PreviewStep
            projectId={projectId}
            version={version}
            standards={standards}
            values={values}
            overrides={overrides}
            setOverrides={setOverrides}
            title={destination.title}
            assistActions={assistActions}
            onAnswerName={(key) => {
              go(1);
              setFocusId(answerId(key));
            }}
          />
        )}
        {step === 3 && (
          <DestinationStep
            lookups={lookups}
            destination={destination}
            setDestination={(patch, cleared) => {
              setDestination((current) => ({ ...current, ...patch }));
              setServerErrors((current) => {
                const next = { ...current };
                for (const key of cleared) delete next[key];
                return next;
              });
            }}
            errors={destinationErrors}
            needsDepartment={needsDepartment}
            numberUsed={numberUsed}
          />
        )}
      </div>
      <Group justify="space-between" gap="sm">
        {step > 0 ? (
          <Button variant="default" onClick={() => go(step - 1)}>
            Back
          </Button>
        ) : (
          <span />
        )}
        {step < STEPS.length - 1 ? (
          <Button onClick={next}>Next</Button>
        ) : (
          <Button onClick={() => void submit()} loading={generate.isPending}>
            Generate draft
          </Button>
        )}
      </Group>
    </Stack>
  );
}

/** The first message per field of a 4xx answer, keyed as the server names them ('answers.x', 'title'...). */
function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || error.status < 400 || error.status >= 500) return {};
  const raw = (error.body as { errors?: unknown } | null)?.errors;
  if (!raw || typeof raw !== 'object') return {};
  const found: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === 'string' && first.trim()) found[key] = first;
  }
  return found;
}

const DESTINATION_FIELDS = ['title', 'number', 'department_id', 'owner_id'];

function isShownField(key: string, variables: readonly Variable[]): boolean {
  if (DESTINATION_FIELDS.includes(key)) return true;
  return key.startsWith('answers.') && variables.some((v) => `answers.${v.key}` === key);
}

// ------------------------------------------------------------------ step 1: facility profile check

const PROFILE_ORDER: readonly string[] = [...PROFILE_VARIABLES, ...PROFILE_FLAGS];

/** The profile names a template version uses, in the profile's order. */
export function profileNamesUsed(sections: readonly { html: string }[]): string[] {
  const names = new Set<string>();
  for (const section of sections) {
    const used = templateNames(section.html);
    for (const name of [...used.variables, ...used.conditions]) if (PROFILE_NAMES.has(name)) names.add(name);
  }
  return [...names].sort((a, b) => PROFILE_ORDER.indexOf(a) - PROFILE_ORDER.indexOf(b));
}

function ProfileCheck({ version, profile }: { version: TemplateVersion; profile: FacilityProfile }) {
  const used = useMemo(() => profileNamesUsed(version.body.sections), [version]);
  const values = useMemo(() => profileValues(profile), [profile]);
  const missing = used.filter((name) => values[name] === undefined);
  const link = (
    <Anchor component={Link} to={pgRoute('profile')} underline="always" size="sm">
      {profile.can_edit ? 'Edit the facility profile' : 'See the facility profile'}
    </Anchor>
  );
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        These values come from the facility profile. Flags decide which parts of the template are kept.
      </Text>
      {!profile.saved && (
        <Alert color="yellow" variant="light" title="The facility profile is not saved yet">
          <Stack gap={4} align="flex-start">
            <Text size="sm">The values below are suggestions from the project until an administrator saves them.</Text>
            {link}
          </Stack>
        </Alert>
      )}
      {missing.length > 0 && (
        <Alert color="yellow" variant="light" title={`${plural(missing.length, 'profile value')} missing`}>
          <Stack gap={4} align="flex-start">
            <Text size="sm">
              {missing.map((name) => PROFILE_NAME_LABELS[name] ?? name).join(', ')}: they stay highlighted in the draft
              until the profile has them.
            </Text>
            {link}
          </Stack>
        </Alert>
      )}
      {used.length === 0 ? (
        <Text>This template uses nothing from the facility profile.</Text>
      ) : (
        // Two columns whose text wraps: it fits a phone without a scrolling region (which a keyboard could not reach).
        <Table
          striped
          withTableBorder
          verticalSpacing="xs"
          data-testid="profile-check"
          style={{ overflowWrap: 'anywhere' }}
        >
          <ColumnHeads columns={['Profile value', 'For this facility']} />
          <Table.Tbody>
            {used.map((name) => {
              const value = values[name];
              return (
                <Table.Tr key={name}>
                  <Table.Th scope="row" fw={500}>
                    {PROFILE_NAME_LABELS[name] ?? name}
                  </Table.Th>
                  <Table.Td>
                    {value === undefined || value === null ? (
                      <FactBadge tone="warn">Missing</FactBadge>
                    ) : typeof value === 'boolean' ? (
                      <FactBadge tone={value ? 'good' : 'plain'}>{value ? 'Yes' : 'No'}</FactBadge>
                    ) : (
                      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                        {String(value)}
                      </Text>
                    )}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      )}
      {used.length > 0 && missing.length === 0 && profile.saved && <Group>{link}</Group>}
    </Stack>
  );
}

// ------------------------------------------------------------------ step 2: answers

export function AnswersStep({
  variables,
  answers,
  errors,
  lookups,
  missing = 0,
  required = false,
  onAnswer,
}: {
  variables: readonly Variable[];
  answers: Record<string, Answer>;
  errors: Record<string, string | undefined>;
  lookups: GeneratorLookups;
  /** Required fields left empty, warned about when they do not stop the form (making a generated policy again). */
  missing?: number;
  /** The required fields must be filled in to go on (the wizard): each empty one says so under it. */
  required?: boolean;
  onAnswer: (key: string, value: Answer) => void;
}) {
  if (variables.length === 0) {
    return <Text>This template asks no questions: go on to the preview.</Text>;
  }
  return (
    <Stack gap="md" maw={720}>
      <Text size="sm" c="dimmed">
        {required
          ? 'Fields marked * are required to go on.'
          : 'Fields marked * are required before the draft can be sent for review.'}
      </Text>
      {variables.map((variable) => (
        <AnswerField
          key={variable.key}
          variable={variable}
          value={answers[variable.key] ?? null}
          error={errors[variable.key]}
          lookups={lookups}
          onChange={(value) => onAnswer(variable.key, value)}
        />
      ))}
      {!required && missing > 0 && (
        <Alert color="yellow" variant="light" data-testid="missing-warning">
          {missingWarning(missing)}
        </Alert>
      )}
    </Stack>
  );
}

function AnswerField({
  variable,
  value,
  error,
  lookups,
  onChange,
}: {
  variable: Variable;
  value: Answer;
  error: string | undefined;
  lookups: GeneratorLookups;
  onChange: (value: Answer) => void;
}) {
  const common = {
    id: answerId(variable.key),
    label: variable.label,
    description: variable.help || undefined,
    withAsterisk: variable.required,
    error,
  };
  const text = typeof value === 'string' ? value : '';
  const fromText = (raw: string): Answer => (raw === '' ? null : raw);
  switch (variable.type) {
    case 'text': {
      const long = typeof variable.default === 'string' && variable.default.length > 60;
      return long ? (
        <Textarea
          {...common}
          rows={3}
          resize="vertical"
          maxLength={2000}
          value={text}
          onChange={(event) => onChange(fromText(event.currentTarget.value))}
        />
      ) : (
        <TextInput
          {...common}
          maxLength={2000}
          value={text}
          onChange={(event) => onChange(fromText(event.currentTarget.value))}
        />
      );
    }
    case 'date':
      return (
        <TextInput
          {...common}
          type="date"
          maw={260}
          value={text}
          onChange={(event) => onChange(fromText(event.currentTarget.value))}
        />
      );
    case 'select':
      return (
        <Select
          {...common}
          data={[...new Set(variable.options)]}
          value={text || null}
          onChange={(next) => onChange(next)}
          clearable={!variable.required}
          placeholder="Choose one"
          comboboxProps={{ withinPortal: true }}
        />
      );
    case 'department':
    case 'user': {
      const data =
        variable.type === 'department'
          ? lookups.departments.map((d) => ({ value: String(d.id), label: d.name }))
          : lookups.people.map((p) => ({ value: String(p.id), label: p.name }));
      return (
        <Select
          {...common}
          data={data}
          value={typeof value === 'number' ? String(value) : null}
          onChange={(next) => onChange(next ? Number(next) : null)}
          clearable={!variable.required}
          searchable={data.length > 8}
          placeholder={variable.type === 'department' ? 'Choose a department' : 'Choose a person'}
          nothingFoundMessage="Nothing found"
          comboboxProps={{ withinPortal: true }}
        />
      );
    }
    case 'number':
      return (
        <NumberInput
          {...common}
          maw={260}
          value={typeof value === 'number' || typeof value === 'string' ? value : ''}
          onChange={(next) => onChange(next === '' ? null : next)}
        />
      );
    case 'boolean':
      return (
        <Switch
          id={common.id}
          label={variable.label}
          description={common.description}
          error={error}
          checked={value === true}
          onChange={(event) => onChange(event.currentTarget.checked)}
        />
      );
  }
}

// ------------------------------------------------------------------ step 3: preview and the writing assistant

function PreviewStep({
  projectId,
  version,
  standards,
  values,
  overrides,
  setOverrides,
  title,
  assistActions,
  onAnswerName,
}: {
  projectId: number;
  version: TemplateVersion;
  standards: TemplateDetail['current_standards'];
  values: Record<string, string | number | boolean | null>;
  overrides: Overrides;
  setOverrides: (update: (current: Overrides) => Overrides) => void;
  title: string;
  assistActions: readonly AssistAction[] | null;
  onAnswerName: (key: string) => void;
}) {
  const { sections, variables } = version.body;
  const preview = useMemo(
    () => assemblePolicy(sections, values, { markUnresolved: true, overrides }),
    [sections, values, overrides],
  );
  // What the assistant reads: the section as the draft will have it, without the preview's marks.
  const plain = useMemo(() => assemblePolicy(sections, values, { overrides }), [sections, values, overrides]);
  // Each listed standard, cited in the draft's text or not; the assistant may suggest text for those not cited.
  const coverage = standards.map((standard) => ({ ...standard, cited: citesStandard(plain.html, standard.ref_id) }));
  const uncited = coverage.filter((row) => !row.cited);
  const shownKeys = new Set(preview.sections.map((s) => s.key));
  const leftOut = sections.filter((s) => !shownKeys.has(s.key)).map((s) => TEMPLATE_SECTION_TITLES[s.key]);
  const variableKeys = new Set(variables.map((v) => v.key));

  return (
    <Stack gap="md" miw={0}>
      {preview.unresolved.length > 0 && (
        <Paper withBorder radius="md" p="md" component="section" aria-label="Still to fill in">
          <Title order={3} fz="h5" mb="xs">
            Still to fill in
          </Title>
          <List spacing={4} size="sm" data-testid="unresolved-list">
            {preview.unresolved.map((name) => (
              <List.Item key={name}>
                <code className="pg-unresolved-sample">{`{{${name}}}`}</code> {nameLabel(name, variables)}
                {' · '}
                {variableKeys.has(name) ? (
                  <Anchor component="button" type="button" size="sm" onClick={() => onAnswerName(name)}>
                    Answer it
                  </Anchor>
                ) : (
                  <Anchor component={Link} to={pgRoute('profile')} size="sm">
                    Facility profile
                  </Anchor>
                )}
              </List.Item>
            ))}
          </List>
        </Paper>
      )}
      <Paper
        withBorder
        radius="md"
        p={{ base: 'sm', sm: 'xl' }}
        component="section"
        aria-label="Preview of the draft"
        data-testid="preview"
        miw={0}
      >
        <Title order={3} fz="h3" mb="md" style={{ overflowWrap: 'anywhere' }}>
          {title.trim() || version.body.title}
        </Title>
        {preview.sections.length === 0 ? (
          <Text c="dimmed" fs="italic">
            Nothing of this template applies to this facility.
          </Text>
        ) : (
          <Stack gap="lg">
            {preview.sections.map((section) => (
              <SectionPreview
                key={section.key}
                projectId={projectId}
                versionId={version.id}
                sectionKey={section.key}
                title={section.title}
                html={section.html}
                plainHtml={plain.sections.find((s) => s.key === section.key)?.html ?? ''}
                overridden={overrides[section.key] !== undefined}
                assistActions={assistActions}
                uncited={uncited}
                onAccept={(html) => setOverrides((current) => ({ ...current, [section.key]: html }))}
                onRestore={() =>
                  setOverrides((current) => {
                    const { [section.key]: _gone, ...rest } = current;
                    return rest;
                  })
                }
              />
            ))}
          </Stack>
        )}
      </Paper>
      {leftOut.length > 0 && (
        <Text size="sm" c="dimmed" data-testid="left-out">
          Not in this draft (its conditions do not apply to this facility, or it is empty): {leftOut.join(', ')}.
        </Text>
      )}
      <StandardsCoverage rows={coverage} />
    </Stack>
  );
}

/**
 * The standards the template is written to help meet, as this draft meets them (DOMAIN.md 4.2): cited in its text or
 * not (a section left out may take a citation with it), and linked to the draft or not (only elements of frameworks
 * the project assesses are).
 */
function StandardsCoverage({ rows }: { rows: readonly StandardCoverage[] }) {
  if (!rows.length) return null;
  const notCited = rows.filter((row) => !row.cited).length;
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="pg-coverage-title" miw={0}>
      <Stack gap="xs">
        <Title order={3} fz="h5" id="pg-coverage-title">
          Standards this draft helps meet
        </Title>
        <Text size="sm" c="dimmed">
          {notCited === 0
            ? 'The text cites every standard the template lists.'
            : `${plural(notCited, 'standard')} the template lists ${notCited === 1 ? 'is' : 'are'} not cited in this text: check that the draft still addresses ${notCited === 1 ? 'it' : 'them'}.`}
        </Text>
        <List spacing={6} size="sm" data-testid="coverage" listStyleType="none" ml={0} pl={0}>
          {rows.map((row) => (
            <List.Item key={`${row.framework} ${row.ref_id}`}>
              <Group gap={6} wrap="wrap" align="center">
                <Text span size="sm" fw={600}>
                  {row.framework}
                </Text>
                <Text span size="sm" ff="monospace">
                  {row.ref_id}
                </Text>
                {row.title && (
                  <Text span size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {row.title}
                  </Text>
                )}
                <FactBadge tone={row.cited ? 'good' : 'warn'}>{row.cited ? 'Cited' : 'Not cited'}</FactBadge>
                <FactBadge tone={row.assessed ? 'info' : 'plain'}>
                  {row.assessed ? 'Linked to the draft' : 'Not assessed in this project'}
                </FactBadge>
              </Group>
            </List.Item>
          ))}
        </List>
      </Stack>
    </Paper>
  );
}

function SectionPreview({
  projectId,
  versionId,
  sectionKey,
  title,
  html,
  plainHtml,
  overridden,
  assistActions,
  uncited,
  onAccept,
  onRestore,
}: {
  projectId: number;
  versionId: number;
  sectionKey: TemplateSectionKey;
  title: string;
  html: string;
  plainHtml: string;
  overridden: boolean;
  assistActions: readonly AssistAction[] | null;
  uncited: readonly (StandardRef & { title: string | null })[];
  onAccept: (html: string) => void;
  onRestore: () => void;
}) {
  const headingId = useId();
  const refine = useRefine(projectId);
  const decision = useAssistDecision(projectId);
  // What the assistant suggested, and for which standard when it was asked to address one.
  const [suggestion, setSuggestion] = useState<(RefineResult & { standard: StandardRef | null }) | null>(null);
  const [error, setError] = useState<string | null>(null);
  const rewrites = assistActions ? ASSIST_REWRITES.filter((a) => assistActions.includes(a)) : [];
  const addresses = assistActions?.includes('address_standard') ? uncited : [];

  const ask = async (action: AssistAction, standard: StandardRef | null = null) => {
    if (refine.isPending) return;
    setError(null);
    setSuggestion(null);
    try {
      const result = await refine.mutateAsync({
        template_version_id: versionId,
        section_key: sectionKey,
        html: plainHtml,
        action,
        ...(standard ? { standard: { framework: standard.framework, ref_id: standard.ref_id } } : {}),
      });
      setSuggestion({ ...result, standard });
    } catch (caught) {
      setError(messageFor(caught, 'No suggestion could be made. Please try again.'));
    }
  };

  const decide = (accepted: boolean) => {
    if (!suggestion) return;
    if (accepted) onAccept(suggestion.html);
    decision.mutate({ callId: suggestion.call_id, accepted });
    setSuggestion(null);
  };

  return (
    <section aria-labelledby={headingId} data-section={sectionKey}>
      <Group justify="space-between" gap="xs" mb="xs" wrap="wrap">
        <Group gap="xs">
          <Title order={4} fz="h4" id={headingId}>
            {title}
          </Title>
          {overridden && <FactBadge tone="info">Suggestion accepted</FactBadge>}
        </Group>
        <Group gap="xs">
          {overridden && (
            <Button size="compact-xs" variant="subtle" onClick={onRestore} aria-describedby={headingId}>
              Use the template text
            </Button>
          )}
          {rewrites.length + addresses.length > 0 && (
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <Button
                  size="compact-xs"
                  variant="default"
                  loading={refine.isPending}
                  disabled={suggestion !== null}
                  aria-describedby={headingId}
                >
                  Suggest a rewrite
                </Button>
              </Menu.Target>
              <Menu.Dropdown maw={360}>
                {rewrites.map((action) => (
                  <Menu.Item key={action} onClick={() => void ask(action)}>
                    {ASSIST_ACTION_LABELS[action]}
                  </Menu.Item>
                ))}
                {addresses.length > 0 && (
                  <>
                    {rewrites.length > 0 && <Menu.Divider />}
                    <Menu.Label>Add text for a standard the draft does not cite</Menu.Label>
                    {addresses.map((standard) => (
                      <Menu.Item
                        key={`${standard.framework} ${standard.ref_id}`}
                        onClick={() => void ask('address_standard', standard)}
                      >
                        {standard.framework} {standard.ref_id}
                        {standard.title ? `: ${standard.title}` : ''}
                      </Menu.Item>
                    ))}
                  </>
                )}
              </Menu.Dropdown>
            </Menu>
          )}
        </Group>
      </Group>
      {overridden && (
        <Text size="xs" c="dimmed" mb="xs">
          This section keeps the accepted suggestion: changes to the answers no longer reach it.
        </Text>
      )}
      <PolicyContent html={html} />
      {error && (
        <Alert color="red" variant="light" role="alert" mt="sm" withCloseButton onClose={() => setError(null)}>
          {error}
        </Alert>
      )}
      {suggestion && (
        <Paper withBorder radius="md" p="md" mt="sm" bg="gray.0" data-testid="suggestion">
          <Stack gap="sm">
            <Group justify="space-between" gap="xs" wrap="wrap">
              <Text fw={600} size="sm">
                {suggestion.standard
                  ? `Suggested text for ${suggestion.standard.framework} ${suggestion.standard.ref_id}`
                  : 'Suggested rewrite'}
              </Text>
              <Group gap="md" role="group" aria-label="Legend">
                <Text size="sm">
                  <ins className="policy-legend-added">Added</ins> {plural(suggestion.redline.insertions, 'insertion')}
                </Text>
                <Text size="sm">
                  <del className="policy-legend-removed">Removed</del>{' '}
                  {plural(suggestion.redline.deletions, 'deletion')}
                </Text>
              </Group>
            </Group>
            <PolicyContent html={suggestion.redline.html} label={`Suggested changes to ${title}`} />
            <Group gap="xs">
              <Button size="xs" onClick={() => decide(true)}>
                Accept
              </Button>
              <Button size="xs" variant="default" onClick={() => decide(false)}>
                Reject
              </Button>
            </Group>
          </Stack>
        </Paper>
      )}
    </section>
  );
}

// ------------------------------------------------------------------ step 4: destination

function DestinationStep({
  lookups,
  destination,
  setDestination,
  errors,
  needsDepartment,
  numberUsed,
}: {
  lookups: GeneratorLookups;
  destination: Destination;
  setDestination: (patch: Partial<Destination>, cleared: string[]) => void;
  errors: Record<string, string>;
  needsDepartment: boolean;
  numberUsed: boolean;
}) {
  const department = lookups.departments.find((d) => String(d.id) === destination.department) ?? null;

  const chooseDepartment = (value: string | null) => {
    const next = lookups.departments.find((d) => String(d.id) === value) ?? null;
    const patch: Partial<Destination> = { department: value };
    if (!destination.numberEdited) patch.number = next?.next_number ?? lookups.next_number ?? '';
    setDestination(patch, ['department_id', 'number']);
  };

  let people: ReactNode = needsDepartment
    ? "The policy is numbered in the department's chapter; its reviewers, signers and readers come from there."
    : 'This project has no departments yet: the draft takes the next top-level number, and it goes to review once a policy administrator gives it a department.';
  if (department) {
    people =
      department.reviewers.length === 0
        ? `${department.name} has no reviewers yet: the draft can be generated, and a policy administrator assigns reviewers before it goes to review.`
        : `Reviewers: ${department.reviewers.join(', ')}; Signers: ${
            department.signers.length ? department.signers.join(', ') : 'none yet'
          }`;
  }

  return (
    <Stack gap="md" maw={720}>
      <TextInput
        id={FIELD_IDS.title}
        label="Title"
        withAsterisk
        maxLength={PG_LIMITS.title}
        value={destination.title}
        onChange={(event) => setDestination({ title: event.currentTarget.value }, ['title'])}
        error={errors.title}
      />
      <Select
        id={FIELD_IDS.department_id}
        label="Department"
        withAsterisk={needsDepartment}
        placeholder={needsDepartment ? 'Choose a department' : 'No department'}
        data={lookups.departments.map((d) => ({
          value: String(d.id),
          label: d.code ? `${d.name} (${d.code})` : d.name,
        }))}
        value={destination.department}
        onChange={chooseDepartment}
        allowDeselect={false}
        searchable={lookups.departments.length > 8}
        nothingFoundMessage="Nothing found"
        description={people}
        inputWrapperOrder={['label', 'input', 'description', 'error']}
        error={errors.department_id}
        comboboxProps={{ withinPortal: true }}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <TextInput
          id={FIELD_IDS.number}
          label="Number"
          maxLength={40}
          value={destination.number}
          onChange={(event) => setDestination({ number: event.currentTarget.value, numberEdited: true }, ['number'])}
          description={
            department
              ? `The next free number in ${department.name}'s chapter; left empty, the draft takes it.`
              : 'The next free number; left empty, the draft takes it.'
          }
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          error={errors.number ?? (numberUsed ? <span data-testid="number-used">{NUMBER_USED}</span> : undefined)}
        />
        <Select
          label="Owner"
          placeholder="You"
          description="Left empty, you own the policy."
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          data={lookups.people.map((p) => ({ value: String(p.id), label: p.name }))}
          value={destination.owner}
          onChange={(value) => setDestination({ owner: value }, ['owner_id'])}
          clearable
          searchable={lookups.people.length > 8}
          nothingFoundMessage="Nothing found"
          error={errors.owner_id}
          comboboxProps={{ withinPortal: true }}
        />
      </SimpleGrid>
      <Text size="sm" c="dimmed">
        The draft goes to Policy management as version 1 with status Draft. Nothing is sent for review or published
        until someone does so there.
      </Text>
    </Stack>
  );
}

// ------------------------------------------------------------------ result

function ResultPanel({
  projectId,
  result,
  title,
  variables,
}: {
  projectId: number;
  result: GenerateResult;
  title: string;
  variables: readonly Variable[];
}) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }} data-testid="generate-result">
      <Stack gap="md" align="flex-start">
        <Title order={3} ref={headingRef} tabIndex={-1} c="green.9">
          Draft created
        </Title>
        <Text>“{title.trim()}” is now a draft in Policy management.</Text>
        <Button component={Link} to={documentRoute(projectId, result.document_id)}>
          Open the draft in Policy management
        </Button>
        {result.unresolved.length > 0 && (
          <Alert color="yellow" variant="light" title="Fill these in before sending it for review" w="100%">
            <List size="sm" spacing={2}>
              {result.unresolved.map((name) => (
                <List.Item key={name}>{nameLabel(name, variables)}</List.Item>
              ))}
            </List>
          </Alert>
        )}
        <Group gap="xs">
          <Badge variant="light" color="blue.9" tt="none" radius="sm">
            {result.links_added === 1
              ? '1 standards link suggested'
              : `${result.links_added} standards links suggested`}
          </Badge>
        </Group>
        {result.links_unmatched.length > 0 && (
          <Text size="sm">
            Not found among this project’s standards, so not linked: {result.links_unmatched.join(', ')}
          </Text>
        )}
        <Group gap="sm">
          <Button component={Link} to={pgRoute('generated')} variant="default">
            See generated policies
          </Button>
          <Button component={Link} to={PG_BASE} variant="subtle">
            Back to templates
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
