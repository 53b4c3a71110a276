import { type AnyColumn, sql } from 'drizzle-orm';
import { users } from './schema/index.js';

/**
 * A person's name as every screen shows it: first and last name, or the username when both are empty. `table` is
 * `users` or an alias of it (a query naming the creator and the editor joins users twice).
 */
export const nameOf = (table: { firstName: AnyColumn; lastName: AnyColumn; username: AnyColumn }) =>
  sql<string>`coalesce(nullif(trim(${table.firstName} || ' ' || ${table.lastName}), ''), ${table.username})`;

/** The name of the row of `users` a query joins. */
export const personName = nameOf(users);
