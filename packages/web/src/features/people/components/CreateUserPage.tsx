import { zodResolver } from '@hookform/resolvers/zod';
import {
  Anchor,
  Badge,
  Button,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { APP_USER_REQUEST_JUSTIFICATION_MAX, type AppUserRequestCreate, PEOPLE_CONTRACTS } from '@portal/shared';
import { type ReactNode, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { toast } from 'sonner';
import type { z } from 'zod';
import { ScrollTable } from '../../../components/form-parts/ScrollTable';
import { FailureAlert, LoadingRows, PageHeading, QueryFailure } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';
import { formatDateTime } from '../../../lib/dates';
import { serverFieldErrors } from '../../../lib/field-errors';
import { MAIN_ROLE_DESCRIPTIONS, roleLabel } from '../../../lib/role-labels';
import { usePageTitle } from '../../../lib/use-page-title';
import { type UserRequest, useCreateUserRequest, useUserRequests } from '../api/user-requests';
import { type PeopleScreens, screenRoute } from '../apps';
import { usePeopleProjectId } from './use-people-project';

const TITLE = 'Request a new user';
export const REQUEST_SENT = 'Request sent to the superadmins.';
export const NO_REQUESTS = 'No requests yet.';

type Input = AppUserRequestCreate;
type Output = z.output<(typeof PEOPLE_CONTRACTS)['policy_management' | 'monitoring']['userRequestCreate']>;
const FIELDS = ['first_name', 'last_name', 'email', 'main_role', 'justification'] as const;
const EMPTY: Partial<Input> = { first_name: '', last_name: '', email: '', main_role: undefined, justification: '' };

/**
 * The new-user request screen of an app (/app/policy_management/{projectId}/create-project-user,
 * /app/monitoring/{projectId}/create-user): an app administrator asks the superadmins for an account for someone
 * who will take part in the app, and follows the requests filed so far.
 */
export function CreateUserPage({ d }: { d: PeopleScreens }) {
  usePageTitle(TITLE);
  const projectId = usePeopleProjectId(d);
  return (
    <Stack key={projectId} gap="lg" w="100%" maw={1100}>
      <PageHeading title={TITLE}>
        Only a superadmin can create an account. Send a request: a superadmin creates the account and the person
        receives an invitation email to set a password. After that they appear among the {d.names.users} with the main
        role you chose.
      </PageHeading>
      <RequestForm d={d} projectId={projectId} />
      <RequestList d={d} projectId={projectId} />
    </Stack>
  );
}

function RequestForm({ d, projectId }: { d: PeopleScreens; projectId: string }) {
  const create = useCreateUserRequest(d.app, projectId);
  const [failure, setFailure] = useState<string | null>(null);
  const descriptions: Record<string, string> = MAIN_ROLE_DESCRIPTIONS[d.app];
  const roleOptions = Object.keys(descriptions).map((role) => ({ value: role, label: roleLabel(role) }));
  const describe = (role: string | undefined | null) =>
    (role && descriptions[role]) || `What the person may do in ${d.names.app}.`;
  const {
    register,
    control,
    handleSubmit,
    reset,
    setError,
    setFocus,
    watch,
    formState: { errors },
  } = useForm<Input, unknown, Output>({
    resolver: zodResolver(PEOPLE_CONTRACTS[d.app].userRequestCreate),
    defaultValues: EMPTY,
  });
  const justification = watch('justification') ?? '';
  const role = watch('main_role');

  const submit = handleSubmit(async (values) => {
    if (create.isPending) return;
    setFailure(null);
    try {
      await create.mutateAsync(values);
      toast.success(REQUEST_SENT);
      reset(EMPTY);
      setFocus('first_name');
    } catch (error) {
      const fields = serverFieldErrors(error, FIELDS);
      for (const field of FIELDS) {
        const message = fields[field];
        if (message) setError(field, { type: 'server', message });
      }
      if (Object.keys(fields).length === 0) {
        setFailure(messageFor(error, 'The request could not be sent. Please try again.'));
      }
    }
  });

  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby="request-heading">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="md">
          <Stack gap={2}>
            <Title order={2} fz="h4" id="request-heading">
              New account
            </Title>
            <Text size="sm" c="dimmed">
              Already a member of the project?{' '}
              <Anchor component={Link} to={screenRoute(d, projectId, d.users[0])} underline="always">
                {`Add them under ${d.names.title}`}
              </Anchor>{' '}
              instead.
            </Text>
          </Stack>
          <FailureAlert message={failure} onClose={() => setFailure(null)} />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <TextInput
              label="First name"
              required
              autoComplete="off"
              maxLength={100}
              error={errors.first_name?.message}
              {...register('first_name')}
            />
            <TextInput
              label="Last name"
              required
              autoComplete="off"
              maxLength={100}
              error={errors.last_name?.message}
              {...register('last_name')}
            />
          </SimpleGrid>
          <TextInput
            label="Email"
            type="email"
            required
            autoComplete="off"
            description="The invitation goes to this address."
            error={errors.email?.message}
            {...register('email')}
          />
          <Controller
            control={control}
            name="main_role"
            render={({ field }) => (
              <Select
                ref={field.ref}
                name={field.name}
                label="Main role"
                required
                placeholder="Choose a main role"
                data={roleOptions}
                value={field.value ?? null}
                onChange={(value) => field.onChange(value ?? undefined)}
                onBlur={field.onBlur}
                allowDeselect={false}
                description={describe(role)}
                error={errors.main_role?.message}
                renderOption={({ option }) => (
                  <Stack gap={0}>
                    <Text size="sm">{option.label}</Text>
                    <Text size="xs" c="dimmed">
                      {describe(option.value)}
                    </Text>
                  </Stack>
                )}
              />
            )}
          />
          <Textarea
            label="Justification"
            required
            rows={4}
            resize="vertical"
            error={errors.justification?.message}
            description={<CharacterCounter value={justification} max={APP_USER_REQUEST_JUSTIFICATION_MAX} />}
            inputWrapperOrder={['label', 'input', 'description', 'error']}
            {...register('justification')}
          />
          <Button type="submit" loading={create.isPending} w="fit-content">
            Send request
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}

/** '12 / 2,000 characters', red once the text is too long (surrounding spaces are not counted). */
function CharacterCounter({ value, max }: { value: string; max: number }) {
  const length = value.trim().length;
  const over = length > max;
  return (
    <Text component="span" size="xs" c={over ? 'red.8' : 'dimmed'} fw={over ? 700 : undefined} aria-live="polite">
      {`${length.toLocaleString('en-US')} / ${max.toLocaleString('en-US')} characters`}
    </Text>
  );
}

const STATUS: Record<UserRequest['status'], { label: string; color: string }> = {
  pending: { label: 'Pending', color: 'orange.9' },
  approved: { label: 'Approved', color: 'green.9' },
  rejected: { label: 'Rejected', color: 'red.8' },
};

function RequestList({ d, projectId }: { d: PeopleScreens; projectId: string }) {
  const requests = useUserRequests(d.app, projectId);
  let body: ReactNode;
  if (requests.isPending) {
    body = <LoadingRows label="Loading the requests" rows={3} />;
  } else if (requests.isError) {
    body = <QueryFailure query={requests} fallback="The requests could not be loaded. Please try again." />;
  } else if (requests.data.length === 0) {
    body = <Text>{NO_REQUESTS}</Text>;
  } else {
    body = (
      <ScrollTable
        minWidth={900}
        verticalSpacing="sm"
        aria-labelledby="requests-heading"
        columns={['Name', 'Email', 'Main role', 'Status', 'Requested by', 'Date', 'Rejection reason']}
      >
        {requests.data.map((request) => (
          <Table.Tr key={request.id} data-request-id={request.id}>
            <Table.Td>{`${request.first_name} ${request.last_name}`}</Table.Td>
            <Table.Td style={{ overflowWrap: 'anywhere' }}>{request.email}</Table.Td>
            <Table.Td>{roleLabel(request.main_roles[d.app])}</Table.Td>
            <Table.Td>
              <Badge variant="light" color={STATUS[request.status].color} tt="none">
                {STATUS[request.status].label}
              </Badge>
            </Table.Td>
            <Table.Td>{request.requested_by?.name ?? '—'}</Table.Td>
            <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(request.created_at)}</Table.Td>
            <Table.Td style={{ overflowWrap: 'anywhere' }}>{request.rejection_reason ?? '—'}</Table.Td>
          </Table.Tr>
        ))}
      </ScrollTable>
    );
  }
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby="requests-heading">
      <Stack gap="md">
        <Title order={2} fz="h4" id="requests-heading">
          Requests
        </Title>
        {body}
      </Stack>
    </Paper>
  );
}
