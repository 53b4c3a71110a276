import {
  Alert,
  Anchor,
  Button,
  Center,
  Group,
  Loader,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { Link, useParams } from 'react-router';
import { AppBadge } from '../../../components/AppBadge';
import { useProject } from '../../../lib/project/get-project';
import { useProjects } from '../../../lib/project/get-projects';
import { usePageTitle } from '../../../lib/use-page-title';

/** The parts of administration, as the superadmin home lists them. */
export const SUPERADMIN_SECTIONS = [
  { to: '/superadmin/projects', title: 'Projects', purpose: 'Every project, its facility and its active apps.' },
  { to: '/superadmin/users', title: 'Users', purpose: 'Accounts, their roles and their project memberships.' },
  {
    to: '/superadmin/new-user-requests',
    title: 'New User Requests',
    purpose: 'Requests from project admins for new accounts.',
  },
  {
    to: '/superadmin/terms_and_conditions',
    title: 'Terms and Conditions',
    purpose: 'The system use notification users accept.',
  },
  {
    to: '/superadmin/terms_and_conditions/history',
    title: 'Terms and Conditions History',
    purpose: 'Earlier versions of the terms and when they changed.',
  },
  { to: '/superadmin/email-logs', title: 'Email Logs', purpose: 'Every email the portal sent or tried to send.' },
  {
    to: '/superadmin/monitoring-permissions',
    title: 'Monitoring Permissions',
    purpose: 'The permission matrix of the monitoring app.',
  },
  {
    to: '/superadmin/chart-review-permissions',
    title: 'Chart Review Permissions',
    purpose: 'The permission matrix of the chart review app.',
  },
  {
    to: '/superadmin/policy-management-permissions',
    title: 'Policy Management Permissions',
    purpose: 'The permission matrix of the policy management app.',
  },
  { to: '/dev/editor', title: 'Editor', purpose: 'The rich-text editor used for terms and documents.' },
] as const;

/** /superadmin: the administration home. */
export function SuperadminHomePage() {
  usePageTitle('Administration');
  return (
    <Stack gap="lg">
      <Title order={1} fz={{ base: 'h3', sm: 'h2' }}>
        Administration
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
  );
}

/** A part of administration whose screens arrive with a later module: its title and what it is for. */
export function SuperadminSectionPage({
  path,
}: {
  path: (typeof SUPERADMIN_SECTIONS)[number]['to'] | '/superadmin/users/:id';
}) {
  const params = useParams();
  const section =
    path === '/superadmin/users/:id'
      ? { title: `User ${params.id ?? ''}`.trim(), purpose: 'One account: its details, roles and project memberships.' }
      : SUPERADMIN_SECTIONS.find((s) => s.to === path)!;
  usePageTitle(section.title);
  return (
    <Stack gap="md" maw={760}>
      <Text size="sm" c="dimmed">
        Administration
      </Text>
      <Title order={1} fz={{ base: 'h3', sm: 'h2' }}>
        {section.title}
      </Title>
      <Text>{section.purpose}</Text>
      <Group>
        <Button component={Link} to="/superadmin" variant="default">
          Administration home
        </Button>
      </Group>
    </Stack>
  );
}

/** /superadmin/projects: every project (GET /super/projects). */
export function SuperadminProjectsPage() {
  usePageTitle('Projects');
  const projects = useProjects(true);
  return (
    <Stack gap="lg">
      <div>
        <Text size="sm" c="dimmed">
          Administration
        </Text>
        <Title order={1} fz={{ base: 'h3', sm: 'h2' }}>
          Projects
        </Title>
      </div>
      {projects.isError ? (
        <Alert color="red" variant="light">
          The projects could not be loaded. Please try again.
        </Alert>
      ) : !projects.data ? (
        <Center py="xl" role="status" aria-label="Loading projects">
          <Loader />
        </Center>
      ) : projects.data.length === 0 ? (
        <Text>There are no projects yet.</Text>
      ) : (
        <Paper withBorder radius="md" style={{ overflowX: 'auto' }}>
          <Table striped verticalSpacing="sm" horizontalSpacing="md" miw={480}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Project</Table.Th>
                <Table.Th scope="col">ID</Table.Th>
                <Table.Th scope="col">Active apps</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {[...projects.data]
                .sort((a, b) => a.name.localeCompare(b.name))
                .map((project) => (
                  <Table.Tr key={project.id}>
                    <Table.Td>
                      <Anchor component={Link} to={`/superadmin/projects/${project.id}`} fw={500}>
                        {project.name}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{project.id}</Table.Td>
                    <Table.Td>
                      <Group gap={4}>
                        {project.active_apps.map((app) => (
                          <AppBadge key={app} app={app} />
                        ))}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
            </Table.Tbody>
          </Table>
        </Paper>
      )}
    </Stack>
  );
}

/** /superadmin/projects/{id}: one project (GET /super/projects/{id}). */
export function SuperadminProjectPage() {
  const id = useParams().id ?? null;
  const project = useProject(id, true);
  usePageTitle(project.data ? project.data.name : 'Project');
  return (
    <Stack gap="lg" maw={760}>
      <Anchor component={Link} to="/superadmin/projects" size="sm">
        All projects
      </Anchor>
      {project.isError ? (
        <Alert color="red" variant="light">
          This project could not be loaded.
        </Alert>
      ) : !project.data ? (
        <Center py="xl" role="status" aria-label="Loading project">
          <Loader />
        </Center>
      ) : (
        <>
          <Title order={1} fz={{ base: 'h3', sm: 'h2' }}>
            {project.data.name}
          </Title>
          <Paper withBorder radius="md" p="md">
            <Stack gap={6}>
              <Text size="sm">Project ID: {project.data.id}</Text>
              <Text size="sm">Slug: {project.data.slug}</Text>
              <Text size="sm">Facility: {project.data.facility_name}</Text>
              <Text size="sm">Status: {project.data.is_active ? 'Active' : 'Inactive'}</Text>
              <Group gap={4}>
                {project.data.active_apps.map((app) => (
                  <AppBadge key={app} app={app} />
                ))}
              </Group>
            </Stack>
          </Paper>
          <Button component={Link} to={`/member/projects/${project.data.id}/apps`} variant="default" w="fit-content">
            Open the project's apps
          </Button>
        </>
      )}
    </Stack>
  );
}
