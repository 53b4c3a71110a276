import { Skeleton } from '@mantine/core';
import { Suspense } from 'react';
import { lazyNamed } from '../../lib/lazy-named';
import type { SpcChartProps } from './SpcChart';
import { CHART_HEIGHT } from './series-format';

// The only way to SpcChart (and so to ECharts): its chunk loads when a screen first draws a chart, or earlier when
// a page of charts is opened directly (preloadSpcChart). Through lazyNamed, so that a chart whose chunk is already
// here draws without suspending: a suspended chart is revealed up to 300 ms late (React throttles the reveal of
// Suspense content), which put the first chart of a page half a second after its data (bench/screens.ts).
const SpcChart = lazyNamed(() => import('./SpcChart'), 'default');

/** Fetches the chart's chunk now, while the page's data is asked for; a failure is left to the first draw. */
export function preloadSpcChart(): void {
  void SpcChart.preload();
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
