import { createHash } from 'node:crypto';
import type { DatasetColumn, MeasureType, SpcChart, SpcRuleSet } from '@portal/shared';
import type { DbOrTx } from '../db/client.js';
import {
  monAnnotations,
  monBenchmarks,
  monCharts,
  monDatasets,
  monFormulaVersions,
  monImports,
  monMeasures,
  monRows,
  monTargets,
} from '../db/schema/index.js';
import { checkFormulas, definitionHash } from '../modules/monitoring/formulas.service.js';
import { DEMO_MONTHS, demoWardRows, ROUNDING_MONTHS_BEFORE_END } from './demo-monitoring-rows.js';

/**
 * The demo facility's data (issue 9): one dataset of monthly ward indicators (36 months, three wards) committed as
 * one import, and the three demo measures on their pages with targets, benchmarks, an intervention note and a chart
 * each. Falls with injury show a real special-cause improvement after hourly rounding started.
 */

const COLUMNS: DatasetColumn[] = [
  { key: 'month', label: 'Month', type: 'date', phi: false },
  { key: 'ward', label: 'Ward', type: 'text', phi: false },
  { key: 'patient_days', label: 'Patient days', type: 'number', phi: false },
  { key: 'falls', label: 'Falls', type: 'number', phi: false },
  { key: 'falls_with_injury', label: 'Falls with injury', type: 'number', phi: false },
  { key: 'central_line_days', label: 'Central line days', type: 'number', phi: false },
  { key: 'clabsi', label: 'CLABSI', type: 'number', phi: false },
  { key: 'hh_observed', label: 'Hand hygiene opportunities observed', type: 'number', phi: false },
  { key: 'hh_compliant', label: 'Hand hygiene opportunities compliant', type: 'number', phi: false },
];

interface DemoMeasure {
  page: string;
  name: string;
  type: MeasureType;
  numerator: string;
  denominator: string;
  multiplier: number;
  unit: string;
  direction: 'up' | 'down';
  chart: SpcChart;
  rules: SpcRuleSet;
  /** Limits from the first this many months (the period before the change being tested). */
  baselineMonths?: number;
  definition: Record<string, string>;
  target: number;
  benchmark: { source: string; statistic: 'median' | 'mean' | 'percentile'; percentile?: number; value: number };
}

const MEASURES: DemoMeasure[] = [
  {
    page: 'Falls with injury',
    name: 'Falls with injury per 1,000 patient days',
    type: 'rate',
    numerator: 'sum(falls_with_injury)',
    denominator: 'sum(patient_days)',
    multiplier: 1000,
    unit: 'per 1,000 patient days',
    direction: 'down',
    chart: 'u',
    rules: 'healthcare',
    baselineMonths: DEMO_MONTHS - ROUNDING_MONTHS_BEFORE_END,
    definition: {
      description: 'Inpatient falls that caused minor or greater injury, per 1,000 inpatient days.',
      inclusions:
        'Unassisted and assisted falls of inpatients on the adult medical, surgical and intensive care units.',
      exclusions: 'Falls of visitors and staff; falls in the emergency department and outpatient areas.',
      data_source: 'Incident reporting system, injury level confirmed by the unit manager; midnight census.',
      owner: 'Falls Prevention Lead',
      collection_plan: 'Extracted on the fifth working day of the month for the month before.',
    },
    target: 0.5,
    benchmark: { source: 'National nursing quality database (demo figure)', statistic: 'median', value: 0.62 },
  },
  {
    page: 'CLABSI',
    name: 'CLABSI per 1,000 central line days',
    type: 'rate',
    numerator: 'sum(clabsi)',
    denominator: 'sum(central_line_days)',
    multiplier: 1000,
    unit: 'per 1,000 central line days',
    direction: 'down',
    chart: 'u',
    rules: 'healthcare',
    definition: {
      description: 'Central line-associated bloodstream infections (NHSN definition) per 1,000 central line days.',
      inclusions: 'Laboratory-confirmed bloodstream infections with a central line in place for more than two days.',
      exclusions: 'Infections present on admission; secondary bloodstream infections.',
      data_source: 'Infection prevention surveillance; daily central line census.',
      owner: 'Infection Prevention Manager',
      collection_plan: 'Confirmed by infection prevention within 30 days of the end of the month.',
    },
    target: 0.8,
    benchmark: { source: 'NHSN pooled mean (demo figure)', statistic: 'mean', value: 0.87 },
  },
  {
    page: 'Hand hygiene compliance',
    name: 'Hand hygiene compliance',
    type: 'proportion',
    numerator: 'sum(hh_compliant)',
    denominator: 'sum(hh_observed)',
    multiplier: 100,
    unit: '%',
    direction: 'up',
    chart: 'p',
    rules: 'healthcare',
    definition: {
      description: 'Observed hand hygiene opportunities (WHO five moments) where hand hygiene was performed.',
      inclusions: 'Direct observations by trained observers on every inpatient unit.',
      exclusions: 'Self-reported compliance.',
      data_source: 'Hand hygiene observation app.',
      owner: 'Infection Prevention Manager',
      collection_plan: 'At least 100 observations per unit a month, spread over shifts.',
    },
    target: 90,
    benchmark: {
      source: 'Regional hospital network (demo figure)',
      statistic: 'percentile',
      percentile: 75,
      value: 88,
    },
  },
];

const monthsBefore = (now: Date, months: number) =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - months, 1)).toISOString().slice(0, 10);

export async function seedDemoMonitoringData(
  tx: DbOrTx,
  projectId: number,
  pageIds: ReadonlyMap<string, number>,
  people: { admin: number; reviewer: number },
  now: Date,
): Promise<void> {
  const rows = demoWardRows(now);
  const csv = [
    COLUMNS.map((column) => column.key).join(','),
    ...rows.map((row) => COLUMNS.map((column) => row[column.key as keyof typeof row]).join(',')),
  ].join('\n');
  const [dataset] = await tx
    .insert(monDatasets)
    .values({
      projectId,
      name: 'Monthly ward indicators',
      description: 'Census, falls, central line days, CLABSI and hand hygiene observations per ward and month.',
      timeColumn: 'month',
      columns: COLUMNS,
      version: 1,
      rowCount: rows.length,
      createdBy: people.reviewer,
      updatedBy: people.reviewer,
    })
    .returning({ id: monDatasets.id });
  const datasetId = dataset!.id;
  const settings = {
    delimiter: ',',
    encoding: 'utf-8',
    has_header: true,
    columns: COLUMNS.map((column, source) => ({ source, skip: false, ...column })),
    time_column: 'month',
    date_format: 'YYYY-MM-DD',
    mode: 'append',
    error_policy: 'abort',
    range_from: null,
    range_to: null,
    key_columns: [],
  };
  const committedAt = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 5, 9));
  const [upload] = await tx
    .insert(monImports)
    .values({
      projectId,
      datasetId,
      fileName: 'ward-indicators.csv',
      size: Buffer.byteLength(csv),
      sha256: createHash('sha256').update(csv).digest('hex'),
      status: 'committed',
      detected: {
        delimiter: ',',
        encoding: 'utf-8',
        has_header: true,
        headers: COLUMNS.map((column) => column.key),
        date_format: 'YYYY-MM-DD',
        date_format_choices: [],
        columns: COLUMNS.map((column, source) => ({ source, header: column.key, ...column })),
        time_column: 'month',
        sample: [],
        row_count: rows.length,
      },
      settings,
      rowsTotal: rows.length,
      rowsOk: rows.length,
      progress: rows.length,
      createdBy: people.reviewer,
      createdAt: committedAt,
      committedAt,
      committedBy: people.reviewer,
    })
    .returning({ id: monImports.id });
  await tx.insert(monRows).values(
    rows.map((row, index) => ({
      projectId,
      datasetId,
      importId: upload!.id,
      rowNo: index + 2,
      rowDate: row.month,
      data: row,
    })),
  );

  const roundingStart = monthsBefore(now, ROUNDING_MONTHS_BEFORE_END);
  for (const m of MEASURES) {
    const pageId = pageIds.get(m.page);
    if (!pageId) throw new Error(`demo page ${m.page} is missing`);
    const texts = { numerator: m.numerator, denominator: m.denominator, value_expr: '' };
    const check = checkFormulas(m.type, texts, COLUMNS);
    if (Object.keys(check.errors).length > 0) throw new Error(`demo formulas of ${m.name} do not check`);
    const hash = definitionHash(datasetId, m.type, check);
    const [measure] = await tx
      .insert(monMeasures)
      .values({
        projectId,
        pageId,
        datasetId,
        name: m.name,
        type: m.type,
        ...texts,
        valueExpr: '',
        multiplier: m.multiplier,
        unitLabel: m.unit,
        direction: m.direction,
        grain: 'month',
        strataKeys: ['ward'],
        definition: m.definition,
        chartDefault: m.chart,
        ruleProfile: m.rules,
        baselineFrom: m.baselineMonths ? monthsBefore(now, DEMO_MONTHS) : null,
        baselineTo: m.baselineMonths ? monthsBefore(now, DEMO_MONTHS - m.baselineMonths + 1) : null,
        formulaVersion: 1,
        formulaHash: hash,
        createdBy: people.admin,
        updatedBy: people.admin,
      })
      .returning({ id: monMeasures.id });
    const measureId = measure!.id;
    await tx.insert(monFormulaVersions).values({
      projectId,
      measureId,
      version: 1,
      datasetId,
      ...texts,
      valueExpr: '',
      hash,
      columns: check.columns,
      note: 'First definition.',
      createdBy: people.admin,
    });
    await tx.insert(monTargets).values({
      projectId,
      measureId,
      value: m.target,
      effectiveFrom: monthsBefore(now, DEMO_MONTHS),
      kind: 'target',
      createdBy: people.admin,
    });
    await tx.insert(monBenchmarks).values({
      projectId,
      measureId,
      source: m.benchmark.source,
      statistic: m.benchmark.statistic,
      percentile: m.benchmark.percentile ?? null,
      value: m.benchmark.value,
      periodLabel: String(now.getUTCFullYear() - 1),
      asOf: `${now.getUTCFullYear() - 1}-12-31`,
      specMatch: true,
      note: 'An illustrative figure for the demo facility, not a published value.',
      createdBy: people.admin,
    });
    if (m.page === 'Falls with injury') {
      await tx.insert(monAnnotations).values({
        projectId,
        measureId,
        periodStart: roundingStart,
        kind: 'intervention',
        text: 'Hourly rounding started on all adult wards.',
        createdBy: people.admin,
      });
    }
    await tx.insert(monCharts).values({
      projectId,
      pageId,
      measureId,
      title: m.name,
      chartType: m.chart,
      options: {
        stratum: null,
        from: null,
        to: null,
        sigma_lines: [],
        show_target: true,
        show_benchmark: true,
        show_annotations: true,
        rule_profile: null,
      },
      createdBy: people.admin,
      updatedBy: people.admin,
    });
  }
}
