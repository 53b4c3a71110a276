import { Alert, Button, Card, Center, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { AppCode } from '@portal/shared';
import { Link } from 'react-router';
import { APP_INFO } from '../../../lib/apps';
import { useIsProjectAdmin } from '../../../lib/project/check-admin';
import { useActiveApps } from '../../../lib/project/get-active-apps';
import { useCurrentProject, useIsSuperadmin } from '../../../lib/project/project-context';
import { usePageTitle } from '../../../lib/use-page-title';

/** The apps this user may open: the project's active apps, the Admin app only for admins (SPEC section 6). */
export function openableApps(active: readonly AppCode[], admin: boolean): AppCode[] {
  return active.filter((app) => admin || !APP_INFO[app].adminOnly);
}

/** /member/projects/{id}/apps: the project's apps this user may open, each a card linking to the app. */
export function ProjectAppsPage() {
  const superadmin = useIsSuperadmin();
  const { projectId, project, loading } = useCurrentProject();
  usePageTitle(project ? `${project.name} apps` : 'Apps');
  // A superadmin's project answer already carries its active apps (GET /super/projects/{id}).
  const apps = useActiveApps(superadmin ? null : projectId);
  const admin = useIsProjectAdmin(projectId, superadmin);

  if (loading || (projectId && !superadmin && apps.isPending)) {
    return (
      <Center py="xl" role="status" aria-label="Loading the project's apps">
        <Loader />
      </Center>
    );
  }
  if (!project) {
    return (
      <Stack gap="md" align="flex-start">
        <Title order={1} fz={{ base: 'h3', sm: 'h2' }}>
          Apps
        </Title>
        <Text>This project does not exist or you are not a member of it.</Text>
        <Button component={Link} to="/member/projects">
          Back to Dashboard
        </Button>
      </Stack>
    );
  }
  const list = openableApps(apps.data ?? project.active_apps, admin);
  return (
    <Stack gap="lg">
      <div>
        <Title order={1} fz={{ base: 'h3', sm: 'h2' }}>
          {project.name}
        </Title>
        <Text c="dimmed">Project ID: {project.id}</Text>
      </div>
      {apps.isError && (
        <Alert color="yellow" variant="light">
          The project's current apps could not be loaded; showing the apps known when the project was opened.
        </Alert>
      )}
      {list.length === 0 ? (
        <Text>No app is available to you in this project yet.</Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
          {list.map((app) => (
            <li key={app} data-app={app}>
              <Card withBorder radius="md" component={Link} to={APP_INFO[app].home(project.id)} h="100%">
                <Text fw={700} c="blue.8">
                  {APP_INFO[app].name}
                </Text>
                <Text size="sm" mt={4}>
                  {APP_INFO[app].purpose}
                </Text>
              </Card>
            </li>
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}
