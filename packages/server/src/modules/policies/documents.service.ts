import {
  DEFAULT_SCHEME,
  type DocumentCreate,
  type DocumentDetail,
  type DocumentRow,
  type DocumentStatus,
  type NumberingScheme,
  numberProblem,
  redlineHtml,
  type VersionState,
  type VersionSummary,
} from '@portal/shared';
import { and, asc, desc, eq, getTableColumns, isNull, ne, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client.js';
import { personName, personRef } from '../../db/person-name.js';
import { prepared } from '../../db/prepared.js';
import {
  pgGenerations,
  pgTemplateVersions,
  policyDepartments,
  policyDocuments,
  policyFileTexts,
  policyNumberHistory,
  policyNumbering,
  policyVersions,
  policyWorkflowRequests,
  storedFiles,
  users,
} from '../../db/schema/index.js';
import { changes } from '../../lib/audit-diff.js';
import { AppError, notFound } from '../../lib/errors.js';
import { sanitizeHtml } from '../../lib/sanitize.js';
import { can, EDIT_DOCUMENTS, type PolicyActor, seesDrafts } from '../../policies/policy-management.js';
import { documentFacts, documentRules } from '../../policies/policy-records.js';
import { authorize, serialize } from '../../policies/rules.js';
import { approvedAtSql } from './approval.js';
import { audit, departmentOf, htmlToText, iso, isUniqueViolation } from './policy-common.js';
import { documentsVisibleTo, listedFor, versionsVisibleTo } from './visibility.js';
import { defaultReviewInterval } from './workflow-settings.js';

/** The web path of a policy. */
export const documentLink = (projectId: number, documentId: number) =>
  `/app/policy_management/${projectId}/documents/${documentId}`;

/** A policy change's audit event, for the modules that write policy documents through this service (the generator). */
export { audit as policyAudit } from './policy-common.js';

/** The scheme a project numbers its policy documents with (the default until the policy admin sets one). */
export async function loadScheme(db: DbOrTx, projectId: number): Promise<NumberingScheme> {
  const [row] = await db.select().from(policyNumbering).where(eq(policyNumbering.projectId, projectId));
  if (!row) return DEFAULT_SCHEME;
  return {
    levels: row.levels,
    department_prefixes: row.departmentPrefixes,
    prefix_separator: row.prefixSeparator as NumberingScheme['prefix_separator'],
  };
}

/** Policy documents and their versions (issue 6). Every query carries the project id. */

type Doc = typeof policyDocuments.$inferSelect;
type Version = typeof policyVersions.$inferSelect;

const live = ne(policyDocuments.status, 'archived');

export interface DocumentFilters {
  status?: DocumentStatus;
  department_id?: number;
  text?: string;
  include_archived?: 'true' | 'false';
}

const workingVersion = alias(policyVersions, 'working_version');
const WORKFLOW_STATES: readonly string[] = ['draft', 'in_review', 'pending_signature'];

export async function listDocuments(db: DbOrTx, actor: PolicyActor, filters: DocumentFilters): Promise<DocumentRow[]> {
  const drafts = seesDrafts(actor);
  const conditions: (SQL | undefined)[] = [eq(policyDocuments.projectId, actor.projectId), listedFor(actor)];
  if (filters.status) {
    // A published policy whose new version is in the workflow is listed under that step too.
    conditions.push(
      drafts && WORKFLOW_STATES.includes(filters.status)
        ? or(
            eq(policyDocuments.status, filters.status),
            and(eq(policyDocuments.status, 'published'), eq(workingVersion.state, filters.status)),
          )
        : eq(policyDocuments.status, filters.status),
    );
  } else if (filters.include_archived !== 'true') conditions.push(live);
  if (filters.department_id) conditions.push(eq(policyDocuments.departmentId, filters.department_id));
  if (filters.text) {
    const pattern = `%${filters.text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conditions.push(
      or(sql`${policyDocuments.title} ilike ${pattern}`, sql`${policyDocuments.number} ilike ${pattern}`),
    );
  }
  const rows = await db
    .select({
      id: policyDocuments.id,
      number: policyDocuments.number,
      title: policyDocuments.title,
      status: policyDocuments.status,
      department_id: policyDocuments.departmentId,
      working_state: workingVersion.state,
      next_review_on: policyDocuments.nextReviewOn,
      updated_at: policyDocuments.updatedAt,
    })
    .from(policyDocuments)
    .leftJoin(
      workingVersion,
      and(eq(workingVersion.projectId, actor.projectId), eq(workingVersion.id, policyDocuments.draftVersionId)),
    )
    .where(and(...conditions));
  return rows.map(({ working_state, ...row }) => ({
    ...row,
    status: row.status as DocumentStatus,
    has_draft: drafts && working_state !== null,
    working_state: drafts ? (working_state as VersionState | null) : null,
    updated_at: row.updated_at.toISOString(),
  }));
}

/**
 * The document of this project the actor may see, or 404: readers see published documents, and reviewers and
 * signers also the documents they were asked to act on.
 */
export async function documentOf(db: DbOrTx, actor: PolicyActor, documentId: number): Promise<Doc> {
  const [doc] = await db
    .select()
    .from(policyDocuments)
    .where(
      and(
        eq(policyDocuments.projectId, actor.projectId),
        eq(policyDocuments.id, documentId),
        documentsVisibleTo(actor),
      ),
    );
  if (!doc) throw notFound('Policy not found.');
  return doc;
}

/** Does the actor see the document's working version (authors and admins, and the people asked to act on it)? */
export async function seesWorkingVersion(db: DbOrTx, actor: PolicyActor, doc: Doc): Promise<boolean> {
  if (seesDrafts(actor)) return true;
  if (doc.draftVersionId === null) return false;
  const [row] = await db
    .select({ id: policyWorkflowRequests.id })
    .from(policyWorkflowRequests)
    .where(
      and(
        eq(policyWorkflowRequests.projectId, actor.projectId),
        eq(policyWorkflowRequests.versionId, doc.draftVersionId),
        eq(policyWorkflowRequests.userId, actor.userId),
      ),
    )
    .limit(1);
  return row !== undefined;
}

const versionColumns = {
  id: policyVersions.id,
  version: policyVersions.version,
  state: policyVersions.state,
  change_summary: policyVersions.changeSummary,
  effective_on: policyVersions.effectiveOn,
  author_id: policyVersions.authorId,
  author_name: personName,
  created_at: policyVersions.createdAt,
  updated_at: policyVersions.updatedAt,
  revision: policyVersions.revision,
  file_id: storedFiles.id,
  file_name: storedFiles.fileName,
  file_type: storedFiles.contentType,
};

type VersionRow = { [K in keyof typeof versionColumns]: unknown } & Record<string, unknown>;

/** A version as the page's statement returns it (JSON): its times as text, and its text when it is shown. */
type VersionJson = {
  [K in Exclude<keyof typeof versionColumns, 'created_at' | 'updated_at' | 'revision'>]: unknown;
} & {
  revision: number;
  created_at: string;
  updated_at: string;
  content: string | null;
};

function presentVersion(row: VersionRow): VersionSummary {
  return {
    id: row.id as number,
    version: row.version as number,
    state: row.state as VersionSummary['state'],
    change_summary: row.change_summary as string,
    effective_on: (row.effective_on as string | null) ?? null,
    author: row.author_id === null ? null : { id: row.author_id as number, name: row.author_name as string },
    created_at: (row.created_at as Date).toISOString(),
    updated_at: (row.updated_at as Date).toISOString(),
    source_file:
      row.file_id === null
        ? null
        : { id: row.file_id as number, name: row.file_name as string, content_type: row.file_type as string },
  };
}

/** A version of the document, with its text, when the actor may see it (versionsVisibleTo). */
async function versionRow(db: DbOrTx, actor: PolicyActor, documentId: number, versionId: number) {
  const [row] = await db
    .select({ ...versionColumns, content: policyVersions.content })
    .from(policyVersions)
    .leftJoin(users, eq(users.id, policyVersions.authorId))
    .leftJoin(storedFiles, eq(storedFiles.id, policyVersions.sourceFileId))
    .where(
      and(
        eq(policyVersions.projectId, actor.projectId),
        eq(policyVersions.documentId, documentId),
        eq(policyVersions.id, versionId),
        versionsVisibleTo(actor),
      ),
    );
  return row;
}

export async function loadVersion(db: DbOrTx, actor: PolicyActor, documentId: number, versionId: number) {
  const doc = await documentOf(db, actor, documentId);
  const row = await versionRow(db, actor, doc.id, versionId);
  if (!row) throw notFound('Version not found.');
  return { ...presentVersion(row), content: row.content, revision: row.revision };
}

export async function loadDetail(db: DbOrTx, actor: PolicyActor, documentId: number): Promise<DocumentDetail> {
  const { doc, extras } = await documentWithExtras(db, actor, documentId);
  const rows = extras.versions.map((v) => ({
    ...v,
    created_at: new Date(v.created_at),
    updated_at: new Date(v.updated_at),
  }));
  const full = (id: number | null) => {
    const row = id === null ? undefined : rows.find((r) => r.id === id);
    return row ? { ...presentVersion(row), content: row.content ?? '', revision: row.revision } : null;
  };
  const editor = can(actor, EDIT_DOCUMENTS);
  return {
    id: doc.id,
    number: doc.number,
    title: doc.title,
    status: doc.status as DocumentStatus,
    department: extras.department,
    owner: extras.owner,
    review_interval_months: doc.reviewIntervalMonths,
    next_review_on: doc.nextReviewOn,
    effective_on: doc.effectiveOn,
    approved_at: extras.approvedAt ? new Date(extras.approvedAt).toISOString() : null,
    created_at: doc.createdAt.toISOString(),
    updated_at: doc.updatedAt.toISOString(),
    current_version: full(doc.currentVersionId),
    draft_version: full(doc.draftVersionId),
    versions: rows.map(presentVersion),
    number_history: (extras.history ?? []).map((h) => ({
      from: h.from,
      to: h.to,
      by: h.by_id === null ? null : { id: h.by_id, name: h.by_name ?? '' },
      at: new Date(h.at).toISOString(),
    })),
    abilities: serialize(documentRules, actor, documentFacts(doc)),
    generated_from:
      editor && extras.generated ? { ...extras.generated, at: new Date(extras.generated.at).toISOString() } : null,
  };
}

interface DetailExtras {
  department: { id: number; name: string; code: string } | null;
  owner: { id: number; name: string } | null;
  /** When the current version was approved: its publication, else its last valid signature (approval.ts). */
  approvedAt: string | null;
  history: { from: string; to: string; by_id: number | null; by_name: string | null; at: string }[] | null;
  generated: { template_id: number; template_title: string; template_version: number; at: string } | null;
  /** The versions the actor may see, newest first, with the text of the current and working versions only. */
  versions: VersionJson[];
}

/** The document's columns the page uses: not its search text and vectors, which can be larger than the policy. */
const {
  searchText: _text,
  titleVector: _title,
  searchVector: _vector,
  ...pageColumns
} = getTableColumns(policyDocuments);

/**
 * The document (as documentOf sees it) with what its page shows around it, in one statement: the department, the
 * owner, when the current version was approved, the number history, the generation that wrote it and the versions the
 * actor may see (versionsVisibleTo), with the text of the current and working versions only (issue 31: the policy
 * page read in one statement instead of eight). Prepared once per database handle for each of the two ways of seeing
 * (seesDrafts), with the ids as placeholders: the query builder does not run again for every reader.
 */
async function documentWithExtras(db: DbOrTx, actor: PolicyActor, documentId: number) {
  const name = seesDrafts(actor) ? 'portal_policy_page_all' : 'portal_policy_page_visible';
  const statement = prepared(db, name, (handle, n) => policyPageQuery(handle, actor).prepare(n));
  const [row] = await statement.execute({ projectId: actor.projectId, userId: actor.userId, documentId });
  if (!row) throw notFound('Policy not found.');
  const { doc, ...extras } = row;
  return { doc, extras: extras as DetailExtras };
}

/** The policy page's statement for actors who see as `actor` does, its ids left as placeholders. */
function policyPageQuery(db: DbOrTx, actor: PolicyActor) {
  const d = policyDocuments;
  const ids = { projectId: sql.placeholder('projectId'), userId: sql.placeholder('userId') };
  return (
    db
      .select({
        doc: pageColumns,
        department: { id: policyDepartments.id, name: policyDepartments.name, code: policyDepartments.code },
        owner: sql<DetailExtras['owner']>`(select json_build_object('id', ${users.id}, 'name', ${personName}) from ${
          users
        } where ${users.id} = ${d.ownerId})`,
        approvedAt: approvedAtSql(sql`${d.projectId}`, sql`${d.currentVersionId}`),
        history: sql<DetailExtras['history']>`(select json_agg(json_build_object('from', ${
          policyNumberHistory.fromNumber
        }, 'to', ${policyNumberHistory.toNumber}, 'by_id', ${policyNumberHistory.changedBy}, 'by_name', ${personName}, 'at', ${
          policyNumberHistory.changedAt
        }) order by ${policyNumberHistory.changedAt} desc, ${policyNumberHistory.id} desc) from ${policyNumberHistory} left join ${
          users
        } on ${users.id} = ${policyNumberHistory.changedBy} where ${policyNumberHistory.projectId} = ${d.projectId} and ${
          policyNumberHistory.documentId
        } = ${d.id})`,
        generated: sql<DetailExtras['generated']>`(select json_build_object('template_id', ${
          pgGenerations.templateId
        }, 'template_title', ${pgTemplateVersions.body}->>'title', 'template_version', ${pgTemplateVersions.version}, 'at', ${
          pgGenerations.createdAt
        }) from ${pgGenerations} join ${pgTemplateVersions} on ${pgTemplateVersions.id} = ${
          pgGenerations.templateVersionId
        } where ${pgGenerations.projectId} = ${d.projectId} and ${pgGenerations.documentId} = ${d.id} order by ${
          pgGenerations.createdAt
        } desc, ${pgGenerations.id} desc limit 1)`,
        versions: sql<DetailExtras['versions']>`(select coalesce(json_agg(json_build_object(${sql.join(
          // The keys are this file's own names, written into the statement (its text is then the same every time).
          Object.entries(versionColumns).map(([key, column]) => sql`${sql.raw(`'${key}'`)}, ${column}`),
          sql`, `,
        )}, 'content', case when ${policyVersions.id} in (${d.currentVersionId}, ${d.draftVersionId}) then ${
          policyVersions.content
        } end) order by ${policyVersions.version} desc), '[]') from ${policyVersions} left join ${users} on ${users.id} = ${
          policyVersions.authorId
        } left join ${storedFiles} on ${storedFiles.id} = ${policyVersions.sourceFileId} where ${
          policyVersions.projectId
        } = ${d.projectId} and ${policyVersions.documentId} = ${d.id} and ${versionsVisibleTo(actor, ids) ?? sql`true`})`,
      })
      .from(d)
      // A join also makes the query name every column with its table, which the subqueries need.
      .leftJoin(
        policyDepartments,
        and(eq(policyDepartments.projectId, d.projectId), eq(policyDepartments.id, d.departmentId)),
      )
      .where(
        and(eq(d.projectId, ids.projectId), eq(d.id, sql.placeholder('documentId')), documentsVisibleTo(actor, ids)),
      )
  );
}

// ---------------------------------------------------------------- numbers

const numberError = (message: string, field = 'number') =>
  new AppError('VALIDATION_FAILED', message, { [field]: [message] });

/** Refuses a number the scheme does not allow or another live document of the project holds. */
export async function checkNumber(
  db: DbOrTx,
  projectId: number,
  scheme: NumberingScheme,
  number: string,
  departmentCode: string | null,
  exceptDocumentId: number | null,
  field = 'number',
): Promise<void> {
  const problem = numberProblem(number, scheme, departmentCode);
  if (problem) throw numberError(problem, field);
  const [holder] = await db
    .select({ id: policyDocuments.id, title: policyDocuments.title })
    .from(policyDocuments)
    .where(and(eq(policyDocuments.projectId, projectId), eq(policyDocuments.number, number), live));
  if (holder && holder.id !== exceptDocumentId) {
    const message = `Number ${number} is already used by "${holder.title}".`;
    throw new AppError('CONFLICT', message, { [field]: [message] });
  }
}

export function recordNumberChange(
  tx: DbOrTx,
  actor: PolicyActor,
  documentId: number,
  from: string | null,
  to: string | null,
  reason: 'assign' | 'move' | 'edit' | 'restore' | 'create',
  now: Date,
) {
  if (from === to) return Promise.resolve();
  return tx.insert(policyNumberHistory).values({
    projectId: actor.projectId,
    documentId,
    fromNumber: from,
    toNumber: to,
    reason,
    changedBy: actor.userId,
    changedAt: now,
  });
}

const numberTaken = (error: unknown) => {
  if (isUniqueViolation(error, 'policy_documents_number_unique')) {
    throw new AppError('CONFLICT', 'That number was just given to another policy. Choose another one.', {
      number: ['That number was just given to another policy. Choose another one.'],
    });
  }
  throw error;
};

// ---------------------------------------------------------------- create and edit

/**
 * Recomputes what search finds for a document: its current version, or its draft while it has none; the version's
 * text, then what was read of its source PDF (file-text.service.ts calls this again once the PDF is read).
 */
export async function refreshSearchText(tx: DbOrTx, projectId: number, documentId: number): Promise<void> {
  const where = and(eq(policyDocuments.projectId, projectId), eq(policyDocuments.id, documentId));
  const [row] = await tx
    .select({ content: policyVersions.content, fileText: policyFileTexts.text })
    .from(policyDocuments)
    .innerJoin(
      policyVersions,
      eq(policyVersions.id, sql`coalesce(${policyDocuments.currentVersionId}, ${policyDocuments.draftVersionId})`),
    )
    .leftJoin(
      policyFileTexts,
      and(
        eq(policyFileTexts.fileId, policyVersions.sourceFileId),
        eq(policyFileTexts.projectId, projectId),
        eq(policyFileTexts.state, 'done'),
      ),
    )
    .where(where);
  const fileText = (row?.fileText ?? '').replace(/\s+/g, ' ').trim();
  const searchText = [htmlToText(row?.content ?? ''), fileText].filter(Boolean).join(' ');
  await tx.update(policyDocuments).set({ searchText }).where(where);
}

export interface NewDocumentSource {
  /** Already-converted HTML (sanitised here). */
  content?: string;
  sourceFileId?: number | null;
  changeSummary?: string;
}

/** Creates a draft document with its first version, in the caller's transaction. */
export async function insertDocument(
  tx: DbOrTx,
  actor: PolicyActor,
  input: DocumentCreate,
  now: Date,
  source: NewDocumentSource = {},
): Promise<number> {
  const scheme = await loadScheme(tx, actor.projectId);
  const department = await departmentOf(tx, actor.projectId, input.department_id);
  if (input.number) await checkNumber(tx, actor.projectId, scheme, input.number, department?.code ?? null, null);
  if (input.owner_id !== null) await checkOwner(tx, actor.projectId, input.owner_id);
  const [doc] = await tx
    .insert(policyDocuments)
    .values({
      projectId: actor.projectId,
      number: input.number,
      title: input.title,
      departmentId: input.department_id,
      ownerId: input.owner_id ?? actor.userId,
      status: 'draft',
      reviewIntervalMonths: input.review_interval_months ?? (await defaultReviewInterval(tx, actor.projectId)),
      nextReviewOn: input.next_review_on,
      createdBy: actor.userId,
      updatedBy: actor.userId,
      createdAt: now,
      updatedAt: now,
    })
    .returning({ id: policyDocuments.id })
    .catch(numberTaken);
  const [version] = await tx
    .insert(policyVersions)
    .values({
      projectId: actor.projectId,
      documentId: doc!.id,
      version: 1,
      state: 'draft',
      content: sanitizeHtml(source.content ?? input.content),
      changeSummary: source.changeSummary ?? 'First draft.',
      authorId: actor.userId,
      sourceFileId: source.sourceFileId ?? null,
      updatedBy: actor.userId,
      createdAt: now,
      updatedAt: now,
    })
    .returning({ id: policyVersions.id });
  await tx
    .update(policyDocuments)
    .set({ draftVersionId: version!.id })
    .where(and(eq(policyDocuments.projectId, actor.projectId), eq(policyDocuments.id, doc!.id)));
  await refreshSearchText(tx, actor.projectId, doc!.id);
  if (input.number) await recordNumberChange(tx, actor, doc!.id, null, input.number, 'create', now);
  await audit(
    tx,
    actor,
    'document_created',
    { type: 'policy_document', id: doc!.id },
    {
      title: input.title,
      number: input.number,
      department_id: input.department_id,
      source_file_id: source.sourceFileId ?? null,
    },
    now,
  );
  return doc!.id;
}

/** Is the document's working version in review or waiting for signatures? */
async function inWorkflow(db: DbOrTx, projectId: number, doc: Doc): Promise<boolean> {
  if (doc.draftVersionId === null) return false;
  const [version] = await db
    .select({ state: policyVersions.state })
    .from(policyVersions)
    .where(and(eq(policyVersions.projectId, projectId), eq(policyVersions.id, doc.draftVersionId)));
  return version?.state === 'in_review' || version?.state === 'pending_signature';
}

async function checkOwner(db: DbOrTx, projectId: number, ownerId: number) {
  const [member] = (
    await db.execute(
      sql`select 1 as ok from project_memberships where project_id = ${projectId} and user_id = ${ownerId}`,
    )
  ).rows;
  if (!member) throw numberError('Choose a member of this project as owner.', 'owner_id');
}

export async function createDocument(
  db: DbOrTx,
  actor: PolicyActor,
  input: DocumentCreate,
  now: Date,
): Promise<number> {
  return db.transaction((tx) => insertDocument(tx, actor, input, now));
}

export async function updateDocument(
  db: DbOrTx,
  actor: PolicyActor,
  documentId: number,
  patch: Partial<Omit<DocumentCreate, 'content'>>,
  now: Date,
): Promise<void> {
  const doc = await documentOf(db, actor, documentId);
  if (doc.status === 'archived') throw new AppError('CONFLICT', 'Restore this policy from the archive to change it.');
  authorize(documentRules, 'edit', actor, documentFacts(doc));
  await db.transaction(async (tx) => {
    const scheme = await loadScheme(tx, actor.projectId);
    const departmentId = patch.department_id === undefined ? doc.departmentId : patch.department_id;
    const department = await departmentOf(tx, actor.projectId, departmentId);
    const number = patch.number === undefined ? doc.number : patch.number;
    if (patch.number !== undefined && patch.number !== doc.number) {
      authorize(documentRules, 'renumber', actor, documentFacts(doc));
    }
    if (number && (number !== doc.number || departmentId !== doc.departmentId)) {
      await checkNumber(tx, actor.projectId, scheme, number, department?.code ?? null, doc.id);
    }
    if (patch.owner_id) await checkOwner(tx, actor.projectId, patch.owner_id);
    if (departmentId !== doc.departmentId && (await inWorkflow(tx, actor.projectId, doc))) {
      const message =
        'This policy is out for review or signature by its department. Withdraw it before moving it to another department.';
      throw new AppError('CONFLICT', message, { department_id: [message] });
    }
    await tx
      .update(policyDocuments)
      .set({
        title: patch.title,
        number: patch.number,
        departmentId: patch.department_id,
        ownerId: patch.owner_id,
        reviewIntervalMonths: patch.review_interval_months,
        nextReviewOn: patch.next_review_on,
        updatedAt: now,
        updatedBy: actor.userId,
      })
      .where(and(eq(policyDocuments.projectId, actor.projectId), eq(policyDocuments.id, doc.id)))
      .catch(numberTaken);
    if (patch.number !== undefined) await recordNumberChange(tx, actor, doc.id, doc.number, patch.number, 'edit', now);
    await audit(
      tx,
      actor,
      'document_updated',
      { type: 'policy_document', id: doc.id },
      {
        before: { title: doc.title, number: doc.number, department_id: doc.departmentId },
        after: patch,
        changes: changes(
          {
            title: doc.title,
            number: doc.number,
            department_id: doc.departmentId,
            owner_id: doc.ownerId,
            review_interval_months: doc.reviewIntervalMonths,
            next_review_on: doc.nextReviewOn,
          },
          patch,
        ),
      },
      now,
    );
  });
}

/** The document row, locked until the transaction ends: one draft or workflow change at a time per document. */
export async function lockDocument(tx: DbOrTx, actor: PolicyActor, documentId: number): Promise<Doc> {
  const [doc] = await tx
    .select()
    .from(policyDocuments)
    .where(and(eq(policyDocuments.projectId, actor.projectId), eq(policyDocuments.id, documentId)))
    .for('update');
  if (!doc) throw notFound('Policy not found.');
  return doc;
}

/** Opens a draft version from the current one (or returns the open one). */
export async function openDraft(
  tx: DbOrTx,
  actor: PolicyActor,
  doc: Doc,
  now: Date,
  content?: string,
  summary?: string,
): Promise<Version> {
  if (doc.draftVersionId !== null) {
    const [draft] = await tx
      .select()
      .from(policyVersions)
      .where(and(eq(policyVersions.projectId, actor.projectId), eq(policyVersions.id, doc.draftVersionId)));
    return draft!;
  }
  const [last] = await tx
    .select({ version: sql<number>`max(${policyVersions.version})` })
    .from(policyVersions)
    .where(and(eq(policyVersions.projectId, actor.projectId), eq(policyVersions.documentId, doc.id)));
  const [current] = doc.currentVersionId
    ? await tx
        .select()
        .from(policyVersions)
        .where(and(eq(policyVersions.projectId, actor.projectId), eq(policyVersions.id, doc.currentVersionId)))
    : [];
  const [draft] = await tx
    .insert(policyVersions)
    .values({
      projectId: actor.projectId,
      documentId: doc.id,
      version: (last?.version ?? 0) + 1,
      state: 'draft',
      content: content ?? current?.content ?? '',
      changeSummary: summary ?? '',
      authorId: actor.userId,
      updatedBy: actor.userId,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  await tx
    .update(policyDocuments)
    .set({ draftVersionId: draft!.id, updatedAt: now, updatedBy: actor.userId })
    .where(and(eq(policyDocuments.projectId, actor.projectId), eq(policyDocuments.id, doc.id)));
  await audit(tx, actor, 'version_started', { type: 'policy_document', id: doc.id }, { version: draft!.version }, now);
  return draft!;
}

export async function newVersion(db: DbOrTx, actor: PolicyActor, documentId: number, now: Date): Promise<void> {
  const doc = await documentOf(db, actor, documentId);
  if (doc.status === 'archived') throw new AppError('CONFLICT', 'Restore this policy from the archive to change it.');
  authorize(documentRules, 'edit', actor, documentFacts(doc));
  await db.transaction(async (tx) => {
    const fresh = await lockDocument(tx, actor, doc.id);
    await openDraft(tx, actor, fresh, now);
  });
}

/** Autosave of the working draft. The base revision guards against two editors overwriting each other. */
export async function saveDraft(
  db: DbOrTx,
  actor: PolicyActor,
  documentId: number,
  body: { content: string; change_summary: string; base_revision: number },
  now: Date,
) {
  const doc = await documentOf(db, actor, documentId);
  if (doc.status === 'archived') throw new AppError('CONFLICT', 'Restore this policy from the archive to change it.');
  if (doc.status === 'in_review' || doc.status === 'pending_signature') {
    throw new AppError('CONFLICT', 'This version is out for review or signature; it cannot be edited now.');
  }
  authorize(documentRules, 'edit', actor, documentFacts(doc));
  const content = sanitizeHtml(body.content);
  return db.transaction(async (tx) => {
    const fresh = await lockDocument(tx, actor, doc.id);
    const draft = await openDraft(tx, actor, fresh, now);
    if (draft.state !== 'draft') {
      throw new AppError('CONFLICT', 'This version is out for review or signature; it cannot be edited now.');
    }
    if (draft.revision !== body.base_revision) {
      const by = await personRef(tx, draft.updatedBy);
      const at = draft.updatedAt.toISOString().slice(11, 16);
      throw new AppError(
        'CONFLICT',
        `${by?.name ?? 'Someone'} saved this draft at ${at} UTC after you opened it. Reload the latest draft to continue; your text stays in the editor until you do.`,
      );
    }
    const [saved] = await tx
      .update(policyVersions)
      .set({
        content,
        changeSummary: body.change_summary,
        revision: draft.revision + 1,
        updatedAt: now,
        updatedBy: actor.userId,
      })
      .where(and(eq(policyVersions.projectId, actor.projectId), eq(policyVersions.id, draft.id)))
      .returning();
    await tx
      .update(policyDocuments)
      .set({ updatedAt: now, updatedBy: actor.userId })
      .where(and(eq(policyDocuments.projectId, actor.projectId), eq(policyDocuments.id, doc.id)));
    if (fresh.currentVersionId === null) await refreshSearchText(tx, actor.projectId, doc.id);
    // One audit event per save would flood the log with autosaves: the first save of a revision run is enough
    // to know who edited; every save is still in the version's revision counter and updated_by.
    if (draft.revision === 0 || draft.updatedBy !== actor.userId) {
      // The text before and after this save, shortened to its first 200 characters (lib/audit-diff.ts).
      await audit(
        tx,
        actor,
        'draft_edited',
        { type: 'policy_document', id: doc.id },
        {
          version: draft.version,
          changes: changes(
            { content: draft.content, change_summary: draft.changeSummary },
            { content, change_summary: body.change_summary },
          ),
        },
        now,
      );
    }
    return {
      version_id: saved!.id,
      revision: saved!.revision,
      saved_at: saved!.updatedAt.toISOString(),
      content: saved!.content,
    };
  });
}

export async function compareVersions(
  db: DbOrTx,
  actor: PolicyActor,
  documentId: number,
  fromId: number,
  toId: number,
) {
  const from = await loadVersion(db, actor, documentId, fromId);
  const to = await loadVersion(db, actor, documentId, toId);
  const redline = redlineHtml(from.content, to.content);
  const { content: _a, revision: _b, ...fromSummary } = from;
  const { content: _c, revision: _d, ...toSummary } = to;
  return { from: fromSummary, to: toSummary, ...redline, html: sanitizeHtml(redline.html) };
}

// ---------------------------------------------------------------- archive

/**
 * The policy that replaces an archived one: a live, published document of the same project, not itself (its
 * stable link then leads readers there). A 400 on the field otherwise.
 */
async function replacementOf(db: DbOrTx, projectId: number, doc: Doc, replacedById: number) {
  const [replacement] = await db
    .select({ id: policyDocuments.id, number: policyDocuments.number, title: policyDocuments.title })
    .from(policyDocuments)
    .where(
      and(
        eq(policyDocuments.projectId, projectId),
        eq(policyDocuments.id, replacedById),
        live,
        sql`${policyDocuments.currentVersionId} is not null`,
      ),
    );
  if (!replacement || replacement.id === doc.id) {
    const message = 'Choose another published policy of this project as the replacement.';
    throw new AppError('VALIDATION_FAILED', message, { replaced_by_id: [message] });
  }
  return replacement;
}

export async function archiveDocument(
  db: DbOrTx,
  actor: PolicyActor,
  documentId: number,
  now: Date,
  replacedById: number | null = null,
): Promise<void> {
  const doc = await documentOf(db, actor, documentId);
  if (doc.status === 'archived') throw new AppError('CONFLICT', 'This policy is already archived.');
  authorize(documentRules, 'archive', actor, documentFacts(doc));
  const replacement = replacedById === null ? null : await replacementOf(db, actor.projectId, doc, replacedById);
  await db.transaction(async (tx) => {
    await tx
      .update(policyDocuments)
      .set({
        status: 'archived',
        archivedAt: now,
        archivedBy: actor.userId,
        replacedById: replacement?.id ?? null,
        updatedAt: now,
      })
      .where(and(eq(policyDocuments.projectId, actor.projectId), eq(policyDocuments.id, doc.id)));
    await audit(
      tx,
      actor,
      'document_archived',
      { type: 'policy_document', id: doc.id },
      {
        number: doc.number,
        title: doc.title,
        status_before: doc.status,
        ...(replacement ? { replaced_by: replacement } : {}),
      },
      now,
    );
  });
}

/** Back from the archive: published again if it had a current version, else a draft. Keeps its number when free. */
export async function restoreDocument(db: DbOrTx, actor: PolicyActor, documentId: number, now: Date): Promise<string> {
  const doc = await documentOf(db, actor, documentId);
  if (doc.status !== 'archived') throw new AppError('CONFLICT', 'This policy is not archived.');
  authorize(documentRules, 'restore', actor, documentFacts(doc));
  return db.transaction(async (tx) => {
    let number = doc.number;
    let message = `"${doc.title}" is back${number ? ` as ${number}` : ''}.`;
    if (number) {
      const [holder] = await tx
        .select({ title: policyDocuments.title })
        .from(policyDocuments)
        .where(and(eq(policyDocuments.projectId, actor.projectId), eq(policyDocuments.number, number), live));
      if (holder) {
        message = `"${doc.title}" is back without a number: ${number} now belongs to "${holder.title}". Assign a new number under Numbering.`;
        await recordNumberChange(tx, actor, doc.id, number, null, 'restore', now);
        number = null;
      }
    }
    const status = doc.currentVersionId !== null ? 'published' : 'draft';
    await tx
      .update(policyDocuments)
      .set({ status, number, archivedAt: null, archivedBy: null, updatedAt: now, updatedBy: actor.userId })
      .where(and(eq(policyDocuments.projectId, actor.projectId), eq(policyDocuments.id, doc.id)));
    await audit(
      tx,
      actor,
      'document_restored',
      { type: 'policy_document', id: doc.id },
      {
        number_before: doc.number,
        number_after: number,
        status,
      },
      now,
    );
    return message;
  });
}

/** An earlier version's text becomes the new draft (never while another draft is open: nothing is overwritten). */
export async function restoreVersion(db: DbOrTx, actor: PolicyActor, documentId: number, versionId: number, now: Date) {
  const doc = await documentOf(db, actor, documentId);
  if (doc.status === 'archived') throw new AppError('CONFLICT', 'Restore this policy from the archive first.');
  authorize(documentRules, 'edit', actor, documentFacts(doc));
  const old = await loadVersion(db, actor, documentId, versionId);
  await db.transaction(async (tx) => {
    const fresh = await lockDocument(tx, actor, doc.id);
    if (fresh.draftVersionId !== null) {
      throw new AppError(
        'CONFLICT',
        'This policy already has a draft in progress. Finish that draft, or copy the text you need from the old version into it.',
      );
    }
    await openDraft(tx, actor, fresh, now, old.content, `Restored from version ${old.version}.`);
    await audit(
      tx,
      actor,
      'version_restored',
      { type: 'policy_document', id: doc.id },
      { from_version: old.version },
      now,
    );
  });
}

export async function listArchive(db: DbOrTx, actor: PolicyActor) {
  const archivedBy = sql<
    string | null
  >`(select ${personName} from users where users.id = ${policyDocuments.archivedBy})`;
  const documents = await db
    .select({
      id: policyDocuments.id,
      number: policyDocuments.number,
      title: policyDocuments.title,
      archived_at: policyDocuments.archivedAt,
      by_id: policyDocuments.archivedBy,
      by_name: archivedBy,
    })
    .from(policyDocuments)
    .where(
      and(eq(policyDocuments.projectId, actor.projectId), eq(policyDocuments.status, 'archived'), listedFor(actor)),
    )
    .orderBy(desc(policyDocuments.archivedAt));
  const versions = await db
    .select({
      document_id: policyDocuments.id,
      number: policyDocuments.number,
      title: policyDocuments.title,
      version_id: policyVersions.id,
      version: policyVersions.version,
      effective_on: policyVersions.effectiveOn,
      superseded_at: policyVersions.supersededAt,
    })
    .from(policyVersions)
    .innerJoin(policyDocuments, eq(policyDocuments.id, policyVersions.documentId))
    .where(and(eq(policyVersions.projectId, actor.projectId), eq(policyVersions.state, 'superseded'), listedFor(actor)))
    .orderBy(desc(policyVersions.supersededAt), asc(policyVersions.id))
    .limit(1000);
  return {
    documents: documents.map((d) => ({
      id: d.id,
      number: d.number,
      title: d.title,
      archived_at: iso(d.archived_at),
      archived_by: d.by_id === null ? null : { id: d.by_id, name: d.by_name ?? '' },
    })),
    versions: versions.map((v) => ({ ...v, superseded_at: iso(v.superseded_at) ?? '' })),
  };
}

/** Ids of live documents of the project with their numbers (for planning moves and assignments). */
export async function liveNumbers(db: DbOrTx, projectId: number) {
  return db
    .select({
      id: policyDocuments.id,
      number: policyDocuments.number,
      departmentCode: policyDepartments.code,
      title: policyDocuments.title,
    })
    .from(policyDocuments)
    .leftJoin(policyDepartments, eq(policyDepartments.id, policyDocuments.departmentId))
    .where(and(eq(policyDocuments.projectId, projectId), live));
}

export const unnumbered = isNull(policyDocuments.number);

/**
 * An image or source file of a policy, served when a version the actor may see keeps it as its source file or shows
 * it in its text; otherwise 404.
 */
export async function policyFileOf(db: DbOrTx, actor: PolicyActor, fileId: number) {
  const url = `/api/projects/${actor.projectId}/policy-management/files/${fileId}`;
  const [file] = await db
    .select({ contentType: storedFiles.contentType, fileName: storedFiles.fileName, data: storedFiles.data })
    .from(storedFiles)
    .where(
      and(
        eq(storedFiles.projectId, actor.projectId),
        eq(storedFiles.id, fileId),
        sql`exists (select 1 from ${policyVersions} where ${and(
          eq(policyVersions.projectId, actor.projectId),
          or(eq(policyVersions.sourceFileId, fileId), sql`strpos(${policyVersions.content}, ${`${url}"`}) > 0`),
          versionsVisibleTo(actor),
        )})`,
      ),
    );
  if (!file) throw notFound('File not found.');
  return file;
}
