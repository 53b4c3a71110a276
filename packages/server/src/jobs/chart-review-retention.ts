import { and, eq, isNotNull, lt } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { crCases } from '../db/schema/index.js';
import { recordAudit } from '../lib/audit.js';
import { loadSettings } from '../modules/chart-review/settings.service.js';

/**
 * Retention of chart review encounter references (DOMAIN.md 2.5 "purge identifiers after retention_months"): every
 * day, the encrypted references of cases whose period started more than the project's `retention_months` ago are
 * purged (set null, `ref_purged_at` now). Case codes, units, months and reviews stay. One transaction per project,
 * audited with the count. Reads every project on purpose: it is the system's job, not a user's request.
 */
export async function unsafePurgeExpiredEncounterRefs(
  db: Database,
  now: Date,
): Promise<{ projectId: number; cases: number }[]> {
  const projects = await db
    .selectDistinct({ projectId: crCases.projectId })
    .from(crCases)
    .where(isNotNull(crCases.encounterRefEnc));
  const purged: { projectId: number; cases: number }[] = [];
  for (const { projectId } of projects) {
    await db.transaction(async (tx) => {
      const settings = await loadSettings(tx, projectId);
      const months = settings.retentionMonths;
      const cutoff = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - months, now.getUTCDate()))
        .toISOString()
        .slice(0, 10);
      const rows = await tx
        .update(crCases)
        .set({ encounterRefEnc: null, refPurgedAt: now })
        .where(
          and(eq(crCases.projectId, projectId), isNotNull(crCases.encounterRefEnc), lt(crCases.periodStart, cutoff)),
        )
        .returning({ id: crCases.id });
      if (rows.length === 0) return;
      await recordAudit(tx, {
        action: 'chart_review.encounter_refs_purged',
        projectId,
        actorUserId: null,
        subjectType: 'cr_settings',
        subjectId: projectId,
        data: { before: cutoff, retention_months: months, cases: rows.length },
        ip: null,
        requestId: null,
        at: now,
      });
      purged.push({ projectId, cases: rows.length });
    });
  }
  return purged;
}
