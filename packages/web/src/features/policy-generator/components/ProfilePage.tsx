import { zodResolver } from '@hookform/resolvers/zod';
import {
  Alert,
  Button,
  Checkbox,
  Group,
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
import {
  ACCREDITOR_LABELS,
  ACCREDITORS,
  type FacilityProfile,
  facilityProfileInputSchema,
  OWNER_TITLE_LABELS,
  OWNER_TITLES,
  PG_LIMITS,
  SERVICE_LINE_LABELS,
  SERVICE_LINES,
  US_STATES,
} from '@portal/shared';
import { type ReactNode, useId, useState } from 'react';
import { Controller, type Path, useForm } from 'react-hook-form';
import { toast } from 'sonner';
import type { z } from 'zod';
import { useLeaveWarning } from '../../../components/leave-warning';
import { QueryBody } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';
import { formatDateTime } from '../../../lib/dates';
import { serverFieldErrors } from '../../../lib/field-errors';
import { usePageTitle } from '../../../lib/use-page-title';
import { useProfile, useSaveProfile } from '../api';
import { profileLabel, SectionTitle } from './pg-parts';

export const PROFILE_SAVED = 'Facility profile saved.';
export const PROFILE_READ_ONLY = 'Only project administrators can change the facility profile.';

type Input = z.input<typeof facilityProfileInputSchema>;
type Output = z.output<typeof facilityProfileInputSchema>;

const FIELDS = [
  'legal_name',
  'short_name',
  'address',
  'state',
  'bed_count',
  'service_lines',
  'accreditors',
  'default_review_interval_months',
  ...OWNER_TITLES.map((t) => `owner_titles.${t}` as const),
] as const;

function toInput(profile: FacilityProfile): Input {
  return {
    legal_name: profile.legal_name,
    short_name: profile.short_name,
    address: profile.address,
    state: profile.state,
    bed_count: profile.bed_count,
    service_lines: [...profile.service_lines],
    accreditors: [...profile.accreditors],
    owner_titles: Object.fromEntries(OWNER_TITLES.map((t) => [t, profile.owner_titles[t] ?? ''])),
    default_review_interval_months: profile.default_review_interval_months,
  };
}

/** A NumberInput's value as the form keeps it: '' is no value. */
const numberOrNull = (value: number | string): number | null =>
  value === '' ? null : typeof value === 'number' ? value : Number(value);

/** /app/policy_generator/profile: what templates fill in about the facility (project admins edit it). */
export function ProfilePage({ projectId }: { projectId: number }) {
  usePageTitle('Facility profile | Policy Generator');
  const profile = useProfile(projectId);

  return (
    <Stack gap="md" maw={900} miw={0}>
      <Stack gap={2}>
        <Title order={2} fz="h3">
          Facility profile
        </Title>
        <Text c="dimmed" size="sm">
          Every template fills in the facility’s name, address, services, accreditors and the titles of policy owners
          from here, and keeps sections that do not apply to the facility out of its drafts.
        </Text>
      </Stack>
      <QueryBody
        query={profile}
        fallback="The facility profile could not be loaded. Please try again."
        loadingLabel="Loading the facility profile"
        rows={6}
      >
        {(data) => <ProfileForm key={data.updated_at ?? 'new'} projectId={projectId} profile={data} />}
      </QueryBody>
    </Stack>
  );
}

function ProfileForm({ projectId, profile }: { projectId: number; profile: FacilityProfile }) {
  const save = useSaveProfile(projectId);
  const readOnly = !profile.can_edit;
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    control,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isDirty },
  } = useForm<Input, unknown, Output>({
    resolver: zodResolver(facilityProfileInputSchema),
    defaultValues: toInput(profile),
  });
  const leaveWarning = useLeaveWarning(isDirty && !readOnly && !save.isPending, 'the facility profile');

  const submit = handleSubmit(async (values) => {
    if (save.isPending || readOnly) return;
    setFailure(null);
    try {
      const saved = await save.mutateAsync(values);
      reset(toInput(saved));
      toast.success(PROFILE_SAVED);
    } catch (error) {
      const fields = serverFieldErrors(error, FIELDS);
      for (const field of FIELDS) {
        const message = fields[field];
        if (message) setError(field as Path<Input>, { type: 'server', message });
      }
      if (Object.keys(fields).length === 0) {
        setFailure(messageFor(error, 'The facility profile could not be saved. Please try again.'));
      }
    }
  });

  const ownerError = (t: (typeof OWNER_TITLES)[number]) => errors.owner_titles?.[t]?.message;

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label="Facility profile">
      <Stack gap="md">
        {readOnly && (
          <Alert color="gray" variant="light" data-testid="profile-read-only">
            {PROFILE_READ_ONLY}
          </Alert>
        )}
        {!profile.saved && (
          <Alert color="yellow" variant="light" title="Not saved yet">
            These values are suggestions from the project. Templates use them once a project administrator checks and
            saves the profile.
          </Alert>
        )}
        {profile.saved && profile.missing.length > 0 && (
          <Alert color="yellow" variant="light" title="Fields templates use are empty">
            {profile.missing.map(profileLabel).join(', ')}
          </Alert>
        )}
        {failure && (
          <Alert color="red" variant="light" role="alert" withCloseButton onClose={() => setFailure(null)}>
            {failure}
          </Alert>
        )}

        <Section title="Facility">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <TextInput
              label="Legal name"
              withAsterisk
              description={
                <>
                  As on the licence: templates write it as <code>{'{{facility_name}}'}</code>.
                </>
              }
              maxLength={PG_LIMITS.name}
              disabled={readOnly}
              error={errors.legal_name?.message}
              {...register('legal_name')}
            />
            <TextInput
              label="Short name"
              description="How staff call it; the legal name when empty."
              maxLength={PG_LIMITS.shortName}
              disabled={readOnly}
              error={errors.short_name?.message}
              {...register('short_name')}
            />
          </SimpleGrid>
          <Textarea
            label="Address"
            rows={3}
            resize="vertical"
            maxLength={PG_LIMITS.address}
            disabled={readOnly}
            error={errors.address?.message}
            {...register('address')}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <Controller
              control={control}
              name="state"
              render={({ field }) => (
                <Select
                  ref={field.ref}
                  name={field.name}
                  label="State"
                  placeholder="Choose a state"
                  data={[...US_STATES]}
                  value={field.value || null}
                  onChange={(value) => field.onChange(value ?? '')}
                  onBlur={field.onBlur}
                  clearable
                  searchable
                  disabled={readOnly}
                  error={errors.state?.message}
                  comboboxProps={{ withinPortal: true }}
                />
              )}
            />
            <Controller
              control={control}
              name="bed_count"
              render={({ field }) => (
                <NumberInput
                  ref={field.ref}
                  name={field.name}
                  label="Licensed beds"
                  description="Leave empty when it does not apply."
                  min={0}
                  max={5000}
                  allowDecimal={false}
                  allowNegative={false}
                  value={field.value ?? ''}
                  onChange={(value) => field.onChange(numberOrNull(value))}
                  onBlur={field.onBlur}
                  disabled={readOnly}
                  error={errors.bed_count?.message}
                />
              )}
            />
          </SimpleGrid>
        </Section>

        <Section title="Services and accreditation">
          <Controller
            control={control}
            name="service_lines"
            render={({ field }) => (
              <Checkbox.Group
                label="Service lines"
                description="Sections about a service the facility does not offer are left out of the drafts."
                value={field.value}
                onChange={field.onChange}
                disabled={readOnly}
                error={errors.service_lines?.message}
              >
                <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="xs" mt="xs">
                  {SERVICE_LINES.map((line) => (
                    <Checkbox key={line} value={line} label={SERVICE_LINE_LABELS[line]} disabled={readOnly} />
                  ))}
                </SimpleGrid>
              </Checkbox.Group>
            )}
          />
          <Controller
            control={control}
            name="accreditors"
            render={({ field }) => (
              <Checkbox.Group
                label="Accreditors"
                description="Who surveys the facility: templates cite their standards."
                value={field.value}
                onChange={field.onChange}
                disabled={readOnly}
                error={errors.accreditors?.message}
              >
                <Stack gap="xs" mt="xs">
                  {ACCREDITORS.map((code) => (
                    <Checkbox key={code} value={code} label={ACCREDITOR_LABELS[code]} disabled={readOnly} />
                  ))}
                </Stack>
              </Checkbox.Group>
            )}
          />
        </Section>

        <Section title="Policy owners" description="The titles templates use for the people who own a policy.">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            {OWNER_TITLES.map((t) => (
              <TextInput
                key={t}
                label={OWNER_TITLE_LABELS[t].label}
                placeholder={OWNER_TITLE_LABELS[t].example}
                maxLength={PG_LIMITS.ownerTitle}
                disabled={readOnly}
                error={ownerError(t)}
                {...register(`owner_titles.${t}`)}
              />
            ))}
          </SimpleGrid>
        </Section>

        <Section title="Review">
          <Controller
            control={control}
            name="default_review_interval_months"
            render={({ field }) => (
              <NumberInput
                ref={field.ref}
                name={field.name}
                label="Default review interval (months)"
                description="How often a generated policy is reviewed unless the template says otherwise."
                withAsterisk
                min={1}
                max={60}
                maw={320}
                allowDecimal={false}
                allowNegative={false}
                value={field.value ?? ''}
                onChange={(value) => field.onChange(numberOrNull(value) ?? undefined)}
                onBlur={field.onBlur}
                disabled={readOnly}
                error={errors.default_review_interval_months?.message}
              />
            )}
          />
        </Section>

        <Group justify="space-between" gap="sm">
          <Text size="sm" c="dimmed">
            {profile.updated_at
              ? `Last saved ${formatDateTime(profile.updated_at)}${profile.updated_by ? ` by ${profile.updated_by}` : ''}.`
              : 'Never saved.'}
          </Text>
          {!readOnly && (
            <Button type="submit" loading={save.isPending}>
              Save profile
            </Button>
          )}
        </Group>
      </Stack>
      {leaveWarning}
    </form>
  );
}

function Section({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
  const id = useId();
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby={id} miw={0}>
      <Stack gap="md">
        <SectionTitle title={title} description={description} id={id} fz="h5" />
        {children}
      </Stack>
    </Paper>
  );
}
