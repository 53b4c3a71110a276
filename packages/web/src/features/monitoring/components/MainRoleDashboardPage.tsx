import { Anchor, Badge, Group, List, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { MonitoringWorkKind } from '@portal/shared';
import { Link } from 'react-router';
import { PageHeading, QueryBody, SectionCard } from '../../../components/page-parts';
import { peopleCount } from '../../../lib/people';
import { MAIN_ROLE_DESCRIPTIONS, roleLabel } from '../../../lib/role-labels';
import { usePageTitle } from '../../../lib/use-page-title';
import { type MainRoleDashboard, useMainRoleDashboard } from '../api/people-dashboard';
import { monitoringRoute, useMonitoringProjectId } from './use-monitoring-project';

const TITLE = 'Main role dashboard';
export const NOBODY_IN_ROLE = 'Nobody has this role.';
export const EVERYONE_HAS_A_ROLE = 'Every monitoring user has a main role.';

/** What each count means (singular, plural) and the screen where the work is done. */
const WORK: Record<MonitoringWorkKind, { one: string; many: string; path: string }> = {
  pages_without_insight: {
    one: 'owned page without a published key insight',
    many: 'owned pages without a published key insight',
    path: 'pages',
  },
  draft_pages: { one: 'owned draft page', many: 'owned draft pages', path: 'pages' },
  assigned_requests: {
    one: 'data request assigned and not delivered',
    many: 'data requests assigned and not delivered',
    path: 'request-form',
  },
  unassigned_requests: {
    one: 'submitted data request nobody is assigned to',
    many: 'submitted data requests nobody is assigned to',
    path: 'request-form',
  },
  pages_without_owner: {
    one: 'page without an owner',
    many: 'pages without an owner',
    path: 'update-page-list-tables',
  },
  own_open_requests: {
    one: 'open data request of their own',
    many: 'open data requests of their own',
    path: 'request-form',
  },
};

export function workText(kind: MonitoringWorkKind, count: number): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? WORK[kind].one : WORK[kind].many}`;
}

/**
 * /app/monitoring/{projectId}/main-role-dashboard: one card per main role with its people and their open work (counts
 * linking to where the work is done), and the monitoring users who have no main role yet.
 */
export function MainRoleDashboardPage() {
  usePageTitle(TITLE);
  const projectId = useMonitoringProjectId();
  const dashboard = useMainRoleDashboard(projectId);
  return (
    <Stack gap="lg" w="100%" maw={1200}>
      <PageHeading title={TITLE}>
        Who holds each main role of monitoring and what is waiting for them.{' '}
        <Link to={monitoringRoute(projectId, 'assign-main-role')}>Change main roles</Link>
      </PageHeading>
      <QueryBody
        query={dashboard}
        fallback="The dashboard could not be loaded. Please try again."
        loadingLabel="Loading the dashboard"
        rows={4}
      >
        {(data) => <Dashboard projectId={projectId} data={data} />}
      </QueryBody>
    </Stack>
  );
}

function Dashboard({ projectId, data }: { projectId: string; data: MainRoleDashboard }) {
  return (
    <>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        {data.roles.map(({ role, people }) => (
          <Paper
            key={role}
            withBorder
            radius="md"
            p={{ base: 'md', sm: 'lg' }}
            component="section"
            aria-labelledby={`role-${role}-heading`}
            data-role={role}
          >
            <Stack gap="sm">
              <Group justify="space-between" align="baseline" wrap="wrap" gap="xs">
                <Title order={2} fz="h4" id={`role-${role}-heading`}>
                  {roleLabel(role)}
                </Title>
                <Badge variant="light" color="blue.8" tt="none">
                  {peopleCount(people.length)}
                </Badge>
              </Group>
              <Text size="sm" c="dimmed">
                {MAIN_ROLE_DESCRIPTIONS.monitoring[role]}
              </Text>
              {people.length === 0 ? (
                <Text size="sm">{NOBODY_IN_ROLE}</Text>
              ) : (
                <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
                  {people.map((person) => (
                    <li key={person.id} data-person-id={person.id}>
                      <Text fw={600} size="sm">
                        {person.name}
                      </Text>
                      <List size="sm" spacing={2} withPadding>
                        {person.work.map(({ kind, count }) => (
                          <List.Item key={kind} data-work={kind}>
                            {count > 0 ? (
                              <Anchor component={Link} to={monitoringRoute(projectId, WORK[kind].path)}>
                                {workText(kind, count)}
                              </Anchor>
                            ) : (
                              <Text span size="sm" c="dimmed">
                                {workText(kind, count)}
                              </Text>
                            )}
                          </List.Item>
                        ))}
                      </List>
                    </li>
                  ))}
                </Stack>
              )}
            </Stack>
          </Paper>
        ))}
      </SimpleGrid>
      <SectionCard id="no-role-heading" title="No main role">
        {data.without_role.length === 0 ? (
          <Text>{EVERYONE_HAS_A_ROLE}</Text>
        ) : (
          <Stack gap="xs">
            <Text size="sm">
              {data.without_role.length === 1
                ? '1 monitoring user cannot open the pages until they have a main role:'
                : `${data.without_role.length.toLocaleString('en-US')} monitoring users cannot open the pages until they have a main role:`}
            </Text>
            <List size="sm" spacing={2} data-testid="without-role">
              {data.without_role.map((person) => (
                <List.Item key={person.id}>{person.name}</List.Item>
              ))}
            </List>
            <Anchor component={Link} to={monitoringRoute(projectId, 'assign-main-role')} w="fit-content">
              Assign main roles
            </Anchor>
          </Stack>
        )}
      </SectionCard>
    </>
  );
}
