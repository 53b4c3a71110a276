import { z } from 'zod';

export const errorBodySchema = z.object({
  message: z.string(),
  code: z.string().optional(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
  /** 403 of the two-factor policy (SPEC section 7 "MFA"): the web starts the setup flow. */
  mfa_required: z.literal(true).optional(),
  /** Structured detail a screen can place precisely (e.g. formula errors with character positions). */
  details: z.record(z.string(), z.unknown()).optional(),
});

/** A real calendar day 'YYYY-MM-DD' (2026-02-30 is refused): the one check every date field uses. */
export function isRealDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** PostgreSQL integer columns (ids, versions, positions) stop at 2^31 - 1: a larger number in a request names nothing. */
export const INT4_MAX = 2_147_483_647;

/** A record's id in a request body: a positive 32-bit integer ("No such record." past it, not a database error). */
export const recordId = z.number().int().positive().max(INT4_MAX, 'No such record.');

/** The same in a query string, where it arrives as text. */
export const queryRecordId = z.coerce.number().int().positive().max(INT4_MAX, 'No such record.');
