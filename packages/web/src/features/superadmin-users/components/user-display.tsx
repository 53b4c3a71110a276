import { Badge, Group } from '@mantine/core';
import type { GlobalRole, UserStatus } from '@portal/shared';
import { TONE } from '../../../components/status-tones';

/** "First Last", or the username when the account has no name yet. */
export function fullName(person: { first_name: string; last_name: string; username?: string }): string {
  const name = `${person.first_name} ${person.last_name}`.trim();
  return name || person.username || 'Unnamed user';
}

export const GLOBAL_ROLE_LABELS: Record<GlobalRole, string> = { superadmin: 'Superadmin', user: 'User' };
export const USER_STATUS_LABELS: Record<UserStatus | 'locked', string> = {
  active: 'Active',
  invited: 'Invited',
  disabled: 'Disabled',
  locked: 'Locked',
};

/** What picking the superadmin role means, shown wherever it can be picked. */
export const SUPERADMIN_WARNING =
  'A superadmin can see and change every project, user and setting of the portal, including other superadmins. Give this role only to the people who run the portal.';

export function RoleBadge({ role }: { role: GlobalRole }) {
  return (
    <Badge variant="light" color={role === 'superadmin' ? 'grape.9' : 'gray.8'} size="sm" tt="none">
      {GLOBAL_ROLE_LABELS[role]}
    </Badge>
  );
}

const STATUS_COLORS: Record<UserStatus, string> = {
  active: TONE.done,
  invited: TONE.progress,
  disabled: TONE.problem,
};

/** The account's status, and "Locked" beside it while sign-in is locked. */
export function StatusBadges({ status, locked }: { status: UserStatus; locked: boolean }) {
  return (
    <Group gap={4} wrap="nowrap">
      <Badge variant="light" color={STATUS_COLORS[status]} size="sm" tt="none" data-status={status}>
        {USER_STATUS_LABELS[status]}
      </Badge>
      {locked && (
        <Badge variant="light" color={TONE.attention} size="sm" tt="none">
          {USER_STATUS_LABELS.locked}
        </Badge>
      )}
    </Group>
  );
}
