import { z } from 'zod';

/** PUT /api/user/profile. */
export const profileUpdateSchema = z.object({
  first_name: z.string().trim().min(1, 'Enter your first name.').max(100),
  last_name: z.string().trim().min(1, 'Enter your last name.').max(100),
});

/** PUT /api/user/password: the current password, a new one meeting the rules, twice. Ends the other sessions. */
export const passwordChangeSchema = z.object({
  current_password: z.string().min(1, 'Enter your current password.').max(1024),
  password: z.string().min(1, 'Enter a new password.').max(1024),
  password_confirmation: z.string().min(1, 'Repeat the new password.').max(1024),
});

/** PUT /api/user/email: the new address and the password (re-authentication). */
export const emailChangeSchema = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email('Enter a valid email address.')).pipe(z.string().max(254)),
  password: z.string().min(1, 'Enter your password to confirm.').max(1024),
});
