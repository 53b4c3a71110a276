import {
  INT4_MAX,
  monitoringIntroductionSchema,
  monitoringIntroductionUpdateSchema,
  pageCreateSchema,
  pageDeletedSchema,
  pageDeleteQuerySchema,
  pageDetailSchema,
  pageOwnerCandidatesSchema,
  pageProjectSchema,
  pageTreeSchema,
  pageUpdateSchema,
  usedPageNumbersSchema,
} from '@portal/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, notFound } from '../../lib/errors.js';
import { projectParams } from '../../lib/path-id.js';
import { requireUser } from '../../plugins/session.js';
import { access } from '../../policies/access.js';
import { canUse, monitoringAccess, requireActor } from '../../policies/monitoring.js';
import { effectivePageAccess } from './page-access.js';
import {
  createPage,
  deletePage,
  getIntroduction,
  getPage,
  listPages,
  ownerCandidates,
  projectOfPage,
  updateIntroduction,
  updatePage,
  usedNumbers,
} from './pages.service.js';
import { actorFor, errors, P, tags } from './route-kit.js';

const pageId = z
  .string()
  .regex(/^\d{1,10}$/, 'The page id is 1 to 10 digits.')
  .transform(Number);
const pageParams = projectParams.extend({ pageId });

/** The page tree core: pages, the introduction, and the project of a page (issue 8; docs/monitoring.md "Pages"). */
export const monitoringPageRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const actor = actorFor(db);

  app.get(
    `${P}/pages`,
    {
      config: { access: access.section('monitoring', 'pages') },
      schema: {
        tags,
        summary: 'The pages the user may see, flat in tree order, with abilities',
        params: projectParams,
        response: { 200: pageTreeSchema, ...errors },
      },
    },
    async (request) => listPages(db, await actor(request, 'pages')),
  );

  app.get(
    `${P}/pages/used-numbers`,
    {
      config: { access: access.section('monitoring', 'pages') },
      schema: {
        tags,
        summary: 'The numbers of every live page (numbers only), for manual numbering',
        params: projectParams,
        response: { 200: usedPageNumbersSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'pages');
      return { numbers: await usedNumbers(db, a) };
    },
  );

  app.get(
    `${P}/pages/owner-candidates`,
    {
      config: { access: access.section('monitoring', 'pages', { member: 403 }) },
      schema: {
        tags,
        summary: 'The monitoring users who may own a page (the page form)',
        params: projectParams,
        response: { 200: pageOwnerCandidatesSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'pages');
      requireActor(
        a,
        (actor) => canUse(actor, 'create-page') || canUse(actor, 'edit-page'),
        'Only people who create or edit pages can list page owners.',
      );
      return { people: await ownerCandidates(db, a.projectId) };
    },
  );

  app.get(
    `${P}/pages/:pageId`,
    {
      config: { keptAnswer: true, access: access.section('monitoring', 'pages') },
      schema: {
        tags,
        summary: 'One page with its sections, ancestors and visible children',
        params: pageParams,
        response: { 200: pageDetailSchema, ...errors },
      },
    },
    async (request) => getPage(db, await actor(request, 'pages'), request.params.pageId),
  );

  app.post(
    `${P}/pages`,
    {
      config: { access: access.section('monitoring', 'create-page') },
      schema: {
        tags,
        summary: 'Creates a page, last among its siblings',
        params: projectParams,
        body: pageCreateSchema,
        response: { 201: pageDetailSchema, ...errors },
      },
    },
    async (request, reply) => {
      const page = await createPage(db, await actor(request, 'create-page'), request.body, app.clock.now());
      return reply.status(201).send(page);
    },
  );

  app.put(
    `${P}/pages/:pageId`,
    {
      config: { access: access.section('monitoring', 'edit-page') },
      schema: {
        tags,
        summary: 'Changes a page (409 with the current version in errors.version when the edit is stale)',
        params: pageParams,
        body: pageUpdateSchema,
        response: { 200: pageDetailSchema, ...errors },
      },
    },
    async (request) =>
      updatePage(db, await actor(request, 'edit-page'), request.params.pageId, request.body, app.clock.now()),
  );

  app.delete(
    `${P}/pages/:pageId`,
    {
      config: { access: access.section('monitoring', 'create-page') },
      schema: {
        tags,
        summary: 'Deletes a page (soft); with cascade=true its whole branch',
        params: pageParams,
        querystring: pageDeleteQuerySchema,
        response: { 200: pageDeletedSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'create-page');
      return {
        deleted: await deletePage(db, a, request.params.pageId, request.query.cascade === 'true', app.clock.now()),
      };
    },
  );

  app.get(
    `${P}/introduction`,
    {
      config: { access: access.section('monitoring', 'introduction') },
      schema: {
        tags,
        summary: 'The programme introduction and the top-level pages',
        params: projectParams,
        response: { 200: monitoringIntroductionSchema, ...errors },
      },
    },
    async (request) => getIntroduction(db, await actor(request, 'introduction')),
  );

  app.put(
    `${P}/introduction`,
    {
      config: { access: access.section('monitoring', 'introduction', { member: 403 }) },
      schema: {
        tags,
        summary: 'Changes the programme introduction (monitoring administrators)',
        params: projectParams,
        body: monitoringIntroductionUpdateSchema,
        response: { 200: monitoringIntroductionSchema, ...errors },
      },
    },
    async (request) =>
      updateIntroduction(db, await actor(request, 'introduction'), request.body.introduction, app.clock.now()),
  );

  app.get(
    '/api/monitoring/pages/:pageId/project',
    {
      config: { access: access.signedIn },
      schema: {
        tags,
        summary: 'The project of a page the user may see (links without a project)',
        params: z.object({ pageId }),
        response: { 200: pageProjectSchema, ...errors },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const id = request.params.pageId;
      const projectId = id > INT4_MAX ? null : await projectOfPage(db, id);
      if (projectId === null) throw notFound('Page not found.');
      try {
        const a = await monitoringAccess(db, user, request, projectId, 'pages');
        if (((await effectivePageAccess(db, a)).get(id) ?? 'none') === 'none') throw notFound('Page not found.');
        return { project_id: projectId };
      } catch (error) {
        if (error instanceof AppError && error.status !== 401) throw notFound('Page not found.');
        throw error;
      }
    },
  );
};
