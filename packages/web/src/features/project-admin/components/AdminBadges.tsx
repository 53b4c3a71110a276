import { Badge } from '@mantine/core';
import type { UserStatus } from '@portal/shared';
import type { UserRequest } from '../api/get-user-requests';

const STATUS: Record<UserStatus, { label: string; color: string }> = {
  active: { label: 'Active', color: 'green.9' },
  invited: { label: 'Invited', color: 'blue.8' },
  disabled: { label: 'Disabled', color: 'gray.7' },
};

export function UserStatusBadge({ status }: { status: UserStatus }) {
  const { label, color } = STATUS[status];
  return (
    <Badge variant="light" color={color} tt="none">
      {label}
    </Badge>
  );
}

/** Two-factor sign-in: On, or Off in orange (the account is easier to take over). */
export function TwoFactorBadge({ enabled }: { enabled: boolean }) {
  return (
    <Badge variant="light" color={enabled ? 'teal.9' : 'orange.9'} tt="none">
      {enabled ? 'On' : 'Off'}
    </Badge>
  );
}

const REQUEST_STATUS: Record<UserRequest['status'], { label: string; color: string }> = {
  pending: { label: 'Pending', color: 'orange.9' },
  approved: { label: 'Approved', color: 'green.9' },
  rejected: { label: 'Rejected', color: 'red.8' },
};

export function RequestStatusBadge({ status }: { status: UserRequest['status'] }) {
  const { label, color } = REQUEST_STATUS[status];
  return (
    <Badge variant="light" color={color} tt="none">
      {label}
    </Badge>
  );
}
