import type { FastifyInstance } from 'fastify';

export const SHUTDOWN_GRACE_MS = 10_000;

/**
 * The order of a clean stop: refuse new work (/readyz 503, new connections refused), let requests in flight finish
 * for at most `graceMs`, cut what is still running, then release what the server holds (pool, embedded database,
 * DATA_DIR lock). Runs once however many signals arrive.
 */
export function createShutdown(options: {
  app: FastifyInstance;
  release: () => Promise<void>;
  graceMs?: number;
}): (reason: string) => Promise<void> {
  const { app, release, graceMs = SHUTDOWN_GRACE_MS } = options;
  let running: Promise<void> | undefined;
  return (reason) => {
    running ??= (async () => {
      app.shuttingDown = true;
      app.log.info({ reason }, 'Shutting down: finishing requests in flight');
      const force = setTimeout(() => {
        app.log.warn(`Requests still running after ${graceMs / 1000} s: closing their connections`);
        app.server.closeAllConnections();
      }, graceMs);
      try {
        await app.close();
      } finally {
        clearTimeout(force);
      }
      await release();
      app.log.info('Stopped');
    })();
    return running;
  };
}
