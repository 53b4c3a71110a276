import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';
import { connectDatabase, type DatabaseHandle } from './client.js';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock.js';
import { type EmbeddedPostgres, startEmbeddedPostgres } from './embedded-postgres.js';
import { runMigrations } from './migrate.js';

export interface OpenDatabase {
  database: DatabaseHandle;
  embedded?: EmbeddedPostgres;
  /** Closes the pool, stops the embedded PostgreSQL and releases DATA_DIR, in that order. */
  close(): Promise<void>;
}

/**
 * The database the configuration names: DATABASE_URL, or the embedded PostgreSQL in DATA_DIR (which this process
 * then owns exclusively). Migrations are applied before it is handed out, unless `migrate: false` (backup and
 * restore: a backup must hold the data as it was, and a restore must not meet tables of a newer schema).
 */
export async function openDatabase(
  config: Config,
  log: (message: string) => void,
  options: { migrate?: boolean } = {},
): Promise<OpenDatabase> {
  let lock: DataDirLock | undefined;
  let embedded: EmbeddedPostgres | undefined;
  let database: DatabaseHandle | undefined;
  const close = async () => {
    await database?.close().catch(() => {});
    await embedded?.stop();
    lock?.release();
  };
  try {
    if (!config.DATABASE_URL) {
      fs.mkdirSync(config.DATA_DIR, { recursive: true });
      lock = acquireDataDirLock(config.DATA_DIR);
      embedded = await startEmbeddedPostgres({ dataDir: config.DATA_DIR, log });
    }
    database = connectDatabase(config.DATABASE_URL ?? embedded!.connectionString);
    if (options.migrate !== false) await runMigrations(database.pool);
    return { database, ...(embedded ? { embedded } : {}), close };
  } catch (error) {
    await close().catch(() => {});
    throw error;
  }
}

/**
 * The connection string of the embedded PostgreSQL that a running portal started in DATA_DIR (the one that holds
 * DATA_DIR's lock), read from the cluster's postmaster.pid (line 4: the port) and DATA_DIR/postgres.password; the
 * cluster listens on 127.0.0.1 only. Undefined when that cannot be read. `npm run backup` uses it to back up a
 * running portal without stopping it (pg_dump reads one consistent snapshot and blocks no writer).
 */
export function runningEmbeddedUrl(dataDir: string, database = 'portal'): string | undefined {
  try {
    const pid = fs.readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n');
    const port = Number(pid[3]);
    const password = fs.readFileSync(path.join(dataDir, 'postgres.password'), 'utf8').trim();
    if (!Number.isInteger(port) || port <= 0 || !password) return undefined;
    return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${encodeURIComponent(database)}`;
  } catch {
    return undefined;
  }
}
