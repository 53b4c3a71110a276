import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { NOTIFICATIONS_KEY, type NotificationScope } from './get-notifications';

/** PATCH /api/projects/{id}/notifications/{nid}/read, /api/notifications/{nid}/read or /super/notifications/{nid}/read (204). */
export function markNotificationRead(scope: NotificationScope, id: number): Promise<void> {
  const path =
    scope.kind === 'super'
      ? `/super/notifications/${id}/read`
      : scope.kind === 'member'
        ? `/api/notifications/${id}/read`
        : `/api/projects/${scope.projectId}/notifications/${id}/read`;
  return apiFetch(path, { method: 'PATCH' });
}

/**
 * Marks one or more notifications read, then re-fetches the list (SPEC section 4) whatever happened. Rejects when
 * any of them failed.
 */
export function useMarkNotificationsRead(scope: NotificationScope | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (ids: number[]) => {
      if (!scope) throw new Error('No notification scope');
      const results = await Promise.allSettled(ids.map((id) => markNotificationRead(scope, id)));
      const failed = results.find((result) => result.status === 'rejected');
      if (failed) throw failed.reason;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_KEY }),
  });
}
