import {
  type StdLinkTarget,
  stdAssessmentCreateSchema,
  stdAssessmentListSchema,
  stdAssignmentInputSchema,
  stdAssignmentsSchema,
  stdBulkResultSchema,
  stdBulkSchema,
  stdCommentInputSchema,
  stdCreatedSchema,
  stdEcfrImportedSchema,
  stdEcfrImportSchema,
  stdElementHitsSchema,
  stdElementSchema,
  stdElementSearchQuerySchema,
  stdElementUpdateSchema,
  stdFrameworkImportSchema,
  stdFrameworkListSchema,
  stdFrameworkSchema,
  stdLinkInputSchema,
  stdLinkListSchema,
  stdLinkSchema,
  stdLinksQuerySchema,
  stdLinkTargetsQuerySchema,
  stdLinkTargetsSchema,
  stdMemberListSchema,
  stdMemberRoleSchema,
  stdMemberSchema,
  stdMeSchema,
  stdMySchema,
  stdTreeQuerySchema,
  stdTreeSchema,
  stdWordingSchema,
} from '@portal/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { builtFieldByField } from '../../lib/built-json.js';
import { AppError } from '../../lib/errors.js';
import { pathId, projectParams } from '../../lib/path-id.js';
import { requireUser } from '../../plugins/session.js';
import { access } from '../../policies/access.js';
import { projectAccess } from '../../policies/projects.js';
import { isStandardsAdmin, mayAssign, mayWrite, STANDARDS_FORBIDDEN } from '../../policies/standards.js';
import { assessmentTree, createAssessment, listAssessments } from './assessments.service.js';
import { importEcfrEdition } from './ecfr-import.service.js';
import { addComment, bulkUpdate, getElement, updateElement, updateWording } from './elements.service.js';
import { importFramework, listFrameworks } from './frameworks.service.js';
import {
  createLink,
  deleteLink,
  linkAccess,
  linksOfTarget,
  linkTargets,
  loadLink,
  searchElements,
} from './links.service.js';
import { assign, assignments, listMembers, myStandards, setMemberRole } from './people.service.js';
import { actorFor, errors, P, tags } from './route-kit.js';

/**
 * Standards, part 1 (issue 11; docs/standards.md lists every call): frameworks, assessments and their tree, the
 * element panel and its changes, people and assignments, my elements, and the closed-loop links.
 */
export const standardsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const actor = actorFor(db);
  const now = () => app.clock.now();
  const assessmentParams = projectParams.extend({ id: pathId('assessment') });
  const elementParams = projectParams.extend({ id: pathId('element') });

  app.get(
    `${P}/me`,
    {
      config: { access: access.standards('allow') },
      schema: {
        tags,
        summary: 'My standards role and abilities',
        params: projectParams,
        response: { 200: stdMeSchema, ...errors },
      },
    },
    async (request) => {
      const me = await actor(request);
      return {
        role: me.role,
        abilities: {
          create: isStandardsAdmin(me),
          manage_users: isStandardsAdmin(me),
          assign: mayAssign(me),
          import_frameworks: isStandardsAdmin(me),
          load_editions: me.isSuperadmin,
        },
      };
    },
  );

  app.get(
    `${P}/frameworks`,
    {
      config: { access: access.standards('allow') },
      schema: {
        tags,
        summary: 'The frameworks the project may assess: built in and its own',
        params: projectParams,
        response: { 200: stdFrameworkListSchema, ...errors },
      },
    },
    async (request) => {
      const me = await actor(request);
      return { frameworks: await listFrameworks(db, me.projectId) };
    },
  );

  app.post(
    `${P}/frameworks/import`,
    {
      config: { access: access.standards(403) },
      schema: {
        tags,
        summary: 'Imports a framework from CSV (standards admins; identifiers only for copyrighted publishers)',
        params: projectParams,
        body: stdFrameworkImportSchema,
        response: { 201: stdFrameworkSchema, ...errors },
      },
      bodyLimit: 3_000_000,
    },
    async (request, reply) =>
      reply.status(201).send(await importFramework(db, await actor(request), request.body, now())),
  );

  app.post(
    `${P}/frameworks/ecfr`,
    {
      config: { access: access.standardsForEveryProject },
      schema: {
        tags,
        summary: 'Loads an edition of 42 CFR 482 from the official eCFR XML (superadmins; every project reads it)',
        params: projectParams,
        body: stdEcfrImportSchema,
        response: { 201: stdEcfrImportedSchema, ...errors },
      },
      bodyLimit: 12_000_000,
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await importEcfrEdition(
            db,
            await actor(request),
            { xml: request.body.xml, asOf: request.body.as_of ?? null },
            now(),
          ),
        ),
  );

  app.get(
    `${P}/assessments`,
    {
      config: { access: access.standards('allow') },
      schema: {
        tags,
        summary: "The project's assessments with their counts",
        params: projectParams,
        response: { 200: stdAssessmentListSchema, ...errors },
      },
    },
    async (request) => ({ assessments: await listAssessments(db, await actor(request), now()) }),
  );

  app.post(
    `${P}/assessments`,
    {
      config: { access: access.standards(403) },
      schema: {
        tags,
        summary: 'Creates an assessment (the /create wizard; standards admins)',
        params: projectParams,
        body: stdAssessmentCreateSchema,
        response: { 201: stdCreatedSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await createAssessment(db, await actor(request), request.body, now())),
  );

  app.get(
    `${P}/assessments/:id/tree`,
    {
      config: { keptAnswer: true, access: access.standards('allow') },
      schema: {
        tags,
        summary: 'The compliance tree with roll-ups; filters keep the ancestors of matching elements',
        params: assessmentParams,
        querystring: stdTreeQuerySchema,
        response: { 200: stdTreeSchema, ...errors },
      },
      // A node per row of the framework, each built field by field by assessmentTree.
      serializerCompiler: builtFieldByField,
    },
    async (request) => assessmentTree(db, await actor(request), request.params.id, request.query, now()),
  );

  app.get(
    `${P}/assessments/:id/assignments`,
    {
      config: { access: access.standards(403) },
      schema: {
        tags,
        summary: 'Leads and owners by node (standards admins and chapter leads)',
        params: assessmentParams,
        response: { 200: stdAssignmentsSchema, ...errors },
      },
    },
    async (request) => assignments(db, await actor(request), request.params.id),
  );

  app.put(
    `${P}/assessments/:id/assignments`,
    {
      config: { access: access.standards(403) },
      schema: {
        tags,
        summary: "Sets a node's lead and/or the owner of every element below it",
        params: assessmentParams,
        body: stdAssignmentInputSchema,
        response: { 200: stdAssignmentsSchema, ...errors },
      },
    },
    async (request) => assign(db, await actor(request), request.params.id, request.body, now()),
  );

  app.get(
    `${P}/req-assessments/:id`,
    {
      config: { access: access.standards('allow') },
      schema: {
        tags,
        summary: 'One element: text, wording, assessment, crosswalk, live links, comments, history',
        params: elementParams,
        response: { 200: stdElementSchema, ...errors },
      },
    },
    async (request) => getElement(db, await actor(request), request.params.id, now()),
  );

  app.put(
    `${P}/req-assessments/:id`,
    {
      config: { access: access.standards(403) },
      schema: {
        tags,
        summary: "Saves an element's assessment (409 when it changed since `version`)",
        params: elementParams,
        body: stdElementUpdateSchema,
        response: { 200: stdElementSchema, ...errors },
      },
    },
    async (request) => updateElement(db, await actor(request), request.params.id, request.body, now()),
  );

  app.put(
    `${P}/req-assessments/:id/wording`,
    {
      config: { access: access.standards(403) },
      schema: {
        tags,
        summary: "Saves the facility's own wording of the element",
        params: elementParams,
        body: stdWordingSchema,
        response: { 200: stdElementSchema, ...errors },
      },
    },
    async (request) => updateWording(db, await actor(request), request.params.id, request.body, now()),
  );

  app.post(
    `${P}/req-assessments/:id/comments`,
    {
      config: { access: access.standards('record') },
      schema: {
        tags,
        summary: 'Adds a comment to an element',
        params: elementParams,
        body: stdCommentInputSchema,
        response: { 200: stdElementSchema, ...errors },
      },
    },
    async (request) => addComment(db, await actor(request), request.params.id, request.body.body, now()),
  );

  app.post(
    `${P}/req-assessments/bulk`,
    {
      config: { access: access.standards(403) },
      schema: {
        tags,
        summary: 'Sets owner and/or due date of many elements',
        params: projectParams,
        body: stdBulkSchema,
        response: { 200: stdBulkResultSchema, ...errors },
      },
    },
    async (request) => bulkUpdate(db, await actor(request), request.body, now()),
  );

  app.get(
    `${P}/members`,
    {
      config: { access: access.standards('allow') },
      schema: {
        tags,
        summary: 'Project members with their standards roles',
        params: projectParams,
        response: { 200: stdMemberListSchema, ...errors },
      },
    },
    async (request) => ({ members: await listMembers(db, await actor(request)) }),
  );

  app.put(
    `${P}/members/:userId`,
    {
      config: { access: access.standards(403) },
      schema: {
        tags,
        summary: "Sets or removes a member's standards role (standards admins)",
        params: projectParams.extend({ userId: pathId('user') }),
        body: stdMemberRoleSchema,
        response: { 200: stdMemberSchema, ...errors },
      },
    },
    async (request) => setMemberRole(db, await actor(request), request.params.userId, request.body.role, now()),
  );

  app.get(
    `${P}/my`,
    {
      config: { access: access.standards('allow') },
      schema: {
        tags,
        summary: 'The elements I own, overdue first',
        params: projectParams,
        response: { 200: stdMySchema, ...errors },
      },
    },
    async (request) => myStandards(db, await actor(request), now()),
  );

  app.get(
    `${P}/link-targets`,
    {
      config: { access: access.standards(403) },
      schema: {
        tags,
        summary: 'Policies, measures or programmes of the project to link from an element',
        params: projectParams,
        querystring: stdLinkTargetsQuerySchema,
        response: { 200: stdLinkTargetsSchema, ...errors },
      },
    },
    async (request) => {
      const me = await actor(request);
      if (!mayWrite(me)) throw new AppError('FORBIDDEN', STANDARDS_FORBIDDEN);
      return { targets: await linkTargets(db, me, request.query.type, request.query.search) };
    },
  );

  app.get(
    `${P}/elements`,
    {
      config: { access: access.standards('allow') },
      schema: {
        tags,
        summary: 'Elements of the assessed frameworks to link to (the add-standards picker)',
        params: projectParams,
        querystring: stdElementSearchQuerySchema,
        response: { 200: stdElementHitsSchema, ...errors },
      },
    },
    async (request) => {
      const access = await linkAccess(db, requireUser(request), request, request.params.projectId, request.query.for);
      return searchElements(db, access, request.query.search);
    },
  );

  app.get(
    `${P}/links`,
    {
      config: { access: access.standards('allow') },
      schema: {
        tags,
        summary: 'The elements a policy, measure or programme is linked to',
        params: projectParams,
        querystring: stdLinksQuerySchema,
        response: { 200: stdLinkListSchema, ...errors },
      },
    },
    async (request) => {
      const { target_type: type, target_id: id } = request.query;
      const access = await linkAccess(db, requireUser(request), request, request.params.projectId, type);
      return { links: await linksOfTarget(db, access, type, id) };
    },
  );

  app.post(
    `${P}/links`,
    {
      config: { access: access.standards('record', 'record') },
      schema: {
        tags,
        summary: 'Links an element to a policy, measure or programme',
        params: projectParams,
        body: stdLinkInputSchema,
        response: { 201: stdLinkSchema, ...errors },
      },
    },
    async (request, reply) => {
      const access = await linkAccess(
        db,
        requireUser(request),
        request,
        request.params.projectId,
        request.body.target_type,
      );
      return reply.status(201).send(await createLink(db, access, request.body, now()));
    },
  );

  app.delete(
    `${P}/links/:id`,
    {
      config: { access: access.standards('record', 'record') },
      schema: {
        tags,
        summary: 'Removes a link',
        params: projectParams.extend({ id: pathId('link') }),
        response: { 204: z.undefined(), ...errors },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      // Non-members get 404 before anything is read; then the link's own type decides whose access counts.
      const { project } = await projectAccess(db, user, request.params.projectId);
      const link = await loadLink(db, project.id, request.params.id);
      const access = await linkAccess(db, user, request, project.id, link.targetType as StdLinkTarget);
      await deleteLink(db, access, link.id, now());
      return reply.status(204).send();
    },
  );
};
