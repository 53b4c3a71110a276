import { RULE_LABELS } from '@portal/shared';
import type { LineSeriesOption, ScatterSeriesOption } from 'echarts/charts';
import { describe, expect, it } from 'vitest';
import { VARIATION_COLOR } from './series-format';
import { points, series } from './series-test-fixtures';
import {
  type DrawOptions,
  LARGE_SERIES,
  niceBound,
  pointTooltip,
  type SpcEChartsOption,
  spcChartOption,
  stepLine,
} from './spc-chart-options';

const ALL_ON: DrawOptions = { sigma_lines: [], show_target: true, show_benchmark: true, show_annotations: true };
const ALL_OFF: DrawOptions = { sigma_lines: [], show_target: false, show_benchmark: false, show_annotations: false };

type AnySeries = LineSeriesOption | ScatterSeriesOption;
const seriesOf = (option: SpcEChartsOption) => option.series as AnySeries[];
const byId = (option: SpcEChartsOption, id: string) => seriesOf(option).find((s) => s.id === id);
const tooltipOf = (option: SpcEChartsOption, axisValue: string) => {
  const tooltip = option.tooltip as { formatter: (params: unknown) => string };
  return tooltip.formatter([{ axisValue }]);
};

describe('spcChartOption', () => {
  it('draws limits as stepped lines that follow a varying n', () => {
    const s = series(points(4, (i) => ({ ucl: [20, 22, 22, 18][i]!, lcl: [2, 1, 1, 3][i]! })));
    const option = spcChartOption(s, ALL_ON, 'Hand hygiene');
    const ucl = byId(option, 'ucl') as LineSeriesOption;
    expect(ucl.step).toBe('middle');
    expect(ucl.name).toBe('Control limits (3σ)');
    // Equal neighbours are kept by their ends only; the drawing is the same.
    expect(ucl.data).toEqual([
      [0, 20],
      [1, 22],
      [2, 22],
      [3, 18],
    ]);
    expect((byId(option, 'lcl') as LineSeriesOption).data).toEqual([
      [0, 2],
      [1, 1],
      [2, 1],
      [3, 3],
    ]);
    expect((byId(option, 'cl') as LineSeriesOption).data).toEqual([
      [0, 10],
      [3, 10],
    ]);
  });

  it('breaks the centre line and the limits with a null where a phase starts, and marks the phase', () => {
    const s = series(
      points(6, (i) => ({ phase: i < 3 ? 0 : 1, cl: i < 3 ? 10 : 8, ucl: i < 3 ? 19 : 15 })),
      { phases: [{ id: 1, start_period: '2024-04-01', label: 'New protocol', reason: 'intervention' }] },
    );
    const option = spcChartOption(s, ALL_ON, 'Falls');
    expect((byId(option, 'cl') as LineSeriesOption).data).toEqual([
      [0, 10],
      [2, 10],
      [3, null],
      [3, 8],
      [5, 8],
    ]);
    expect((byId(option, 'ucl') as LineSeriesOption).data).toContainEqual([3, null]);
    const phaseLines = (byId(option, 'value') as LineSeriesOption).markLine?.data as { xAxis: number; name: string }[];
    expect(phaseLines).toEqual([expect.objectContaining({ xAxis: 3, name: 'New protocol' })]);
  });

  it('leaves gaps for missing values and draws provisional and excluded points hollow', () => {
    const s = series(
      points(4, (i) => ({
        value: i === 1 ? null : 10,
        gap: i === 1 ? 'no denominator' : null,
        excluded: i === 2,
        provisional: i === 3,
      })),
    );
    const option = spcChartOption(s, ALL_ON, 'Falls');
    const data = (byId(option, 'value') as LineSeriesOption).data as unknown[];
    expect(data[0]).toBe(10);
    expect(data[1]).toBeNull();
    expect(data[2]).toMatchObject({ value: 10, itemStyle: { color: '#fff', borderColor: '#adb5bd' } });
    expect(data[3]).toMatchObject({ value: 10, itemStyle: { color: '#fff' } });
    expect((byId(option, 'value') as LineSeriesOption).connectNulls).toBe(false);
    expect(tooltipOf(option, 'Feb 2024')).toContain('No value: no denominator');
    expect(tooltipOf(option, 'Apr 2024')).toContain('provisional');
  });

  it('marks signals with a diamond in the colour of their variation and names the rules in the tooltip', () => {
    const s = series(
      points(5, (i) =>
        i === 2
          ? { value: 25, signals: ['outside_limits', 'two_of_three'], variation: 'concern' }
          : i === 4
            ? { value: 12, signals: ['shift'], variation: 'improvement' }
            : {},
      ),
    );
    const option = spcChartOption(s, ALL_ON, 'Falls');
    const concern = byId(option, 'signals-concern') as ScatterSeriesOption;
    expect(concern).toMatchObject({
      type: 'scatter',
      symbol: 'diamond',
      name: 'Special cause: concern',
      itemStyle: { color: VARIATION_COLOR.concern },
    });
    expect(concern.data).toEqual([
      { value: [2, 25], name: `${RULE_LABELS.outside_limits}; ${RULE_LABELS.two_of_three}` },
    ]);
    expect(byId(option, 'signals-improvement')).toMatchObject({ itemStyle: { color: VARIATION_COLOR.improvement } });
    expect(byId(option, 'signals-neutral')).toBeUndefined();

    const tip = tooltipOf(option, 'Mar 2024');
    expect(tip).toContain('Value: 25%');
    expect(tip).toContain('n = 100 rows (10/100)');
    expect(tip).toContain('Control limits: 1 to 19');
    expect(tip).toContain('Concern');
    expect(tip).toContain(RULE_LABELS.outside_limits);
    expect(tip).toContain(RULE_LABELS.two_of_three);
    expect(tooltipOf(option, 'Jan 2024')).not.toContain('Concern');
  });

  it('draws the target and the benchmarks only when the options ask for them', () => {
    const s = series(
      points(3, () => ({ target: 15 })),
      {
        benchmarks: [
          {
            id: 1,
            source: 'NHSN',
            statistic: 'percentile',
            percentile: 50,
            value: 30,
            period_label: '2024',
            as_of: '2025-01-01',
            spec_match: false,
            citation_url: '',
            note: '',
          },
        ],
      },
    );
    const on = spcChartOption(s, ALL_ON, 'Falls');
    expect(byId(on, 'target')).toMatchObject({
      name: 'Target',
      step: 'middle',
      data: [
        [0, 15],
        [2, 15],
      ],
    });
    const marks = (byId(on, 'benchmarks') as LineSeriesOption).markLine?.data as { yAxis: number; name: string }[];
    expect(marks).toEqual([expect.objectContaining({ yAxis: 30, name: 'NHSN 50th percentile 30 (not comparable)' })]);
    // markLines do not widen the axis on their own.
    const yAxis = on.yAxis as { max: (extent: { max: number }) => number };
    expect(yAxis.max({ max: 20 })).toBe(30);
    expect(tooltipOf(on, 'Jan 2024')).toContain('Target: 15');

    const off = spcChartOption(s, ALL_OFF, 'Falls');
    expect(byId(off, 'target')).toBeUndefined();
    expect(byId(off, 'benchmarks')).toBeUndefined();
    expect(tooltipOf(off, 'Jan 2024')).not.toContain('Target');
  });

  it('adds sigma lines on request, and none on run charts', () => {
    const s = series(points(3));
    const ids = (option: SpcEChartsOption) => seriesOf(option).map((x) => x.id);
    expect(ids(spcChartOption(s, ALL_ON, 'x'))).not.toContain('ucl2');
    expect(ids(spcChartOption(s, { ...ALL_ON, sigma_lines: [1, 2] }, 'x'))).toEqual(
      expect.arrayContaining(['ucl1', 'lcl1', 'ucl2', 'lcl2']),
    );
    const run = spcChartOption(
      series(
        points(3, () => ({ ucl: null, lcl: null })),
        { chart: 'run' },
      ),
      { ...ALL_ON, sigma_lines: [2] },
      'x',
    );
    expect(ids(run)).not.toContain('ucl');
    expect(ids(run)).not.toContain('ucl2');
    expect(byId(run, 'cl')?.name).toBe('Median');
  });

  it('pins annotations and puts their text, escaped, in the tooltip', () => {
    const s = series(points(3), {
      annotations: [
        { id: 1, period_start: '2024-02-01', kind: 'event', text: 'Ward <b>closed</b>', exclude_from_limits: false },
      ],
    });
    const on = spcChartOption(s, ALL_ON, 'Falls');
    expect((byId(on, 'value') as LineSeriesOption).markPoint?.data).toEqual([
      expect.objectContaining({ coord: [1, 10], name: 'Ward <b>closed</b>', value: 1 }),
    ]);
    expect(tooltipOf(on, 'Feb 2024')).toContain('Note: Ward &lt;b&gt;closed&lt;/b&gt;');
    const off = spcChartOption(s, ALL_OFF, 'Falls');
    expect((byId(off, 'value') as LineSeriesOption).markPoint).toBeUndefined();
    expect(tooltipOf(off, 'Feb 2024')).not.toContain('Note');
  });

  it('describes the chart for screen readers', () => {
    const s = series(
      points(3, (i) => (i === 2 ? { signals: ['outside_limits'], variation: 'concern', value: 30 } : {})),
      {
        summary: { ...series([]).summary, trial: true },
      },
    );
    const option = spcChartOption(s, ALL_ON, 'Falls');
    const aria = option.aria as { enabled: boolean; label: { description: string } };
    expect(aria.enabled).toBe(true);
    expect(aria.label.description).toContain('Falls. P chart (proportions) of 3 periods from Jan 2024 to Mar 2024');
    expect(aria.label.description).toContain(`Mar 2024 (${RULE_LABELS.outside_limits})`);
    expect(aria.label.description).toContain('trial limits');
  });

  it(`samples with LTTB, adds zoom and drops markers above ${LARGE_SERIES} points`, () => {
    const small = spcChartOption(series(points(LARGE_SERIES)), ALL_ON, 'x');
    expect((byId(small, 'value') as LineSeriesOption).sampling).toBeUndefined();
    expect(small.dataZoom).toBeUndefined();

    const big = series(
      points(100_000, (i) => ({
        value: i % 7,
        signals: i === 500 ? ['shift'] : [],
        variation: i === 500 ? 'concern' : 'common',
      })),
      {
        chart: 'i',
      },
    );
    const option = spcChartOption(big, ALL_ON, 'x');
    const value = byId(option, 'value') as LineSeriesOption;
    expect(value.sampling).toBe('lttb');
    expect(value.showSymbol).toBe(false);
    expect(option.animation).toBe(false);
    expect(option.dataZoom).toEqual([
      expect.objectContaining({ type: 'inside' }),
      expect.objectContaining({ type: 'slider' }),
    ]);
    // Constant limits stay two points each, whatever the length.
    expect((byId(option, 'ucl') as LineSeriesOption).data).toHaveLength(2);
    expect((byId(option, 'ucl') as LineSeriesOption).sampling).toBe('lttb');
    expect((byId(small, 'ucl') as LineSeriesOption).sampling).toBeUndefined();
    expect((byId(option, 'signals-concern') as ScatterSeriesOption).data).toHaveLength(1);
  });
});

describe('stepLine', () => {
  it('drops leading and trailing nulls and keeps one null per gap', () => {
    const s = points(6, (i) => ({ cl: [null, 5, null, null, 6, null][i] ?? null }));
    expect(stepLine(s, (p) => p.cl)).toEqual([
      [1, 5],
      [2, null],
      [4, 6],
    ]);
  });
});

describe('pointTooltip', () => {
  it('is empty for an index out of range', () => {
    expect(pointTooltip(series(points(1)), 5, ALL_ON)).toBe('');
  });
});

describe('niceBound', () => {
  it('rounds axis bounds outwards to a round step of the range', () => {
    expect(niceBound(2.0813, { min: 0, max: 2.0813 }, [0.62], Math.ceil)).toBe(2.5);
    expect(niceBound(0, { min: 0, max: 2.0813 }, [0.62], Math.floor)).toBe(0);
    expect(niceBound(83.2, { min: 83.2, max: 95.1 }, [88], Math.floor)).toBe(80);
    expect(niceBound(5, { min: 5, max: 5 }, [5], Math.ceil)).toBe(5);
  });
});
