import { Alert, Anchor, Box, Button, Group, Select, Stack, Text, Title } from '@mantine/core';
import { ACCESS_DENIED, type MemberProject } from '@portal/shared';
import { type ReactNode, useEffect } from 'react';
import { Link, Outlet, Route, Routes, useLocation, useNavigate, useOutletContext, useParams } from 'react-router';
import { NotFoundPage } from '../../../components/NotFoundPage';
import { LoadFailure } from '../../../components/page-parts';
import { ApiError, messageFor } from '../../../lib/api';
import { useProjects } from '../../../lib/project/get-projects';
import { useCurrentProject, useIsSuperadmin } from '../../../lib/project/project-context';
import { rememberProjectId } from '../../../lib/project/project-path';
import { usePageTitle } from '../../../lib/use-page-title';
import { useLookups } from '../api';
import { GalleryPage } from './GalleryPage';
import { GeneratedPage } from './GeneratedPage';
import { ProfilePage } from './ProfilePage';
import { idParam, Loading, PG_BASE, pgRoute } from './pg-parts';
import { TemplatePage } from './TemplatePage';
import { WizardPage } from './WizardPage';

export const APP_NAME = 'Policy Generator';

/** The sections the header links, in their order; `match` says which paths belong to each. */
export const GENERATOR_SECTIONS = [
  { path: '', label: 'Templates', match: (rest: string) => rest === '' || rest.startsWith('templates') },
  { path: 'generated', label: 'Generated policies', match: (rest: string) => rest.startsWith('generated') },
  { path: 'profile', label: 'Facility profile', match: (rest: string) => rest.startsWith('profile') },
] as const;

/**
 * /app/policy_generator/*: the path names no project, so the generator works in the member's current project (the
 * one the rest of the portal remembers) and offers a picker of the projects that have the app. GET /lookups decides
 * whether the member may use it (403: no policy role that may write; 404: the project lacks the apps).
 */
export function PolicyGeneratorApp() {
  return (
    <Routes>
      <Route element={<GeneratorShell />}>
        <Route index element={<Screen render={(id) => <GalleryPage projectId={id} />} />} />
        <Route path="profile" element={<Screen render={(id) => <ProfilePage projectId={id} />} />} />
        <Route path="generated" element={<Screen render={(id) => <GeneratedPage projectId={id} />} />} />
        <Route path="templates/:templateId" element={<TemplateScreen generate={false} />} />
        <Route path="templates/:templateId/generate" element={<TemplateScreen generate />} />
      </Route>
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}

interface GeneratorContext {
  projectId: number;
}

function Screen({ render }: { render: (projectId: number) => ReactNode }) {
  const { projectId } = useOutletContext<GeneratorContext>();
  return render(projectId);
}

function TemplateScreen({ generate }: { generate: boolean }) {
  const { projectId } = useOutletContext<GeneratorContext>();
  const templateId = idParam(useParams().templateId);
  if (templateId === null) return <NotFoundPage />;
  return generate ? (
    <WizardPage projectId={projectId} templateId={templateId} />
  ) : (
    <TemplatePage projectId={projectId} />
  );
}

/** The app's title and project picker, then the screens of the current project (or why there are none). */
function GeneratorShell() {
  const superadmin = useIsSuperadmin();
  const navigate = useNavigate();
  const { projectId, project, loading } = useCurrentProject();
  const projects = useProjects(superadmin);
  const eligible = (projects.data ?? []).filter((item) => item.active_apps.includes('policy_generator'));

  const choose = (value: string | null) => {
    if (!value || value === projectId) return;
    rememberProjectId(value);
    // Templates and drafts belong to a project: start again from the gallery of the one chosen.
    navigate(PG_BASE);
  };

  // Only one project can use the generator: it is the one, nothing to choose.
  const only = !projectId && eligible.length === 1 ? String(eligible[0]!.id) : null;
  useEffect(() => {
    if (only) {
      rememberProjectId(only);
    }
  }, [only]);

  let body: ReactNode;
  if (loading) body = <Loading label="Loading project" />;
  else if (!projectId || !project) body = <NoProject eligible={eligible} loadingList={projects.isPending} />;
  else if (!project.active_apps.includes('policy_generator'))
    body = <NotSwitchedOn name={project.name} others={eligible.length > 0} />;
  else body = <ProjectGate key={projectId} projectId={Number(projectId)} />;

  return (
    <Stack gap="lg" w="100%" maw={1200} miw={0}>
      <Group justify="space-between" align="flex-end" gap="md" wrap="wrap">
        <Title order={1} fz={{ base: 'h3', sm: 'h2' }}>
          {APP_NAME}
        </Title>
        <Select
          label="Project"
          w={{ base: '100%', xs: 320 }}
          placeholder={projects.isPending ? 'Loading projects…' : 'Choose a project'}
          data={eligible.map((item) => ({ value: String(item.id), label: item.name }))}
          value={projectId && eligible.some((item) => String(item.id) === projectId) ? projectId : null}
          onChange={choose}
          allowDeselect={false}
          searchable={eligible.length > 8}
          nothingFoundMessage="No project has the Policy Generator"
          disabled={projects.isPending}
          comboboxProps={{ withinPortal: true }}
        />
      </Group>
      {body}
    </Stack>
  );
}

function NoProject({ eligible, loadingList }: { eligible: MemberProject[]; loadingList: boolean }) {
  usePageTitle(APP_NAME);
  if (loadingList) return <Loading label="Loading your projects" />;
  return (
    <ProjectsAlert color="gray" title="No project is selected">
      {eligible.length > 0 ? 'Choose a project above to see its templates, or open one from your projects.' : NONE_ON}
    </ProjectsAlert>
  );
}

function NotSwitchedOn({ name, others }: { name: string; others: boolean }) {
  usePageTitle(APP_NAME);
  return (
    <ProjectsAlert color="yellow" title={`The Policy Generator is not switched on for ${name}`}>
      {others ? 'Choose another project above, or ask a superadmin to switch the app on for this one.' : NONE_ON}
    </ProjectsAlert>
  );
}

const NONE_ON =
  'None of your projects has the Policy Generator switched on. A superadmin can switch it on in the project settings.';

/** Why there is nothing to show for the chosen project, and the way to the member's projects. */
function ProjectsAlert({ color, title, children }: { color: string; title: string; children: string }) {
  return (
    <Alert color={color} variant="light" title={title}>
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{children}</Text>
        <Anchor component={Link} to="/member/projects" size="sm" underline="always">
          Go to your projects
        </Anchor>
      </Stack>
    </Alert>
  );
}

/** GET /lookups answers whether the member may use the generator in this project; then the sections. */
function ProjectGate({ projectId }: { projectId: number }) {
  const lookups = useLookups(projectId);
  const status = lookups.error instanceof ApiError ? lookups.error.status : null;
  if (lookups.isPending) return <Loading label="Checking your access" />;
  if (status === 403) return <Denied reason={messageFor(lookups.error, '')} />;
  if (status === 404) return <Unavailable />;
  if (lookups.isError)
    return (
      <LoadFailure
        error={lookups.error}
        fallback="The Policy Generator could not be opened. Please try again."
        retrying={lookups.isFetching}
        onRetry={() => void lookups.refetch()}
      />
    );
  return (
    <Stack gap="lg" miw={0}>
      <GeneratorNav />
      <Outlet context={{ projectId } satisfies GeneratorContext} />
    </Stack>
  );
}

function GeneratorNav() {
  const { pathname } = useLocation();
  const rest = pathname.startsWith(PG_BASE) ? pathname.slice(PG_BASE.length).replace(/^\/+/, '') : '';
  return (
    <Box component="nav" aria-label={APP_NAME}>
      <Group
        component="ul"
        gap={4}
        wrap="wrap"
        m={0}
        p={0}
        style={{ listStyle: 'none', borderBottom: '1px solid var(--mantine-color-gray-3)' }}
        pb={6}
      >
        {GENERATOR_SECTIONS.map((item) => {
          const current = item.match(rest);
          return (
            <li key={item.label}>
              <Button
                component={Link}
                to={pgRoute(item.path)}
                size="compact-md"
                variant={current ? 'light' : 'subtle'}
                aria-current={current ? 'page' : undefined}
              >
                {item.label}
              </Button>
            </li>
          );
        })}
      </Group>
    </Box>
  );
}

function Denied({ reason }: { reason: string }) {
  usePageTitle(`Access denied | ${APP_NAME}`);
  return (
    <Alert color="red" variant="light" title={ACCESS_DENIED.title} role="alert" maw={720}>
      <Stack gap="xs" align="flex-start">
        <Text size="sm" data-testid="access-denied-reason">
          {reason || 'You may not use the Policy Generator in this project.'}
        </Text>
        <Text size="sm">
          Policy administrators and authors of policy management can generate policies. A policy administrator can give
          you one of these roles.
        </Text>
        <Button component={Link} to="/member/projects" size="xs" variant="default">
          Back to Dashboard
        </Button>
      </Stack>
    </Alert>
  );
}

function Unavailable() {
  usePageTitle(APP_NAME);
  return (
    <Alert color="yellow" variant="light" title="The Policy Generator is not available" maw={720}>
      <Text size="sm">
        The Policy Generator needs both the Policy Generator and Policy management apps in this project. A superadmin
        can switch them on in the project settings.
      </Text>
    </Alert>
  );
}

export default PolicyGeneratorApp;
