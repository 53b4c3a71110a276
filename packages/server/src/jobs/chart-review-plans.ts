import type { CrActionInput, PeriodGrain } from '@portal/shared';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { crActionPlans, crFindings, crPrograms, projects } from '../db/schema/index.js';
import { recordAudit } from '../lib/audit.js';
import {
  AUTO_CLOSE_NOTE,
  findingLink,
  type SuccessCache,
  successState,
} from '../modules/chart-review/findings.service.js';
import { notify } from '../modules/notifications/notifications.service.js';

/**
 * The closed loop of chart review findings (DOMAIN.md 2.6 "go beyond" 1; docs/chart-review.md): once a day, a finding
 * whose action plan has every action done and whose success rule is met (the linked measure, or the finding's own
 * compliance, at or beyond the programme's target for the plan's number of complete periods in a row) is closed
 * with an automatic note and an audit event, and the programme's owner is told (a link only) in the same transaction.
 * Reads every project with chart review switched on (hence `unsafe`); each finding is its own transaction.
 */
export async function unsafeCloseMetFindings(
  db: Database,
  now: Date,
): Promise<{ findingId: number; projectId: number }[]> {
  const candidates = await db
    .select({
      finding: crFindings,
      actions: crActionPlans.actions,
      measureId: crActionPlans.measureId,
      successPeriods: crActionPlans.successPeriods,
      grain: crPrograms.grain,
      ownerId: crPrograms.ownerId,
      programName: crPrograms.name,
    })
    .from(crFindings)
    .innerJoin(
      crActionPlans,
      and(eq(crActionPlans.projectId, crFindings.projectId), eq(crActionPlans.findingId, crFindings.id)),
    )
    .innerJoin(crPrograms, and(eq(crPrograms.projectId, crFindings.projectId), eq(crPrograms.id, crFindings.programId)))
    .innerJoin(projects, eq(projects.id, crFindings.projectId))
    .where(
      and(
        eq(crFindings.status, 'action_plan'),
        eq(projects.isActive, true),
        sql`'chart_review' = any(${projects.activeApps})`,
      ),
    )
    .orderBy(asc(crFindings.projectId), asc(crFindings.id));
  const closed: { findingId: number; projectId: number }[] = [];
  const caches = new Map<number, SuccessCache>();
  for (const row of candidates) {
    const actions = row.actions as CrActionInput[];
    if (actions.length === 0 || actions.some((action) => action.done_at === null)) continue;
    const projectId = row.finding.projectId;
    if (!caches.has(projectId)) caches.set(projectId, new Map());
    const success = await successState(
      db,
      {
        projectId,
        program: { id: row.finding.programId, grain: row.grain as PeriodGrain, target: row.finding.target },
        finding: row.finding,
        measureId: row.measureId,
        required: row.successPeriods,
      },
      now,
      caches.get(projectId),
    );
    if (!success.met) continue;
    const done = await db.transaction(async (tx) => {
      // Only if nobody changed it since it was read (closed by hand, plan emptied).
      const [updated] = await tx
        .update(crFindings)
        .set({ status: 'closed', closedAt: now, closedBy: null, closeNote: AUTO_CLOSE_NOTE, updatedAt: now })
        .where(
          and(
            eq(crFindings.projectId, projectId),
            eq(crFindings.id, row.finding.id),
            eq(crFindings.status, 'action_plan'),
          ),
        )
        .returning({ id: crFindings.id });
      if (!updated) return false;
      await recordAudit(tx, {
        action: 'chart_review.finding_auto_closed',
        projectId,
        actorUserId: null,
        subjectType: 'cr_finding',
        subjectId: row.finding.id,
        data: {
          note: AUTO_CLOSE_NOTE,
          status: { from: 'action_plan', to: 'closed' },
          success: { source: success.source, required: success.required, latest: success.latest },
        },
        ip: null,
        requestId: null,
        at: now,
      });
      if (row.ownerId !== null) {
        await notify(tx, {
          userIds: [row.ownerId],
          projectId,
          message: `A finding of ${row.programName} was closed: its actions are done and its success rule is met.`,
          link: findingLink(projectId, row.finding.id),
          now,
        });
      }
      return true;
    });
    if (!done) continue;
    closed.push({ findingId: row.finding.id, projectId });
  }
  return closed;
}
