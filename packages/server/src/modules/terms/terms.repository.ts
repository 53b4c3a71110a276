import { desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { termsAcceptances, termsVersions } from '../../db/schema/index.js';

export async function findNewestPublished(db: DbOrTx) {
  const [row] = await db
    .select({ id: termsVersions.id, content: termsVersions.content, publishedAt: termsVersions.publishedAt })
    .from(termsVersions)
    .where(eq(termsVersions.status, 'published'))
    .orderBy(desc(termsVersions.publishedAt), desc(termsVersions.id))
    .limit(1);
  return row;
}

export async function insertVersion(
  db: DbOrTx,
  values: { content: string; status: 'draft' | 'published'; publishedAt: Date | null; createdBy: number | null },
) {
  const [row] = await db.insert(termsVersions).values(values).returning();
  return row!;
}

export async function acceptedVersionIds(db: DbOrTx, userId: number): Promise<number[]> {
  const rows = await db
    .select({ id: termsAcceptances.termsVersionId })
    .from(termsAcceptances)
    .where(eq(termsAcceptances.userId, userId));
  return rows.map((r) => r.id);
}

export async function insertAcceptance(db: DbOrTx, values: typeof termsAcceptances.$inferInsert) {
  await db.insert(termsAcceptances).values(values).onConflictDoNothing();
}
