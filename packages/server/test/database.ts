import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { connectDatabase, type DatabaseHandle } from '../src/db/client.js';
import { withDatabase } from './global-setup.js';

export interface TestDatabase {
  url: string;
  handle: DatabaseHandle;
}

/** A fresh, migrated database for this test file (a copy of the run's template), dropped after the file. */
export function useTestDatabase(): TestDatabase {
  const state = {} as TestDatabase;
  const serverUrl = inject('databaseServerUrl');
  const template = inject('templateDatabase');
  const templatePid = template.replace('portal_template_', '');
  const name = `portal_test_${templatePid}_${randomBytes(6).toString('hex')}`;

  beforeAll(async () => {
    await adminQuery(serverUrl, `create database ${name} template ${template}`);
    state.url = withDatabase(serverUrl, name);
    state.handle = connectDatabase(state.url, { max: 5 });
  });
  afterAll(async () => {
    await state.handle?.close();
    await adminQuery(serverUrl, `drop database if exists ${name} with (force)`);
  });
  return state;
}

async function adminQuery(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
