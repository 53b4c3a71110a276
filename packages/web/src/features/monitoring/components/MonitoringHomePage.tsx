import { Anchor, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { QueryBody } from '../../../components/page-parts';
import { useDashboardVisitAudit } from '../../../lib/monitoring-audit';
import { usePageTitle } from '../../../lib/use-page-title';
import { usePageTree } from '../api/pages-list';
import {
  LevelIcon,
  PageStatusBadge,
  pageName,
  RestrictedIcon,
  SubPageCount,
  useMonitoringSections,
} from './pages-parts';
import { monitoringRoute, useMonitoringProjectId } from './use-monitoring-project';

/** Administration screens of monitoring, each shown when the user's role may open it. */
const ADMIN_LINKS = [
  { section: 'create-page', label: 'New page' },
  { section: 'page-levels', label: 'Page levels' },
  { section: 'numbering', label: 'Numbering' },
  { section: 'drag-and-drop', label: 'Reorder pages' },
  { section: 'update-page-list-tables', label: 'Bulk edit pages' },
  { section: 'page-permissions', label: 'Page permissions' },
  { section: 'page-role-manager', label: 'Monitoring roles' },
  { section: 'manage-users', label: 'Monitoring users' },
  { section: 'main-role-dashboard', label: 'Main roles' },
] as const;

/** The Analytics entry (/app/monitoring/{project}): where to go, and the top-level pages. Records the visit. */
export function MonitoringHomePage() {
  const projectId = useMonitoringProjectId();
  usePageTitle('Analytics');
  useDashboardVisitAudit(projectId);
  const may = useMonitoringSections(projectId);
  const tree = usePageTree(projectId);
  const top = (tree.data?.pages ?? []).filter((page) => page.parent_id === null);
  const admin = ADMIN_LINKS.filter((link) => may(link.section));

  useEffect(() => {
    if (tree.isError) toast.error('Failed to load pages');
  }, [tree.isError]);

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1} fz={{ base: 'h3', sm: 'h2' }}>
          Analytics
        </Title>
        <Text c="dimmed">Your quality programme: what is measured, why, and what the data says.</Text>
      </Stack>
      <Group gap="sm" wrap="wrap">
        {may('introduction') && (
          <Button component={Link} to={monitoringRoute(projectId, 'introduction')} variant="light">
            Introduction
          </Button>
        )}
        {may('pages') && (
          <Button component={Link} to={monitoringRoute(projectId, 'pages')} variant="light">
            Pages
          </Button>
        )}
        {may('request-form') && (
          <Button component={Link} to={monitoringRoute(projectId, 'request-form')} variant="light">
            Request Data
          </Button>
        )}
      </Group>
      {admin.length > 0 && (
        <Stack gap="xs" component="section" aria-labelledby="monitoring-admin-title">
          <Title order={2} size="h4" id="monitoring-admin-title">
            Administration
          </Title>
          <Group gap="xs" wrap="wrap">
            {admin.map((link) => (
              <Button
                key={link.section}
                component={Link}
                to={monitoringRoute(projectId, link.section)}
                variant="default"
                size="compact-sm"
              >
                {link.label}
              </Button>
            ))}
          </Group>
        </Stack>
      )}
      <Stack gap="sm" component="section" aria-labelledby="monitoring-top-pages-title">
        <Title order={2} size="h4" id="monitoring-top-pages-title">
          Programme areas
        </Title>
        <QueryBody query={tree} fallback="Failed to load pages" loadingLabel="Loading the pages" rows={3}>
          {() =>
            top.length === 0 ? (
              <Text c="dimmed">No pages found.</Text>
            ) : (
              <SimpleGrid
                cols={{ base: 1, sm: 2, lg: 3 }}
                spacing="sm"
                component="ul"
                m={0}
                p={0}
                style={{ listStyle: 'none' }}
              >
                {top.map((page) => (
                  <Card key={page.id} component="li" withBorder padding="md" data-page-id={page.id}>
                    <Stack gap={6}>
                      <Group gap={6} wrap="nowrap" align="flex-start">
                        <LevelIcon icon={page.level?.icon} size={20} />
                        <Anchor
                          component={Link}
                          to={monitoringRoute(projectId, `pages/page/${page.id}`)}
                          fw={600}
                          style={{ overflowWrap: 'anywhere' }}
                        >
                          {pageName(page)}
                        </Anchor>
                        {page.restricted && <RestrictedIcon />}
                      </Group>
                      <Group gap="xs">
                        <PageStatusBadge status={page.status} />
                        <SubPageCount count={page.child_count} />
                      </Group>
                    </Stack>
                  </Card>
                ))}
              </SimpleGrid>
            )
          }
        </QueryBody>
      </Stack>
    </Stack>
  );
}
