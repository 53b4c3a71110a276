import { Button, Group, Stack } from '@mantine/core';
import { projectDetailsFields, type SuperProjectUpdate, slugSchema } from '@portal/shared';
import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { z } from 'zod';
import { FacilityDetailsFields } from '../../../components/FacilityDetailsFields';
import { ErrorNotice } from '../../../components/page-parts';
import { ApiError, messageFor } from '../../../lib/api';
import { type FieldErrors, schemaFieldErrors, serverFieldErrors } from '../../../lib/field-errors';
import type { SuperProjectDetail } from '../api/get-project';
import { useUpdateSuperProject } from '../api/update-project';
import { NameSlugFields, SectionCard } from './parts';
import { NO_CHANGES, withEmailMessage } from './project-helpers';

const FIELDS = ['name', 'slug', 'facility_name', 'address', 'phone', 'email'] as const;
type Field = (typeof FIELDS)[number];
type Form = Record<Field, string>;

const detailsSchema = z.object({ ...projectDetailsFields, slug: slugSchema });

function formOf(project: SuperProjectDetail): Form {
  return {
    name: project.name,
    slug: project.slug,
    facility_name: project.facility_name,
    address: project.address,
    phone: project.phone,
    email: project.email,
  };
}

/** Name, slug and the facility's contact details: only the fields changed are sent. */
export function ProjectDetailsCard({ project }: { project: SuperProjectDetail }) {
  const update = useUpdateSuperProject(String(project.id));
  const saved = formOf(project);
  const [form, setForm] = useState<Form>(saved);
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const dirty = FIELDS.some((field) => form[field] !== saved[field]);

  function set(field: Field, value: string) {
    setForm((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  }

  function discard() {
    setForm(saved);
    setErrors({});
    setFailure(null);
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (update.isPending) return;
    setFailure(null);
    const parsed = detailsSchema.safeParse(form);
    if (!parsed.success) {
      setErrors(withEmailMessage(schemaFieldErrors<Field>(parsed.error), form.email));
      return;
    }
    setErrors({});
    const changes: SuperProjectUpdate = {};
    for (const field of FIELDS) {
      if (parsed.data[field] !== project[field]) changes[field] = parsed.data[field];
    }
    if (Object.keys(changes).length === 0) {
      // Only spaces or letter case differed: show the values as they are stored.
      setForm(saved);
      toast.info(NO_CHANGES);
      return;
    }
    try {
      await update.mutateAsync(changes);
      toast.success('Project details saved.');
      // The card mounts again with the saved values (its key follows them).
    } catch (error) {
      const fields = serverFieldErrors(error, FIELDS);
      if (error instanceof ApiError && error.status === 409 && Object.keys(fields).length === 0 && changes.slug) {
        fields.slug = error.message;
      }
      if (Object.keys(fields).length > 0) setErrors(fields);
      else setFailure(messageFor(error, 'The details could not be saved. Please try again.'));
    }
  }

  return (
    <SectionCard title="Details" description="The project's name and address, and the facility members contact.">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <ErrorNotice message={failure} />
          <NameSlugFields
            name={form.name}
            slug={form.slug}
            errors={errors}
            onName={(name) => set('name', name)}
            onSlug={(slug) => set('slug', slug)}
          />
          <FacilityDetailsFields value={form} onChange={set} errors={errors} />
          <Group justify="flex-end" gap="sm">
            {dirty && (
              <Button variant="default" onClick={discard} disabled={update.isPending}>
                Discard changes
              </Button>
            )}
            <Button type="submit" loading={update.isPending}>
              Save details
            </Button>
          </Group>
        </Stack>
      </form>
    </SectionCard>
  );
}
