import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { markSignedOut, refreshSession, settleSignOut } from '../lib/session';
import { subscribeSessionMessages } from '../lib/session-channel';

/**
 * Keeps this tab's idea of the session in step with the other tabs: a login elsewhere refreshes it, a logout
 * elsewhere ends it here too (guarded routes then go to the login page).
 */
export function SessionSync() {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      subscribeSessionMessages((message) => {
        if (message.type === 'login') {
          settleSignOut();
          void refreshSession(queryClient);
        } else if (message.type === 'logout') {
          markSignedOut(queryClient, message.reason);
        }
      }),
    [queryClient],
  );
  return null;
}
