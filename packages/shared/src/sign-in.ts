/**
 * What the sign-in pages say and need before anyone is signed in, without a validation library: the login page's
 * JavaScript downloads no zod (decision record 030, bench/budgets.ts). The schemas of these requests are in
 * schemas/auth.ts.
 */

export const TERMS_STATUSES = ['accepted', 'not_found', 'needs_initial_acceptance', 'needs_update_acceptance'] as const;
export type TermsStatus = (typeof TERMS_STATUSES)[number];

export const MESSAGES = {
  captchaRequired: 'Please complete the captcha.',
  termsRequired: 'Please accept the terms and conditions to proceed.',
  loginFailed: 'Login failed',
  invalidCredentials: 'These credentials do not match our records.',
  forgotSent: 'If an account with this email exists, a password reset link has been sent to it.',
  forgotFailed: 'Something went wrong.',
  resetInvalidLink: 'Invalid link for password reset.',
  resetMismatch: 'Passwords do not match. Please make sure both password fields are identical.',
  resetSuccess: 'Password changed successfully. Redirecting...',
  resetFailed: 'Reset failed',
  resetUnknown: 'An unknown error occurred during reset.',
  resetInvalidToken: 'This password reset link is invalid or has expired. Please request a new one.',
  resetSamePassword: 'The new password must be different from your current password.',
  csrfMismatch: 'CSRF token mismatch.',
  unauthenticated: 'Unauthenticated.',
  invalidCode: 'The provided two-factor authentication code was invalid.',
  passwordConfirmationRequired: 'Please confirm your password to continue.',
  mfaRequired: 'Two-factor authentication is required for your account. Set it up to continue.',
  inactivityLogout: 'You were signed out after a period of inactivity.',
  sessionEnded:
    'You were signed out: your account was turned off or your sessions were ended. Contact your administrator if this is unexpected.',
} as const;

/** Response headers of the two-factor policy (SPEC section 7 "MFA"). */
export const MFA_GRACE_HEADER = 'x-mfa-grace-days-remaining';

/**
 * Whether an address is a well-formed email, by the pattern zod's `z.email()` checks (sign-in.test.ts holds them
 * together): the sign-in page asks for the terms only for a well-formed address (SPEC section 5).
 */
const EMAIL_PATTERN =
  /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;
export function isWellFormedEmail(value: string): boolean {
  return EMAIL_PATTERN.test(value.trim());
}
