import multipart from '@fastify/multipart';
import {
  errorBodySchema,
  STD_EVIDENCE_LIMITS,
  stdElementSchema,
  stdEvidenceFileFieldsSchema,
  stdEvidenceInputSchema,
  stdEvidenceUpdateSchema,
} from '@portal/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, validationFailed } from '../../lib/errors.js';
import { pathId, projectParams } from '../../lib/path-id.js';
import { fileBytes, firstFilePart } from '../../lib/uploads.js';
import { access } from '../../policies/access.js';
import { getElement } from './elements.service.js';
import {
  addEvidence,
  addFileEvidence,
  attachmentHeader,
  checkMayAddEvidence,
  evidenceFile,
  removeEvidence,
  updateEvidence,
} from './evidence.service.js';
import { actorFor, P, errors as standardsErrors, tags } from './route-kit.js';

const errors = { ...standardsErrors, 413: errorBodySchema };
const MAX_MB = STD_EVIDENCE_LIMITS.fileBytes / 1024 / 1024;
const TOO_LARGE = `The file is larger than ${MAX_MB} MB. Compress it or split it.`;
const SEND_FILE = 'Send the file as multipart/form-data in the field "file".';

/**
 * Evidence on standard elements (issue 11, part 2; docs/standards.md "Evidence"): links and notes as JSON, files as
 * multipart (fields first, then the file; at most 10 MB; the kind is read from the bytes), changes and removal, and
 * the file's download as an attachment.
 */
export const standardsEvidenceRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  await app.register(multipart, {
    limits: { fileSize: STD_EVIDENCE_LIMITS.fileBytes, files: 1, fields: 10, fieldSize: 20_000, parts: 11 },
  });
  const actor = actorFor(db);
  const now = () => app.clock.now();
  const elementParams = projectParams.extend({ id: pathId('element') });
  const evidenceParams = projectParams.extend({ id: pathId('evidence') });

  app.post(
    `${P}/req-assessments/:id/evidence`,
    {
      config: { access: access.standards(403) },
      schema: {
        tags,
        summary: 'Adds a link or a note as evidence of an element (in review unless an editor says otherwise)',
        params: elementParams,
        body: stdEvidenceInputSchema,
        response: { 201: stdElementSchema, ...errors },
      },
    },
    async (request, reply) => {
      const me = await actor(request);
      await addEvidence(db, me, request.params.id, request.body, now());
      return reply.status(201).send(await getElement(db, me, request.params.id, now()));
    },
  );

  app.post(
    `${P}/req-assessments/:id/evidence/file`,
    {
      config: { access: access.standards('record') },
      schema: {
        tags,
        summary:
          'Uploads a file as evidence (multipart: title, note, status, expires_on, then file; PDF, Word, Excel, images, CSV, text; at most 10 MB)',
        params: elementParams,
        response: { 201: stdElementSchema, ...errors },
      },
    },
    async (request, reply) => {
      const me = await actor(request);
      // Refused before the bytes are read.
      await checkMayAddEvidence(db, me, request.params.id);
      const upload = await readUpload(request);
      const fields = stdEvidenceFileFieldsSchema.safeParse(upload.fields);
      if (!fields.success) throw validationFailed(fields.error.issues);
      await addFileEvidence(db, me, request.params.id, fields.data, upload, now());
      return reply.status(201).send(await getElement(db, me, request.params.id, now()));
    },
  );

  app.put(
    `${P}/evidence/:id`,
    {
      config: { access: access.standards(403) },
      schema: {
        tags,
        summary: "Changes evidence's title, note, status or expiry (approving and rejecting: the element's editors)",
        params: evidenceParams,
        body: stdEvidenceUpdateSchema,
        response: { 200: stdElementSchema, ...errors },
      },
    },
    async (request) => {
      const me = await actor(request);
      return getElement(db, me, await updateEvidence(db, me, request.params.id, request.body, now()), now());
    },
  );

  app.delete(
    `${P}/evidence/:id`,
    {
      config: { access: access.standards('record') },
      schema: {
        tags,
        summary: 'Removes evidence (and its file)',
        params: evidenceParams,
        response: { 204: z.undefined(), ...errors },
      },
    },
    async (request, reply) => {
      await removeEvidence(db, await actor(request), request.params.id, now());
      return reply.status(204).send();
    },
  );

  app.get(
    `${P}/evidence/:id/file`,
    {
      config: { access: access.standards('allow') },
      schema: {
        tags,
        summary: 'Downloads the file of file evidence (an attachment, never shown inline)',
        params: evidenceParams,
        // 200 is the file itself.
        response: errors,
      },
    },
    async (request, reply) => {
      const file = await evidenceFile(db, await actor(request), request.params.id);
      return reply
        .header('content-type', file.contentType)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .header('content-disposition', attachmentHeader(file.name))
        .header('content-security-policy', "default-src 'none'; sandbox")
        .send(file.data as never);
    },
  );
};

/** The one file of a multipart request, with the fields sent before it (empty fields left out). */
async function readUpload(request: FastifyRequest) {
  if (!request.isMultipart()) throw new AppError('VALIDATION_FAILED', SEND_FILE, { file: ['Choose a file.'] });
  const part = await firstFilePart(request);
  if (!part) throw new AppError('VALIDATION_FAILED', 'Choose a file.', { file: ['Choose a file.'] });
  const data = await fileBytes(part, TOO_LARGE);
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(part.fields)) {
    const field = Array.isArray(value) ? value[0] : value;
    if (field && field.type === 'field' && typeof field.value === 'string' && field.value.trim() !== '')
      fields[name] = field.value;
  }
  return { data, fileName: part.filename ?? '', fields };
}
