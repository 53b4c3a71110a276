import type {
  MonitoringRole,
  MonitoringRoleInput,
  monitoringRoleInputSchema,
  PagePermissionRow,
  PagePermissions,
  PagePermissionsUpdate,
} from '@portal/shared';
import { and, asc, count, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client.js';
import { personName } from '../../db/person-name.js';
import { monPagePermissions, monPages, monRoleMembers, monRoles, monUsers, users } from '../../db/schema/index.js';
import { changes } from '../../lib/audit-diff.js';
import { AppError } from '../../lib/errors.js';
import type { MonitoringActor } from '../../policies/monitoring.js';
import { type GrantRow, loadMatrix, loadPageAccess, type MatrixPage, requirePageAccess } from './page-access.js';
import { monitoringAudit, monitoringUserIds, requireMonitoringUsers } from './people.service.js';

/**
 * Monitoring roles (page-role-manager) and page permissions (page-permissions): decision record 008, docs
 * /monitoring.md "People and permissions". The matrix they show is the one page access is read from
 * (page-access.ts).
 */

/** The roles (id, name) of a project, by name. */
async function roleRefs(db: DbOrTx, projectId: number) {
  return db
    .select({ id: monRoles.id, name: monRoles.name })
    .from(monRoles)
    .where(eq(monRoles.projectId, projectId))
    .orderBy(asc(sql`lower(${monRoles.name})`), asc(monRoles.id));
}

/** The monitoring users (id, name) of a project, by name. */
async function monitoringUserRefs(db: DbOrTx, projectId: number) {
  return db
    .select({ id: users.id, name: personName })
    .from(monUsers)
    .innerJoin(users, eq(users.id, monUsers.userId))
    .where(eq(monUsers.projectId, projectId))
    .orderBy(asc(personName), asc(users.id));
}

/** The names of the users a grant names (a grant to someone who has left monitoring still shows their name). */
async function userNames(db: DbOrTx, userIds: number[]): Promise<Map<number, string>> {
  if (userIds.length === 0) return new Map();
  const rows = await db.select({ id: users.id, name: personName }).from(users).where(inArray(users.id, userIds));
  return new Map(rows.map((row) => [row.id, row.name]));
}

function rowsOf(
  matrix: Map<number, MatrixPage>,
  grants: GrantRow[],
  pageIds: Set<number>,
  roleNames: Map<number, string>,
  personNames: Map<number, string>,
): PagePermissionRow[] {
  const refOf = (key: { roleId: number | null; userId: number | null }) => ({
    role: key.roleId === null ? null : { id: key.roleId, name: roleNames.get(key.roleId) ?? '' },
    user: key.userId === null ? null : { id: key.userId, name: personNames.get(key.userId) ?? '' },
  });
  const rows: PagePermissionRow[] = [];
  for (const { page, open, effective } of matrix.values()) {
    if (!pageIds.has(page.id)) continue;
    rows.push({
      id: page.id,
      parent_id: page.parentId,
      number: page.number,
      title: page.title,
      depth: page.depth,
      restricted: page.restricted,
      open,
      grants: grants
        .filter((grant) => grant.pageId === page.id)
        .map((grant) => ({ id: grant.id, ...refOf(grant), level: grant.level })),
      effective: [...effective].map(([key, cell]) => {
        const source = cell.fromPageId === page.id ? null : matrix.get(cell.fromPageId)!.page;
        const id = Number(key.slice(1));
        return {
          ...refOf(key.startsWith('r') ? { roleId: id, userId: null } : { roleId: null, userId: id }),
          level: cell.level,
          inherited_from: source ? { id: source.id, number: source.number, title: source.title } : null,
        };
      }),
    });
  }
  return rows;
}

/**
 * GET /page-permissions: every page the actor manages (a monitoring administrator: all), in tree order. The
 * ancestors a grant is inherited from are visible to the actor (a hidden page would hide the page below it).
 */
export async function pagePermissions(db: DbOrTx, actor: MonitoringActor): Promise<PagePermissions> {
  const access = await loadPageAccess(db, actor);
  const managed = new Set([...access].filter(([, level]) => level === 'manage').map(([id]) => id));
  return permissionsFor(db, actor.projectId, managed);
}

async function permissionsFor(db: DbOrTx, projectId: number, pageIds: Set<number>): Promise<PagePermissions> {
  const { matrix, grants } = await loadMatrix(db, projectId);
  const roles = await roleRefs(db, projectId);
  const people = await monitoringUserRefs(db, projectId);
  const names = await userNames(db, [
    ...new Set(grants.flatMap((grant) => (grant.userId === null ? [] : [grant.userId]))),
  ]);
  return {
    pages: rowsOf(matrix, grants, pageIds, new Map(roles.map((role) => [role.id, role.name])), names),
    roles,
    people,
  };
}

/**
 * PUT /pages/{id}/permissions: the page's restricted flag and the whole list of its grants. Needs level manage on
 * the page; a role of another project or a person who does not take part in monitoring is refused per index.
 */
export async function updatePagePermissions(
  db: DbOrTx,
  actor: MonitoringActor,
  pageId: number,
  input: PagePermissionsUpdate,
  now: Date,
): Promise<PagePermissionRow> {
  await requirePageAccess(db, actor, pageId, 'manage');
  const roleIds = input.grants.flatMap((grant) => (grant.role_id === undefined ? [] : [grant.role_id]));
  const userIds = input.grants.flatMap((grant) => (grant.user_id === undefined ? [] : [grant.user_id]));
  const knownRoles = new Set(
    roleIds.length === 0
      ? []
      : (
          await db
            .select({ id: monRoles.id })
            .from(monRoles)
            .where(and(eq(monRoles.projectId, actor.projectId), inArray(monRoles.id, roleIds)))
        ).map((row) => row.id),
  );
  const knownUsers = await monitoringUserIds(db, actor.projectId, userIds);
  const errors: Record<string, string[]> = {};
  input.grants.forEach((grant, i) => {
    if (grant.role_id !== undefined && !knownRoles.has(grant.role_id)) {
      errors[`grants.${i}.role_id`] = ['This role is not a monitoring role of this project.'];
    }
    if (grant.user_id !== undefined && !knownUsers.has(grant.user_id)) {
      errors[`grants.${i}.user_id`] = ['This person does not take part in monitoring.'];
    }
  });
  if (Object.keys(errors).length) throw new AppError('VALIDATION_FAILED', Object.values(errors)[0]![0]!, errors);

  await db.transaction(async (tx) => {
    const [page] = await tx
      .select({ restricted: monPages.restricted })
      .from(monPages)
      .where(and(eq(monPages.projectId, actor.projectId), eq(monPages.id, pageId), isNull(monPages.deletedAt)))
      .for('update');
    if (!page) throw new AppError('NOT_FOUND', 'Page not found.');
    const before = await tx
      .select({
        roleId: monPagePermissions.roleId,
        userId: monPagePermissions.userId,
        level: monPagePermissions.level,
      })
      .from(monPagePermissions)
      .where(and(eq(monPagePermissions.projectId, actor.projectId), eq(monPagePermissions.pageId, pageId)));
    await tx
      .delete(monPagePermissions)
      .where(and(eq(monPagePermissions.projectId, actor.projectId), eq(monPagePermissions.pageId, pageId)));
    const after = input.grants.map((grant) => ({
      roleId: grant.role_id ?? null,
      userId: grant.user_id ?? null,
      level: grant.level,
    }));
    if (after.length) {
      await tx.insert(monPagePermissions).values(
        after.map((grant) => ({
          ...grant,
          projectId: actor.projectId,
          pageId,
          createdBy: actor.userId,
          createdAt: now,
        })),
      );
    }
    if (page.restricted !== input.restricted) {
      // The restricted flag is a field of the page: its version grows, so a page form open elsewhere sees the change.
      await tx
        .update(monPages)
        .set({
          restricted: input.restricted,
          version: sql`${monPages.version} + 1`,
          updatedAt: now,
          updatedBy: actor.userId,
        })
        .where(eq(monPages.id, pageId));
    }
    const plain = (rows: { roleId: number | null; userId: number | null; level: string }[]) =>
      rows.map((row) => ({ role_id: row.roleId, user_id: row.userId, level: row.level }));
    await monitoringAudit(
      tx,
      actor,
      'page_permissions_changed',
      { type: 'mon_page', id: pageId },
      {
        restricted: { from: page.restricted, to: input.restricted },
        grants: { from: plain(before), to: plain(after) },
        changes: changes(
          { restricted: page.restricted, grants: plain(before) },
          { restricted: input.restricted, grants: plain(after) },
        ),
      },
      now,
    );
  });
  const answer = await permissionsFor(db, actor.projectId, new Set([pageId]));
  return answer.pages[0]!;
}

// ---------------------------------------------------------------------------------------------------------------
// Monitoring roles

type RoleInput = z.output<typeof monitoringRoleInputSchema>;

export type { MonitoringRoleInput };

export async function listRoles(db: DbOrTx, projectId: number, roleId?: number): Promise<MonitoringRole[]> {
  const roles = await db
    .select({
      id: monRoles.id,
      name: monRoles.name,
      description: monRoles.description,
      updatedAt: monRoles.updatedAt,
    })
    .from(monRoles)
    .where(and(eq(monRoles.projectId, projectId), roleId === undefined ? undefined : eq(monRoles.id, roleId)))
    .orderBy(asc(sql`lower(${monRoles.name})`), asc(monRoles.id));
  if (roles.length === 0) return [];
  const ids = roles.map((role) => role.id);
  const members = await db
    .select({ roleId: monRoleMembers.roleId, id: users.id, name: personName })
    .from(monRoleMembers)
    .innerJoin(users, eq(users.id, monRoleMembers.userId))
    .where(and(eq(monRoleMembers.projectId, projectId), inArray(monRoleMembers.roleId, ids)))
    .orderBy(asc(personName), asc(users.id));
  const grants = await db
    .select({ roleId: monPagePermissions.roleId, n: count() })
    .from(monPagePermissions)
    .where(and(eq(monPagePermissions.projectId, projectId), inArray(monPagePermissions.roleId, ids)))
    .groupBy(monPagePermissions.roleId);
  const grantCount = new Map(grants.map((row) => [row.roleId, row.n]));
  return roles.map((role) => ({
    id: role.id,
    name: role.name,
    description: role.description,
    members: members.filter((member) => member.roleId === role.id).map(({ id, name }) => ({ id, name })),
    grant_count: grantCount.get(role.id) ?? 0,
    updated_at: role.updatedAt.toISOString(),
  }));
}

const NAME_TAKEN = 'A monitoring role with this name already exists.';
const nameTaken = () => new AppError('VALIDATION_FAILED', NAME_TAKEN, { name: [NAME_TAKEN] });
const isNameViolation = (error: unknown) => {
  const e = error as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
  const inner = e?.cause ?? e;
  return inner?.code === '23505' && inner?.constraint === 'mon_roles_name_unique';
};

async function checkRoleInput(db: DbOrTx, projectId: number, input: RoleInput, roleId?: number) {
  const [taken] = await db
    .select({ id: monRoles.id })
    .from(monRoles)
    .where(
      and(
        eq(monRoles.projectId, projectId),
        sql`lower(${monRoles.name}) = lower(${input.name})`,
        roleId === undefined ? undefined : ne(monRoles.id, roleId),
      ),
    );
  if (taken) throw nameTaken();
  await requireMonitoringUsers(db, projectId, input.member_ids, 'member_ids');
}

async function roleOf(db: DbOrTx, projectId: number, roleId: number) {
  const [role] = await db
    .select()
    .from(monRoles)
    .where(and(eq(monRoles.projectId, projectId), eq(monRoles.id, roleId)));
  if (!role) throw new AppError('NOT_FOUND', 'Monitoring role not found.');
  return role;
}

export async function createRole(
  db: DbOrTx,
  actor: MonitoringActor,
  input: RoleInput,
  now: Date,
): Promise<MonitoringRole> {
  await checkRoleInput(db, actor.projectId, input);
  let id: number;
  try {
    id = await db.transaction(async (tx) => {
      const [created] = await tx
        .insert(monRoles)
        .values({
          projectId: actor.projectId,
          name: input.name,
          description: input.description,
          createdBy: actor.userId,
          updatedBy: actor.userId,
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: monRoles.id });
      if (input.member_ids.length) {
        await tx.insert(monRoleMembers).values(
          input.member_ids.map((userId) => ({
            projectId: actor.projectId,
            roleId: created!.id,
            userId,
            createdBy: actor.userId,
            createdAt: now,
          })),
        );
      }
      await monitoringAudit(
        tx,
        actor,
        'role_created',
        { type: 'mon_role', id: created!.id },
        { name: input.name, member_ids: input.member_ids },
        now,
      );
      return created!.id;
    });
  } catch (error) {
    if (isNameViolation(error)) throw nameTaken();
    throw error;
  }
  return (await listRoles(db, actor.projectId, id))[0]!;
}

export async function updateRole(
  db: DbOrTx,
  actor: MonitoringActor,
  roleId: number,
  input: RoleInput,
  now: Date,
): Promise<MonitoringRole> {
  const role = await roleOf(db, actor.projectId, roleId);
  await checkRoleInput(db, actor.projectId, input, roleId);
  try {
    await db.transaction(async (tx) => {
      await tx
        .update(monRoles)
        .set({ name: input.name, description: input.description, updatedAt: now, updatedBy: actor.userId })
        .where(and(eq(monRoles.projectId, actor.projectId), eq(monRoles.id, roleId)));
      const current = (
        await tx
          .select({ userId: monRoleMembers.userId })
          .from(monRoleMembers)
          .where(and(eq(monRoleMembers.projectId, actor.projectId), eq(monRoleMembers.roleId, roleId)))
      ).map((row) => row.userId);
      const removed = current.filter((userId) => !input.member_ids.includes(userId));
      const added = input.member_ids.filter((userId) => !current.includes(userId));
      if (removed.length) {
        await tx
          .delete(monRoleMembers)
          .where(and(eq(monRoleMembers.roleId, roleId), inArray(monRoleMembers.userId, removed)));
      }
      if (added.length) {
        await tx.insert(monRoleMembers).values(
          added.map((userId) => ({
            projectId: actor.projectId,
            roleId,
            userId,
            createdBy: actor.userId,
            createdAt: now,
          })),
        );
      }
      await monitoringAudit(
        tx,
        actor,
        'role_updated',
        { type: 'mon_role', id: roleId },
        {
          name: { from: role.name, to: input.name },
          description_changed: role.description !== input.description,
          members: { added, removed },
          changes: changes(
            { name: role.name, description: role.description, member_ids: [...current].sort((a, b) => a - b) },
            {
              name: input.name,
              description: input.description,
              member_ids: [...new Set(input.member_ids)].sort((a, b) => a - b),
            },
          ),
        },
        now,
      );
    });
  } catch (error) {
    if (isNameViolation(error)) throw nameTaken();
    throw error;
  }
  return (await listRoles(db, actor.projectId, roleId))[0]!;
}

/** Deletes a role with its memberships and the page grants that name it. */
export async function deleteRole(db: DbOrTx, actor: MonitoringActor, roleId: number, now: Date) {
  const role = await roleOf(db, actor.projectId, roleId);
  return db.transaction(async (tx) => {
    const removed = await tx
      .delete(monPagePermissions)
      .where(and(eq(monPagePermissions.projectId, actor.projectId), eq(monPagePermissions.roleId, roleId)))
      .returning({ pageId: monPagePermissions.pageId, level: monPagePermissions.level });
    await tx.delete(monRoles).where(and(eq(monRoles.projectId, actor.projectId), eq(monRoles.id, roleId)));
    await monitoringAudit(
      tx,
      actor,
      'role_deleted',
      { type: 'mon_role', id: roleId },
      { name: role.name, grants_removed: removed },
      now,
    );
    return { deleted: roleId, grants_removed: removed.length };
  });
}
