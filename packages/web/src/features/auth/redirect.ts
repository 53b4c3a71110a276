export const DEFAULT_AFTER_LOGIN = '/member/projects';

/**
 * The `redirect` query parameter when it is a path of this site, else null. Rejects other origins, protocol-
 * relative (`//evil.example`) and backslash tricks (`/\evil.example`), and the login page itself.
 */
export function safeRedirectPath(value: string | null, origin = window.location.origin): string | null {
  if (!value?.startsWith('/') || value.startsWith('//') || value.includes('\\')) return null;
  // Control characters (tabs and newlines are dropped by URL parsers) have no place in a path.
  if ([...value].some((character) => character.charCodeAt(0) < 32 || character.charCodeAt(0) === 127)) return null;
  let url: URL;
  try {
    url = new URL(value, origin);
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
