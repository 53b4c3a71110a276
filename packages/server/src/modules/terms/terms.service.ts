import type { PublicTerms } from '@portal/shared';
import type { Database } from '../../db/client.js';
import { recordAudit } from '../../lib/audit.js';
import { sanitizeHtml } from '../../lib/sanitize.js';
import { findNewestPublished, insertVersion } from './terms.repository.js';

export async function getPublicTerms(db: Database): Promise<PublicTerms> {
  const newest = await findNewestPublished(db);
  if (!newest?.publishedAt) return { content: null, lastUpdated: null };
  return { content: newest.content, lastUpdated: newest.publishedAt.toISOString().slice(0, 10) };
}

/** Stores a new published terms version (sanitised) and its audit event in one transaction. */
export async function publishTermsVersion(
  db: Database,
  input: { content: string; actorUserId: number | null; publishedAt?: Date; requestId?: string },
) {
  return db.transaction(async (tx) => {
    const version = await insertVersion(tx, {
      content: sanitizeHtml(input.content),
      status: 'published',
      publishedAt: input.publishedAt ?? new Date(),
      createdBy: input.actorUserId,
    });
    await recordAudit(tx, {
      action: 'terms.publish',
      actorUserId: input.actorUserId,
      subjectType: 'terms_version',
      subjectId: version.id,
      requestId: input.requestId ?? null,
    });
    return version;
  });
}
