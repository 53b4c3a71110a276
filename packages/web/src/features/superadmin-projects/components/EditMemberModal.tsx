import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { type Member, type MemberUpdate, memberUpdateSchema, PERMISSION_APPS } from '@portal/shared';
import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { MemberRoleFields, type MemberRoles } from '../../../components/MemberRoleFields';
import { ApiError, messageFor } from '../../../lib/api';
import { serverFieldErrors } from '../../../lib/field-errors';
import { useUpdateProjectMember } from '../api/update-member';
import { allMainRoles, ROLE_FIELDS, roleFieldErrors, rolesOf } from './member-roles';
import { memberName, NO_CHANGES } from './project-helpers';

interface EditMemberModalProps {
  projectId: string;
  /** The member edited; null keeps the modal closed. */
  member: Member | null;
  onClose: () => void;
}

/** A member's project role and main role per app. */
export function EditMemberModal({ projectId, member, onClose }: EditMemberModalProps) {
  // Kept while the modal fades out after closing, so its content does not vanish first.
  const [shown, setShown] = useState<Member | null>(member);
  if (member && member !== shown) setShown(member);
  return (
    <Modal
      opened={member !== null}
      onClose={onClose}
      title={shown ? `Edit the roles of ${memberName(shown)}` : 'Edit roles'}
      centered
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {shown && <EditMemberForm key={shown.user_id} projectId={projectId} member={shown} onClose={onClose} />}
    </Modal>
  );
}

function EditMemberForm({ projectId, member, onClose }: { projectId: string; member: Member; onClose: () => void }) {
  const update = useUpdateProjectMember(projectId);
  const [roles, setRoles] = useState<MemberRoles>(() => rolesOf(member));
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (update.isPending) return;
    setFailure(null);
    const body: MemberUpdate = {};
    if (roles.project_role !== member.project_role) body.project_role = roles.project_role;
    if (PERMISSION_APPS.some((app) => (roles.main_roles[app] ?? null) !== member.main_roles[app])) {
      body.main_roles = allMainRoles(roles.main_roles);
    }
    if (Object.keys(body).length === 0) {
      toast.info(NO_CHANGES);
      return;
    }
    const parsed = memberUpdateSchema.safeParse(body);
    if (!parsed.success) {
      setErrors(roleFieldErrors(parsed.error));
      return;
    }
    setErrors({});
    try {
      await update.mutateAsync({ userId: member.user_id, body: parsed.data });
      toast.success(`Roles of ${memberName(member)} saved.`);
      onClose();
    } catch (error) {
      const fields = serverFieldErrors(error, ROLE_FIELDS);
      if (Object.keys(fields).length > 0) {
        setErrors(fields);
      } else if (error instanceof ApiError && error.status === 409) {
        // The last project admin cannot be demoted: the server says so.
        toast.error(error.message);
      } else {
        setFailure(messageFor(error, 'The roles could not be saved. Please try again.'));
      }
    }
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {member.email}
        </Text>
        {(failure ?? errors.main_roles ?? errors.form) && (
          <Alert color="red" variant="light" role="alert">
            {failure ?? errors.main_roles ?? errors.form}
          </Alert>
        )}
        <MemberRoleFields
          value={roles}
          onChange={(value) => {
            setRoles(value);
            setErrors({});
          }}
          disabled={update.isPending}
          errors={errors}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={update.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={update.isPending}>
            Save roles
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
