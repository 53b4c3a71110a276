import { CHART_LABELS, type ChartOptions, type Series, type SeriesPoint } from '@portal/shared';
import type { LineSeriesOption, ScatterSeriesOption } from 'echarts/charts';
import type {
  AriaComponentOption,
  DataZoomComponentOption,
  GridComponentOption,
  LegendComponentOption,
  MarkLineComponentOption,
  MarkPointComponentOption,
  TooltipComponentOption,
} from 'echarts/components';
import type { ComposeOption } from 'echarts/core';
import {
  benchmarkName,
  formatN,
  formatNumber,
  formatValue,
  ruleNames,
  VARIATION_COLOR,
  VARIATION_TEXT,
  type Variation,
} from './series-format';

/**
 * Series + drawing options -> the ECharts option of an SPC chart (DOMAIN.md 1.2). Pure: no chart library at run
 * time (type imports only), so it is unit-tested without a canvas. The server computed every line and signal; this
 * only decides how they look.
 */

export type SpcEChartsOption = ComposeOption<
  | LineSeriesOption
  | ScatterSeriesOption
  | GridComponentOption
  | TooltipComponentOption
  | MarkLineComponentOption
  | MarkPointComponentOption
  | DataZoomComponentOption
  | AriaComponentOption
  | LegendComponentOption
>;

export type DrawOptions = Pick<ChartOptions, 'sigma_lines' | 'show_target' | 'show_benchmark' | 'show_annotations'>;

/** Above this many points: no markers, LTTB sampling, zoom and no animation (100,000 points draw in < 1 s). */
export const LARGE_SERIES = 2000;

const INK = '#343a40';
const LINE = '#495057';
const LIMIT = '#868e96';
const SIGMA = '#adb5bd';
const TARGET = '#a61e4d';
const BENCHMARK = '#2b8a3e';
const MUTED = '#adb5bd';

/** A point of a line drawn as [category index, value]; null breaks the line. */
type LinePoint = [number, number | null];

/**
 * One drawn line (centre line, a limit, the target): stepped at mid-period so the line steps when n varies, broken
 * by a null where a phase starts, and runs of equal values kept by their ends only (the drawing is the same, the
 * data is small even for 100,000 points of constant limits).
 */
export function stepLine(
  points: readonly SeriesPoint[],
  pick: (point: SeriesPoint) => number | null,
  breakAtPhases = true,
): LinePoint[] {
  const out: LinePoint[] = [];
  const valueAt = (i: number) => pick(points[i]!);
  const newPhase = (i: number) => breakAtPhases && i > 0 && points[i]!.phase !== points[i - 1]!.phase;
  for (let i = 0; i < points.length; i += 1) {
    const value = valueAt(i);
    if (newPhase(i) && out.length > 0 && out[out.length - 1]![1] !== null) out.push([i, null]);
    if (value === null) {
      if (out.length > 0 && out[out.length - 1]![1] !== null) out.push([i, null]);
      continue;
    }
    const first = i === 0 || newPhase(i) || valueAt(i - 1) !== value;
    const last = i === points.length - 1 || newPhase(i + 1) || valueAt(i + 1) !== value;
    if (first || last) out.push([i, value]);
  }
  while (out.length > 0 && out[out.length - 1]![1] === null) out.pop();
  return out;
}

const hasValues = (line: LinePoint[]) => line.some(([, value]) => value !== null);

function stepSeries(
  id: string,
  name: string,
  data: LinePoint[],
  style: LineSeriesOption['lineStyle'],
  large: boolean,
): LineSeriesOption {
  return {
    id,
    name,
    type: 'line',
    data,
    step: 'middle',
    connectNulls: false,
    showSymbol: false,
    symbol: 'none',
    lineStyle: style,
    itemStyle: { color: style?.color as string },
    emphasis: { disabled: true },
    silent: true,
    z: 2,
    // Limits that change at every point (p and u charts with varying n) stay cheap to draw on very long series.
    ...(large ? { sampling: 'lttb' as const } : {}),
  };
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Signalling points are drawn as diamonds in their variation's colour (shape and colour, never colour alone). */
const SIGNAL_NAME: Record<Exclude<Variation, 'common'>, string> = {
  improvement: 'Special cause: improvement',
  concern: 'Special cause: concern',
  neutral: 'Special cause: no direction',
};

/** The tooltip of one period: value with unit, n, lines, target, each rule that fired, and notes. */
export function pointTooltip(series: Series, index: number, options: DrawOptions): string {
  const point = series.points[index];
  if (!point) return '';
  const unit = series.unit_label;
  const lines: string[] = [];
  const state = point.provisional
    ? ' (provisional: the period is not complete)'
    : point.excluded
      ? ' (excluded from the limits)'
      : '';
  lines.push(`<strong>${escapeHtml(point.label)}</strong>${state}`);
  lines.push(
    point.value === null
      ? `No value${point.gap ? `: ${escapeHtml(point.gap)}` : ''}`
      : `Value: ${escapeHtml(formatValue(point.value, unit))}`,
  );
  lines.push(escapeHtml(formatN(point)));
  if (point.cl !== null) lines.push(`${series.chart === 'run' ? 'Median' : 'Centre line'}: ${formatNumber(point.cl)}`);
  if (point.lcl !== null || point.ucl !== null) {
    const low = point.lcl === null ? 'none' : formatNumber(point.lcl);
    const high = point.ucl === null ? 'none' : formatNumber(point.ucl);
    lines.push(`Control limits: ${low} to ${high}`);
  }
  if (options.show_target && point.target !== null) lines.push(`Target: ${formatNumber(point.target)}`);
  if (point.signals.length > 0) {
    const variation = point.variation === 'common' ? 'neutral' : point.variation;
    lines.push(`<strong>${escapeHtml(VARIATION_TEXT[variation])}</strong>`);
    for (const rule of ruleNames(point.signals)) lines.push(`• ${escapeHtml(rule)}`);
  }
  if (options.show_annotations) {
    for (const note of series.annotations.filter((a) => a.period_start === point.period)) {
      lines.push(`Note: ${escapeHtml(note.text)}`);
    }
  }
  return lines.join('<br/>');
}

/** The text a screen reader hears for the chart (ECharts' aria description). */
export function describeSeries(series: Series, title: string): string {
  const points = series.points;
  const drawn = points.filter((p) => p.value !== null);
  const parts = [`${title}. ${CHART_LABELS[series.chart]} of ${points.length} periods`];
  if (points.length > 0) parts[0] += ` from ${points[0]!.label} to ${points[points.length - 1]!.label}`;
  const latest = drawn[drawn.length - 1];
  if (latest) {
    parts.push(`Latest value ${formatValue(latest.value, series.unit_label)} in ${latest.label}`);
    if (latest.cl !== null) parts.push(`centre line ${formatNumber(latest.cl)}`);
    if (latest.lcl !== null && latest.ucl !== null) {
      parts.push(`control limits ${formatNumber(latest.lcl)} to ${formatNumber(latest.ucl)}`);
    }
  }
  const signalling = points.filter((p) => p.signals.length > 0);
  parts.push(
    signalling.length === 0
      ? 'No special cause signals'
      : `${signalling.length} ${signalling.length === 1 ? 'period shows' : 'periods show'} a special cause signal: ${signalling
          .slice(-5)
          .map((p) => `${p.label} (${ruleNames(p.signals).join('; ')})`)
          .join(', ')}`,
  );
  if (series.summary.trial) parts.push('the limits are trial limits');
  return `${parts.join('; ')}.`;
}

/** The main points: hollow when provisional, hollow grey when excluded; plain values when the series is large. */
function valueData(points: readonly SeriesPoint[], large: boolean): LineSeriesOption['data'] {
  if (large) return points.map((p) => p.value);
  return points.map((p) => {
    if (p.value === null) return null;
    if (p.excluded) {
      return { value: p.value, itemStyle: { color: '#fff', borderColor: MUTED, borderWidth: 1.5 } };
    }
    if (p.provisional) return { value: p.value, itemStyle: { color: '#fff', borderColor: LINE, borderWidth: 1.5 } };
    return p.value;
  });
}

function signalSeries(points: readonly SeriesPoint[]): ScatterSeriesOption[] {
  const groups: Record<Exclude<Variation, 'common'>, ScatterSeriesOption['data'] & unknown[]> = {
    improvement: [],
    concern: [],
    neutral: [],
  };
  points.forEach((p, i) => {
    if (p.signals.length === 0 || p.value === null) return;
    const variation = p.variation === 'common' ? 'neutral' : p.variation;
    groups[variation].push({ value: [i, p.value], name: ruleNames(p.signals).join('; ') });
  });
  return (Object.keys(groups) as (keyof typeof groups)[])
    .filter((variation) => groups[variation].length > 0)
    .map((variation) => ({
      id: `signals-${variation}`,
      name: SIGNAL_NAME[variation],
      type: 'scatter',
      data: groups[variation],
      symbol: 'diamond',
      symbolSize: 12,
      itemStyle: { color: VARIATION_COLOR[variation], borderColor: '#fff', borderWidth: 1 },
      large: groups[variation].length > LARGE_SERIES,
      z: 5,
    }));
}

/** Vertical lines where a phase starts, labelled with the phase. */
function phaseLines(series: Series): NonNullable<MarkLineComponentOption['data']> {
  const lines: NonNullable<MarkLineComponentOption['data']> = [];
  for (const phase of series.phases) {
    const index = series.points.findIndex((p) => p.period >= phase.start_period);
    if (index <= 0) continue;
    lines.push({
      xAxis: index,
      name: phase.label,
      label: { formatter: phase.label, position: 'insideEndTop', color: INK },
      lineStyle: { color: INK, type: 'solid', width: 1.5 },
    });
  }
  return lines;
}

function benchmarkLines(series: Series): NonNullable<MarkLineComponentOption['data']> {
  return series.benchmarks.map((benchmark) => {
    const text = `${benchmarkName(benchmark)} ${formatNumber(benchmark.value)}${benchmark.spec_match ? '' : ' (not comparable)'}`;
    return {
      yAxis: benchmark.value,
      name: text,
      label: { formatter: text, position: 'insideStartTop', color: benchmark.spec_match ? BENCHMARK : '#495057' },
      lineStyle: { color: benchmark.spec_match ? BENCHMARK : MUTED, type: benchmark.spec_match ? 'dashed' : 'dotted' },
    };
  });
}

/** A bound rounded outwards to a 1, 2 or 5 step of about a fifth of the axis range. */
export function niceBound(
  value: number,
  extent: { min: number; max: number },
  extra: readonly number[],
  round: (x: number) => number,
): number {
  const range = Math.max(extent.max, ...extra) - Math.min(extent.min, ...extra);
  if (!(range > 0)) return value;
  const rough = range / 5;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= rough) ?? 10 * magnitude;
  return Number((round(value / step) * step).toPrecision(12));
}

function annotationPins(series: Series): NonNullable<MarkPointComponentOption['data']> {
  const pins: NonNullable<MarkPointComponentOption['data']> = [];
  series.annotations.forEach((note) => {
    const index = series.points.findIndex((p) => p.period === note.period_start);
    const point = series.points[index];
    if (!point) return;
    pins.push({
      name: note.text,
      coord: [index, point.value ?? point.cl ?? 0],
      value: pins.length + 1,
      symbol: 'pin',
      symbolSize: 28,
      itemStyle: { color: LINE },
    });
  });
  return pins;
}

/** The ECharts option of one SPC chart. */
export function spcChartOption(series: Series, options: DrawOptions, title: string): SpcEChartsOption {
  const points = series.points;
  const large = points.length > LARGE_SERIES;
  const labels = points.map((p) => p.label);
  const indexOf = new Map(labels.map((label, i) => [label, i]));
  const run = series.chart === 'run';

  const valueSeries: LineSeriesOption = {
    id: 'value',
    name: title,
    type: 'line',
    data: valueData(points, large),
    connectNulls: false,
    showSymbol: !large,
    symbol: 'circle',
    symbolSize: 6,
    lineStyle: { color: LINE, width: 1.5 },
    itemStyle: { color: LINE },
    z: 3,
    ...(large ? { sampling: 'lttb' as const } : {}),
    markLine: {
      symbol: ['none', 'none'],
      silent: true,
      data: phaseLines(series),
    },
    ...(options.show_annotations && series.annotations.length > 0
      ? { markPoint: { data: annotationPins(series), label: { color: '#fff' } } }
      : {}),
  };

  const lines: LineSeriesOption[] = [];
  const add = (
    id: string,
    name: string,
    pick: (p: SeriesPoint) => number | null,
    style: LineSeriesOption['lineStyle'],
    breakAtPhases = true,
  ) => {
    const data = stepLine(points, pick, breakAtPhases);
    if (hasValues(data)) lines.push(stepSeries(id, name, data, style, large));
  };
  add('cl', run ? 'Median' : 'Centre line', (p) => p.cl, { color: INK, width: 1.5 });
  if (!run) {
    const limits = 'Control limits (3σ)';
    add('ucl', limits, (p) => p.ucl, { color: LIMIT, type: 'dashed', width: 1.5 });
    add('lcl', limits, (p) => p.lcl, { color: LIMIT, type: 'dashed', width: 1.5 });
    if (options.sigma_lines.includes(2)) {
      add('ucl2', '2σ lines', (p) => p.ucl2, { color: SIGMA, type: 'dotted' });
      add('lcl2', '2σ lines', (p) => p.lcl2, { color: SIGMA, type: 'dotted' });
    }
    if (options.sigma_lines.includes(1)) {
      add('ucl1', '1σ lines', (p) => p.ucl1, { color: SIGMA, type: [2, 4] });
      add('lcl1', '1σ lines', (p) => p.lcl1, { color: SIGMA, type: [2, 4] });
    }
  }
  // A target belongs to the measure, not to a phase: it runs on across phase breaks.
  if (options.show_target) add('target', 'Target', (p) => p.target, { color: TARGET, type: [8, 4], width: 1.5 }, false);

  // Benchmarks sit on an empty series of their own, so the legend can switch them off.
  const benchmarks = options.show_benchmark ? series.benchmarks : [];
  const benchmarkSeries: LineSeriesOption[] =
    benchmarks.length > 0
      ? [
          {
            id: 'benchmarks',
            name: 'Benchmarks',
            type: 'line',
            data: [],
            itemStyle: { color: BENCHMARK },
            lineStyle: { color: BENCHMARK, type: 'dashed' },
            markLine: { symbol: ['none', 'none'], silent: true, data: benchmarkLines(series) },
          },
        ]
      : [];
  // markLines do not widen the axis: keep every benchmark in view.
  const benchmarkValues = benchmarks.map((b) => b.value);

  const allSeries = [valueSeries, ...lines, ...benchmarkSeries, ...signalSeries(points)];

  return {
    animation: !large,
    aria: { enabled: true, label: { description: describeSeries(series, title) } },
    legend: { top: 0, type: 'scroll', itemWidth: 18, textStyle: { fontSize: 12 } },
    grid: { top: 48, left: 56, right: 24, bottom: large ? 64 : 32, containLabel: false },
    tooltip: {
      trigger: 'axis',
      confine: true,
      axisPointer: { type: 'line' },
      formatter: (params) => {
        const first = Array.isArray(params) ? params[0] : params;
        const axisValue = (first as { axisValue?: string } | undefined)?.axisValue;
        const index = axisValue === undefined ? undefined : indexOf.get(String(axisValue));
        return index === undefined ? '' : pointTooltip(series, index, options);
      },
    },
    xAxis: { type: 'category', data: labels, boundaryGap: true, axisLabel: { hideOverlap: true } },
    yAxis: {
      type: 'value',
      scale: true,
      name: series.unit_label,
      nameTextStyle: { align: 'left' },
      ...(benchmarkValues.length > 0
        ? {
            // Benchmark lines are not data, so ECharts would not widen the axis for them; the bounds are rounded
            // to a step of the range so the end labels stay round numbers.
            min: (extent: { min: number; max: number }) =>
              niceBound(Math.min(extent.min, ...benchmarkValues), extent, benchmarkValues, Math.floor),
            max: (extent: { min: number; max: number }) =>
              niceBound(Math.max(extent.max, ...benchmarkValues), extent, benchmarkValues, Math.ceil),
          }
        : {}),
    },
    ...(large
      ? {
          dataZoom: [
            { type: 'inside', throttle: 50 },
            { type: 'slider', height: 20, bottom: 12 },
          ],
        }
      : {}),
    series: allSeries,
  };
}
