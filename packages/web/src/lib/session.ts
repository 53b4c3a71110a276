import type { AuthCheck } from '@portal/shared';
import { type QueryClient, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { ApiError, apiFetch } from './api';
import { postDashboardLogout } from './monitoring-audit';
import { rememberProjectId } from './project/project-path';
import { postSessionMessage } from './session-channel';

/**
 * The session as the web knows it: one query on GET /api/auth/check (issue 3, "Auth state"). A login invalidates it
 * (and waits for the new answer); a logout replaces it with the signed-out answer at once, so no guarded screen
 * renders for a moment with the old user. Every screen that needs to know who is signed in uses `useSession`.
 */
export const AUTH_CHECK_PATH = '/api/auth/check';
export const AUTH_CHECK_KEY = ['auth', 'check'] as const;
export const SIGNED_OUT: AuthCheck = { authenticated: false, user: null };

/** localStorage key of the "set up two-factor" flag read by the banner (SPEC section 4, Login). */
export const MFA_SETUP_FLAG = 'mfa_setup_required';

export async function getAuthCheck(signal?: AbortSignal): Promise<AuthCheck> {
  // Typed, not parsed: the login page downloads no zod (decision record 030). A body claiming a session without its
  // user is treated as no session.
  const check = await apiFetch<AuthCheck>(AUTH_CHECK_PATH, { signal });
  return check?.authenticated === true && check.user ? check : SIGNED_OUT;
}

export function authCheckQueryOptions() {
  return queryOptions({ queryKey: AUTH_CHECK_KEY, queryFn: ({ signal }) => getAuthCheck(signal) });
}

export type SessionState =
  | { status: 'loading' }
  | { status: 'signed-out' }
  | { status: 'signed-in'; user: NonNullable<AuthCheck['user']> };

/** SPEC section 8: a failed auth check leaves the user signed out. */
export function useSession(): SessionState {
  const query = useQuery(authCheckQueryOptions());
  if (query.data?.authenticated && query.data.user) return { status: 'signed-in', user: query.data.user };
  if (query.isPending) return { status: 'loading' };
  return { status: 'signed-out' };
}

/**
 * Whether the signed-in user's time to set up two-factor is over (MFA_GRACE_DAYS): the server then answers only
 * sign-in, sign-out and two-factor setup, so the portal shows the setup gate instead of calling the rest.
 */
export function isTwoFactorOverdue(session: SessionState): boolean {
  return session.status === 'signed-in' && session.user.mfa?.overdue === true;
}

/** After a successful login: ask the server again and wait, so guarded routes see the session at once. */
export async function refreshSession(queryClient: QueryClient): Promise<void> {
  await queryClient.invalidateQueries({ queryKey: AUTH_CHECK_KEY, refetchType: 'all' });
}

/** Forget everything the signed-in user loaded; keep the public configuration and terms. */
export function clearSessionData(queryClient: QueryClient): void {
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'public' && query.queryKey[0] !== 'auth' });
  queryClient.setQueryData(AUTH_CHECK_KEY, SIGNED_OUT);
}

/** POST /logout: for a session a SAML provider opened, the address that signs the person out there too. */
export async function logoutRequest(reason?: 'inactivity'): Promise<string | null> {
  const answer = await apiFetch<{ single_logout_url?: string } | undefined>(
    reason === 'inactivity' ? '/logout-inactivity' : '/logout',
    { method: 'POST' },
  );
  return typeof answer?.single_logout_url === 'string' ? answer.single_logout_url : null;
}

export const LOGIN_PATH = '/member-login';
export const INACTIVITY_LOGIN_PATH = '/member-login?reason=inactivity';

/**
 * Where a sign-out in progress is going. Guarded routes read it so that, when the session disappears under them,
 * they follow the sign-out instead of sending the user to log in again with `?redirect=` back to where they were.
 */
let signOutTarget: string | null = null;

export function pendingSignOutTarget(): string | null {
  return signOutTarget;
}

/** Called by the login page once it shows: later session losses redirect with `?redirect=` again. */
export function settleSignOut(): void {
  signOutTarget = null;
}

/**
 * Marks the session as ended in this tab without moving: guarded routes then follow `target`. Used for a sign-out
 * that happened in another tab.
 */
export function markSignedOut(queryClient: QueryClient, reason?: 'inactivity'): string {
  const target = reason === 'inactivity' ? INACTIVITY_LOGIN_PATH : LOGIN_PATH;
  signOutTarget = target;
  try {
    window.localStorage.removeItem(MFA_SETUP_FLAG);
  } catch {
    // Storage may be unavailable (private mode); nothing to clear then.
  }
  // The next person to sign in on this browser starts without this user's project.
  rememberProjectId(null);
  // Me-data and permission rules (keyed ['permissions', version, project]) go with everything else the user loaded.
  queryClient.removeQueries({ queryKey: ['permissions'] });
  clearSessionData(queryClient);
  return target;
}

/** Ends the session in this tab: go to the login page and forget what the signed-in user loaded. */
export function useEndSession() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(
    (reason?: 'inactivity') => {
      // Marked first: guarded routes that re-render before the navigation lands follow the same target.
      const target = markSignedOut(queryClient, reason);
      void navigate(target, { replace: true });
    },
    [queryClient, navigate],
  );
}

/**
 * Signs out: POST /logout (or /logout-inactivity), tells the other tabs, and ends the session here.
 * A deliberate logout that fails raises the error so the screen can say so; an inactivity logout always ends the
 * session locally (the server's idle timeout ends it there anyway).
 */
export function useSignOut() {
  const endSession = useEndSession();
  return useCallback(
    async (reason?: 'inactivity') => {
      // While the session still exists: the monitoring dashboard logout audit (a failure is ignored).
      await postDashboardLogout();
      let singleLogout: string | null = null;
      try {
        singleLogout = await logoutRequest(reason);
      } catch (error) {
        // 401 or 419: the server has no session any more, which is what was asked for.
        const alreadyEnded = error instanceof ApiError && (error.status === 401 || error.status === 419);
        if (reason !== 'inactivity' && !alreadyEnded) throw error;
      }
      postSessionMessage(reason ? { type: 'logout', reason } : { type: 'logout' });
      endSession(reason);
      // Signed out of the identity provider too (SAML single logout); it sends the browser back to the sign-in page.
      if (singleLogout) window.location.assign(singleLogout);
    },
    [endSession],
  );
}
