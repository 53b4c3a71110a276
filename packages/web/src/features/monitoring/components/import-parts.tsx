import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import {
  type DatasetColumnType,
  type DateFormat,
  IMPORT_MAX_BYTES,
  type ImportErrorPolicy,
  type ImportMode,
  type ImportStatus,
} from '@portal/shared';
import type { ReactNode } from 'react';
import { formatDay } from '../../../lib/dates';
import type { Encoding } from './import-draft';

/** Labels, formats and small pieces the CSV import screen shares (datasets, wizard, history). */

export const NO_DATASETS = 'No datasets yet. Create one, then import a CSV file.';
export const ACCEPT = '.csv,.txt,text/csv,text/plain';
export const SIZE_LIMIT = `CSV or text files (.csv, .txt) up to ${formatSize(IMPORT_MAX_BYTES)}.`;
export const AMBIGUOUS_DATES = "This file's dates could be read two ways (like 03/04/2026). Which order do they use?";

export const COLUMN_TYPE_LABELS: Record<DatasetColumnType, string> = {
  number: 'Number',
  text: 'Text',
  date: 'Date',
  boolean: 'Yes / no',
};

export const DATE_FORMAT_LABELS: Record<DateFormat, string> = {
  'YYYY-MM-DD': 'Year-month-day (2026-03-31)',
  'MM/DD/YYYY': 'Month first (03/04/2026 is March 4, 2026)',
  'DD/MM/YYYY': 'Day first (03/04/2026 is April 3, 2026)',
  'YYYY-MM': 'Year-month (2026-03)',
  'DD.MM.YYYY': 'Day.month.year (31.03.2026)',
};

export const ENCODING_LABELS: Record<Encoding, string> = {
  'utf-8': 'UTF-8',
  'utf-8-bom': 'UTF-8 with byte order mark',
  'windows-1252': 'Windows-1252 (Western European)',
};

export const DELIMITER_LABELS: Record<string, string> = {
  ',': 'Comma ( , )',
  ';': 'Semicolon ( ; )',
  '\t': 'Tab',
  '|': 'Vertical bar ( | )',
};

export const MODE_LABELS: Record<ImportMode, string> = {
  append: 'Append',
  replace_range: 'Replace a period',
  upsert: 'Update by key',
};

export const POLICY_LABELS: Record<ImportErrorPolicy, string> = {
  abort: 'Stop at the first error',
  skip: 'Skip bad rows and give me an error report',
};

const STATUS: Record<ImportStatus, { label: string; color: string }> = {
  uploaded: { label: 'Not imported yet', color: 'gray.8' },
  committing: { label: 'Importing', color: 'blue.9' },
  committed: { label: 'Imported', color: 'green.9' },
  failed: { label: 'Failed', color: 'red.9' },
  rolled_back: { label: 'Rolled back', color: 'orange.9' },
};

export function StatusBadge({ status }: { status: ImportStatus }) {
  return (
    <Badge variant="light" color={STATUS[status].color} data-status={status}>
      {STATUS[status].label}
    </Badge>
  );
}

export function formatCount(count: number, one: string, many: string): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
}

export function formatSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}

export function dateSpan(first: string | null, last: string | null): string {
  if (!first || !last) return '—';
  return first === last ? formatDay(first) : `${formatDay(first)} – ${formatDay(last)}`;
}

/** A titled section of the screen (its h2 names it for assistive technology). */
export function DataCard({
  id,
  title,
  actions,
  children,
}: {
  id: string;
  title: string;
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'lg' }} component="section" aria-labelledby={id}>
      <Stack gap="md">
        <Group justify="space-between" align="center" gap="sm" wrap="wrap">
          <Title order={2} fz="h4" id={id} style={{ overflowWrap: 'anywhere' }}>
            {title}
          </Title>
          {actions}
        </Group>
        {children}
      </Stack>
    </Paper>
  );
}

/**
 * Back and Next of a wizard step. Next stays disabled while `problem` says what is missing; the reason is shown
 * beside it and read with it.
 */
export function StepButtons({
  id,
  onBack,
  onNext,
  nextLabel = 'Next',
  problem,
  busy = false,
}: {
  id: string;
  onBack?: () => void;
  onNext: () => void;
  nextLabel?: string;
  problem: string | null;
  busy?: boolean;
}) {
  const reasonId = `${id}-reason`;
  return (
    <Stack gap={6}>
      <Group justify="space-between" gap="sm" wrap="wrap">
        {onBack ? (
          <Button variant="default" onClick={onBack}>
            Back
          </Button>
        ) : (
          <span />
        )}
        <Button
          onClick={onNext}
          disabled={problem !== null}
          loading={busy}
          aria-describedby={problem ? reasonId : undefined}
        >
          {nextLabel}
        </Button>
      </Group>
      {problem && (
        <Text size="sm" c="gray.8" ta="right" id={reasonId} data-testid="next-reason">
          {problem}
        </Text>
      )}
    </Stack>
  );
}
