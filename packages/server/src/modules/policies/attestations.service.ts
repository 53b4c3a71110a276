import type { DepartmentPerson } from '@portal/shared';
import { and, asc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { personName } from '../../db/person-name.js';
import {
  policyAttestations,
  policyDepartments,
  policyDocuments,
  policyVersions,
  users,
} from '../../db/schema/index.js';
import { csvText, safeFileName } from '../../lib/csv.js';
import type { PolicyActor } from '../../policies/policy-management.js';
import { departmentRoles } from './department-roles.service.js';
import { documentOf } from './documents.service.js';

/**
 * Attestation reports (decision record 007): who of a department's readers confirmed reading the current version of
 * a policy, per policy and per department, as JSON and as CSV. An attestation counts for the version it names only.
 */

const rateOf = (attested: number, required: number) => (required > 0 ? attested / required : null);
const CSV_STATUS = (attestedAt: string | null) => (attestedAt ? 'attested' : 'pending');

/** When each of `userIds` attested each of `versionIds` ("versionId:userId" -> ISO time). */
async function attestationTimes(db: DbOrTx, projectId: number, versionIds: number[], userIds: number[]) {
  if (!versionIds.length || !userIds.length) return new Map<string, string>();
  const rows = await db
    .select({
      versionId: policyAttestations.versionId,
      userId: policyAttestations.userId,
      at: policyAttestations.attestedAt,
    })
    .from(policyAttestations)
    .where(
      and(
        eq(policyAttestations.projectId, projectId),
        inArray(policyAttestations.versionId, versionIds),
        inArray(policyAttestations.userId, userIds),
      ),
    );
  return new Map(rows.map((r) => [`${r.versionId}:${r.userId}`, r.at.toISOString()]));
}

/** The latest version of a document each person attested. */
async function lastAttested(db: DbOrTx, projectId: number, documentId: number) {
  const rows = await db
    .select({ userId: policyAttestations.userId, version: sql<number>`max(${policyVersions.version})::int` })
    .from(policyAttestations)
    .innerJoin(policyVersions, eq(policyVersions.id, policyAttestations.versionId))
    .where(and(eq(policyAttestations.projectId, projectId), eq(policyAttestations.documentId, documentId)))
    .groupBy(policyAttestations.userId);
  return new Map(rows.map((r) => [r.userId, r.version]));
}

async function departmentRef(db: DbOrTx, projectId: number, departmentId: number | null) {
  if (departmentId === null) return null;
  const [row] = await db
    .select({ id: policyDepartments.id, name: policyDepartments.name, code: policyDepartments.code })
    .from(policyDepartments)
    .where(and(eq(policyDepartments.projectId, projectId), eq(policyDepartments.id, departmentId)));
  return row ?? null;
}

/** GET documents/{id}/attestations: the current version's readers, who attested and when (404 when not visible). */
export async function documentAttestations(db: DbOrTx, actor: PolicyActor, documentId: number) {
  const doc = await documentOf(db, actor, documentId);
  const [version] =
    doc.currentVersionId === null
      ? []
      : await db
          .select({ id: policyVersions.id, version: policyVersions.version, effective_on: policyVersions.effectiveOn })
          .from(policyVersions)
          .where(and(eq(policyVersions.projectId, actor.projectId), eq(policyVersions.id, doc.currentVersionId)));
  const department = await departmentRef(db, actor.projectId, doc.departmentId);
  const readers: DepartmentPerson[] = department
    ? (await departmentRoles(db, actor.projectId, department.id)).readers
    : [];
  const times = await attestationTimes(
    db,
    actor.projectId,
    version ? [version.id] : [],
    readers.map((r) => r.id),
  );
  const latest = await lastAttested(db, actor.projectId, doc.id);
  const rows = readers.map((person) => ({
    person,
    attested_at: version ? (times.get(`${version.id}:${person.id}`) ?? null) : null,
    last_attested_version: latest.get(person.id) ?? null,
  }));
  // Archived or never published: nothing is required to be read.
  const required = version && doc.status !== 'archived' ? readers.length : 0;
  const attested = required ? rows.filter((r) => r.attested_at !== null).length : 0;
  return {
    document: { id: doc.id, number: doc.number, title: doc.title, department },
    version: version ?? null,
    readers: rows,
    others: version ? await otherAttesters(db, actor.projectId, version.id, readers) : [],
    attested,
    required,
    rate: rateOf(attested, required),
  };
}

/** People who attested the version without being readers of its department. */
async function otherAttesters(db: DbOrTx, projectId: number, versionId: number, readers: DepartmentPerson[]) {
  const readerIds = new Set(readers.map((r) => r.id));
  const rows = await db
    .select({ id: users.id, name: personName, at: policyAttestations.attestedAt })
    .from(policyAttestations)
    .innerJoin(users, eq(users.id, policyAttestations.userId))
    .where(and(eq(policyAttestations.projectId, projectId), eq(policyAttestations.versionId, versionId)))
    .orderBy(asc(personName), asc(users.id));
  return rows
    .filter((r) => !readerIds.has(r.id))
    .map((r) => ({ person: { id: r.id, name: r.name }, attested_at: r.at.toISOString() }));
}

/** GET documents/{id}/attestations.csv: one row per reader. */
export async function documentAttestationsCsv(db: DbOrTx, actor: PolicyActor, documentId: number) {
  const report = await documentAttestations(db, actor, documentId);
  const version = report.version?.version ?? null;
  const body = csvText(
    ['Name', 'Email', 'Version', 'Attested at', 'Status'],
    report.readers.map((r) => [r.person.name, r.person.email, version, r.attested_at, CSV_STATUS(r.attested_at)]),
  );
  const label = report.document.number ?? `policy-${report.document.id}`;
  return { body, fileName: safeFileName(`attestations-${label}${version === null ? '' : `-v${version}`}.csv`) };
}

/** The published, non-archived policies of a department with their current version. */
async function publishedDocuments(db: DbOrTx, projectId: number, departmentId: number) {
  return db
    .select({
      id: policyDocuments.id,
      number: policyDocuments.number,
      title: policyDocuments.title,
      versionId: policyVersions.id,
      version: policyVersions.version,
      effective_on: policyVersions.effectiveOn,
    })
    .from(policyDocuments)
    .innerJoin(policyVersions, eq(policyVersions.id, policyDocuments.currentVersionId))
    .where(
      and(
        eq(policyDocuments.projectId, projectId),
        eq(policyDocuments.departmentId, departmentId),
        eq(policyDocuments.status, 'published'),
        isNotNull(policyDocuments.currentVersionId),
      ),
    )
    .orderBy(sql`${policyDocuments.number} asc nulls last`, asc(policyDocuments.title), asc(policyDocuments.id));
}

/** The department report with, for the CSV, each document x reader line (404 when not of this project). */
async function departmentReport(db: DbOrTx, projectId: number, departmentId: number) {
  const { id, name, code, readers } = await departmentRoles(db, projectId, departmentId);
  const docs = await publishedDocuments(db, projectId, departmentId);
  const times = await attestationTimes(
    db,
    projectId,
    docs.map((d) => d.versionId),
    readers.map((r) => r.id),
  );
  const lines = docs.flatMap((d) =>
    readers.map((person) => ({ doc: d, person, attested_at: times.get(`${d.versionId}:${person.id}`) ?? null })),
  );
  const documents = docs.map((d) => {
    const mine = lines.filter((l) => l.doc === d);
    const attested = mine.filter((l) => l.attested_at !== null).length;
    return {
      id: d.id,
      number: d.number,
      title: d.title,
      version: d.version,
      effective_on: d.effective_on,
      attested,
      required: readers.length,
      rate: rateOf(attested, readers.length),
      pending: mine.filter((l) => l.attested_at === null).map((l) => ({ id: l.person.id, name: l.person.name })),
    };
  });
  const attested = documents.reduce((n, d) => n + d.attested, 0);
  const required = documents.reduce((n, d) => n + d.required, 0);
  const report = {
    department: { id, name, code },
    readers,
    documents,
    attested,
    required,
    rate: rateOf(attested, required),
  };
  return { report, lines };
}

/** GET departments/{id}/attestations. */
export async function departmentAttestations(db: DbOrTx, projectId: number, departmentId: number) {
  return (await departmentReport(db, projectId, departmentId)).report;
}

/** GET departments/{id}/attestations.csv: one row per document and reader. */
export async function departmentAttestationsCsv(db: DbOrTx, projectId: number, departmentId: number, now: Date) {
  const { report, lines } = await departmentReport(db, projectId, departmentId);
  const body = csvText(
    ['Number', 'Title', 'Version', 'Name', 'Email', 'Attested at', 'Status'],
    lines.map((l) => [
      l.doc.number,
      l.doc.title,
      l.doc.version,
      l.person.name,
      l.person.email,
      l.attested_at,
      CSV_STATUS(l.attested_at),
    ]),
  );
  const day = now.toISOString().slice(0, 10);
  return { body, fileName: safeFileName(`attestations-${report.department.code}-${day}.csv`) };
}
