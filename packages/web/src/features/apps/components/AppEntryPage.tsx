import { Alert, Anchor, Button, Center, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import type { AppCode } from '@portal/shared';
import { Link } from 'react-router';
import { APP_INFO, sectionLabel } from '../../../lib/apps';
import { useCurrentProject } from '../../../lib/project/project-context';
import { usePageTitle } from '../../../lib/use-page-title';
import { useSection } from './SectionGuard';

/**
 * The entry page of a project app: its name, what it is for, and the project it is open for. The app's own
 * screens replace it as each module lands; it never shows invented data.
 */
export function AppEntryPage({ app, title }: { app: AppCode; title?: string }) {
  const info = APP_INFO[app];
  const section = useSection();
  const heading = title ?? info.name;
  usePageTitle(section ? `${sectionLabel(section)} | ${heading}` : heading);
  const { project, loading } = useCurrentProject();

  return (
    <Stack gap="lg" maw={760}>
      <div>
        <Title order={1} fz={{ base: 'h3', sm: 'h2' }}>
          {heading}
        </Title>
        {section && (
          <Text c="dimmed" mt={4}>
            Section: {sectionLabel(section)}
          </Text>
        )}
      </div>
      <Text>{info.purpose}</Text>
      {app === 'policy_generator' && !project ? null : loading ? (
        <Center py="md" role="status" aria-label="Loading project">
          <Loader size="sm" />
        </Center>
      ) : project ? (
        <Paper withBorder radius="md" p="md">
          <Text size="sm" c="dimmed">
            Project
          </Text>
          <Text fw={700}>{project.name}</Text>
          <Text size="sm">Project ID: {project.id}</Text>
          {!project.active_apps.includes(app) && app !== 'policy_generator' && (
            <Alert color="yellow" variant="light" mt="sm">
              {info.name} is not switched on for this project. A superadmin can activate it in the project settings.
            </Alert>
          )}
        </Paper>
      ) : (
        <Alert color="gray" variant="light">
          No project is selected.{' '}
          <Anchor component={Link} to="/member/projects">
            Choose a project
          </Anchor>{' '}
          to open {info.name} for it.
        </Alert>
      )}
      <Group>
        <Button component={Link} to="/member/projects" variant="default">
          Back to Dashboard
        </Button>
        {project && (
          <Button component={Link} to={`/member/projects/${project.id}/apps`} variant="subtle">
            All apps of {project.name}
          </Button>
        )}
      </Group>
    </Stack>
  );
}
