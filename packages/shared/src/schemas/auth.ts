import { z } from 'zod';
import { MESSAGES, TERMS_STATUSES } from '../sign-in.js';

/**
 * The sign-in contract (SPEC sections 3, 4, 7, 8; issue 3). Field names follow the SPEC verbatim, including
 * `g-recaptcha-response`, which carries the ALTCHA payload (base64 JSON) or is ignored when the captcha is off.
 */

export const loginRequestSchema = z
  .object({
    /** Not needed with `one_time_password` (step two knows the account, also after a single sign-on). */
    email: z.string().trim().max(254).default(''),
    password: z.string().max(1024).default(''),
    'g-recaptcha-response': z.string().max(10_000).optional(),
    accept_terms: z.boolean().optional(),
    /** A 6-digit TOTP code or a recovery code (step two, after { two_factor: true }). */
    one_time_password: z.string().trim().max(64).optional(),
  })
  .superRefine((value, ctx) => {
    if (!value.email && !value.one_time_password) {
      ctx.addIssue({ code: 'custom', path: ['email'], message: 'Enter your email or username.' });
    }
  });
export type LoginRequest = z.input<typeof loginRequestSchema>;

export const currentUserSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  role: z.enum(['superadmin', 'user']),
  first_name: z.string(),
  last_name: z.string(),
  two_factor_confirmed_at: z.string().nullable(),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

export const loginResponseSchema = z.union([
  z.object({ two_factor: z.literal(true) }),
  z.object({ user: currentUserSchema, setup_two_factor: z.literal(true).optional() }),
]);
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const authCheckSchema = z.object({
  authenticated: z.boolean(),
  user: z
    .object({
      id: z.number().int(),
      username: z.string(),
      role: z.enum(['superadmin', 'user']),
      /** Whether a secret exists: the secret itself never leaves the server (docs/security.md). */
      two_factor_secret: z.boolean(),
      two_factor_confirmed_at: z.string().nullable(),
      /**
       * The two-factor policy for this account (MFA_REQUIRED_ROLES, MFA_GRACE_DAYS): whether it must use two-factor,
       * the days left to set it up (null once on or when not required), and whether that time is over (then only
       * sign-in, sign-out and two-factor setup answer). Optional: older servers did not send it.
       */
      mfa: z
        .object({ required: z.boolean(), days_remaining: z.number().int().nullable(), overdue: z.boolean() })
        .optional(),
    })
    .nullable(),
});
export type AuthCheck = z.infer<typeof authCheckSchema>;

export const checkTermsQuerySchema = z.object({ email: z.string().trim().max(254) });
export const checkTermsResponseSchema = z.object({ status: z.enum(TERMS_STATUSES) });

export const forgotPasswordSchema = z.object({
  email: z.string().trim().max(254),
  captcha: z.string().max(10_000).optional(),
});

export const RESET_TOKEN_PATTERN = /^[0-9a-f]{64,128}$/i;

export const resetPasswordSchema = z.object({
  token: z.string().regex(RESET_TOKEN_PATTERN, MESSAGES.resetInvalidLink),
  email: z.email(MESSAGES.resetInvalidLink),
  password: z.string().min(1, 'The password field is required.').max(1024),
  password_confirmation: z.string().min(1, 'The password confirmation field is required.').max(1024),
  'g-recaptcha-response': z.string().max(10_000).optional(),
});

export const messageSchema = z.object({ message: z.string() });

/** GET /api/public/config: what the web needs before anyone signs in. */
export const publicConfigSchema = z.object({
  inactivityTimeoutMinutes: z.number().positive(),
  captcha: z.object({ provider: z.enum(['altcha', 'off']), challengeUrl: z.string() }),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;

export const twoFactorStatusSchema = z.object({
  enabled: z.boolean(),
  /** Setup started (secret stored) but not yet confirmed with a code. */
  pending: z.boolean(),
  confirmed_at: z.string().nullable(),
  recovery_codes_remaining: z.number().int(),
  required: z.boolean(),
  grace_days_remaining: z.number().int().nullable(),
});

export const twoFactorSetupSchema = z.object({
  secret: z.string(),
  otpauth_url: z.string(),
  /** The otpauth URL as an SVG QR code. */
  qr_svg: z.string(),
});

export const twoFactorCodeSchema = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'Enter the 6-digit code.'),
});
export const passwordConfirmSchema = z.object({ password: z.string().max(1024).optional() });

/**
 * Re-authentication (issue 29): turning two-factor on, off or resetting it and new recovery codes need a confirmation
 * this recent. Signing in (password, two-factor code or single sign-on) counts as one, and so does the password typed
 * again.
 */
export const PASSWORD_CONFIRMATION_MINUTES = 10;

/**
 * `details` of a 423 PASSWORD_CONFIRMATION_REQUIRED: how this user can confirm it is them. `password` when the account
 * has one; `sso` when the session came from a single sign-on provider that is still on: signing in there again is the
 * confirmation (an account without a password has no other way).
 */
export const reauthenticationSchema = z.object({
  password: z.boolean(),
  sso: z.object({ name: z.string(), login_url: z.string() }).nullable(),
});
export type Reauthentication = z.infer<typeof reauthenticationSchema>;

/** The 423's message for an account that cannot type a password: it signs in again instead. */
export function reauthenticationMessage(how: Reauthentication): string {
  if (how.password) return MESSAGES.passwordConfirmationRequired;
  if (how.sso) return `For your security, sign in again with ${how.sso.name} to continue.`;
  return 'For your security, sign out and sign in again to continue.';
}
export const recoveryCodesSchema = z.object({ recovery_codes: z.array(z.string()) });

export const sessionSchema = z.object({
  id: z.string(),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  created_at: z.string(),
  last_seen_at: z.string(),
  current: z.boolean(),
  /** The identity provider a single sign-on opened it through (decision record 023); absent for a password. */
  sso_provider: z.string().nullable().optional(),
});
export const sessionListSchema = z.object({ sessions: z.array(sessionSchema) });
