import type { Series } from '@portal/shared';
import { useMemo } from 'react';
import { CHART_HEIGHT } from './series-format';
import { type DrawOptions, spcChartOption } from './spc-chart-options';
import { useEChart } from './use-echart';

export interface SpcChartProps {
  series: Series;
  options: DrawOptions;
  /** The chart's title: the name of the points in the legend and the start of the screen-reader description. */
  title: string;
  height?: number;
}

/**
 * The ECharts drawing of one SPC series. Default export for React.lazy (LazySpcChart): this module and the chart
 * library it imports load only when a screen (monitoring, chart review) draws a chart.
 */
export default function SpcChart({ series, options, title, height = CHART_HEIGHT }: SpcChartProps) {
  const { show_target, show_benchmark, show_annotations } = options;
  // Booleans, not the array: a parent that rebuilds its options object does not redraw the chart.
  const sigma1 = options.sigma_lines.includes(1);
  const sigma2 = options.sigma_lines.includes(2);
  const option = useMemo(() => {
    const sigma_lines = [...(sigma1 ? [1 as const] : []), ...(sigma2 ? [2 as const] : [])];
    return spcChartOption(series, { sigma_lines, show_target, show_benchmark, show_annotations }, title);
  }, [series, sigma1, sigma2, show_target, show_benchmark, show_annotations, title]);
  const ref = useEChart(option);
  return <div ref={ref} data-chart="spc" style={{ width: '100%', height }} />;
}
