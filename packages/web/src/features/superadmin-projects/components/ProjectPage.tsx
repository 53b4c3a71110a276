import {
  Alert,
  Anchor,
  Breadcrumbs,
  Button,
  Code,
  Grid,
  Group,
  Paper,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { isProjectId } from '@portal/shared';
import { Link, useParams } from 'react-router';
import { ApiError } from '../../../lib/api';
import { formatDate } from '../../../lib/dates';
import { usePageTitle } from '../../../lib/use-page-title';
import { type SuperProjectDetail, useSuperProject } from '../api/get-project';
import { ProjectAppsCard } from './ProjectAppsCard';
import { ProjectDetailsCard } from './ProjectDetailsCard';
import { ProjectLogoCard } from './ProjectLogoCard';
import { ProjectMembersCard } from './ProjectMembersCard';
import { ProjectStatusCard } from './ProjectStatusCard';
import { ProjectStatusBadge, QueryLoadError } from './parts';

/** /superadmin/projects/{id}: one project's details, apps, logo, status and members. */
export function ProjectPage() {
  const { id = '' } = useParams();
  if (!isProjectId(id)) return <ProjectNotFound />;
  return <ProjectView key={id} id={id} />;
}

function PageTrail({ name }: { name?: string }) {
  return (
    <Breadcrumbs component="nav" aria-label="Breadcrumb">
      <Anchor component={Link} to="/superadmin" size="sm">
        Administration
      </Anchor>
      <Anchor component={Link} to="/superadmin/projects" size="sm">
        Projects
      </Anchor>
      {name && (
        <Text size="sm" c="dimmed" truncate="end" maw={240}>
          {name}
        </Text>
      )}
    </Breadcrumbs>
  );
}

function ProjectView({ id }: { id: string }) {
  const project = useSuperProject(id);
  usePageTitle(project.data ? project.data.name : 'Project');

  if (project.isPending) return <ProjectSkeleton />;
  if (project.isError) {
    if (project.error instanceof ApiError && project.error.status === 404) return <ProjectNotFound />;
    return (
      <Stack gap="lg" w="100%" maw={1200}>
        <PageTrail />
        <Title order={1} fz={{ base: 'h3', sm: 'h2' }}>
          Project
        </Title>
        <QueryLoadError query={project} fallback="The project could not be loaded. Please try again." />
      </Stack>
    );
  }
  return <ProjectContent project={project.data} />;
}

function ProjectContent({ project }: { project: SuperProjectDetail }) {
  const id = String(project.id);
  return (
    <Stack gap="lg" w="100%" maw={1200}>
      <PageTrail name={project.name} />
      <Group justify="space-between" align="flex-start" gap="sm">
        <Stack gap={6} style={{ minWidth: 0 }}>
          <Title order={1} fz={{ base: 'h3', sm: 'h2' }} style={{ overflowWrap: 'anywhere' }}>
            {project.name}
          </Title>
          <Group gap="xs">
            <Text size="sm">
              Slug <Code>{project.slug}</Code>
            </Text>
            <ProjectStatusBadge active={project.is_active} />
            <Text size="sm" c="dimmed">
              Project ID {project.id}, created {formatDate(project.created_at)}
            </Text>
          </Group>
        </Stack>
        {project.is_active && (
          <Button component={Link} to={`/member/projects/${project.id}/apps`} variant="default">
            Open apps
          </Button>
        )}
      </Group>
      {!project.is_active && (
        <Alert color="gray" variant="light" title="This project is inactive">
          Its members cannot open it or its apps. Nothing is deleted; reactivate it below to give them access again.
        </Alert>
      )}
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <ProjectDetailsCard
            key={[
              project.name,
              project.slug,
              project.facility_name,
              project.address,
              project.phone,
              project.email,
            ].join('\u0000')}
            project={project}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack gap="lg">
            <ProjectAppsCard key={project.active_apps.join(',')} project={project} />
            <ProjectLogoCard project={project} />
            <ProjectStatusCard project={project} />
          </Stack>
        </Grid.Col>
      </Grid>
      <ProjectMembersCard projectId={id} projectName={project.name} />
    </Stack>
  );
}

function ProjectNotFound() {
  usePageTitle('Project not found');
  return (
    <Stack gap="lg" w="100%" maw={760}>
      <PageTrail />
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }}>
        <Stack gap="sm" align="flex-start">
          <Title order={1} fz={{ base: 'h3', sm: 'h2' }}>
            Project not found
          </Title>
          <Text>There is no project at this address. Check the link, or find the project in the list.</Text>
          <Button component={Link} to="/superadmin/projects" variant="default">
            Back to projects
          </Button>
        </Stack>
      </Paper>
    </Stack>
  );
}

function ProjectSkeleton() {
  return (
    <Stack gap="lg" w="100%" maw={1200} role="status" aria-label="Loading project">
      <Skeleton height={14} width={220} />
      <Stack gap={8}>
        <Skeleton height={32} width="50%" />
        <Skeleton height={18} width={320} />
      </Stack>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Skeleton height={420} radius="md" />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack gap="lg">
            <Skeleton height={180} radius="md" />
            <Skeleton height={150} radius="md" />
          </Stack>
        </Grid.Col>
      </Grid>
      <Skeleton height={240} radius="md" />
    </Stack>
  );
}
