import { fileURLToPath } from 'node:url';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import type pg from 'pg';

/** Same folder from src/ (tsx, tests) and dist/ (built server): both sit two levels below the package. */
export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../src/db/migrations', import.meta.url));

// Any fixed number: serialises migrations when several instances start at once.
const MIGRATION_LOCK = 7_201_002;

/** Applies the committed SQL migrations that are not applied yet. Safe to run twice and from several instances. */
export async function runMigrations(pool: pg.Pool): Promise<void> {
  // A session-level advisory lock belongs to one connection: lock, migrate and unlock on the same client.
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_FOLDER });
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
}

const expectedMigrations = readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER }).length;

/** True when every committed migration is applied (the readiness check). */
export async function migrationsApplied(pool: pg.Pool): Promise<boolean> {
  const { rows } = await pool.query<{ applied: string | null }>(
    `select case when to_regclass('drizzle.__drizzle_migrations') is null then null
       else (select count(*)::text from drizzle.__drizzle_migrations) end as applied`,
  );
  return Number(rows[0]?.applied ?? 0) >= expectedMigrations;
}
