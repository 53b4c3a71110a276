import {
  type AstronomicalPointCriterion,
  type FormulaVersion,
  type IhiRunsTest,
  type ImprovementDirection,
  type Measure,
  type MeasureDefinition,
  type MeasureDetail,
  type MeasureType,
  type MeasureUpdate,
  type measureCreateSchema,
  measureDefinitionSchema,
  measureUsesDenominator,
  type PeriodGrain,
  periodLabel,
  periodStart,
  type SpcChart,
  type SpcRuleSet,
  STALE_MEASURE_MESSAGE,
} from '@portal/shared';
import { and, asc, desc, eq, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { Database, DbOrTx } from '../../db/client.js';
import { nameOf } from '../../db/person-name.js';
import {
  monCharts,
  monDatasets,
  monFormulaVersions,
  monMeasures,
  monPages,
  monPhases,
  monSeries,
  users,
} from '../../db/schema/index.js';
import { subjectAudit } from '../../lib/audit.js';
import { changes } from '../../lib/audit-diff.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { MonitoringActor } from '../../policies/monitoring.js';
import { type PageFacts, pageRules } from '../../policies/monitoring-records.js';
import { authorize, can } from '../../policies/rules.js';
import {
  checkFormulas,
  type DatasetInfo,
  definitionHash,
  FORMULA_FIELDS,
  FORMULAS_NEED_DATASET,
  type FormulaCheck,
  formulaFailure,
  loadDataset,
} from './formulas.service.js';
import { pageFacts } from './page-access.js';
import { ensureLevels } from './pages.service.js';
import { loadMeasureExtras, type MeasureExtras } from './series.service.js';

/**
 * Measures of pages (issue 9; DOMAIN.md 1.1, 1.7): what is counted (formulas over a dataset of the project), how it
 * is read and its operational definition. Everyone who sees a page reads its measures; those who may edit the page
 * and use the formula builder change them. A measure of a hidden page answers 404 like a missing one. A changed
 * dataset or formula records a formula version (and may start a phase): a definition never silently rewrites history.
 */

export type MeasureRow = typeof monMeasures.$inferSelect;
export type MeasureCreateInput = z.output<typeof measureCreateSchema>;

export const MEASURE_NOT_FOUND = 'Measure not found.';
const CHART_NEEDS_DENOMINATOR =
  'P and U charts need a numerator and a denominator: choose a run, I, C, G or T chart for this type of measure.';
const PHASE_WITHOUT_CHANGE =
  'A definition phase starts only with a changed dataset or formula. To mark another change, add a phase instead.';

const creators = alias(users, 'formula_author');

/** May add and change measures on a page: the formula-builder section and edit access to the page. */

/** Measures go only on pages whose level allows them (Page levels, "may hold measures"). */
async function assertLevelHoldsMeasures(db: DbOrTx, projectId: number, pageId: number): Promise<void> {
  const [page] = await db
    .select({ depth: monPages.depth })
    .from(monPages)
    .where(and(eq(monPages.projectId, projectId), eq(monPages.id, pageId)));
  const level = (await ensureLevels(db, projectId)).find((l) => l.depth === page?.depth);
  if (level && !level.mayHoldMeasures) {
    const message = `Pages at the level "${level.name}" do not hold measures. A monitoring admin can allow it in Page levels.`;
    throw new AppError('VALIDATION_FAILED', message, { page_id: [message] });
  }
}

const liveMeasure = (projectId: number, measureId: number) =>
  and(eq(monMeasures.projectId, projectId), eq(monMeasures.id, measureId), isNull(monMeasures.deletedAt));

/**
 * A live measure of the actor's project on a page they see (404 otherwise). With `edit`, 403 unless they may change
 * it; with `lock`, the row is locked for the rest of the transaction (changes to a measure and its parts queue up).
 */
export async function measureAccess(
  db: DbOrTx,
  actor: MonitoringActor,
  measureId: number,
  options: { edit?: boolean; lock?: boolean } = {},
): Promise<{ row: MeasureRow; page: PageFacts }> {
  const query = db.select().from(monMeasures).where(liveMeasure(actor.projectId, measureId));
  const [row] = options.lock ? await query.for('update') : await query;
  if (!row) throw notFound(MEASURE_NOT_FOUND);
  const page = await pageFacts(db, actor, row.pageId, MEASURE_NOT_FOUND);
  if (options.edit) authorize(pageRules, 'edit_measures', actor, page);
  return { row, page };
}

/** Records a measure change (`monitoring.<action>`, subject `mon_measure`) in the transaction of the change. */
export const auditMeasure = subjectAudit('monitoring', 'mon_measure');

// ---------------------------------------------------------------------------------------------------------------
// Presenting.

function present(row: MeasureRow, datasetName: string | null, parts: MeasureExtras): Measure {
  return {
    id: row.id,
    page_id: row.pageId,
    name: row.name,
    type: row.type as MeasureType,
    dataset: row.datasetId !== null && datasetName !== null ? { id: row.datasetId, name: datasetName } : null,
    numerator: row.numerator,
    denominator: row.denominator,
    value_expr: row.valueExpr,
    multiplier: row.multiplier,
    unit_label: row.unitLabel,
    direction: row.direction as ImprovementDirection,
    grain: row.grain as PeriodGrain,
    strata_keys: row.strataKeys,
    // Stored definitions are complete objects; parsing fills any field added later with its default.
    definition: measureDefinitionSchema.parse(row.definition ?? {}),
    chart_default: row.chartDefault as SpcChart,
    rule_profile: row.ruleProfile as SpcRuleSet,
    ihi_runs_test: row.ihiRunsTest as IhiRunsTest,
    astronomical_point: row.astronomicalPoint as AstronomicalPointCriterion,
    baseline_from: row.baselineFrom,
    baseline_to: row.baselineTo,
    formula_version: row.formulaVersion,
    formula_hash: row.formulaHash,
    version: row.version,
    ...parts,
    updated_at: row.updatedAt.toISOString(),
  };
}

/** GET /pages/{pageId}/measures: the page's measures by position, and whether the actor may change them. */
export async function listMeasures(
  db: DbOrTx,
  actor: MonitoringActor,
  pageId: number,
): Promise<{ measures: Measure[]; abilities: { edit: boolean } }> {
  const page = await pageFacts(db, actor, pageId);
  const rows = await db
    .select({ measure: monMeasures, datasetName: monDatasets.name })
    .from(monMeasures)
    .leftJoin(monDatasets, and(eq(monDatasets.id, monMeasures.datasetId), eq(monDatasets.projectId, actor.projectId)))
    .where(
      and(eq(monMeasures.projectId, actor.projectId), eq(monMeasures.pageId, pageId), isNull(monMeasures.deletedAt)),
    )
    .orderBy(asc(monMeasures.position), asc(monMeasures.id));
  const parts = await loadMeasureExtras(
    db,
    actor.projectId,
    rows.map((r) => r.measure.id),
  );
  return {
    measures: rows.map((r) => present(r.measure, r.datasetName, parts.get(r.measure.id)!)),
    abilities: { edit: can(pageRules, 'edit_measures', actor, page) },
  };
}

/** GET /measures/{measureId}: the measure with its page and the actor's abilities. */
export async function getMeasure(db: DbOrTx, actor: MonitoringActor, measureId: number): Promise<MeasureDetail> {
  const { page } = await measureAccess(db, actor, measureId);
  const [entry] = await db
    .select({
      measure: monMeasures,
      datasetName: monDatasets.name,
      page: { id: monPages.id, number: monPages.number, title: monPages.title },
    })
    .from(monMeasures)
    .innerJoin(monPages, and(eq(monPages.id, monMeasures.pageId), eq(monPages.projectId, monMeasures.projectId)))
    .leftJoin(monDatasets, and(eq(monDatasets.id, monMeasures.datasetId), eq(monDatasets.projectId, actor.projectId)))
    .where(liveMeasure(actor.projectId, measureId));
  if (!entry) throw notFound(MEASURE_NOT_FOUND);
  const parts = await loadMeasureExtras(db, actor.projectId, [measureId]);
  return {
    ...present(entry.measure, entry.datasetName, parts.get(measureId)!),
    page: entry.page,
    abilities: { edit: can(pageRules, 'edit_measures', actor, page) },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Checking a definition.

interface Definition {
  type: MeasureType;
  dataset_id: number | null;
  numerator: string;
  denominator: string;
  value_expr: string;
  strata_keys: string[];
  chart_default: SpcChart;
  baseline_from: string | null;
  baseline_to: string | null;
}

const RATIO_CHARTS: ReadonlySet<SpcChart> = new Set(['p', 'pprime', 'u', 'uprime']);

/**
 * Checks a whole definition as it would be saved: the dataset is a live one of the project (404 otherwise), the
 * formulas check against its columns, strata are its columns, the chart fits the type and the baseline is in order.
 * Everything wrong is answered at once (400).
 */
async function checkDefinition(
  db: DbOrTx,
  actor: MonitoringActor,
  next: Definition,
): Promise<{ dataset: DatasetInfo | null; check: FormulaCheck | null }> {
  const extra: Record<string, string[]> = {};
  let dataset: DatasetInfo | null = null;
  let check: FormulaCheck | null = null;
  if (next.dataset_id !== null) {
    dataset = await loadDataset(db, actor.projectId, next.dataset_id);
    check = checkFormulas(next.type, next, dataset.columns);
    const keys = new Set(dataset.columns.map((column) => column.key));
    const unknown = next.strata_keys.filter((key) => !keys.has(key));
    if (unknown.length > 0)
      extra.strata_keys = [`Strata are columns of the dataset; '${unknown[0]}' is not one of its columns.`];
  } else {
    if (FORMULA_FIELDS.some((field) => next[field].trim() !== '')) extra.dataset_id = [FORMULAS_NEED_DATASET];
    if (next.strata_keys.length > 0) extra.strata_keys = ['Choose the dataset whose columns the strata are.'];
  }
  if (new Set(next.strata_keys).size !== next.strata_keys.length)
    extra.strata_keys = ['Each stratum column is listed once.'];
  if (RATIO_CHARTS.has(next.chart_default) && !measureUsesDenominator(next.type))
    extra.chart_default = [CHART_NEEDS_DENOMINATOR];
  if ((next.baseline_from === null) !== (next.baseline_to === null))
    extra.baseline_to = ['Enter both the first and the last day of the baseline, or neither.'];
  else if (next.baseline_from !== null && next.baseline_to !== null && next.baseline_from > next.baseline_to)
    extra.baseline_to = ['The baseline ends on or after the day it starts.'];
  const formulaErrors = check?.errors ?? {};
  if (Object.keys(formulaErrors).length > 0 || Object.keys(extra).length > 0)
    throw formulaFailure(formulaErrors, extra);
  return { dataset, check };
}

async function recordFormulaVersion(
  tx: DbOrTx,
  actor: MonitoringActor,
  measureId: number,
  version: number,
  def: Definition,
  check: FormulaCheck | null,
  hash: string,
  note: string,
  phaseStart: string | null,
  now: Date,
): Promise<void> {
  await tx.insert(monFormulaVersions).values({
    projectId: actor.projectId,
    measureId,
    version,
    datasetId: def.dataset_id,
    numerator: def.numerator,
    denominator: def.denominator,
    valueExpr: def.value_expr,
    hash,
    columns: check?.columns ?? [],
    note,
    phaseStart,
    createdBy: actor.userId,
    createdAt: now,
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Changes.

/** POST /pages/{pageId}/measures: a new measure at the end of the page (formula version 1 when it reads data). */
export async function createMeasure(
  db: Database,
  actor: MonitoringActor,
  pageId: number,
  input: MeasureCreateInput,
  now: Date,
): Promise<MeasureDetail> {
  const id = await db.transaction(async (tx) => {
    authorize(pageRules, 'edit_measures', actor, await pageFacts(tx, actor, pageId));
    await assertLevelHoldsMeasures(tx, actor.projectId, pageId);
    const { dataset, check } = await checkDefinition(tx, actor, input);
    const hash = dataset ? definitionHash(dataset.id, input.type, check) : null;
    const [{ next } = { next: 0 }] = await tx
      .select({ next: sql<number>`coalesce(max(${monMeasures.position}) + 1, 0)::int` })
      .from(monMeasures)
      .where(
        and(eq(monMeasures.projectId, actor.projectId), eq(monMeasures.pageId, pageId), isNull(monMeasures.deletedAt)),
      );
    const [row] = await tx
      .insert(monMeasures)
      .values({
        projectId: actor.projectId,
        pageId,
        datasetId: input.dataset_id,
        name: input.name,
        type: input.type,
        numerator: input.numerator,
        denominator: input.denominator,
        valueExpr: input.value_expr,
        multiplier: input.multiplier,
        unitLabel: input.unit_label,
        direction: input.direction,
        grain: input.grain,
        strataKeys: input.strata_keys,
        definition: input.definition,
        chartDefault: input.chart_default,
        ruleProfile: input.rule_profile,
        ihiRunsTest: input.ihi_runs_test,
        astronomicalPoint: input.astronomical_point,
        baselineFrom: input.baseline_from,
        baselineTo: input.baseline_to,
        formulaVersion: hash ? 1 : 0,
        formulaHash: hash,
        position: next,
        createdAt: now,
        createdBy: actor.userId,
        updatedAt: now,
        updatedBy: actor.userId,
      })
      .returning();
    if (hash) await recordFormulaVersion(tx, actor, row!.id, 1, input, check, hash, '', null, now);
    await auditMeasure(
      tx,
      actor,
      'measure_created',
      row!.id,
      {
        page_id: pageId,
        name: row!.name,
        type: row!.type,
        dataset_id: row!.datasetId,
        formula_version: row!.formulaVersion,
      },
      now,
    );
    return row!.id;
  });
  return getMeasure(db, actor, id);
}

const UPDATABLE = [
  'name',
  'type',
  'dataset_id',
  'numerator',
  'denominator',
  'value_expr',
  'multiplier',
  'unit_label',
  'direction',
  'grain',
  'strata_keys',
  'definition',
  'chart_default',
  'rule_profile',
  'ihi_runs_test',
  'astronomical_point',
  'baseline_from',
  'baseline_to',
] as const;
type Updatable = (typeof UPDATABLE)[number];

function stateOf(row: MeasureRow): Record<Updatable, unknown> & Definition {
  return {
    name: row.name,
    type: row.type as MeasureType,
    dataset_id: row.datasetId,
    numerator: row.numerator,
    denominator: row.denominator,
    value_expr: row.valueExpr,
    multiplier: row.multiplier,
    unit_label: row.unitLabel,
    direction: row.direction,
    grain: row.grain,
    strata_keys: row.strataKeys,
    definition: measureDefinitionSchema.parse(row.definition ?? {}),
    chart_default: row.chartDefault as SpcChart,
    rule_profile: row.ruleProfile,
    ihi_runs_test: row.ihiRunsTest,
    astronomical_point: row.astronomicalPoint,
    baseline_from: row.baselineFrom,
    baseline_to: row.baselineTo,
  };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * PUT /measures/{measureId}: the fields given, if the edit started from the current version (409 otherwise). A new
 * dataset, a changed formula or a type that reads other formulas records the next formula version; `phase_start`
 * then also starts a phase ("Definition changed") at that period. Earlier versions and phases stay as they were.
 */
export async function updateMeasure(
  db: Database,
  actor: MonitoringActor,
  measureId: number,
  input: MeasureUpdate,
  now: Date,
): Promise<MeasureDetail> {
  await db.transaction(async (tx) => {
    const { row } = await measureAccess(tx, actor, measureId, { edit: true, lock: true });
    if (row.version !== input.version) {
      const error = new AppError('CONFLICT', STALE_MEASURE_MESSAGE, { version: [String(row.version)] });
      error.details = { current_version: row.version };
      throw error;
    }
    const before = stateOf(row);
    const next = { ...before } as typeof before;
    for (const field of UPDATABLE)
      if (input[field] !== undefined) (next as Record<string, unknown>)[field] = input[field];
    const changed = UPDATABLE.filter((field) => !same(before[field], next[field]));
    const definitionChanged =
      next.dataset_id !== before.dataset_id ||
      FORMULA_FIELDS.some((field) => next[field] !== before[field]) ||
      measureUsesDenominator(next.type) !== measureUsesDenominator(before.type);
    const phaseStart = input.phase_start ? periodStart(input.phase_start, next.grain as PeriodGrain) : null;
    if (phaseStart && !definitionChanged)
      throw new AppError('VALIDATION_FAILED', PHASE_WITHOUT_CHANGE, { phase_start: [PHASE_WITHOUT_CHANGE] });
    if (changed.length === 0) return;
    const { dataset, check } = await checkDefinition(tx, actor, next);
    const formulaVersion = definitionChanged ? row.formulaVersion + 1 : row.formulaVersion;
    const hash = definitionChanged ? (dataset ? definitionHash(dataset.id, next.type, check) : null) : row.formulaHash;
    await tx
      .update(monMeasures)
      .set({
        name: next.name as string,
        type: next.type,
        datasetId: next.dataset_id,
        numerator: next.numerator,
        denominator: next.denominator,
        valueExpr: next.value_expr,
        multiplier: next.multiplier as number,
        unitLabel: next.unit_label as string,
        direction: next.direction as string,
        grain: next.grain as string,
        strataKeys: next.strata_keys,
        definition: next.definition as MeasureDefinition,
        chartDefault: next.chart_default,
        ruleProfile: next.rule_profile as string,
        ihiRunsTest: next.ihi_runs_test as string,
        astronomicalPoint: next.astronomical_point as string,
        baselineFrom: next.baseline_from,
        baselineTo: next.baseline_to,
        formulaVersion,
        formulaHash: hash,
        version: row.version + 1,
        updatedAt: now,
        updatedBy: actor.userId,
      })
      .where(liveMeasure(actor.projectId, measureId));
    if (definitionChanged) {
      await recordFormulaVersion(
        tx,
        actor,
        measureId,
        formulaVersion,
        next,
        check,
        // A version without a dataset still gets a hash, so the history can tell definitions apart.
        hash ?? definitionHash(null, next.type, null),
        input.formula_note ?? '',
        phaseStart,
        now,
      );
      if (phaseStart)
        await startDefinitionPhase(tx, actor, measureId, phaseStart, next.grain as PeriodGrain, formulaVersion, now);
    }
    await auditMeasure(
      tx,
      actor,
      'measure_updated',
      measureId,
      {
        page_id: row.pageId,
        fields: changed,
        version: row.version + 1,
        ...(definitionChanged ? { formula_version: formulaVersion, phase_start: phaseStart } : {}),
        // Long text (definitions, notes) shortened to its first 200 characters (lib/audit-diff.ts).
        changes: changes(before, next, { fields: changed }),
      },
      now,
    );
  });
  return getMeasure(db, actor, measureId);
}

/** 409 when a phase already starts in the period (one phase per period and measure). */
export async function refuseTakenPhase(
  tx: DbOrTx,
  actor: MonitoringActor,
  measureId: number,
  start: string,
  grain: PeriodGrain,
): Promise<void> {
  const [taken] = await tx
    .select({ id: monPhases.id, label: monPhases.label })
    .from(monPhases)
    .where(
      and(
        eq(monPhases.projectId, actor.projectId),
        eq(monPhases.measureId, measureId),
        eq(monPhases.startPeriod, start),
      ),
    );
  if (taken)
    throw new AppError(
      'CONFLICT',
      `A phase already starts in ${periodLabel(start, grain)} ("${taken.label}"). Choose another period or remove that phase first.`,
      { start_period: [`A phase already starts in ${periodLabel(start, grain)}.`] },
    );
}

async function startDefinitionPhase(
  tx: DbOrTx,
  actor: MonitoringActor,
  measureId: number,
  start: string,
  grain: PeriodGrain,
  formulaVersion: number,
  now: Date,
): Promise<void> {
  await refuseTakenPhase(tx, actor, measureId, start, grain);
  await tx.insert(monPhases).values({
    projectId: actor.projectId,
    measureId,
    startPeriod: start,
    label: `Definition changed (version ${formulaVersion})`,
    reason: 'definition_change',
    createdBy: actor.userId,
    createdAt: now,
  });
}

/** DELETE /measures/{measureId}: a soft delete; its charts go with it (and its cached series). */
export async function deleteMeasure(db: Database, actor: MonitoringActor, measureId: number, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    const { row } = await measureAccess(tx, actor, measureId, { edit: true, lock: true });
    const charts = await tx
      .delete(monCharts)
      .where(and(eq(monCharts.projectId, actor.projectId), eq(monCharts.measureId, measureId)))
      .returning({ id: monCharts.id });
    await tx.delete(monSeries).where(and(eq(monSeries.projectId, actor.projectId), eq(monSeries.measureId, measureId)));
    await tx
      .update(monMeasures)
      .set({ deletedAt: now, updatedBy: actor.userId })
      .where(liveMeasure(actor.projectId, measureId));
    await auditMeasure(
      tx,
      actor,
      'measure_deleted',
      measureId,
      {
        page_id: row.pageId,
        name: row.name,
        charts_removed: charts.map((chart) => chart.id),
      },
      now,
    );
  });
}

/** GET /measures/{measureId}/formula-versions: every definition the measure has had, newest first. */
export async function formulaVersions(
  db: DbOrTx,
  actor: MonitoringActor,
  measureId: number,
): Promise<FormulaVersion[]> {
  await measureAccess(db, actor, measureId);
  const rows = await db
    .select({
      version: monFormulaVersions,
      datasetName: monDatasets.name,
      creatorName: nameOf(creators),
    })
    .from(monFormulaVersions)
    .leftJoin(
      monDatasets,
      and(eq(monDatasets.id, monFormulaVersions.datasetId), eq(monDatasets.projectId, actor.projectId)),
    )
    .leftJoin(creators, eq(creators.id, monFormulaVersions.createdBy))
    .where(and(eq(monFormulaVersions.projectId, actor.projectId), eq(monFormulaVersions.measureId, measureId)))
    .orderBy(desc(monFormulaVersions.version));
  return rows.map(({ version: v, datasetName, creatorName }) => ({
    version: v.version,
    dataset: v.datasetId !== null && datasetName !== null ? { id: v.datasetId, name: datasetName } : null,
    numerator: v.numerator,
    denominator: v.denominator,
    value_expr: v.valueExpr,
    hash: v.hash,
    note: v.note,
    phase_start: v.phaseStart,
    created_at: v.createdAt.toISOString(),
    created_by: v.createdBy !== null && creatorName !== null ? { id: v.createdBy, name: creatorName } : null,
  }));
}
