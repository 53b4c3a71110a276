import { Alert, Button, Card, Center, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { type AppCode, appsUnavailableReason, type MyApp } from '@portal/shared';
import { Link } from 'react-router';
import { APP_INFO } from '../../../lib/apps';
import { useIsProjectAdmin } from '../../../lib/project/check-admin';
import { useMyApps } from '../../../lib/project/get-my-apps';
import { useCurrentProject, useIsSuperadmin } from '../../../lib/project/project-context';
import { usePageTitle } from '../../../lib/use-page-title';

/** The apps this user may open: the project's active apps, the Admin app only for admins (SPEC section 6). */
export function openableApps(active: readonly AppCode[], admin: boolean): AppCode[] {
  return active.filter((app) => admin || !APP_INFO[app].adminOnly);
}

/**
 * The apps the user cannot open, explained once: one sentence per cause, naming every app it keeps closed ("You have
 * no role in Monitoring and Chart Review yet..."), in the order the apps come.
 */
export function unavailableSentences(apps: readonly MyApp[]): string[] {
  const groups = new Map<string, MyApp[]>();
  for (const app of apps) {
    if (app.usable) continue;
    const key = app.cause ?? app.reason ?? '';
    groups.set(key, [...(groups.get(key) ?? []), app]);
  }
  return [...groups.values()].map((group) => {
    const [first] = group as [MyApp, ...MyApp[]];
    if (first.cause)
      return appsUnavailableReason(
        first.cause,
        group.map((app) => app.code),
      );
    return first.reason ?? 'You cannot open this app.';
  });
}

/**
 * /member/projects/{id}/apps: a card for each of the project's apps this user can open (GET .../my-apps, issue 32),
 * then, when some active app is closed to them, one short explanation of why.
 */
export function ProjectAppsPage() {
  const superadmin = useIsSuperadmin();
  const { projectId, project, loading } = useCurrentProject();
  usePageTitle(project ? `${project.name} apps` : 'Apps');
  // A superadmin opens every active app; their project answer already carries them (GET /super/projects/{id}).
  const apps = useMyApps(superadmin ? null : projectId);
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
  // Without the server's answer (superadmins, or the call failed) the active apps are shown as before.
  const list = apps.data
    ? apps.data.filter((app) => app.usable).map((app) => app.code)
    : openableApps(project.active_apps, admin);
  const closed = apps.data ? unavailableSentences(apps.data) : [];
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
      {closed.length > 0 && (
        <Alert
          variant="light"
          color="gray"
          title="Not available to you"
          // A standing explanation, not news: a region named by its title (Mantine's default role is alert).
          role="region"
          data-testid="apps-not-available"
        >
          <Stack gap={4}>
            {closed.map((sentence) => (
              <Text key={sentence} size="sm">
                {sentence}
              </Text>
            ))}
          </Stack>
        </Alert>
      )}
    </Stack>
  );
}
