import type { Chart, Measure, MeasureDetail, MeasureSummary } from '@portal/shared';

/** Factories for the chart, series and measure screens' tests (contracts of monitoring-measures.ts). */

// The series factories are the shared chart code's (components/spc), which the monitoring tests use as they are.
export { point, points, series } from '../../../components/spc/series-test-fixtures';

export function measure(overrides: Partial<Measure> & Pick<Measure, 'id' | 'name'>): Measure {
  return {
    page_id: 5,
    type: 'rate',
    dataset: { id: 3, name: 'Falls' },
    numerator: 'sum(falls_with_injury)',
    denominator: 'sum(patient_days)',
    value_expr: '',
    multiplier: 1000,
    unit_label: 'per 1,000 patient days',
    direction: 'down',
    grain: 'month',
    strata_keys: ['ward'],
    definition: {
      description: 'Falls with injury per 1,000 patient days.',
      inclusions: 'Inpatients.',
      exclusions: '',
      data_source: 'Incident reports',
      owner: 'Nursing',
      collection_plan: '',
    },
    chart_default: 'u',
    rule_profile: 'western_electric',
    ihi_runs_test: 'swed_eisenhart',
    astronomical_point: 'i_chart',
    baseline_from: null,
    baseline_to: null,
    formula_version: 1,
    formula_hash: 'abc',
    version: 1,
    targets: [],
    benchmarks: [],
    phases: [],
    annotations: [],
    updated_at: '2026-03-01T10:00:00Z',
    ...overrides,
  };
}

/** Measure 40 as the measure editing screens load it: Falls with injury on page 1.1, from the Ward census dataset. */
export function measureDetail(overrides: Partial<MeasureDetail> = {}): MeasureDetail {
  return {
    ...measure({
      id: 40,
      name: 'Falls with injury',
      page_id: 2,
      dataset: { id: 5, name: 'Ward census' },
      numerator: 'sum(falls)',
      strata_keys: [],
      definition: { description: '', inclusions: '', exclusions: '', data_source: '', owner: '', collection_plan: '' },
      rule_profile: 'anhoej',
      version: 3,
      updated_at: '2026-04-01T10:00:00Z',
    }),
    page: { id: 2, number: '1.1', title: 'Falls' },
    abilities: { edit: true },
    ...overrides,
  };
}

export function chart(overrides: Partial<Chart> & Pick<Chart, 'id' | 'title'>): Chart {
  return {
    page_id: 5,
    measure: { id: 9, name: 'Falls with injury', type: 'rate' },
    chart_type: 'u',
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
    position: 0,
    version: 1,
    updated_at: '2026-03-01T10:00:00Z',
    ...overrides,
  };
}

export function summary(
  overrides: Partial<MeasureSummary> & Pick<MeasureSummary, 'measure_id' | 'name'>,
): MeasureSummary {
  return {
    type: 'rate',
    unit_label: 'per 1,000 patient days',
    direction: 'down',
    latest: { period: '2026-02-01', label: 'Feb 2026', value: 2.134, numerator: 12, denominator: 5623, rows: 31 },
    target: { value: 2, kind: 'target' },
    benchmark: null,
    variation: 'common',
    assurance: 'hit_and_miss',
    trial: false,
    signals: [],
    sparkline: [3, 2.5, null, 2.1],
    definition: {
      description: 'Falls with injury per 1,000 patient days.',
      inclusions: '',
      exclusions: '',
      data_source: '',
      owner: '',
      collection_plan: '',
    },
    explanation: 'The sum of falls with injury divided by the sum of patient days, times 1,000.',
    ...overrides,
  };
}
