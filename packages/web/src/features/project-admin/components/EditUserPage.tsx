import { Alert, Anchor, Button, Group, Paper, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { isProjectId, type MainRoles, PERMISSION_APPS } from '@portal/shared';
import { type FormEvent, type ReactNode, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';
import { ConfirmActionModal } from '../../../components/ConfirmActionModal';
import { MemberRoleFields, type MemberRoles } from '../../../components/MemberRoleFields';
import { NotFoundPage } from '../../../components/NotFoundPage';
import { ErrorNotice, QueryFailure } from '../../../components/page-parts';
import { ApiError, messageFor } from '../../../lib/api';
import { formatDate, formatDateTime } from '../../../lib/dates';
import { type FieldErrors, serverFieldErrors } from '../../../lib/field-errors';
import { usePageTitle } from '../../../lib/use-page-title';
import { type Member, useMember } from '../api/get-member';
import { useRemoveMember } from '../api/remove-member';
import { type MemberUpdate, useUpdateMember } from '../api/update-member';
import { TwoFactorBadge, UserStatusBadge } from './AdminBadges';
import { adminPaths } from './AdminDashboardPage';
import { AdminPageHeader } from './AdminPageHeader';
import { fullName } from './admin-format';

export const NOT_A_MEMBER = 'This user is not a member of this project.';

const ROLE_FIELDS = ['project_role', ...PERMISSION_APPS.map((app) => `main_roles.${app}` as const)] as const;
type RoleField = (typeof ROLE_FIELDS)[number];

/** /app/admin/{projectId}/edit-user/{userId}: a member's roles in the project, and removing them from it. */
export function EditUserPage() {
  usePageTitle('Edit User');
  const { projectId = '', userId = '' } = useParams();
  if (!isProjectId(projectId) || !isProjectId(userId)) return <NotFoundPage />;
  return <EditUser key={`${projectId}/${userId}`} projectId={projectId} userId={userId} />;
}

function rolesOf(member: Member): MemberRoles {
  return {
    project_role: member.project_role,
    // The answer names every app; the editor keeps the same shape.
    main_roles: { ...member.main_roles } as MainRoles,
  };
}

/** The parts of `roles` that differ from the member's: only those are sent. */
function changesOf(member: Member, roles: MemberRoles): MemberUpdate {
  const update: MemberUpdate = {};
  if (roles.project_role !== member.project_role) update.project_role = roles.project_role;
  const apps = PERMISSION_APPS.filter((app) => (roles.main_roles[app] ?? null) !== (member.main_roles[app] ?? null));
  if (apps.length > 0) {
    update.main_roles = Object.fromEntries(apps.map((app) => [app, roles.main_roles[app] ?? null])) as MainRoles;
  }
  return update;
}

function EditUser({ projectId, userId }: { projectId: string; userId: string }) {
  const member = useMember(projectId, userId);
  const back = (
    <Anchor component={Link} to={adminPaths.dashboard(projectId)} size="sm" w="fit-content">
      ← Back to Manage Users
    </Anchor>
  );

  let body: ReactNode;
  if (member.isPending) {
    body = (
      <Stack gap="lg" role="status" aria-label="Loading the member">
        <Skeleton height={140} radius="md" />
        <Skeleton height={220} radius="md" />
      </Stack>
    );
  } else if (member.isError && member.error instanceof ApiError && member.error.status === 404) {
    body = (
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }}>
        <Stack gap="md" align="flex-start">
          <Alert color="yellow" variant="light" role="alert" w="100%">
            {NOT_A_MEMBER}
          </Alert>
          <Button component={Link} to={adminPaths.dashboard(projectId)} variant="default">
            Back to Manage Users
          </Button>
        </Stack>
      </Paper>
    );
  } else if (member.isError) {
    body = <QueryFailure query={member} fallback="The member could not be loaded. Please try again." />;
  } else {
    body = <MemberEditor projectId={projectId} userId={userId} member={member.data} />;
  }

  return (
    <Stack gap="lg" w="100%" maw={900}>
      {back}
      <AdminPageHeader projectId={projectId} title="Edit User" />
      {body}
    </Stack>
  );
}

interface MemberEditorProps {
  projectId: string;
  userId: string;
  member: Member;
}

function MemberEditor({ projectId, userId, member }: MemberEditorProps) {
  const navigate = useNavigate();
  const update = useUpdateMember(projectId, userId);
  const remove = useRemoveMember(projectId, userId);
  const [roles, setRoles] = useState<MemberRoles>(() => rolesOf(member));
  const [errors, setErrors] = useState<FieldErrors<RoleField>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const name = fullName(member, member.username);
  const changes = changesOf(member, roles);
  const changed = Object.keys(changes).length > 0;

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!changed || update.isPending) return;
    setFailure(null);
    setErrors({});
    try {
      const saved = await update.mutateAsync(changes);
      setRoles(rolesOf(saved));
      toast.success(`Roles saved for ${name}.`);
    } catch (error) {
      const fields = serverFieldErrors(error, ROLE_FIELDS);
      setErrors(fields);
      if (Object.keys(fields).length === 0) {
        setFailure(messageFor(error, 'The roles could not be saved. Please try again.'));
      }
    }
  }

  async function removeNow() {
    setConfirming(false);
    try {
      await remove.mutateAsync();
      toast.success(`${name} was removed from the project.`);
      void navigate(adminPaths.dashboard(projectId));
    } catch (error) {
      toast.error(messageFor(error, `${name} could not be removed. Please try again.`));
    }
  }

  return (
    <>
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby="member-name">
        <Stack gap="sm">
          <Group gap="sm" justify="space-between" align="flex-start">
            <Stack gap={0} style={{ minWidth: 0 }}>
              <Title order={2} fz="h4" id="member-name" style={{ overflowWrap: 'anywhere' }}>
                {name}
              </Title>
              <Text size="sm" style={{ overflowWrap: 'anywhere' }} data-testid="member-email">
                {member.email}
              </Text>
            </Stack>
            <UserStatusBadge status={member.status} />
          </Group>
          <SimpleGrid cols={{ base: 1, xs: 2, sm: 4 }} spacing="sm" component="dl" m={0}>
            <Fact label="Username">{member.username}</Fact>
            <Fact label="Last sign-in">{member.last_login_at ? formatDateTime(member.last_login_at) : 'Never'}</Fact>
            <Fact label="Two-factor">
              <TwoFactorBadge enabled={member.two_factor_enabled} />
            </Fact>
            <Fact label="Member since">{formatDate(member.joined_at)}</Fact>
          </SimpleGrid>
        </Stack>
      </Paper>

      <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
        <form onSubmit={save} noValidate aria-labelledby="roles-heading">
          <Stack gap="md">
            <Stack gap={2}>
              <Title order={2} fz="h4" id="roles-heading">
                Roles
              </Title>
              <Text size="sm" c="dimmed">
                Project admins manage this project's users and details. The main role in each app decides which sections
                of the app the person can open.
              </Text>
            </Stack>
            <ErrorNotice message={failure} />
            <MemberRoleFields
              value={roles}
              onChange={(next) => {
                setRoles(next);
                setFailure(null);
              }}
              disabled={update.isPending}
              errors={errors}
            />
            <Group gap="sm">
              <Button type="submit" loading={update.isPending} disabled={!changed}>
                Save roles
              </Button>
              {changed && !update.isPending && (
                <Button
                  variant="subtle"
                  onClick={() => {
                    setRoles(rolesOf(member));
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

      <Paper
        withBorder
        radius="md"
        p={{ base: 'md', sm: 'lg' }}
        component="section"
        aria-labelledby="remove-heading"
        style={{ borderColor: 'var(--mantine-color-red-3)' }}
      >
        <Stack gap="sm" align="flex-start">
          <Title order={2} fz="h4" id="remove-heading">
            Remove from project
          </Title>
          <Text size="sm">
            {name} can no longer open this project. Their account, and everything they did here, stays.
          </Text>
          <Button color="red.8" variant="outline" loading={remove.isPending} onClick={() => setConfirming(true)}>
            Remove from project
          </Button>
        </Stack>
      </Paper>

      <ConfirmActionModal
        opened={confirming}
        title={`Remove ${name}?`}
        message={`${name} loses access to this project at once. Their account and records stay.`}
        confirmLabel="Remove from project"
        danger
        onConfirm={() => void removeNow()}
        onCancel={() => setConfirming(false)}
      />
    </>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text component="dt" size="xs" c="dimmed">
        {label}
      </Text>
      <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </div>
  );
}
