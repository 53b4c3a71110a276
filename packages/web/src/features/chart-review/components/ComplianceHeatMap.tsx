import { Box, Group, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import type { CrHeatRow } from '@portal/shared';
import { formatN, formatShare } from './DashboardParts';

/** Cells resting on fewer cases than this are greyed: too few to read a rate into (DOMAIN.md 2.3). */
export const SMALL_N = 5;

export type HeatBand = 'small' | 'meets' | 'near' | 'below' | 'none';

/** Within this many points below the target a cell is "near" rather than "below". */
const NEAR = 0.1;

/** The band of a cell: no data, too few cases, at or above the target, within 10 points below it, or further. */
export function heatBand(cell: { rate: number | null; n: number }, target: number): HeatBand {
  if (cell.n === 0 || cell.rate === null) return 'none';
  if (cell.n < SMALL_N) return 'small';
  if (cell.rate >= target) return 'meets';
  return cell.rate >= target - NEAR ? 'near' : 'below';
}

// Light backgrounds with dark text keep 4.5:1 contrast; the words in each cell carry the meaning, not the colour.
const BAND_STYLE: Record<HeatBand, { background: string; label: string }> = {
  meets: { background: 'var(--mantine-color-green-1)', label: 'At or above target' },
  near: { background: 'var(--mantine-color-orange-1)', label: 'Up to 10 points below target' },
  below: { background: 'var(--mantine-color-red-1)', label: 'More than 10 points below target' },
  small: { background: 'var(--mantine-color-gray-2)', label: `Fewer than ${SMALL_N} cases: not rated` },
  none: { background: 'transparent', label: 'No applicable answers' },
};

const SR_BAND: Record<HeatBand, string> = {
  meets: '',
  near: ', below target',
  below: ', below target',
  small: `, fewer than ${SMALL_N} cases`,
  none: '',
};

function Legend() {
  return (
    <Group gap="md" wrap="wrap" component="ul" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Legend">
      {(['meets', 'near', 'below', 'small'] as const).map((band) => (
        <Group key={band} gap={6} component="li" wrap="nowrap">
          <Box
            w={16}
            h={16}
            style={{ background: BAND_STYLE[band].background, border: '1px solid var(--mantine-color-gray-5)' }}
            aria-hidden
          />
          <Text size="sm">{BAND_STYLE[band].label}</Text>
        </Group>
      ))}
    </Group>
  );
}

/**
 * The question x unit heat map of a period: a real table, each cell coloured by its rate against the target and
 * holding the rate and n as text; cells with n below 5 are greyed and their rate shown dimmed. Scrolls sideways
 * on a phone.
 */
export function ComplianceHeatMap({ rows, units, target }: { rows: CrHeatRow[]; units: string[]; target: number }) {
  if (rows.length === 0 || units.length === 0) {
    return <Text c="dimmed">No units or questions to compare for this period.</Text>;
  }
  return (
    <Stack gap="xs">
      <Table.ScrollContainer minWidth={Math.max(480, 240 + units.length * 110)}>
        <Table withTableBorder withColumnBorders aria-label="Compliance by question and unit">
          <caption>
            <VisuallyHidden>
              Compliance by question and unit, with the number of applicable answers in each cell
            </VisuallyHidden>
          </caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Question</Table.Th>
              {units.map((unit) => (
                <Table.Th key={unit} scope="col" ta="center">
                  {unit}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.key}>
                <Table.Th scope="row" fw={500} style={{ minWidth: 200 }}>
                  <Text size="sm">{row.text}</Text>
                </Table.Th>
                {row.cells.map((cell) => {
                  const band = heatBand(cell, target);
                  return (
                    <Table.Td
                      key={cell.unit}
                      ta="center"
                      data-band={band}
                      style={{ background: BAND_STYLE[band].background }}
                    >
                      {band === 'none' ? (
                        <Text size="sm" c="dimmed">
                          —<VisuallyHidden> no applicable answers</VisuallyHidden>
                        </Text>
                      ) : (
                        <>
                          <Text size="sm" fw={band === 'small' ? 400 : 700} c={band === 'small' ? 'gray.8' : undefined}>
                            {formatShare(cell.rate)}
                          </Text>
                          <Text size="xs" c="gray.8">
                            {formatN(cell.n)}
                            <VisuallyHidden>{SR_BAND[band]}</VisuallyHidden>
                          </Text>
                        </>
                      )}
                    </Table.Td>
                  );
                })}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Legend />
    </Stack>
  );
}
