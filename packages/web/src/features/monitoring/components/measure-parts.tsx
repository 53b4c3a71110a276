import { Badge, Code, Divider, Group, Mark, Paper, Stack, Table, Text, Title } from '@mantine/core';
import {
  type AnnotationKind,
  type AstronomicalPointCriterion,
  type BenchmarkStatistic,
  type ExpressionError,
  formatPercent,
  type IhiRunsTest,
  type ImprovementDirection,
  type MeasureType,
  type PeriodGrain,
  type PhaseReason,
  periodStart,
  type Series,
  type SpcRuleSet,
  type TargetKind,
} from '@portal/shared';
import { memo } from 'react';
import { QueryBody } from '../../../components/page-parts';
import { ApiError } from '../../../lib/api';
import { formatDateTime, formatDay } from '../../../lib/dates';
import { useFormulaVersions } from '../api/measures-detail';

/** Words, formats and small pieces the formula builder screens share. */

export const MEASURE_TYPE_SHORT: Record<MeasureType, string> = {
  proportion: 'Proportion',
  rate: 'Rate',
  ratio: 'Ratio',
  continuous: 'Continuous',
  count: 'Count',
  time_between: 'Time between events',
};

export const DIRECTION_LABELS: Record<ImprovementDirection, string> = {
  up: 'Higher is better',
  down: 'Lower is better',
  neutral: 'Neither (no direction)',
};

export const GRAIN_LABELS: Record<PeriodGrain, string> = {
  week: 'Week',
  month: 'Month',
  quarter: 'Quarter',
  year: 'Year',
};

export const RULE_PROFILE_LABELS: Record<SpcRuleSet, string> = {
  anhoej: 'Anhøj rules (longest run and crossings)',
  ihi_run: 'IHI run chart rules (shift, trend, runs, astronomical point)',
  healthcare: 'Healthcare (IHI) control chart rules',
  western_electric: 'Western Electric rules',
  nelson: 'Nelson rules',
};

/** The ihi_run options (docs/monitoring.md "Rules as published"); the default first. */
export const IHI_RUNS_TEST_LABELS: Record<IhiRunsTest, string> = {
  swed_eisenhart: 'Too few or too many (Swed-Eisenhart)',
  anhoej_crossings: 'Too few crossings only (Anhøj)',
};

export const ASTRONOMICAL_POINT_LABELS: Record<AstronomicalPointCriterion, string> = {
  i_chart: 'Flag beyond 3 sigma of the median',
  off: 'Do not flag (judge by eye)',
};

export const TARGET_KIND_LABELS: Record<TargetKind, string> = {
  target: 'Target',
  threshold: 'Threshold (least acceptable)',
  stretch: 'Stretch goal',
};

export const BENCHMARK_STATISTIC_LABELS: Record<BenchmarkStatistic, string> = {
  percentile: 'Percentile',
  mean: 'Mean',
  median: 'Median',
  sir: 'SIR (standardized infection ratio)',
};

export const PHASE_REASON_LABELS: Record<PhaseReason, string> = {
  definition_change: 'Definition change',
  sustained_shift: 'Sustained shift',
  intervention: 'Intervention',
  other: 'Other',
};

export const ANNOTATION_KIND_LABELS: Record<AnnotationKind, string> = {
  intervention: 'Intervention',
  pdsa: 'PDSA cycle',
  event: 'Event',
  data_issue: 'Data issue',
};

/** Select options from a label map, in the map's order. */
export function optionsOf<K extends string>(labels: Record<K, string>): { value: K; label: string }[] {
  return (Object.keys(labels) as K[]).map((value) => ({ value, label: labels[value] }));
}

/** What choosing a type sets: the scale, unit and direction a quality team would expect for it. */
export function typeDefaults(
  type: MeasureType,
  exposureLabel: string | null,
): { multiplier: number; unit_label: string; direction: ImprovementDirection } {
  switch (type) {
    case 'proportion':
      return { multiplier: 100, unit_label: '%', direction: 'up' };
    case 'rate':
      return {
        multiplier: 1000,
        unit_label: exposureLabel ? `per 1,000 ${exposureLabel.toLowerCase()}` : 'per 1,000',
        direction: 'down',
      };
    case 'ratio':
      return { multiplier: 1, unit_label: '', direction: 'down' };
    case 'continuous':
      return { multiplier: 1, unit_label: '', direction: 'neutral' };
    case 'count':
      return { multiplier: 1, unit_label: 'events', direction: 'down' };
    case 'time_between':
      return { multiplier: 1, unit_label: 'days', direction: 'up' };
  }
}

const numbers = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

export function formatNumber(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : numbers.format(value);
}

/** "12.5%" (the shared percent format) or "4.2 per 1,000 patient days". */
export function formatValue(value: number | null | undefined, unit: string): string {
  if (value === null || value === undefined) return '—';
  if (unit === '%') return formatPercent(value / 100);
  if (!unit) return numbers.format(value);
  return `${numbers.format(value)} ${unit}`;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The first day of the period that holds today (the person's calendar day). */
export function currentPeriodStart(grain: PeriodGrain): string {
  const now = new Date();
  return periodStart(`${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`, grain);
}

export const isIsoDate = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);

/** The formulas a save was refused for, with positions when the server sent them (details.formulas). */
export type FormulaField = 'numerator' | 'denominator' | 'value_expr';
export function formulaSpansOf(error: unknown): Partial<Record<FormulaField, ExpressionError[]>> {
  if (!(error instanceof ApiError) || error.status !== 400) return {};
  const details = (error.body as { details?: { formulas?: unknown } } | null)?.details?.formulas;
  if (!details || typeof details !== 'object') return {};
  const found: Partial<Record<FormulaField, ExpressionError[]>> = {};
  for (const field of ['numerator', 'denominator', 'value_expr'] as const) {
    const list = (details as Record<string, unknown>)[field];
    if (!Array.isArray(list)) continue;
    const spans = list.filter(
      (item): item is ExpressionError =>
        typeof item === 'object' &&
        item !== null &&
        typeof (item as ExpressionError).start === 'number' &&
        typeof (item as ExpressionError).end === 'number' &&
        typeof (item as ExpressionError).message === 'string',
    );
    if (spans.length > 0) found[field] = spans;
  }
  return found;
}

/** The expression with the characters an error is about marked (the message itself is the field's error). */
export function ExpressionErrorMark({ text, error }: { text: string; error: ExpressionError }) {
  const start = Math.min(Math.max(error.start, 0), text.length);
  const end = Math.min(Math.max(error.end, start), text.length);
  const marked = text.slice(start, end);
  return (
    <Stack gap={2} data-formula-error>
      <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {text.slice(0, start)}
        <Mark
          color="red.2"
          title={marked ? undefined : 'Here, at the end'}
          style={{ textDecoration: 'underline wavy' }}
        >
          {marked || '\u00a0'}
        </Mark>
        {text.slice(end)}
      </Code>
      <Text size="xs" c="dimmed">
        {start >= text.length ? 'Marked: the end of the formula.' : `Marked: from character ${start + 1}.`}
      </Text>
    </Stack>
  );
}

const VARIATION_TEXT = {
  improvement: 'Special-cause variation pointing to improvement.',
  concern: 'Special-cause variation pointing to a concern.',
  common: 'Common-cause variation only: no signal.',
  neutral: 'Special-cause variation (the measure has no direction of improvement).',
} as const;

const ASSURANCE_TEXT = {
  pass: 'The process consistently meets the target.',
  fail: 'The process consistently misses the target.',
  hit_and_miss: 'The process meets the target in some periods and misses it in others.',
} as const;

/** The SPC reading of a preview, in words. */
export function seriesReading(series: Series): string {
  const { summary } = series;
  const parts: string[] = [];
  if (summary.variation) parts.push(VARIATION_TEXT[summary.variation]);
  if (summary.assurance) parts.push(ASSURANCE_TEXT[summary.assurance]);
  if (summary.baseline_points > 0)
    parts.push(
      `Limits from ${summary.baseline_points} points${summary.trial ? ' (trial limits: fewer than 20 points)' : ''}.`,
    );
  return parts.join(' ');
}

/** The latest 12 periods of a whole-measure preview. */
export function MeasurePreviewTable({ series, withDenominator }: { series: Series; withDenominator: boolean }) {
  if (series.points.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {series.empty_reason ?? 'No periods to show yet.'}
      </Text>
    );
  }
  const points = series.points.slice(-12);
  const reading = seriesReading(series);
  return (
    <Stack gap="xs">
      <Table.ScrollContainer minWidth={withDenominator ? 460 : 320}>
        <Table striped withTableBorder fz="sm" data-measure-preview>
          <Table.Caption>The latest {points.length} periods on the current data</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Period</Table.Th>
              {withDenominator && (
                <>
                  <Table.Th scope="col">Numerator</Table.Th>
                  <Table.Th scope="col">Denominator</Table.Th>
                </>
              )}
              <Table.Th scope="col">Value</Table.Th>
              <Table.Th scope="col">Rows</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {points.map((point) => (
              <Table.Tr key={point.period}>
                <Table.Th scope="row" fw={400}>
                  {point.label}
                  {point.provisional && (
                    <Text span size="xs" c="dimmed">
                      {' '}
                      (incomplete)
                    </Text>
                  )}
                </Table.Th>
                {withDenominator && (
                  <>
                    <Table.Td>{formatNumber(point.numerator)}</Table.Td>
                    <Table.Td>{formatNumber(point.denominator)}</Table.Td>
                  </>
                )}
                <Table.Td>
                  {point.value === null && point.gap ? (
                    <Text span size="sm" c="dimmed">
                      No value ({point.gap})
                    </Text>
                  ) : (
                    formatValue(point.value, series.unit_label)
                  )}
                </Table.Td>
                <Table.Td>{formatNumber(point.rows)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {reading && <Text size="sm">{reading}</Text>}
    </Stack>
  );
}

/** The definitions a measure has had, newest first: who changed what, why, and whether a phase started. */
export const FormulaVersionsList = memo(function FormulaVersionsList({
  projectId,
  measureId,
}: {
  projectId: string;
  measureId: number;
}) {
  const versions = useFormulaVersions(projectId, measureId);
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={3} fz="h4">
          Definition history
        </Title>
        <QueryBody
          query={versions}
          fallback="The definition history could not be loaded."
          loadingLabel="Loading the definition history"
          rows={2}
        >
          {(data) =>
            data.length === 0 ? (
              <Text size="sm" c="dimmed">
                No definition saved yet.
              </Text>
            ) : (
              <Stack gap="sm" component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
                {data.map((version, index) => (
                  <Stack key={version.version} gap={4} component="li" data-version={version.version}>
                    {index > 0 && <Divider mb={4} />}
                    <Group gap="xs" wrap="wrap">
                      <Text fw={600}>Version {version.version}</Text>
                      {index === 0 && (
                        <Badge size="sm" variant="light" color="green.9">
                          Current
                        </Badge>
                      )}
                      <Text size="sm" c="dimmed">
                        {formatDateTime(version.created_at)}
                        {version.created_by ? ` by ${version.created_by.name}` : ''}
                      </Text>
                    </Group>
                    {version.note && <Text size="sm">{version.note}</Text>}
                    <Text size="sm">Dataset: {version.dataset?.name ?? 'none'}</Text>
                    {(
                      [
                        ['Numerator', version.numerator],
                        ['Denominator', version.denominator],
                        ['Value', version.value_expr],
                      ] as const
                    )
                      .filter(([, expression]) => expression !== '')
                      .map(([label, expression]) => (
                        <Text key={label} size="sm">
                          {label}: <Code style={{ overflowWrap: 'anywhere' }}>{expression}</Code>
                        </Text>
                      ))}
                    {version.phase_start && (
                      <Text size="sm" c="dimmed">
                        A new phase starts on {formatDay(version.phase_start)}.
                      </Text>
                    )}
                  </Stack>
                ))}
              </Stack>
            )
          }
        </QueryBody>
      </Stack>
    </Paper>
  );
});
