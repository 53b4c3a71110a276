import { type AnyPgColumn, integer, timestamp } from 'drizzle-orm/pg-core';
import { projects } from './projects.js';
import { users } from './users.js';

/**
 * The columns every project-owned table repeats: its project (which is never deleted from under it), its creation
 * and change times, and a person who may leave (their rows stay, naming nobody).
 */
export const project = () =>
  integer('project_id')
    .notNull()
    .references(() => projects.id, { onDelete: 'restrict' });
export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
export const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();
export const userRef = (name: string) => integer(name).references(() => users.id, { onDelete: 'set null' });
/** A moment that may not have happened yet. */
export const at = (name: string) => timestamp(name, { withTimezone: true });

/**
 * A link every row must have, to the row `target` names: `cascade` when this row goes with it, `restrict` when it
 * keeps that row from being deleted.
 */
export const ref = (name: string, target: () => AnyPgColumn, onDelete: 'cascade' | 'restrict') =>
  integer(name).notNull().references(target, { onDelete });
