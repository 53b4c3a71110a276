import swagger from '@fastify/swagger';
import scalar from '@scalar/fastify-api-reference';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/** OpenAPI generated from the routes' zod schemas, browsable at /api/docs (JSON at /api/docs/openapi.json). */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Healthcare Quality Portal API',
        description:
          'Every call uses the session cookie; state-changing calls also send the X-XSRF-TOKEN header. ' +
          'Errors answer { message, code, errors? }.',
        version: '0.1.0',
      },
      tags: [
        { name: 'system', description: 'Health and readiness' },
        { name: 'public', description: 'Calls that need no sign-in' },
        { name: 'auth', description: 'Sign-in, sign-out, password reset' },
        { name: 'two-factor', description: 'Authenticator app and recovery codes' },
        { name: 'account', description: 'My sessions and password confirmation' },
        { name: 'projects', description: 'Projects (facilities)' },
        { name: 'permissions', description: 'Roles, permission rules and the monitoring audit' },
        { name: 'notifications', description: 'Notifications and their live stream' },
        { name: 'contact', description: 'Contact Us messages to project administrators' },
      ],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(async (docs) => {
    // The reference page runs an inline bootstrap script: only this scope gets a CSP that allows it.
    docs.addHook('onSend', async (_request, reply) => {
      reply.header(
        'content-security-policy',
        "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; object-src 'none'",
      );
    });
    await docs.register(scalar, {
      routePrefix: '/api/docs',
      // Self-hosted and often offline: none of Scalar's cloud features (AI agent, MCP, deploy toolbar).
      configuration: {
        title: 'Healthcare Quality Portal API',
        withDefaultFonts: false,
        showDeveloperTools: 'never',
        agent: { disabled: true },
        mcp: { disabled: true },
      },
    });
  });
}
