import type { PublicTerms, TermsStatus } from '@portal/shared';
import type { Database, DbOrTx } from '../../db/client.js';
import { recordAudit } from '../../lib/audit.js';
import { sanitizeHtml } from '../../lib/sanitize.js';
import { acceptedVersionIds, findNewestPublished, insertAcceptance, insertVersion } from './terms.repository.js';

export async function getPublicTerms(db: Database): Promise<PublicTerms> {
  const newest = await findNewestPublished(db);
  if (!newest?.publishedAt) return { content: null, lastUpdated: null };
  return { content: newest.content, lastUpdated: newest.publishedAt.toISOString().slice(0, 10) };
}

/** Stores a new published terms version (sanitised) and its audit event in one transaction; `publishedAt` is now. */
export async function publishTermsVersion(
  db: Database,
  input: { content: string; actorUserId: number | null; publishedAt: Date; requestId?: string },
) {
  return db.transaction(async (tx) => {
    const version = await insertVersion(tx, {
      content: sanitizeHtml(input.content),
      status: 'published',
      publishedAt: input.publishedAt,
      createdBy: input.actorUserId,
    });
    await recordAudit(tx, {
      action: 'terms.publish',
      actorUserId: input.actorUserId,
      subjectType: 'terms_version',
      subjectId: version.id,
      requestId: input.requestId ?? null,
      at: input.publishedAt,
    });
    return version;
  });
}

export type UserTermsStatus = Exclude<TermsStatus, 'not_found'>;

/** Where a user stands with the newest published terms (SPEC section 4 "Terms status"). */
export async function termsStatusForUser(
  db: DbOrTx,
  userId: number,
): Promise<{ status: UserTermsStatus; newestId: number | null }> {
  const newest = await findNewestPublished(db);
  if (!newest) return { status: 'accepted', newestId: null };
  const accepted = await acceptedVersionIds(db, userId);
  if (accepted.includes(newest.id)) return { status: 'accepted', newestId: newest.id };
  return { status: accepted.length ? 'needs_update_acceptance' : 'needs_initial_acceptance', newestId: newest.id };
}

/** Records that the user accepted a terms version (who, which, when, from where), audited in the same transaction. */
export async function acceptTerms(
  db: Database,
  input: { userId: number; termsVersionId: number; now: Date; ip: string | null; requestId?: string },
): Promise<void> {
  await db.transaction(async (tx) => {
    await insertAcceptance(tx, {
      userId: input.userId,
      termsVersionId: input.termsVersionId,
      acceptedAt: input.now,
      ip: input.ip,
    });
    await recordAudit(tx, {
      action: 'terms.accept',
      actorUserId: input.userId,
      subjectType: 'terms_version',
      subjectId: input.termsVersionId,
      ip: input.ip,
      requestId: input.requestId ?? null,
      at: input.now,
    });
  });
}
