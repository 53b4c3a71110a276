import type { AuditChanges } from '@portal/shared';

/**
 * What an update changed, for its audit event (issue 26): `changes(before, after)` answers `{ field: { from, to } }`
 * for the fields whose value differs, and nothing for the others. Record it as the event's `data.changes`.
 *
 * - The fields compared are the keys of `after` (a patch compares only what it sets), or `options.fields`.
 * - Values compare by content (JSON with sorted keys), so `['a','b']` equals a fresh `['a','b']`; a Date is compared
 *   and recorded as its ISO time; `undefined` as null.
 * - Secret fields are named, never valued: `{ field: { changed: true } }`. A field is secret when `options.secret`
 *   names it, or when its name speaks of a password, token, secret or an encrypted (encounter) reference.
 * - Long text (policy and terms HTML, notes, introductions) is recorded shortened to its first
 *   AUDIT_TEXT_LIMIT (200) characters followed by "…": the log says what changed, the record keeps the whole text.
 *   The comparison itself uses the whole text.
 */
export const AUDIT_TEXT_LIMIT = 200;

const SECRET_NAME = /password|token|secret|encrypted|encounter_?ref/i;

export interface ChangesOptions {
  /** Further fields recorded only as changed (their values never stored). */
  secret?: readonly string[];
  /** The fields to compare (default: the keys of `after`). */
  fields?: readonly string[];
}

type Fields = object | null | undefined;

export function changes(before: Fields, after: Fields, options: ChangesOptions = {}): AuditChanges {
  const from = (before ?? {}) as Record<string, unknown>;
  const to = (after ?? {}) as Record<string, unknown>;
  const secret = new Set(options.secret ?? []);
  const result: AuditChanges = {};
  for (const field of options.fields ?? Object.keys(to)) {
    const a = plain(from[field]);
    const b = plain(to[field]);
    if (stableJson(a) === stableJson(b)) continue;
    result[field] =
      secret.has(field) || SECRET_NAME.test(field) ? { changed: true } : { from: shorten(a), to: shorten(b) };
  }
  return result;
}

/** Text cut to AUDIT_TEXT_LIMIT characters with "…" (other values as they are). */
export function shorten<T>(value: T): T | string {
  return typeof value === 'string' && value.length > AUDIT_TEXT_LIMIT ? `${value.slice(0, AUDIT_TEXT_LIMIT)}…` : value;
}

/** A value as JSON would store it: Dates as ISO times, undefined as null, nested alike. */
function plain(value: unknown): unknown {
  if (value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, plain(v)]),
    );
  }
  return value;
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
