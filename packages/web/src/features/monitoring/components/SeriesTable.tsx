import { Group, Pagination, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import type { Series, SeriesPoint } from '@portal/shared';
import { useState } from 'react';
import {
  formatCount,
  formatNumber,
  formatValue,
  ruleNames,
  VARIATION_TEXT,
} from '../../../components/spc/series-format';
import type { DrawOptions } from '../../../components/spc/spc-chart-options';

const PAGE_SIZE = 100;

const num = (value: number | null) => (value === null ? '—' : formatNumber(value));

function notes(point: SeriesPoint): string {
  const parts: string[] = [];
  if (point.provisional) parts.push('Provisional: the period is not complete');
  if (point.excluded) parts.push('Excluded from the limits');
  if (point.value === null && point.gap) parts.push(`No value: ${point.gap}`);
  return parts.join('; ');
}

/**
 * The chart as a table (DOMAIN.md 1.2: always offer one): every period with its value, n, lines and the signals
 * named. Long series are shown a hundred periods at a time.
 */
export function SeriesTable({ series, options, title }: { series: Series; options: DrawOptions; title: string }) {
  const [page, setPage] = useState(1);
  const pages = Math.max(1, Math.ceil(series.points.length / PAGE_SIZE));
  const shown = series.points.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  const withDenominator = series.points.some((p) => p.denominator !== null);
  const control = series.chart !== 'run';
  const withTarget = options.show_target && series.points.some((p) => p.target !== null);

  return (
    <Stack gap="xs">
      <Table.ScrollContainer minWidth={640}>
        <Table striped withTableBorder>
          <caption>
            <VisuallyHidden>Data of {title}</VisuallyHidden>
          </caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Period</Table.Th>
              <Table.Th scope="col">Value</Table.Th>
              <Table.Th scope="col">n (rows)</Table.Th>
              {withDenominator && <Table.Th scope="col">Numerator / denominator</Table.Th>}
              <Table.Th scope="col">{control ? 'Centre line' : 'Median'}</Table.Th>
              {control && <Table.Th scope="col">Lower limit</Table.Th>}
              {control && <Table.Th scope="col">Upper limit</Table.Th>}
              {withTarget && <Table.Th scope="col">Target</Table.Th>}
              <Table.Th scope="col">Signals</Table.Th>
              <Table.Th scope="col">Notes</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.map((point) => (
              <Table.Tr key={point.period}>
                <Table.Th scope="row" fw={500}>
                  {point.label}
                </Table.Th>
                <Table.Td>{point.value === null ? '—' : formatValue(point.value, series.unit_label)}</Table.Td>
                <Table.Td>{formatCount(point.rows)}</Table.Td>
                {withDenominator && (
                  <Table.Td>
                    {point.numerator === null || point.denominator === null
                      ? '—'
                      : `${formatNumber(point.numerator)} / ${formatNumber(point.denominator)}`}
                  </Table.Td>
                )}
                <Table.Td>{num(point.cl)}</Table.Td>
                {control && <Table.Td>{num(point.lcl)}</Table.Td>}
                {control && <Table.Td>{num(point.ucl)}</Table.Td>}
                {withTarget && <Table.Td>{num(point.target)}</Table.Td>}
                <Table.Td>
                  {point.signals.length === 0 ? (
                    '—'
                  ) : (
                    <Stack gap={0}>
                      <Text size="sm" fw={600}>
                        {VARIATION_TEXT[point.variation === 'common' ? 'neutral' : point.variation]}
                      </Text>
                      {ruleNames(point.signals).map((rule) => (
                        <Text key={rule} size="sm">
                          {rule}
                        </Text>
                      ))}
                    </Stack>
                  )}
                </Table.Td>
                <Table.Td>{notes(point)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {pages > 1 && (
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Text size="sm" c="dimmed">
            Periods {formatCount((page - 1) * PAGE_SIZE + 1)} to{' '}
            {formatCount(Math.min(page * PAGE_SIZE, series.points.length))} of {formatCount(series.points.length)}
          </Text>
          <Pagination
            total={pages}
            value={page}
            onChange={setPage}
            size="sm"
            getControlProps={(control) => ({ 'aria-label': `${control} page` })}
          />
        </Group>
      )}
    </Stack>
  );
}
