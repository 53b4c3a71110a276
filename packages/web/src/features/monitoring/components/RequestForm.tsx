import { Alert, Button, Group, MultiSelect, Select, Stack, Switch, Textarea, TextInput } from '@mantine/core';
import {
  type DataRequestCreate,
  dataRequestCreateSchema,
  JUSTIFICATION_REQUIRED_MESSAGE,
  REQUEST_FORMATS,
  type RequestFormat,
} from '@portal/shared';
import { useMemo, useState } from 'react';
import { toast } from 'sonner';
import { ApiError, messageFor } from '../../../lib/api';
import { fieldBinder } from '../../../lib/field-binding';
import { usePageTree } from '../api/pages-list';
import { useCreateRequest } from '../api/requests-save';
import { pageName } from './pages-parts';
import { REQUEST_FORMAT_LABEL, todayLocal } from './request-parts';
import { useMonitoringProjectId } from './use-monitoring-project';

const FIELDS = [
  'title',
  'purpose',
  'page_ids',
  'period_from',
  'period_to',
  'format',
  'justification',
  'needed_by',
] as const;
type Field = (typeof FIELDS)[number];
type Errors = Partial<Record<Field, string>>;

const EMPTY = {
  title: '',
  purpose: '',
  pageIds: [] as string[],
  periodFrom: '',
  periodTo: '',
  format: null as RequestFormat | null,
  patientLevel: false,
  justification: '',
  neededBy: '',
};

/** The first message per field of a 400 (page_ids.N collapses onto page_ids). */
function fieldErrorsOf(error: unknown): Errors {
  if (!(error instanceof ApiError) || error.status !== 400) return {};
  const raw = (error.body as { errors?: Record<string, unknown> } | null)?.errors ?? {};
  const found: Errors = {};
  for (const [key, value] of Object.entries(raw)) {
    const field = key.split('.')[0] as Field;
    const first = Array.isArray(value) ? value[0] : value;
    if ((FIELDS as readonly string[]).includes(field) && typeof first === 'string' && !found[field]) {
      found[field] = first;
    }
  }
  return found;
}

/** The "Request Data" form: what, why, for which pages and period, in which format, by when. */
export function RequestForm({ onFiled }: { onFiled: (requestId: number) => void }) {
  const projectId = useMonitoringProjectId();
  const tree = usePageTree(projectId);
  const create = useCreateRequest(projectId);
  const [form, setForm] = useState(EMPTY);
  const [errors, setErrors] = useState<Errors>({});
  const set = <K extends keyof typeof EMPTY>(key: K, value: (typeof EMPTY)[K]) =>
    setForm((current) => ({ ...current, [key]: value }));
  const bind = fieldBinder({ values: form, errors, change: set });

  const pageOptions = useMemo(
    () => (tree.data?.pages ?? []).map((page) => ({ value: String(page.id), label: pageName(page) })),
    [tree.data],
  );

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const input: DataRequestCreate = {
      title: form.title,
      purpose: form.purpose,
      page_ids: form.pageIds.map(Number),
      period_from: form.periodFrom,
      period_to: form.periodTo,
      format: form.format as RequestFormat,
      patient_level: form.patientLevel,
      justification: form.patientLevel ? form.justification.trim() || null : null,
      needed_by: form.neededBy || null,
    };
    const parsed = dataRequestCreateSchema.safeParse(input);
    const found: Errors = {};
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0] ?? '') as Field;
        if (!(FIELDS as readonly string[]).includes(field) || found[field]) continue;
        const emptyDate = (field === 'period_from' || field === 'period_to') && !input[field];
        found[field] = emptyDate ? 'Choose a date.' : issue.message;
      }
    }
    // The schema's cross-field rules run only once every field is valid: say them at once.
    if (form.patientLevel && !input.justification && !found.justification) {
      found.justification = JUSTIFICATION_REQUIRED_MESSAGE;
    }
    if (form.periodFrom && form.periodTo && form.periodFrom > form.periodTo && !found.period_to) {
      found.period_to = 'The end of the period must not be before its start.';
    }
    if (form.neededBy && form.neededBy < todayLocal() && !found.needed_by) {
      found.needed_by = 'The date must not be in the past.';
    }
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    create.mutate(input, {
      onSuccess: (request) => {
        toast.success('Your data request was sent to the data stewards.');
        setForm(EMPTY);
        onFiled(request.id);
      },
      onError: (error) => {
        const fields = fieldErrorsOf(error);
        setErrors(fields);
        if (Object.keys(fields).length === 0) toast.error(messageFor(error, 'The request could not be sent.'));
      },
    });
  };

  return (
    <form onSubmit={submit} noValidate aria-label="New data request">
      <Stack gap="md" maw={720}>
        <TextInput label="Title" withAsterisk {...bind.text('title')} maxLength={220} />
        <Textarea
          label="Purpose"
          description="What the data is for and what decision it supports."
          withAsterisk
          rows={3}
          {...bind.text('purpose')}
        />
        <MultiSelect
          label="Pages"
          description="The pages whose data you need."
          withAsterisk
          searchable
          data={pageOptions}
          value={form.pageIds}
          onChange={(value) => set('pageIds', value)}
          error={
            errors.page_ids ?? (tree.isError ? messageFor(tree.error, 'The pages could not be loaded.') : undefined)
          }
          placeholder={tree.isPending ? 'Loading the pages…' : 'Choose pages'}
          nothingFoundMessage="No page matches."
        />
        <Group grow align="flex-start" wrap="wrap">
          <TextInput
            type="date"
            label="Period from"
            withAsterisk
            value={form.periodFrom}
            onChange={(event) => set('periodFrom', event.currentTarget.value)}
            error={errors.period_from}
            miw={180}
          />
          <TextInput
            type="date"
            label="Period to"
            withAsterisk
            value={form.periodTo}
            onChange={(event) => set('periodTo', event.currentTarget.value)}
            error={errors.period_to}
            miw={180}
          />
        </Group>
        <Group grow align="flex-start" wrap="wrap">
          <Select
            label="Format"
            withAsterisk
            data={REQUEST_FORMATS.map((format) => ({ value: format, label: REQUEST_FORMAT_LABEL[format] }))}
            value={form.format}
            onChange={(value) => set('format', value as RequestFormat | null)}
            error={errors.format}
            miw={180}
          />
          <TextInput
            type="date"
            label="Needed by"
            value={form.neededBy}
            onChange={(event) => set('neededBy', event.currentTarget.value)}
            error={errors.needed_by}
            miw={180}
          />
        </Group>
        <Switch
          label="Patient-level data"
          description="Data about individual patients rather than counts and rates."
          checked={form.patientLevel}
          onChange={(event) => set('patientLevel', event.currentTarget.checked)}
        />
        {form.patientLevel && (
          <Stack gap="xs">
            <Alert color="blue" variant="light">
              Ask only for the patient-level data the purpose needs (the minimum necessary): the fewest patients, fields
              and dates that answer the question. Say why counts or rates are not enough.
            </Alert>
            <Textarea label="Justification" withAsterisk rows={2} {...bind.text('justification')} />
          </Stack>
        )}
        <Group>
          <Button type="submit" loading={create.isPending}>
            Send request
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
