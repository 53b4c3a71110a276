import { z } from 'zod';
import { PAGE_GRANT_LEVELS } from '../monitoring/vocabulary.js';
import { monitoringMainRoleSchema, peopleIdsSchema } from './app-people.js';
import { recordId } from './common.js';

/**
 * Contracts of monitoring's people (issue 8; decision record 008) beyond the users and main roles every app shares
 * (app-people.ts): the main-role dashboard, monitoring roles and page permissions. Calls under
 * /api/projects/{id}/monitoring; docs/monitoring.md ("People and permissions") lists them.
 */

const id = z.number().int();
const ref = z.object({ id, name: z.string() });

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
    member_ids: peopleIdsSchema.default([]),
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
