import { Table, Text } from '@mantine/core';
import { PROJECT_ROLE_LABELS } from '../../../lib/role-labels';
import type { UserRequest } from '../api/get-user-requests';
import { fullName, mainRoleLines } from './admin-format';

/** The first three cells of a new-user request row: who, their email, and the roles asked for. */
export function RequestPersonCells({ request }: { request: UserRequest }) {
  return (
    <>
      <Table.Td>
        <Text size="sm" fw={600}>
          {fullName(request)}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {request.email}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{PROJECT_ROLE_LABELS[request.project_role]}</Text>
        {mainRoleLines(request.main_roles).map((line) => (
          <Text key={line} size="xs" c="dimmed">
            {line}
          </Text>
        ))}
      </Table.Td>
    </>
  );
}
