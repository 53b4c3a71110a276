import { Skeleton } from '@mantine/core';
import { lazy, Suspense } from 'react';
import type { SpcChartProps } from './SpcChart';
import { CHART_HEIGHT } from './series-format';

// The only way to SpcChart (and so to ECharts): its chunk loads when a screen first draws a chart, or earlier when
// a page of charts is opened directly (preloadSpcChart).
const loadSpcChart = () => import('./SpcChart');
const SpcChart = lazy(loadSpcChart);

/** Fetches the chart's chunk now, while the page's data is asked for; a failure is left to the first draw. */
export function preloadSpcChart(): void {
  loadSpcChart().catch(() => undefined);
}

/** The SPC chart, loaded on demand; a skeleton of the chart's own height holds its place, so nothing jumps. */
export function LazySpcChart(props: SpcChartProps) {
  const height = props.height ?? CHART_HEIGHT;
  return (
    <Suspense fallback={<Skeleton height={height} radius="sm" aria-label="Loading the chart" role="status" />}>
      <SpcChart {...props} />
    </Suspense>
  );
}
