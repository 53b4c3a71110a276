import { Box, Text, UnstyledButton } from '@mantine/core';
import {
  needsLeadership,
  SAFER_LIKELIHOOD_LABELS,
  SAFER_SCOPE_LABELS,
  SAFER_SCOPES,
  type SaferLikelihood,
  type SaferScope,
} from '@portal/shared';

/**
 * The SAFER matrix: likelihood to harm (rows, high at the top) by scope (columns). Read-only with counts (readiness),
 * or a picker with one cell chosen (the finding form). Upper-right cells, which need leadership involvement and a
 * preventive analysis, are shaded darker.
 */
const ROWS: SaferLikelihood[] = ['high', 'moderate', 'low'];

function shade(likelihood: SaferLikelihood, scope: SaferScope): string {
  if (needsLeadership(likelihood, scope)) return 'var(--mantine-color-red-1)';
  if (likelihood === 'low' && scope === 'limited') return 'var(--mantine-color-gray-0)';
  return 'var(--mantine-color-orange-0)';
}

interface Props {
  /** Counts per cell (read-only grid). */
  counts?: Partial<Record<`${SaferLikelihood}:${SaferScope}`, number>>;
  /** The chosen cell (picker). */
  value?: { likelihood: SaferLikelihood; scope: SaferScope } | null;
  onChange?: (cell: { likelihood: SaferLikelihood; scope: SaferScope }) => void;
  label: string;
}

export function SaferGrid({ counts, value, onChange, label }: Props) {
  const picker = onChange !== undefined;
  return (
    <Box
      role={picker ? 'radiogroup' : 'table'}
      aria-label={label}
      style={{ display: 'grid', gridTemplateColumns: 'minmax(5.5rem, auto) repeat(3, minmax(0, 1fr))', gap: 4 }}
    >
      <Box role={picker ? undefined : 'row'} style={{ display: 'contents' }}>
        <Text size="xs" c="dimmed" role={picker ? undefined : 'columnheader'}>
          Likelihood / scope
        </Text>
        {SAFER_SCOPES.map((scope) => (
          <Text key={scope} size="xs" fw={700} ta="center" role={picker ? undefined : 'columnheader'}>
            {SAFER_SCOPE_LABELS[scope]}
          </Text>
        ))}
      </Box>
      {ROWS.map((likelihood) => (
        <Box key={likelihood} role={picker ? undefined : 'row'} style={{ display: 'contents' }}>
          <Text size="xs" fw={700} role={picker ? undefined : 'rowheader'} style={{ alignSelf: 'center' }}>
            {SAFER_LIKELIHOOD_LABELS[likelihood]}
          </Text>
          {SAFER_SCOPES.map((scope) => {
            const key = `${likelihood}:${scope}` as const;
            const chosen = value?.likelihood === likelihood && value?.scope === scope;
            const cellLabel = `${SAFER_LIKELIHOOD_LABELS[likelihood]} likelihood, ${SAFER_SCOPE_LABELS[scope].toLowerCase()} scope`;
            const style = {
              background: chosen ? 'var(--mantine-color-blue-8)' : shade(likelihood, scope),
              color: chosen ? 'white' : 'var(--mantine-color-dark-7)',
              border: '1px solid var(--mantine-color-gray-4)',
              borderRadius: 6,
              minHeight: 44,
              display: 'flex',
              alignItems: 'center',
              justifyContent: 'center',
              fontWeight: 700,
            } as const;
            if (picker) {
              return (
                <UnstyledButton
                  key={key}
                  role="radio"
                  aria-checked={chosen}
                  aria-label={cellLabel}
                  onClick={() => onChange({ likelihood, scope })}
                  style={style}
                >
                  {chosen ? 'Chosen' : ''}
                </UnstyledButton>
              );
            }
            const n = counts?.[key] ?? 0;
            return (
              <Box key={key} role="cell" aria-label={`${cellLabel}: ${n} open`} style={style}>
                {n}
              </Box>
            );
          })}
        </Box>
      ))}
    </Box>
  );
}
