import type { MonitoringSection } from '@portal/shared';
import type { FastifyRequest } from 'fastify';
import type { DbOrTx } from '../../db/client.js';
import { errorAnswers } from '../../lib/error-answers.js';
import { requireUser } from '../../plugins/session.js';
import { type MonitoringActor, monitoringAccess } from '../../policies/monitoring.js';

/** What every monitoring route file shares: the prefix, the error answers, the tag, id params and the actor. */

export const P = '/api/projects/:projectId/monitoring';
export const errors = errorAnswers(400, 401, 403, 404, 409);
export const tags = ['monitoring'];

/** The signed-in user's monitoring access to the request's project for one section (monitoringAccess). */
export const actorFor =
  (db: DbOrTx) =>
  (request: FastifyRequest & { params: { projectId: number } }, section: MonitoringSection): Promise<MonitoringActor> =>
    monitoringAccess(db, requireUser(request), request, request.params.projectId, section);
