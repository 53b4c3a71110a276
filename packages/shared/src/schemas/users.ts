import { z } from 'zod';
import { passwordProblems, weakPasswordMessage } from '../password.js';

export const USERNAME_PATTERN = /^[A-Za-z0-9._-]{3,50}$/;

export const usernameSchema = z
  .string()
  .trim()
  .regex(USERNAME_PATTERN, 'Username must be 3 to 50 letters, digits, dots, hyphens or underscores.');

export const newPasswordSchema = z.string().superRefine((password, ctx) => {
  const problems = passwordProblems(password);
  if (problems.length) {
    ctx.addIssue({ code: 'custom', message: weakPasswordMessage(problems) });
  }
});

export const createSuperadminSchema = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email('Enter a valid email address.')).pipe(z.string().max(254)),
  username: usernameSchema,
  firstName: z.string().trim().max(100).default(''),
  lastName: z.string().trim().max(100).default(''),
  password: newPasswordSchema,
});
export type CreateSuperadminInput = z.input<typeof createSuperadminSchema>;
