import {
  ASSIST_ACTIONS,
  assistDecisionSchema,
  assistStatusSchema,
  facilityProfileInputSchema,
  facilityProfileSchema,
  generateInputSchema,
  generateResultSchema,
  generationDetailSchema,
  generationListSchema,
  generatorLookupsSchema,
  previewInputSchema,
  previewResultSchema,
  refineInputSchema,
  refineResultSchema,
  regenerateInputSchema,
  regenerateResultSchema,
  templateBodySchema,
  templateCreateSchema,
  templateDetailSchema,
  templateListSchema,
  templatePublishSchema,
  templateVersionSchema,
} from '@portal/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pathId, projectParams } from '../../lib/path-id.js';
import { requireUser } from '../../plugins/session.js';
import { access } from '../../policies/access.js';
import { assistConfig, decideSuggestion, refineSection, requireAssist } from './assist.service.js';
import {
  generatePolicy,
  generationDetail,
  generatorLookups,
  listGenerations,
  previewPolicy,
  regeneratePolicy,
} from './generate.service.js';
import { EDIT_TEMPLATES, errors, GENERATE, generatorAccess, generatorProject, P, tags } from './kit.js';
import { loadProfileValues, readProfile, saveProfile } from './profile.service.js';
import {
  createTemplate,
  discardTemplateDraft,
  listTemplates,
  publishTemplate,
  saveTemplateDraft,
  templateDetail,
  templateVersion,
} from './templates.service.js';

const templateParams = projectParams.extend({ templateId: pathId('template') });
const versionParams = templateParams.extend({ versionId: pathId('version') });
const documentParams = projectParams.extend({ documentId: pathId('policy') });
const generationParams = projectParams.extend({ generationId: pathId('generation') });
const callParams = projectParams.extend({ callId: pathId('suggestion') });

/**
 * The policy generator (issue 12; docs/policy-generator.md lists every call and who may make it). Each call checks
 * access first (kit.ts): 404 when the project is not the caller's or has the generator off, 403 by section.
 */
export const policyGeneratorRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const assist = assistConfig(app.config);
  const who = (request: { ip: string; id: string }, userId: number) => ({
    userId,
    ip: request.ip,
    requestId: request.id,
  });

  // ------------------------------------------------------------ facility profile

  app.get(
    `${P}/profile`,
    {
      config: { access: access.project() },
      schema: {
        tags,
        summary: 'The facility profile',
        params: projectParams,
        response: { 200: facilityProfileSchema, ...errors },
      },
    },
    async (request) => readProfile(db, await generatorProject(db, request, request.params.projectId)),
  );

  app.put(
    `${P}/profile`,
    {
      config: { access: access.projectAdmin },
      schema: {
        tags,
        summary: 'Saves the facility profile (project administrators)',
        params: projectParams,
        body: facilityProfileInputSchema,
        response: { 200: facilityProfileSchema, ...errors },
      },
    },
    async (request) => {
      const access = await generatorProject(db, request, request.params.projectId);
      return saveProfile(db, access, who(request, requireUser(request).id), request.body, app.clock.now());
    },
  );

  // ------------------------------------------------------------ lookups and templates

  app.get(
    `${P}/lookups`,
    {
      config: { access: access.section('policy_management', 'policy-generator') },
      schema: {
        tags,
        summary: 'Departments, numbers and people the wizard chooses from',
        params: projectParams,
        response: { 200: generatorLookupsSchema, ...errors },
      },
    },
    async (request) => generatorLookups(db, await generatorAccess(db, request, GENERATE)),
  );

  app.get(
    `${P}/templates`,
    {
      config: { access: access.section('policy_management', 'policy-generator') },
      schema: {
        tags,
        summary: 'Templates of the library and the project',
        params: projectParams,
        response: { 200: templateListSchema, ...errors },
      },
    },
    async (request) => {
      const actor = await generatorAccess(db, request, GENERATE);
      return listTemplates(db, actor, await loadProfileValues(db, actor.projectId), app.clock.now());
    },
  );

  app.get(
    `${P}/templates/:templateId`,
    {
      config: { access: access.section('policy_management', 'policy-generator') },
      schema: {
        tags,
        summary: 'A template with its versions',
        params: templateParams,
        response: { 200: templateDetailSchema, ...errors },
      },
    },
    async (request) => {
      const actor = await generatorAccess(db, request, GENERATE);
      const profile = await loadProfileValues(db, actor.projectId);
      return templateDetail(db, actor, request.params.templateId, profile, app.clock.now());
    },
  );

  app.get(
    `${P}/templates/:templateId/versions/:versionId`,
    {
      config: { access: access.section('policy_management', 'policy-generator') },
      schema: {
        tags,
        summary: 'One version of a template',
        params: versionParams,
        response: { 200: templateVersionSchema, ...errors },
      },
    },
    async (request) => {
      const actor = await generatorAccess(db, request, GENERATE);
      return templateVersion(db, actor, request.params.templateId, request.params.versionId);
    },
  );

  app.post(
    `${P}/templates`,
    {
      config: { access: access.section('policy_management', 'generator-templates') },
      schema: {
        tags,
        summary: 'A project template: a copy, or a blank one',
        params: projectParams,
        body: templateCreateSchema,
        response: { 201: templateDetailSchema, ...errors },
      },
    },
    async (request, reply) => {
      const actor = await generatorAccess(db, request, EDIT_TEMPLATES);
      const now = app.clock.now();
      const id = await createTemplate(db, actor, request.body, now);
      const profile = await loadProfileValues(db, actor.projectId);
      return reply.status(201).send(await templateDetail(db, actor, id, profile, now));
    },
  );

  app.put(
    `${P}/templates/:templateId/draft`,
    {
      config: { access: access.section('policy_management', 'generator-templates') },
      schema: {
        tags,
        summary: "Saves the template's draft",
        params: templateParams,
        body: templateBodySchema,
        response: { 200: templateDetailSchema, ...errors },
      },
    },
    async (request) => {
      const actor = await generatorAccess(db, request, EDIT_TEMPLATES);
      const now = app.clock.now();
      await saveTemplateDraft(db, actor, request.params.templateId, request.body, now);
      return templateDetail(db, actor, request.params.templateId, await loadProfileValues(db, actor.projectId), now);
    },
  );

  app.delete(
    `${P}/templates/:templateId/draft`,
    {
      config: { access: access.section('policy_management', 'generator-templates') },
      schema: {
        tags,
        summary: "Discards the template's draft",
        params: templateParams,
        response: { 204: z.undefined(), ...errors },
      },
    },
    async (request, reply) => {
      const actor = await generatorAccess(db, request, EDIT_TEMPLATES);
      await discardTemplateDraft(db, actor, request.params.templateId, app.clock.now());
      return reply.status(204).send();
    },
  );

  app.post(
    `${P}/templates/:templateId/publish`,
    {
      config: { access: access.section('policy_management', 'generator-templates') },
      schema: {
        tags,
        summary: 'Publishes the draft as the next version',
        params: templateParams,
        body: templatePublishSchema,
        response: { 200: templateDetailSchema, ...errors },
      },
    },
    async (request) => {
      const actor = await generatorAccess(db, request, EDIT_TEMPLATES);
      const now = app.clock.now();
      await publishTemplate(db, actor, request.params.templateId, request.body.note, now);
      return templateDetail(db, actor, request.params.templateId, await loadProfileValues(db, actor.projectId), now);
    },
  );

  // ------------------------------------------------------------ preview, generate, regenerate

  app.post(
    `${P}/preview`,
    {
      config: { access: access.section('policy_management', 'policy-generator') },
      schema: {
        tags,
        summary: 'Renders a template with answers (unresolved placeholders marked)',
        params: projectParams,
        body: previewInputSchema,
        response: { 200: previewResultSchema, ...errors },
      },
    },
    async (request) => {
      const actor = await generatorAccess(db, request, GENERATE);
      return previewPolicy(db, actor, await loadProfileValues(db, actor.projectId), request.body);
    },
  );

  app.post(
    `${P}/generate`,
    {
      config: { access: access.section('policy_management', 'policy-generator') },
      schema: {
        tags,
        summary: 'Creates a draft policy from a template',
        params: projectParams,
        body: generateInputSchema,
        response: { 201: generateResultSchema, ...errors },
      },
    },
    async (request, reply) => {
      const actor = await generatorAccess(db, request, GENERATE);
      const profile = await loadProfileValues(db, actor.projectId);
      const result = await generatePolicy(db, actor, profile, request.body, app.clock.now());
      return reply.status(201).send(result);
    },
  );

  app.get(
    `${P}/generations`,
    {
      config: { access: access.section('policy_management', 'policy-generator') },
      schema: {
        tags,
        summary: 'Policies generated in this project',
        params: projectParams,
        response: { 200: generationListSchema, ...errors },
      },
    },
    async (request) => listGenerations(db, await generatorAccess(db, request, GENERATE)),
  );

  app.get(
    `${P}/generations/:generationId`,
    {
      config: { access: access.section('policy_management', 'policy-generator') },
      schema: {
        tags,
        summary: 'One generation with its answers',
        params: generationParams,
        response: { 200: generationDetailSchema, ...errors },
      },
    },
    async (request) => generationDetail(db, await generatorAccess(db, request, GENERATE), request.params.generationId),
  );

  app.post(
    `${P}/documents/:documentId/regenerate`,
    {
      config: { access: access.section('policy_management', 'policy-generator') },
      schema: {
        tags,
        summary: 'A new draft version from a newer template version, with its redline',
        params: documentParams,
        body: regenerateInputSchema,
        response: { 200: regenerateResultSchema, ...errors },
      },
    },
    async (request) => {
      const actor = await generatorAccess(db, request, GENERATE);
      return regeneratePolicy(
        db,
        actor,
        await loadProfileValues(db, actor.projectId),
        request.params.documentId,
        request.body,
        app.clock.now(),
      );
    },
  );

  // ------------------------------------------------------------ writing assistant (its calls 404 unless configured)

  app.get(
    `${P}/assist`,
    {
      config: { access: access.section('policy_management', 'policy-generator') },
      schema: {
        tags,
        summary: 'The writing assistant, when the operator configured one',
        params: projectParams,
        response: { 200: assistStatusSchema, ...errors },
      },
    },
    async (request) => {
      await generatorAccess(db, request, GENERATE);
      return assist
        ? { enabled: true, model: assist.model, actions: [...ASSIST_ACTIONS] }
        : { enabled: false, model: null, actions: [] };
    },
  );

  app.post(
    `${P}/assist/refine`,
    {
      config: { access: access.section('policy_management', 'policy-generator') },
      schema: {
        tags,
        summary: 'Suggests a rewrite of one section',
        params: projectParams,
        body: refineInputSchema,
        response: { 200: refineResultSchema, ...errors },
      },
    },
    async (request) => {
      const config = requireAssist(assist);
      return refineSection(db, await generatorAccess(db, request, GENERATE), config, request.body, app.clock.now());
    },
  );

  app.post(
    `${P}/assist/calls/:callId/decision`,
    {
      config: { access: access.section('policy_management', 'policy-generator') },
      schema: {
        tags,
        summary: 'Records whether the author took a suggestion',
        params: callParams,
        body: assistDecisionSchema,
        response: { 204: z.undefined(), ...errors },
      },
    },
    async (request, reply) => {
      requireAssist(assist);
      const actor = await generatorAccess(db, request, GENERATE);
      await decideSuggestion(db, actor, request.params.callId, request.body.accepted, app.clock.now());
      return reply.status(204).send();
    },
  );
};
