import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pathId, projectParams } from '../../lib/path-id.js';
import { access } from '../../policies/access.js';
import { binderPdf, gapReportPdf } from './binder.service.js';
import type { PdfFile } from './binder-data.js';
import { actorFor, errors, P, tags } from './route-kit.js';

/**
 * The survey binder and the gap report as PDF downloads (issue 11; docs/standards.md "Survey binder and gap report
 * (PDF)"). Any standards role may take them, like every standards read. The document is read, drawn and audited
 * before the first byte is sent, so a failure answers JSON.
 */
export const standardsBinderRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const actor = actorFor(db);
  const now = () => app.clock.now();
  const assessmentParams = projectParams.extend({ id: pathId('assessment') });
  const paper = z.enum(['letter', 'a4']).default('letter');
  const pdfHeaders = (file: PdfFile) => ({
    'content-type': 'application/pdf',
    'content-disposition': `attachment; filename="${file.filename}"`,
    'cache-control': 'private, no-store',
    'x-content-type-options': 'nosniff',
  });

  app.get(
    `${P}/assessments/:id/binder.pdf`,
    {
      config: { access: access.standards('allow') },
      schema: {
        tags,
        summary:
          'The survey binder of a chapter, condition, standard or element: wording, assessment, findings, linked policies with their trail and text, measures with charts, audits (at most 500 elements); audited',
        params: assessmentParams,
        querystring: z.object({ node: pathId('node'), paper }),
        // 200 is application/pdf.
        response: errors,
      },
    },
    async (request, reply) => {
      const file = await binderPdf(db, await actor(request), request.params.id, request.query.node, now(), {
        paper: request.query.paper,
      });
      return reply.headers(pdfHeaders(file)).send(file.stream as never);
    },
  );

  app.get(
    `${P}/assessments/:id/gap-report.pdf`,
    {
      config: { access: access.standards('allow') },
      schema: {
        tags,
        summary: 'Every applicable element short of compliant, as a landscape PDF table with a summary; audited',
        params: assessmentParams,
        querystring: z.object({ paper }),
        // 200 is application/pdf.
        response: errors,
      },
    },
    async (request, reply) => {
      const file = await gapReportPdf(db, await actor(request), request.params.id, now(), {
        paper: request.query.paper,
      });
      return reply.headers(pdfHeaders(file)).send(file.stream as never);
    },
  );
};
