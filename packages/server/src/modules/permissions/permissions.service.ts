import { isAllowed, PERMISSION_APPS, type PermissionApp, type PermissionRule } from '@portal/shared';
import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { permissionRules, projectMemberRoles } from '../../db/schema/index.js';
import { DEFAULT_RULES } from '../../policies/permission-defaults.js';
import type { ProjectAccess } from '../../policies/projects.js';

/** The default rules of an app (policies/permission-defaults.ts), section path -> main roles allowed: what a project's rules differ from. */
export const defaultRolesOf = (app: PermissionApp): Map<string, readonly string[]> =>
  new Map(DEFAULT_RULES[app].map((rule) => [rule.path, rule.allowed_roles]));

/** The rules in force for an app of a project: the defaults, with the project's own rules in their place. */
export async function rulesFor(db: DbOrTx, projectId: number, app: PermissionApp): Promise<PermissionRule[]> {
  const own = await db
    .select({ path: permissionRules.path, allowed_roles: permissionRules.allowedRoles })
    .from(permissionRules)
    .where(and(eq(permissionRules.projectId, projectId), eq(permissionRules.app, app)));
  return withDefaultRules(app, own);
}

/** A project's own rules of an app over the defaults (a path it has no rule for keeps the default). */
export function withDefaultRules(app: PermissionApp, own: readonly PermissionRule[]): PermissionRule[] {
  const byPath = new Map(DEFAULT_RULES[app].map((rule) => [rule.path, rule]));
  for (const rule of own) byPath.set(rule.path, rule);
  return [...byPath.values()];
}

/** The member's main role in an app of the project, or null. */
export async function mainRoleOf(
  db: DbOrTx,
  projectId: number,
  userId: number,
  app: PermissionApp,
): Promise<string | null> {
  const [row] = await db
    .select({ mainRole: projectMemberRoles.mainRole })
    .from(projectMemberRoles)
    .where(
      and(
        eq(projectMemberRoles.projectId, projectId),
        eq(projectMemberRoles.userId, userId),
        eq(projectMemberRoles.app, app),
      ),
    );
  return row?.mainRole ?? null;
}

/** { "{app}:{section}": allowed } for every section that has a rule, as the server will enforce it. */
export async function permissionMap(
  db: DbOrTx,
  access: ProjectAccess,
  userId: number,
  apps: readonly PermissionApp[] = PERMISSION_APPS,
): Promise<Record<string, boolean>> {
  const map: Record<string, boolean> = {};
  for (const app of apps) {
    const rules = await rulesFor(db, access.project.id, app);
    const role = access.isSuperadmin ? null : await mainRoleOf(db, access.project.id, userId, app);
    for (const rule of rules) map[`${app}:${rule.path}`] = access.isSuperadmin || isAllowed(rules, rule.path, role);
  }
  return map;
}
