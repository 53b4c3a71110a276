import {
  DEPARTMENT_ROLES,
  type DepartmentPerson,
  type DepartmentRole,
  type DepartmentRoles,
  eligibleFor,
  REVIEW_DUE_SOON_DAYS,
} from '@portal/shared';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { personName } from '../../db/person-name.js';
import {
  policyDepartmentRoles,
  policyDepartments,
  policyUsers,
  projectMemberRoles,
  projectMemberships,
  users,
} from '../../db/schema/index.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { PolicyActor } from '../../policies/policy-management.js';
import type { Notice } from '../notifications/notices.js';
import { attestationByDepartment } from './dashboard.service.js';
import { listDepartments } from './departments.service.js';
import { audit } from './policy-common.js';
import { afterDepartmentRolesChanged } from './workflow.service.js';

/**
 * Department reviewers, signers and readers (decision record 007). Who may hold a role follows the main role
 * (DEPARTMENT_ROLE_ELIGIBILITY); every change runs in one transaction with its audit event, and a change of
 * reviewers or signers reaches the department's open review and signature rounds.
 */

type RoleLists = Record<DepartmentRole, number[]>;

const mainRole = sql<string | null>`${projectMemberRoles.mainRole}`;
const personColumns = {
  id: users.id,
  name: personName,
  username: users.username,
  email: users.email,
  main_role: mainRole,
};
const policyRoleJoin = (projectId: number) =>
  and(
    eq(projectMemberRoles.projectId, projectId),
    eq(projectMemberRoles.userId, users.id),
    eq(projectMemberRoles.app, 'policy_management'),
  );

// ---------------------------------------------------------------- reading

/** The project's policy users, by name. */
async function policyPeople(db: DbOrTx, projectId: number): Promise<DepartmentPerson[]> {
  return db
    .select(personColumns)
    .from(policyUsers)
    .innerJoin(users, eq(users.id, policyUsers.userId))
    .leftJoin(projectMemberRoles, policyRoleJoin(projectId))
    .where(eq(policyUsers.projectId, projectId))
    .orderBy(asc(personName), asc(users.id));
}

/** Who may hold each role: policy users whose main role allows it. */
export async function candidates(
  db: DbOrTx,
  projectId: number,
): Promise<Record<`${DepartmentRole}s`, DepartmentPerson[]>> {
  const people = await policyPeople(db, projectId);
  const of = (role: DepartmentRole) => people.filter((p) => eligibleFor(role, p.main_role));
  return { reviewers: of('reviewer'), signers: of('signer'), readers: of('reader') };
}

/** Every role held in the project's departments (or one department), by name. */
async function roleHolders(db: DbOrTx, projectId: number, departmentId?: number) {
  return db
    .select({ departmentId: policyDepartmentRoles.departmentId, role: policyDepartmentRoles.role, ...personColumns })
    .from(policyDepartmentRoles)
    .innerJoin(users, eq(users.id, policyDepartmentRoles.userId))
    .leftJoin(projectMemberRoles, policyRoleJoin(projectId))
    .where(
      and(
        eq(policyDepartmentRoles.projectId, projectId),
        departmentId === undefined ? undefined : eq(policyDepartmentRoles.departmentId, departmentId),
      ),
    )
    .orderBy(asc(personName), asc(users.id));
}

/** Departments (all, or the one asked for: 404 when it is not of this project) with their three lists. */
async function departmentsWithRoles(db: DbOrTx, projectId: number, departmentId?: number): Promise<DepartmentRoles[]> {
  const departments = (await listDepartments(db, projectId)).filter(
    (d) => departmentId === undefined || d.id === departmentId,
  );
  if (departmentId !== undefined && departments.length === 0) throw notFound('Department not found.');
  const holders = await roleHolders(db, projectId, departmentId);
  return departments.map((d) => {
    const mine = (role: DepartmentRole) =>
      holders
        .filter((h) => h.departmentId === d.id && h.role === role)
        .map(({ departmentId: _, role: __, ...person }) => person);
    return { ...d, reviewers: mine('reviewer'), signers: mine('signer'), readers: mine('reader') };
  });
}

export async function departmentRoles(db: DbOrTx, projectId: number, departmentId: number): Promise<DepartmentRoles> {
  return (await departmentsWithRoles(db, projectId, departmentId))[0]!;
}

/** GET department-assignment-data. */
export async function assignmentData(db: DbOrTx, projectId: number) {
  return { departments: await departmentsWithRoles(db, projectId) };
}

/** GET departments/{id}/edit-assignment-data. */
export async function editAssignmentData(db: DbOrTx, projectId: number, departmentId: number) {
  return {
    department: await departmentRoles(db, projectId, departmentId),
    candidates: await candidates(db, projectId),
  };
}

/** GET department-reader-data: readers and how far they have read the department's current policies. */
export async function readerData(db: DbOrTx, projectId: number) {
  const rates = new Map((await attestationByDepartment(db, projectId)).map((r) => [r.department!.id, r]));
  const departments = await departmentsWithRoles(db, projectId);
  return {
    departments: departments.map(({ reviewers: _, signers: __, ...d }) => {
      const rate = rates.get(d.id);
      return {
        ...d,
        attested: rate?.attested ?? 0,
        required: rate?.required ?? 0,
        attestation_rate: rate?.rate ?? null,
      };
    }),
  };
}

/** GET department-reader-edit-lists. */
export async function readerEditLists(db: DbOrTx, projectId: number) {
  return { readers: (await candidates(db, projectId)).readers };
}

/** GET departments/{id}/reader-edit-data. */
export async function readerEditData(db: DbOrTx, projectId: number, departmentId: number) {
  const { id, name, code, parent_id, readers } = await departmentRoles(db, projectId, departmentId);
  return { department: { id, name, code, parent_id, readers }, candidates: (await candidates(db, projectId)).readers };
}

/** Documents of each department whose working version is in review. */
async function documentsInReview(db: DbOrTx, projectId: number): Promise<Map<number, number>> {
  const { rows } = await db.execute<{ department_id: number; n: number }>(sql`
    select d.department_id, count(*)::int as n
    from policy_documents d join policy_versions v on v.id = d.draft_version_id and v.project_id = d.project_id
    where d.project_id = ${projectId} and d.status <> 'archived' and v.state = 'in_review'
      and d.department_id is not null
    group by d.department_id`);
  return new Map(rows.map((r) => [r.department_id, r.n]));
}

/** GET department-reviewer-data. */
export async function reviewerData(db: DbOrTx, projectId: number) {
  const inReview = await documentsInReview(db, projectId);
  const departments = await departmentsWithRoles(db, projectId);
  return {
    departments: departments.map(({ signers: _, readers: __, ...d }) => ({
      ...d,
      open_reviews: inReview.get(d.id) ?? 0,
    })),
  };
}

/** Pending review requests of each person on the current round of a version in review. */
async function pendingReviews(db: DbOrTx, projectId: number): Promise<Map<number, number>> {
  const { rows } = await db.execute<{ user_id: number; n: number }>(sql`
    select r.user_id, count(*)::int as n
    from policy_workflow_requests r
    join policy_documents d on d.id = r.document_id and d.project_id = r.project_id
    join policy_versions v on v.id = r.version_id and v.id = d.draft_version_id and v.round = r.round
    where r.project_id = ${projectId} and r.kind = 'review' and r.status = 'pending' and v.state = 'in_review'
      and d.status <> 'archived'
    group by r.user_id`);
  return new Map(rows.map((r) => [r.user_id, r.n]));
}

/** GET department-reviewer-management-data: each reviewer with their departments; who may review but does not. */
export async function reviewerManagement(db: DbOrTx, projectId: number) {
  const departments = await departmentsWithRoles(db, projectId);
  const pending = await pendingReviews(db, projectId);
  const reviewers = new Map<number, DepartmentPerson & { departments: { id: number; name: string; code: string }[] }>();
  for (const d of departments) {
    for (const person of d.reviewers) {
      const entry = reviewers.get(person.id) ?? { ...person, departments: [] };
      entry.departments.push({ id: d.id, name: d.name, code: d.code });
      reviewers.set(person.id, entry);
    }
  }
  const byName = [...reviewers.values()].sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
  return {
    reviewers: byName.map((r) => ({ ...r, open_reviews: pending.get(r.id) ?? 0 })),
    unassigned: (await candidates(db, projectId)).reviewers.filter((p) => !reviewers.has(p.id)),
  };
}

/** GET departments/{id}/reviewer-edit-data. */
export async function reviewerEditData(db: DbOrTx, projectId: number, departmentId: number) {
  const { id, name, code, parent_id, reviewers } = await departmentRoles(db, projectId, departmentId);
  return {
    department: { id, name, code, parent_id, reviewers },
    candidates: (await candidates(db, projectId)).reviewers,
  };
}

// ---------------------------------------------------------------- changing

const ROLE_VERB: Record<DepartmentRole, string> = { reviewer: 'review', signer: 'sign', reader: 'read' };

/** A 400 naming each listed person (by position) who is not a policy user of the project or may not hold the role. */
async function requireEligible(tx: DbOrTx, projectId: number, role: DepartmentRole, userIds: number[], field: string) {
  if (!userIds.length) return {};
  const rows = await tx
    .select({ id: projectMemberships.userId, policyUser: sql<boolean>`${policyUsers.userId} is not null`, mainRole })
    .from(projectMemberships)
    .innerJoin(users, eq(users.id, projectMemberships.userId))
    .leftJoin(policyUsers, and(eq(policyUsers.projectId, projectId), eq(policyUsers.userId, projectMemberships.userId)))
    .leftJoin(projectMemberRoles, policyRoleJoin(projectId))
    .where(and(eq(projectMemberships.projectId, projectId), inArray(projectMemberships.userId, userIds)));
  const found = new Map(rows.map((row) => [row.id, row]));
  const errors: Record<string, string[]> = {};
  userIds.forEach((userId, i) => {
    const person = found.get(userId);
    const problem = !person
      ? 'This person is not a member of the project.'
      : !person.policyUser
        ? 'This person does not take part in policy management.'
        : !eligibleFor(role, person.mainRole)
          ? `This person's main role (${person.mainRole ?? 'none'}) may not ${ROLE_VERB[role]} for a department.`
          : null;
    if (problem) errors[`${field}.${i}`] = [problem];
  });
  return errors;
}

async function currentLists(tx: DbOrTx, projectId: number, departmentId: number): Promise<RoleLists> {
  const rows = await tx
    .select({ userId: policyDepartmentRoles.userId, role: policyDepartmentRoles.role })
    .from(policyDepartmentRoles)
    .where(and(eq(policyDepartmentRoles.projectId, projectId), eq(policyDepartmentRoles.departmentId, departmentId)));
  const lists: RoleLists = { reviewer: [], signer: [], reader: [] };
  for (const row of rows) lists[row.role as DepartmentRole].push(row.userId);
  return lists;
}

/** The department row, locked so that two changes of its people never interleave; 404 when not of this project. */
async function lockDepartment(tx: DbOrTx, projectId: number, departmentId: number) {
  const [row] = await tx
    .select({ id: policyDepartments.id })
    .from(policyDepartments)
    .where(and(eq(policyDepartments.projectId, projectId), eq(policyDepartments.id, departmentId)))
    .for('update');
  if (!row) throw notFound('Department not found.');
}

/** The new lists of the roles a call changes (roles left out stay), and the request field naming each list. */
export interface RoleChange {
  lists: Partial<RoleLists>;
  fields: Partial<Record<DepartmentRole, string>>;
  /** Assign-reviewers adds to the list instead of replacing it. */
  add?: boolean;
}

/**
 * Writes a department's new lists in one transaction: checks everyone named, writes the difference, audits it, and
 * lets the open rounds follow when reviewers or signers changed. Answers the department and the notices to send.
 */
export async function changeDepartmentRoles(
  db: DbOrTx,
  actor: PolicyActor,
  departmentId: number,
  change: RoleChange,
  now: Date,
): Promise<{ department: DepartmentRoles; notices: Notice[] }> {
  const notices = await db.transaction(async (tx) => {
    await lockDepartment(tx, actor.projectId, departmentId);
    const errors: Record<string, string[]> = {};
    for (const role of DEPARTMENT_ROLES) {
      const ids = change.lists[role];
      if (ids)
        Object.assign(errors, await requireEligible(tx, actor.projectId, role, ids, change.fields[role] ?? role));
    }
    if (Object.keys(errors).length) throw new AppError('VALIDATION_FAILED', Object.values(errors)[0]![0]!, errors);
    const before = await currentLists(tx, actor.projectId, departmentId);
    const diff: Partial<Record<DepartmentRole, { added: number[]; removed: number[] }>> = {};
    for (const role of DEPARTMENT_ROLES) {
      const ids = change.lists[role];
      if (!ids) continue;
      const wanted = new Set(change.add ? [...before[role], ...ids] : ids);
      const added = [...wanted].filter((id) => !before[role].includes(id));
      const removed = before[role].filter((id) => !wanted.has(id));
      if (added.length || removed.length) diff[role] = { added, removed };
      await writeRole(tx, actor, departmentId, role, added, removed, now);
    }
    if (!Object.keys(diff).length) return [];
    await audit(tx, actor, 'department_roles_changed', { type: 'policy_department', id: departmentId }, diff, now);
    return diff.reviewer || diff.signer ? afterDepartmentRolesChanged(tx, actor, departmentId, now) : [];
  });
  return { department: await departmentRoles(db, actor.projectId, departmentId), notices };
}

/** Takes `role` in the department from these people. */
async function dropRole(tx: DbOrTx, projectId: number, departmentId: number, role: string, userIds: number[]) {
  await tx
    .delete(policyDepartmentRoles)
    .where(
      and(
        eq(policyDepartmentRoles.projectId, projectId),
        eq(policyDepartmentRoles.departmentId, departmentId),
        eq(policyDepartmentRoles.role, role),
        inArray(policyDepartmentRoles.userId, userIds),
      ),
    );
}

async function writeRole(
  tx: DbOrTx,
  actor: PolicyActor,
  departmentId: number,
  role: DepartmentRole,
  added: number[],
  removed: number[],
  now: Date,
) {
  if (removed.length) await dropRole(tx, actor.projectId, departmentId, role, removed);
  if (added.length) {
    await tx.insert(policyDepartmentRoles).values(
      added.map((userId) => ({
        projectId: actor.projectId,
        departmentId,
        userId,
        role,
        createdBy: actor.userId,
        createdAt: now,
      })),
    );
  }
}

// ---------------------------------------------------------------- pruning

/**
 * Drops the department roles a person no longer qualifies for (decision record 007): all of them once they leave
 * policy management, and those their new main role does not allow. Runs in the caller's transaction (after the
 * main role or policy user change); open rounds of the departments concerned follow. Returns the notices to send.
 */
export async function pruneDepartmentRoles(
  tx: DbOrTx,
  actor: PolicyActor,
  userId: number,
  now: Date,
): Promise<Notice[]> {
  const [person] = await tx
    .select({ mainRole })
    .from(policyUsers)
    .innerJoin(users, eq(users.id, policyUsers.userId))
    .leftJoin(projectMemberRoles, policyRoleJoin(actor.projectId))
    .where(and(eq(policyUsers.projectId, actor.projectId), eq(policyUsers.userId, userId)));
  const held = await tx
    .select({ departmentId: policyDepartmentRoles.departmentId, role: policyDepartmentRoles.role })
    .from(policyDepartmentRoles)
    .where(and(eq(policyDepartmentRoles.projectId, actor.projectId), eq(policyDepartmentRoles.userId, userId)));
  const dropped = held.filter((h) => !person || !eligibleFor(h.role as DepartmentRole, person.mainRole));
  if (!dropped.length) return [];
  for (const { departmentId, role } of dropped) {
    await dropRole(tx, actor.projectId, departmentId, role, [userId]);
  }
  await audit(
    tx,
    actor,
    'department_roles_pruned',
    { type: 'user', id: userId },
    {
      main_role: person?.mainRole ?? null,
      removed: dropped.map((d) => ({ department_id: d.departmentId, role: d.role })),
    },
    now,
  );
  const departments = new Set(dropped.filter((d) => d.role !== 'reader').map((d) => d.departmentId));
  const notices: Notice[] = [];
  for (const departmentId of [...departments].sort((a, b) => a - b)) {
    notices.push(...(await afterDepartmentRolesChanged(tx, actor, departmentId, now)));
  }
  return notices;
}

// ---------------------------------------------------------------- health

/** Overdue and due-soon periodic reviews of each department's published policies. */
async function reviewsByDepartment(db: DbOrTx, projectId: number, today: string) {
  const { rows } = await db.execute<{ department_id: number; overdue: number; due_soon: number }>(sql`
    select d.department_id,
           count(*) filter (where d.next_review_on < ${today}::date)::int as overdue,
           count(*) filter (where d.next_review_on >= ${today}::date
             and d.next_review_on <= ${today}::date + ${REVIEW_DUE_SOON_DAYS}::int)::int as due_soon
    from policy_documents d
    where d.project_id = ${projectId} and d.status = 'published' and d.current_version_id is not null
      and d.department_id is not null and d.next_review_on is not null
    group by d.department_id`);
  return new Map(rows.map((r) => [r.department_id, r]));
}

/** Below this share of attestations a department's reading is called out as a gap. */
const ATTESTATION_TARGET = 0.8;

/** What keeps a department from running the workflow well, in plain words; empty when healthy. */
function gapsOf(d: { reviewers: number; signers: number; readers: number; overdue: number; rate: number | null }) {
  const gaps: string[] = [];
  if (d.reviewers === 0) gaps.push('No reviewers');
  if (d.signers === 0) gaps.push('No signer');
  if (d.readers === 0) gaps.push('No readers');
  if (d.overdue > 0) gaps.push(d.overdue === 1 ? '1 overdue review' : `${d.overdue} overdue reviews`);
  if (d.rate !== null && d.rate < ATTESTATION_TARGET) gaps.push(`Attestation ${Math.floor(d.rate * 100)}%`);
  return gaps;
}

/** GET healthy-departments. */
export async function departmentHealth(db: DbOrTx, projectId: number, now: Date) {
  const departments = await departmentsWithRoles(db, projectId);
  const reviews = await reviewsByDepartment(db, projectId, now.toISOString().slice(0, 10));
  const rates = new Map((await attestationByDepartment(db, projectId)).map((r) => [r.department!.id, r]));
  return {
    departments: departments.map((d) => {
      const due = reviews.get(d.id);
      const rate = rates.get(d.id);
      const counts = { reviewers: d.reviewers.length, signers: d.signers.length, readers: d.readers.length };
      const overdue = due?.overdue ?? 0;
      const attestationRate = rate?.rate ?? null;
      return {
        id: d.id,
        name: d.name,
        code: d.code,
        parent_id: d.parent_id,
        ...counts,
        documents: d.document_count,
        overdue_reviews: overdue,
        due_soon_reviews: due?.due_soon ?? 0,
        attested: rate?.attested ?? 0,
        required: rate?.required ?? 0,
        attestation_rate: attestationRate,
        gaps: gapsOf({ ...counts, overdue, rate: attestationRate }),
      };
    }),
  };
}
