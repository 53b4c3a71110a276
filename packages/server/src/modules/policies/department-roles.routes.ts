import {
  assignRolesBodySchema,
  departmentAssignmentDataSchema,
  departmentAttestationsSchema,
  departmentEditListsSchema,
  departmentHealthSchema,
  departmentReaderDataSchema,
  departmentReaderEditListsSchema,
  departmentReviewerDataSchema,
  departmentReviewerManagementSchema,
  departmentRolesSchema,
  departmentUsersAddSchema,
  departmentUsersBodySchema,
  documentAttestationsSchema,
  editAssignmentDataSchema,
  type PolicySection,
  readerEditDataSchema,
  reviewerEditDataSchema,
} from '@portal/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorAnswers } from '../../lib/error-answers.js';
import { pathId, projectParams } from '../../lib/path-id.js';
import { requireUser } from '../../plugins/session.js';
import { access } from '../../policies/access.js';
import { policyAccess } from '../../policies/policy-management.js';
import { queueNotices } from '../notifications/notices.js';
import {
  departmentAttestations,
  departmentAttestationsCsv,
  documentAttestations,
  documentAttestationsCsv,
} from './attestations.service.js';
import {
  assignmentData,
  candidates,
  changeDepartmentRoles,
  departmentHealth,
  editAssignmentData,
  type RoleChange,
  readerData,
  readerEditData,
  readerEditLists,
  reviewerData,
  reviewerEditData,
  reviewerManagement,
} from './department-roles.service.js';

const P = '/api/projects/:projectId/policy-management';
const errors = errorAnswers(400, 401, 403, 404, 409);
const tags = ['policy departments'];
const departmentParams = projectParams.extend({ departmentId: pathId('department') });
const documentParams = projectParams.extend({ documentId: pathId('policy') });

const SIGNERS = 'department-signers' satisfies PolicySection;
const READERS = 'department-readers' satisfies PolicySection;
const REVIEWERS = 'department-reviewers' satisfies PolicySection;
const REPORTS = 'attestation-reports' satisfies PolicySection;

/**
 * Department reviewers, signers and readers, department health and attestation reports (issue 7; decision record
 * 007; docs/policies.md lists every call). Each change answers the department with its three lists and notifies the
 * people an open round now waits for once it has committed.
 */
export const departmentRoleRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const actor = (request: FastifyRequest & { params: { projectId: number } }, section: PolicySection) =>
    policyAccess(db, requireUser(request), request, request.params.projectId, section);

  // ---------------------------------------------------------------- lists

  const lists = [
    [
      'department-assignment-data',
      SIGNERS,
      departmentAssignmentDataSchema,
      'Every department with its reviewers, signers and readers',
      assignmentData,
    ],
    [
      'department-edit-lists',
      SIGNERS,
      departmentEditListsSchema,
      'Who may be a reviewer, signer or reader',
      candidates,
    ],
    [
      'department-reader-data',
      READERS,
      departmentReaderDataSchema,
      "Each department's readers and how far they have read",
      readerData,
    ],
    [
      'department-reader-edit-lists',
      READERS,
      departmentReaderEditListsSchema,
      'Who may read (every policy user with a main role)',
      readerEditLists,
    ],
    [
      'department-reviewer-data',
      REVIEWERS,
      departmentReviewerDataSchema,
      "Each department's reviewers and its policies in review",
      reviewerData,
    ],
    [
      'department-reviewer-management-data',
      REVIEWERS,
      departmentReviewerManagementSchema,
      'Each reviewer with their departments and open reviews; who may review but does not',
      reviewerManagement,
    ],
  ] as const;
  for (const [path, section, schema, summary, load] of lists) {
    app.get(
      `${P}/${path}`,
      {
        config: { access: access.section('policy_management', section) },
        schema: { tags, summary, params: projectParams, response: { 200: schema, ...errors } },
      },
      async (request) => {
        const a = await actor(request, section);
        return load(db, a.projectId);
      },
    );
  }

  const departmentLists = [
    [
      'edit-assignment-data',
      SIGNERS,
      editAssignmentDataSchema,
      "A department's three lists and the candidates",
      editAssignmentData,
    ],
    ['reader-edit-data', READERS, readerEditDataSchema, "A department's readers and who may read", readerEditData],
    [
      'reviewer-edit-data',
      REVIEWERS,
      reviewerEditDataSchema,
      "A department's reviewers and who may review",
      reviewerEditData,
    ],
  ] as const;
  for (const [path, section, schema, summary, load] of departmentLists) {
    app.get(
      `${P}/departments/:departmentId/${path}`,
      {
        config: { access: access.section('policy_management', section) },
        schema: { tags, summary, params: departmentParams, response: { 200: schema, ...errors } },
      },
      async (request) => {
        const a = await actor(request, section);
        return load(db, a.projectId, request.params.departmentId);
      },
    );
  }

  // ---------------------------------------------------------------- changes

  /** Runs a change of a department's people with its notices queued in its transaction, answers the department. */
  const change = async (
    request: FastifyRequest & { params: { projectId: number; departmentId: number } },
    section: PolicySection,
    roleChange: RoleChange,
  ) => {
    const a = await actor(request, section);
    const now = app.clock.now();
    return db.transaction(async (tx) => {
      const { department, notices } = await changeDepartmentRoles(tx, a, request.params.departmentId, roleChange, now);
      await queueNotices(tx, app.mailer, a.projectId, notices, now);
      return department;
    });
  };
  const response = { 200: departmentRolesSchema, ...errors };
  const changeSchema = <B extends z.ZodType>(section: PolicySection, summary: string, body: B) => ({
    config: { access: access.section('policy_management', section) },
    schema: { tags, summary, params: departmentParams, body, response },
  });

  app.post(
    `${P}/departments/:departmentId/assign-roles`,
    changeSchema(SIGNERS, 'Replaces each list given: reviewer_ids, signer_ids, reader_ids', assignRolesBodySchema),
    async (request) => {
      const { reviewer_ids, signer_ids, reader_ids } = request.body;
      return change(request, SIGNERS, {
        lists: { reviewer: reviewer_ids, signer: signer_ids, reader: reader_ids },
        fields: { reviewer: 'reviewer_ids', signer: 'signer_ids', reader: 'reader_ids' },
      });
    },
  );

  app.post(
    `${P}/departments/:departmentId/assign-readers`,
    changeSchema(READERS, "Replaces the department's readers", departmentUsersBodySchema),
    async (request) => {
      const { user_ids } = request.body;
      return change(request, READERS, { lists: { reader: user_ids }, fields: { reader: 'user_ids' } });
    },
  );

  app.post(
    `${P}/departments/:departmentId/assign-reviewers`,
    changeSchema(REVIEWERS, 'Adds reviewers to the department', departmentUsersAddSchema),
    async (request) => {
      const { user_ids } = request.body;
      return change(request, REVIEWERS, { lists: { reviewer: user_ids }, fields: { reviewer: 'user_ids' }, add: true });
    },
  );

  app.post(
    `${P}/departments/:departmentId/update-reviewers`,
    changeSchema(REVIEWERS, "Replaces the department's reviewers", departmentUsersBodySchema),
    async (request) => {
      const { user_ids } = request.body;
      return change(request, REVIEWERS, { lists: { reviewer: user_ids }, fields: { reviewer: 'user_ids' } });
    },
  );

  for (const [path, section, summary, roleChange] of [
    [
      'clear-assignments',
      SIGNERS,
      'Empties the reviewers, signers and readers',
      { lists: { reviewer: [], signer: [], reader: [] }, fields: {} },
    ],
    ['clear-readers', READERS, 'Empties the readers', { lists: { reader: [] }, fields: {} }],
    ['remove-all-reviewers', REVIEWERS, 'Empties the reviewers', { lists: { reviewer: [] }, fields: {} }],
  ] as const satisfies readonly (readonly [string, string, string, RoleChange])[]) {
    app.delete(
      `${P}/departments/:departmentId/${path}`,
      {
        config: { access: access.section('policy_management', section) },
        schema: { tags, summary, params: departmentParams, response },
      },
      async (request) => change(request, section, roleChange),
    );
  }

  // ---------------------------------------------------------------- health and reports

  app.get(
    `${P}/healthy-departments`,
    {
      config: { access: access.section('policy_management', 'healthy-departments') },
      schema: {
        tags,
        summary: 'Is each department ready to run the workflow: its people, reviews due and reading',
        params: projectParams,
        response: { 200: departmentHealthSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'healthy-departments');
      return departmentHealth(db, a.projectId, app.clock.now());
    },
  );

  const csv = (reply: FastifyReply, file: { body: string; fileName: string }) =>
    reply
      .header('Content-Type', 'text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="${file.fileName}"`)
      .send(file.body);

  app.get(
    `${P}/documents/:documentId/attestations`,
    {
      config: { access: access.section('policy_management', 'attestation-reports') },
      schema: {
        tags,
        summary: "Who of the department's readers attested the current version",
        params: documentParams,
        response: { 200: documentAttestationsSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, REPORTS);
      return documentAttestations(db, a, request.params.documentId);
    },
  );

  app.get(
    `${P}/documents/:documentId/attestations.csv`,
    {
      config: { access: access.section('policy_management', 'attestation-reports') },
      schema: {
        tags,
        summary: 'The attestations of the current version as CSV (one row per reader)',
        params: documentParams,
        response: { 200: z.string(), ...errors },
      },
    },
    async (request, reply) => {
      const a = await actor(request, REPORTS);
      return csv(reply, await documentAttestationsCsv(db, a, request.params.documentId));
    },
  );

  app.get(
    `${P}/departments/:departmentId/attestations`,
    {
      config: { access: access.section('policy_management', 'attestation-reports') },
      schema: {
        tags,
        summary: "Attestations of a department's published policies by its readers",
        params: departmentParams,
        response: { 200: departmentAttestationsSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, REPORTS);
      return departmentAttestations(db, a.projectId, request.params.departmentId);
    },
  );

  app.get(
    `${P}/departments/:departmentId/attestations.csv`,
    {
      config: { access: access.section('policy_management', 'attestation-reports') },
      schema: {
        tags,
        summary: 'The department attestations as CSV (one row per policy and reader)',
        params: departmentParams,
        response: { 200: z.string(), ...errors },
      },
    },
    async (request, reply) => {
      const a = await actor(request, REPORTS);
      return csv(reply, await departmentAttestationsCsv(db, a.projectId, request.params.departmentId, app.clock.now()));
    },
  );
};
