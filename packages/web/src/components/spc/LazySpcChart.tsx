import { Skeleton } from '@mantine/core';
import { lazy, Suspense } from 'react';
import type { SpcChartProps } from './SpcChart';
import { CHART_HEIGHT } from './series-format';

// The only way to SpcChart (and so to ECharts): its chunk loads when a screen first draws a chart.
const SpcChart = lazy(() => import('./SpcChart'));

/** The SPC chart, loaded on demand; a skeleton of the chart's own height holds its place, so nothing jumps. */
export function LazySpcChart(props: SpcChartProps) {
  const height = props.height ?? CHART_HEIGHT;
  return (
    <Suspense fallback={<Skeleton height={height} radius="sm" aria-label="Loading the chart" role="status" />}>
      <SpcChart {...props} />
    </Suspense>
  );
}
