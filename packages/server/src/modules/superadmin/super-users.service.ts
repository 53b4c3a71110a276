import {
  type MainRoles,
  PERMISSION_APPS,
  type ProjectRole,
  type SuperUserDetail,
  type SuperUserRow,
  type superUserListQuerySchema,
} from '@portal/shared';
import { and, asc, count, eq, exists, ilike, inArray, isNotNull, ne, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client.js';
import { projectMemberships, projects, users } from '../../db/schema/index.js';
import { AppError, notFound } from '../../lib/errors.js';
import { lockedUntilSql } from '../auth/login-attempts.repository.js';
import { type Actor, keepOneAdmin, mainRolesByUser, writeMainRoles } from '../members/members.service.js';
import type { ProjectNotices } from '../notifications/notices.js';
import { escapeLike } from './search.js';

type UserRow = typeof users.$inferSelect;

const projectCount = sql<number>`(select count(*)::int from project_memberships pm where pm.user_id = "users"."id")`;

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

function presentRow(user: UserRow, lockedUntil: Date | string | null, projectsCount: number): SuperUserRow {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    first_name: user.firstName,
    last_name: user.lastName,
    role: user.role as SuperUserRow['role'],
    status: user.status as SuperUserRow['status'],
    locked: lockedUntil !== null,
    two_factor_enabled: user.twoFactorConfirmedAt !== null,
    last_login_at: iso(user.lastLoginAt),
    project_count: projectsCount,
    created_at: user.createdAt.toISOString(),
  };
}

export async function listUsers(db: DbOrTx, query: z.output<typeof superUserListQuerySchema>, now: Date) {
  const { q, role, status, project, page, page_size } = query;
  const lockedUntil = lockedUntilSql(now);
  const filters: (SQL | undefined)[] = [];
  if (q) {
    const like = `%${escapeLike(q)}%`;
    filters.push(
      or(
        ilike(users.email, like),
        ilike(users.username, like),
        ilike(users.firstName, like),
        ilike(users.lastName, like),
        sql`(${users.firstName} || ' ' || ${users.lastName}) ilike ${like}`,
      ),
    );
  }
  if (role) filters.push(eq(users.role, role));
  if (status === 'locked') filters.push(sql`${lockedUntil} is not null`);
  else if (status) filters.push(eq(users.status, status));
  if (project) {
    filters.push(
      exists(
        db
          .select({ one: sql`1` })
          .from(projectMemberships)
          .where(and(eq(projectMemberships.userId, users.id), eq(projectMemberships.projectId, project))),
      ),
    );
  }
  const where = and(...filters);
  const [total] = await db.select({ n: count() }).from(users).where(where);
  const rows = await db
    .select({ user: users, lockedUntil, projectsCount: projectCount })
    .from(users)
    .where(where)
    .orderBy(asc(sql`lower(${users.lastName})`), asc(sql`lower(${users.firstName})`), asc(users.id))
    .limit(page_size)
    .offset((page - 1) * page_size);
  return {
    users: rows.map((row) => presentRow(row.user, row.lockedUntil, row.projectsCount)),
    total: total?.n ?? 0,
    page,
    page_size,
  };
}

export async function loadUserDetail(db: DbOrTx, userId: number, now: Date): Promise<SuperUserDetail> {
  const [row] = await db
    .select({ user: users, lockedUntil: lockedUntilSql(now), projectsCount: projectCount })
    .from(users)
    .where(eq(users.id, userId));
  if (!row) throw notFound('User not found.');
  const memberships = await db
    .select({ membership: projectMemberships, projectName: projects.name })
    .from(projectMemberships)
    .innerJoin(projects, eq(projects.id, projectMemberships.projectId))
    .where(eq(projectMemberships.userId, userId))
    .orderBy(asc(sql`lower(${projects.name})`));
  const roles = new Map<number, Awaited<ReturnType<typeof mainRolesByUser>>>();
  for (const { membership } of memberships) {
    roles.set(membership.projectId, await mainRolesByUser(db, membership.projectId, [userId]));
  }
  return {
    ...presentRow(row.user, row.lockedUntil, row.projectsCount),
    locked_until: iso(row.lockedUntil),
    password_set: row.user.passwordHash !== null,
    is_demo: row.user.isDemo,
    memberships: memberships.map(({ membership, projectName }) => ({
      project_id: membership.projectId,
      project_name: projectName,
      project_role: membership.projectRole as ProjectRole,
      main_roles: roles.get(membership.projectId)?.get(userId) ?? {
        monitoring: null,
        policy_management: null,
        chart_review: null,
      },
    })),
    updated_at: row.user.updatedAt.toISOString(),
  };
}

/** 409 with the field when an email or username belongs to another account (compared case-insensitively). */
export async function assertUnique(
  db: DbOrTx,
  values: { email?: string; username?: string },
  exceptUserId?: number,
): Promise<void> {
  const checks: SQL[] = [];
  if (values.email) checks.push(sql`lower(${users.email}) = ${values.email.toLowerCase()}`);
  if (values.username) checks.push(sql`lower(${users.username}) = ${values.username.toLowerCase()}`);
  if (!checks.length) return;
  const taken = await db
    .select({ id: users.id, email: users.email, username: users.username })
    .from(users)
    .where(or(...checks));
  const others = taken.filter((user) => user.id !== exceptUserId);
  if (!others.length) return;
  const errors: Record<string, string[]> = {};
  if (values.email && others.some((u) => u.email.toLowerCase() === values.email!.toLowerCase()))
    errors.email = ['A user with this email already exists.'];
  if (values.username && others.some((u) => u.username.toLowerCase() === values.username!.toLowerCase()))
    errors.username = ['A user with this username already exists.'];
  throw new AppError('CONFLICT', Object.values(errors)[0]![0]!, errors);
}

/** 400 naming the field when a membership points at a project that does not exist. */
export async function assertProjectsExist(db: DbOrTx, projectIds: number[]): Promise<void> {
  if (!projectIds.length) return;
  const found = await db.select({ id: projects.id }).from(projects).where(inArray(projects.id, projectIds));
  const known = new Set(found.map((p) => p.id));
  const errors: Record<string, string[]> = {};
  projectIds.forEach((id, index) => {
    if (!known.has(id)) errors[`memberships.${index}.project_id`] = ['This project does not exist.'];
  });
  if (Object.keys(errors).length) throw new AppError('VALIDATION_FAILED', 'A chosen project does not exist.', errors);
}

const completeRoles = (roles: MainRoles): MainRoles =>
  Object.fromEntries(PERMISSION_APPS.map((app) => [app, roles[app] ?? null])) as MainRoles;

/**
 * Makes the user's memberships exactly the list given: projects left out are left, the others get the given
 * project role and main roles (apps left out lose their role). Keeps every project's last admin.
 */
export async function replaceMemberships(
  tx: DbOrTx,
  userId: number,
  wanted: { project_id: number; project_role: ProjectRole; main_roles: MainRoles }[],
  actor: Actor,
  now: Date,
): Promise<{ before: { project_id: number; project_role: string }[]; notices: ProjectNotices[] }> {
  const notices: ProjectNotices[] = [];
  await assertProjectsExist(
    tx,
    wanted.map((m) => m.project_id),
  );
  const current = await tx.select().from(projectMemberships).where(eq(projectMemberships.userId, userId)).for('update');
  const wantedById = new Map(wanted.map((m) => [m.project_id, m]));
  for (const membership of current) {
    const next = wantedById.get(membership.projectId);
    if (membership.projectRole === 'admin' && next?.project_role !== 'admin') {
      await keepOneAdmin(tx, membership.projectId, userId);
    }
    if (!next) {
      const pruned = await writeMainRoles(tx, membership.projectId, userId, completeRoles({}), actor, now);
      notices.push({ projectId: membership.projectId, notices: pruned });
      await tx
        .delete(projectMemberships)
        .where(and(eq(projectMemberships.projectId, membership.projectId), eq(projectMemberships.userId, userId)));
    }
  }
  for (const membership of wanted) {
    await tx
      .insert(projectMemberships)
      .values({ projectId: membership.project_id, userId, projectRole: membership.project_role, createdAt: now })
      .onConflictDoUpdate({
        target: [projectMemberships.projectId, projectMemberships.userId],
        set: { projectRole: membership.project_role },
      });
    const pruned = await writeMainRoles(
      tx,
      membership.project_id,
      userId,
      completeRoles(membership.main_roles),
      actor,
      now,
    );
    notices.push({ projectId: membership.project_id, notices: pruned });
  }
  return { before: current.map((m) => ({ project_id: m.projectId, project_role: m.projectRole })), notices };
}

/**
 * Break-glass (docs/identity.md): at least one active superadmin who can sign in with a password must remain, so the
 * console stays reachable when an identity provider is down or misconfigured. 409 when disabling or demoting this
 * account would leave none.
 */
export async function assertBreakGlassRemains(
  tx: DbOrTx,
  user: { id: number; role: string; status: string; passwordHash: string | null },
) {
  if (user.role !== 'superadmin' || user.status !== 'active' || !user.passwordHash) return;
  const [other] = await tx
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.role, 'superadmin'),
        eq(users.status, 'active'),
        isNotNull(users.passwordHash),
        ne(users.id, user.id),
      ),
    )
    .limit(1);
  if (!other) {
    throw new AppError(
      'CONFLICT',
      'This is the last superadmin who can sign in with a password: make sure another superadmin has one first, so the console stays reachable if single sign-on fails.',
    );
  }
}
