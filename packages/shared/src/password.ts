/**
 * Basic password requirements of SPEC section 5 (length and character classes). The full rules module with
 * zxcvbn scoring, common words and keyboard sequences replaces this with the sign-in issue; callers keep calling
 * `passwordProblems`.
 */
export const PASSWORD_MIN_LENGTH = 12;

export function passwordProblems(password: string): string[] {
  const problems: string[] = [];
  if (password.length < PASSWORD_MIN_LENGTH) problems.push('Password must be at least 12 characters long');
  if (!/[A-Z]/.test(password)) problems.push('Password must contain an uppercase letter');
  if (!/[a-z]/.test(password)) problems.push('Password must contain a lowercase letter');
  if (!/\d/.test(password)) problems.push('Password must contain a digit');
  if (!/[^A-Za-z0-9]/.test(password)) problems.push('Password must contain a special character');
  if (/(.)\1\1/.test(password)) problems.push('Avoid repeating the same character multiple times in a row');
  return problems;
}
