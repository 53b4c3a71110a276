import { randomBytes } from 'node:crypto';
import type { Database } from '../src/db/client.js';
import {
  monUsers,
  policyUsers,
  projectMemberRoles,
  projectMemberships,
  projects,
  users,
} from '../src/db/schema/index.js';
import { hashPassword } from '../src/lib/passwords.js';

const unique = () => randomBytes(4).toString('hex');

/** Factories build what a test needs with valid defaults; every test builds its own rows. */
export const TEST_PASSWORD = 'Vq9!rT4#mLp2$Xz8';

/** argon2 is slow on purpose; tests hash each distinct password once (the same hash signs everyone in). */
const hashes = new Map<string, Promise<string>>();
function hashOnce(password: string): Promise<string> {
  let hashed = hashes.get(password);
  if (!hashed) {
    hashed = hashPassword(password);
    hashes.set(password, hashed);
  }
  return hashed;
}

/** A user who can sign in with TEST_PASSWORD (unless `password: null`). */
export async function createUser(
  db: Database,
  overrides: Partial<typeof users.$inferInsert> & { password?: string | null } = {},
) {
  const id = unique();
  const { password = TEST_PASSWORD, ...values } = overrides;
  const [user] = await db
    .insert(users)
    .values({
      email: `user-${id}@example.test`,
      username: `user_${id}`,
      firstName: 'Test',
      lastName: id,
      passwordHash: password === null ? null : await hashOnce(password),
      ...values,
    })
    .returning();
  return user!;
}

export async function createProject(db: Database, overrides: Partial<typeof projects.$inferInsert> = {}) {
  const id = unique();
  const [project] = await db
    .insert(projects)
    .values({ name: `Project ${id}`, slug: `project-${id}`, ...overrides })
    .returning();
  return project!;
}

export async function addMember(db: Database, projectId: number, userId: number, projectRole: 'admin' | 'simple') {
  await db.insert(projectMemberships).values({ projectId, userId, projectRole });
}

export async function setMainRole(
  db: Database,
  projectId: number,
  userId: number,
  app: 'monitoring' | 'policy_management' | 'chart_review',
  mainRole: string,
) {
  await db.insert(projectMemberRoles).values({ projectId, userId, app, mainRole });
  if (app === 'policy_management') await db.insert(policyUsers).values({ projectId, userId }).onConflictDoNothing();
  if (app === 'monitoring') await db.insert(monUsers).values({ projectId, userId }).onConflictDoNothing();
}
