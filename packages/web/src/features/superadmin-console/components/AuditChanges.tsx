import { Box, Text, VisuallyHidden } from '@mantine/core';
import type { ChangeRow } from '../audit-changes';
import { valueText } from '../audit-changes';

function Value({ value }: { value: unknown }) {
  const text = valueText(value);
  const empty = value === null || value === undefined || value === '' || (Array.isArray(value) && !value.length);
  return (
    <Text
      span
      size="sm"
      c={empty ? 'gray.7' : undefined}
      fs={empty ? 'italic' : undefined}
      style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}
    >
      {text}
    </Text>
  );
}

/**
 * The fields an event changed: each field in words, its value before → after; a secret field only as changed.
 * `stacked` (phone width) puts each value under its field instead of beside it.
 */
export function AuditChanges({ id, rows, stacked = false }: { id?: string; rows: ChangeRow[]; stacked?: boolean }) {
  return (
    <Box
      id={id}
      component="dl"
      m={0}
      data-audit-changes
      style={{
        display: 'grid',
        gridTemplateColumns: stacked ? 'minmax(0, 1fr)' : 'minmax(8rem, max-content) minmax(0, 1fr)',
        columnGap: 'var(--mantine-spacing-lg)',
        rowGap: stacked ? 0 : 'var(--mantine-spacing-xs)',
      }}
    >
      {rows.map((row) => (
        <ChangeItem key={row.field} row={row} stacked={stacked} />
      ))}
    </Box>
  );
}

function ChangeItem({ row, stacked }: { row: ChangeRow; stacked: boolean }) {
  return (
    <>
      <Text component="dt" size="sm" fw={600} mt={stacked ? 'xs' : 0}>
        {row.label}
      </Text>
      <Box component="dd" m={0} data-field={row.field}>
        {row.secret ? (
          <Text span size="sm" fs="italic">
            changed
            <VisuallyHidden> (its value is not recorded)</VisuallyHidden>
          </Text>
        ) : (
          <>
            <VisuallyHidden>from </VisuallyHidden>
            <Value value={row.from} />
            <Text span size="sm" c="gray.7" aria-hidden="true">
              {' → '}
            </Text>
            <VisuallyHidden> to </VisuallyHidden>
            <Value value={row.to} />
          </>
        )}
      </Box>
    </>
  );
}
