import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { projectMemberships, users } from '../../db/schema/index.js';

/** The account a login names: its email or its username, case-insensitively. */
export async function findUserByLogin(db: DbOrTx, login: string) {
  const key = login.trim().toLowerCase();
  const [user] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${key} or lower(${users.username}) = ${key}`)
    .limit(1);
  return user;
}

export async function findUserById(db: DbOrTx, id: number) {
  const [user] = await db.select().from(users).where(eq(users.id, id));
  return user;
}

/** Project roles the user holds anywhere (for the two-factor policy). */
export async function projectRolesOf(db: DbOrTx, userId: number): Promise<string[]> {
  const rows = await db
    .selectDistinct({ role: projectMemberships.projectRole })
    .from(projectMemberships)
    .where(and(eq(projectMemberships.userId, userId)));
  return rows.map((r) => r.role);
}

export type UserRow = typeof users.$inferSelect;
