import { sourceTextSchema } from '@portal/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorAnswers } from '../../lib/error-answers.js';
import { pathId, projectParams } from '../../lib/path-id.js';
import { requireUser } from '../../plugins/session.js';
import { access } from '../../policies/access.js';
import { policyAccess } from '../../policies/policy-management.js';
import { sourceTextOf } from './file-text.service.js';

const P = '/api/projects/:projectId/policy-management';
const versionParams = projectParams.extend({ documentId: pathId('policy'), versionId: pathId('version') });

/** The text read from a version's source PDF (issue 28; docs/policies.md "Text of uploaded PDFs"). */
export const fileTextRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;

  app.get(
    `${P}/documents/:documentId/versions/:versionId/source-text`,
    {
      config: { access: access.section('policy_management', 'documents') },
      schema: {
        tags: ['policy management'],
        summary: "What was read of a version's PDF: state, progress and text",
        params: versionParams,
        response: { 200: sourceTextSchema, ...errorAnswers(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId, documentId, versionId } = request.params;
      const actor = await policyAccess(db, requireUser(request), request, projectId, 'documents');
      return sourceTextOf(db, actor, documentId, versionId);
    },
  );
};
