import { type Notification, notificationListSchema } from '@portal/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';

export type { Notification };

/** Whose notifications: a superadmin's global ones, or a member's in one project. */
export type NotificationScope = { kind: 'super' } | { kind: 'project'; projectId: string };

export function notificationsPath(scope: NotificationScope): string {
  return scope.kind === 'super' ? '/super/notifications/' : `/api/projects/${scope.projectId}/notifications/`;
}

/** GET /api/projects/{id}/notifications/ or /super/notifications/: the unread notifications. */
export async function getNotifications(scope: NotificationScope, signal?: AbortSignal): Promise<Notification[]> {
  const { notifications } = await apiFetch(notificationsPath(scope), { signal, schema: notificationListSchema });
  // SPEC section 4: only unread ones are listed, whatever the server sends.
  return notifications.filter((notification) => !notification.read_at);
}

export const NOTIFICATIONS_KEY = ['notifications'] as const;

export function notificationsQueryOptions(scope: NotificationScope) {
  return queryOptions({
    queryKey: [...NOTIFICATIONS_KEY, scope.kind === 'super' ? 'super' : scope.projectId],
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
