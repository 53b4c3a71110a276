import { Button, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { toast } from 'sonner';
import { ConfirmActionModal } from '../../../components/ConfirmActionModal';
import { messageFor } from '../../../lib/api';
import type { SuperUserDetail } from '../api/get-user';
import { useUpdateMemberships } from '../api/update-memberships';
import { type MembershipDraft, MembershipsEditor, membershipBody } from './MembershipsEditor';
import { UserCard } from './UserCard';
import { fullName } from './user-display';

function fromUser(user: SuperUserDetail): MembershipDraft[] {
  return user.memberships.map((membership) => ({
    project_id: membership.project_id,
    project_name: membership.project_name,
    project_role: membership.project_role,
    // The answer carries role codes as strings; the editor offers the known ones.
    main_roles: membership.main_roles as MembershipDraft['main_roles'],
  }));
}

const same = (a: MembershipDraft[], b: MembershipDraft[]) =>
  JSON.stringify(a.map(membershipBody)) === JSON.stringify(b.map(membershipBody));

/** The user's projects and roles there; Save sends the complete list (PUT /super/users/{id}/memberships). */
export function UserMembershipsCard({ user }: { user: SuperUserDetail }) {
  const update = useUpdateMemberships(user.id);
  const saved = fromUser(user);
  const [draft, setDraft] = useState<MembershipDraft[] | null>(null);
  const [confirming, setConfirming] = useState(false);
  const rows = draft ?? saved;
  const dirty = draft !== null && !same(draft, saved);
  const removed = saved.filter((membership) => !rows.some((row) => row.project_id === membership.project_id));

  async function save() {
    try {
      await update.mutateAsync({ memberships: rows.map(membershipBody) });
      setDraft(null);
      toast.success('Memberships saved.');
    } catch (error) {
      // e.g. 409: the last project admin of a project cannot be demoted or removed.
      toast.error(messageFor(error, 'The memberships could not be saved. Please try again.'));
    }
  }

  function requestSave() {
    if (update.isPending) return;
    if (!dirty) {
      toast.info('There are no changes to save.');
      return;
    }
    if (removed.length > 0) setConfirming(true);
    else void save();
  }

  return (
    <UserCard title="Project memberships" id="user-memberships">
      <Stack gap="md">
        <MembershipsEditor
          value={rows}
          onChange={setDraft}
          disabled={update.isPending}
          linkProjects
          emptyText="Not a member of any project."
        />
        {dirty && (
          <Text size="sm" fw={600} role="status">
            Unsaved changes.
          </Text>
        )}
        <Group gap="sm">
          <Button onClick={requestSave} loading={update.isPending}>
            Save memberships
          </Button>
          {dirty && (
            <Button variant="default" disabled={update.isPending} onClick={() => setDraft(null)}>
              Discard changes
            </Button>
          )}
        </Group>
      </Stack>
      <ConfirmActionModal
        opened={confirming}
        title="Remove from projects?"
        message={`${fullName(user)} will be removed from ${removed.map((row) => row.project_name).join(', ')} and lose access to ${removed.length === 1 ? 'it' : 'them'} at once.`}
        confirmLabel="Save and remove"
        danger
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          void save();
        }}
      />
    </UserCard>
  );
}
