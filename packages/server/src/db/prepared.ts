import type { DbOrTx } from './client.js';

const statements = new WeakMap<DbOrTx, Map<string, unknown>>();

/**
 * A statement of a hot read, built once per database handle and sent by its name: the query builder runs once, and
 * PostgreSQL parses and plans it once per connection (issue 31). `build` must prepare with the same `name` and take
 * every value as a placeholder, so that one text serves every call. A transaction handle gets its own, kept as long
 * as the transaction.
 */
export function prepared<T>(db: DbOrTx, name: string, build: (db: DbOrTx, name: string) => T): T {
  let byName = statements.get(db);
  if (!byName) {
    byName = new Map();
    statements.set(db, byName);
  }
  if (!byName.has(name)) byName.set(name, build(db, name));
  return byName.get(name) as T;
}
