// Bundled by bench/chart-render.ts: the app's own chart code (the ECharts components it registers and the option it
// builds) drawing one series of window.BENCH_POINTS points; the time from init to two frames after ECharts reports
// the render finished is left in window.benchResult.
import { init } from 'echarts/core';
import { spcChartOption } from '../../packages/web/src/components/spc/spc-chart-options.ts';
// Registers the same ECharts components as the monitoring screens.
import '../../packages/web/src/components/spc/use-echart.ts';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function series(n) {
  const points = [];
  for (let i = 0; i < n; i++) {
    const value = 40 + 10 * Math.sin(i / 50) + ((i * 7919) % 13);
    const day = new Date(Date.UTC(2000, 0, 1 + i));
    points.push({
      period: day.toISOString().slice(0, 10),
      label: `${day.getUTCDate()} ${MONTHS[day.getUTCMonth()]} ${day.getUTCFullYear()}`,
      rows: 1,
      numerator: null,
      denominator: null,
      value,
      gap: null,
      excluded: false,
      provisional: false,
      phase: 0,
      cl: 46,
      ucl: 70,
      lcl: 22,
      ucl2: 62,
      lcl2: 30,
      ucl1: 54,
      lcl1: 38,
      signals: i % 997 === 0 ? ['outside_limits'] : [],
      variation: i % 997 === 0 ? 'concern' : 'common',
      target: 45,
    });
  }
  return {
    measure_id: 1,
    chart: 'i',
    rule_profile: 'western_electric',
    grain: 'week',
    unit_label: 'minutes',
    multiplier: 1,
    direction: 'down',
    stratum: null,
    strata: [],
    points,
    summary: {
      variation: 'common',
      assurance: null,
      trial: false,
      baseline_points: n,
      useful_points: n,
      longest_run: null,
      crossings: null,
      run_limit: null,
      crossing_limit: null,
    },
    benchmarks: [],
    annotations: [],
    phases: [],
    formula_version: 1,
    formula_hash: null,
    dataset_version: 1,
    computed_at: new Date().toISOString(),
    compute_ms: 0,
    empty_reason: null,
  };
}

window.runBench = (n) =>
  new Promise((resolve) => {
    const element = document.getElementById('chart');
    const option = spcChartOption(
      series(n),
      { sigma_lines: [1, 2], show_target: true, show_benchmark: true, show_annotations: true },
      'Benchmark',
    );
    const start = performance.now();
    const chart = init(element, undefined, { renderer: 'canvas' });
    chart.on('finished', () => {
      requestAnimationFrame(() =>
        requestAnimationFrame(() => {
          const ms = performance.now() - start;
          chart.dispose();
          resolve(ms);
        }),
      );
    });
    chart.setOption(option);
  });
