import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';

/**
 * Marks done every open task notice about the document's versions ("... waits for your review/signature", "please
 * read it") whose task no longer waits for that person: answered by them, closed by someone else's answer, withdrawn
 * with the version, or the version no longer in force. Runs in the transaction of every workflow step and archive, so
 * the bell shows only what still needs its reader. Computed from the records, not from the step, so no path is missed.
 */
export async function resolveTaskNotices(tx: DbOrTx, projectId: number, documentId: number, now: Date): Promise<void> {
  await tx.execute(sql`
    update notifications n set done_at = ${now}
    where n.project_id = ${projectId}
      and n.task_kind is not null
      and n.done_at is null
      and n.task_ref in (select v.id from policy_versions v where v.project_id = ${projectId} and v.document_id = ${documentId})
      and case n.task_kind
        when 'policy_review' then not exists (
          select 1 from policy_workflow_requests r
          where r.project_id = ${projectId} and r.version_id = n.task_ref and r.user_id = n.user_id
            and r.kind = 'review' and r.status = 'pending')
        when 'policy_signature' then not exists (
          select 1 from policy_workflow_requests r
          where r.project_id = ${projectId} and r.version_id = n.task_ref and r.user_id = n.user_id
            and r.kind = 'signature' and r.status = 'pending')
        when 'policy_reading' then exists (
          select 1 from policy_attestations a
          where a.project_id = ${projectId} and a.version_id = n.task_ref and a.user_id = n.user_id)
          or not exists (
          select 1 from policy_documents d
          where d.project_id = ${projectId} and d.id = ${documentId} and d.current_version_id = n.task_ref
            and d.status <> 'archived')
        else false
      end`);
}
