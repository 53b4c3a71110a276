import { policyLinkParamsSchema, policyLinkSchema, qrSheetQuerySchema } from '@portal/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorAnswers } from '../../lib/error-answers.js';
import { projectParams } from '../../lib/path-id.js';
import { requireUser } from '../../plugins/session.js';
import { access } from '../../policies/access.js';
import { policyAccess } from '../../policies/policy-management.js';
import { resolvePolicyLink } from './policy-links.service.js';
import { qrCodeSvg, qrSheetPdf } from './qr-sheet.pdf.js';

const tags = ['policy management'];

/**
 * Stable links and their QR codes (issue 28, docs/policies.md "Stable links, QR codes and cross-references").
 * The link answer is open to anyone, signed in or not: what it tells depends on who asks (policy-links.service.ts),
 * and it tells nothing about a project before a visitor outside its guest networks signs in.
 */
export const policyLinkRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;

  app.get(
    '/api/policy-links/:projectId/:number',
    {
      config: { access: access.public },
      schema: {
        tags,
        summary: "Where a policy's stable link leads the caller (its current version, sign-in, or its retirement)",
        params: policyLinkParamsSchema,
        response: { 200: policyLinkSchema, ...errorAnswers(400, 404) },
      },
    },
    async (request, reply) => {
      const answer = await resolvePolicyLink(
        db,
        {
          user: request.user,
          ip: request.ip,
          requestId: request.id,
          userAgent: request.headers['user-agent'] ?? '',
        },
        request.params.projectId,
        request.params.number,
        app.clock.now(),
      );
      // Who asks changes the answer: never kept by a shared cache.
      return reply.header('cache-control', 'private, no-store').send(answer);
    },
  );

  app.get(
    '/api/projects/:projectId/policy-management/qr-sheet',
    {
      config: { access: access.section('policy_management', 'documents') },
      schema: {
        tags,
        summary: "A printable sheet of QR codes of policies' stable links (one policy or a department); audited",
        params: projectParams,
        querystring: qrSheetQuerySchema,
        // 200 is application/pdf, or image/svg+xml for format=svg.
        response: errorAnswers(400, 401, 403, 404),
      },
    },
    async (request, reply) => {
      const actor = await policyAccess(db, requireUser(request), request, request.params.projectId, 'documents');
      const options = { appUrl: app.config.APP_URL, now: app.clock.now() };
      reply.headers({ 'cache-control': 'private, no-store', 'x-content-type-options': 'nosniff' });
      if (request.query.format === 'svg') {
        const file = await qrCodeSvg(db, actor, request.query, options);
        return reply
          .headers({
            'content-type': 'image/svg+xml',
            'content-disposition': `attachment; filename="${file.filename}"`,
          })
          .send(file.svg as never);
      }
      const file = await qrSheetPdf(db, actor, request.query, options);
      return reply
        .headers({ 'content-type': 'application/pdf', 'content-disposition': `inline; filename="${file.filename}"` })
        .send(file.stream as never);
    },
  );
};
