import { z } from 'zod';
import { PAGE_GRANT_LEVELS } from '../monitoring/vocabulary.js';
import { emailSchema } from './admin.js';
import { recordId } from './common.js';
import { MONITORING_MAIN_ROLES } from './permissions.js';

/**
 * Contracts of monitoring (issue 8; decision record 008): monitoring users, main roles, monitoring roles and page
 * permissions. Calls under /api/projects/{id}/monitoring; docs/monitoring.md ("People and permissions") lists them.
 */

const id = z.number().int();
const ref = z.object({ id, name: z.string() });
const userIds = z
  .array(recordId)
  .max(500, 'Choose at most 500 people at once.')
  .refine((ids) => new Set(ids).size === ids.length, 'A person is listed twice.');

export const monitoringMainRoleSchema = z.enum(MONITORING_MAIN_ROLES);
export type MonitoringMainRole = z.infer<typeof monitoringMainRoleSchema>;

/** A project member as the monitoring people screens list them. */
export const monitoringPersonSchema = z.object({
  id,
  username: z.string(),
  name: z.string(),
  email: z.string(),
  project_role: z.enum(['admin', 'simple']),
  /** Their monitoring main role; null while a monitoring user has none (they see the "unconfigured" denial). */
  main_role: z.string().nullable(),
  /** Whether they take part in monitoring. */
  monitoring_user: z.boolean(),
});
export type MonitoringPerson = z.infer<typeof monitoringPersonSchema>;
/** GET /users/unassigned (members not in monitoring) and GET /users (the monitoring users). */
export const monitoringPeopleSchema = z.object({ users: z.array(monitoringPersonSchema) });

/** POST /users/assign (adds) and /users/update (the whole list: members left out stop taking part). */
export const monitoringUsersBodySchema = z.object({ user_ids: userIds }).strict();
export const monitoringUsersAssignSchema = z
  .object({ user_ids: userIds.min(1, 'Choose at least one person.') })
  .strict();

/** PUT /users/{userId}/main-role; null removes the role (the person stays a monitoring user). */
export const monitoringMainRoleBodySchema = z
  .object({ main_role: z.enum(MONITORING_MAIN_ROLES, 'Choose a main role.').nullable() })
  .strict();
export const monitoringMainRoleBulkSchema = z
  .object({
    items: z
      .array(
        z
          .object({
            user_id: recordId,
            main_role: z.enum(MONITORING_MAIN_ROLES, 'Choose a main role.').nullable(),
          })
          .strict(),
      )
      .min(1, 'Choose at least one person.')
      .max(500, 'Change at most 500 roles at once.')
      .refine((items) => new Set(items.map((i) => i.user_id)).size === items.length, 'A person is listed twice.'),
  })
  .strict();
export type MonitoringMainRoleBulk = z.infer<typeof monitoringMainRoleBulkSchema>;
export type MonitoringMainRoleChange = MonitoringMainRoleBulk['items'][number];

/** What is waiting for someone on the main-role dashboard (counts only: no page title is named). */
export const MONITORING_WORK_KINDS = [
  /** page_owner: live pages they own without a published key insight. */
  'pages_without_insight',
  /** page_owner: live draft pages they own. */
  'draft_pages',
  /** data_entry: data requests assigned to them and not delivered yet. */
  'assigned_requests',
  /** monitoring_admin: submitted data requests nobody is assigned to. */
  'unassigned_requests',
  /** monitoring_admin: live pages without an owner. */
  'pages_without_owner',
  /** viewer: their own data requests still open. */
  'own_open_requests',
] as const;
export type MonitoringWorkKind = (typeof MONITORING_WORK_KINDS)[number];

const dashboardPersonSchema = z.object({ id, name: z.string(), username: z.string() });
/** GET /main-role-dashboard: per main role its people and their open work, and the monitoring users without one. */
export const mainRoleDashboardSchema = z.object({
  roles: z.array(
    z.object({
      role: monitoringMainRoleSchema,
      people: z.array(
        dashboardPersonSchema.extend({
          work: z.array(z.object({ kind: z.enum(MONITORING_WORK_KINDS), count: z.number().int() })),
        }),
      ),
    }),
  ),
  without_role: z.array(dashboardPersonSchema),
});
export type MainRoleDashboard = z.infer<typeof mainRoleDashboardSchema>;

/**
 * POST /user-requests: a monitoring administrator asks the superadmins for an account for someone who will take part
 * in monitoring. The request is filed with project role "simple" and this main role.
 */
export const MONITORING_USER_REQUEST_JUSTIFICATION_MAX = 2000;
export const monitoringUserRequestCreateSchema = z
  .object({
    first_name: z
      .string()
      .trim()
      .min(1, 'Enter the first name.')
      .max(100, 'First name must be at most 100 characters.'),
    last_name: z.string().trim().min(1, 'Enter the last name.').max(100, 'Last name must be at most 100 characters.'),
    email: emailSchema,
    main_role: z.enum(MONITORING_MAIN_ROLES, 'Choose a main role.'),
    justification: z
      .string()
      .trim()
      .min(1, 'Enter the justification.')
      .max(
        MONITORING_USER_REQUEST_JUSTIFICATION_MAX,
        `Justification must be at most ${MONITORING_USER_REQUEST_JUSTIFICATION_MAX} characters.`,
      ),
  })
  .strict();
export type MonitoringUserRequestCreate = z.input<typeof monitoringUserRequestCreateSchema>;

/** A monitoring role (page-role-manager): a group of monitoring users that page permissions name. */
export const monitoringRoleSchema = z.object({
  id,
  name: z.string(),
  description: z.string(),
  members: z.array(ref),
  /** How many page grants name this role (deleting the role removes them). */
  grant_count: z.number().int(),
  updated_at: z.string(),
});
export type MonitoringRole = z.infer<typeof monitoringRoleSchema>;
export const monitoringRolesSchema = z.object({ roles: z.array(monitoringRoleSchema) });

export const MONITORING_ROLE_NAME_MAX = 80;
export const MONITORING_ROLE_DESCRIPTION_MAX = 500;
/** POST /roles and PUT /roles/{id}: names are unique per project (case-insensitive); members are monitoring users. */
export const monitoringRoleInputSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, 'Enter a name.')
      .max(MONITORING_ROLE_NAME_MAX, `A name is at most ${MONITORING_ROLE_NAME_MAX} characters.`),
    description: z
      .string()
      .trim()
      .max(MONITORING_ROLE_DESCRIPTION_MAX, `A description is at most ${MONITORING_ROLE_DESCRIPTION_MAX} characters.`)
      .default(''),
    member_ids: userIds.default([]),
  })
  .strict();
export type MonitoringRoleInput = z.input<typeof monitoringRoleInputSchema>;
export const monitoringRoleDeletedSchema = z.object({ deleted: id, grants_removed: z.number().int() });

/** A grant on a page: to a monitoring role or to one person (exactly one of the two). */
export const pageGrantSchema = z.object({
  id,
  role: ref.nullable(),
  user: ref.nullable(),
  level: z.enum(PAGE_GRANT_LEVELS),
});
export type PageGrant = z.infer<typeof pageGrantSchema>;

/**
 * What a grant gives on a page once inheritance is applied: the strongest grant of that role or person on the page or
 * an ancestor down to the nearest restricted page (decision record 008). `inherited_from` names the ancestor it comes
 * from; null when it is the page's own grant.
 */
export const effectiveGrantSchema = z.object({
  role: ref.nullable(),
  user: ref.nullable(),
  level: z.enum(PAGE_GRANT_LEVELS),
  inherited_from: z.object({ id, number: z.string().nullable(), title: z.string() }).nullable(),
});
export type EffectiveGrant = z.infer<typeof effectiveGrantSchema>;

export const pagePermissionRowSchema = z.object({
  id,
  parent_id: id.nullable(),
  number: z.string().nullable(),
  title: z.string(),
  depth: z.number().int(),
  restricted: z.boolean(),
  /** No restricted page on its path: every monitoring user views it, grants or not. */
  open: z.boolean(),
  grants: z.array(pageGrantSchema),
  effective: z.array(effectiveGrantSchema),
});
export type PagePermissionRow = z.infer<typeof pagePermissionRowSchema>;

/**
 * GET /page-permissions: every page the user may manage, in tree order, with the roles and monitoring users a grant
 * may name (the matrix's columns and the editor's choices).
 */
export const pagePermissionsSchema = z.object({
  pages: z.array(pagePermissionRowSchema),
  roles: z.array(ref),
  people: z.array(ref),
});
export type PagePermissions = z.infer<typeof pagePermissionsSchema>;

/** PUT /pages/{id}/permissions: the page's restricted flag and the whole list of its grants. */
export const pagePermissionsUpdateSchema = z
  .object({
    restricted: z.boolean('Say whether the page is restricted.'),
    grants: z
      .array(
        z
          .object({
            role_id: recordId.optional(),
            user_id: recordId.optional(),
            level: z.enum(PAGE_GRANT_LEVELS, 'Choose view, edit or manage.'),
          })
          .strict(),
      )
      .max(200, 'A page has at most 200 grants.'),
  })
  .strict()
  .superRefine((body, ctx) => {
    const seen = new Set<string>();
    body.grants.forEach((grant, i) => {
      if ((grant.role_id === undefined) === (grant.user_id === undefined)) {
        ctx.addIssue({ code: 'custom', path: ['grants', i], message: 'Choose a role or a person.' });
        return;
      }
      const key = grant.role_id !== undefined ? `r${grant.role_id}` : `u${grant.user_id}`;
      if (seen.has(key)) {
        ctx.addIssue({
          code: 'custom',
          path: ['grants', i],
          message: 'This role or person already has a grant on the page.',
        });
      }
      seen.add(key);
    });
  });
export type PagePermissionsUpdate = z.infer<typeof pagePermissionsUpdateSchema>;
