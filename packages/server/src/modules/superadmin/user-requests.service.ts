import type { UserRequest } from '@portal/shared';
import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client.js';
import { projects, userRequests, users } from '../../db/schema/index.js';

const requester = alias(users, 'requester');
const decider = alias(users, 'decider');
const nameOf = (user: { id: number; firstName: string; lastName: string; username: string } | null) =>
  user ? { id: user.id, name: `${user.firstName} ${user.lastName}`.trim() || user.username } : null;

/** Requests with their project and people, newest first. `where` must name the project when it is project-scoped. */
export async function loadUserRequests(db: DbOrTx, where: SQL | undefined): Promise<UserRequest[]> {
  const rows = await db
    .select({ request: userRequests, project: { id: projects.id, name: projects.name }, requester, decider })
    .from(userRequests)
    .innerJoin(projects, eq(projects.id, userRequests.projectId))
    .leftJoin(requester, eq(requester.id, userRequests.requestedBy))
    .leftJoin(decider, eq(decider.id, userRequests.decidedBy))
    .where(where)
    .orderBy(desc(userRequests.createdAt), desc(userRequests.id))
    .limit(500);
  return rows.map(({ request, project, requester: by, decider: decidedBy }) => ({
    id: request.id,
    project,
    first_name: request.firstName,
    last_name: request.lastName,
    email: request.email,
    project_role: request.projectRole as UserRequest['project_role'],
    main_roles: {
      monitoring: request.mainRoles.monitoring ?? null,
      policy_management: request.mainRoles.policy_management ?? null,
      chart_review: request.mainRoles.chart_review ?? null,
    },
    justification: request.justification,
    status: request.status as UserRequest['status'],
    requested_by: nameOf(by),
    decided_by: nameOf(decidedBy),
    decided_at: request.decidedAt?.toISOString() ?? null,
    rejection_reason: request.rejectionReason,
    user_id: request.userId,
    created_at: request.createdAt.toISOString(),
  }));
}

export async function loadUserRequest(db: DbOrTx, id: number): Promise<UserRequest | undefined> {
  const [request] = await loadUserRequests(db, eq(userRequests.id, id));
  return request;
}

/** A username made from the email's local part, made unique with a number when taken. */
export async function usernameFor(db: DbOrTx, email: string): Promise<string> {
  const base =
    (email.split('@')[0] ?? '')
      .replace(/[^A-Za-z0-9._-]/g, '')
      .slice(0, 40)
      .padEnd(3, '0') || 'user';
  const taken = await db
    .select({ username: users.username })
    .from(users)
    .where(sql`lower(${users.username}) like ${`${base.toLowerCase()}%`}`);
  const names = new Set(taken.map((u) => u.username.toLowerCase()));
  if (!names.has(base.toLowerCase())) return base;
  for (let n = 2; ; n++) if (!names.has(`${base}${n}`.toLowerCase())) return `${base}${n}`;
}

export const superadminIds = async (db: DbOrTx) =>
  (
    await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.status, 'active'), eq(users.role, 'superadmin')))
  ).map((u) => u.id);
