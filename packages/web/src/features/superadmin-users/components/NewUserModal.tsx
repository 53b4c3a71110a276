import { Alert, Button, Group, Modal, Radio, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { type GlobalRole, INVITATION_TTL_DAYS, superUserCreateSchema } from '@portal/shared';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { ErrorNotice } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';
import { type FieldErrors, schemaFieldErrors, serverFieldErrors } from '../../../lib/field-errors';
import { useCreateUser } from '../api/create-user';
import { type MembershipDraft, MembershipsEditor, membershipBody } from './MembershipsEditor';
import { SUPERADMIN_WARNING } from './user-display';

type Field = 'email' | 'username' | 'first_name' | 'last_name' | 'role' | 'memberships';
const FIELDS: readonly Field[] = ['email', 'username', 'first_name', 'last_name', 'role', 'memberships'];

interface NewUserModalProps {
  opened: boolean;
  onClose: () => void;
}

/** "New user": creates the account and emails the invitation, then opens the new user's page. */
export function NewUserModal({ opened, onClose }: NewUserModalProps) {
  // A long form: a phone gets the whole screen for it.
  const phone = useMediaQuery('(max-width: 36em)');
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="New user"
      size="xl"
      fullScreen={phone}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {opened && <NewUserForm onClose={onClose} />}
    </Modal>
  );
}

function NewUserForm({ onClose }: { onClose: () => void }) {
  const create = useCreateUser();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [username, setUsername] = useState('');
  const [firstName, setFirstName] = useState('');
  const [lastName, setLastName] = useState('');
  const [role, setRole] = useState<GlobalRole>('user');
  const [memberships, setMemberships] = useState<MembershipDraft[]>([]);
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [failure, setFailure] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (create.isPending) return;
    setFailure(null);
    const parsed = superUserCreateSchema.safeParse({
      email,
      username,
      first_name: firstName,
      last_name: lastName,
      role,
      memberships: memberships.map(membershipBody),
    });
    if (!parsed.success) {
      setErrors(schemaFieldErrors<Field>(parsed.error));
      return;
    }
    setErrors({});
    try {
      const user = await create.mutateAsync(parsed.data);
      toast.success(`Invitation sent to ${user.email}`);
      onClose();
      navigate(`/superadmin/users/${user.id}`);
    } catch (error) {
      const fields = serverFieldErrors(error, FIELDS);
      setErrors(fields);
      if (Object.keys(fields).length === 0) {
        setFailure(messageFor(error, 'The user could not be created. Please try again.'));
      }
    }
  }

  return (
    <form onSubmit={submit} noValidate aria-label="New user">
      <Stack gap="md">
        <Text size="sm">
          The new user gets an email with a link to choose a password. The link works for {INVITATION_TTL_DAYS} days.
        </Text>
        <ErrorNotice message={failure} />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <TextInput
            label="Email"
            type="email"
            required
            autoComplete="off"
            maxLength={254}
            value={email}
            onChange={(event) => setEmail(event.currentTarget.value)}
            error={errors.email}
            data-autofocus
          />
          <TextInput
            label="Username"
            required
            autoComplete="off"
            maxLength={50}
            description="3 to 50 letters, digits, dots, hyphens or underscores."
            value={username}
            onChange={(event) => setUsername(event.currentTarget.value)}
            error={errors.username}
          />
          <TextInput
            label="First name"
            required
            autoComplete="off"
            maxLength={100}
            value={firstName}
            onChange={(event) => setFirstName(event.currentTarget.value)}
            error={errors.first_name}
          />
          <TextInput
            label="Last name"
            required
            autoComplete="off"
            maxLength={100}
            value={lastName}
            onChange={(event) => setLastName(event.currentTarget.value)}
            error={errors.last_name}
          />
        </SimpleGrid>
        <GlobalRoleField value={role} onChange={setRole} error={errors.role} />
        <Stack gap="xs">
          <Title order={3} fz="h5">
            Project memberships (optional)
          </Title>
          {errors.memberships && (
            <Text c="red.8" size="sm" role="alert">
              {errors.memberships}
            </Text>
          )}
          <MembershipsEditor
            value={memberships}
            onChange={setMemberships}
            disabled={create.isPending}
            emptyText="No projects yet: the user can be added to projects now or later."
          />
        </Stack>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={create.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending}>
            Create and send invitation
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

interface GlobalRoleFieldProps {
  value: GlobalRole;
  onChange: (role: GlobalRole) => void;
  error?: string;
  disabled?: boolean;
}

/** User or superadmin, with a warning while superadmin is picked. */
export function GlobalRoleField({ value, onChange, error, disabled }: GlobalRoleFieldProps) {
  return (
    <Stack gap="xs">
      <Radio.Group
        label="Global role"
        value={value}
        onChange={(next) => onChange(next === 'superadmin' ? 'superadmin' : 'user')}
        error={error}
      >
        <Group gap="lg" mt={6}>
          <Radio value="user" label="User" description="Works in the projects they belong to." disabled={disabled} />
          <Radio value="superadmin" label="Superadmin" description="Runs the whole portal." disabled={disabled} />
        </Group>
      </Radio.Group>
      {value === 'superadmin' && (
        <Alert color="orange.9" variant="light" data-testid="superadmin-warning">
          <Text size="sm" fw={600}>
            Superadmin access
          </Text>
          <Text size="sm">{SUPERADMIN_WARNING}</Text>
        </Alert>
      )}
    </Stack>
  );
}
