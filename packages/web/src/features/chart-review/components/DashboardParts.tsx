import { Badge, Paper, Stack, Text } from '@mantine/core';
import { type CrRate, formatPercent } from '@portal/shared';
import type { ReactNode } from 'react';

/** What the dashboard screens share: rates in words (always with n), the target badge and the privilege banner. */

/** "81.8%" for a share from 0 to 1 (the shared percent format); "—" without one. */
export function formatShare(share: number | null): string {
  return formatPercent(share);
}

/** "n = 42". */
export const formatN = (n: number) => `n = ${n.toLocaleString('en-US')}`;

/** "52.3%–94.8%", or '' without an interval. */
export function formatIntervalRange(rate: Pick<CrRate, 'interval'>): string {
  if (!rate.interval) return '';
  return `${formatPercent(rate.interval.low)}–${formatPercent(rate.interval.high)}`;
}

/** "95% CI 52.3%–94.8%", or '' without an interval. */
export function formatInterval(rate: Pick<CrRate, 'interval'>): string {
  const range = formatIntervalRange(rate);
  return range ? `95% CI ${range}` : '';
}

/** "81.8% (n = 11; 95% CI 52.3%–94.8%)": a rate never travels without its n. */
export function describeRate(rate: CrRate): string {
  if (rate.rate === null) return `No rate yet (${formatN(rate.n)})`;
  const interval = formatInterval(rate);
  return `${formatShare(rate.rate)} (${formatN(rate.n)}${interval ? `; ${interval}` : ''})`;
}

/** Whether the rate meets the target, as a badge with words (never colour alone). */
export function TargetBadge({ meets, target }: { meets: boolean | null; target: number }) {
  if (meets === null) {
    return (
      <Badge color="gray.8" variant="light">
        Target {formatPercent(target, { digits: 2 })}: no rate yet
      </Badge>
    );
  }
  return (
    <Badge color={meets ? 'green.9' : 'red.9'} variant="light">
      {meets ? 'Meets' : 'Below'} target {formatPercent(target, { digits: 2 })}
    </Badge>
  );
}

/** A headline figure: the rate large, n and the interval under it. */
export function RateCard({ title, rate, children }: { title: string; rate: CrRate; children?: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label={title}>
      <Stack gap={4}>
        <Text size="sm" c="dimmed" fw={600}>
          {title}
        </Text>
        <Text fz={28} fw={700} lh={1.1}>
          {formatShare(rate.rate)}
        </Text>
        <Text size="sm">{formatN(rate.n)}</Text>
        {rate.interval && (
          <Text size="sm" c="dimmed">
            {formatInterval(rate)}
          </Text>
        )}
        {children}
      </Stack>
    </Paper>
  );
}

/** A count with its label. */
export function CountCard({ label, value, hint }: { label: string; value: number; hint?: string }) {
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label={label}>
      <Stack gap={2}>
        <Text size="sm" c="dimmed" fw={600}>
          {label}
        </Text>
        <Text fz={24} fw={700} lh={1.1}>
          {value.toLocaleString('en-US')}
        </Text>
        {hint && (
          <Text size="xs" c="dimmed">
            {hint}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
