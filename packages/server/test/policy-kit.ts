import { and, eq } from 'drizzle-orm';
import type { Database } from '../src/db/client.js';
import { policyDocuments, policyVersions } from '../src/db/schema/index.js';
import { addMember, createProject, createUser, setMainRole } from './factories.js';

/** Fixtures shared by the policy API tests: a project with the app on, its people by role, and an outsider. */
export async function policyProject(db: Database) {
  const project = await createProject(db, { name: 'North Clinic', activeApps: ['policy_management'] });
  const other = await createProject(db, { name: 'South Clinic', activeApps: ['policy_management'] });
  const people = {
    admin: await createUser(db, { firstName: 'Ada', lastName: 'Admin' }),
    author: await createUser(db, { firstName: 'Otto', lastName: 'Author' }),
    reader: await createUser(db, { firstName: 'Rita', lastName: 'Reader' }),
    noRole: await createUser(db, { firstName: 'Nora', lastName: 'None' }),
    outsider: await createUser(db, { firstName: 'Olga', lastName: 'Outside' }),
  };
  await addMember(db, project.id, people.admin.id, 'admin');
  await addMember(db, project.id, people.author.id, 'simple');
  await addMember(db, project.id, people.reader.id, 'simple');
  await addMember(db, project.id, people.noRole.id, 'simple');
  await addMember(db, other.id, people.outsider.id, 'admin');
  await setMainRole(db, project.id, people.admin.id, 'policy_management', 'policy_admin');
  await setMainRole(db, project.id, people.author.id, 'policy_management', 'author');
  await setMainRole(db, project.id, people.reader.id, 'policy_management', 'reader');
  await setMainRole(db, other.id, people.outsider.id, 'policy_management', 'policy_admin');
  return { project, other, people };
}

/**
 * Publishes a document's working draft the way the workflow of issue 7 will (this part has no workflow yet):
 * the draft becomes the current version, the previous one is superseded.
 */
export async function publishDraft(db: Database, documentId: number, effectiveOn = '2026-01-15') {
  const [doc] = await db.select().from(policyDocuments).where(eq(policyDocuments.id, documentId));
  if (!doc?.draftVersionId) throw new Error('no draft to publish');
  if (doc.currentVersionId) {
    await db
      .update(policyVersions)
      .set({ state: 'superseded', supersededAt: new Date() })
      .where(eq(policyVersions.id, doc.currentVersionId));
  }
  await db
    .update(policyVersions)
    .set({ state: 'published', effectiveOn })
    .where(and(eq(policyVersions.id, doc.draftVersionId), eq(policyVersions.documentId, documentId)));
  await db
    .update(policyDocuments)
    .set({ status: 'published', currentVersionId: doc.draftVersionId, draftVersionId: null, effectiveOn })
    .where(eq(policyDocuments.id, documentId));
}

/** A multipart/form-data body: fields first, then the file (as browsers send forms). */
export function multipart(fields: Record<string, string>, file?: { name: string; data: Buffer; type?: string }) {
  const boundary = `----portal${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
