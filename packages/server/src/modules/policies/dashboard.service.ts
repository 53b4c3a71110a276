import { DOCUMENT_STATUSES, type DocumentStatus, type PolicyDashboard } from '@portal/shared';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import type { PolicyActor } from '../../policies/policy-management.js';
import { brokenReferences } from './cross-references.service.js';
import { myTasks, reviewsDue } from './tasks.service.js';

/** GET admin-dashboard (decision record 007): the state of a project's policies at a glance. */

const LIST_LIMIT = 20;

/** What an audit action of policy management says in the activity list ("Signed", "Sent for review"). */
const ACTIVITY: Record<string, string> = {
  'policy.document_created': 'Created the policy',
  'policy.document_updated': 'Changed the settings',
  'policy.draft_edited': 'Edited the draft',
  'policy.version_started': 'Started a new version',
  'policy.version_restored': 'Restored an earlier text',
  'policy.sent_to_review': 'Sent for review',
  'policy.withdrawn': 'Withdrew from the workflow',
  'policy.review_approved': 'Approved in review',
  'policy.changes_requested': 'Asked for changes',
  'policy.document_signed': 'Signed',
  'policy.signature_declined': 'Declined to sign',
  'policy.document_published': 'Published',
  'policy.document_attested': 'Read and attested',
  'policy.document_archived': 'Archived',
  'policy.document_restored': 'Restored from the archive',
  'policy.requests_reassigned': 'Reviewers or signers changed',
  'policy.department_created': 'Added a department',
  'policy.department_updated': 'Changed a department',
  'policy.department_deleted': 'Deleted a department',
  'policy.department_roles_changed': "Changed a department's reviewers, signers or readers",
  'policy.department_roles_pruned': 'Department roles dropped after a main role change',
  'policy.workflow_settings_changed': 'Changed the workflow settings',
  'policy.numbers_assigned': 'Assigned numbers',
  'policy.numbering_scheme_changed': 'Changed the numbering scheme',
  'policy.documents_renumbered': 'Moved and renumbered',
  'policy.document_converted': 'Converted a Word file',
  'policy.users_added': 'Added policy users',
  'policy.users_updated': 'Changed the policy users',
  'policy.main_roles_changed': 'Changed main roles',
};

function activityText(action: string, data: Record<string, unknown>): string {
  const base = ACTIVITY[action] ?? action.replace(/^policy\./, '').replace(/_/g, ' ');
  const version = typeof data.version === 'number' ? data.version : null;
  return version !== null && action !== 'policy.document_attested' ? `${base} (version ${version})` : base;
}

/** Attestations of current versions by the departments' readers, per department with published policies. */
export async function attestationByDepartment(db: DbOrTx, projectId: number) {
  const { rows } = await db.execute<{
    id: number;
    name: string;
    code: string;
    required: number;
    attested: number;
  }>(sql`
    select dep.id, dep.name, dep.code,
           count(*)::int as required,
           count(a.id)::int as attested
    from policy_departments dep
    join policy_documents d on d.department_id = dep.id and d.project_id = dep.project_id
      and d.status = 'published' and d.current_version_id is not null
    join policy_department_roles dr on dr.department_id = dep.id and dr.project_id = dep.project_id
      and dr.role = 'reader'
    left join policy_attestations a on a.version_id = d.current_version_id and a.user_id = dr.user_id
    where dep.project_id = ${projectId}
    group by dep.id, dep.name, dep.code
    order by dep.name`);
  return rows.map((row) => ({
    department: { id: row.id, name: row.name, code: row.code },
    attested: row.attested,
    required: row.required,
    rate: row.required > 0 ? row.attested / row.required : null,
  }));
}

export async function policyDashboard(db: DbOrTx, actor: PolicyActor, now: Date): Promise<PolicyDashboard> {
  const statuses = await db.execute<{ status: DocumentStatus; n: number }>(sql`
    select status, count(*)::int as n from policy_documents where project_id = ${actor.projectId} group by status`);
  const byStatus = Object.fromEntries(DOCUMENT_STATUSES.map((s) => [s, 0])) as Record<DocumentStatus, number>;
  for (const row of statuses.rows) byStatus[row.status] = row.n;

  const revisionRows = await db.execute<{ state: string; n: number }>(sql`
    select v.state, count(*)::int as n
    from policy_documents d join policy_versions v on v.id = d.draft_version_id
    where d.project_id = ${actor.projectId} and d.status = 'published'
    group by v.state`);
  const revisions = { draft: 0, in_review: 0, pending_signature: 0 };
  for (const row of revisionRows.rows) {
    if (row.state in revisions) revisions[row.state as keyof typeof revisions] = row.n;
  }

  const tasks = await myTasks(db, actor, now);
  const due = await reviewsDue(db, actor.projectId, now);
  const overdue = due.filter((r) => r.days < 0);
  const soon = due.filter((r) => r.days >= 0);

  const activity = await db.execute<{
    id: number;
    created_at: Date;
    actor: string | null;
    action: string;
    data: Record<string, unknown>;
    document_id: number | null;
    number: string | null;
    title: string | null;
  }>(sql`
    select e.id, e.created_at, e.action, e.data,
           coalesce(nullif(trim(u.first_name || ' ' || u.last_name), ''), u.username) as actor,
           d.id as document_id, d.number, d.title
    from audit_events e
    left join users u on u.id = e.actor_user_id
    left join policy_documents d on e.subject_type = 'policy_document' and d.project_id = e.project_id
      and d.id::text = e.subject_id
    where e.project_id = ${actor.projectId} and e.action like 'policy.%'
    order by e.created_at desc, e.id desc
    limit ${LIST_LIMIT}`);

  return {
    by_status: byStatus,
    revisions,
    my_tasks: {
      to_review: tasks.to_review.length,
      to_sign: tasks.to_sign.length,
      to_read: tasks.to_read.length,
      sent_back: tasks.sent_back.length,
    },
    overdue_reviews: overdue.slice(0, LIST_LIMIT),
    due_soon_reviews: soon.slice(0, LIST_LIMIT),
    overdue_count: overdue.length,
    due_soon_count: soon.length,
    attestation: await attestationByDepartment(db, actor.projectId),
    broken_references: await brokenReferences(db, actor.projectId, LIST_LIMIT),
    recent_activity: activity.rows.map((row) => ({
      // audit_events ids are bigint: pg hands them over as strings.
      id: Number(row.id),
      at: new Date(row.created_at).toISOString(),
      actor: row.actor,
      summary: activityText(row.action, row.data ?? {}),
      document: row.document_id === null ? null : { id: row.document_id, number: row.number, title: row.title ?? '' },
    })),
  };
}
