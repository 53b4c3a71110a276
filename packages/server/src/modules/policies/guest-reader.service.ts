import { compareNumbers, type GuestDocument, type GuestSearch, type GuestToc, INT4_MAX } from '@portal/shared';
import { and, eq, ne } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { policyDepartments, policyDocuments, policyVersions, projects } from '../../db/schema/index.js';
import { notFound } from '../../lib/errors.js';
import type { PolicyActor } from '../../policies/policy-management.js';
import { approvedAt } from './approval.js';
import { listDepartments } from './departments.service.js';
import { listDocuments } from './documents.service.js';
import { guestMayReadProject } from './guest-reading.service.js';
import { searchDocuments } from './search.service.js';
import { listedFor } from './visibility.js';

/**
 * What a guest reads (issue 28): published policies only, through the same rules as a signed-in reader (a guest is
 * an actor with no role, guestActor), and nothing about people: no authors, reviewers, signers or attestation.
 */

/** The one answer whatever is missing (the project, the app, the setting, the address): nothing is revealed. */
export const GUEST_UNAVAILABLE = 'Reading without an account is not available here.';

/** The project's name when a guest at `ip` may read its policies; otherwise the same 404 for every reason. */
export async function guestProject(db: DbOrTx, projectId: number, ip: string): Promise<{ id: number; name: string }> {
  if (projectId > INT4_MAX) throw notFound(GUEST_UNAVAILABLE);
  const [project] = await db
    .select({ id: projects.id, name: projects.name, activeApps: projects.activeApps, isActive: projects.isActive })
    .from(projects)
    .where(eq(projects.id, projectId));
  const open =
    project?.isActive &&
    project.activeApps.includes('policy_management') &&
    (await guestMayReadProject(db, projectId, ip));
  if (!project || !open) throw notFound(GUEST_UNAVAILABLE);
  return { id: project.id, name: project.name };
}

export async function guestToc(db: DbOrTx, guest: PolicyActor): Promise<GuestToc> {
  const departments = new Map((await listDepartments(db, guest.projectId)).map((d) => [d.id, d.name]));
  const documents = (await listDocuments(db, guest, {}))
    .filter((doc) => doc.status === 'published')
    .map((doc) => ({
      id: doc.id,
      number: doc.number,
      title: doc.title,
      department: doc.department_id === null ? null : (departments.get(doc.department_id) ?? null),
    }))
    .sort((a, b) =>
      a.number !== null && b.number !== null
        ? compareNumbers(a.number, b.number)
        : a.number !== null
          ? -1
          : b.number !== null
            ? 1
            : a.title.localeCompare(b.title),
    );
  return { documents };
}

export async function guestSearch(db: DbOrTx, guest: PolicyActor, q: string): Promise<GuestSearch> {
  const found = await searchDocuments(db, guest, { q, include_archived: 'false', limit: 30 });
  return {
    results: found.results.map((r) => ({ id: r.id, number: r.number, title: r.title, snippet: r.snippet })),
    total: found.total,
  };
}

/** The current published version of a live policy, or 404 (a draft, a never-published or an archived policy). */
export async function guestDocument(
  db: DbOrTx,
  guest: PolicyActor,
  documentId: number,
): Promise<{ document: GuestDocument; versionId: number }> {
  const [row] = await db
    .select({
      id: policyDocuments.id,
      number: policyDocuments.number,
      title: policyDocuments.title,
      department: policyDepartments.name,
      version_id: policyVersions.id,
      version: policyVersions.version,
      effective_on: policyVersions.effectiveOn,
      content: policyVersions.content,
    })
    .from(policyDocuments)
    .innerJoin(
      policyVersions,
      and(
        eq(policyVersions.projectId, guest.projectId),
        eq(policyVersions.id, policyDocuments.currentVersionId),
        eq(policyVersions.state, 'published'),
      ),
    )
    .leftJoin(
      policyDepartments,
      and(eq(policyDepartments.projectId, guest.projectId), eq(policyDepartments.id, policyDocuments.departmentId)),
    )
    .where(
      and(
        eq(policyDocuments.projectId, guest.projectId),
        eq(policyDocuments.id, documentId),
        ne(policyDocuments.status, 'archived'),
        listedFor(guest),
      ),
    );
  if (!row) throw notFound('Policy not found.');
  const { version_id: versionId, ...shown } = row;
  const approvedOn = (await approvedAt(db, guest.projectId, row.version_id))?.toISOString().slice(0, 10) ?? null;
  return { document: { ...shown, approved_on: approvedOn }, versionId };
}
