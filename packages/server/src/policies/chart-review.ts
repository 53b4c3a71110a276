import type { ChartReviewSection } from '@portal/shared';
import type { DbOrTx } from '../db/client.js';
import type { SessionUser } from '../plugins/session.js';
import { type AppActor, appAccess, mayUseSection } from './app-access.js';

/**
 * Who may do what in a project's chart review (docs/permissions.md; the superadmin's chart-review permission
 * matrix), through the shared app access rules (app-access.ts). Sections (ChartReviewSection): dashboard, my,
 * review, programs, sampling, irr, findings, tools, settings. What a role may do to one record (a case, a sample, a
 * review, a programme, a tool version, a finding) is chart-review-records.ts.
 */
export type ChartReviewActor = AppActor;

export function chartReviewAccess(
  db: DbOrTx,
  user: SessionUser,
  request: { ip: string; id: string },
  projectId: number,
  section: ChartReviewSection,
): Promise<ChartReviewActor> {
  return appAccess(db, 'chart_review', user, request, projectId, section);
}

/** Whether the actor's role may use a section (for abilities and for what a list shows). */
export const mayUse: (actor: ChartReviewActor, section: ChartReviewSection) => boolean = mayUseSection;
