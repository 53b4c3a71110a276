import { Button, Checkbox, Group, Modal, SimpleGrid, Stack } from '@mantine/core';
import { type AppCode, superProjectCreateSchema } from '@portal/shared';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { FacilityDetailsFields } from '../../../components/FacilityDetailsFields';
import { ErrorNotice } from '../../../components/page-parts';
import { ApiError, messageFor } from '../../../lib/api';
import { type FieldErrors, schemaFieldErrors, serverFieldErrors } from '../../../lib/field-errors';
import { useCreateSuperProject } from '../api/create-project';
import { NameSlugFields } from './parts';
import { APP_OPTIONS, suggestSlug, withEmailMessage } from './project-helpers';

const FIELDS = ['name', 'slug', 'facility_name', 'address', 'phone', 'email', 'active_apps'] as const;
type Field = (typeof FIELDS)[number];

interface Form {
  name: string;
  slug: string;
  facility_name: string;
  address: string;
  phone: string;
  email: string;
  active_apps: AppCode[];
}

const EMPTY: Form = { name: '', slug: '', facility_name: '', address: '', phone: '', email: '', active_apps: [] };

interface NewProjectModalProps {
  opened: boolean;
  onClose: () => void;
}

/** "New project": creates the project and opens its page. */
export function NewProjectModal({ opened, onClose }: NewProjectModalProps) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="New project"
      centered
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {/* Mounted only while open: each opening starts with an empty form. */}
      {opened && <NewProjectForm onClose={onClose} />}
    </Modal>
  );
}

function NewProjectForm({ onClose }: { onClose: () => void }) {
  const create = useCreateSuperProject();
  const navigate = useNavigate();
  const [form, setForm] = useState<Form>(EMPTY);
  // The slug follows the name until someone types their own (emptying it lets it follow again).
  const [slugEdited, setSlugEdited] = useState(false);
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [failure, setFailure] = useState<string | null>(null);

  function set<K extends keyof Form>(field: K, value: Form[K]) {
    setForm((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  }

  function changeName(name: string) {
    setForm((current) => ({ ...current, name, slug: slugEdited ? current.slug : suggestSlug(name) }));
    setErrors((current) => ({ ...current, name: undefined, slug: slugEdited ? current.slug : undefined }));
  }

  function changeSlug(slug: string) {
    setSlugEdited(slug !== '');
    set('slug', slug);
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (create.isPending) return;
    setFailure(null);
    const parsed = superProjectCreateSchema.safeParse(form);
    if (!parsed.success) {
      setErrors(withEmailMessage(schemaFieldErrors<Field>(parsed.error), form.email));
      return;
    }
    setErrors({});
    try {
      const project = await create.mutateAsync(parsed.data);
      toast.success(`Project "${project.name}" created.`);
      onClose();
      void navigate(`/superadmin/projects/${project.id}`);
    } catch (error) {
      const fields = serverFieldErrors(error, FIELDS);
      if (error instanceof ApiError && error.status === 409 && !fields.slug) {
        fields.slug = error.message || 'This slug is already taken. Choose another.';
      }
      if (Object.keys(fields).length > 0) setErrors(fields);
      else setFailure(messageFor(error, 'The project could not be created. Please try again.'));
    }
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <ErrorNotice message={failure} />
        <NameSlugFields
          name={form.name}
          slug={form.slug}
          errors={errors}
          onName={changeName}
          onSlug={changeSlug}
          autoFocus
        />
        <FacilityDetailsFields value={form} onChange={set} errors={errors} />
        <Checkbox.Group
          label="Active apps"
          description="Members see only the apps that are active. You can change this later."
          value={form.active_apps}
          onChange={(apps) => set('active_apps', apps as AppCode[])}
          error={errors.active_apps}
        >
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" mt="xs">
            {APP_OPTIONS.map((app) => (
              <Checkbox key={app.value} value={app.value} label={app.label} />
            ))}
          </SimpleGrid>
        </Checkbox.Group>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={create.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending}>
            Create project
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
