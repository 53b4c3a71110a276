import fs from 'node:fs';
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
 * then owns exclusively). Migrations are applied before it is handed out.
 */
export async function openDatabase(config: Config, log: (message: string) => void): Promise<OpenDatabase> {
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
    await runMigrations(database.pool);
    return { database, ...(embedded ? { embedded } : {}), close };
  } catch (error) {
    await close().catch(() => {});
    throw error;
  }
}
