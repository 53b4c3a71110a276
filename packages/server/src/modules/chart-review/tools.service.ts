import {
  type CrPublishInput,
  type CrQuestion,
  type CrQuestionInput,
  type CrTool,
  type CrToolInput,
  type CrToolList,
  type CrToolSummary,
  type CrToolUpdate,
  type CrToolVersion,
  type CrToolVersionSummary,
  type CrVersionStatus,
  parseExpression,
} from '@portal/shared';
import { and, asc, desc, eq, ne, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database, DbOrTx } from '../../db/client.js';
import { nameOf } from '../../db/person-name.js';
import { loadProjectRow } from '../../db/project-row.js';
import { crQuestions, crTools, crToolVersions, users } from '../../db/schema/index.js';
import { changes } from '../../lib/audit-diff.js';
import { AppError, addFieldError, notFound } from '../../lib/errors.js';
import { type ChartReviewActor, mayUse } from '../../policies/chart-review.js';
import {
  FIRST_VERSION,
  ONLY_DRAFT_DISCARDED,
  ONLY_DRAFT_PUBLISHES,
  PUBLISHED_CANNOT_CHANGE,
  toolRules,
  toolVersionRules,
} from '../../policies/chart-review-records.js';
import { serialize } from '../../policies/rules.js';
import { chartReviewAudit, isUniqueViolation, personOrNull } from './route-kit.js';
import { loadSettings } from './settings.service.js';

/**
 * Audit tools and their versions (DOMAIN.md 2.2, 2.5; docs/chart-review.md "Server calls"). A tool is a question set;
 * its questions live in numbered versions. A draft changes freely; publishing makes it the version new reviews use
 * and retires the one before; a published version never changes (a change is a new version that starts as a copy),
 * and once an answer refers to a version (`frozen_at`) nothing in it changes at all. Every query filters on the
 * actor's project: another project's tool or version answers 404.
 */

type ToolRow = typeof crTools.$inferSelect;
type VersionRow = typeof crToolVersions.$inferSelect;
type QuestionRow = typeof crQuestions.$inferSelect;

export const TOOL_NOT_FOUND = 'Tool not found.';
export const VERSION_NOT_FOUND = 'Tool version not found.';
const NAME_TAKEN = 'A tool with this name exists.';
const DRAFT_EXISTS = 'This tool already has a draft.';
const NO_QUESTIONS = 'Add at least one question before publishing.';
const NOTE_NEEDED = 'Say what changed in this version.';
const PARTIAL_OFF = 'Partial answers are off in the chart review settings.';
const NA_REASON_NEEDS_NA = 'A reason for N/A can be required only when N/A is allowed.';
const duplicateKey = (key: string, position: number) => `The key "${key}" is already used by question ${position}.`;

/** A draft no answer refers to: the only kind of version whose questions may change. */
const isOpenDraft = (version: VersionRow) => version.status === 'draft' && version.frozenAt === null;

// ------------------------------------------------------------------------------------------------ loading

/** A tool of the project (locked for the transaction when `lock`), else 404. */
export async function loadTool(db: DbOrTx, projectId: number, toolId: number, lock = false): Promise<ToolRow> {
  return loadProjectRow(db, crTools, projectId, toolId, TOOL_NOT_FOUND, lock);
}

async function loadVersion(db: DbOrTx, projectId: number, versionId: number, lock = false): Promise<VersionRow> {
  return loadProjectRow(db, crToolVersions, projectId, versionId, VERSION_NOT_FOUND, lock);
}

/**
 * A version with its tool locked for the transaction: every change to a tool's versions takes the tool's lock first,
 * so two publications (or a publication and a new draft) of one tool run one after the other.
 */
async function lockVersion(tx: DbOrTx, projectId: number, versionId: number): Promise<VersionRow> {
  const { toolId } = await loadVersion(tx, projectId, versionId);
  await loadTool(tx, projectId, toolId, true);
  return loadVersion(tx, projectId, versionId, true);
}

// ------------------------------------------------------------------------------------------------ presenting

const publishers = alias(users, 'publisher');
// Written with the table's name: drizzle leaves column references unqualified in places, which inside these
// subqueries would name the inner table's columns.
const questionCount = sql<number>`(select count(*)::int from cr_questions q
  where q.project_id = cr_tool_versions.project_id and q.tool_version_id = cr_tool_versions.id)`;
const programCount = sql<number>`(select count(*)::int from cr_programs p
  where p.project_id = cr_tools.project_id and p.tool_id = cr_tools.id)`;

type VersionWithSummary = { row: VersionRow; summary: CrToolVersionSummary };

/** Version summaries of the project narrowed by `where`, per tool newest first. */
async function versionSummaries(db: DbOrTx, projectId: number, where?: SQL): Promise<VersionWithSummary[]> {
  const rows = await db
    .select({ version: crToolVersions, publisher: nameOf(publishers), questionCount })
    .from(crToolVersions)
    .leftJoin(publishers, eq(publishers.id, crToolVersions.publishedBy))
    .where(and(eq(crToolVersions.projectId, projectId), where))
    .orderBy(asc(crToolVersions.toolId), desc(crToolVersions.version));
  return rows.map(({ version, publisher, questionCount: count }) => ({
    row: version,
    summary: {
      id: version.id,
      version: version.version,
      status: version.status as CrVersionStatus,
      note: version.note,
      frozen: version.frozenAt !== null,
      published_at: version.publishedAt?.toISOString() ?? null,
      published_by: personOrNull(version.publishedBy, publisher),
      question_count: count,
    },
  }));
}

type ToolWithVersions = { projectId: number; summary: CrToolSummary; versions: CrToolVersionSummary[] };

/** Tools of the project (or one), tools in use first, then by name, each with its versions newest first. */
async function toolsWithVersions(db: DbOrTx, projectId: number, toolId?: number): Promise<ToolWithVersions[]> {
  const tools = await db
    .select({ tool: crTools, programCount })
    .from(crTools)
    .where(and(eq(crTools.projectId, projectId), toolId === undefined ? undefined : eq(crTools.id, toolId)))
    .orderBy(sql`${crTools.retiredAt} is not null`, sql`lower(${crTools.name})`, asc(crTools.id));
  const versions = await versionSummaries(
    db,
    projectId,
    toolId === undefined ? undefined : eq(crToolVersions.toolId, toolId),
  );
  return tools.map(({ tool, programCount: programs }) => {
    const own = versions.filter((v) => v.row.toolId === tool.id).map((v) => v.summary);
    return {
      projectId: tool.projectId,
      summary: {
        id: tool.id,
        name: tool.name,
        purpose: tool.purpose,
        retired: tool.retiredAt !== null,
        published: own.find((v) => v.status === 'published') ?? null,
        draft: own.find((v) => v.status === 'draft') ?? null,
        program_count: programs,
        updated_at: tool.updatedAt.toISOString(),
      },
      versions: own,
    };
  });
}

/** GET /tools: every tool of the project, retired ones included (flagged, listed last). */
export async function listTools(db: DbOrTx, actor: ChartReviewActor): Promise<CrToolList> {
  const tools = await toolsWithVersions(db, actor.projectId);
  return { tools: tools.map((t) => t.summary), abilities: { create: mayUse(actor, 'tools') } };
}

/** GET /tools/{id}: the tool with all its versions, newest first. */
export async function getTool(db: DbOrTx, actor: ChartReviewActor, toolId: number): Promise<CrTool> {
  const [tool] = await toolsWithVersions(db, actor.projectId, toolId);
  if (!tool) throw notFound(TOOL_NOT_FOUND);
  return { ...tool.summary, versions: tool.versions, abilities: serialize(toolRules, actor, tool) };
}

const presentQuestion = (row: QuestionRow): CrQuestion => ({
  id: row.id,
  position: row.position,
  key: row.key,
  section: row.section,
  text: row.text,
  help: row.help,
  answer_type: row.answerType as CrQuestion['answer_type'],
  weight: row.weight,
  critical: row.critical,
  na_allowed: row.naAllowed,
  na_reason_required: row.naReasonRequired,
  show_if: row.showIf,
});

async function questionsOf(db: DbOrTx, projectId: number, versionId: number): Promise<QuestionRow[]> {
  return db
    .select()
    .from(crQuestions)
    .where(and(eq(crQuestions.projectId, projectId), eq(crQuestions.toolVersionId, versionId)))
    .orderBy(asc(crQuestions.position), asc(crQuestions.id));
}

/** GET /tool-versions/{id}: the version with its tool and its questions in order. */
export async function getVersion(db: DbOrTx, actor: ChartReviewActor, versionId: number): Promise<CrToolVersion> {
  const [version] = await versionSummaries(db, actor.projectId, eq(crToolVersions.id, versionId));
  if (!version) throw notFound(VERSION_NOT_FOUND);
  const tool = await loadTool(db, actor.projectId, version.row.toolId);
  const questions = await questionsOf(db, actor.projectId, versionId);
  const facts = {
    projectId: version.row.projectId,
    status: version.summary.status,
    frozen: version.summary.frozen,
    version: version.row.version,
  };
  return {
    ...version.summary,
    tool: { id: tool.id, name: tool.name },
    questions: questions.map(presentQuestion),
    abilities: serialize(toolVersionRules, actor, facts),
  };
}

// ------------------------------------------------------------------------------------------------ tools

const nameTaken = () => new AppError('CONFLICT', NAME_TAKEN, { name: [NAME_TAKEN] });

/** Names are unique per project whatever their case (the unique index says the same). */
async function checkToolName(tx: DbOrTx, projectId: number, name: string, exceptId?: number): Promise<void> {
  const [taken] = await tx
    .select({ id: crTools.id })
    .from(crTools)
    .where(
      and(
        eq(crTools.projectId, projectId),
        sql`lower(${crTools.name}) = lower(${name})`,
        exceptId === undefined ? undefined : ne(crTools.id, exceptId),
      ),
    );
  if (taken) throw nameTaken();
}

/** A second request with the same name between our check and our write still meets the unique index. */
function rethrowNameViolation(error: unknown): never {
  if (isUniqueViolation(error, 'cr_tools_name_unique')) throw nameTaken();
  throw error;
}

/** POST /tools: the tool and its draft version 1, without questions. */
export async function createTool(
  db: Database,
  actor: ChartReviewActor,
  input: CrToolInput,
  now: Date,
): Promise<CrTool> {
  const toolId = await db
    .transaction(async (tx) => {
      await checkToolName(tx, actor.projectId, input.name);
      const [tool] = await tx
        .insert(crTools)
        .values({
          projectId: actor.projectId,
          name: input.name,
          purpose: input.purpose,
          createdBy: actor.userId,
          updatedBy: actor.userId,
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: crTools.id });
      const [version] = await tx
        .insert(crToolVersions)
        .values({ projectId: actor.projectId, toolId: tool!.id, version: 1, createdBy: actor.userId, createdAt: now })
        .returning({ id: crToolVersions.id });
      await chartReviewAudit(
        tx,
        actor,
        'tool_created',
        { type: 'cr_tool', id: tool!.id },
        {
          name: input.name,
          draft_version_id: version!.id,
        },
        now,
      );
      return tool!.id;
    })
    .catch(rethrowNameViolation);
  return getTool(db, actor, toolId);
}

/** PUT /tools/{id}: name, purpose, and retired (hidden from new programmes) or back in use. */
export async function updateTool(
  db: Database,
  actor: ChartReviewActor,
  toolId: number,
  input: CrToolUpdate,
  now: Date,
): Promise<CrTool> {
  await db
    .transaction(async (tx) => {
      const row = await loadTool(tx, actor.projectId, toolId, true);
      if (input.name !== row.name) await checkToolName(tx, actor.projectId, input.name, row.id);
      const retired = row.retiredAt !== null;
      const fields = (
        [
          ['name', input.name !== row.name],
          ['purpose', input.purpose !== row.purpose],
          ['retired', input.retired !== retired],
        ] as const
      )
        .filter(([, changed]) => changed)
        .map(([field]) => field);
      if (fields.length === 0) return;
      await tx
        .update(crTools)
        .set({
          name: input.name,
          purpose: input.purpose,
          // Retiring again keeps the first date.
          retiredAt: input.retired ? (row.retiredAt ?? now) : null,
          updatedAt: now,
          updatedBy: actor.userId,
        })
        .where(and(eq(crTools.projectId, actor.projectId), eq(crTools.id, toolId)));
      await chartReviewAudit(
        tx,
        actor,
        'tool_updated',
        { type: 'cr_tool', id: toolId },
        {
          fields,
          name: input.name,
          ...(fields.includes('retired') ? { retired: input.retired } : {}),
          changes: changes(
            { name: row.name, purpose: row.purpose, retired },
            { name: input.name, purpose: input.purpose, retired: input.retired },
          ),
        },
        now,
      );
    })
    .catch(rethrowNameViolation);
  return getTool(db, actor, toolId);
}

/** Marks the tool changed by the actor (a change to any of its versions). */
async function touchTool(tx: DbOrTx, actor: ChartReviewActor, toolId: number, now: Date): Promise<void> {
  await tx
    .update(crTools)
    .set({ updatedAt: now, updatedBy: actor.userId })
    .where(and(eq(crTools.projectId, actor.projectId), eq(crTools.id, toolId)));
}

// ------------------------------------------------------------------------------------------------ versions

/** POST /tools/{id}/versions: a new draft, a copy of the questions of the latest version (409 when a draft exists). */
export async function createVersion(
  db: Database,
  actor: ChartReviewActor,
  toolId: number,
  now: Date,
): Promise<CrToolVersion> {
  const versionId = await db.transaction(async (tx) => {
    await loadTool(tx, actor.projectId, toolId, true);
    const versions = await tx
      .select()
      .from(crToolVersions)
      .where(and(eq(crToolVersions.projectId, actor.projectId), eq(crToolVersions.toolId, toolId)))
      .orderBy(desc(crToolVersions.version));
    if (versions.some((v) => v.status === 'draft')) throw new AppError('CONFLICT', DRAFT_EXISTS);
    const latest = versions[0];
    const [created] = await tx
      .insert(crToolVersions)
      .values({
        projectId: actor.projectId,
        toolId,
        version: (latest?.version ?? 0) + 1,
        createdBy: actor.userId,
        createdAt: now,
      })
      .returning({ id: crToolVersions.id, version: crToolVersions.version });
    const questions = latest ? await questionsOf(tx, actor.projectId, latest.id) : [];
    if (questions.length > 0) {
      await tx.insert(crQuestions).values(
        questions.map(({ id: _id, toolVersionId: _from, ...question }) => ({
          ...question,
          toolVersionId: created!.id,
        })),
      );
    }
    await touchTool(tx, actor, toolId, now);
    await chartReviewAudit(
      tx,
      actor,
      'tool_version_created',
      { type: 'cr_tool_version', id: created!.id },
      { tool_id: toolId, version: created!.version, copied_from_version_id: latest?.id ?? null },
      now,
    );
    return created!.id;
  });
  return getVersion(db, actor, versionId);
}

/**
 * Field errors of a tool version's questions (keyed `questions.{i}.{field}`), all at once: keys unique, Partial only
 * while the settings allow it, a required N/A reason only with N/A allowed, and `show_if` a row-level expression
 * over the keys of EARLIER questions (a question can only depend on what the reviewer has already answered).
 */
export function questionErrors(
  questions: ReadonlyArray<CrQuestionInput>,
  options: { partialEnabled: boolean },
): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const earlier = new Map<string, number>();
  questions.forEach((question, i) => {
    const at = (field: string, message: string) => addFieldError(errors, `questions.${i}.${field}`, message);
    const first = earlier.get(question.key);
    if (first !== undefined) at('key', duplicateKey(question.key, first + 1));
    if (question.answer_type === 'yes_partial_no_na' && !options.partialEnabled) at('answer_type', PARTIAL_OFF);
    if (question.na_reason_required && !question.na_allowed) at('na_reason_required', NA_REASON_NEEDS_NA);
    if (question.show_if !== '') {
      const parsed = parseExpression(question.show_if, { columns: [...earlier.keys()], level: 'row' });
      if (!parsed.ok) at('show_if', parsed.errors[0]!.message);
    }
    if (first === undefined) earlier.set(question.key, i);
  });
  return errors;
}

function failIfAny(errors: Record<string, string[]>): void {
  const messages = Object.values(errors).flat();
  if (messages.length > 0) throw new AppError('VALIDATION_FAILED', messages[0]!, errors);
}

const inputOf = (row: QuestionRow): CrQuestionInput => {
  const { id: _id, position: _position, ...input } = presentQuestion(row);
  return input;
};

/** PUT /tool-versions/{id}/questions: replaces an open draft's questions; positions follow the array's order. */
export async function replaceQuestions(
  db: Database,
  actor: ChartReviewActor,
  versionId: number,
  questions: CrQuestionInput[],
  now: Date,
): Promise<CrToolVersion> {
  await db.transaction(async (tx) => {
    const version = await lockVersion(tx, actor.projectId, versionId);
    if (!isOpenDraft(version)) throw new AppError('CONFLICT', PUBLISHED_CANNOT_CHANGE);
    const settings = await loadSettings(tx, actor.projectId);
    failIfAny(questionErrors(questions, { partialEnabled: settings.partialEnabled }));
    await tx
      .delete(crQuestions)
      .where(and(eq(crQuestions.projectId, actor.projectId), eq(crQuestions.toolVersionId, versionId)));
    if (questions.length > 0) {
      await tx.insert(crQuestions).values(
        questions.map((q, i) => ({
          projectId: actor.projectId,
          toolVersionId: versionId,
          position: i + 1,
          key: q.key,
          section: q.section,
          text: q.text,
          help: q.help,
          answerType: q.answer_type,
          weight: q.weight,
          critical: q.critical,
          naAllowed: q.na_allowed,
          naReasonRequired: q.na_reason_required,
          showIf: q.show_if,
        })),
      );
    }
    await touchTool(tx, actor, version.toolId, now);
    await chartReviewAudit(
      tx,
      actor,
      'tool_questions_saved',
      { type: 'cr_tool_version', id: versionId },
      { tool_id: version.toolId, version: version.version, keys: questions.map((q) => q.key) },
      now,
    );
  });
  return getVersion(db, actor, versionId);
}

/**
 * POST /tool-versions/{id}/publish: an open draft with at least one question (checked again against the settings of
 * now) becomes the published version; the version published before it is retired. Every version after the first
 * says what changed.
 */
export async function publishVersion(
  db: Database,
  actor: ChartReviewActor,
  versionId: number,
  input: CrPublishInput,
  now: Date,
): Promise<CrToolVersion> {
  await db.transaction(async (tx) => {
    const version = await lockVersion(tx, actor.projectId, versionId);
    if (!isOpenDraft(version)) throw new AppError('CONFLICT', ONLY_DRAFT_PUBLISHES);
    const questions = await questionsOf(tx, actor.projectId, versionId);
    const settings = await loadSettings(tx, actor.projectId);
    const errors = questionErrors(questions.map(inputOf), { partialEnabled: settings.partialEnabled });
    if (questions.length === 0) addFieldError(errors, 'questions', NO_QUESTIONS);
    if (version.version > 1 && input.note === '') addFieldError(errors, 'note', NOTE_NEEDED);
    failIfAny(errors);
    const retired = await tx
      .update(crToolVersions)
      .set({ status: 'retired' })
      .where(
        and(
          eq(crToolVersions.projectId, actor.projectId),
          eq(crToolVersions.toolId, version.toolId),
          eq(crToolVersions.status, 'published'),
        ),
      )
      .returning({ id: crToolVersions.id });
    await tx
      .update(crToolVersions)
      .set({ status: 'published', note: input.note, publishedAt: now, publishedBy: actor.userId })
      .where(and(eq(crToolVersions.projectId, actor.projectId), eq(crToolVersions.id, versionId)));
    await touchTool(tx, actor, version.toolId, now);
    await chartReviewAudit(
      tx,
      actor,
      'tool_version_published',
      { type: 'cr_tool_version', id: versionId },
      {
        tool_id: version.toolId,
        version: version.version,
        note: input.note,
        retired_version_ids: retired.map((r) => r.id),
      },
      now,
    );
  });
  return getVersion(db, actor, versionId);
}

/** DELETE /tool-versions/{id}: discards an open draft after the first version (version 1 is the tool's start). */
export async function discardVersion(
  db: Database,
  actor: ChartReviewActor,
  versionId: number,
  now: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    const version = await lockVersion(tx, actor.projectId, versionId);
    if (!isOpenDraft(version)) throw new AppError('CONFLICT', ONLY_DRAFT_DISCARDED);
    if (version.version === 1) throw new AppError('CONFLICT', FIRST_VERSION);
    // The questions go with the version (on delete cascade).
    await tx
      .delete(crToolVersions)
      .where(and(eq(crToolVersions.projectId, actor.projectId), eq(crToolVersions.id, versionId)));
    await touchTool(tx, actor, version.toolId, now);
    await chartReviewAudit(
      tx,
      actor,
      'tool_version_discarded',
      { type: 'cr_tool_version', id: versionId },
      { tool_id: version.toolId, version: version.version },
      now,
    );
  });
}
