import { desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { termsVersions } from '../../db/schema/index.js';

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
