import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { LoadingScreen } from '../components/LoadingScreen';
import { LOGIN_PATH, pendingSignOutTarget, useSession } from '../lib/session';

/** Login URL that brings the user back to `path` afterwards. */
export function loginRedirectPath(path: string): string {
  return `${LOGIN_PATH}?${new URLSearchParams({ redirect: path })}`;
}

/**
 * Guards the logged-in route group (SPEC section 2): waits for the session, then renders the route or sends the
 * visitor to /member-login?redirect=<where they were>.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const session = useSession();
  const { pathname, search, hash } = useLocation();

  if (session.status === 'loading') return <LoadingScreen />;
  if (session.status === 'signed-out') {
    return <Navigate to={pendingSignOutTarget() ?? loginRedirectPath(pathname + search + hash)} replace />;
  }
  return children;
}
