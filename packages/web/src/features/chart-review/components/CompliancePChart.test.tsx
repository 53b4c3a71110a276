import type { CrTrend } from '@portal/shared';
import { describe, expect, it, vi } from 'vitest';
import { click, render, text, waitFor } from '../../../test/render';
import { CompliancePChart, trendSeries } from './CompliancePChart';
import { field, rows } from './cr-test-fixtures';

// jsdom has no canvas: the monitoring chart is replaced; what it is given is checked.
vi.mock('../../../components/spc/SpcChart', () => ({
  default: (props: { title: string; series: { points: { value: number | null; target: number | null }[] } }) => (
    <div
      data-testid="spc-chart"
      data-title={props.title}
      data-values={props.series.points.map((p) => p.value ?? 'gap').join(',')}
      data-target={props.series.points[0]?.target}
    />
  ),
}));

const lines = { ucl2: null, lcl2: null, ucl1: null, lcl1: null, phase: 0 };
const TREND: CrTrend = {
  chart: 'p',
  rule_profile: 'anhoej',
  grain: 'month',
  points: [
    {
      period: '2026-01-01',
      label: 'Jan 2026',
      numerator: 5,
      denominator: 8,
      cases: 2,
      value: 0.625,
      gap: null,
      cl: 0.75,
      ucl: 1,
      lcl: 0.25,
      signals: [],
      variation: 'common',
      ...lines,
    },
    {
      period: '2026-02-01',
      label: 'Feb 2026',
      numerator: null,
      denominator: null,
      cases: 0,
      value: null,
      gap: 'no denominator',
      cl: 0.75,
      ucl: null,
      lcl: null,
      signals: [],
      variation: 'common',
      ...lines,
    },
    {
      period: '2026-03-01',
      label: 'Mar 2026',
      numerator: 7,
      denominator: 8,
      cases: 3,
      value: 0.875,
      gap: null,
      cl: 0.75,
      ucl: 1,
      lcl: 0.375,
      signals: ['outside_limits'],
      variation: 'improvement',
      ...lines,
    },
  ],
  summary: {
    variation: 'improvement',
    assurance: 'hit_and_miss',
    trial: true,
    baseline_points: 2,
    useful_points: 2,
    longest_run: null,
    crossings: null,
    run_limit: null,
    crossing_limit: null,
  },
};

describe('CompliancePChart', () => {
  it("maps the server's shares onto the monitoring chart's series in percent, with the target", () => {
    const series = trendSeries(TREND, 0.9);
    expect(series.chart).toBe('p');
    expect(series.unit_label).toBe('%');
    expect(series.points.map((p) => [p.label, p.value, p.cl, p.ucl, p.lcl, p.rows, p.target])).toEqual([
      ['Jan 2026', 62.5, 75, 100, 25, 2, 90],
      ['Feb 2026', null, 75, null, null, 0, 90],
      ['Mar 2026', 87.5, 75, 100, 37.5, 3, 90],
    ]);
    expect(series.points[2]!.signals).toEqual(['outside_limits']);
    expect(series.empty_reason).toBeNull();
  });

  it('draws the chart with the one chart code and offers the data as a table', async () => {
    await render(<CompliancePChart trend={TREND} target={0.9} />);
    await waitFor(() => expect(document.querySelector('[data-testid="spc-chart"]')).not.toBeNull());
    const chart = document.querySelector('[data-testid="spc-chart"]')!;
    expect(chart.getAttribute('data-values')).toBe('62.5,gap,87.5');
    expect(chart.getAttribute('data-target')).toBe('90');
    expect(text()).toContain('Trial limits: computed from 2 periods');

    await click(field('Show data table'));
    await waitFor(() => expect(rows('table[aria-label="Overall compliance by period"]')).toHaveLength(3));
    expect(rows('table[aria-label="Overall compliance by period"]')).toEqual([
      ['Jan 2026', '62.5%', '5 / 8', '2', '75%', '25% to 100%', '—'],
      ['Feb 2026', 'No counted cases', '—', '0', '75%', '—', '—'],
      [
        'Mar 2026',
        '87.5%',
        '7 / 8',
        '3',
        '75%',
        '37.5% to 100%',
        expect.stringContaining('A point outside the control limits'),
      ],
    ]);
    expect(document.querySelector('[data-testid="spc-chart"]')).toBeNull();
  });

  it('says when no period has been sampled', async () => {
    await render(<CompliancePChart trend={{ ...TREND, points: [] }} target={0.9} />);
    expect(text()).toContain('No periods sampled yet');
  });
});
