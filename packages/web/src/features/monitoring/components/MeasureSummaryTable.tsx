import { Anchor, Badge, Group, Stack, Table, Text } from '@mantine/core';
import type { ImprovementDirection, MeasureSummary } from '@portal/shared';
import { Link } from 'react-router';
import { ScrollTable } from '../../../components/form-parts/ScrollTable';
import {
  ASSURANCE_COLOR,
  ASSURANCE_TEXT,
  type Assurance,
  benchmarkName,
  formatN,
  formatValue,
  ruleNames,
  VARIATION_COLOR,
  VARIATION_TEXT,
  type Variation,
} from '../../../components/spc/series-format';
import { formatDayLong } from '../../../lib/dates';
import { Sparkline } from './Sparkline';

/**
 * Glyphs inside the NHS "Making Data Count" style circles: an arrow the way the signal went (high or low), a flat
 * wave for common cause; a tick, a cross or a wave for assurance. The text label always sits beside the icon.
 */
function variationGlyph(variation: Variation, direction: ImprovementDirection): string {
  if (variation === 'common') return 'M6 12c2-3 4-3 6 0s4 3 6 0';
  const up = variation === 'neutral' ? null : (variation === 'improvement') === (direction !== 'down');
  if (up === null) return 'M12 7v6M12 16.5v.5';
  return up ? 'M12 17V7M8 11l4-4 4 4' : 'M12 7v10M8 13l4 4 4-4';
}

const ASSURANCE_GLYPH: Record<Assurance, string> = {
  pass: 'M7 12.5l3.2 3.2L17 9',
  fail: 'M8 8l8 8M16 8l-8 8',
  hit_and_miss: 'M6 12c2-3 4-3 6 0s4 3 6 0',
};

function Icon({ color, path }: { color: string; path: string }) {
  return (
    <svg width={22} height={22} viewBox="0 0 24 24" aria-hidden="true" focusable="false" style={{ flexShrink: 0 }}>
      <circle cx={12} cy={12} r={11} fill={color} />
      <path d={path} fill="none" stroke="#fff" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

export function VariationIcon({
  variation,
  direction,
}: {
  variation: Variation | null;
  direction: ImprovementDirection;
}) {
  if (variation === null) return <Text size="sm">Not enough data</Text>;
  return (
    <Group gap={6} wrap="nowrap" data-variation={variation}>
      <Icon color={VARIATION_COLOR[variation]} path={variationGlyph(variation, direction)} />
      <Text size="sm">{VARIATION_TEXT[variation]}</Text>
    </Group>
  );
}

export function AssuranceIcon({ assurance }: { assurance: Assurance | null }) {
  if (assurance === null) return <Text size="sm">No target to assure</Text>;
  return (
    <Group gap={6} wrap="nowrap" data-assurance={assurance}>
      <Icon color={ASSURANCE_COLOR[assurance]} path={ASSURANCE_GLYPH[assurance]} />
      <Text size="sm">{ASSURANCE_TEXT[assurance]}</Text>
    </Group>
  );
}

function Latest({ measure }: { measure: MeasureSummary }) {
  const latest = measure.latest;
  if (!latest) return <Text size="sm">No data yet</Text>;
  return (
    <Stack gap={0}>
      <Text size="sm" fw={600}>
        {formatValue(latest.value, measure.unit_label)}
      </Text>
      <Text size="xs" c="dimmed">
        {latest.label} · {formatN(latest)}
      </Text>
    </Stack>
  );
}

function BenchmarkCell({ measure }: { measure: MeasureSummary }) {
  const benchmark = measure.benchmark;
  if (!benchmark) return <Text size="sm">—</Text>;
  return (
    <Stack gap={2} align="flex-start">
      <Text size="sm">{formatValue(benchmark.value, measure.unit_label)}</Text>
      <Text size="xs" c="dimmed">
        {benchmarkName(benchmark)}
        {benchmark.period_label ? `, ${benchmark.period_label}` : ''} · as of {formatDayLong(benchmark.as_of)}
      </Text>
      {!benchmark.spec_match && (
        <Badge size="xs" variant="outline" color="gray.8">
          Not comparable
        </Badge>
      )}
    </Stack>
  );
}

/**
 * The page view's summary of its measures (DOMAIN.md 1.8): latest value and n, target, benchmark, the variation
 * and assurance readings (icon and words, never colour alone) and the recent trend.
 */
export function MeasureSummaryTable({
  measures,
  standardsHref,
}: {
  measures: MeasureSummary[];
  /** Where a measure is linked to standards (add-standards), for those who may; no link without it. */
  standardsHref?: (measureId: number) => string;
}) {
  return (
    <ScrollTable
      minWidth={760}
      verticalSpacing="sm"
      aria-label="Measures of this page"
      columns={['Measure', 'Latest', 'Target', 'Benchmark', 'Variation', 'Assurance', 'Trend']}
    >
      {measures.map((measure) => {
        const values = measure.sparkline.filter((v): v is number => v !== null);
        const trend =
          values.length === 0
            ? `${measure.name}: no recent values`
            : `${measure.name}, last ${measure.sparkline.length} periods: from ${formatValue(values[0]!, measure.unit_label)} to ${formatValue(values[values.length - 1]!, measure.unit_label)}`;
        return (
          <Table.Tr key={measure.measure_id} data-measure-id={measure.measure_id}>
            <Table.Th scope="row" fw={600} style={{ overflowWrap: 'anywhere' }}>
              {measure.name}
              {measure.trial && (
                <Badge ml={6} size="xs" variant="light" color="gray.8">
                  Trial limits
                </Badge>
              )}
              {standardsHref && (
                <Anchor
                  component={Link}
                  to={standardsHref(measure.measure_id)}
                  display="block"
                  size="xs"
                  fw={400}
                  aria-label={`Standards of ${measure.name}`}
                >
                  Standards
                </Anchor>
              )}
            </Table.Th>
            <Table.Td>
              <Latest measure={measure} />
            </Table.Td>
            <Table.Td>
              {measure.target ? (
                <Text size="sm">
                  {formatValue(measure.target.value, measure.unit_label)}
                  {measure.target.kind !== 'target' ? ` (${measure.target.kind})` : ''}
                </Text>
              ) : (
                <Text size="sm">—</Text>
              )}
            </Table.Td>
            <Table.Td>
              <BenchmarkCell measure={measure} />
            </Table.Td>
            <Table.Td>
              <Stack gap={2}>
                <VariationIcon variation={measure.variation} direction={measure.direction} />
                {ruleNames(measure.signals).map((rule) => (
                  <Text key={rule} size="xs" c="dimmed">
                    {rule}
                  </Text>
                ))}
              </Stack>
            </Table.Td>
            <Table.Td>
              <AssuranceIcon assurance={measure.assurance} />
            </Table.Td>
            <Table.Td>
              <Sparkline
                values={measure.sparkline}
                label={trend}
                color={VARIATION_COLOR[measure.variation ?? 'common']}
              />
            </Table.Td>
          </Table.Tr>
        );
      })}
    </ScrollTable>
  );
}
