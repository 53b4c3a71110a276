import {
  Button,
  EmptyState,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { isProjectId, type MainRoles, PERMISSION_APPS, userRequestCreateSchema } from '@portal/shared';
import { type FormEvent, type ReactNode, useRef, useState } from 'react';
import { useParams } from 'react-router';
import { toast } from 'sonner';
import { MemberRoleFields, type MemberRoles } from '../../../components/MemberRoleFields';
import { NotFoundPage } from '../../../components/NotFoundPage';
import { ErrorNotice, QueryFailure } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';
import { formatDate } from '../../../lib/dates';
import { type FieldErrors, schemaFieldErrors, serverFieldErrors } from '../../../lib/field-errors';
import { usePageTitle } from '../../../lib/use-page-title';
import { useCreateUserRequest } from '../api/create-user-request';
import { type UserRequest, useUserRequests } from '../api/get-user-requests';
import { RequestStatusBadge } from './AdminBadges';
import { AdminPageHeader, AdminSection } from './AdminPageHeader';
import { CharacterCounter } from './CharacterCounter';
import { RequestPersonCells } from './RequestPersonCells';

export const REQUEST_SENT = 'Request sent to the administrators';
const JUSTIFICATION_MAX = userRequestCreateSchema.shape.justification.maxLength ?? 2000;

const FIELDS = [
  'first_name',
  'last_name',
  'email',
  'project_role',
  'main_roles',
  'justification',
  ...PERMISSION_APPS.map((app) => `main_roles.${app}` as const),
] as const;
type Field = (typeof FIELDS)[number];

interface Draft {
  first_name: string;
  last_name: string;
  email: string;
  roles: MemberRoles;
  justification: string;
}

const EMPTY: Draft = {
  first_name: '',
  last_name: '',
  email: '',
  roles: { project_role: 'simple', main_roles: {} },
  justification: '',
};

/** /app/admin/{projectId}/new-user-request: ask the superadmins for an account, and follow earlier requests. */
export function NewUserRequestPage() {
  usePageTitle('Request New User');
  const { projectId = '' } = useParams();
  if (!isProjectId(projectId)) return <NotFoundPage />;
  return (
    <Stack key={projectId} gap="lg" w="100%" maw={1100}>
      <AdminPageHeader projectId={projectId} title="Request New User" />
      <RequestForm projectId={projectId} />
      <RequestList projectId={projectId} />
    </Stack>
  );
}

/** Only the apps given a role are asked for. */
function chosenApps(mainRoles: MainRoles): MainRoles {
  return Object.fromEntries(PERMISSION_APPS.filter((app) => mainRoles[app]).map((app) => [app, mainRoles[app]]));
}

function RequestForm({ projectId }: { projectId: string }) {
  const create = useCreateUserRequest(projectId);
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const firstInput = useRef<HTMLInputElement>(null);

  function set<K extends keyof Draft>(key: K, value: Draft[K]) {
    setDraft((previous) => ({ ...previous, [key]: value }));
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (create.isPending) return;
    setFailure(null);
    const parsed = userRequestCreateSchema.safeParse({
      first_name: draft.first_name,
      last_name: draft.last_name,
      email: draft.email,
      project_role: draft.roles.project_role,
      main_roles: chosenApps(draft.roles.main_roles),
      justification: draft.justification,
    });
    if (!parsed.success) {
      setErrors(schemaFieldErrors<Field>(parsed.error));
      return;
    }
    setErrors({});
    try {
      await create.mutateAsync(parsed.data);
      toast.success(REQUEST_SENT);
      setDraft(EMPTY);
      firstInput.current?.focus();
    } catch (error) {
      const fields = serverFieldErrors(error, FIELDS);
      setErrors(fields);
      if (Object.keys(fields).length === 0) {
        setFailure(messageFor(error, 'The request could not be sent. Please try again.'));
      }
    }
  }

  const roleErrors: Partial<Record<string, string>> = {
    project_role: errors.project_role,
    ...Object.fromEntries(PERMISSION_APPS.map((app) => [`main_roles.${app}`, errors[`main_roles.${app}`]])),
  };

  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }}>
      <form onSubmit={submit} noValidate aria-labelledby="request-heading">
        <Stack gap="md">
          <Stack gap={2}>
            <Title order={2} fz="h4" id="request-heading">
              New account
            </Title>
            <Text size="sm" c="dimmed">
              A superadmin reviews the request, creates the account and emails the person an invitation to set a
              password. Follow the decision under "Your requests".
            </Text>
          </Stack>
          <ErrorNotice message={failure} />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <TextInput
              ref={firstInput}
              label="First name"
              name="first_name"
              required
              autoComplete="off"
              value={draft.first_name}
              onChange={(event) => set('first_name', event.currentTarget.value)}
              error={errors.first_name}
            />
            <TextInput
              label="Last name"
              name="last_name"
              required
              autoComplete="off"
              value={draft.last_name}
              onChange={(event) => set('last_name', event.currentTarget.value)}
              error={errors.last_name}
            />
          </SimpleGrid>
          <TextInput
            label="Email"
            name="email"
            type="email"
            required
            autoComplete="off"
            description="The invitation goes to this address."
            value={draft.email}
            onChange={(event) => set('email', event.currentTarget.value)}
            error={errors.email}
          />
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              Access
            </Text>
            <Text size="xs" c="dimmed">
              Pick a main role in each app the person needs; leave "No role" for the apps they do not.
            </Text>
          </Stack>
          <MemberRoleFields
            value={draft.roles}
            onChange={(roles) => set('roles', roles)}
            disabled={create.isPending}
            errors={roleErrors}
          />
          {errors.main_roles && (
            <Text size="sm" c="red.8" role="alert">
              {errors.main_roles}
            </Text>
          )}
          <Textarea
            label="Justification"
            name="justification"
            required
            rows={5}
            resize="vertical"
            value={draft.justification}
            onChange={(event) => set('justification', event.currentTarget.value)}
            error={errors.justification}
            description={<CharacterCounter value={draft.justification} max={JUSTIFICATION_MAX} />}
            inputWrapperOrder={['label', 'input', 'description', 'error']}
          />
          <Button type="submit" loading={create.isPending} w="fit-content">
            Send request
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}

function RequestList({ projectId }: { projectId: string }) {
  const requests = useUserRequests(projectId);

  let body: ReactNode;
  if (requests.isPending) {
    body = (
      <Stack gap="xs" role="status" aria-label="Loading your requests">
        {[0, 1, 2].map((index) => (
          <Skeleton key={index} height={44} radius="sm" />
        ))}
      </Stack>
    );
  } else if (requests.isError) {
    body = <QueryFailure query={requests} fallback="Your requests could not be loaded. Please try again." />;
  } else if (requests.data.length === 0) {
    body = (
      <EmptyState
        size="sm"
        title="No requests yet"
        description="Requests you send appear here with the administrators' decision."
      />
    );
  } else {
    body = (
      <Table.ScrollContainer minWidth={860} type="native">
        <Table verticalSpacing="sm" aria-labelledby="requests-heading" data-testid="requests-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Name</Table.Th>
              <Table.Th scope="col">Email</Table.Th>
              <Table.Th scope="col">Requested role</Table.Th>
              <Table.Th scope="col">Status</Table.Th>
              <Table.Th scope="col">Filed</Table.Th>
              <Table.Th scope="col">Decided</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {requests.data.map((request) => (
              <RequestRow key={request.id} request={request} />
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );
  }

  return (
    <AdminSection id="requests-heading" title="Your requests">
      {body}
    </AdminSection>
  );
}

function RequestRow({ request }: { request: UserRequest }) {
  return (
    <Table.Tr data-request-id={request.id}>
      <RequestPersonCells request={request} />
      <Table.Td>
        <RequestStatusBadge status={request.status} />
        {request.status === 'rejected' && request.rejection_reason && (
          <Text size="xs" c="red.8" mt={4} style={{ overflowWrap: 'anywhere' }}>
            Reason: {request.rejection_reason}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <Text size="sm">{formatDate(request.created_at)}</Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm" c={request.decided_at ? undefined : 'dimmed'}>
          {request.decided_at ? formatDate(request.decided_at) : 'Not yet'}
        </Text>
        {request.decided_by && (
          <Text size="xs" c="dimmed">
            by {request.decided_by.name}
          </Text>
        )}
      </Table.Td>
    </Table.Tr>
  );
}
