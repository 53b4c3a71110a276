import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../lib/errors.js';

/**
 * Serves the built web app on the same origin. Any GET that is not an API route answers index.html, so client
 * routes survive a reload; an unknown /api/... path answers the JSON 404.
 */
export async function registerWeb(app: FastifyInstance, distDir: string | undefined): Promise<void> {
  const indexFile = distDir ? path.join(distDir, 'index.html') : undefined;
  const hasWeb = indexFile !== undefined && fs.existsSync(indexFile);
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: distDir!,
      wildcard: false,
      index: false,
      cacheControl: false,
      // The build writes file.br and file.gz beside each text asset (packages/web/vite.config.ts): sent as they are to
      // browsers that accept them, about a quarter of the bytes (bench/budgets.ts, Lighthouse).
      preCompressed: true,
      // Hashed bundles never change; index.html must always be revalidated to pick up a new release.
      setHeaders(res, filePath) {
        // The answer depends on Accept-Encoding (preCompressed): caches must keep the variants apart.
        res.setHeader('vary', 'accept-encoding');
        res.setHeader(
          'cache-control',
          filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  } else {
    app.log.warn({ distDir }, 'The web app is not built: only the API is served. Run npm run build.');
  }

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '';
    const isApi = pathname === '/api' || pathname.startsWith('/api/');
    if (!isApi && hasWeb && (request.method === 'GET' || request.method === 'HEAD')) {
      return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').sendFile('index.html');
    }
    throw notFound();
  });
}
