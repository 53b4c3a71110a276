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
