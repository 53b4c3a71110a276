import {
  crAnswersInputSchema,
  crAnswersSavedSchema,
  crMyAssignmentsQuerySchema,
  crMyAssignmentsSchema,
  crReassignInputSchema,
  crReturnInputSchema,
  crReviewFormSchema,
} from '@portal/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { DbOrTx } from '../../db/client.js';
import { pathId, projectParams } from '../../lib/path-id.js';
import { access } from '../../policies/access.js';
import { notify } from '../notifications/notifications.service.js';
import {
  getReviewForm,
  listMyAssignments,
  type ReviewNotice,
  reassignReview,
  returnReview,
  saveAnswers,
  submitReview,
} from './reviews.service.js';
import { actorFor, errors, P, tags } from './route-kit.js';

const assignmentParams = projectParams.extend({ assignmentId: pathId('review') });

/**
 * Bell notifications (links only, never case content), written on `tx`: the transaction of the change that causes
 * them, so they commit with it or not at all.
 */
export async function queueReviewNotices(
  tx: DbOrTx,
  projectId: number,
  notices: readonly ReviewNotice[],
  now: Date,
): Promise<void> {
  for (const notice of notices) {
    await notify(tx, {
      userIds: [...new Set(notice.userIds)],
      projectId,
      message: notice.message,
      link: notice.link,
      now,
    });
  }
}

/**
 * Reviews (docs/chart-review.md "Reviews"): my assignments (section my), the review form, autosave and submit
 * (section review), return and reassign (section programs).
 */
export const chartReviewReviewRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const actor = actorFor(db);

  app.get(
    `${P}/me/assignments`,
    {
      config: { keptAnswer: true, access: access.section('chart_review', 'my') },
      schema: {
        tags,
        summary: "The actor's reviews across programmes: overdue first, then by due date; submitted ones last",
        params: projectParams,
        querystring: crMyAssignmentsQuerySchema,
        response: { 200: crMyAssignmentsSchema, ...errors },
      },
    },
    async (request) => listMyAssignments(db, await actor(request, 'my'), request.query, app.clock.now()),
  );

  app.get(
    `${P}/assignments/:assignmentId`,
    {
      config: { access: access.section('chart_review', 'review') },
      schema: {
        tags,
        summary: 'A review form: the case, the questions, the saved answers and what the actor may do',
        params: assignmentParams,
        response: { 200: crReviewFormSchema, ...errors },
      },
    },
    async (request) => getReviewForm(db, await actor(request, 'review'), request.params.assignmentId, app.clock.now()),
  );

  app.put(
    `${P}/assignments/:assignmentId/answers`,
    {
      config: { access: access.section('chart_review', 'review') },
      schema: {
        tags,
        summary: 'Autosaves changed answers (409 when the version is stale)',
        params: assignmentParams,
        body: crAnswersInputSchema,
        response: { 200: crAnswersSavedSchema, ...errors },
      },
    },
    async (request) =>
      saveAnswers(db, await actor(request, 'review'), request.params.assignmentId, request.body, app.clock.now()),
  );

  app.post(
    `${P}/assignments/:assignmentId/submit`,
    {
      config: { access: access.section('chart_review', 'review') },
      schema: {
        tags,
        summary: 'Submits a review (400 with the unanswered questions); writes the case result',
        params: assignmentParams,
        response: { 200: crReviewFormSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'review');
      const now = app.clock.now();
      await db.transaction(async (tx) => {
        const { notices } = await submitReview(tx, a, request.params.assignmentId, now);
        await queueReviewNotices(tx, a.projectId, notices, now);
      });
      return getReviewForm(db, a, request.params.assignmentId, now);
    },
  );

  app.post(
    `${P}/assignments/:assignmentId/return`,
    {
      config: { access: access.section('chart_review', 'programs') },
      schema: {
        tags,
        summary: 'Returns a submitted review to its reviewer with a reason',
        params: assignmentParams,
        body: crReturnInputSchema,
        response: { 200: crReviewFormSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'programs');
      const now = app.clock.now();
      await db.transaction(async (tx) => {
        const { notices } = await returnReview(tx, a, request.params.assignmentId, request.body.reason, now);
        await queueReviewNotices(tx, a.projectId, notices, now);
      });
      return getReviewForm(db, a, request.params.assignmentId, now);
    },
  );

  app.post(
    `${P}/assignments/:assignmentId/reassign`,
    {
      config: { access: access.section('chart_review', 'programs') },
      schema: {
        tags,
        summary: 'Gives a review not yet submitted to another reviewer',
        params: assignmentParams,
        body: crReassignInputSchema,
        response: { 200: crReviewFormSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'programs');
      const now = app.clock.now();
      await db.transaction(async (tx) => {
        const { notices } = await reassignReview(tx, a, request.params.assignmentId, request.body.reviewer_id, now);
        await queueReviewNotices(tx, a.projectId, notices, now);
      });
      return getReviewForm(db, a, request.params.assignmentId, now);
    },
  );
};
