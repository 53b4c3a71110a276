import type { FastifyRequest } from 'fastify';
import type { DbOrTx } from '../../db/client.js';
import { projectAudit } from '../../lib/audit.js';
import { safeFileName } from '../../lib/csv.js';
import { errorAnswers } from '../../lib/error-answers.js';
import { requireUser } from '../../plugins/session.js';
import { type StandardsActor, standardsAccess } from '../../policies/standards.js';

/** What every standards route file shares: the prefix, the error answers, the tag, id params, actor and audit. */

export const P = '/api/projects/:projectId/standards';
export const errors = errorAnswers(400, 401, 403, 404, 409);
export const tags = ['standards'];

/** A moment's calendar day in UTC, 'YYYY-MM-DD' (due dates and expiry dates are days). */
export const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/** A part of a download's file name: spaces as dashes, nothing a file system or header could misread. */
export const fileSlug = (value: string) =>
  safeFileName(value.replace(/\s+/g, '-'))
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 60) || 'part';

/** The signed-in user's standards access to the request's project. */
export const actorFor =
  (db: DbOrTx) =>
  (request: FastifyRequest & { params: { projectId: number } }): Promise<StandardsActor> =>
    standardsAccess(db, requireUser(request), request, request.params.projectId);

/** Records a standards change (`standards.<action>`) in the transaction of the change, at `at` (the clock's). */
export const standardsAudit = projectAudit('standards');
