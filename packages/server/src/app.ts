import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import pino from 'pino';
import type { Config } from './config.js';
import type { DatabaseHandle } from './db/client.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { termsRoutes } from './modules/terms/terms.routes.js';
import { registerErrorHandler } from './plugins/error-handler.js';
import { registerOpenApi } from './plugins/openapi.js';
import { registerWeb } from './plugins/web.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: DatabaseHandle;
    /** Set when shutdown starts: /readyz answers 503 so a load balancer stops sending traffic. */
    shuttingDown: boolean;
  }
}

export interface BuildAppOptions {
  config: Config;
  database: DatabaseHandle;
  /** A pino logger; tests pass none (silent). */
  logger?: pino.Logger;
}

export const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));

/** A hop count trusts that many proxies in front of the server (what proxy-addr does for a number). */
function trustProxySetting(value: Config['TRUST_PROXY']) {
  return typeof value === 'number' ? (_address: string, hop: number) => hop < value : value;
}

export async function buildApp({ config, database, logger }: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: (logger ?? pino({ level: 'silent' })) as FastifyBaseLogger,
    trustProxy: trustProxySetting(config.TRUST_PROXY),
    genReqId: () => randomUUID(),
    bodyLimit: 1_048_576,
    return503OnClosing: true,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate('shuttingDown', false);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  // While shutting down, a finished response closes its keep-alive connection, so the drain ends with the last request.
  app.addHook('onSend', async (_request, reply) => {
    if (app.shuttingDown) reply.header('connection', 'close');
  });

  registerErrorHandler(app);
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'"],
        // Mantine and sonner set inline styles.
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:', 'blob:'],
        'font-src': ["'self'", 'data:'],
        'connect-src': ["'self'"],
        'frame-ancestors': ["'none'"],
        'form-action': ["'self'"],
        'upgrade-insecure-requests': config.APP_URL.startsWith('https://') ? [] : null,
      },
    },
    strictTransportSecurity: config.APP_URL.startsWith('https://'),
  });
  await app.register(cookie);
  await registerOpenApi(app);

  await app.register(healthRoutes);
  await app.register(termsRoutes);

  await registerWeb(app, config.WEB_DIST_DIR ?? DEFAULT_WEB_DIST);
  return app;
}
