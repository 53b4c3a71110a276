import type { ChartReviewSection } from '@portal/shared';
import type { FastifyRequest } from 'fastify';
import type { DbOrTx } from '../../db/client.js';
import { projectAudit } from '../../lib/audit.js';
import { errorAnswers } from '../../lib/error-answers.js';
import { requireUser } from '../../plugins/session.js';
import { type ChartReviewActor, chartReviewAccess } from '../../policies/chart-review.js';

/** What every chart review route file shares: the prefix, the error answers, the tag, id params, actor and audit. */

export const P = '/api/projects/:projectId/chart-review';
export const errors = errorAnswers(400, 401, 403, 404, 409);
export const tags = ['chart-review'];

/** The signed-in user's chart review access to the request's project for one section (chartReviewAccess). */
export const actorFor =
  (db: DbOrTx) =>
  (
    request: FastifyRequest & { params: { projectId: number } },
    section: ChartReviewSection,
  ): Promise<ChartReviewActor> =>
    chartReviewAccess(db, requireUser(request), request, request.params.projectId, section);

/** `{ id, name }` of a left-joined user, or null when the column was empty. */
export const personOrNull = (id: number | null, name: string | null) =>
  id === null || name === null ? null : { id, name };

/** Records a chart review change (`chart_review.<action>`) in the transaction of the change, at `at` (the clock's). */
export const chartReviewAudit = projectAudit('chart_review');

/** Whether a database error is the unique violation of `constraint` (also when drizzle wraps it as `cause`). */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  const e = error as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
  const inner = e?.cause ?? e;
  return inner?.code === '23505' && inner?.constraint === constraint;
}
