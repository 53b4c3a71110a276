import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorAnswers } from '../../lib/error-answers.js';
import { pathId, projectParams } from '../../lib/path-id.js';
import { requireUser } from '../../plugins/session.js';
import { access } from '../../policies/access.js';
import { policyAccess } from '../../policies/policy-management.js';
import { printedPolicyPdf } from './policy-pdf.js';

/**
 * A policy's current version as a PDF (issue 28, docs/policies.md "Reading on a phone, printing"). Anyone who may
 * read the policy may take it; it is drawn and audited before the first byte is sent, so a failure answers JSON.
 */
export const policyPdfRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  app.get(
    '/api/projects/:projectId/policy-management/documents/:documentId/pdf',
    {
      config: { access: access.section('policy_management', 'documents') },
      schema: {
        tags: ['policy management'],
        summary: 'The current published version as a PDF with its approval and effective dates; audited',
        params: projectParams.extend({ documentId: pathId('policy') }),
        querystring: z.object({ paper: z.enum(['letter', 'a4']).default('letter') }),
        // 200 is application/pdf.
        response: errorAnswers(400, 401, 403, 404),
      },
    },
    async (request, reply) => {
      const actor = await policyAccess(db, requireUser(request), request, request.params.projectId, 'documents');
      const file = await printedPolicyPdf(db, actor, request.params.documentId, {
        paper: request.query.paper,
        appUrl: app.config.APP_URL,
        now: app.clock.now(),
      });
      return reply
        .headers({
          'content-type': 'application/pdf',
          'content-disposition': `attachment; filename="${file.filename}"`,
          'cache-control': 'private, no-store',
          'x-content-type-options': 'nosniff',
        })
        .send(file.stream as never);
    },
  );
};
