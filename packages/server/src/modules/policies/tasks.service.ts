import { type MyTasks, READ_WITHIN_DAYS, REVIEW_DUE_SOON_DAYS, type ReviewDue, type Task } from '@portal/shared';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { type PolicyActor, seesDrafts } from '../../policies/policy-management.js';
import { joinedDepartment } from './policy-common.js';

/**
 * What waits for whom (decision record 007): review and signature requests, read tasks, drafts sent back, and
 * periodic reviews due. Raw SQL: each list is one query, every one scoped by project id.
 */

const dayOf = (now: Date) => now.toISOString().slice(0, 10);

interface TaskRow extends Record<string, unknown> {
  id: number;
  number: string | null;
  title: string;
  department_id: number | null;
  department_name: string | null;
  department_code: string | null;
  version_id: number;
  version: number;
  since: Date | string;
  comment: string | null;
}

function presentTask(row: TaskRow): Task {
  return {
    id: row.id,
    number: row.number,
    title: row.title,
    department: joinedDepartment(row),
    version_id: row.version_id,
    version: row.version,
    since: new Date(row.since).toISOString(),
    comment: row.comment,
  };
}

const department = sql.raw(
  'left join policy_departments dep on dep.id = d.department_id and dep.project_id = d.project_id',
);
const taskColumns = sql.raw(
  'd.id, d.number, d.title, d.department_id, dep.name as department_name, dep.code as department_code, v.id as version_id, v.version',
);

/** Open review or signature requests of a user, on the working version's current round. */
async function requestTasks(db: DbOrTx, projectId: number, userId: number, kind: 'review' | 'signature') {
  const state = kind === 'review' ? 'in_review' : 'pending_signature';
  const { rows } = await db.execute<TaskRow>(sql`
    select ${taskColumns}, r.created_at as since, null as comment
    from policy_workflow_requests r
    join policy_documents d on d.id = r.document_id and d.project_id = r.project_id
    join policy_versions v on v.id = r.version_id and v.id = d.draft_version_id and v.round = r.round
    ${department}
    where r.project_id = ${projectId} and r.user_id = ${userId} and r.kind = ${kind} and r.status = 'pending'
      and v.state = ${state} and d.status <> 'archived'
    order by r.created_at, d.id`);
  return rows.map(presentTask);
}

/**
 * Published policies of the departments a user reads, whose current version they have not attested, each due
 * READ_WITHIN_DAYS after its publication (overdue from the day after).
 */
async function readTasks(db: DbOrTx, projectId: number, userId: number, now: Date) {
  const { rows } = await db.execute<TaskRow>(sql`
    select ${taskColumns}, v.updated_at as since, null as comment
    from policy_department_roles dr
    join policy_documents d on d.department_id = dr.department_id and d.project_id = dr.project_id
    join policy_versions v on v.id = d.current_version_id
    ${department}
    where dr.project_id = ${projectId} and dr.user_id = ${userId} and dr.role = 'reader' and d.status = 'published'
      and not exists (select 1 from policy_attestations a where a.version_id = v.id and a.user_id = ${userId})
    order by v.updated_at, d.id`);
  const today = dayOf(now);
  return rows.map((row) => {
    const task = presentTask(row);
    const dueOn = dayOf(new Date(new Date(task.since).getTime() + READ_WITHIN_DAYS * 86_400_000));
    return { ...task, due_on: dueOn, overdue: dueOn < today };
  });
}

/** Drafts the user wrote or owns that a reviewer or signer sent back, with the comment. */
async function sentBack(db: DbOrTx, projectId: number, userId: number) {
  const { rows } = await db.execute<TaskRow>(sql`
    select ${taskColumns}, e.created_at as since, e.comment
    from policy_documents d
    join policy_versions v on v.id = d.draft_version_id
    join lateral (
      select action, comment, created_at from policy_workflow_events e
      where e.project_id = d.project_id and e.version_id = v.id
      order by e.created_at desc, e.id desc limit 1
    ) e on true
    ${department}
    where d.project_id = ${projectId} and d.status <> 'archived' and v.state = 'draft'
      and e.action in ('request_changes', 'decline') and (v.author_id = ${userId} or d.owner_id = ${userId})
    order by e.created_at desc, d.id`);
  return rows.map(presentTask);
}

interface DueRow extends Record<string, unknown> {
  id: number;
  number: string | null;
  title: string;
  department_id: number | null;
  department_name: string | null;
  department_code: string | null;
  owner_id: number | null;
  owner_name: string | null;
  next_review_on: string;
  days: number;
}

/**
 * Published policies whose periodic review is overdue or due within REVIEW_DUE_SOON_DAYS, soonest first.
 * `ownerId` narrows them to one owner.
 */
export async function reviewsDue(
  db: DbOrTx,
  projectId: number,
  now: Date,
  options: { ownerId?: number; limit?: number } = {},
): Promise<ReviewDue[]> {
  const today = dayOf(now);
  const { rows } = await db.execute<DueRow>(sql`
    select d.id, d.number, d.title, d.department_id, dep.name as department_name, dep.code as department_code,
           d.owner_id, coalesce(nullif(trim(u.first_name || ' ' || u.last_name), ''), u.username) as owner_name,
           to_char(d.next_review_on, 'YYYY-MM-DD') as next_review_on,
           (d.next_review_on - ${today}::date)::int as days
    from policy_documents d
    ${department}
    left join users u on u.id = d.owner_id
    where d.project_id = ${projectId} and d.status = 'published' and d.current_version_id is not null
      and d.next_review_on is not null
      and d.next_review_on <= ${today}::date + ${REVIEW_DUE_SOON_DAYS}::int
      ${options.ownerId === undefined ? sql`` : sql`and d.owner_id = ${options.ownerId}`}
    order by d.next_review_on, d.id
    ${options.limit === undefined ? sql`` : sql`limit ${options.limit}`}`);
  return rows.map((row) => ({
    id: row.id,
    number: row.number,
    title: row.title,
    department: joinedDepartment(row),
    owner: row.owner_id === null ? null : { id: row.owner_id, name: row.owner_name ?? '' },
    next_review_on: row.next_review_on,
    days: Number(row.days),
  }));
}

/** GET reviews/due: overdue and due-soon reviews of the project's published policies. */
export async function reviewsDueLists(db: DbOrTx, actor: PolicyActor, now: Date) {
  const all = await reviewsDue(db, actor.projectId, now);
  return { overdue: all.filter((r) => r.days < 0), due_soon: all.filter((r) => r.days >= 0) };
}

/** GET my-tasks. */
export async function myTasks(db: DbOrTx, actor: PolicyActor, now: Date): Promise<MyTasks> {
  const [toReview, toSign, toRead, back, due] = await Promise.all([
    requestTasks(db, actor.projectId, actor.userId, 'review'),
    requestTasks(db, actor.projectId, actor.userId, 'signature'),
    readTasks(db, actor.projectId, actor.userId, now),
    seesDrafts(actor) ? sentBack(db, actor.projectId, actor.userId) : Promise.resolve([]),
    reviewsDue(db, actor.projectId, now, { ownerId: actor.userId }),
  ]);
  return { to_review: toReview, to_sign: toSign, to_read: toRead, sent_back: back, reviews_due: due };
}
