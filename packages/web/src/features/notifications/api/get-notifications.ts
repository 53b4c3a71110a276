import { type Notification, notificationListSchema } from '@portal/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';

export type { Notification };

/**
 * Whose notifications: a superadmin's global ones, a member's in one project, or a member's across every project they
 * belong to (where no project is open: the landing page /member/projects).
 */
export type NotificationScope = { kind: 'super' } | { kind: 'project'; projectId: string } | { kind: 'member' };

export function notificationsPath(scope: NotificationScope): string {
  if (scope.kind === 'super') return '/super/notifications/';
  return scope.kind === 'member' ? '/api/notifications/' : `/api/projects/${scope.projectId}/notifications/`;
}

/** True when the list mixes projects, so each item says which one it is from. */
export function spansProjects(scope: NotificationScope): boolean {
  return scope.kind !== 'project';
}

/** GET /api/projects/{id}/notifications/, /api/notifications/ or /super/notifications/: the unread notifications. */
export async function getNotifications(scope: NotificationScope, signal?: AbortSignal): Promise<Notification[]> {
  const { notifications } = await apiFetch(notificationsPath(scope), { signal, schema: notificationListSchema });
  // SPEC section 4: only unread ones are listed, whatever the server sends.
  return notifications.filter((notification) => !notification.read_at);
}

export const NOTIFICATIONS_KEY = ['notifications'] as const;

export function notificationsQueryOptions(scope: NotificationScope) {
  return queryOptions({
    queryKey: [...NOTIFICATIONS_KEY, scope.kind === 'project' ? scope.projectId : scope.kind],
    queryFn: ({ signal }) => getNotifications(scope, signal),
    // Errors are reported once, by the bell; a retry would only delay the message.
    retry: false,
  });
}

export function useNotifications(scope: NotificationScope | null, pollMs: number | false) {
  return useQuery({
    ...notificationsQueryOptions(scope ?? { kind: 'super' }),
    enabled: scope !== null,
    refetchInterval: pollMs,
  });
}
