import {
  Alert,
  Button,
  Card,
  Center,
  Group,
  Loader,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import type { MemberProject } from '@portal/shared';
import { useState } from 'react';
import { Link } from 'react-router';
import { AppBadge } from '../../../components/AppBadge';
import { useProjects } from '../../../lib/project/get-projects';
import { useIsSuperadmin } from '../../../lib/project/project-context';
import { usePageTitle } from '../../../lib/use-page-title';

const EMPTY = 'You are not a member of any project yet.';
/** More projects than this and a search field appears. */
export const SEARCH_THRESHOLD = 6;

/** /member/projects: the projects the user may open (all of them for a superadmin), as cards. */
export function MemberProjectsPage() {
  usePageTitle('Projects');
  const superadmin = useIsSuperadmin();
  const projects = useProjects(superadmin);

  return (
    <Stack gap="lg">
      <Title order={1} fz={{ base: 'h3', sm: 'h2' }}>
        Your projects
      </Title>
      {projects.data ? (
        <ProjectCards projects={projects.data} />
      ) : projects.isError ? (
        <Stack gap="sm" align="flex-start">
          <Alert color="red" variant="light" w="100%">
            Your projects could not be loaded. Please try again.
          </Alert>
          <Button variant="default" loading={projects.isFetching} onClick={() => void projects.refetch()}>
            Try again
          </Button>
        </Stack>
      ) : (
        <Center py="xl" role="status" aria-label="Loading your projects">
          <Loader />
        </Center>
      )}
    </Stack>
  );
}

function ProjectCards({ projects }: { projects: MemberProject[] }) {
  const [search, setSearch] = useState('');
  if (projects.length === 0) {
    return (
      <Paper withBorder radius="md" p="xl" bg="gray.0">
        <Text ta="center">{EMPTY}</Text>
      </Paper>
    );
  }
  const term = search.trim().toLowerCase();
  const sorted = [...projects]
    .sort((a, b) => a.name.localeCompare(b.name))
    .filter((p) => !term || p.name.toLowerCase().includes(term) || String(p.id) === term);
  return (
    <Stack gap="md">
      {projects.length > SEARCH_THRESHOLD && (
        <TextInput
          label="Search projects"
          placeholder="Name or ID"
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          maw={360}
        />
      )}
      <Text size="sm" c="dimmed" aria-live="polite">
        {sorted.length === 1 ? '1 project' : `${sorted.length} projects`}
      </Text>
      <SimpleGrid
        cols={{ base: 1, sm: 2, lg: 3 }}
        spacing="md"
        component="ul"
        m={0}
        p={0}
        style={{ listStyle: 'none' }}
      >
        {sorted.map((project) => (
          <li key={project.id} data-project={project.id}>
            <Card
              withBorder
              radius="md"
              padding="md"
              component={Link}
              to={`/member/projects/${project.id}/apps`}
              h="100%"
              style={{ textDecoration: 'none' }}
            >
              <Text fw={700} c="blue.8" style={{ overflowWrap: 'anywhere' }} data-testid="project-name">
                {project.name}
              </Text>
              <Text size="sm" c="dimmed" data-testid="project-id">
                ID {project.id}
              </Text>
              <Group gap={6} mt="sm">
                {project.active_apps.map((app) => (
                  <AppBadge key={app} app={app} />
                ))}
              </Group>
            </Card>
          </li>
        ))}
      </SimpleGrid>
      {sorted.length === 0 && <Text>No project matches “{search.trim()}”.</Text>}
    </Stack>
  );
}
