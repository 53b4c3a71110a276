import { LineChart, ScatterChart } from 'echarts/charts';
import {
  AriaComponent,
  DataZoomComponent,
  GridComponent,
  LegendComponent,
  MarkLineComponent,
  MarkPointComponent,
  TooltipComponent,
} from 'echarts/components';
import { type EChartsType, init, use } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import type { SpcEChartsOption } from './spc-chart-options';

// Only what the SPC charts draw (DOMAIN.md 1.2: ~213 KB gz instead of the full 396 KB build).
use([
  LineChart,
  ScatterChart,
  GridComponent,
  TooltipComponent,
  MarkLineComponent,
  MarkPointComponent,
  DataZoomComponent,
  AriaComponent,
  LegendComponent,
  CanvasRenderer,
]);

/**
 * Charts waiting to be drawn, drawn one per animation frame, the highest on the page first: a page of ten charts
 * shows its first as soon as its data is here, and stays responsive while the others draw, instead of one long task
 * that paints all ten at its end (bench/screens.ts, the monitoring page).
 */
const waiting: { element: HTMLElement; draw: () => void }[] = [];
let turnAsked = false;

function drawInTurn(element: HTMLElement, draw: () => void): () => void {
  const entry = { element, draw };
  waiting.push(entry);
  if (!turnAsked) {
    turnAsked = true;
    requestAnimationFrame(drawNext);
  }
  return () => {
    const at = waiting.indexOf(entry);
    if (at >= 0) waiting.splice(at, 1);
  };
}

function drawNext(): void {
  let first = 0;
  for (let i = 1; i < waiting.length; i++) {
    if (waiting[i]!.element.compareDocumentPosition(waiting[first]!.element) & Node.DOCUMENT_POSITION_FOLLOWING) {
      first = i;
    }
  }
  const [entry] = waiting.splice(first, 1);
  try {
    entry?.draw();
  } finally {
    // A chart that fails to draw does not stop the others.
    turnAsked = waiting.length > 0;
    if (turnAsked) requestAnimationFrame(drawNext);
  }
}

/**
 * An ECharts instance on the returned div: created in its turn (`drawInTurn`), given each new option whole
 * (notMerge, so a line switched off in the options disappears), resized with its box, disposed on unmount.
 */
export function useEChart(option: SpcEChartsOption) {
  const ref = useRef<HTMLDivElement>(null);
  const chart = useRef<EChartsType | null>(null);
  const latest = useRef(option);
  latest.current = option;

  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    let observer: ResizeObserver | undefined;
    const cancel = drawInTurn(element, () => {
      const instance = init(element, undefined, { renderer: 'canvas' });
      chart.current = instance;
      instance.setOption(latest.current, { notMerge: true });
      observer = new ResizeObserver(() => instance.resize());
      observer.observe(element);
    });
    return () => {
      cancel();
      observer?.disconnect();
      chart.current?.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    chart.current?.setOption(option, { notMerge: true });
  }, [option]);

  return ref;
}
