import {
  attestBodySchema,
  BULK_ACTION_SECTION,
  BULK_ACTIONS,
  type BulkAction,
  bulkBodySchema,
  bulkCandidatesSchema,
  bulkResultSchema,
  bulkSignAuthorizeSchema,
  bulkSignTokenSchema,
  declineBodySchema,
  documentWorkflowSchema,
  myTasksSchema,
  type PolicySection,
  policyDashboardSchema,
  reviewDecisionBodySchema,
  reviewsDueSchema,
  sendToReviewBodySchema,
  signBodySchema,
  withdrawBodySchema,
  workflowSettingsSchema,
} from '@portal/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { DbOrTx } from '../../db/client.js';
import { errorAnswers } from '../../lib/error-answers.js';
import { pathId, projectParams } from '../../lib/path-id.js';
import { requireUser } from '../../plugins/session.js';
import { access } from '../../policies/access.js';
import { EDIT_DOCUMENTS, type PolicyActor, policyAccess } from '../../policies/policy-management.js';
import { type Notice, queueNotices } from '../notifications/notices.js';
import { bulkCandidates, runBulk } from './bulk.service.js';
import { policyDashboard } from './dashboard.service.js';
import { checkSignerCredentials, checkSigningBatch, evidenceOf, startSigningBatch } from './signing.js';
import { resolveTaskNotices } from './task-notices.js';
import { myTasks, reviewsDueLists } from './tasks.service.js';
import { attest, decline, loadWorkflow, review, sendToReview, signVersion, withdraw } from './workflow.service.js';
import { loadWorkflowSettings, saveWorkflowSettings } from './workflow-settings.js';

const P = '/api/projects/:projectId/policy-management';
const errors = errorAnswers(400, 401, 403, 404, 409, 422, 423, 429);
const tags = ['policy workflow'];
const documentParams = projectParams.extend({
  documentId: pathId('policy'),
});
const bulkParams = projectParams.extend({ action: z.enum(BULK_ACTIONS) });

/**
 * The review, signature and attestation workflow (decision record 007; docs/policies.md lists every call). Each
 * step answers the document's workflow as it is after the step, and notifies the next people once it has committed.
 */
export const workflowRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const actor = (request: FastifyRequest & { params: { projectId: number } }, section: PolicySection) =>
    policyAccess(db, requireUser(request), request, request.params.projectId, section);

  app.get(
    `${P}/documents/:documentId/workflow`,
    {
      config: { access: access.section('policy_management', 'documents') },
      schema: {
        tags,
        summary: "A policy's workflow: requests, signatures, history and what I may do",
        params: documentParams,
        response: { 200: documentWorkflowSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'documents');
      return loadWorkflow(db, a, request.params.documentId);
    },
  );

  /** A step on one document: who may take it, what it takes; it answers the document's workflow. */
  const stepSchema = <B extends z.ZodType>(section: PolicySection, summary: string, body: B) => ({
    config: { access: access.section('policy_management', section) },
    schema: { tags, summary, params: documentParams, body, response: { 200: documentWorkflowSchema, ...errors } },
  });
  /**
   * Takes a step on the request's document as `section` allows, in one transaction with the notices the step returns
   * (queued at the instant it returns them) and the task notices it settles, and answers the document's workflow as
   * it is after the step.
   */
  const takeStep = async (
    request: FastifyRequest & { params: { projectId: number; documentId: number } },
    section: PolicySection,
    step: (tx: DbOrTx, a: PolicyActor, documentId: number) => Promise<{ notices: readonly Notice[]; now: Date }>,
  ) => {
    const a = await actor(request, section);
    const { documentId } = request.params;
    await db.transaction(async (tx) => {
      const { notices, now } = await step(tx, a, documentId);
      await queueNotices(tx, app.mailer, a.projectId, notices, now);
      await resolveTaskNotices(tx, a.projectId, documentId, now);
    });
    return loadWorkflow(db, a, documentId);
  };

  app.post(
    `${P}/documents/:documentId/send-to-review`,
    stepSchema(EDIT_DOCUMENTS, 'Sends the draft to the department reviewers', sendToReviewBodySchema),
    (request) =>
      takeStep(request, EDIT_DOCUMENTS, async (tx, a, documentId) => {
        const now = app.clock.now();
        return { notices: await sendToReview(tx, a, documentId, request.body.comment, now), now };
      }),
  );

  app.post(
    `${P}/documents/:documentId/withdraw`,
    stepSchema(EDIT_DOCUMENTS, 'Takes the version back from review or signature to draft', withdrawBodySchema),
    (request) =>
      takeStep(request, EDIT_DOCUMENTS, async (tx, a, documentId) => {
        const now = app.clock.now();
        return { notices: await withdraw(tx, a, documentId, request.body.comment, now), now };
      }),
  );

  app.post(
    `${P}/documents/:documentId/review`,
    stepSchema('documents', 'A reviewer approves or requests changes', reviewDecisionBodySchema),
    (request) =>
      takeStep(request, 'documents', async (tx, a, documentId) => {
        const now = app.clock.now();
        return { notices: await review(tx, a, documentId, request.body, now), now };
      }),
  );

  app.post(
    `${P}/documents/:documentId/sign`,
    stepSchema('documents', 'Signs the version (password or authenticator code re-entered)', signBodySchema),
    async (request) => {
      // Before the step's transaction: the password check takes tens of milliseconds and reads on a connection of its
      // own (a failed attempt is counted even though nothing is signed), so the transaction must not hold one meanwhile.
      const method = await checkSignerCredentials(app, request, request.body);
      return takeStep(request, 'documents', async (tx, a, documentId) => {
        const evidence = evidenceOf(app, request);
        const signed = await signVersion(tx, a, documentId, { versionId: request.body.version_id, method, evidence });
        return { notices: signed.notices, now: evidence.now };
      });
    },
  );

  app.post(
    `${P}/documents/:documentId/decline`,
    stepSchema('documents', 'A signer declines and sends the version back to draft', declineBodySchema),
    (request) =>
      takeStep(request, 'documents', async (tx, a, documentId) => {
        const now = app.clock.now();
        return { notices: await decline(tx, a, documentId, request.body, now), now };
      }),
  );

  app.post(
    `${P}/documents/:documentId/attest`,
    stepSchema('documents', 'Attests that I read the current version', attestBodySchema),
    (request) =>
      takeStep(request, 'documents', async (tx, a, documentId) => {
        const evidence = evidenceOf(app, request);
        await attest(tx, a, documentId, request.body.version_id, evidence);
        return { notices: [], now: evidence.now };
      }),
  );

  app.get(
    `${P}/my-tasks`,
    {
      config: { access: access.section('policy_management', 'documents') },
      schema: {
        tags,
        summary: 'What waits for me: reviews, signatures, reading, drafts sent back, reviews due',
        params: projectParams,
        response: { 200: myTasksSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'documents');
      return myTasks(db, a, app.clock.now());
    },
  );

  app.get(
    `${P}/reviews/due`,
    {
      config: { access: access.section('policy_management', 'documents') },
      schema: {
        tags,
        summary: 'Periodic reviews overdue and due within 30 days',
        params: projectParams,
        response: { 200: reviewsDueSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'documents');
      return reviewsDueLists(db, a, app.clock.now());
    },
  );

  app.get(
    `${P}/workflow-settings`,
    {
      config: { access: access.section('policy_management', 'documents') },
      schema: {
        tags,
        summary: 'Workflow settings of the project',
        params: projectParams,
        response: { 200: workflowSettingsSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'documents');
      return loadWorkflowSettings(db, a.projectId);
    },
  );

  app.put(
    `${P}/workflow-settings`,
    {
      config: { access: access.section('policy_management', 'admin-dashboard') },
      schema: {
        tags,
        summary: 'Saves the workflow settings',
        params: projectParams,
        body: workflowSettingsSchema,
        response: { 200: workflowSettingsSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'admin-dashboard');
      return saveWorkflowSettings(db, a, request.body, app.clock.now());
    },
  );

  app.get(
    `${P}/admin-dashboard`,
    {
      config: { access: access.section('policy_management', 'admin-dashboard') },
      schema: {
        tags,
        summary: 'Policies by status, my tasks, reviews due, attestation rates, recent activity',
        params: projectParams,
        response: { 200: policyDashboardSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'admin-dashboard');
      return policyDashboard(db, a, app.clock.now());
    },
  );

  // ------------------------------------------------------------ bulk actions

  app.get(
    `${P}/bulk/:action`,
    {
      config: {
        access: (params) => access.section('policy_management', BULK_ACTION_SECTION[params.action as BulkAction]),
      },
      schema: {
        tags,
        summary: 'The policies I may sign, send to sign, read or start a new version of',
        params: bulkParams,
        response: { 200: bulkCandidatesSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, BULK_ACTION_SECTION[request.params.action]);
      return { documents: await bulkCandidates(db, a, request.params.action, app.clock.now()) };
    },
  );

  app.post(
    `${P}/bulk/sign/authorize`,
    {
      config: { access: access.section('policy_management', BULK_ACTION_SECTION.sign) },
      schema: {
        tags,
        summary: 'Checks the credentials once for a batch of signatures; answers a batch token',
        params: projectParams,
        body: bulkSignAuthorizeSchema,
        response: { 200: bulkSignTokenSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, BULK_ACTION_SECTION.sign);
      const method = await checkSignerCredentials(app, request, request.body);
      return startSigningBatch(app, request, a.projectId, request.body.document_ids, method);
    },
  );

  app.post(
    `${P}/bulk/:action`,
    {
      config: {
        access: (params) => access.section('policy_management', BULK_ACTION_SECTION[params.action as BulkAction]),
      },
      schema: {
        tags,
        summary: 'Runs the action on each policy; each item on its own, safe to retry',
        params: bulkParams,
        body: bulkBodySchema,
        response: { 200: bulkResultSchema, ...errors },
      },
    },
    async (request) => {
      const { action } = request.params;
      const a = await actor(request, BULK_ACTION_SECTION[action]);
      const method =
        action === 'sign'
          ? checkSigningBatch(app, request, a.projectId, request.body.batch_token, request.body.document_ids)
          : undefined;
      const evidence = evidenceOf(app, request);
      const results = await runBulk(db, a, action, request.body.document_ids, {
        evidence,
        ...(method ? { method } : {}),
        mailer: app.mailer,
        log: (error) => request.log.error({ err: error }, 'Bulk item failed'),
      });
      return { results };
    },
  );
};
