import { lt, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { captchaSolutions, rateLimitHits } from './db/schema/index.js';
import { deleteExpiredSessions } from './plugins/session.js';

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

const HOUSEKEEPING_EVERY_MS = 10 * 60_000;

/** Removes rows whose time is over: sessions, used captcha solutions, old rate-limit windows. Every 10 minutes. */
export async function runHousekeeping(app: FastifyInstance): Promise<void> {
  const now = app.clock.now();
  const { db } = app.database;
  await deleteExpiredSessions(app, now);
  await db.delete(captchaSolutions).where(lt(captchaSolutions.expiresAt, now));
  await db.delete(rateLimitHits).where(lt(rateLimitHits.windowStart, sql`${new Date(now.getTime() - 86_400_000)}`));
}

export function startHousekeeping(app: FastifyInstance): NodeJS.Timeout {
  const run = () => void runHousekeeping(app).catch((error) => app.log.warn({ err: error }, 'housekeeping failed'));
  run();
  return setInterval(run, HOUSEKEEPING_EVERY_MS).unref();
}
