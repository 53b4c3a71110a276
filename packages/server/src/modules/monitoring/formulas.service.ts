import {
  type DatasetColumn,
  type ExpressionError,
  type ExpressionNode,
  explainExpression,
  expressionHash,
  type FormulaValidation,
  fnv1a64,
  type formulaPreviewSchema,
  type formulaValidateSchema,
  type MeasureType,
  measureUsesDenominator,
  parseExpression,
  recommendedChart,
  type Series,
} from '@portal/shared';
import { and, eq, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client.js';
import { monDatasets } from '../../db/schema/index.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { MonitoringActor } from '../../policies/monitoring.js';
import { evaluateMeasurePeriods } from './measure-values.js';
import { buildSeries, EMPTY_REASONS } from './series.build.js';

/**
 * The formula builder (issue 9; DOMAIN.md 1.3): formulas are checked against the columns of a dataset of the
 * actor's project with the shared parser (errors point at characters), explained in words and previewed on the
 * current rows. Measures use the same checks when they are saved.
 */

export const FORMULA_FIELDS = ['numerator', 'denominator', 'value_expr'] as const;
export type FormulaField = (typeof FORMULA_FIELDS)[number];
export type FormulaTexts = Record<FormulaField, string>;

const FIELD_NAMES: Record<FormulaField, string> = {
  numerator: 'numerator',
  denominator: 'denominator',
  value_expr: 'value',
};

export const DATASET_NOT_FOUND = 'Dataset not found.';
export const FORMULAS_NEED_DATASET = 'Choose the dataset the formulas read.';

export interface DatasetInfo {
  id: number;
  name: string;
  columns: DatasetColumn[];
  version: number;
}

/** A live dataset of the actor's project (404 otherwise: another project's dataset is answered like a missing one). */
export async function loadDataset(db: DbOrTx, projectId: number, datasetId: number): Promise<DatasetInfo> {
  const [row] = await db
    .select({ id: monDatasets.id, name: monDatasets.name, columns: monDatasets.columns, version: monDatasets.version })
    .from(monDatasets)
    .where(and(eq(monDatasets.id, datasetId), eq(monDatasets.projectId, projectId), isNull(monDatasets.deletedAt)));
  if (!row) throw notFound(DATASET_NOT_FOUND);
  return { ...row, columns: row.columns as DatasetColumn[] };
}

/** The formulas a measure type reads: numerator and denominator, or the value. */
export const fieldsOf = (type: MeasureType): FormulaField[] =>
  measureUsesDenominator(type) ? ['numerator', 'denominator'] : ['value_expr'];

export interface FormulaCheck {
  errors: Partial<Record<FormulaField, ExpressionError[]>>;
  /** Parsed formulas the type reads (complete only when there are no errors). */
  asts: Partial<Record<FormulaField, ExpressionNode>>;
  /** Column keys the formulas the type reads refer to. */
  columns: string[];
}

/**
 * Checks every formula given (period level, against the dataset's columns); the ones the type reads are required.
 * An unused formula that is given is still checked, so nothing invalid is ever stored.
 */
export function checkFormulas(type: MeasureType, texts: FormulaTexts, columns: readonly DatasetColumn[]): FormulaCheck {
  const keys = columns.map((column) => column.key);
  const used = fieldsOf(type);
  const check: FormulaCheck = { errors: {}, asts: {}, columns: [] };
  for (const field of FORMULA_FIELDS) {
    const text = texts[field];
    if (text.trim() === '') {
      if (used.includes(field))
        check.errors[field] = [{ start: 0, end: 0, message: `Enter the ${FIELD_NAMES[field]}.` }];
      continue;
    }
    const parsed = parseExpression(text, { columns: keys, level: 'period' });
    if (!parsed.ok) {
      check.errors[field] = parsed.errors;
      continue;
    }
    if (!used.includes(field)) continue;
    check.asts[field] = parsed.ast;
    for (const column of parsed.columns) if (!check.columns.includes(column)) check.columns.push(column);
  }
  return check;
}

export const hasErrors = (check: FormulaCheck) => Object.keys(check.errors).length > 0;

/** The 400 of formulas that do not check: `errors` in words per field, `details.formulas` with the positions. */
export function formulaFailure(errors: FormulaCheck['errors'], extra: Record<string, string[]> = {}): AppError {
  const messages: Record<string, string[]> = { ...extra };
  for (const field of FORMULA_FIELDS) {
    const list = errors[field];
    if (list) messages[field] = list.map((error) => error.message);
  }
  const first = FORMULA_FIELDS.find((field) => errors[field]);
  const message = first
    ? `The ${FIELD_NAMES[first]} has an error: ${errors[first]![0]!.message}`
    : (Object.values(extra)[0]?.[0] ?? 'The given data was invalid.');
  const error = new AppError('VALIDATION_FAILED', message, messages);
  error.details = { formulas: errors };
  return error;
}

/**
 * The hash of a definition: the dataset and the parsed formulas the type reads (expressionHash of each AST), so
 * layout changes of the text do not count and cached series know when the definition changed.
 */
export function definitionHash(datasetId: number | null, type: MeasureType, check: FormulaCheck | null): string {
  const parts: Record<string, string | number | null> = { dataset: datasetId };
  for (const field of fieldsOf(type)) {
    const parsed = check?.asts[field];
    parts[field] = parsed ? expressionHash(parsed) : null;
  }
  return fnv1a64(JSON.stringify(parts));
}

const labelsOf = (columns: readonly DatasetColumn[]) =>
  Object.fromEntries(columns.map((column) => [column.key, column.label]));

/** POST /formulas/validate: one expression, its errors with positions, the columns it reads, words and a preview. */
export async function validateFormula(
  db: DbOrTx,
  actor: MonitoringActor,
  input: z.output<typeof formulaValidateSchema>,
): Promise<FormulaValidation> {
  const dataset = await loadDataset(db, actor.projectId, input.dataset_id);
  const level = input.role === 'row' ? 'row' : 'period';
  const parsed = parseExpression(input.expression, { columns: dataset.columns.map((c) => c.key), level });
  if (!parsed.ok) return { ok: false, errors: parsed.errors, columns: [], explanation: null, preview: [] };
  const explanation = explainExpression(parsed.ast, { labels: labelsOf(dataset.columns) });
  // A row expression is a derived column, not a value per period: nothing to preview.
  if (level === 'row') return { ok: true, errors: [], columns: parsed.columns, explanation, preview: [] };
  const { periods } = await evaluateMeasurePeriods(db, actor.projectId, dataset.id, {
    numerator: '',
    denominator: '',
    value_expr: input.expression,
    usesDenominator: false,
    grain: input.grain,
  });
  const preview = periods.slice(-12).map((p) => ({ period: p.period, value: p.value, rows: p.rows }));
  return { ok: true, errors: [], columns: parsed.columns, explanation, preview };
}

/**
 * POST /formulas/preview: an unsaved measure on the current rows with its SPC reading (recommended chart, Anhøj
 * rules, neutral direction). Formulas with errors answer 400 like a save; missing ones an empty series with why.
 */
export async function previewFormulas(
  db: DbOrTx,
  actor: MonitoringActor,
  input: z.output<typeof formulaPreviewSchema>,
  today: Date,
): Promise<Series> {
  const started = performance.now();
  const dataset = await loadDataset(db, actor.projectId, input.dataset_id);
  const check = checkFormulas(input.type, input, dataset.columns);
  const invalid = Object.fromEntries(
    Object.entries(check.errors).filter(([field]) => input[field as FormulaField].trim() !== ''),
  );
  if (Object.keys(invalid).length > 0) throw formulaFailure(invalid);
  const complete = !hasErrors(check);
  const usesDenominator = measureUsesDenominator(input.type);
  const { periods, strata } = complete
    ? await evaluateMeasurePeriods(db, actor.projectId, dataset.id, { ...input, usesDenominator })
    : { periods: [], strata: [] };
  const series = buildSeries({
    periods,
    grain: input.grain,
    type: input.type,
    chart: recommendedChart(input.type),
    ruleProfile: 'anhoej',
    direction: 'neutral',
    multiplier: input.multiplier,
    unitLabel: '',
    targets: [],
    benchmarks: [],
    annotations: [],
    phases: [],
    baseline: null,
    today,
    measureId: null,
    formulaVersion: 0,
    formulaHash: complete ? definitionHash(dataset.id, input.type, check) : null,
    datasetVersion: dataset.version,
    stratum: null,
    strata,
    emptyReason: complete ? null : EMPTY_REASONS.noFormulas,
  });
  return { ...series, compute_ms: Math.round(performance.now() - started) };
}
