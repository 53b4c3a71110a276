import type { ChartReviewSection } from '@portal/shared';
import { CR_RATER_CANNOT_ADJUDICATE } from '@portal/shared';
import type { DbOrTx } from '../db/client.js';
import type { SessionUser } from '../plugins/session.js';
import { type AppActor, appAccess, mayUseSection } from './app-access.js';
import { allow } from './rules.js';

/**
 * Who may do what in a project's chart review (docs/permissions.md; the superadmin's chart-review permission
 * matrix), through the shared app access rules (app-access.ts). Sections (ChartReviewSection): dashboard, my,
 * review, programs, sampling, irr, findings, tools, settings.
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

/**
 * Whether the actor may read encounter references (reveal one case's, download a sample's pull list): superadmins,
 * and the chart review roles the project's settings list (reveal_roles). Every read is logged with its reason.
 */
export const mayReadEncounterRefs = (actor: ChartReviewActor, revealRoles: readonly string[]): boolean =>
  actor.isSuperadmin || (actor.role !== null && revealRoles.includes(actor.role));

/** What the review rules need to know of one review (an assignment of a case to a reviewer). */
export interface ReviewFacts {
  projectId: number;
  reviewerId: number;
  /** The case's other reviewer (the blind second review, or the primary seen from the second); null without one. */
  otherReviewerId: number | null;
}

/**
 * A chart review and the pair of reviews a case may have (docs/chart-review.md "Blind second review"; rules.ts says
 * how a rule is asked):
 * - see: its reviewer, and those with the programs section who are not the case's other reviewer (the reviews stay
 *   blind to each other); anyone else is answered as if it did not exist;
 * - change: its reviewer only.
 */
export const reviewRules = allow<ChartReviewActor, ReviewFacts, 'see' | 'change'>(
  'Review',
  'Only the reviewer of this case can change its answers.',
  {
    see: (actor, review) =>
      review.reviewerId === actor.userId ||
      (mayUseSection(actor, 'programs') && review.otherReviewerId !== actor.userId),
    change: (actor, review) => review.reviewerId === actor.userId,
  },
);

/** A pair of reviews that disagree: adjudicated by someone who reviewed neither. */
export const pairRules = allow<ChartReviewActor, { projectId: number; reviewerIds: number[] }, 'adjudicate'>(
  'Pair',
  CR_RATER_CANNOT_ADJUDICATE,
  { adjudicate: (actor, pair) => !pair.reviewerIds.includes(actor.userId) },
);
