import { Stack, Switch, Table, Text, VisuallyHidden } from '@mantine/core';
import type { CrTrend, Series } from '@portal/shared';
import { useMemo, useState } from 'react';
import { LazySpcChart } from '../../../components/spc/LazySpcChart';
import { ruleNames, VARIATION_TEXT } from '../../../components/spc/series-format';
import type { DrawOptions } from '../../../components/spc/spc-chart-options';
import { formatShare } from './DashboardParts';

/**
 * The programme's compliance over time as a P chart. The server computed the points, centre line, limits and signals
 * with the shared SPC engine (as shares from 0 to 1); this maps them onto the monitoring chart's `Series` (in
 * percent) so the one chart code draws them, and offers the same data as a table.
 */

const toPercent = (value: number | null) => (value === null ? null : value * 100);

/** The monitoring `Series` of a compliance trend, in percent, with the target line. */
export function trendSeries(trend: CrTrend, target: number): Series {
  return {
    measure_id: null,
    chart: trend.chart,
    rule_profile: trend.rule_profile,
    grain: trend.grain,
    unit_label: '%',
    multiplier: 100,
    direction: 'up',
    stratum: null,
    strata: [],
    points: trend.points.map((point) => ({
      period: point.period,
      label: point.label,
      rows: point.cases,
      numerator: point.numerator,
      denominator: point.denominator,
      value: toPercent(point.value),
      gap: point.gap,
      excluded: false,
      provisional: false,
      phase: point.phase,
      cl: toPercent(point.cl),
      ucl: toPercent(point.ucl),
      lcl: toPercent(point.lcl),
      ucl2: toPercent(point.ucl2),
      lcl2: toPercent(point.lcl2),
      ucl1: toPercent(point.ucl1),
      lcl1: toPercent(point.lcl1),
      signals: point.signals,
      variation: point.variation,
      target: target * 100,
    })),
    summary: trend.summary,
    benchmarks: [],
    annotations: [],
    phases: [],
    formula_version: 0,
    formula_hash: null,
    dataset_version: 0,
    computed_at: '',
    compute_ms: 0,
    empty_reason: trend.points.length === 0 ? 'No periods sampled yet.' : null,
  };
}

const DRAW: DrawOptions = { sigma_lines: [], show_target: true, show_benchmark: false, show_annotations: false };
const TITLE = 'Overall compliance';

function TrendTable({ trend }: { trend: CrTrend }) {
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped withTableBorder aria-label="Overall compliance by period">
        <caption>
          <VisuallyHidden>Overall compliance by period, with the P chart's lines and signals</VisuallyHidden>
        </caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Period</Table.Th>
            <Table.Th scope="col">Compliance</Table.Th>
            <Table.Th scope="col">Items met / applicable</Table.Th>
            <Table.Th scope="col">Cases</Table.Th>
            <Table.Th scope="col">Centre line</Table.Th>
            <Table.Th scope="col">Limits</Table.Th>
            <Table.Th scope="col">Signals</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {trend.points.map((point) => (
            <Table.Tr key={point.period}>
              <Table.Th scope="row" fw={500}>
                {point.label}
              </Table.Th>
              <Table.Td>{point.value === null ? 'No counted cases' : formatShare(point.value)}</Table.Td>
              <Table.Td>
                {point.numerator === null || point.denominator === null
                  ? '—'
                  : `${point.numerator.toLocaleString('en-US')} / ${point.denominator.toLocaleString('en-US')}`}
              </Table.Td>
              <Table.Td>{point.cases}</Table.Td>
              <Table.Td>{formatShare(point.cl)}</Table.Td>
              <Table.Td>
                {point.lcl === null || point.ucl === null
                  ? '—'
                  : `${formatShare(point.lcl)} to ${formatShare(point.ucl)}`}
              </Table.Td>
              <Table.Td>
                {point.signals.length === 0
                  ? '—'
                  : `${VARIATION_TEXT[point.variation === 'common' ? 'neutral' : point.variation]}: ${ruleNames(point.signals).join('; ')}`}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** The P chart of overall compliance per period (or, at the switch, its table), with the trial-limits note. */
export function CompliancePChart({ trend, target }: { trend: CrTrend; target: number }) {
  const [table, setTable] = useState(false);
  const series = useMemo(() => trendSeries(trend, target), [trend, target]);
  if (trend.points.length === 0) {
    return <Text c="dimmed">No periods sampled yet: the chart starts with the first sample.</Text>;
  }
  return (
    <Stack gap="xs">
      {trend.summary.trial && (
        <Text size="sm" c="dimmed">
          Trial limits: computed from {trend.summary.baseline_points}{' '}
          {trend.summary.baseline_points === 1 ? 'period' : 'periods'} (fewer than 20), so they may move as periods are
          added.
        </Text>
      )}
      {table ? <TrendTable trend={trend} /> : <LazySpcChart series={series} options={DRAW} title={TITLE} />}
      <Switch
        size="sm"
        label="Show data table"
        checked={table}
        onChange={(event) => setTable(event.currentTarget.checked)}
      />
    </Stack>
  );
}
