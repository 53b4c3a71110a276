import {
  type DatasetColumn,
  expressionHash,
  type MeasureType,
  measureUsesDenominator,
  nextPeriod,
  parseExpression,
} from '@portal/shared';
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../src/db/client.js';
import {
  monAnnotations,
  monBenchmarks,
  monDatasets,
  monImports,
  monMeasures,
  monPhases,
  monRows,
  monTargets,
} from '../src/db/schema/index.js';
import { insertPage } from './monitoring-kit.js';

/**
 * Fixtures of the monitoring data tests (issue 9): datasets with one committed import, rows, measures and their
 * targets, benchmarks, phases and annotations inserted directly, so measure, formula, series and chart tests do not
 * depend on the CSV import or the measure screens.
 */

export const FALLS_COLUMNS: DatasetColumn[] = [
  { key: 'month', label: 'Month', type: 'date', phi: false },
  { key: 'ward', label: 'Ward', type: 'text', phi: false },
  { key: 'falls', label: 'Falls with injury', type: 'number', phi: false },
  { key: 'patient_days', label: 'Patient days', type: 'number', phi: false },
];

export type KitDataset = typeof monDatasets.$inferSelect & { importId: number };

export async function addDataset(
  db: Database,
  projectId: number,
  values: { name?: string; columns?: DatasetColumn[]; deleted?: boolean; version?: number } = {},
): Promise<KitDataset> {
  const [dataset] = await db
    .insert(monDatasets)
    .values({
      projectId,
      name: values.name ?? 'Falls census',
      timeColumn: 'month',
      columns: values.columns ?? FALLS_COLUMNS,
      version: values.version ?? 0,
      deletedAt: values.deleted ? new Date() : null,
    })
    .returning();
  const [upload] = await db
    .insert(monImports)
    .values({ projectId, datasetId: dataset!.id, fileName: 'falls.csv', size: 1, sha256: 'x', status: 'committed' })
    .returning();
  return { ...dataset!, importId: upload!.id };
}

/**
 * One row per month (and ward) from `from` ('YYYY-MM-01'), with [falls, patient_days] per month, as a committed
 * import would leave them: rows in, row_count and version up.
 */
export async function addMonthlyRows(
  db: Database,
  dataset: KitDataset,
  from: string,
  months: readonly (readonly [number, number])[],
  ward = 'North',
): Promise<void> {
  let period = from;
  const rows = months.map(([falls, days], index) => {
    const row = {
      projectId: dataset.projectId,
      datasetId: dataset.id,
      importId: dataset.importId,
      rowNo: index + 2,
      rowDate: period,
      data: { month: period, ward, falls, patient_days: days },
    };
    period = nextPeriod(period, 'month');
    return row;
  });
  if (rows.length === 0) return;
  await db.execute(sql`
    insert into mon_rows (project_id, dataset_id, import_id, row_no, row_date, data)
    select * from jsonb_to_recordset(${JSON.stringify(
      rows.map((r) => ({
        project_id: r.projectId,
        dataset_id: r.datasetId,
        import_id: r.importId,
        row_no: r.rowNo,
        row_date: r.rowDate,
        data: r.data,
      })),
    )}::jsonb) as x(project_id int, dataset_id int, import_id int, row_no int, row_date date, data jsonb)`);
  await db
    .update(monDatasets)
    .set({ rowCount: sql`${monDatasets.rowCount} + ${rows.length}`, version: sql`${monDatasets.version} + 1` })
    .where(eq(monDatasets.id, dataset.id));
}

/** Rows inserted as given (dates and cells), without touching the dataset's counts. */
export async function addRows(
  db: Database,
  dataset: { id: number; projectId: number; importId: number },
  rows: { date: string; data: Record<string, unknown>; active?: boolean }[],
) {
  if (rows.length === 0) return;
  await db.insert(monRows).values(
    rows.map((row, index) => ({
      projectId: dataset.projectId,
      datasetId: dataset.id,
      importId: dataset.importId,
      rowNo: index + 2,
      rowDate: row.date,
      data: row.data,
      active: row.active ?? true,
    })),
  );
}

/** `count` rows spread over consecutive days from `from`, made in the database (fast for 100,000 rows). */
export async function addManyRows(
  db: Database,
  dataset: { id: number; projectId: number; importId: number },
  count: number,
  from = '2023-01-01',
  daysSpan = 1_095,
) {
  await db.execute(sql`
    insert into mon_rows (project_id, dataset_id, import_id, row_no, row_date, data)
    select ${dataset.projectId}, ${dataset.id}, ${dataset.importId}, i + 1,
           ${from}::date + (i % ${daysSpan}),
           jsonb_build_object('ward', case when i % 3 = 0 then 'A' when i % 3 = 1 then 'B' else 'C' end,
                              'falls', i % 2, 'patient_days', 10 + i % 7)
    from generate_series(0, ${count - 1}) as i`);
  await db.execute(sql`analyze mon_rows`);
}

/** `n` months of the same [falls, patient_days]. */
export const repeat = (n: number, month: readonly [number, number]) => Array.from({ length: n }, () => month);

const formulaHash = (type: MeasureType, numerator: string, denominator: string, valueExpr: string) => {
  const columns = FALLS_COLUMNS.map((c) => c.key);
  const texts = measureUsesDenominator(type) ? [numerator, denominator] : [valueExpr];
  const parts = texts.map((text) => parseExpression(text, { columns, level: 'period' }));
  return parts.every((p) => p.ok) ? parts.map((p) => (p.ok ? expressionHash(p.ast) : '')).join(':') : null;
};

/** A measure row without formulas (for tests of calls other than measure creation and series). */
export async function addBareMeasure(
  db: Database,
  values: { projectId: number; pageId: number; datasetId?: number | null; name?: string; type?: string },
) {
  const [measure] = await db
    .insert(monMeasures)
    .values({
      projectId: values.projectId,
      pageId: values.pageId,
      datasetId: values.datasetId ?? null,
      name: values.name ?? 'Falls with injury',
      type: values.type ?? 'rate',
    })
    .returning();
  return measure!;
}

/** A falls rate per 1,000 patient days on a U chart, unless `values` says otherwise. */
export async function addMeasure(
  db: Database,
  projectId: number,
  pageId: number,
  datasetId: number | null,
  values: Partial<typeof monMeasures.$inferInsert> = {},
) {
  const type = (values.type ?? 'rate') as MeasureType;
  const numerator = values.numerator ?? 'sum(falls)';
  const denominator = values.denominator ?? 'sum(patient_days)';
  const valueExpr = values.valueExpr ?? '';
  const [measure] = await db
    .insert(monMeasures)
    .values({
      projectId,
      pageId,
      datasetId,
      name: 'Falls with injury per 1,000 patient days',
      type,
      numerator,
      denominator,
      valueExpr,
      multiplier: 1000,
      unitLabel: 'per 1,000 patient days',
      direction: 'down',
      grain: 'month',
      chartDefault: 'u',
      ruleProfile: 'anhoej',
      formulaVersion: 1,
      formulaHash: formulaHash(type, numerator, denominator, valueExpr),
      ...values,
    })
    .returning();
  return measure!;
}

export async function addTarget(
  db: Database,
  measure: { id: number; projectId: number },
  value: number,
  effectiveFrom: string,
  kind: 'target' | 'threshold' | 'stretch' = 'target',
) {
  await db
    .insert(monTargets)
    .values({ projectId: measure.projectId, measureId: measure.id, value, effectiveFrom, kind });
}

export async function addBenchmark(
  db: Database,
  measure: { id: number; projectId: number },
  values: { source: string; value: number; asOf: string; specMatch?: boolean },
) {
  const [row] = await db
    .insert(monBenchmarks)
    .values({
      projectId: measure.projectId,
      measureId: measure.id,
      source: values.source,
      statistic: 'mean',
      value: values.value,
      asOf: values.asOf,
      specMatch: values.specMatch ?? true,
    })
    .returning();
  return row!;
}

export async function addPhase(db: Database, measure: { id: number; projectId: number }, startPeriod: string) {
  await db.insert(monPhases).values({
    projectId: measure.projectId,
    measureId: measure.id,
    startPeriod,
    label: 'New bundle',
    reason: 'intervention',
  });
}

export async function addAnnotation(
  db: Database,
  measure: { id: number; projectId: number },
  periodStart: string,
  excludeFromLimits: boolean,
) {
  await db.insert(monAnnotations).values({
    projectId: measure.projectId,
    measureId: measure.id,
    periodStart,
    kind: excludeFromLimits ? 'data_issue' : 'event',
    text: excludeFromLimits ? 'Half the wards did not report' : 'New mattresses',
    excludeFromLimits,
  });
}

/**
 * Page "1 Falls" of the monitoring owner, with a falls dataset of monthly rows from `from` (addMonthlyRows): the
 * ground the series and chart tests draw on.
 */
export async function fallsPageWithRows(
  db: Database,
  s: { project: { id: number }; people: { owner: { id: number } } },
  from: string,
  months: readonly (readonly [number, number])[],
) {
  const page = await insertPage(db, s.project.id, { title: 'Falls', number: '1', ownerId: s.people.owner.id });
  const dataset = await addDataset(db, s.project.id);
  await addMonthlyRows(db, dataset, from, months);
  return { page, dataset };
}
