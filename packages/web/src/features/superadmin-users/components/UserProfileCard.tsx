import { Button, Group, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { type GlobalRole, superUserUpdateSchema } from '@portal/shared';
import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { ConfirmActionModal } from '../../../components/ConfirmActionModal';
import { messageFor } from '../../../lib/api';
import { type FieldErrors, schemaFieldErrors, serverFieldErrors } from '../../../lib/field-errors';
import type { SuperUserDetail } from '../api/get-user';
import { type SuperUserUpdateBody, useUpdateUser } from '../api/update-user';
import { GlobalRoleField } from './NewUserModal';
import { UserCard } from './UserCard';
import { fullName } from './user-display';

interface Profile {
  email: string;
  username: string;
  first_name: string;
  last_name: string;
  role: GlobalRole;
}
type Field = keyof Profile;
const FIELDS: readonly Field[] = ['email', 'username', 'first_name', 'last_name', 'role'];

/** The text fields of the profile, in the order of the form. */
const TEXT_FIELDS: readonly { field: Exclude<Field, 'role'>; label: string; maxLength: number; type?: 'email' }[] = [
  { field: 'email', label: 'Email', maxLength: 254, type: 'email' },
  { field: 'username', label: 'Username', maxLength: 50 },
  { field: 'first_name', label: 'First name', maxLength: 100 },
  { field: 'last_name', label: 'Last name', maxLength: 100 },
];

const fromUser = ({ email, username, first_name, last_name, role }: SuperUserDetail): Profile => ({
  email,
  username,
  first_name,
  last_name,
  role,
});

/** Email, username, name and global role: PATCH /super/users/{id} with the fields that changed. */
export function UserProfileCard({ user }: { user: SuperUserDetail }) {
  const update = useUpdateUser(user.id);
  const [draft, setDraft] = useState<Partial<Profile>>({});
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [pendingBody, setPendingBody] = useState<SuperUserUpdateBody | null>(null);

  const saved = fromUser(user);
  const values: Profile = { ...saved, ...draft };
  const changed = FIELDS.filter((field) => values[field] !== saved[field]);

  const set = <K extends Field>(field: K, value: Profile[K]) => {
    setDraft((previous) => ({ ...previous, [field]: value }));
    if (errors[field]) setErrors((previous) => ({ ...previous, [field]: undefined }));
  };

  async function save(body: SuperUserUpdateBody) {
    try {
      await update.mutateAsync(body);
      setDraft({});
      toast.success('Profile saved.');
    } catch (error) {
      const fields = serverFieldErrors(error, FIELDS);
      setErrors(fields);
      if (Object.keys(fields).length === 0) {
        // e.g. 409: a superadmin cannot demote their own account.
        toast.error(messageFor(error, 'The profile could not be saved. Please try again.'));
      }
    }
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (update.isPending) return;
    if (changed.length === 0) {
      toast.info('There are no changes to save.');
      return;
    }
    const parsed = superUserUpdateSchema.safeParse(Object.fromEntries(changed.map((field) => [field, values[field]])));
    if (!parsed.success) {
      setErrors(schemaFieldErrors<Field>(parsed.error));
      return;
    }
    setErrors({});
    // A change of global role is confirmed first: it grants or takes away the whole console.
    if (parsed.data.role !== undefined) setPendingBody(parsed.data);
    else void save(parsed.data);
  }

  const name = fullName(user);
  const promoting = pendingBody?.role === 'superadmin';

  return (
    <UserCard title="Profile" id="user-profile">
      <form onSubmit={submit} noValidate aria-labelledby="user-profile">
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            {TEXT_FIELDS.map(({ field, label, maxLength, type }) => (
              <TextInput
                key={field}
                label={label}
                type={type}
                required
                autoComplete="off"
                maxLength={maxLength}
                value={values[field]}
                onChange={(event) => set(field, event.currentTarget.value)}
                error={errors[field]}
              />
            ))}
          </SimpleGrid>
          <GlobalRoleField value={values.role} onChange={(role) => set('role', role)} error={errors.role} />
          <Group gap="sm">
            <Button type="submit" loading={update.isPending}>
              Save profile
            </Button>
            {changed.length > 0 && (
              <Button
                variant="default"
                disabled={update.isPending}
                onClick={() => {
                  setDraft({});
                  setErrors({});
                }}
              >
                Discard changes
              </Button>
            )}
          </Group>
        </Stack>
      </form>
      <ConfirmActionModal
        opened={pendingBody !== null}
        title={promoting ? 'Make this user a superadmin?' : 'Remove superadmin access?'}
        message={
          promoting
            ? `${name} will be able to see and change every project, user and setting of the portal.`
            : `${name} will lose access to the superadmin console and keep only their project memberships.`
        }
        confirmLabel={promoting ? 'Make superadmin' : 'Remove superadmin access'}
        danger
        onCancel={() => setPendingBody(null)}
        onConfirm={() => {
          const body = pendingBody;
          setPendingBody(null);
          if (body) void save(body);
        }}
      />
    </UserCard>
  );
}
