import type { PolicyLink } from '@portal/shared';
import { and, desc, eq, isNotNull, ne, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { policyDocuments, projects } from '../../db/schema/index.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { SessionUser } from '../../plugins/session.js';
import { type PolicyActor, policyAccess } from '../../policies/policy-management.js';
import { guestMayReadProject, recordGuestRead } from './guest-reading.service.js';
import { listedFor } from './visibility.js';

/**
 * Where a policy's stable link /p/{projectId}/{number} leads (issue 28). It names a number, never a document: the
 * live document holding the number today, at its current published version. Drafts are never revealed, whoever
 * asks: a link opens what is in force. Members go to their policy page; anyone else (not signed in, or not a member)
 * reads as a guest where the project allows it from their address, else is asked to sign in. A number no current
 * policy holds answers 404, or the retirement note when its last holder was archived.
 */

export const noCurrentPolicy = (number: string) =>
  notFound(`There is no current policy numbered ${number} in this project.`);

export interface LinkCaller {
  user: SessionUser | null;
  ip: string;
  requestId: string;
  userAgent: string;
}

const sameNumber = (projectId: number, number: string) =>
  and(eq(policyDocuments.projectId, projectId), sql`upper(${policyDocuments.number}) = ${number}`);

/** The live document holding the number with a published version (`visible`: what else the reader must pass). */
async function currentHolder(db: DbOrTx, projectId: number, number: string, visible: SQL | undefined) {
  const [row] = await db
    .select({ id: policyDocuments.id, versionId: policyDocuments.currentVersionId })
    .from(policyDocuments)
    .where(
      and(
        sameNumber(projectId, number),
        ne(policyDocuments.status, 'archived'),
        isNotNull(policyDocuments.currentVersionId),
        visible,
      ),
    );
  return row;
}

/**
 * The retirement note: the last published holder of a number that no live document holds now, and the policy that
 * replaced it when that one is live and published (readers of every kind see published policies).
 */
async function retirement(db: DbOrTx, projectId: number, number: string): Promise<PolicyLink | null> {
  const [held] = await db
    .select({ id: policyDocuments.id })
    .from(policyDocuments)
    .where(and(sameNumber(projectId, number), ne(policyDocuments.status, 'archived')));
  if (held) return null;
  const [retired] = await db
    .select({
      number: policyDocuments.number,
      title: policyDocuments.title,
      archivedAt: policyDocuments.archivedAt,
      updatedAt: policyDocuments.updatedAt,
      replacedById: policyDocuments.replacedById,
    })
    .from(policyDocuments)
    .where(
      and(
        sameNumber(projectId, number),
        eq(policyDocuments.status, 'archived'),
        isNotNull(policyDocuments.currentVersionId),
      ),
    )
    .orderBy(sql`${policyDocuments.archivedAt} desc nulls last`, desc(policyDocuments.id))
    .limit(1);
  if (!retired) return null;
  const [replacement] =
    retired.replacedById === null
      ? []
      : await db
          .select({ document_id: policyDocuments.id, number: policyDocuments.number, title: policyDocuments.title })
          .from(policyDocuments)
          .where(
            and(
              eq(policyDocuments.projectId, projectId),
              eq(policyDocuments.id, retired.replacedById),
              ne(policyDocuments.status, 'archived'),
              isNotNull(policyDocuments.currentVersionId),
            ),
          );
  return {
    outcome: 'retired',
    number: retired.number ?? number,
    title: retired.title,
    retired_on: (retired.archivedAt ?? retired.updatedAt).toISOString().slice(0, 10),
    replaced_by: replacement ?? null,
  };
}

/** The caller as a member who may open policies, or null (not signed in, not a member, no policy role). */
async function memberActor(db: DbOrTx, caller: LinkCaller, projectId: number): Promise<PolicyActor | null> {
  if (!caller.user) return null;
  try {
    return await policyAccess(db, caller.user, { ip: caller.ip, id: caller.requestId }, projectId, 'documents');
  } catch (error) {
    if (error instanceof AppError && (error.code === 'NOT_FOUND' || error.code === 'FORBIDDEN')) return null;
    throw error;
  }
}

/** A project whose policies a guest could read: it exists, is active and has policy management on. */
async function readableProject(db: DbOrTx, projectId: number): Promise<boolean> {
  const [row] = await db
    .select({ isActive: projects.isActive, activeApps: projects.activeApps })
    .from(projects)
    .where(eq(projects.id, projectId));
  return row?.isActive === true && row.activeApps.includes('policy_management');
}

export async function resolvePolicyLink(
  db: DbOrTx,
  caller: LinkCaller,
  projectId: number,
  number: string,
  now: Date,
): Promise<PolicyLink> {
  if (!number) throw noCurrentPolicy(number);
  const actor = await memberActor(db, caller, projectId);
  if (actor) {
    const holder = await currentHolder(db, projectId, number, listedFor(actor));
    if (holder) return { outcome: 'member', document_id: holder.id };
    const retired = await retirement(db, projectId, number);
    if (retired) return retired;
    throw noCurrentPolicy(number);
  }

  const guest = (await readableProject(db, projectId)) && (await guestMayReadProject(db, projectId, caller.ip));
  if (!guest) {
    // Nothing about the project is told before signing in: the same answer whether or not it or the number exists.
    if (!caller.user) return { outcome: 'sign_in' };
    throw noCurrentPolicy(number);
  }
  const holder = await currentHolder(db, projectId, number, undefined);
  const answer = holder
    ? ({ outcome: 'guest', document_id: holder.id } as const)
    : await retirement(db, projectId, number);
  await recordGuestRead(
    db,
    {
      projectId,
      kind: 'link',
      documentId: holder?.id ?? null,
      versionId: holder?.versionId ?? null,
      query: number,
      ip: caller.ip,
      userAgent: caller.userAgent,
    },
    now,
  );
  if (!answer) throw noCurrentPolicy(number);
  return answer;
}
