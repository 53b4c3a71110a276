import { useState } from 'react';
import { messageFor } from '../../../lib/api';
import { useSignOut } from '../../../lib/session';

/**
 * A "Log out" button's action: `pending` while signing out (and after, as the signed-out screen takes over), `error`
 * when it failed and may be tried again.
 */
export function useLogOut() {
  const signOut = useSignOut();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function logOut() {
    setPending(true);
    setError(null);
    try {
      await signOut();
    } catch (failure) {
      setError(messageFor(failure, 'Logging out failed. Please try again.'));
      setPending(false);
    }
  }

  return { pending, error, logOut };
}
