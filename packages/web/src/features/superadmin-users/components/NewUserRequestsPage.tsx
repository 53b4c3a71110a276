import {
  Alert,
  Anchor,
  Badge,
  Button,
  EmptyState,
  Group,
  Paper,
  SegmentedControl,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { PERMISSION_APPS } from '@portal/shared';
import { type ReactNode, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { QueryBody } from '../../../components/page-parts';
import { TONE } from '../../../components/status-tones';
import { formatDateTime } from '../../../lib/dates';
import { APP_ROLE_LABELS, PROJECT_ROLE_LABELS, roleLabel } from '../../../lib/role-labels';
import { usePageTitle } from '../../../lib/use-page-title';
import {
  USER_REQUEST_FILTERS,
  type UserRequest,
  type UserRequestFilter,
  useUserRequests,
} from '../api/get-user-requests';
import { ApproveRequestModal, RejectRequestModal } from './DecideRequestModals';
import { fullName } from './user-display';

const FILTER_LABELS: Record<UserRequestFilter, string> = {
  pending: 'Pending',
  approved: 'Approved',
  rejected: 'Rejected',
  all: 'All',
};
export const EMPTY_REQUESTS: Record<UserRequestFilter, string> = {
  pending: 'No pending requests.',
  approved: 'No approved requests.',
  rejected: 'No rejected requests.',
  all: 'No requests yet.',
};
const STATUS_COLORS: Record<UserRequest['status'], string> = {
  pending: TONE.progress,
  approved: TONE.done,
  rejected: TONE.problem,
};

function readFilter(value: string | null): UserRequestFilter {
  return USER_REQUEST_FILTERS.includes(value as UserRequestFilter) ? (value as UserRequestFilter) : 'pending';
}

/** /superadmin/new-user-requests: accounts project admins asked for, to approve (invite) or reject. */
export function NewUserRequestsPage() {
  usePageTitle('New User Requests');
  const [params, setParams] = useSearchParams();
  const status = readFilter(params.get('status'));
  const requests = useUserRequests(status);
  const [approving, setApproving] = useState<UserRequest | null>(null);
  const [rejecting, setRejecting] = useState<UserRequest | null>(null);

  return (
    <Stack gap="lg" w="100%" maw={1000}>
      <Stack gap={4}>
        <Title order={1} fz={{ base: 'h3', sm: 'h2' }}>
          New User Requests
        </Title>
        <Text size="sm" c="dimmed">
          Project admins ask here for accounts for new people. Approving creates the account, adds it to the project and
          emails the invitation.
        </Text>
      </Stack>
      <SegmentedControl
        role="radiogroup"
        aria-label="Show requests"
        value={status}
        onChange={(value) => setParams(value === 'pending' ? {} : { status: value }, { replace: true })}
        data={USER_REQUEST_FILTERS.map((filter) => ({ value: filter, label: FILTER_LABELS[filter] }))}
        w={{ base: '100%', sm: 'fit-content' }}
      />
      <QueryBody
        query={requests}
        fallback="The requests could not be loaded. Please try again."
        retryLabel="Retry"
        loadingLabel="Loading requests"
        loading={<RequestsSkeleton />}
      >
        {(data) =>
          data.length === 0 ? (
            <Paper withBorder radius="md">
              <EmptyState py="xl" px="md" title={EMPTY_REQUESTS[status]} />
            </Paper>
          ) : (
            <Stack component="ul" gap="md" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Requests">
              {data.map((request) => (
                <RequestCard
                  key={request.id}
                  request={request}
                  onApprove={() => setApproving(request)}
                  onReject={() => setRejecting(request)}
                />
              ))}
            </Stack>
          )
        }
      </QueryBody>
      <ApproveRequestModal request={approving} onClose={() => setApproving(null)} />
      <RejectRequestModal request={rejecting} onClose={() => setRejecting(null)} />
    </Stack>
  );
}

/** Placeholders the height of the request cards. */
function RequestsSkeleton() {
  return (
    <Stack gap="md" role="status" aria-label="Loading requests">
      {[0, 1, 2].map((index) => (
        <Skeleton key={index} height={150} radius="md" />
      ))}
    </Stack>
  );
}

interface RequestCardProps {
  request: UserRequest;
  onApprove: () => void;
  onReject: () => void;
}

function RequestCard({ request, onApprove, onReject }: RequestCardProps) {
  const name = fullName(request);
  const mainRoles = PERMISSION_APPS.filter((app) => request.main_roles[app]);
  const headingId = `request-${request.id}`;
  return (
    <Paper
      component="li"
      withBorder
      radius="md"
      p={{ base: 'md', sm: 'lg' }}
      data-request-id={request.id}
      aria-labelledby={headingId}
    >
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" gap="xs">
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Title order={2} fz="h4" id={headingId} style={{ overflowWrap: 'anywhere' }}>
              {name}
            </Title>
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {request.email}
            </Text>
          </Stack>
          <Badge variant="light" color={STATUS_COLORS[request.status]} tt="none" size="md">
            {FILTER_LABELS[request.status]}
          </Badge>
        </Group>
        <Stack gap={4}>
          <Detail label="Project">{request.project.name}</Detail>
          <Detail label="Project role">{PROJECT_ROLE_LABELS[request.project_role]}</Detail>
          <Detail label="Main roles">
            {mainRoles.length === 0
              ? 'None'
              : mainRoles.map((app) => `${APP_ROLE_LABELS[app]}: ${roleLabel(request.main_roles[app])}`).join(', ')}
          </Detail>
        </Stack>
        <Stack gap={2}>
          <Text size="sm" fw={600}>
            Justification
          </Text>
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {request.justification}
          </Text>
        </Stack>
        <Text size="xs" c="dimmed">
          Requested by {request.requested_by?.name ?? 'a former user'} on {formatDateTime(request.created_at)}
        </Text>
        {request.status !== 'pending' && (
          <Text size="xs" c="dimmed" data-testid="decision">
            {request.status === 'approved' ? 'Approved' : 'Rejected'} by {request.decided_by?.name ?? 'a former user'}
            {request.decided_at ? ` on ${formatDateTime(request.decided_at)}` : ''}
          </Text>
        )}
        {request.status === 'rejected' && request.rejection_reason && (
          <Alert color="red" variant="light" p="sm" title="Reason">
            <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {request.rejection_reason}
            </Text>
          </Alert>
        )}
        {request.status === 'approved' && request.user_id !== null && (
          <Anchor component={Link} to={`/superadmin/users/${request.user_id}`} size="sm" w="fit-content">
            Open {name}'s account
          </Anchor>
        )}
        {request.status === 'pending' && (
          <Group gap="sm">
            <Button onClick={onApprove}>Approve</Button>
            <Button variant="outline" color="red.8" onClick={onReject}>
              Reject
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Text size="sm">
      <Text component="span" size="sm" fw={600}>
        {label}:
      </Text>{' '}
      {children}
    </Text>
  );
}
