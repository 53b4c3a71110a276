import type { z } from 'zod';
import { ApiError } from './api';

export type FieldErrors<K extends string> = Partial<Record<K, string>>;

/** The first message per field of a 400, 409 or 422 answer ({ message, errors: { field: [...] } }), for the given fields only. */
export function serverFieldErrors<K extends string>(error: unknown, fields: readonly K[]): FieldErrors<K> {
  if (!(error instanceof ApiError) || error.status < 400 || error.status >= 500) return {};
  const errors = (error.body as { errors?: unknown } | null)?.errors;
  if (!errors || typeof errors !== 'object') return {};
  const found: FieldErrors<K> = {};
  for (const field of fields) {
    const value = (errors as Record<string, unknown>)[field];
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === 'string' && first.trim()) found[field] = first;
  }
  return found;
}

/** The first message per field of a failed zod parse. */
export function schemaFieldErrors<K extends string>(error: z.ZodError): FieldErrors<K> {
  const found: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path[0];
    if (typeof key === 'string' && !(key in found)) found[key] = issue.message;
  }
  return found as FieldErrors<K>;
}

/**
 * The messages of a 400's `errors` whose keys match `pattern` (its first group: an index, as in `items.{index}`),
 * the first message per index.
 */
export function indexedErrors(error: unknown, pattern: RegExp): Map<number, string> {
  const found = new Map<number, string>();
  if (!(error instanceof ApiError) || error.status < 400 || error.status >= 500) return found;
  const errors = (error.body as { errors?: unknown } | null)?.errors;
  if (!errors || typeof errors !== 'object') return found;
  for (const [key, value] of Object.entries(errors as Record<string, unknown>)) {
    const match = pattern.exec(key);
    const first = Array.isArray(value) ? value[0] : value;
    if (match && typeof first === 'string' && first.trim()) {
      const index = Number(match[1]);
      if (!found.has(index)) found.set(index, first);
    }
  }
  return found;
}
