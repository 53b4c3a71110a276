import type { MainRoles, UserRequest } from '@portal/shared';
import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database, DbOrTx } from '../../db/client.js';
import { projectMemberships, projects, userRequests, users } from '../../db/schema/index.js';
import { recordAudit } from '../../lib/audit.js';
import { AppError, notFound } from '../../lib/errors.js';
import { notify } from '../notifications/notifications.service.js';

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

/**
 * Where the person who filed a request follows it: the project's Admin app for its admins, else the screen that
 * filed it: monitoring's create-user when the request asks for a monitoring main role only, else policy
 * management's (a policy or monitoring administrator need not be a project admin).
 */
export async function requestPageFor(
  db: DbOrTx,
  projectId: number,
  requesterId: number,
  mainRoles: Readonly<Record<string, string | null | undefined>> = {},
): Promise<string> {
  const [membership] = await db
    .select({ role: projectMemberships.projectRole })
    .from(projectMemberships)
    .where(and(eq(projectMemberships.projectId, projectId), eq(projectMemberships.userId, requesterId)));
  if (membership?.role === 'admin') return `/app/admin/${projectId}/new-user-request`;
  const monitoringOnly = Boolean(mainRoles.monitoring) && !mainRoles.policy_management && !mainRoles.chart_review;
  return monitoringOnly
    ? `/app/monitoring/${projectId}/create-user`
    : `/app/policy_management/${projectId}/create-project-user`;
}

export const superadminIds = async (db: DbOrTx) =>
  (
    await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.status, 'active'), eq(users.role, 'superadmin')))
  ).map((u) => u.id);

/** What a new-user request asks for (the validated body of either filing route). */
export interface UserRequestInput {
  first_name: string;
  last_name: string;
  /** Already trimmed and lower-cased by the contract's emailSchema. */
  email: string;
  project_role: 'admin' | 'simple';
  main_roles: MainRoles;
  justification: string;
}

export interface FileUserRequestOptions {
  /**
   * Refuse with 409 an email that already belongs to a member of the project (the message ends with `memberHint`)
   * or that already has a pending request in the project. The Admin app's route files without these checks.
   */
  refuseDuplicates?: { memberHint: string };
}

/**
 * The one way to file a new-user request (Admin app and policy management): inserts it with its audit event and the
 * notices to the superadmins, who approve it at /superadmin/new-user-requests, in one transaction.
 */
export async function fileUserRequest(
  db: Database,
  actor: { userId: number; ip: string | null; requestId: string | null },
  projectId: number,
  input: UserRequestInput,
  now: Date,
  options: FileUserRequestOptions = {},
): Promise<UserRequest> {
  const email = input.email.toLowerCase();
  const id = await db.transaction(async (tx) => {
    const [project] = await tx.select({ name: projects.name }).from(projects).where(eq(projects.id, projectId));
    if (!project) throw notFound('Project not found.');
    if (options.refuseDuplicates) {
      // Two requests for the same email filed at the same moment: the second waits and then sees the first.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`user_request:${email}`}), ${projectId})`);
      await refuseDuplicates(tx, projectId, email, options.refuseDuplicates.memberHint);
    }
    const [created] = await tx
      .insert(userRequests)
      .values({
        projectId,
        firstName: input.first_name,
        lastName: input.last_name,
        email: input.email,
        projectRole: input.project_role,
        mainRoles: input.main_roles,
        justification: input.justification,
        requestedBy: actor.userId,
        createdAt: now,
      })
      .returning({ id: userRequests.id });
    await recordAudit(tx, {
      action: 'user_request.create',
      projectId,
      actorUserId: actor.userId,
      subjectType: 'user_request',
      subjectId: created!.id,
      data: { email: input.email, project_role: input.project_role, main_roles: input.main_roles },
      ip: actor.ip,
      requestId: actor.requestId,
      at: now,
    });
    await notify(tx, {
      userIds: await superadminIds(tx),
      projectId,
      message: `${project.name} asks for a new user: ${input.first_name} ${input.last_name}`,
      link: '/superadmin/new-user-requests',
      now,
    });
    return created!.id;
  });
  return (await loadUserRequest(db, id))!;
}

async function refuseDuplicates(tx: DbOrTx, projectId: number, email: string, memberHint: string) {
  const [member] = await tx
    .select({ id: users.id })
    .from(projectMemberships)
    .innerJoin(users, eq(users.id, projectMemberships.userId))
    .where(and(eq(projectMemberships.projectId, projectId), sql`lower(${users.email}) = ${email}`))
    .limit(1);
  if (member) throw new AppError('CONFLICT', `${email} is already a member of this project: ${memberHint}`);
  const [pending] = await tx
    .select({ id: userRequests.id })
    .from(userRequests)
    .where(
      and(
        eq(userRequests.projectId, projectId),
        eq(userRequests.status, 'pending'),
        sql`lower(${userRequests.email}) = ${email}`,
      ),
    )
    .limit(1);
  if (pending) {
    throw new AppError(
      'CONFLICT',
      `A request for ${email} is already waiting for a superadmin's decision in this project.`,
    );
  }
}
