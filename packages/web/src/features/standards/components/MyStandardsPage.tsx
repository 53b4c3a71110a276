import { Anchor, Button, Group, Paper, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { STD_ROLE_LABELS, STD_STATUS_LABELS } from '@portal/shared';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { NotFoundPage } from '../../../components/NotFoundPage';
import { LoadFailure, PageHeading } from '../../../components/page-parts';
import { ColumnHeads } from '../../../components/shared-parts/ColumnHeads';
import { ApiError, messageFor } from '../../../lib/api';
import { formatDay } from '../../../lib/dates';
import { usePageTitle } from '../../../lib/use-page-title';
import { type StdMyElement, useStdMy } from '../api/my';
import { EmptyState, Loading, OverdueBadge, ResultBadge, StdAccessDenied, standardsRoute } from './std-parts';

const TITLE = 'My standards';
export const NOTHING_ASSIGNED = 'No standard elements are assigned to you.';

export function compliancePath(projectId: string, query?: { assessment: number; element: number }): string {
  const base = standardsRoute(projectId, 'compilence');
  return query ? `${base}?assessment=${query.assessment}&element=${query.element}` : base;
}

/** Overdue first, then by due date (none last), then by reference. */
export function byUrgency(a: StdMyElement, b: StdMyElement): number {
  if (a.overdue !== b.overdue) return a.overdue ? -1 : 1;
  if (a.due_date !== b.due_date) {
    if (a.due_date === null) return 1;
    if (b.due_date === null) return -1;
    return a.due_date.localeCompare(b.due_date);
  }
  return a.ref_id.localeCompare(b.ref_id, 'en', { numeric: true });
}

/**
 * /{projectId}/standards (DOMAIN.md 3.3, ours): a read-only overview for members of the standard elements they own
 * across the project's assessments, overdue first, each opening the element on the compliance screen.
 */
export function MyStandardsPage() {
  usePageTitle(TITLE);
  const { projectId = '' } = useParams();
  const my = useStdMy(projectId);

  if (my.error instanceof ApiError && my.error.status === 404) return <NotFoundPage />;
  if (my.error instanceof ApiError && my.error.status === 403) {
    return <StdAccessDenied reason={messageFor(my.error, '') || null} />;
  }

  let body: ReactNode;
  if (my.isPending) {
    body = <Loading label="Loading my standards" />;
  } else if (my.isError) {
    body = (
      <LoadFailure
        error={my.error}
        fallback="Your standards could not be loaded. Please try again."
        retrying={my.isFetching}
        onRetry={() => void my.refetch()}
      />
    );
  } else {
    const { counts, elements, role } = my.data;
    body = (
      <Stack gap="lg">
        {role && (
          <Text size="sm">
            Your standards role: <strong>{STD_ROLE_LABELS[role]}</strong>
          </Text>
        )}
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm" component="dl" m={0} aria-label="My counts">
          <Count label="Owned" value={counts.owned} />
          <Count label="Overdue" value={counts.overdue} alert={counts.overdue > 0} />
          <Count label="Due in 30 days" value={counts.due_30} />
          <Count label="Open" value={counts.open} />
        </SimpleGrid>
        {elements.length === 0 ? (
          <EmptyState title={NOTHING_ASSIGNED}>
            When a standards admin or a chapter lead makes you the owner of an element, it appears here with its due
            date.
          </EmptyState>
        ) : (
          <ElementsTable projectId={projectId} elements={[...elements].sort(byUrgency)} />
        )}
      </Stack>
    );
  }

  return (
    <Stack gap="lg" w="100%" maw={1200}>
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        <PageHeading title={TITLE}>The standard elements you own, the overdue ones first.</PageHeading>
        <Button component={Link} to={compliancePath(projectId)} variant="default">
          Open the compliance screen
        </Button>
      </Group>
      {body}
    </Stack>
  );
}

function Count({ label, value, alert = false }: { label: string; value: number; alert?: boolean }) {
  return (
    <Paper withBorder radius="md" p="md" data-count={label}>
      <Text component="dt" size="sm" c="dimmed">
        {label}
      </Text>
      <Text component="dd" m={0} fz="xl" fw={700} c={alert ? 'red.9' : undefined}>
        {value.toLocaleString('en-US')}
      </Text>
    </Paper>
  );
}

function ElementsTable({ projectId, elements }: { projectId: string; elements: StdMyElement[] }) {
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }}>
      <Table.ScrollContainer minWidth={860}>
        <Table verticalSpacing="sm" striped aria-label="My standard elements">
          <ColumnHeads columns={['Element', 'Title', 'Assessment', 'Result', 'Status', 'Due']} />
          <Table.Tbody>
            {elements.map((element) => {
              return (
                <Table.Tr key={element.req_id} data-req-id={element.req_id}>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    <Anchor
                      component={Link}
                      to={compliancePath(projectId, { assessment: element.assessment.id, element: element.req_id })}
                      ff="monospace"
                      fw={700}
                    >
                      {element.ref_id}
                    </Anchor>
                  </Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{element.title}</Table.Td>
                  <Table.Td>{element.assessment.name}</Table.Td>
                  <Table.Td>
                    <ResultBadge result={element.result} />
                  </Table.Td>
                  <Table.Td>{STD_STATUS_LABELS[element.status]}</Table.Td>
                  <Table.Td>
                    <Group gap={6} wrap="nowrap">
                      <Text size="sm">{element.due_date ? formatDay(element.due_date) : 'No due date'}</Text>
                      {element.overdue && <OverdueBadge />}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
