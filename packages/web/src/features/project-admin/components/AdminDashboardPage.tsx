import { Anchor, Button, EmptyState, Paper, SimpleGrid, Skeleton, Stack, Table, Text, TextInput } from '@mantine/core';
import { isProjectId, type Member } from '@portal/shared';
import { type ReactNode, useDeferredValue, useState } from 'react';
import { Link, useParams } from 'react-router';
import { ScrollTable } from '../../../components/form-parts/ScrollTable';
import { NotFoundPage } from '../../../components/NotFoundPage';
import { QueryFailure } from '../../../components/page-parts';
import { formatDate, formatDateTime } from '../../../lib/dates';
import { PROJECT_ROLE_LABELS } from '../../../lib/role-labels';
import { usePageTitle } from '../../../lib/use-page-title';
import { type AdminDashboard, useAdminDashboard } from '../api/get-admin-dashboard';
import type { UserRequest } from '../api/get-user-requests';
import { TwoFactorBadge, UserStatusBadge } from './AdminBadges';
import { AdminPageHeader, AdminSection } from './AdminPageHeader';
import { fullName, mainRoleLines } from './admin-format';
import { RequestPersonCells } from './RequestPersonCells';

export const adminPaths = {
  dashboard: (projectId: string) => `/app/admin/${projectId}/admin-dashboard`,
  editUser: (projectId: string, userId: number | string) => `/app/admin/${projectId}/edit-user/${userId}`,
  newUserRequest: (projectId: string) => `/app/admin/${projectId}/new-user-request`,
  contactMessages: (projectId: string) => `/member/projects/${projectId}/contact-us-messages`,
};

/** /app/admin/{projectId}/admin-dashboard ("Manage Users"): the project's members and pending requests. */
export function AdminDashboardPage() {
  usePageTitle('Manage Users');
  const { projectId = '' } = useParams();
  if (!isProjectId(projectId)) return <NotFoundPage />;
  return <Dashboard key={projectId} projectId={projectId} />;
}

function Dashboard({ projectId }: { projectId: string }) {
  const dashboard = useAdminDashboard(projectId);

  let body: ReactNode;
  if (dashboard.isPending) {
    body = (
      <Stack gap="lg" role="status" aria-label="Loading the members">
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          {[0, 1, 2].map((index) => (
            <Skeleton key={index} height={104} radius="md" />
          ))}
        </SimpleGrid>
        <Skeleton height={320} radius="md" />
      </Stack>
    );
  } else if (dashboard.isError) {
    body = <QueryFailure query={dashboard} fallback="The members could not be loaded. Please try again." />;
  } else {
    body = <DashboardBody projectId={projectId} data={dashboard.data} />;
  }

  return (
    <Stack gap="lg" w="100%" maw={1200}>
      <AdminPageHeader
        projectId={projectId}
        title="Manage Users"
        actions={
          <Button component={Link} to={adminPaths.newUserRequest(projectId)}>
            Request new user
          </Button>
        }
      />
      {body}
    </Stack>
  );
}

function DashboardBody({ projectId, data }: { projectId: string; data: AdminDashboard }) {
  const pending = data.pending_requests.length;
  const unread = data.unread_contact_messages;
  return (
    <>
      <SimpleGrid cols={{ base: 1, sm: 3 }} component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
        <SummaryCard label="Members" count={data.members.length} testId="members-count">
          <Text size="sm" c="dimmed">
            People who can open this project.
          </Text>
        </SummaryCard>
        <SummaryCard label="Pending requests" count={pending} testId="pending-count">
          <Anchor component={Link} to={adminPaths.newUserRequest(projectId)} size="sm">
            {pending > 0 ? 'See the requests' : 'Request a new user'}
          </Anchor>
        </SummaryCard>
        <SummaryCard label="Unread contact messages" count={unread} testId="unread-count">
          <Anchor component={Link} to={adminPaths.contactMessages(projectId)} size="sm">
            Open contact messages
          </Anchor>
        </SummaryCard>
      </SimpleGrid>
      <MembersSection projectId={projectId} members={data.members} />
      <PendingSection projectId={projectId} requests={data.pending_requests} />
    </>
  );
}

interface SummaryCardProps {
  label: string;
  count: number;
  testId: string;
  children: ReactNode;
}

function SummaryCard({ label, count, testId, children }: SummaryCardProps) {
  return (
    <Paper component="li" withBorder radius="md" p="md">
      <Text size="sm" fw={600}>
        {label}
      </Text>
      <Text fz={32} fw={700} lh={1.2} data-testid={testId}>
        {count.toLocaleString('en-US')}
      </Text>
      {children}
    </Paper>
  );
}

function matches(member: Member, query: string): boolean {
  if (!query) return true;
  const haystack = `${member.first_name} ${member.last_name} ${member.email} ${member.username}`.toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .every((word) => haystack.includes(word));
}

function MembersSection({ projectId, members }: { projectId: string; members: Member[] }) {
  const [search, setSearch] = useState('');
  const query = useDeferredValue(search.trim());
  const shown = members.filter((member) => matches(member, query));

  let list: ReactNode;
  if (members.length === 0) {
    list = (
      <EmptyState
        title="No members yet"
        description="Ask the administrators for an account for each person who needs this project."
      >
        <EmptyState.Actions>
          <Button component={Link} to={adminPaths.newUserRequest(projectId)} variant="default">
            Request new user
          </Button>
        </EmptyState.Actions>
      </EmptyState>
    );
  } else if (shown.length === 0) {
    list = (
      <Text c="dimmed" py="md">
        No member matches “{query}”.
      </Text>
    );
  } else {
    list = (
      <ScrollTable
        minWidth={1040}
        verticalSpacing="sm"
        aria-labelledby="members-heading"
        data-testid="members-table"
        columns={['Name', 'Email', 'Project role', 'Main roles', 'Last sign-in', 'Two-factor', 'Status']}
        actions
      >
        {shown.map((member) => (
          <MemberRow key={member.user_id} projectId={projectId} member={member} />
        ))}
      </ScrollTable>
    );
  }

  return (
    <AdminSection id="members-heading" title="Members">
      {members.length > 0 && (
        <Stack gap={4}>
          <TextInput
            label="Search members"
            placeholder="Name, email or username"
            type="search"
            value={search}
            onChange={(event) => setSearch(event.currentTarget.value)}
            maw={400}
          />
          <Text size="xs" c="dimmed" aria-live="polite">
            {query ? `${shown.length} of ${members.length} members shown` : `${members.length} members`}
          </Text>
        </Stack>
      )}
      {list}
    </AdminSection>
  );
}

function MemberRow({ projectId, member }: { projectId: string; member: Member }) {
  const name = fullName(member, member.username);
  const roles = mainRoleLines(member.main_roles);
  return (
    <Table.Tr data-user-id={member.user_id}>
      <Table.Td>
        <Anchor component={Link} to={adminPaths.editUser(projectId, member.user_id)} fw={600} size="sm">
          {name}
        </Anchor>
        <Text size="xs" c="dimmed">
          {member.username}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {member.email}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{PROJECT_ROLE_LABELS[member.project_role]}</Text>
      </Table.Td>
      <Table.Td>
        {roles.length > 0 ? (
          roles.map((line) => (
            <Text key={line} size="sm">
              {line}
            </Text>
          ))
        ) : (
          <Text size="sm" c="dimmed">
            None
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <Text size="sm">{member.last_login_at ? formatDateTime(member.last_login_at) : 'Never'}</Text>
      </Table.Td>
      <Table.Td>
        <TwoFactorBadge enabled={member.two_factor_enabled} />
      </Table.Td>
      <Table.Td>
        <UserStatusBadge status={member.status} />
      </Table.Td>
      <Table.Td ta="right">
        <Button
          component={Link}
          to={adminPaths.editUser(projectId, member.user_id)}
          size="xs"
          variant="default"
          aria-label={`Edit ${name}`}
        >
          Edit
        </Button>
      </Table.Td>
    </Table.Tr>
  );
}

function PendingSection({ projectId, requests }: { projectId: string; requests: UserRequest[] }) {
  return (
    <AdminSection id="pending-heading" title="Pending requests">
      {requests.length === 0 ? (
        <Text c="dimmed">
          No pending requests.{' '}
          <Anchor component={Link} to={adminPaths.newUserRequest(projectId)} underline="always">
            Request a new user
          </Anchor>{' '}
          when someone needs an account.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={720} type="native">
          <Table verticalSpacing="sm" aria-labelledby="pending-heading" data-testid="pending-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Name</Table.Th>
                <Table.Th scope="col">Email</Table.Th>
                <Table.Th scope="col">Requested role</Table.Th>
                <Table.Th scope="col">Filed</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {requests.map((request) => (
                <Table.Tr key={request.id} data-request-id={request.id}>
                  <RequestPersonCells request={request} />
                  <Table.Td>
                    <Text size="sm">{formatDate(request.created_at)}</Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </AdminSection>
  );
}
