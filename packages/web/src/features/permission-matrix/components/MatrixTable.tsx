import { Badge, Checkbox, Group, Table, Text } from '@mantine/core';
import { type PermissionApp, sectionLabel } from '@portal/shared';
import type { CSSProperties } from 'react';
import { roleLabel } from '../../../lib/role-labels';
import { hasRole, type MatrixRow } from './matrix-draft';

interface MatrixTableProps {
  app: PermissionApp;
  /** The columns: the app's main roles. */
  roles: readonly string[];
  rows: readonly MatrixRow[];
  disabled?: boolean;
  onToggle: (path: string, role: string, on: boolean) => void;
  onToggleAll: (path: string, on: boolean) => void;
}

const LOCKED_BG = 'var(--mantine-color-red-0)';
const PLAIN_BG = 'var(--mantine-color-body)';

/** The first column stays in view while the roles scroll sideways on a narrow screen. */
function stickyCell(background: string, header = false): CSSProperties {
  return {
    position: 'sticky',
    left: 0,
    zIndex: header ? 3 : 1,
    background,
    boxShadow: 'inset -1px 0 0 var(--mantine-color-gray-3)',
    minWidth: 200,
  };
}

export function LockIcon() {
  return (
    <svg width={12} height={12} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        d="M7 11V8a5 5 0 0 1 10 0v3M5 11h14v10H5z"
        fill="none"
        stroke="currentColor"
        strokeWidth={2.2}
        strokeLinejoin="round"
      />
    </svg>
  );
}

/** Rows: the app's sections; columns: its main roles; a checkbox per cell. */
export function MatrixTable({ app, roles, rows, disabled, onToggle, onToggleAll }: MatrixTableProps) {
  return (
    <Table.ScrollContainer minWidth={260 + 110 * (roles.length + 1)} maxHeight="70vh" type="native">
      <Table stickyHeader withColumnBorders verticalSpacing="xs" aria-label="Permission matrix" data-testid="matrix">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col" style={stickyCell(PLAIN_BG, true)}>
              Section
            </Table.Th>
            <Table.Th scope="col" ta="center" w={110}>
              All roles
            </Table.Th>
            {roles.map((role) => (
              <Table.Th key={role} scope="col" ta="center" w={110}>
                {roleLabel(role)}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => {
            const background = row.locked ? LOCKED_BG : PLAIN_BG;
            const count = roles.filter((role) => hasRole(row.allowed, role)).length;
            const section = sectionLabel(app, row.path);
            return (
              <Table.Tr
                key={row.path}
                data-path={row.path}
                data-locked={row.locked || undefined}
                style={row.locked ? { background: LOCKED_BG } : undefined}
              >
                <Table.Th scope="row" fw={400} style={stickyCell(background)}>
                  <Text size="sm" fw={500}>
                    {section.name}
                  </Text>
                  {section.about && (
                    <Text size="xs" c="dimmed">
                      {section.about}
                    </Text>
                  )}
                  {/* The address, for the administrator who needs it. */}
                  <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                    <code>{row.path}</code>
                  </Text>
                  {(row.locked || row.changedFromDefault || row.unsaved) && (
                    <Group gap={4} mt={4}>
                      {row.locked && (
                        <Badge size="xs" color="red.8" variant="light" leftSection={<LockIcon />}>
                          Locked
                        </Badge>
                      )}
                      {row.changedFromDefault && !row.unsaved && (
                        <Badge size="xs" color="gray.7" variant="outline">
                          Changed
                        </Badge>
                      )}
                      {row.unsaved && (
                        <Badge size="xs" color="blue.8" variant="light">
                          Unsaved
                        </Badge>
                      )}
                    </Group>
                  )}
                </Table.Th>
                <Table.Td ta="center">
                  <Checkbox
                    aria-label={`All roles may open ${section.name}`}
                    checked={roles.length > 0 && count === roles.length}
                    indeterminate={count > 0 && count < roles.length}
                    disabled={disabled || roles.length === 0}
                    onChange={(event) => onToggleAll(row.path, event.currentTarget.checked)}
                    styles={{ body: { justifyContent: 'center' } }}
                  />
                </Table.Td>
                {roles.map((role) => (
                  <Table.Td key={role} ta="center">
                    <Checkbox
                      aria-label={`${roleLabel(role)} may open ${section.name}`}
                      checked={hasRole(row.allowed, role)}
                      disabled={disabled}
                      onChange={(event) => onToggle(row.path, role, event.currentTarget.checked)}
                      styles={{ body: { justifyContent: 'center' } }}
                    />
                  </Table.Td>
                ))}
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
