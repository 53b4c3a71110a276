import {
  guestDocumentSchema,
  guestProjectSchema,
  guestReadingInputSchema,
  guestReadingSchema,
  guestReadsQuerySchema,
  guestReadsSchema,
  guestSearchQuerySchema,
  guestSearchSchema,
  guestTocSchema,
} from '@portal/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { minutes } from '../../lib/clock.js';
import { errorAnswers } from '../../lib/error-answers.js';
import { AppError } from '../../lib/errors.js';
import { pathId, projectParams } from '../../lib/path-id.js';
import { hitRateLimit } from '../../lib/rate-limit.js';
import { requireUser } from '../../plugins/session.js';
import { access } from '../../policies/access.js';
import { guestActor } from '../../policies/guest-reading.js';
import { policyAccess } from '../../policies/policy-management.js';
import { GUEST_UNAVAILABLE, guestDocument, guestProject, guestSearch, guestToc } from './guest-reader.service.js';
import { recordGuestRead } from './guest-reading.service.js';
import { guestReadingSettings, guestReadsPage, saveGuestReading } from './guest-settings.service.js';

const P = '/api/projects/:projectId/policy-management';
const G = '/api/guest/projects/:projectId';
const errors = errorAnswers(400, 401, 403, 404);
const guestErrors = errorAnswers(400, 404, 429);
const tags = ['policy management'];
const guestTags = ['guest reading'];
/** Reads per address in a window: a kiosk's reader pages freely, a scraper on the unit's network is slowed down. */
const GUEST_CALLS = 300;
const GUEST_WINDOW_MS = minutes(10);

/**
 * Reading without an account (issue 28; docs/policies.md "Guest reading"). The setting and its log are the policy
 * administrators' (the numbering section, like the project's other policy settings). The guest calls need no
 * session and ignore one: a signed-in member on a kiosk reads as a guest here; each answers the same 404 unless the
 * project turned guest reading on and the request comes from one of its ranges.
 */
export const guestReadingRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;

  const admin = (request: FastifyRequest & { params: { projectId: number } }) =>
    policyAccess(db, requireUser(request), request, request.params.projectId, 'numbering');

  app.get(
    `${P}/guest-reading`,
    {
      config: { access: access.section('policy_management', 'numbering') },
      schema: {
        tags,
        summary: 'Guest reading: whether it is on, its address ranges, and the caller’s own address',
        params: projectParams,
        response: { 200: guestReadingSchema, ...errors },
      },
    },
    async (request) => {
      const a = await admin(request);
      return guestReadingSettings(db, a.projectId, request.ip);
    },
  );

  app.put(
    `${P}/guest-reading`,
    {
      config: { access: access.section('policy_management', 'numbering') },
      schema: {
        tags,
        summary: 'Turns guest reading on or off and sets its address ranges',
        params: projectParams,
        body: guestReadingInputSchema,
        response: { 200: guestReadingSchema, ...errors },
      },
    },
    async (request) => {
      const a = await admin(request);
      return saveGuestReading(db, { ...a, ip: request.ip }, request.body, app.clock.now());
    },
  );

  app.get(
    `${P}/guest-reads`,
    {
      config: { access: access.section('policy_management', 'numbering') },
      schema: {
        tags,
        summary: 'The guest reads log, newest first',
        params: projectParams,
        querystring: guestReadsQuerySchema,
        response: { 200: guestReadsSchema, ...errors },
      },
    },
    async (request) => {
      const a = await admin(request);
      return guestReadsPage(db, a.projectId, request.query.page);
    },
  );

  // ------------------------------------------------------------ the guest reader (no session)

  /** Counts the call against the address's budget, then checks the project lets this address read. */
  const guest = async (request: FastifyRequest & { params: { projectId: number } }) => {
    const limit = await hitRateLimit(db, `guest-read:${request.ip}`, GUEST_CALLS, GUEST_WINDOW_MS, app.clock.now());
    if (!limit.allowed) {
      throw new AppError(
        'RATE_LIMITED',
        'Too many pages opened from this computer. Wait a few minutes and try again.',
        undefined,
        limit.retryAfterSeconds,
      );
    }
    const project = await guestProject(db, request.params.projectId, request.ip);
    return { project, actor: guestActor(project.id, request.ip) };
  };
  const logged = (request: FastifyRequest, projectId: number) => ({
    projectId,
    ip: request.ip,
    userAgent: request.headers['user-agent'] ?? '',
  });

  app.get(
    G,
    {
      config: { access: access.public },
      schema: {
        tags: guestTags,
        summary: 'The project a guest may read the policies of',
        description: `404 "${GUEST_UNAVAILABLE}" when guest reading is off, the address is outside its ranges, or there is no such project.`,
        params: projectParams,
        response: { 200: guestProjectSchema, ...guestErrors },
      },
    },
    async (request) => ({ project: (await guest(request)).project }),
  );

  app.get(
    `${G}/documents`,
    {
      config: { access: access.public },
      schema: {
        tags: guestTags,
        summary: 'The table of contents of the published policies',
        params: projectParams,
        response: { 200: guestTocSchema, ...guestErrors },
      },
    },
    async (request) => guestToc(db, (await guest(request)).actor),
  );

  app.get(
    `${G}/search`,
    {
      config: { access: access.public },
      schema: {
        tags: guestTags,
        summary: 'Searches the published policies',
        params: projectParams,
        querystring: guestSearchQuerySchema,
        response: { 200: guestSearchSchema, ...guestErrors },
      },
    },
    async (request) => {
      const { actor } = await guest(request);
      const found = await guestSearch(db, actor, request.query.q);
      await recordGuestRead(
        db,
        { ...logged(request, actor.projectId), kind: 'search', query: request.query.q },
        app.clock.now(),
      );
      return found;
    },
  );

  app.get(
    `${G}/documents/:documentId`,
    {
      config: { access: access.public },
      schema: {
        tags: guestTags,
        summary: 'The current published version of a policy',
        params: projectParams.extend({ documentId: pathId('policy') }),
        response: { 200: guestDocumentSchema, ...guestErrors },
      },
    },
    async (request) => {
      const { actor } = await guest(request);
      const { document, versionId } = await guestDocument(db, actor, request.params.documentId);
      await recordGuestRead(
        db,
        { ...logged(request, actor.projectId), kind: 'read', documentId: document.id, versionId },
        app.clock.now(),
      );
      return document;
    },
  );
};
