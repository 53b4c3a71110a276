/**
 * Where a sign-in may send the browser afterwards: a path of this site, normalised before it is judged, so that no
 * spelling a URL parser reads as another host gets through (issue 29: `/..//evil.example/` resolved to
 * `//evil.example/`). Used by the web's login page and the server's single sign-on, so both decide alike.
 */

/** Longest return path kept; a real page's address is far shorter. */
export const LOCAL_PATH_MAX = 2000;

/** Control characters and spaces (parsers drop tabs and newlines), backslashes (browsers read them as slashes). */
const forbiddenCharacter = (character: string) => {
  const code = character.charCodeAt(0);
  return code <= 0x20 || code === 0x7f || character === '\\';
};
// The same, percent-encoded, and an encoded slash: a path of this site never needs them, and a server or router
// that decodes them before resolving would see another path than the one judged here.
const FORBIDDEN_ESCAPE = /%(?:[01][0-9a-f]|20|7f|2f|5c)/i;

/**
 * `value` as a normalised path of this site (dot segments resolved, repeated slashes collapsed, query and fragment
 * kept), or null when it is not one: not starting with a single '/', naming a scheme or a host (also only once its
 * dot segments are resolved), or holding control characters, backslashes or encoded separators.
 */
export function localPath(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > LOCAL_PATH_MAX || !value.startsWith('/')) return null;
  if ([...value].some(forbiddenCharacter)) return null;
  const cut = value.search(/[?#]/);
  const path = cut === -1 ? value : value.slice(0, cut);
  const rest = cut === -1 ? '' : value.slice(cut);
  if (FORBIDDEN_ESCAPE.test(path)) return null;

  // Dot segments as a URL parser resolves them ('%2e' counts as '.'), empty segments kept for now.
  const segments: string[] = [];
  const parts = path.slice(1).split('/');
  for (const [i, part] of parts.entries()) {
    const dots = part.replace(/%2e/gi, '.');
    const last = i === parts.length - 1;
    if (dots === '.' || dots === '..') {
      if (dots === '..') segments.pop();
      if (last) segments.push('');
    } else segments.push(part);
  }
  // A leading empty segment means the resolved path begins with '//': another host to a browser.
  if (segments.length > 1 && segments[0] === '') return null;
  const collapsed = segments.filter((segment, i) => segment !== '' || i === segments.length - 1);
  return `/${collapsed.join('/')}${rest}`;
}
