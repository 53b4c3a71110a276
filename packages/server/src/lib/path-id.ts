import { INT4_MAX, PROJECT_ID_PATTERN } from '@portal/shared';
import { z } from 'zod';

/**
 * A record id in a path: 1 to 10 digits ("The policy id is 1 to 10 digits." otherwise), and no larger than
 * PostgreSQL's integer ("No such policy."), so an id the database cannot hold is a 400, not a 500.
 */
export const pathId = (label: string) =>
  z
    .string()
    .regex(/^\d{1,10}$/, `The ${label} id is 1 to 10 digits.`)
    .transform(Number)
    .refine((id) => id <= INT4_MAX, `No such ${label}.`);

/** The `:projectId` of every project route (SPEC section 5: 1 to 10 digits). */
export const projectParams = z.object({
  projectId: z.string().regex(PROJECT_ID_PATTERN, 'The project id is 1 to 10 digits.').transform(Number),
});
