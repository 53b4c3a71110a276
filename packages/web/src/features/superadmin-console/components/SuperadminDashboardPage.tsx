import {
  Anchor,
  Badge,
  Code,
  Group,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { formatDateTime } from '../../../lib/dates';
import { SUPERADMIN_SECTIONS } from '../../../lib/superadmin-sections';
import { usePageTitle } from '../../../lib/use-page-title';
import { type SuperDashboard, useSuperDashboard } from '../api/get-dashboard';
import { actorName, plural } from '../console-format';
import { QueryLoadError } from './parts';

const CARD_HEIGHT = 128;

/** /superadmin: the administration home: what needs attention, the latest activity and every console section. */
export function SuperadminDashboardPage() {
  usePageTitle('Administration');
  const dashboard = useSuperDashboard();

  let overview: ReactNode;
  if (dashboard.data) {
    overview = <Overview data={dashboard.data} />;
  } else if (dashboard.isError) {
    overview = <QueryLoadError query={dashboard} fallback="The overview could not be loaded. Please try again." />;
  } else {
    overview = (
      <Stack gap="lg" role="status" aria-label="Loading the overview">
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3, xl: 5 }}>
          {[0, 1, 2, 3, 4].map((index) => (
            <Skeleton key={index} height={CARD_HEIGHT} radius="md" />
          ))}
        </SimpleGrid>
        <Skeleton height={260} radius="md" />
      </Stack>
    );
  }

  return (
    <Stack gap="xl">
      <Title order={1} fz={{ base: 'h3', sm: 'h2' }}>
        Administration
      </Title>
      {overview}
      <Stack gap="sm" component="section" aria-labelledby="console-sections">
        <Title order={2} fz="h4" id="console-sections">
          Sections
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
          {SUPERADMIN_SECTIONS.map((section) => (
            <li key={section.to}>
              <Paper withBorder radius="md" p="md" h="100%">
                <Anchor component={Link} to={section.to} fw={700}>
                  {section.title}
                </Anchor>
                <Text size="sm" mt={4}>
                  {section.purpose}
                </Text>
              </Paper>
            </li>
          ))}
        </SimpleGrid>
      </Stack>
    </Stack>
  );
}

function Overview({ data }: { data: SuperDashboard }) {
  const { counts } = data;
  return (
    <Stack gap="xl">
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3, xl: 5 }} component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
        <StatCard
          label="Projects"
          value={counts.active_projects}
          detail={`active of ${counts.projects.toLocaleString('en-US')}`}
          to="/superadmin/projects"
        />
        <StatCard label="Users" value={counts.users} detail="accounts" to="/superadmin/users" />
        <StatCard
          label="Pending user requests"
          value={counts.pending_user_requests}
          detail={counts.pending_user_requests > 0 ? 'waiting for a decision' : 'nothing to decide'}
          to="/superadmin/new-user-requests"
          alert={counts.pending_user_requests > 0 ? { color: 'blue.8', text: 'To review' } : undefined}
        />
        <StatCard
          label="Failed emails"
          value={counts.failed_emails}
          detail={counts.failed_emails > 0 ? 'could not be sent' : 'none failed'}
          to="/superadmin/email-logs?status=failed"
          alert={counts.failed_emails > 0 ? { color: 'red.9', text: 'Failed' } : undefined}
        />
        <StatCard
          label="Accounts without two-factor"
          value={counts.users_without_two_factor}
          detail="have not set it up"
          to="/superadmin/users"
        />
      </SimpleGrid>
      <LatestActivity events={data.latest_audit_events} />
    </Stack>
  );
}

interface StatCardProps {
  label: string;
  value: number;
  detail: string;
  to: string;
  /** Marks a count that needs attention. */
  alert?: { color: string; text: string };
}

/** A count, the whole card a link to where it is dealt with. */
function StatCard({ label, value, detail, to, alert }: StatCardProps) {
  return (
    <li>
      <UnstyledButton
        component={Link}
        to={to}
        display="block"
        h="100%"
        data-stat={label}
        data-alert={alert ? 'true' : undefined}
        style={{ borderRadius: 'var(--mantine-radius-md)' }}
      >
        <Paper
          withBorder
          radius="md"
          p="md"
          mih={CARD_HEIGHT}
          h="100%"
          bg={alert ? `${alert.color.split('.')[0]}.0` : undefined}
          style={alert ? { borderColor: `var(--mantine-color-${alert.color.replace('.', '-')})` } : undefined}
        >
          <Group justify="space-between" align="flex-start" gap="xs" wrap="nowrap">
            <Text size="sm" fw={600} c="gray.8">
              {label}
            </Text>
            {alert && (
              <Badge color={alert.color} variant="filled" size="sm" style={{ flexShrink: 0 }}>
                {alert.text}
              </Badge>
            )}
          </Group>
          <Text fz={32} fw={700} lh={1.2} mt={6} c={alert ? alert.color : undefined}>
            {value.toLocaleString('en-US')}
          </Text>
          <Text size="sm" c="gray.7">
            {detail}
          </Text>
        </Paper>
      </UnstyledButton>
    </li>
  );
}

function LatestActivity({ events }: { events: SuperDashboard['latest_audit_events'] }) {
  return (
    <Stack gap="sm" component="section" aria-labelledby="latest-activity">
      <Group justify="space-between" align="baseline">
        <Title order={2} fz="h4" id="latest-activity">
          Latest activity
        </Title>
        <Anchor component={Link} to="/superadmin/audit-log" size="sm">
          Open the audit log
        </Anchor>
      </Group>
      <Paper withBorder radius="md" style={{ overflow: 'hidden' }}>
        {events.length === 0 ? (
          <Text c="gray.7" p="md">
            No activity recorded yet.
          </Text>
        ) : (
          // A native scroller a keyboard can reach: the rows hold nothing focusable to scroll them into view.
          <Table.ScrollContainer minWidth={560} type="native" tabIndex={0} role="region" aria-label="Latest activity">
            <Table verticalSpacing="xs" horizontalSpacing="md" striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Time</Table.Th>
                  <Table.Th scope="col">Actor</Table.Th>
                  <Table.Th scope="col">Action</Table.Th>
                  <Table.Th scope="col">Project</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {events.map((event) => (
                  <Table.Tr key={event.id} data-event-id={event.id}>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>
                      <time dateTime={event.created_at}>{formatDateTime(event.created_at)}</time>
                    </Table.Td>
                    <Table.Td>{actorName(event.actor)}</Table.Td>
                    <Table.Td>
                      <Code>{event.action}</Code>
                    </Table.Td>
                    <Table.Td>{event.project?.name ?? '—'}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Paper>
      {events.length > 0 && (
        <Text size="xs" c="gray.7">
          The latest {plural(events.length, 'event')}.
        </Text>
      )}
    </Stack>
  );
}
