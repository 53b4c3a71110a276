import { Group, Select, Stack, Table, Text } from '@mantine/core';
import { DATA_REQUEST_STATUSES, type DataRequestStatus, FINISHED_REQUEST_STATUSES } from '@portal/shared';
import { useState } from 'react';
import { RowAction } from '../../../components/form-parts/RowAction';
import { LoadFailure, LoadingRows } from '../../../components/page-parts';
import { formatDateTime, formatDay } from '../../../lib/dates';
import { type RequestScope, useRequests } from '../api/requests-list';
import { OverdueBadge, pagesText, REQUEST_STATUS_LABEL, RequestStatusBadge } from './request-parts';
import { useMonitoringProjectId } from './use-monitoring-project';

type StatusFilter = 'open' | 'all' | DataRequestStatus;

const FILTERS: { value: StatusFilter; label: string }[] = [
  { value: 'open', label: 'Open requests' },
  { value: 'all', label: 'All requests' },
  ...DATA_REQUEST_STATUSES.map((status) => ({ value: status, label: REQUEST_STATUS_LABEL[status] })),
];

/**
 * A table of data requests: the user's own ("My requests") or, for data stewards, every request ("Queue", with a
 * status filter and the requester and assignee). Overdue requests (needed by a day that has passed) stand out.
 */
export function RequestTable({ scope, onOpen }: { scope: RequestScope; onOpen: (requestId: number) => void }) {
  const projectId = useMonitoringProjectId();
  const requests = useRequests(projectId, scope);
  const [filter, setFilter] = useState<StatusFilter>(scope === 'queue' ? 'open' : 'all');
  const queue = scope === 'queue';
  const caption = queue ? 'The queue of data requests' : 'My data requests';

  if (requests.isPending) return <LoadingRows label={`Loading ${caption.toLowerCase()}`} />;
  if (requests.isError) {
    return (
      <LoadFailure
        error={requests.error}
        fallback="The requests could not be loaded."
        retrying={requests.isFetching}
        onRetry={() => void requests.refetch()}
      />
    );
  }
  const rows = requests.data.filter((request) =>
    filter === 'all'
      ? true
      : filter === 'open'
        ? !FINISHED_REQUEST_STATUSES.includes(request.status)
        : request.status === filter,
  );

  return (
    <Stack gap="sm">
      {queue && (
        <Group>
          <Select
            label="Status"
            data={FILTERS}
            value={filter}
            onChange={(value) => setFilter((value as StatusFilter | null) ?? 'open')}
            allowDeselect={false}
            w={220}
          />
        </Group>
      )}
      {requests.data.length === 0 ? (
        <Text c="dimmed">
          {queue ? 'Nobody has asked for data yet.' : 'You have not asked for data yet. Use the form to ask.'}
        </Text>
      ) : rows.length === 0 ? (
        <Text c="dimmed">No request has this status.</Text>
      ) : (
        <Table.ScrollContainer minWidth={queue ? 900 : 700}>
          <Table aria-label={caption} highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Request</Table.Th>
                <Table.Th>Status</Table.Th>
                {queue && <Table.Th>Requester</Table.Th>}
                {queue && <Table.Th>Assignee</Table.Th>}
                <Table.Th>Pages</Table.Th>
                <Table.Th>Needed by</Table.Th>
                <Table.Th>Last update</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((request) => (
                <Table.Tr
                  key={request.id}
                  data-request-id={request.id}
                  data-overdue={request.overdue || undefined}
                  bg={request.overdue ? 'var(--mantine-color-red-light)' : undefined}
                >
                  <Table.Td>
                    <RowAction px={0} onClick={() => onOpen(request.id)} aria-label={`Open ${request.title}`}>
                      {request.title}
                    </RowAction>
                    {request.comment_count > 0 && (
                      <Text size="xs" c="dimmed">
                        {request.comment_count} comment{request.comment_count === 1 ? '' : 's'}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <RequestStatusBadge status={request.status} />
                      {request.overdue && <OverdueBadge />}
                    </Group>
                  </Table.Td>
                  {queue && <Table.Td>{request.requester?.name ?? '—'}</Table.Td>}
                  {queue && <Table.Td>{request.assignee?.name ?? 'Nobody yet'}</Table.Td>}
                  <Table.Td>
                    <Text size="sm" lineClamp={2}>
                      {pagesText(request)}
                    </Text>
                  </Table.Td>
                  <Table.Td>{formatDay(request.needed_by)}</Table.Td>
                  <Table.Td>{formatDateTime(request.updated_at)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
