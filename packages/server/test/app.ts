import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { type TestDatabase, useTestDatabase } from './database.js';

export interface TestApp {
  app: FastifyInstance;
  db: TestDatabase;
}

/**
 * An app on this file's own database, for fastify.inject. `env` overrides configuration variables;
 * `beforeReady` adds routes (tests of the error envelope) before the app is sealed.
 */
export function useTestApp(
  options: { env?: Record<string, string>; beforeReady?: (app: FastifyInstance) => void } = {},
): TestApp {
  const db = useTestDatabase();
  const state = { db } as TestApp;
  beforeAll(async () => {
    const config = loadConfig({
      DATABASE_URL: db.url,
      DATA_DIR: path.join(os.tmpdir(), 'portal-test-data'),
      LOG_LEVEL: 'silent',
      ...options.env,
    });
    state.app = await buildApp({ config, database: db.handle });
    options.beforeReady?.(state.app);
    await state.app.ready();
  });
  afterAll(async () => {
    await state.app?.close();
  });
  return state;
}
