import {
  Box,
  Button,
  Center,
  FileButton,
  Grid,
  Group,
  Image,
  Paper,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import {
  emailSchema,
  isProjectId,
  LOGO_MAX_BYTES,
  LOGO_TYPES,
  logoUploadSchema,
  projectDetailsFields,
} from '@portal/shared';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useParams } from 'react-router';
import { toast } from 'sonner';
import { z } from 'zod';
import { AppBadge } from '../../../components/AppBadge';
import { ConfirmActionModal } from '../../../components/ConfirmActionModal';
import { FacilityDetailsFields } from '../../../components/FacilityDetailsFields';
import { NotFoundPage } from '../../../components/NotFoundPage';
import { ErrorNotice, QueryFailure } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';
import { type FieldErrors, schemaFieldErrors, serverFieldErrors } from '../../../lib/field-errors';
import { usePageTitle } from '../../../lib/use-page-title';
import { type ProjectDetails, useProjectDetails } from '../api/get-project-details';
import { useRemoveLogo } from '../api/remove-logo';
import { type ProjectDetailsUpdate, useUpdateProjectDetails } from '../api/update-project-details';
import { useUploadLogo } from '../api/upload-logo';
import { AdminPageHeader, AdminSection } from './AdminPageHeader';
import { readFileAsBase64 } from './read-file';

export const ACTIVE_APPS_NOTE = 'Active apps are set by a superadmin.';
export const LOGO_TYPE_ERROR = 'The logo must be a PNG, JPEG or WebP image.';
export const LOGO_SIZE_ERROR = 'The logo must be at most 512 KB.';

const FIELDS = ['name', 'facility_name', 'address', 'phone', 'email'] as const;
type Field = (typeof FIELDS)[number];
type Values = Record<Field, string>;
const detailsSchema = z.object(projectDetailsFields);

/** /app/admin/{projectId}/project-details-edit: the project's name, facility details, contact email and logo. */
export function ProjectDetailsEditPage() {
  usePageTitle('Project Details');
  const { projectId = '' } = useParams();
  if (!isProjectId(projectId)) return <NotFoundPage />;
  return <DetailsScreen key={projectId} projectId={projectId} />;
}

function DetailsScreen({ projectId }: { projectId: string }) {
  const details = useProjectDetails(projectId);

  let body: ReactNode;
  if (details.isPending) {
    body = (
      <Grid gap="lg" role="status" aria-label="Loading the project details">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Skeleton height={440} radius="md" />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack gap="lg">
            <Skeleton height={220} radius="md" />
            <Skeleton height={120} radius="md" />
          </Stack>
        </Grid.Col>
      </Grid>
    );
  } else if (details.isError) {
    body = <QueryFailure query={details} fallback="The project details could not be loaded. Please try again." />;
  } else {
    body = (
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <DetailsForm key={details.data.id} projectId={projectId} details={details.data} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack gap="lg">
            <LogoCard projectId={projectId} details={details.data} />
            <ActiveAppsCard details={details.data} />
          </Stack>
        </Grid.Col>
      </Grid>
    );
  }

  return (
    <Stack gap="lg" w="100%" maw={1100}>
      <AdminPageHeader projectId={projectId} title="Project Details" />
      {body}
    </Stack>
  );
}

function valuesOf(details: ProjectDetails): Values {
  return {
    name: details.name,
    facility_name: details.facility_name,
    address: details.address,
    phone: details.phone,
    email: details.email,
  };
}

function DetailsForm({ projectId, details }: { projectId: string; details: ProjectDetails }) {
  const update = useUpdateProjectDetails(projectId);
  const [values, setValues] = useState<Values>(() => valuesOf(details));
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const saved = valuesOf(details);
  const changed = FIELDS.filter((field) => values[field].trim() !== saved[field].trim());

  function set(field: Field, value: string) {
    setValues((previous) => ({ ...previous, [field]: value }));
    setErrors((previous) => ({ ...previous, [field]: undefined }));
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (update.isPending || changed.length === 0) return;
    setFailure(null);
    const parsed = detailsSchema.safeParse(values);
    if (!parsed.success) {
      const found = schemaFieldErrors<Field>(parsed.error);
      // The email may be left empty; a filled one that fails says why (the union alone only says "Invalid input").
      if (found.email) found.email = emailSchema.safeParse(values.email).error?.issues[0]?.message ?? found.email;
      setErrors(found);
      return;
    }
    setErrors({});
    const body: ProjectDetailsUpdate = Object.fromEntries(changed.map((field) => [field, parsed.data[field]]));
    try {
      const next = await update.mutateAsync(body);
      setValues(valuesOf(next));
      toast.success('Project details saved.');
    } catch (error) {
      const fields = serverFieldErrors(error, FIELDS);
      setErrors(fields);
      if (Object.keys(fields).length === 0) {
        setFailure(messageFor(error, 'The project details could not be saved. Please try again.'));
      }
    }
  }

  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
      <form onSubmit={submit} noValidate aria-labelledby="details-heading">
        <Stack gap="md">
          <Title order={2} fz="h4" id="details-heading">
            Details
          </Title>
          <ErrorNotice message={failure} />
          <TextInput
            label="Name"
            name="name"
            required
            value={values.name}
            onChange={(event) => set('name', event.currentTarget.value)}
            error={errors.name}
            description="Shown to members in the navigation and the project list."
          />
          <FacilityDetailsFields value={values} onChange={set} errors={errors} />
          <Group gap="sm">
            <Button type="submit" loading={update.isPending} disabled={changed.length === 0}>
              Save details
            </Button>
            {changed.length > 0 && !update.isPending && (
              <Button
                variant="subtle"
                onClick={() => {
                  setValues(saved);
                  setErrors({});
                  setFailure(null);
                }}
              >
                Undo changes
              </Button>
            )}
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

/** The logo's address with a version, so the browser shows a replaced logo at once instead of its cached copy. */
function versioned(url: string, version: number): string {
  if (version === 0) return url;
  return `${url}${url.includes('?') ? '&' : '?'}v=${version}`;
}

function LogoCard({ projectId, details }: { projectId: string; details: ProjectDetails }) {
  const upload = useUploadLogo(projectId);
  const remove = useRemoveLogo(projectId);
  const [error, setError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const [confirming, setConfirming] = useState(false);
  const busy = upload.isPending || remove.isPending;

  async function choose(file: File | null) {
    if (!file) return;
    setError(null);
    if (!(LOGO_TYPES as readonly string[]).includes(file.type)) {
      setError(LOGO_TYPE_ERROR);
      return;
    }
    if (file.size > LOGO_MAX_BYTES) {
      setError(LOGO_SIZE_ERROR);
      return;
    }
    try {
      const data = await readFileAsBase64(file);
      const parsed = logoUploadSchema.safeParse({ content_type: file.type, data });
      if (!parsed.success) {
        setError(parsed.error.issues[0]?.message ?? LOGO_TYPE_ERROR);
        return;
      }
      await upload.mutateAsync(parsed.data);
      setVersion(Date.now());
      toast.success('Logo uploaded.');
    } catch (caught) {
      const message = messageFor(caught, 'The logo could not be uploaded. Please try again.');
      setError(serverFieldErrors(caught, ['data', 'content_type'] as const).data ?? message);
    }
  }

  async function removeNow() {
    setConfirming(false);
    setError(null);
    try {
      await remove.mutateAsync();
      toast.success('Logo removed.');
    } catch (caught) {
      toast.error(messageFor(caught, 'The logo could not be removed. Please try again.'));
    }
  }

  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby="logo-heading">
      <Stack gap="md">
        <Title order={2} fz="h4" id="logo-heading">
          Logo
        </Title>
        <Box
          h={120}
          bg="gray.0"
          style={{ borderRadius: 'var(--mantine-radius-md)', border: '1px dashed var(--mantine-color-gray-4)' }}
        >
          {details.logo_url ? (
            <Image
              src={versioned(details.logo_url, version)}
              alt={`${details.name} logo`}
              h={120}
              fit="contain"
              p="sm"
              data-testid="logo"
            />
          ) : (
            <Center h="100%">
              <Text size="sm" c="dimmed">
                No logo yet.
              </Text>
            </Center>
          )}
        </Box>
        <Text size="xs" c="dimmed">
          PNG, JPEG or WebP, up to 512 KB. Shown in the footer of the project's pages.
        </Text>
        {error && (
          <Text size="sm" c="red.8" role="alert" data-testid="logo-error">
            {error}
          </Text>
        )}
        <Group gap="sm">
          <FileButton onChange={(file) => void choose(file)} accept={LOGO_TYPES.join(',')} disabled={busy}>
            {(props) => (
              <Button {...props} variant="default" loading={upload.isPending} disabled={busy && !upload.isPending}>
                {details.logo_url ? 'Replace logo' : 'Upload logo'}
              </Button>
            )}
          </FileButton>
          {details.logo_url && (
            <Button
              variant="subtle"
              color="red.8"
              loading={remove.isPending}
              disabled={busy && !remove.isPending}
              onClick={() => setConfirming(true)}
            >
              Remove logo
            </Button>
          )}
        </Group>
      </Stack>
      <ConfirmActionModal
        opened={confirming}
        title="Remove the logo?"
        message="The logo disappears from the project's pages. You can upload another one at any time."
        confirmLabel="Remove logo"
        danger
        onConfirm={() => void removeNow()}
        onCancel={() => setConfirming(false)}
      />
    </Paper>
  );
}

function ActiveAppsCard({ details }: { details: ProjectDetails }) {
  return (
    <AdminSection id="apps-heading" title="Active apps" gap="sm">
      {details.active_apps.length > 0 ? (
        <Group gap="xs" data-testid="active-apps">
          {details.active_apps.map((app) => (
            <AppBadge key={app} app={app} />
          ))}
        </Group>
      ) : (
        <Text size="sm">No apps are active.</Text>
      )}
      <Text size="sm" c="dimmed">
        {ACTIVE_APPS_NOTE}
      </Text>
    </AdminSection>
  );
}
