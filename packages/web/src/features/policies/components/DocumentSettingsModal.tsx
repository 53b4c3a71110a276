import { Button, Group, Modal, NumberInput, Select, Stack, TextInput } from '@mantine/core';
import { type DocumentDetail, documentPatchSchema, POLICY_TITLE_MAX } from '@portal/shared';
import { type FormEvent, useMemo } from 'react';
import { toast } from 'sonner';
import { LimitedTextInput } from '../../../components/form-parts/LimitedTextInput';
import { ErrorNotice } from '../../../components/page-parts';
import { useFormState } from '../../../components/shared-parts/use-form-state';
import { messageFor } from '../../../lib/api';
import { schemaFieldErrors } from '../../../lib/field-errors';
import { useDepartments } from '../api/get-departments';
import { type DocumentPatch, useUpdateDocument } from '../api/update-document';
import { departmentSelectData } from './browse-ui';

const FIELDS = ['title', 'department_id', 'review_interval_months', 'next_review_on'] as const;
type Field = (typeof FIELDS)[number];

interface SettingsModalProps {
  opened: boolean;
  onClose: () => void;
  projectId: string;
  document: DocumentDetail;
}

/** The document's settings: title, department, review interval and next review date (PATCH, changed fields only). */
export function DocumentSettingsModal({ opened, onClose, projectId, document }: SettingsModalProps) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="Policy settings"
      centered
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {/* Mounted only while open: every opening starts from the document as it is now. */}
      {opened && <SettingsForm projectId={projectId} document={document} onDone={onClose} />}
    </Modal>
  );
}

interface FormValues {
  title: string;
  department_id: string | null;
  review_interval_months: number | string;
  next_review_on: string;
}

function valuesOf(document: DocumentDetail): FormValues {
  return {
    title: document.title,
    department_id: document.department ? String(document.department.id) : null,
    review_interval_months: document.review_interval_months,
    next_review_on: document.next_review_on ?? '',
  };
}

function SettingsForm({
  projectId,
  document,
  onDone,
}: {
  projectId: string;
  document: DocumentDetail;
  onDone: () => void;
}) {
  const update = useUpdateDocument(projectId, String(document.id));
  const departments = useDepartments(projectId);
  const { values, errors, setErrors, failure, setFailure, change, refused } = useFormState(
    () => valuesOf(document),
    FIELDS,
  );

  const options = useMemo(() => {
    const list = departmentSelectData(departments.data ?? []);
    // The document's department stays choosable while the list loads or if it failed to load.
    const own = document.department;
    if (own && !list.some((option) => option.value === String(own.id))) {
      list.unshift({ value: String(own.id), label: `${own.name} (${own.code})` });
    }
    return list;
  }, [departments.data, document.department]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (update.isPending) return;
    setFailure(null);
    const before = valuesOf(document);
    if (values.review_interval_months === '') {
      setErrors({ review_interval_months: 'Enter how many months pass between reviews.' });
      return;
    }
    const candidate = {
      title: values.title,
      department_id: values.department_id === null ? null : Number(values.department_id),
      review_interval_months: Number(values.review_interval_months),
      next_review_on: values.next_review_on.trim() === '' ? null : values.next_review_on.trim(),
    };
    const parsed = documentPatchSchema.safeParse(candidate);
    if (!parsed.success) {
      setErrors(schemaFieldErrors<Field>(parsed.error));
      return;
    }
    const patch: DocumentPatch = {};
    if (parsed.data.title !== before.title) patch.title = parsed.data.title;
    if ((parsed.data.department_id ?? null) !== (before.department_id === null ? null : Number(before.department_id))) {
      patch.department_id = parsed.data.department_id ?? null;
    }
    if (parsed.data.review_interval_months !== before.review_interval_months) {
      patch.review_interval_months = parsed.data.review_interval_months;
    }
    if ((parsed.data.next_review_on ?? '') !== before.next_review_on) {
      patch.next_review_on = parsed.data.next_review_on ?? null;
    }
    if (Object.keys(patch).length === 0) {
      onDone();
      return;
    }
    try {
      await update.mutateAsync(patch);
      toast.success('Policy settings saved.');
      onDone();
    } catch (error) {
      refused(error, 'The settings could not be saved. Please try again.');
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="md">
        <ErrorNotice message={failure} />
        <LimitedTextInput
          label="Title"
          withAsterisk
          limit={POLICY_TITLE_MAX}
          value={values.title}
          onChange={(event) => change('title', event.currentTarget.value)}
          error={errors.title}
          data-autofocus
        />
        <Select
          label="Department"
          placeholder={departments.isPending ? 'Loading departments…' : 'No department'}
          data={options}
          value={values.department_id}
          onChange={(value) => change('department_id', value)}
          clearable
          searchable
          nothingFoundMessage="No department matches."
          error={
            errors.department_id ??
            (departments.isError ? messageFor(departments.error, 'The departments could not be loaded.') : undefined)
          }
          comboboxProps={{ withinPortal: true }}
        />
        <NumberInput
          label="Review interval (months)"
          description="How often the policy is reviewed."
          min={1}
          max={60}
          allowDecimal={false}
          allowNegative={false}
          value={values.review_interval_months}
          onChange={(value) => change('review_interval_months', value)}
          error={errors.review_interval_months}
        />
        <TextInput
          type="date"
          label="Next review date"
          description="Leave empty to have no review date."
          value={values.next_review_on}
          onChange={(event) => change('next_review_on', event.currentTarget.value)}
          error={errors.next_review_on}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={update.isPending}>
            Save settings
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
