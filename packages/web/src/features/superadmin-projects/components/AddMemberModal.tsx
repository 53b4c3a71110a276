import { Alert, Button, Group, Loader, Modal, Select, Stack } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { memberAddSchema } from '@portal/shared';
import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { MemberRoleFields, type MemberRoles } from '../../../components/MemberRoleFields';
import { ApiError, messageFor } from '../../../lib/api';
import { serverFieldErrors } from '../../../lib/field-errors';
import { useAddProjectMember } from '../api/add-member';
import { type SuperUserRow, useUserSearch } from '../api/search-users';
import { NEW_MEMBER_ROLES, ROLE_FIELDS, roleFieldErrors } from './member-roles';
import { memberName } from './project-helpers';

const SEARCH_DELAY_MS = 250;
const STATUS_NOTES: Record<SuperUserRow['status'], string> = {
  active: '',
  invited: ' (invited)',
  disabled: ' (disabled)',
};

export function userOptionLabel(user: SuperUserRow): string {
  return `${memberName(user)} (${user.email})${STATUS_NOTES[user.status]}`;
}

interface AddMemberModalProps {
  opened: boolean;
  projectId: string;
  projectName: string;
  /** The users already members: the picker leaves them out. */
  memberIds: ReadonlySet<number>;
  onClose: () => void;
}

/** Adds an existing account to the project with its roles. */
export function AddMemberModal({ opened, projectId, projectName, memberIds, onClose }: AddMemberModalProps) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={`Add a member to ${projectName}`}
      centered
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {/* Mounted only while open: each opening starts empty. */}
      {opened && <AddMemberForm projectId={projectId} memberIds={memberIds} onClose={onClose} />}
    </Modal>
  );
}

const FIELDS = ['user_id', ...ROLE_FIELDS] as const;

function AddMemberForm({
  projectId,
  memberIds,
  onClose,
}: {
  projectId: string;
  memberIds: ReadonlySet<number>;
  onClose: () => void;
}) {
  const add = useAddProjectMember(projectId);
  const [selected, setSelected] = useState<SuperUserRow | null>(null);
  const [search, setSearch] = useState('');
  const [term] = useDebouncedValue(search.trim(), SEARCH_DELAY_MS);
  // Once a user is picked the box shows their name: that is not a new search.
  const showingSelected = selected !== null && search === userOptionLabel(selected);
  const users = useUserSearch(term.slice(0, 100), !showingSelected);
  const [roles, setRoles] = useState<MemberRoles>(NEW_MEMBER_ROLES);
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);

  const searching = users.isFetching || search.trim() !== term;
  // While a search runs, the answer to the previous one would offer people who do not match: offer none.
  const candidates = searching
    ? []
    : (users.data ?? []).filter((user) => !memberIds.has(user.id) && user.id !== selected?.id);
  const options = selected ? [selected, ...candidates] : candidates;

  let nothingFound = 'No user found who is not already a member.';
  if (searching) nothingFound = 'Searching…';
  else if (users.isError) nothingFound = messageFor(users.error, 'The users could not be loaded. Please try again.');

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (add.isPending) return;
    setFailure(null);
    const parsed = memberAddSchema.safeParse({ user_id: selected?.id ?? 0, ...roles });
    if (!parsed.success) {
      setErrors(roleFieldErrors(parsed.error));
      return;
    }
    setErrors({});
    try {
      await add.mutateAsync(parsed.data);
      toast.success(`${selected ? memberName(selected) : 'The user'} added to the project.`);
      onClose();
    } catch (error) {
      const fields = serverFieldErrors(error, FIELDS);
      if (Object.keys(fields).length > 0) setErrors(fields);
      else if (error instanceof ApiError && error.status === 409) setErrors({ user_id: error.message });
      else setFailure(messageFor(error, 'The member could not be added. Please try again.'));
    }
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        {(failure ?? errors.main_roles) && (
          <Alert color="red" variant="light" role="alert">
            {failure ?? errors.main_roles}
          </Alert>
        )}
        <Select
          label="User"
          description="Search by name, email or username. People who are already members are not listed."
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          placeholder="Start typing to search"
          required
          searchable
          searchValue={search}
          onSearchChange={setSearch}
          data={options.map((user) => ({ value: String(user.id), label: userOptionLabel(user) }))}
          // The server has already filtered by the search; the list shows what it answered.
          filter={({ options: all }) => all}
          value={selected ? String(selected.id) : null}
          onChange={(value) => {
            setSelected(options.find((user) => String(user.id) === value) ?? null);
            setErrors((current) => ({ ...current, user_id: undefined }));
          }}
          nothingFoundMessage={nothingFound}
          rightSection={
            searching && !showingSelected ? <Loader size="xs" role="status" aria-label="Searching" /> : undefined
          }
          error={errors.user_id}
          disabled={add.isPending}
          data-autofocus
        />
        <MemberRoleFields
          value={roles}
          onChange={(value) => {
            setRoles(value);
            setErrors((current) => ({ user_id: current.user_id }));
          }}
          disabled={add.isPending}
          errors={errors}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={add.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={add.isPending}>
            Add member
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
