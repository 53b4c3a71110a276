import { inArray, isNotNull, or, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { policyDocuments, policyVersions, policyWorkflowRequests } from '../../db/schema/index.js';
import { appViewerOf, type Viewer } from '../../policies/app-access.js';
import { type PolicyActor, seesDrafts } from '../../policies/policy-management.js';

/**
 * What of policy management a person may see, for this module and every other that lists, links, searches, prints
 * or names its documents (decision record 021). Authors and admins see every document; everyone else the documents
 * with a published version, and those they were asked to review or sign; so does someone without a policy
 * management role.
 */

/**
 * The ids a condition compares with: the actor's own, or placeholders for them in a statement prepared once for
 * every actor of the same role (the policy page, documents.service.ts).
 */
export interface AskerIds {
  projectId: number | Placeholder;
  userId: number | Placeholder;
}

/** Whether the actor was ever asked to review or sign the document (they then see its working version). */
export const askedOn = (actor: PolicyActor, ids: AskerIds = actor): SQL<boolean> =>
  sql<boolean>`exists (select 1 from ${policyWorkflowRequests} r where r.project_id = ${ids.projectId}
    and r.document_id = ${policyDocuments.id} and r.user_id = ${ids.userId})`;

/**
 * A condition on `policy_documents` (undefined: no limit) for the library's lists and search: authors and admins
 * list every document, everyone else the published ones (a reviewer finds a draft through their task, not the list).
 */
export const listedFor = (actor: PolicyActor): SQL | undefined =>
  seesDrafts(actor) ? undefined : isNotNull(policyDocuments.currentVersionId);

/** A condition on `policy_documents` (undefined: no limit) for the documents the actor may open. */
export const documentsVisibleTo = (actor: PolicyActor, ids: AskerIds = actor): SQL | undefined =>
  seesDrafts(actor) ? undefined : or(isNotNull(policyDocuments.currentVersionId), askedOn(actor, ids));

/**
 * A condition on `policy_versions` (undefined: no limit): authors and admins see every version; everyone else what
 * was published (the current version and the ones it replaced) and the versions they were asked to act on.
 */
export const versionsVisibleTo = (actor: PolicyActor, ids: AskerIds = actor): SQL | undefined =>
  seesDrafts(actor)
    ? undefined
    : or(
        inArray(policyVersions.state, ['published', 'superseded']),
        sql`exists (select 1 from ${policyWorkflowRequests} r where r.project_id = ${ids.projectId}
          and r.version_id = ${policyVersions.id} and r.user_id = ${ids.userId})`,
      );

/** The same for a person reading from another module (nothing while policy management is off for the project). */
export async function visibleDocuments(db: DbOrTx, viewer: Viewer): Promise<SQL | undefined> {
  const actor = await appViewerOf(db, 'policy_management', viewer);
  return actor ? documentsVisibleTo(actor) : sql`false`;
}
