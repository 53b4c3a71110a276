import type { FastifyInstance } from 'fastify';

/**
 * Browsers and proxies keep no copy of an answer unless its route says otherwise: the API's answers carry personal
 * data (profiles, sessions, projects, notices), and a shared or back-button cache must not show them to the next
 * person. Static web assets and index.html set their own caching (plugins/web.ts) and keep it, as does any route
 * that sets Cache-Control itself (a project's logo, the public terms).
 */
export function registerNoStoreByDefault(app: FastifyInstance): void {
  app.addHook('onSend', async (_request, reply) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });
}
