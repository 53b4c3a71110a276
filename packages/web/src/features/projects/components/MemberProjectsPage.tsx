import { Alert, Button, Center, Loader, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { usePageTitle } from '../../../lib/use-page-title';
import { type MemberProject, useMemberProjects } from '../api/get-member-projects';

const EMPTY = 'You are not a member of any project yet.';

/** /member/projects: the projects the user belongs to (the full layout arrives with the layout issue). */
export function MemberProjectsPage() {
  usePageTitle('Projects');
  const projects = useMemberProjects();

  return (
    <Stack gap="lg">
      <Title order={1} fz={{ base: 'h3', sm: 'h2' }}>
        Your projects
      </Title>
      {projects.data ? (
        <ProjectList projects={projects.data} />
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

function ProjectList({ projects }: { projects: MemberProject[] }) {
  if (projects.length === 0) {
    return (
      <Paper withBorder radius="md" p="xl" bg="gray.0">
        <Text ta="center">{EMPTY}</Text>
      </Paper>
    );
  }
  const sorted = [...projects].sort((a, b) => a.name.localeCompare(b.name));
  return (
    <Paper withBorder radius="md">
      <Table striped verticalSpacing="sm" horizontalSpacing="md">
        <Table.Caption>{sorted.length === 1 ? '1 project' : `${sorted.length} projects`}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Project</Table.Th>
            <Table.Th scope="col" w="8rem">
              ID
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {sorted.map((project) => (
            <Table.Tr key={project.id}>
              <Table.Td fw={500}>{project.name}</Table.Td>
              <Table.Td>{project.id}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}
