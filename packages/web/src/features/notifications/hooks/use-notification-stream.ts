import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { NOTIFICATIONS_KEY } from '../api/get-notifications';

export const NOTIFICATION_STREAM_PATH = '/api/notifications/stream';
export const POLL_INTERVAL_MS = 30_000;

/**
 * Live notifications: GET /api/notifications/stream (server-sent events, `event: notification` with the
 * notification's JSON, which carries project_id). A notification for the shown scope re-fetches the list. When
 * the stream fails (or the browser has no EventSource) the bell polls every 30 s instead.
 * Returns the polling interval to use: false while the stream is live.
 */
export function useNotificationStream(enabled: boolean, projectId: string | null, superadmin: boolean): number | false {
  const queryClient = useQueryClient();
  const [failed, setFailed] = useState(() => typeof EventSource === 'undefined');
  const scope = useRef({ projectId, superadmin });
  scope.current = { projectId, superadmin };

  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return;
    const source = new EventSource(NOTIFICATION_STREAM_PATH, { withCredentials: true });
    const onNotification = (event: MessageEvent) => {
      let projectOfEvent: unknown = null;
      try {
        projectOfEvent = (JSON.parse(String(event.data)) as { project_id?: unknown }).project_id;
      } catch {
        // Unreadable event: re-fetch anyway, the list is the truth.
      }
      const { projectId: current, superadmin: everyProject } = scope.current;
      if (
        everyProject ||
        projectOfEvent === null ||
        projectOfEvent === undefined ||
        String(projectOfEvent) === current
      ) {
        void queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_KEY });
      }
    };
    source.addEventListener('notification', onNotification as EventListener);
    source.onopen = () => setFailed(false);
    source.onerror = () => {
      // Polling takes over; the browser would otherwise keep reconnecting on its own schedule.
      source.close();
      setFailed(true);
    };
    return () => {
      source.removeEventListener('notification', onNotification as EventListener);
      source.close();
    };
  }, [enabled, queryClient]);

  return enabled && failed ? POLL_INTERVAL_MS : false;
}
