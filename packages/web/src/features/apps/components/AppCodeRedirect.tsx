import { Button, Center, Loader, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { Link, Navigate, useParams } from 'react-router';
import { toast } from 'sonner';
import { NotFoundPage } from '../../../components/NotFoundPage';
import { APP_INFO, appCodeFromRoute } from '../../../lib/apps';
import { ACCESS_TOASTS } from '../../../lib/permissions';
import { useCurrentProject } from '../../../lib/project/project-context';
import { useSession } from '../../../lib/session';
import { usePageTitle } from '../../../lib/use-page-title';

/** /app/{code}: opens that app for the current project (the last one opened in this browser). */
export function AppCodeRedirect() {
  const code = appCodeFromRoute(useParams().code ?? '');
  const signedOut = useSession().status !== 'signed-in';
  const { projectId, loading } = useCurrentProject();
  // The session just ended and RequireAuth is moving to the sign-in page: no project is missing (SectionGuard).
  if (signedOut) return null;
  if (!code) return <NotFoundPage />;
  if (code === 'policy_generator') return <Navigate to="/app/policy_generator" replace />;
  if (loading) {
    return (
      <Center py="xl" role="status" aria-label="Loading project">
        <Loader />
      </Center>
    );
  }
  if (projectId) return <Navigate to={APP_INFO[code].home(projectId)} replace />;
  return <NoProject name={APP_INFO[code].name} />;
}

function NoProject({ name }: { name: string }) {
  usePageTitle(name);
  useEffect(() => {
    toast.error(ACCESS_TOASTS.noProject, { id: 'no-project-context' });
  }, []);
  return (
    <Stack gap="md" align="flex-start" maw={640}>
      <Title order={1} fz={{ base: 'h3', sm: 'h2' }}>
        {name}
      </Title>
      <Text>
        {ACCESS_TOASTS.noProject} Choose a project first, then open {name} from its apps.
      </Text>
      <Button component={Link} to="/member/projects">
        Back to Dashboard
      </Button>
    </Stack>
  );
}
