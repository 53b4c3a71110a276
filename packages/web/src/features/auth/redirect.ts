import { localPath } from '@portal/shared';

export const DEFAULT_AFTER_LOGIN = '/member/projects';

/**
 * The `redirect` query parameter as a normalised path of this site, else null. It is normalised first (dot segments
 * resolved, repeated slashes collapsed) and then judged, so `/..//evil.example/` cannot turn into
 * `//evil.example/` after the check; other origins, backslashes, encoded separators and the login page itself are
 * refused.
 */
export function safeRedirectPath(value: string | null, origin = window.location.origin): string | null {
  const path = localPath(value);
  if (path === null) return null;
  let url: URL;
  try {
    url = new URL(path, origin);
  } catch {
    return null;
  }
  if (url.origin !== origin || url.pathname === '/member-login') return null;
  return url.pathname + url.search + url.hash;
}

/** Where to go after signing in: the page that sent the user here, else the projects list. */
export function afterLoginPath(redirect: string | null): string {
  return safeRedirectPath(redirect) ?? DEFAULT_AFTER_LOGIN;
}
