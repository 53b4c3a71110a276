import { and, eq, isNull, max } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { policySignatures, policyWorkflowEvents } from '../../db/schema/index.js';

/**
 * When a version was approved, as printed on paper and shown to guests: the moment the workflow published it, or
 * for a version published before the workflow recorded that (an import, the demo manual), its last valid signature.
 * Null when neither is known.
 */
export async function approvedAt(db: DbOrTx, projectId: number, versionId: number): Promise<Date | null> {
  const [published] = await db
    .select({ at: max(policyWorkflowEvents.createdAt) })
    .from(policyWorkflowEvents)
    .where(
      and(
        eq(policyWorkflowEvents.projectId, projectId),
        eq(policyWorkflowEvents.versionId, versionId),
        eq(policyWorkflowEvents.action, 'published'),
      ),
    );
  if (published?.at) return new Date(published.at);
  const [signed] = await db
    .select({ at: max(policySignatures.signedAt) })
    .from(policySignatures)
    .where(
      and(
        eq(policySignatures.projectId, projectId),
        eq(policySignatures.versionId, versionId),
        isNull(policySignatures.voidedAt),
      ),
    );
  return signed?.at ? new Date(signed.at) : null;
}
