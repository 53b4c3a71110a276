import type { CrProgram, CrProgramInput, CrProgramList, SamplingPlan } from '@portal/shared';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database, DbOrTx } from '../../db/client.js';
import { nameOf } from '../../db/person-name.js';
import { loadProjectRow } from '../../db/project-row.js';
import { crPrograms, crTools, crToolVersions, monMeasures, users } from '../../db/schema/index.js';
import { changes } from '../../lib/audit-diff.js';
import { AppError, addFieldError, notFound } from '../../lib/errors.js';
import { type ChartReviewActor, mayUse } from '../../policies/chart-review.js';
import { programRules } from '../../policies/chart-review-records.js';
import { serialize } from '../../policies/rules.js';
import { visibleMeasures } from '../monitoring/visibility.js';
import { mayOwnPrograms } from './people.service.js';
import { chartReviewAudit, isUniqueViolation, personOrNull } from './route-kit.js';

/**
 * Programmes (DOMAIN.md 2.2 `cr_program`; docs/chart-review.md "Server calls"): a recurring audit of one tool, with
 * its units, period grain, sampling plan, due days, second-review share, target, owner and an optional monitoring
 * measure its compliance feeds. Everyone in chart review reads them; the programs section changes them. The defaults
 * of a new programme come from the client. Every query filters on the actor's project: another project's programme
 * answers 404, and another project's tool, version, person or measure in a body is refused like an unknown one.
 */

type ProgramRow = typeof crPrograms.$inferSelect;

export const PROGRAM_NOT_FOUND = 'Programme not found.';
const NAME_TAKEN = 'A programme with this name exists.';
const TOOL_NOT_IN_USE = 'Choose a tool that is in use.';
const VERSION_NOT_PUBLISHED = 'Choose a published version of this tool.';
const OWNER_ROLE = 'The owner must be a programme lead or chart review admin.';
const MEASURE_UNKNOWN = 'Choose a measure of this project.';

// ------------------------------------------------------------------------------------------------ presenting

const pinned = alias(crToolVersions, 'pinned');
const published = alias(crToolVersions, 'published');
const owners = alias(users, 'owner');

async function selectPrograms(db: DbOrTx, actor: ChartReviewActor, programId?: number): Promise<CrProgram[]> {
  const rows = await db
    .select({
      program: crPrograms,
      toolName: crTools.name,
      pinnedNumber: pinned.version,
      publishedId: published.id,
      publishedNumber: published.version,
      ownerName: nameOf(owners),
      measureId: monMeasures.id,
      measureName: monMeasures.name,
      measureVisible: sql<boolean>`${await visibleMeasures(db, actor)}`,
    })
    .from(crPrograms)
    .innerJoin(crTools, and(eq(crTools.projectId, crPrograms.projectId), eq(crTools.id, crPrograms.toolId)))
    .leftJoin(pinned, and(eq(pinned.projectId, crPrograms.projectId), eq(pinned.id, crPrograms.pinnedVersionId)))
    // Publishing retires the version before it: a tool has at most one published version.
    .leftJoin(
      published,
      and(
        eq(published.projectId, crPrograms.projectId),
        eq(published.toolId, crPrograms.toolId),
        eq(published.status, 'published'),
      ),
    )
    .leftJoin(owners, eq(owners.id, crPrograms.ownerId))
    .leftJoin(
      monMeasures,
      and(
        eq(monMeasures.projectId, crPrograms.projectId),
        eq(monMeasures.id, crPrograms.monMeasureId),
        isNull(monMeasures.deletedAt),
      ),
    )
    .where(
      and(
        eq(crPrograms.projectId, actor.projectId),
        programId === undefined ? undefined : eq(crPrograms.id, programId),
      ),
    )
    .orderBy(sql`lower(${crPrograms.name})`, asc(crPrograms.id));
  return rows.map(({ program, ...row }) => {
    const inUse =
      program.pinnedVersionId !== null && row.pinnedNumber !== null
        ? { id: program.pinnedVersionId, version: row.pinnedNumber }
        : row.publishedId !== null && row.publishedNumber !== null
          ? { id: row.publishedId, version: row.publishedNumber }
          : null;
    return {
      id: program.id,
      name: program.name,
      tool_id: program.toolId,
      pinned_version_id: program.pinnedVersionId,
      units: program.units,
      grain: program.grain as CrProgram['grain'],
      sampling: program.sampling as SamplingPlan,
      due_days: program.dueDays,
      irr_rate: program.irrRate,
      target: program.target,
      owner_id: program.ownerId,
      status: program.status as CrProgram['status'],
      // A deleted measure no longer receives anything: the programme shows no link, and saving it clears the link.
      mon_measure_id: row.measureId,
      tool: { id: program.toolId, name: row.toolName },
      version_in_use: inUse,
      owner: personOrNull(program.ownerId, row.ownerName),
      // Named only to those monitoring shows the measure to.
      measure:
        row.measureId === null || row.measureName === null || !row.measureVisible
          ? null
          : { id: row.measureId, name: row.measureName },
      updated_at: program.updatedAt.toISOString(),
      abilities: serialize(programRules, actor, program),
    };
  });
}

/** GET /programs: by name; `create` for those who may use the programs section. */
export async function listPrograms(db: DbOrTx, actor: ChartReviewActor): Promise<CrProgramList> {
  return { programs: await selectPrograms(db, actor), abilities: { create: mayUse(actor, 'programs') } };
}

/** GET /programs/{id}. */
export async function getProgram(db: DbOrTx, actor: ChartReviewActor, programId: number): Promise<CrProgram> {
  const [program] = await selectPrograms(db, actor, programId);
  if (!program) throw notFound(PROGRAM_NOT_FOUND);
  return program;
}

// ------------------------------------------------------------------------------------------------ checks

/** The project's programme, or 404; `lock` takes the row for update (one writer at a time). */
export async function loadProgram(db: DbOrTx, projectId: number, programId: number, lock = false): Promise<ProgramRow> {
  return loadProjectRow(db, crPrograms, projectId, programId, PROGRAM_NOT_FOUND, lock);
}

/**
 * Refuses, all at once, references the programme may not hold: a tool of another project or retired (a programme
 * that already runs a tool retired since keeps it, so it can still be paused or closed), a pinned version that is
 * not a published or retired version of that tool, an owner without a programme-owning role, a measure that is not
 * a live measure of the project.
 */
async function checkReferences(
  tx: DbOrTx,
  actor: ChartReviewActor,
  input: CrProgramInput,
  current?: ProgramRow,
): Promise<void> {
  const { projectId } = actor;
  const errors: Record<string, string[]> = {};
  const [tool] = await tx
    .select({ retiredAt: crTools.retiredAt })
    .from(crTools)
    .where(and(eq(crTools.projectId, projectId), eq(crTools.id, input.tool_id)));
  const keepsTool = current?.toolId === input.tool_id;
  if (!tool || (tool.retiredAt !== null && !keepsTool)) addFieldError(errors, 'tool_id', TOOL_NOT_IN_USE);
  if (tool && input.pinned_version_id !== null) {
    const [version] = await tx
      .select({ toolId: crToolVersions.toolId, status: crToolVersions.status })
      .from(crToolVersions)
      .where(and(eq(crToolVersions.projectId, projectId), eq(crToolVersions.id, input.pinned_version_id)));
    if (!version || version.toolId !== input.tool_id || version.status === 'draft') {
      addFieldError(errors, 'pinned_version_id', VERSION_NOT_PUBLISHED);
    }
  }
  if (input.owner_id !== null && !(await mayOwnPrograms(tx, projectId, input.owner_id))) {
    addFieldError(errors, 'owner_id', OWNER_ROLE);
  }
  if (input.mon_measure_id !== null) {
    const [measure] = await tx
      .select({ id: monMeasures.id })
      .from(monMeasures)
      .where(
        and(
          eq(monMeasures.projectId, projectId),
          eq(monMeasures.id, input.mon_measure_id),
          isNull(monMeasures.deletedAt),
          // A link someone else made to a measure this editor may not see is kept as it is, never named.
          current?.monMeasureId === input.mon_measure_id ? undefined : await visibleMeasures(tx, actor),
        ),
      );
    if (!measure) addFieldError(errors, 'mon_measure_id', MEASURE_UNKNOWN);
  }
  const first = Object.values(errors).flat()[0];
  if (first) throw new AppError('VALIDATION_FAILED', first, errors);
}

const nameTaken = () => new AppError('CONFLICT', NAME_TAKEN, { name: [NAME_TAKEN] });

async function checkProgramName(tx: DbOrTx, projectId: number, name: string, exceptId?: number): Promise<void> {
  const [taken] = await tx
    .select({ id: crPrograms.id })
    .from(crPrograms)
    .where(and(eq(crPrograms.projectId, projectId), sql`lower(${crPrograms.name}) = lower(${name})`));
  if (taken && taken.id !== exceptId) throw nameTaken();
}

/** A second request with the same name between our check and our write still meets the unique index. */
function rethrowNameViolation(error: unknown): never {
  if (isUniqueViolation(error, 'cr_programs_name_unique')) throw nameTaken();
  throw error;
}

/** Units without repeats whatever their case; the first spelling stays. */
export function uniqueUnits(units: readonly string[]): string[] {
  const seen = new Set<string>();
  return units.filter((unit) => {
    const key = unit.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The columns of a programme from its input. */
function columnsOf(input: CrProgramInput) {
  return {
    name: input.name,
    toolId: input.tool_id,
    pinnedVersionId: input.pinned_version_id,
    units: uniqueUnits(input.units),
    grain: input.grain,
    sampling: input.sampling,
    dueDays: input.due_days,
    irrRate: input.irr_rate,
    target: input.target,
    ownerId: input.owner_id,
    status: input.status,
    monMeasureId: input.mon_measure_id,
  };
}
type ProgramColumns = ReturnType<typeof columnsOf>;

/** JSON with object keys sorted: jsonb does not keep the key order a plan was written in. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}

// ------------------------------------------------------------------------------------------------ changes

/** POST /programs. */
export async function createProgram(
  db: Database,
  actor: ChartReviewActor,
  input: CrProgramInput,
  now: Date,
): Promise<CrProgram> {
  const programId = await db
    .transaction(async (tx) => {
      await checkReferences(tx, actor, input);
      await checkProgramName(tx, actor.projectId, input.name);
      const [row] = await tx
        .insert(crPrograms)
        .values({
          projectId: actor.projectId,
          ...columnsOf(input),
          createdBy: actor.userId,
          updatedBy: actor.userId,
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: crPrograms.id });
      await chartReviewAudit(
        tx,
        actor,
        'program_created',
        { type: 'cr_program', id: row!.id },
        {
          name: input.name,
          tool_id: input.tool_id,
        },
        now,
      );
      return row!.id;
    })
    .catch(rethrowNameViolation);
  return getProgram(db, actor, programId);
}

const FIELD_NAMES: Record<keyof ProgramColumns, keyof CrProgramInput> = {
  name: 'name',
  toolId: 'tool_id',
  pinnedVersionId: 'pinned_version_id',
  units: 'units',
  grain: 'grain',
  sampling: 'sampling',
  dueDays: 'due_days',
  irrRate: 'irr_rate',
  target: 'target',
  ownerId: 'owner_id',
  status: 'status',
  monMeasureId: 'mon_measure_id',
};

/** PUT /programs/{id}: replaces every field; the audit event names the changed fields. */
export async function updateProgram(
  db: Database,
  actor: ChartReviewActor,
  programId: number,
  input: CrProgramInput,
  now: Date,
): Promise<CrProgram> {
  await db
    .transaction(async (tx) => {
      const row = await loadProgram(tx, actor.projectId, programId, true);
      await checkReferences(tx, actor, input, row);
      if (input.name !== row.name) await checkProgramName(tx, actor.projectId, input.name, row.id);
      const next = columnsOf(input);
      const fields = (Object.keys(FIELD_NAMES) as (keyof ProgramColumns)[])
        .filter((column) => canonical(next[column]) !== canonical(row[column]))
        .map((column) => FIELD_NAMES[column]);
      if (fields.length === 0) return;
      await tx
        .update(crPrograms)
        .set({ ...next, updatedAt: now, updatedBy: actor.userId })
        .where(and(eq(crPrograms.projectId, actor.projectId), eq(crPrograms.id, programId)));
      await chartReviewAudit(
        tx,
        actor,
        'program_updated',
        { type: 'cr_program', id: programId },
        {
          fields,
          name: input.name,
          ...(fields.includes('status') ? { status: input.status } : {}),
          changes: changes(
            Object.fromEntries(
              (Object.keys(FIELD_NAMES) as (keyof ProgramColumns)[]).map((c) => [FIELD_NAMES[c], row[c]]),
            ),
            Object.fromEntries(
              (Object.keys(FIELD_NAMES) as (keyof ProgramColumns)[]).map((c) => [FIELD_NAMES[c], next[c]]),
            ),
            { fields },
          ),
        },
        now,
      );
    })
    .catch(rethrowNameViolation);
  return getProgram(db, actor, programId);
}
