import { type AnyColumn, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from './client.js';
import { users } from './schema/index.js';

/**
 * A person's name as every screen shows it: first and last name, or the username when both are empty. `table` is
 * `users` or an alias of it (a query naming the creator and the editor joins users twice).
 */
export const nameOf = (table: { firstName: AnyColumn; lastName: AnyColumn; username: AnyColumn }) =>
  sql<string>`coalesce(nullif(trim(${table.firstName} || ' ' || ${table.lastName}), ''), ${table.username})`;

/** The name of the row of `users` a query joins. */
export const personName = nameOf(users);

/** A user as a reference with their name, or null (for no user). */
export async function personRef(db: DbOrTx, userId: number | null): Promise<{ id: number; name: string } | null> {
  if (userId === null) return null;
  const [row] = await db.select({ id: users.id, name: personName }).from(users).where(eq(users.id, userId));
  return row ?? null;
}
