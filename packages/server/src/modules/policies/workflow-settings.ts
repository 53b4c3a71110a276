import type { WorkflowSettings } from '@portal/shared';
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { policyWorkflowSettings } from '../../db/schema/index.js';
import { changes } from '../../lib/audit-diff.js';
import type { PolicyActor } from '../../policies/policy-management.js';
import { audit } from './policy-common.js';

/** A project's workflow settings (decision record 007); the defaults apply until a policy admin saves them. */

export const DEFAULT_WORKFLOW_SETTINGS: WorkflowSettings = {
  default_review_interval_months: 12,
  signatures_required: 'all',
  allow_self_signing: false,
};

export async function loadWorkflowSettings(db: DbOrTx, projectId: number): Promise<WorkflowSettings> {
  const [row] = await db.select().from(policyWorkflowSettings).where(eq(policyWorkflowSettings.projectId, projectId));
  if (!row) return DEFAULT_WORKFLOW_SETTINGS;
  return {
    default_review_interval_months: row.defaultReviewIntervalMonths,
    signatures_required: row.signaturesRequired as WorkflowSettings['signatures_required'],
    allow_self_signing: row.allowSelfSigning,
  };
}

export async function defaultReviewInterval(db: DbOrTx, projectId: number): Promise<number> {
  return (await loadWorkflowSettings(db, projectId)).default_review_interval_months;
}

export async function saveWorkflowSettings(
  db: DbOrTx,
  actor: PolicyActor,
  settings: WorkflowSettings,
  now: Date,
): Promise<WorkflowSettings> {
  await db.transaction(async (tx) => {
    const before = await loadWorkflowSettings(tx, actor.projectId);
    const values = {
      defaultReviewIntervalMonths: settings.default_review_interval_months,
      signaturesRequired: settings.signatures_required,
      allowSelfSigning: settings.allow_self_signing,
      updatedAt: now,
      updatedBy: actor.userId,
    };
    await tx
      .insert(policyWorkflowSettings)
      .values({ projectId: actor.projectId, ...values })
      .onConflictDoUpdate({ target: policyWorkflowSettings.projectId, set: values });
    await audit(
      tx,
      actor,
      'workflow_settings_changed',
      { type: 'project', id: actor.projectId },
      {
        before,
        after: settings,
        changes: changes(before, settings),
      },
      now,
    );
  });
  return loadWorkflowSettings(db, actor.projectId);
}
