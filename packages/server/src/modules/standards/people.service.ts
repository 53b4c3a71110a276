import {
  STD_ROLES,
  type StdAssignments,
  type StdMember,
  type StdMy,
  type StdResult,
  type StdRole,
  type StdStatus,
} from '@portal/shared';
import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../db/client.js';
import { personName } from '../../db/person-name.js';
import {
  projectMemberships,
  stdAssessments,
  stdLeads,
  stdMembers,
  stdNodes,
  stdReqAssessments,
  users,
} from '../../db/schema/index.js';
import { changes } from '../../lib/audit-diff.js';
import { AppError, notFound } from '../../lib/errors.js';
import { authorize } from '../../policies/rules.js';
import {
  mayAssign,
  requireStandardsAdmin,
  STANDARDS_FORBIDDEN,
  type StandardsActor,
} from '../../policies/standards.js';
import { assignmentFacts, assignmentRules } from '../../policies/standards-records.js';

import { frameworkNodes, isOverdue, loadAssessment, subtreeIds } from './records.js';
import { isoDay, standardsAudit } from './route-kit.js';

/**
 * People in standards (docs/standards.md "People"): standards roles (manage-users), leads and owners by node
 * (assign-users; an owner given to a node goes to every element below it), and each member's own elements.
 */

/** Roles that may own elements. */
const OWNING_ROLES = new Set<StdRole>(['standards_admin', 'chapter_lead', 'owner', 'contributor']);

async function memberRows(db: DbOrTx, projectId: number) {
  return db
    .select({
      userId: users.id,
      name: personName,
      email: users.email,
      projectRole: projectMemberships.projectRole,
      role: stdMembers.role,
    })
    .from(projectMemberships)
    .innerJoin(users, eq(users.id, projectMemberships.userId))
    .leftJoin(stdMembers, and(eq(stdMembers.projectId, projectId), eq(stdMembers.userId, users.id)))
    .where(and(eq(projectMemberships.projectId, projectId), ne(users.status, 'disabled')))
    .orderBy(asc(personName), asc(users.id));
}

const toMember = (row: Awaited<ReturnType<typeof memberRows>>[number]): StdMember => {
  const stored = row.role && (STD_ROLES as readonly string[]).includes(row.role) ? (row.role as StdRole) : null;
  const projectRole = row.projectRole as 'admin' | 'simple';
  return {
    user_id: row.userId,
    name: row.name,
    email: row.email,
    project_role: projectRole,
    role: stored,
    effective_role: projectRole === 'admin' ? 'standards_admin' : stored,
  };
};

/** GET /members: every member of the project with their standards role (readable by everyone in standards). */
export async function listMembers(db: DbOrTx, actor: StandardsActor): Promise<StdMember[]> {
  return (await memberRows(db, actor.projectId)).map(toMember);
}

/** Members who may own elements: an owning standards role (project admins count as standards admins). */
export async function assignableIds(db: DbOrTx, projectId: number): Promise<Set<number>> {
  const members = (await memberRows(db, projectId)).map(toMember);
  return new Set(members.filter((m) => m.effective_role && OWNING_ROLES.has(m.effective_role)).map((m) => m.user_id));
}

/** PUT /members/{userId}: set or take away a standards role (standards admins). */
export async function setMemberRole(
  db: Database,
  actor: StandardsActor,
  userId: number,
  role: StdRole | null,
  now: Date,
): Promise<StdMember> {
  requireStandardsAdmin(actor);
  const member = (await memberRows(db, actor.projectId)).find((row) => row.userId === userId);
  if (!member) throw notFound('This person is not a member of the project.');
  if (member.projectRole === 'admin') {
    throw new AppError(
      'VALIDATION_FAILED',
      'Project admins are standards admins already: change their project role instead.',
      { role: ['Project admins are standards admins already: change their project role instead.'] },
    );
  }
  await db.transaction(async (tx) => {
    if (role === null) {
      await tx.delete(stdMembers).where(and(eq(stdMembers.projectId, actor.projectId), eq(stdMembers.userId, userId)));
    } else {
      await tx
        .insert(stdMembers)
        .values({ projectId: actor.projectId, userId, role, updatedBy: actor.userId, createdAt: now })
        .onConflictDoUpdate({
          target: [stdMembers.projectId, stdMembers.userId],
          set: { role, updatedBy: actor.userId },
        });
    }
    await standardsAudit(
      tx,
      actor,
      'role_changed',
      { type: 'user', id: userId },
      {
        from: member.role,
        to: role,
        changes: changes({ role: member.role }, { role }),
      },
      now,
    );
  });
  return toMember({ ...member, role });
}

/** GET /assessments/{id}/assignments: the nodes above the elements, with lead, owners below and unowned count. */
export async function assignments(db: DbOrTx, actor: StandardsActor, assessmentId: number): Promise<StdAssignments> {
  if (!mayAssign(actor)) throw new AppError('FORBIDDEN', STANDARDS_FORBIDDEN);
  const assessment = await loadAssessment(db, actor.projectId, assessmentId);
  const nodes = await frameworkNodes(db, assessment.frameworkId);
  const reqs = await db
    .select({ nodeId: stdReqAssessments.nodeId, ownerId: stdReqAssessments.ownerId, ownerName: personName })
    .from(stdReqAssessments)
    .leftJoin(users, eq(users.id, stdReqAssessments.ownerId))
    .where(and(eq(stdReqAssessments.projectId, actor.projectId), eq(stdReqAssessments.assessmentId, assessment.id)));
  const reqOf = new Map(reqs.map((r) => [r.nodeId, r]));
  const leads = await db
    .select({ nodeId: stdLeads.nodeId, userId: stdLeads.userId, name: personName })
    .from(stdLeads)
    .innerJoin(users, eq(users.id, stdLeads.userId))
    .where(and(eq(stdLeads.projectId, actor.projectId), eq(stdLeads.assessmentId, assessment.id)));
  const leadOf = new Map(leads.map((l) => [l.nodeId, { id: l.userId, name: l.name }]));
  // Owners and unowned counts per node, through the same walk as the roll-up.
  const parentOf = new Map(nodes.map((n) => [n.id, n.parentId]));
  const owners = new Map<number, Map<number, string>>();
  const unowned = new Map<number, number>();
  const elements = new Map<number, number>();
  for (const node of nodes) {
    const req = reqOf.get(node.id);
    if (!req) continue;
    let at = node.parentId;
    while (at !== null) {
      elements.set(at, (elements.get(at) ?? 0) + 1);
      if (req.ownerId === null) unowned.set(at, (unowned.get(at) ?? 0) + 1);
      else {
        const list = owners.get(at) ?? new Map<number, string>();
        list.set(req.ownerId, req.ownerName);
        owners.set(at, list);
      }
      at = parentOf.get(at) ?? null;
    }
  }
  const members = (await memberRows(db, actor.projectId)).map(toMember);
  return {
    assessment_id: assessment.id,
    rows: nodes
      .filter((n) => !n.assessable)
      .map((n) => ({
        node_id: n.id,
        parent_id: n.parentId,
        depth: n.depth,
        ref_id: n.refId,
        title: n.title,
        lead: leadOf.get(n.id) ?? null,
        owners: [...(owners.get(n.id) ?? new Map()).entries()]
          .map(([id, name]) => ({ id, name }))
          .sort((a, b) => a.name.localeCompare(b.name)),
        unowned: unowned.get(n.id) ?? 0,
        elements: elements.get(n.id) ?? 0,
      })),
    people: members
      .filter((m) => m.effective_role && OWNING_ROLES.has(m.effective_role))
      .map((m) => ({ id: m.user_id, name: m.name, role: m.effective_role! })),
  };
}

/** PUT /assessments/{id}/assignments: a node's lead, and/or one owner for every element below it. */
export async function assign(
  db: Database,
  actor: StandardsActor,
  assessmentId: number,
  input: { node_id: number; lead_id?: number | null; owner_id?: number | null },
  now: Date,
): Promise<StdAssignments> {
  if (!mayAssign(actor)) throw new AppError('FORBIDDEN', STANDARDS_FORBIDDEN);
  const assessment = await loadAssessment(db, actor.projectId, assessmentId);
  const nodes = await frameworkNodes(db, assessment.frameworkId);
  if (!nodes.some((n) => n.id === input.node_id)) {
    throw new AppError('VALIDATION_FAILED', 'Choose a part of this assessment.', {
      node_id: ['Choose a part of this assessment.'],
    });
  }
  const node = { projectId: assessment.projectId, assessmentId: assessment.id, nodeId: input.node_id };
  authorize(assignmentRules, 'assign', actor, await assignmentFacts(db, actor, node));
  const allowed = await assignableIds(db, actor.projectId);
  for (const field of ['lead_id', 'owner_id'] as const) {
    const id = input[field];
    if (id !== undefined && id !== null && !allowed.has(id)) {
      const message = 'Choose a person with a standards role that may own elements.';
      throw new AppError('VALIDATION_FAILED', message, { [field]: [message] });
    }
  }
  const below = [...subtreeIds(nodes, input.node_id)];
  await db.transaction(async (tx) => {
    if (input.lead_id !== undefined) {
      await tx
        .delete(stdLeads)
        .where(
          and(
            eq(stdLeads.projectId, actor.projectId),
            eq(stdLeads.assessmentId, assessment.id),
            eq(stdLeads.nodeId, input.node_id),
          ),
        );
      if (input.lead_id !== null) {
        await tx.insert(stdLeads).values({
          projectId: actor.projectId,
          assessmentId: assessment.id,
          nodeId: input.node_id,
          userId: input.lead_id,
          createdBy: actor.userId,
          createdAt: now,
        });
      }
    }
    let changed = 0;
    if (input.owner_id !== undefined) {
      const updated = await tx
        .update(stdReqAssessments)
        .set({
          ownerId: input.owner_id,
          version: sql`${stdReqAssessments.version} + 1`,
          updatedAt: now,
          updatedBy: actor.userId,
        })
        .where(
          and(
            eq(stdReqAssessments.projectId, actor.projectId),
            eq(stdReqAssessments.assessmentId, assessment.id),
            inArray(stdReqAssessments.nodeId, below),
          ),
        )
        .returning({ id: stdReqAssessments.id });
      changed = updated.length;
    }
    await standardsAudit(
      tx,
      actor,
      'assigned',
      { type: 'std_assessment', id: assessment.id },
      {
        node_id: input.node_id,
        lead_id: input.lead_id,
        owner_id: input.owner_id,
        elements: changed,
      },
      now,
    );
  });
  return assignments(db, actor, assessment.id);
}

/** GET /my: the elements the actor owns, overdue first, then by due date. */
export async function myStandards(db: DbOrTx, actor: StandardsActor, now: Date): Promise<StdMy> {
  const today = isoDay(now);
  const in30 = isoDay(new Date(now.getTime() + 30 * 86_400_000));
  const rows = await db
    .select({
      reqId: stdReqAssessments.id,
      assessmentId: stdAssessments.id,
      assessmentName: stdAssessments.name,
      refId: stdNodes.refId,
      title: stdNodes.title,
      position: stdNodes.position,
      result: stdReqAssessments.result,
      status: stdReqAssessments.status,
      dueDate: stdReqAssessments.dueDate,
    })
    .from(stdReqAssessments)
    .innerJoin(stdAssessments, eq(stdAssessments.id, stdReqAssessments.assessmentId))
    .innerJoin(stdNodes, eq(stdNodes.id, stdReqAssessments.nodeId))
    .where(and(eq(stdReqAssessments.projectId, actor.projectId), eq(stdReqAssessments.ownerId, actor.userId)));
  const elements = rows
    .map((r) => ({ ...r, overdue: isOverdue(r.dueDate, r.status, today) }))
    .sort(
      (a, b) =>
        Number(b.overdue) - Number(a.overdue) ||
        (a.dueDate ?? '9999').localeCompare(b.dueDate ?? '9999') ||
        a.assessmentId - b.assessmentId ||
        a.position - b.position,
    );
  return {
    role: actor.role,
    elements: elements.map((r) => ({
      req_id: r.reqId,
      assessment: { id: r.assessmentId, name: r.assessmentName },
      ref_id: r.refId,
      title: r.title,
      result: r.result as StdResult,
      status: r.status as StdStatus,
      due_date: r.dueDate,
      overdue: r.overdue,
    })),
    counts: {
      owned: elements.length,
      overdue: elements.filter((r) => r.overdue).length,
      due_30: elements.filter((r) => !r.overdue && r.status !== 'done' && r.dueDate !== null && r.dueDate <= in30)
        .length,
      open: elements.filter((r) => r.status !== 'done').length,
    },
  };
}
