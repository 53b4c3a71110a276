import multipart from '@fastify/multipart';
import {
  errorBodySchema,
  MAX_PAGE_LEVELS,
  numberingModeBodySchema,
  numberingResultSchema,
  numberingSettingsSchema,
  OUTLINE_MAX_BYTES,
  outlineCreatedSchema,
  outlinePreviewSchema,
  outlineQuerySchema,
  pageBulkSchema,
  pageLevelBodySchema,
  pageLevelDeletedSchema,
  pageLevelListSchema,
  pageLevelSchema,
  pageMoveSchema,
  pageTreeSchema,
  renumberPreviewSchema,
} from '@portal/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/errors.js';
import { pathId, projectParams } from '../../lib/path-id.js';
import { access } from '../../policies/access.js';
import { listPages } from './pages.service.js';
import { actorFor, errors, P, tags } from './route-kit.js';
import {
  addLevel,
  applyNumbers,
  bulkUpdate,
  createOutline,
  deleteLevel,
  listLevels,
  movePage,
  numberingSettings,
  previewNumbers,
  previewOutline,
  setNumberingMode,
  updateLevel,
} from './structure.service.js';

const levelParams = projectParams.extend({ levelId: pathId('level') });
const pageParams = projectParams.extend({ pageId: pathId('page') });

/**
 * The structure of the page tree (issue 8; docs/monitoring.md "Tree structure"): levels, numbering, moves, the bulk
 * grid and outline import. Each call names its permission-engine section; monitoringAccess answers 401/404/403
 * before anything is read.
 */
export const monitoringStructureRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  await app.register(multipart, {
    limits: { fileSize: OUTLINE_MAX_BYTES, files: 1, fields: 5, fieldSize: 100, parts: 6 },
  });
  const actor = actorFor(db);

  // ------------------------------------------------------------ levels

  app.get(
    `${P}/page-levels`,
    {
      config: { access: access.section('monitoring', 'pages') },
      schema: {
        tags,
        summary: 'The levels of the page tree (section page-levels, or pages to name levels in the tree)',
        params: projectParams,
        response: { 200: pageLevelListSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'page-levels').catch((error: unknown) => {
        if (error instanceof AppError && error.code === 'FORBIDDEN') return actor(request, 'pages');
        throw error;
      });
      return { levels: await listLevels(db, a), max_levels: MAX_PAGE_LEVELS };
    },
  );

  app.post(
    `${P}/page-levels`,
    {
      config: { access: access.section('monitoring', 'page-levels') },
      schema: {
        tags,
        summary: 'Adds the next (deepest) level',
        params: projectParams,
        body: pageLevelBodySchema,
        response: { 201: pageLevelSchema, ...errors },
      },
    },
    async (request, reply) => {
      const a = await actor(request, 'page-levels');
      const id = await addLevel(db, a, request.body, app.clock.now());
      const level = (await listLevels(db, a)).find((row) => row.id === id)!;
      return reply.status(201).send(level);
    },
  );

  app.put(
    `${P}/page-levels/:levelId`,
    {
      config: { access: access.section('monitoring', 'page-levels') },
      schema: {
        tags,
        summary: "Changes a level's name, icon and whether its pages may hold measures",
        params: levelParams,
        body: pageLevelBodySchema,
        response: { 200: pageLevelSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'page-levels');
      await updateLevel(db, a, request.params.levelId, request.body, app.clock.now());
      return (await listLevels(db, a)).find((row) => row.id === request.params.levelId)!;
    },
  );

  app.delete(
    `${P}/page-levels/:levelId`,
    {
      config: { access: access.section('monitoring', 'page-levels') },
      schema: {
        tags,
        summary: 'Deletes the deepest level while no page is that deep',
        params: levelParams,
        response: { 200: pageLevelDeletedSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'page-levels');
      await deleteLevel(db, a, request.params.levelId, app.clock.now());
      return { deleted: request.params.levelId };
    },
  );

  // ------------------------------------------------------------ numbering

  app.get(
    `${P}/numbering`,
    {
      config: { access: access.section('monitoring', 'numbering') },
      schema: {
        tags,
        summary: 'The numbering mode (auto or manual) and how many pages there are',
        params: projectParams,
        response: { 200: numberingSettingsSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'numbering');
      return numberingSettings(db, a.projectId);
    },
  );

  app.post(
    `${P}/numbering`,
    {
      config: { access: access.section('monitoring', 'numbering') },
      schema: {
        tags,
        summary: 'Switches the numbering mode; to auto renumbers the whole tree',
        params: projectParams,
        body: numberingModeBodySchema,
        response: { 200: numberingResultSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'numbering');
      return setNumberingMode(db, a, request.body.mode, app.clock.now());
    },
  );

  app.get(
    `${P}/numbering/preview`,
    {
      config: { access: access.section('monitoring', 'page-numbering') },
      schema: {
        tags,
        summary: 'What numbering from the tree would change (nothing is written)',
        params: projectParams,
        response: { 200: renumberPreviewSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'page-numbering');
      return previewNumbers(db, a);
    },
  );

  app.post(
    `${P}/numbering/apply`,
    {
      config: { access: access.section('monitoring', 'page-numbering') },
      schema: {
        tags,
        summary: 'Numbers every page from the tree now',
        params: projectParams,
        response: { 200: numberingResultSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'page-numbering');
      return applyNumbers(db, a, app.clock.now());
    },
  );

  // ------------------------------------------------------------ moves and the grid

  app.post(
    `${P}/pages/:pageId/move`,
    {
      config: { access: access.section('monitoring', 'drag-and-drop') },
      schema: {
        tags,
        summary: 'Moves a page (with its sub-pages) under another parent or to another place among its siblings',
        params: pageParams,
        body: pageMoveSchema,
        response: { 200: pageTreeSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'drag-and-drop');
      await movePage(db, a, request.params.pageId, request.body, app.clock.now());
      return listPages(db, a);
    },
  );

  app.post(
    `${P}/pages/bulk`,
    {
      config: { access: access.section('monitoring', 'update-page-list-tables') },
      schema: {
        tags,
        summary: 'Changes many pages at once: all rows or none',
        params: projectParams,
        body: pageBulkSchema,
        response: { 200: pageTreeSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'update-page-list-tables');
      await bulkUpdate(db, a, request.body.rows, app.clock.now());
      return listPages(db, a);
    },
  );

  // ------------------------------------------------------------ outline import

  /** The file and the parent_id field of a multipart request, in any order. */
  async function readOutlineUpload(request: FastifyRequest) {
    if (!request.isMultipart()) {
      throw new AppError('VALIDATION_FAILED', 'Send the file as multipart/form-data in the field "file".', {
        file: ['Choose a file.'],
      });
    }
    let data: Buffer | null = null;
    let fileName = '';
    let parent: string | null = null;
    try {
      for await (const part of request.parts()) {
        if (part.type === 'file') {
          data = await part.toBuffer();
          fileName = part.filename ?? '';
        } else if (part.fieldname === 'parent_id' && typeof part.value === 'string') {
          parent = part.value.trim() || null;
        }
      }
    } catch (error) {
      if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
        const message = `The file is larger than ${OUTLINE_MAX_BYTES / 1024 / 1024} MB.`;
        throw new AppError('PAYLOAD_TOO_LARGE', message, { file: [message] });
      }
      throw error;
    }
    if (!data) throw new AppError('VALIDATION_FAILED', 'Choose a file.', { file: ['Choose a file.'] });
    if (data.length === 0)
      throw new AppError('VALIDATION_FAILED', 'The file is empty.', { file: ['The file is empty.'] });
    if (parent !== null && !/^\d{1,10}$/.test(parent)) {
      throw new AppError('VALIDATION_FAILED', 'Choose a page you may edit.', {
        parent_id: ['Choose a page you may edit.'],
      });
    }
    return { data, fileName, parentId: parent === null ? null : Number(parent) };
  }

  app.post(
    `${P}/pages/convert`,
    {
      config: { access: access.section('monitoring', 'create-page') },
      schema: {
        tags,
        summary: 'Imports a Word (.docx) or text outline as draft pages (?preview=true only reads it)',
        params: projectParams,
        querystring: outlineQuerySchema,
        response: { 200: outlinePreviewSchema, 201: outlineCreatedSchema, 413: errorBodySchema, ...errors },
      },
    },
    async (request, reply) => {
      const a = await actor(request, 'create-page');
      const upload = await readOutlineUpload(request);
      if (request.query.preview === 'true') {
        return reply.status(200).send({ pages: await previewOutline(db, a, upload.data, upload.parentId) });
      }
      const created = await createOutline(db, a, upload.data, upload.parentId, upload.fileName, app.clock.now());
      return reply.status(201).send({ created });
    },
  );
};
