import { SIGNATURE_MEANING } from '@portal/shared';
import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import {
  policyAttestations,
  policyDepartmentRoles,
  policyDepartments,
  policyDocuments,
  policySignatures,
  policyVersions,
} from '../db/schema/index.js';
import { rulesFor } from '../modules/permissions/permissions.service.js';
import { contentHash, review, sendToReview, startNewVersion } from '../modules/policies/workflow.service.js';
import type { PolicyActor } from '../policies/policy-management.js';

/**
 * The demo facility's workflow (issue 7): who reviews, signs and reads each department's policies, the signatures
 * and attestations of the published manual, and work in progress so every demo account finds something waiting:
 * a draft in review (reviewer), a new version waiting for a signature (member), policies to read (reader) and
 * periodic reviews due (admin). Patient Safety has no reviewer, so Department health shows a gap.
 */
export interface DemoPeople {
  admin: number;
  member: number;
  reviewer: number;
  reader: number;
}

const day = (now: Date, offset: number) => new Date(now.getTime() + offset * 86_400_000).toISOString().slice(0, 10);

export async function seedDemoWorkflow(tx: DbOrTx, projectId: number, people: DemoPeople, now: Date): Promise<void> {
  const departments = new Map(
    (await tx.select().from(policyDepartments).where(eq(policyDepartments.projectId, projectId))).map((d) => [
      d.code,
      d.id,
    ]),
  );
  const everyone = [people.admin, people.member, people.reviewer, people.reader];
  const roles: Record<string, { reviewer: number[]; signer: number[]; reader: number[] }> = {
    ADM: { reviewer: [people.admin], signer: [people.member], reader: everyone },
    NUR: { reviewer: [people.reviewer, people.admin], signer: [people.member], reader: everyone },
    IPC: { reviewer: [people.reviewer], signer: [people.member], reader: everyone },
    PHA: { reviewer: [people.reviewer], signer: [people.member], reader: [people.member, people.reader] },
    PS: { reviewer: [], signer: [people.member], reader: everyone },
  };
  for (const [code, byRole] of Object.entries(roles)) {
    for (const [role, userIds] of Object.entries(byRole)) {
      if (!userIds.length) continue;
      await tx.insert(policyDepartmentRoles).values(
        userIds.map((userId) => ({
          projectId,
          departmentId: departments.get(code)!,
          userId,
          role,
          createdBy: people.admin,
        })),
      );
    }
  }

  // The published manual was signed by the department signer when it took effect.
  const published = await tx
    .select({ doc: policyDocuments, version: policyVersions })
    .from(policyDocuments)
    .innerJoin(policyVersions, eq(policyVersions.id, policyDocuments.currentVersionId))
    .where(and(eq(policyDocuments.projectId, projectId), inArray(policyDocuments.status, ['published', 'archived'])));
  for (const { doc, version } of published) {
    await tx.insert(policySignatures).values({
      projectId,
      documentId: doc.id,
      versionId: version.id,
      round: 0,
      signerId: people.member,
      signerName: 'Morgan Member',
      signedAt: new Date(`${version.effectiveOn ?? '2026-03-01'}T08:00:00Z`),
      ip: null,
      userAgent: 'Demo data',
      contentSha256: contentHash(version.content),
      method: 'password',
      meaning: SIGNATURE_MEANING,
    });
  }
  // Attestations: the member read everything, the admin the administration chapter, the reader infection control.
  const byNumber = new Map(published.map((p) => [p.doc.number, p]));
  const attested: [number, (n: string) => boolean][] = [
    [people.member, () => true],
    [people.admin, (n) => n.startsWith('1')],
    [people.reader, (n) => n.startsWith('3')],
  ];
  for (const [userId, reads] of attested) {
    for (const { doc, version } of published) {
      if (doc.status !== 'published' || !doc.number || !reads(doc.number)) continue;
      await tx.insert(policyAttestations).values({
        projectId,
        documentId: doc.id,
        versionId: version.id,
        userId,
        attestedAt: new Date('2026-03-05T09:00:00Z'),
        userAgent: 'Demo data',
      });
    }
  }

  // Periodic reviews: one overdue, one due soon.
  const setReview = async (number: string, date: string) => {
    const entry = byNumber.get(number);
    if (!entry) return;
    await tx
      .update(policyDocuments)
      .set({ nextReviewOn: date })
      .where(and(eq(policyDocuments.projectId, projectId), eq(policyDocuments.id, entry.doc.id)));
  };
  await setReview('1.2', day(now, -12));
  await setReview('4.1', day(now, 20));

  // Work in progress, through the workflow itself, by people holding the project's rules (a section without a rule
  // is denied, so an actor with none could not even see the drafts it sends on).
  const rules = await rulesFor(tx, projectId, 'policy_management');
  const actor = (userId: number, role: string): PolicyActor => ({
    userId,
    projectId,
    isSuperadmin: false,
    role,
    rules,
    ip: '127.0.0.1',
    requestId: 'demo-data',
  });
  const admin = actor(people.admin, 'policy_admin');
  const [draft] = await tx
    .select({ id: policyDocuments.id })
    .from(policyDocuments)
    .where(and(eq(policyDocuments.projectId, projectId), eq(policyDocuments.status, 'draft')));
  if (draft) await sendToReview(tx, admin, draft.id, 'Ready for review: new isolation signage section.', now);
  const falls = byNumber.get('2.2');
  if (falls) {
    await startNewVersion(tx, admin, falls.doc.id, now);
    await sendToReview(tx, admin, falls.doc.id, 'Annual review: no changes needed.', now);
    await review(
      tx,
      actor(people.reviewer, 'reviewer'),
      falls.doc.id,
      { decision: 'approve', comment: 'Still right.' },
      now,
    );
    await review(tx, admin, falls.doc.id, { decision: 'approve', comment: '' }, now);
  }
}
