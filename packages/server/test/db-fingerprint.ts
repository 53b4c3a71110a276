import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../src/db/client.js';

/**
 * Each table's row count and an MD5 of its rows, in one query: what the security suites compare before and after a
 * refused call to prove nothing changed. `volatile` names the tables any request may write (sessions, audit, limits).
 */
export async function tableFingerprint(db: DbOrTx, volatile: (table: string) => boolean): Promise<Map<string, string>> {
  const tables = (
    await db.execute<{ name: string }>(
      sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
    )
  ).rows
    .map((r) => r.name)
    .filter((name) => !volatile(name) && !name.startsWith('__'));
  const parts = tables.map(
    (name) =>
      `select '${name}' as t, count(*) || ':' || coalesce(md5(string_agg(x::text, '|' order by x::text)), '') as f from "${name}" x`,
  );
  const rows = (await db.execute<{ t: string; f: string }>(sql.raw(parts.join(' union all ')))).rows;
  return new Map(rows.map((r) => [r.t, r.f]));
}

/** The tables whose rows differ between two fingerprints. */
export const changedTables = (before: Map<string, string>, after: Map<string, string>) =>
  [...after].filter(([name, f]) => before.get(name) !== f).map(([name]) => name);
