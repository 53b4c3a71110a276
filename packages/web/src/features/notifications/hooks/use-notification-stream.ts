import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { NOTIFICATIONS_KEY } from '../api/get-notifications';

export const NOTIFICATION_STREAM_PATH = '/api/notifications/stream';
export const POLL_INTERVAL_MS = 30_000;
/** Where a tab goes when the server ends its session; the login page says why. */
export const SESSION_ENDED_LOGIN_PATH = '/member-login?reason=session_ended';

/**
 * Live notifications: GET /api/notifications/stream (server-sent events, `event: notification` with the
 * notification's JSON, which carries project_id; `event: session_ended` when the server ended the session, and the
 * tab then goes to the login page). A notification for the shown scope re-fetches the list. When
 * the stream fails (or the browser has no EventSource) the bell polls every 30 s instead.
 * Returns the polling interval to use: false while the stream is live.
 */
export function useNotificationStream(
  enabled: boolean,
  projectId: string | null,
  /** The bell lists every project (a superadmin's, or a member's where no project is open): every event counts. */
  everyProject: boolean,
  leave: () => void = () => window.location.replace(SESSION_ENDED_LOGIN_PATH),
): number | false {
  const queryClient = useQueryClient();
  const [failed, setFailed] = useState(() => typeof EventSource === 'undefined');
  const scope = useRef({ projectId, everyProject });
  scope.current = { projectId, everyProject };
  const leaveRef = useRef(leave);
  leaveRef.current = leave;

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
      const { projectId: current, everyProject } = scope.current;
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
    // The server ended this session (an account turned off, a directory deprovisioning the person): leave at once.
    const onSessionEnded = () => {
      source.close();
      leaveRef.current();
    };
    source.addEventListener('session_ended', onSessionEnded);
    source.onopen = () => setFailed(false);
    source.onerror = () => {
      // Polling takes over; the browser would otherwise keep reconnecting on its own schedule.
      source.close();
      setFailed(true);
    };
    return () => {
      source.removeEventListener('notification', onNotification as EventListener);
      source.removeEventListener('session_ended', onSessionEnded);
      source.close();
    };
  }, [enabled, queryClient]);

  return enabled && failed ? POLL_INTERVAL_MS : false;
}
