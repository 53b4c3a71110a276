import multipart from '@fastify/multipart';
import {
  archiveInputSchema,
  archiveSchema,
  compareQuerySchema,
  compareSchema,
  convertResultSchema,
  departmentInputSchema,
  departmentListSchema,
  departmentPatchSchema,
  departmentSchema,
  documentCreateSchema,
  documentDetailSchema,
  documentListQuerySchema,
  documentListSchema,
  documentPatchSchema,
  draftSavedSchema,
  draftSaveSchema,
  moveResultSchema,
  moveSchema,
  numberingSchema,
  numberingUpdateSchema,
  POLICY_UPLOAD_MAX_BYTES,
  type PolicySection,
  restoreResultSchema,
  searchQuerySchema,
  searchResultSchema,
  uploadFieldsSchema,
  usedNumbersSchema,
  versionSchema,
} from '@portal/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { builtFieldByField } from '../../lib/built-json.js';
import { errorAnswers } from '../../lib/error-answers.js';
import { AppError, validationFailed } from '../../lib/errors.js';
import { pathId, projectParams } from '../../lib/path-id.js';
import { fileBytes } from '../../lib/uploads.js';
import { requireUser } from '../../plugins/session.js';
import { access } from '../../policies/access.js';
import { ARCHIVE_DOCUMENTS, EDIT_DOCUMENTS, policyAccess } from '../../policies/policy-management.js';
import { createDepartment, deleteDepartment, listDepartments, updateDepartment } from './departments.service.js';
import {
  archiveDocument,
  compareVersions,
  createDocument,
  listArchive,
  listDocuments,
  loadDetail,
  loadVersion,
  newVersion,
  policyFileOf,
  restoreDocument,
  restoreVersion,
  saveDraft,
  updateDocument,
} from './documents.service.js';
import { convertUpload, uploadDocument } from './import.service.js';
import { moveDocument, numberingOverview, updateNumbering, usedNumbers } from './numbering.service.js';
import { searchDocuments } from './search.service.js';

const P = '/api/projects/:projectId/policy-management';
const errors = errorAnswers(400, 401, 403, 404, 409);
const documentParams = projectParams.extend({ documentId: pathId('policy') });
const versionParams = documentParams.extend({ versionId: pathId('version') });
const departmentParams = projectParams.extend({ departmentId: pathId('department') });
const fileParams = projectParams.extend({ fileId: pathId('file') });
const IDEMPOTENCY_KEY = /^[A-Za-z0-9_-]{8,100}$/;
const tags = ['policy management'];

/**
 * Policy management, part 1 (SPEC section 7 "Policy management"; docs/policies.md lists every call). Each call
 * names the permission-engine section it belongs to; policyAccess answers 401/404/403 before anything is read.
 */
export const policyRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  await app.register(multipart, {
    limits: { fileSize: POLICY_UPLOAD_MAX_BYTES, files: 1, fields: 10, fieldSize: 1000, parts: 12 },
  });

  const actor = (request: FastifyRequest & { params: { projectId: number } }, section: PolicySection) =>
    policyAccess(db, requireUser(request), request, request.params.projectId, section);

  // ------------------------------------------------------------ departments

  app.get(
    `${P}/departments`,
    {
      config: { access: access.section('policy_management', 'documents') },
      schema: {
        tags,
        summary: 'Departments of the project',
        params: projectParams,
        response: { 200: departmentListSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'documents');
      return { departments: await listDepartments(db, a.projectId) };
    },
  );

  app.post(
    `${P}/departments`,
    {
      config: { access: access.section('policy_management', 'insert-department') },
      schema: {
        tags,
        summary: 'Adds a department',
        params: projectParams,
        body: departmentInputSchema,
        response: { 201: departmentSchema, ...errors },
      },
    },
    async (request, reply) => {
      const a = await actor(request, 'insert-department');
      return reply.status(201).send(await createDepartment(db, a, request.body, app.clock.now()));
    },
  );

  app.patch(
    `${P}/departments/:departmentId`,
    {
      config: { access: access.section('policy_management', 'edit-department') },
      schema: {
        tags,
        summary: 'Changes a department',
        params: departmentParams,
        body: departmentPatchSchema,
        response: { 200: departmentSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'edit-department');
      return updateDepartment(db, a, request.params.departmentId, request.body, app.clock.now());
    },
  );

  app.delete(
    `${P}/departments/:departmentId`,
    {
      config: { access: access.section('policy_management', 'edit-department') },
      schema: {
        tags,
        summary: 'Deletes an empty department',
        params: departmentParams,
        response: { 204: z.undefined(), ...errors },
      },
    },
    async (request, reply) => {
      const a = await actor(request, 'edit-department');
      await deleteDepartment(db, a, request.params.departmentId, app.clock.now());
      return reply.status(204).send();
    },
  );

  // ------------------------------------------------------------ numbering

  app.get(
    `${P}/numbering`,
    {
      config: { access: access.section('policy_management', 'documents') },
      schema: {
        tags,
        summary: 'The numbering scheme and counts',
        params: projectParams,
        response: { 200: numberingSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'documents');
      return numberingOverview(db, a.projectId);
    },
  );

  app.post(
    `${P}/numbering`,
    {
      config: { access: access.section('policy_management', 'numbering') },
      schema: {
        tags,
        summary: 'Saves the scheme and/or assigns numbers',
        params: projectParams,
        body: numberingUpdateSchema,
        response: { 200: numberingSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'numbering');
      return updateNumbering(db, a, request.body, app.clock.now());
    },
  );

  app.get(
    `${P}/documents/used-numbers`,
    {
      config: { access: access.section('policy_management', 'documents') },
      schema: {
        tags,
        summary: 'Numbers in use',
        params: projectParams,
        response: { 200: usedNumbersSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'documents');
      return usedNumbers(db, a.projectId);
    },
  );

  app.get(
    `${P}/documents/unassigned`,
    {
      config: { access: access.section('policy_management', 'numbering') },
      schema: {
        tags,
        summary: 'Documents without a number',
        params: projectParams,
        response: { 200: documentListSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'numbering');
      return (await listDocuments(db, a, {})).filter((d) => d.number === null);
    },
  );

  app.post(
    `${P}/documents/move`,
    {
      config: { access: access.section('policy_management', 'dnd') },
      schema: {
        tags,
        summary: 'Moves a branch and renumbers (drag and drop)',
        params: projectParams,
        body: moveSchema,
        response: { 200: moveResultSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'dnd');
      return moveDocument(db, a, request.body, app.clock.now());
    },
  );

  // ------------------------------------------------------------ documents

  app.get(
    `${P}/documents`,
    {
      config: { keptAnswer: true, access: access.section('policy_management', 'documents') },
      schema: {
        tags,
        summary: 'Documents (id, number, title, ...) with filters',
        params: projectParams,
        querystring: documentListQuerySchema,
        response: { 200: documentListSchema, ...errors },
      },
      // Thousands of rows, each built field by field by listDocuments.
      serializerCompiler: builtFieldByField,
    },
    async (request) => {
      const a = await actor(request, 'documents');
      return listDocuments(db, a, request.query);
    },
  );

  app.post(
    `${P}/documents`,
    {
      config: { access: access.section('policy_management', 'edit-documents') },
      schema: {
        tags,
        summary: 'Creates a draft document',
        params: projectParams,
        body: documentCreateSchema,
        response: { 201: documentDetailSchema, ...errors },
      },
    },
    async (request, reply) => {
      const a = await actor(request, EDIT_DOCUMENTS);
      const id = await createDocument(db, a, request.body, app.clock.now());
      return reply.status(201).send(await loadDetail(db, a, id));
    },
  );

  app.get(
    `${P}/search`,
    {
      config: { access: access.section('policy_management', 'documents') },
      schema: {
        tags,
        summary: 'Searches titles, numbers and content: prefixes, synonyms, spelling guesses and filters',
        params: projectParams,
        querystring: searchQuerySchema,
        response: { 200: searchResultSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'documents');
      return searchDocuments(db, a, request.query);
    },
  );

  app.get(
    `${P}/archive`,
    {
      config: { access: access.section('policy_management', 'archive-navigator') },
      schema: {
        tags,
        summary: 'Archived documents and earlier versions',
        params: projectParams,
        response: { 200: archiveSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'archive-navigator');
      return listArchive(db, a);
    },
  );

  app.get(
    `${P}/documents/:documentId`,
    {
      config: { keptAnswer: true, access: access.section('policy_management', 'documents') },
      schema: {
        tags,
        summary: 'A document with its versions',
        params: documentParams,
        response: { 200: documentDetailSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'documents');
      return loadDetail(db, a, request.params.documentId);
    },
  );

  app.patch(
    `${P}/documents/:documentId`,
    {
      config: { access: access.section('policy_management', 'edit-documents') },
      schema: {
        tags,
        summary: 'Changes title, number, department, owner or review dates',
        params: documentParams,
        body: documentPatchSchema,
        response: { 200: documentDetailSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, EDIT_DOCUMENTS);
      await updateDocument(db, a, request.params.documentId, request.body, app.clock.now());
      return loadDetail(db, a, request.params.documentId);
    },
  );

  app.put(
    `${P}/documents/:documentId/draft`,
    {
      config: { access: access.section('policy_management', 'edit-documents') },
      schema: {
        tags,
        summary: 'Saves the working draft (autosave)',
        params: documentParams,
        body: draftSaveSchema,
        response: { 200: draftSavedSchema, ...errors },
      },
      // A long policy converted from Word is several MB of HTML; other JSON bodies stay at the 1 MB default.
      bodyLimit: 12 * 1024 * 1024,
    },
    async (request) => {
      const a = await actor(request, EDIT_DOCUMENTS);
      return saveDraft(db, a, request.params.documentId, request.body, app.clock.now());
    },
  );

  app.post(
    `${P}/documents/:documentId/new-version`,
    {
      config: { access: access.section('policy_management', 'edit-documents') },
      schema: {
        tags,
        summary: 'Starts a draft from the current version',
        params: documentParams,
        response: { 200: documentDetailSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, EDIT_DOCUMENTS);
      await newVersion(db, a, request.params.documentId, app.clock.now());
      return loadDetail(db, a, request.params.documentId);
    },
  );

  app.get(
    `${P}/documents/:documentId/versions/:versionId`,
    {
      config: { access: access.section('policy_management', 'documents') },
      schema: {
        tags,
        summary: 'One version with its content',
        params: versionParams,
        response: { 200: versionSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'documents');
      return loadVersion(db, a, request.params.documentId, request.params.versionId);
    },
  );

  app.post(
    `${P}/documents/:documentId/versions/:versionId/restore`,
    {
      config: { access: access.section('policy_management', 'edit-documents') },
      schema: {
        tags,
        summary: "An earlier version's text becomes the draft",
        params: versionParams,
        response: { 200: documentDetailSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, EDIT_DOCUMENTS);
      await restoreVersion(db, a, request.params.documentId, request.params.versionId, app.clock.now());
      return loadDetail(db, a, request.params.documentId);
    },
  );

  app.get(
    `${P}/documents/:documentId/compare`,
    {
      config: { access: access.section('policy_management', 'documents') },
      schema: {
        tags,
        summary: 'Redline between two versions',
        params: documentParams,
        querystring: compareQuerySchema,
        response: { 200: compareSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'documents');
      return compareVersions(db, a, request.params.documentId, request.query.from, request.query.to);
    },
  );

  app.post(
    `${P}/documents/:documentId/archive`,
    {
      config: { access: access.section('policy_management', 'archive-documents') },
      schema: {
        tags,
        summary: 'Archives a document, optionally naming the published policy that replaces it',
        params: documentParams,
        body: archiveInputSchema,
        response: { 200: documentDetailSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, ARCHIVE_DOCUMENTS);
      const replacedBy = request.body?.replaced_by_id ?? null;
      await archiveDocument(db, a, request.params.documentId, app.clock.now(), replacedBy);
      return loadDetail(db, a, request.params.documentId);
    },
  );

  app.post(
    `${P}/documents/:documentId/restore`,
    {
      config: { access: access.section('policy_management', 'archive-documents') },
      schema: {
        tags,
        summary: 'Restores an archived document',
        params: documentParams,
        response: { 200: restoreResultSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, ARCHIVE_DOCUMENTS);
      const message = await restoreDocument(db, a, request.params.documentId, app.clock.now());
      return { document: await loadDetail(db, a, request.params.documentId), message };
    },
  );

  // ------------------------------------------------------------ import

  /** The one file of a multipart request, with the fields sent before it. */
  async function readUpload(request: FastifyRequest) {
    if (!request.isMultipart()) {
      throw new AppError('VALIDATION_FAILED', 'Send the file as multipart/form-data in the field "file".', {
        file: ['Choose a file.'],
      });
    }
    const part = await request.file();
    if (!part) throw new AppError('VALIDATION_FAILED', 'Choose a file.', { file: ['Choose a file.'] });
    const data = await fileBytes(
      part,
      `The file is larger than ${POLICY_UPLOAD_MAX_BYTES / 1024 / 1024} MB. Split it or compress its images.`,
    );
    if (data.length === 0)
      throw new AppError('VALIDATION_FAILED', 'The file is empty.', { file: ['The file is empty.'] });
    const fields: Record<string, string> = {};
    for (const [name, value] of Object.entries(part.fields)) {
      const field = Array.isArray(value) ? value[0] : value;
      if (field && field.type === 'field' && typeof field.value === 'string' && field.value !== '')
        fields[name] = field.value;
    }
    return { data, fileName: part.filename ?? '', fields };
  }

  app.post(
    `${P}/documents/convert`,
    {
      config: { access: access.section('policy_management', 'convert') },
      schema: {
        tags,
        summary: 'Converts a .docx to HTML (preview)',
        params: projectParams,
        response: { 200: convertResultSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'convert');
      const upload = await readUpload(request);
      return convertUpload(db, a, upload.data, app.clock.now());
    },
  );

  app.post(
    `${P}/documents/upload`,
    {
      config: { access: access.section('policy_management', 'convert') },
      schema: {
        tags,
        summary: 'Uploads a .docx or .pdf as a new draft (Idempotency-Key makes retries safe)',
        params: projectParams,
        response: { 200: documentDetailSchema, 201: documentDetailSchema, ...errors },
      },
    },
    async (request, reply) => {
      const a = await actor(request, 'convert');
      const key = request.headers['idempotency-key'];
      if (key !== undefined && (typeof key !== 'string' || !IDEMPOTENCY_KEY.test(key))) {
        throw new AppError('VALIDATION_FAILED', 'The Idempotency-Key header must be 8 to 100 letters, digits, - or _.');
      }
      const upload = await readUpload(request);
      const fields = uploadFieldsSchema.safeParse(upload.fields);
      if (!fields.success) throw validationFailed(fields.error.issues);
      const result = await uploadDocument(
        db,
        a,
        {
          data: upload.data,
          fileName: upload.fileName,
          idempotencyKey: key ?? null,
          fields: fields.data,
        },
        app.clock.now(),
      );
      return reply.status(result.replayed ? 200 : 201).send(await loadDetail(db, a, result.documentId));
    },
  );

  // ------------------------------------------------------------ files

  app.get(
    `${P}/files/:fileId`,
    {
      config: { access: access.section('policy_management', 'documents') },
      schema: { tags, summary: 'An image or source file of a policy', params: fileParams },
    },
    async (request, reply) => {
      const a = await actor(request, 'documents');
      const file = await policyFileOf(db, a, request.params.fileId);
      const image = file.contentType.startsWith('image/');
      const name = (file.fileName || `file-${request.params.fileId}`).replace(/[^\w .()-]/g, '_');
      return reply
        .header('content-type', file.contentType)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, max-age=3600')
        .header('content-disposition', `${image ? 'inline' : 'attachment'}; filename="${name}"`)
        .header('content-security-policy', "default-src 'none'; sandbox")
        .send(file.data);
    },
  );
};
