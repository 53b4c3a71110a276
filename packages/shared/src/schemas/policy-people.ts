import { z } from 'zod';
import { emailSchema } from './admin.js';
import { recordId } from './common.js';
import { POLICY_MAIN_ROLES } from './permissions.js';

/**
 * Contracts of policy management's people (issue 7, SPEC section 7 "Project-scoped users"): which project members
 * take part in policy management ("policy users") and their main role there. Calls under
 * /api/projects/{id}/policy-management/; docs/policies.md lists them.
 */

const id = z.number().int();
const userIds = z
  .array(recordId)
  .max(500, 'Choose at most 500 people at once.')
  .refine((ids) => new Set(ids).size === ids.length, 'A person is listed twice.');

export const policyMainRoleSchema = z.enum(POLICY_MAIN_ROLES);

/** A project member as the people screens list them. */
export const policyPersonSchema = z.object({
  id,
  username: z.string(),
  name: z.string(),
  email: z.string(),
  project_role: z.enum(['admin', 'simple']),
  /** Their policy management main role; null while a policy user has none (they see the "unconfigured" denial). */
  main_role: z.string().nullable(),
  /** Whether they take part in policy management. */
  policy_user: z.boolean(),
});
export type PolicyPerson = z.infer<typeof policyPersonSchema>;
export const policyPeopleSchema = z.object({ users: z.array(policyPersonSchema) });

/** POST policy-users/assign (adds) and policy-users/update (the whole list: members left out stop taking part). */
export const policyUsersBodySchema = z.object({ user_ids: userIds }).strict();
export const policyUsersAssignSchema = z.object({ user_ids: userIds.min(1, 'Choose at least one person.') }).strict();

/** PUT pol-man-users/{userId}/main-role; null removes the role (the person stays a policy user). */
export const mainRoleBodySchema = z.object({ main_role: policyMainRoleSchema.nullable() }).strict();
export const mainRoleBulkSchema = z
  .object({
    items: z
      .array(z.object({ user_id: recordId, main_role: policyMainRoleSchema.nullable() }).strict())
      .min(1, 'Choose at least one person.')
      .max(500, 'Change at most 500 roles at once.')
      .refine((items) => new Set(items.map((i) => i.user_id)).size === items.length, 'A person is listed twice.'),
  })
  .strict();
export type MainRoleBulk = z.infer<typeof mainRoleBulkSchema>;

/**
 * POST policy-management/user-requests: a policy administrator asks the superadmins for an account for someone
 * who will take part in policy management. The request is filed with project role "simple" and this main role.
 */
export const POLICY_USER_REQUEST_JUSTIFICATION_MAX = 2000;
export const policyUserRequestCreateSchema = z
  .object({
    first_name: z
      .string()
      .trim()
      .min(1, 'Enter the first name.')
      .max(100, 'First name must be at most 100 characters.'),
    last_name: z.string().trim().min(1, 'Enter the last name.').max(100, 'Last name must be at most 100 characters.'),
    email: emailSchema,
    main_role: z.enum(POLICY_MAIN_ROLES, 'Choose a main role.'),
    justification: z
      .string()
      .trim()
      .min(1, 'Enter the justification.')
      .max(
        POLICY_USER_REQUEST_JUSTIFICATION_MAX,
        `Justification must be at most ${POLICY_USER_REQUEST_JUSTIFICATION_MAX} characters.`,
      ),
  })
  .strict();
export type PolicyUserRequestCreate = z.input<typeof policyUserRequestCreateSchema>;
