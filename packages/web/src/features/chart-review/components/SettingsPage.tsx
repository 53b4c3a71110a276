import {
  Alert,
  Button,
  Checkbox,
  Fieldset,
  Group,
  NumberInput,
  Paper,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Text,
  Textarea,
} from '@mantine/core';
import { CHART_REVIEW_MAIN_ROLES, crSettingsInputSchema, formatPercent } from '@portal/shared';
import { type FormEvent, type ReactNode, useState } from 'react';
import { toast } from 'sonner';
import { useLeaveWarning } from '../../../components/leave-warning';
import { ErrorNotice, PageHeading } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';
import { fieldBinder } from '../../../lib/field-binding';
import { type FieldErrors, schemaFieldErrors, serverFieldErrors } from '../../../lib/field-errors';
import { usePageTitle } from '../../../lib/use-page-title';
import { type CrSettings, type CrSettingsInput, useCrSettings, useSaveSettings } from '../api/settings';
import { CR_ROLE_LABELS, PercentInput, QueryPanel } from './cr-parts';
import { numberOf, percentError, percentToShare, shareToPercent } from './percent';
import { ReviewerUnitsPanel } from './ReviewerUnitsPanel';
import { useChartReviewProjectId } from './use-chart-review-project';

type Field = keyof CrSettingsInput;
const FIELDS = Object.keys(crSettingsInputSchema.shape) as Field[];

/** The shares typed as percentages, with the words their messages use. */
const PERCENT_FIELDS = {
  default_irr_rate: 'second-review share',
  irr_agreement_min: 'minimum agreement',
  new_reviewer_match_min: 'new reviewer match',
} as const satisfies Partial<Record<Field, string>>;
type PercentField = keyof typeof PERCENT_FIELDS;

/** The form's values: shares as percentages, numbers as typed (a NumberInput gives '' while empty). */
type FormValues = Omit<CrSettingsInput, PercentField | 'retention_months' | 'irr_kappa_min'> &
  Record<PercentField | 'retention_months' | 'irr_kappa_min', number | string>;

function toForm(settings: CrSettings): FormValues {
  return {
    store_encounter_ref: settings.store_encounter_ref,
    reveal_roles: settings.reveal_roles,
    retention_months: settings.retention_months,
    default_irr_rate: shareToPercent(settings.default_irr_rate),
    irr_kappa_min: settings.irr_kappa_min,
    irr_agreement_min: shareToPercent(settings.irr_agreement_min),
    new_reviewer_match_min: shareToPercent(settings.new_reviewer_match_min),
    partial_enabled: settings.partial_enabled,
    privilege_label: settings.privilege_label,
    coi_own_unit: settings.coi_own_unit,
  };
}

/** The body to send, or the message of every field that is wrong. */
function toInput(values: FormValues): { input: CrSettingsInput } | { errors: FieldErrors<Field> } {
  const percentErrors: FieldErrors<Field> = {};
  for (const [field, what] of Object.entries(PERCENT_FIELDS) as [PercentField, string][]) {
    const message = percentError(values[field], what);
    if (message) percentErrors[field] = message;
  }
  const share = (field: PercentField) => {
    const percent = numberOf(values[field]);
    return percent === undefined ? Number.NaN : percentToShare(percent);
  };
  const parsed = crSettingsInputSchema.safeParse({
    ...values,
    retention_months: numberOf(values.retention_months),
    irr_kappa_min: numberOf(values.irr_kappa_min),
    default_irr_rate: share('default_irr_rate'),
    irr_agreement_min: share('irr_agreement_min'),
    new_reviewer_match_min: share('new_reviewer_match_min'),
  });
  const errors = { ...(parsed.success ? {} : schemaFieldErrors<Field>(parsed.error)), ...percentErrors };
  if (Object.keys(errors).length > 0 || !parsed.success) return { errors };
  return { input: parsed.data };
}

/** /app/chart-review/{projectId}/settings: how the project's chart reviews handle identifiers, agreement and privilege. */
export function SettingsPage() {
  usePageTitle('Chart review settings');
  const projectId = useChartReviewProjectId();
  const settings = useCrSettings(projectId);

  return (
    <Stack gap="lg" w="100%" maw={860}>
      <PageHeading title="Chart review settings">
        How this project's chart reviews treat patient identifiers, second reviews and confidentiality.
      </PageHeading>
      <QueryPanel
        query={settings}
        fallback="The chart review settings could not be loaded. Please try again."
        loadingLabel="Loading the settings"
      >
        {(data) =>
          data.abilities.edit ? (
            <SettingsForm projectId={projectId} settings={data} />
          ) : (
            <SettingsSummary settings={data} />
          )
        }
      </QueryPanel>
      {settings.data && <ReviewerUnitsPanel />}
    </Stack>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Fieldset legend={title} radius="md" p={{ base: 'md', sm: 'lg' }} styles={{ legend: { fontWeight: 700 } }}>
      <Stack gap="md">{children}</Stack>
    </Fieldset>
  );
}

const ROLE_CHOICES = CHART_REVIEW_MAIN_ROLES.map((role) => ({ value: role, label: CR_ROLE_LABELS[role] ?? role }));

function SettingsForm({ projectId, settings }: { projectId: string; settings: CrSettings }) {
  const save = useSaveSettings(projectId);
  const [saved, setSaved] = useState(() => toForm(settings));
  const [values, setValues] = useState(saved);
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const dirty = JSON.stringify(values) !== JSON.stringify(saved);
  const leaveWarning = useLeaveWarning(dirty, 'the chart review settings');

  function change<K extends Field>(field: K, value: FormValues[K]) {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  }

  const bind = fieldBinder({ values, errors, change });

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    const checked = toInput(values);
    if ('errors' in checked) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    try {
      const stored = toForm(await save.mutateAsync(checked.input));
      setSaved(stored);
      setValues(stored);
      toast.success('Settings saved.');
    } catch (error) {
      const fields = serverFieldErrors(error, FIELDS);
      setErrors(fields);
      if (Object.keys(fields).length === 0)
        setFailure(messageFor(error, 'The settings could not be saved. Please try again.'));
      else setFailure('Some settings need attention. See the messages at the fields.');
    }
  }

  const stored = values.store_encounter_ref;
  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label="Chart review settings">
      <Stack gap="lg">
        <Section title="Encounter references">
          <Switch
            label="Store encounter references"
            description="Off (recommended): reviewers, dashboards and exports see only case codes such as CR-2026-03-0142, never the patient's encounter or record number. On: the reference from the eligible-case list is kept encrypted, and the roles below can reveal it; every reveal is logged with its reason."
            checked={stored}
            onChange={(event) => change('store_encounter_ref', event.currentTarget.checked)}
            error={errors.store_encounter_ref}
          />
          <Checkbox.Group
            label="Roles that may read encounter references"
            description={
              stored
                ? 'People with these chart review roles can download a sample’s pull list and reveal a case’s reference, each time giving a reason.'
                : 'People with these chart review roles can download a sample’s pull list (giving a reason) until the sample is locked.'
            }
            value={values.reveal_roles}
            onChange={(roles) => change('reveal_roles', roles as FormValues['reveal_roles'])}
            error={errors.reveal_roles}
          >
            <Group gap="md" mt="xs" wrap="wrap">
              {ROLE_CHOICES.map((role) => (
                <Checkbox key={role.value} value={role.value} label={role.label} />
              ))}
            </Group>
          </Checkbox.Group>
          <NumberInput
            label="Keep encounter references for (months)"
            description="After this many months the stored references are erased; case codes and answers stay."
            min={1}
            max={120}
            allowDecimal={false}
            maw={320}
            {...bind.number('retention_months')}
            disabled={!stored}
          />
        </Section>

        <Section title="Second reviews and agreement">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <PercentInput
              label="Second-review share (%)"
              description="Share of submitted reviews that get a blind second review, to measure agreement between reviewers. 5% is usual."
              {...bind.number('default_irr_rate')}
            />
            <NumberInput
              label="Minimum kappa"
              description="Cohen's kappa below this flags a question for retraining (from -1 to 1; 0.75 is usual)."
              min={-1}
              max={1}
              step={0.05}
              decimalScale={2}
              {...bind.number('irr_kappa_min')}
            />
            <PercentInput
              label="Minimum agreement (%)"
              description="Share of items two reviewers must answer alike (95% is usual)."
              {...bind.number('irr_agreement_min')}
            />
            <PercentInput
              label="New reviewer match (%)"
              description="Every review of a new reviewer gets a second review until at least 10 items checked match this share (97% is usual; 0 turns it off)."
              {...bind.number('new_reviewer_match_min')}
            />
          </SimpleGrid>
        </Section>

        <Section title="Answers">
          <Switch
            label="Allow Partial answers"
            description="Questions may then offer Yes / Partial / No / N/A; a Partial answer counts as half met in scores."
            {...bind.checked('partial_enabled')}
          />
        </Section>

        <Section title="Confidentiality and conflicts of interest">
          <Textarea
            label="Privilege label"
            description="Shown on every review page and export. Whether a review is legally privileged depends on your state's law; the label does not make it so."
            required
            rows={2}
            resize="vertical"
            maxLength={300}
            {...bind.text('privilege_label')}
          />
          <Switch
            label="Reviewers may not review cases of their own unit"
            description="Assignments then skip reviewers who work in the case's unit."
            {...bind.checked('coi_own_unit')}
          />
        </Section>

        <ErrorNotice message={failure} />
        <Group gap="sm">
          <Button type="submit" loading={save.isPending}>
            Save settings
          </Button>
          {dirty && (
            <Text size="sm" c="dimmed">
              Unsaved changes
            </Text>
          )}
        </Group>
      </Stack>
      {leaveWarning}
    </form>
  );
}

const yesNo = (value: boolean) => (value ? 'Yes' : 'No');

/** The settings for someone who may read but not change them. */
function SettingsSummary({ settings }: { settings: CrSettings }) {
  const rows: [string, string][] = [
    ['Store encounter references', yesNo(settings.store_encounter_ref)],
    [
      'Roles that may read encounter references (pull list, reveal)',
      settings.reveal_roles.length
        ? settings.reveal_roles.map((role) => CR_ROLE_LABELS[role] ?? role).join(', ')
        : 'None',
    ],
    ['Keep encounter references for', `${settings.retention_months} months`],
    ['Second-review share', formatPercent(settings.default_irr_rate, { digits: 2 })],
    ['Minimum kappa', String(settings.irr_kappa_min)],
    ['Minimum agreement', formatPercent(settings.irr_agreement_min, { digits: 2 })],
    ['New reviewer match', formatPercent(settings.new_reviewer_match_min, { digits: 2 })],
    ['Allow Partial answers', yesNo(settings.partial_enabled)],
    ['Privilege label', settings.privilege_label],
    ['Reviewers may not review cases of their own unit', yesNo(settings.coi_own_unit)],
  ];
  return (
    <Stack gap="md">
      <Alert color="blue" variant="light">
        You can read these settings. Only a chart review admin can change them.
      </Alert>
      <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }}>
        <Table.ScrollContainer minWidth={420}>
          <Table verticalSpacing="sm" aria-label="Chart review settings">
            <Table.Tbody>
              {rows.map(([label, value]) => (
                <Table.Tr key={label}>
                  <Table.Th scope="row" w="45%">
                    {label}
                  </Table.Th>
                  <Table.Td>{value}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>
    </Stack>
  );
}
