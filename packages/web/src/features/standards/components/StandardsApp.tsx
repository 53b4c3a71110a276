import { Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { Navigate, Outlet, Route, Routes } from 'react-router';
import { NotFoundPage } from '../../../components/NotFoundPage';
import { LoadFailure } from '../../../components/page-parts';
import { ApiError, messageFor } from '../../../lib/api';
import { useCurrentProject } from '../../../lib/project/project-context';
import { usePageTitle } from '../../../lib/use-page-title';
import { useStdMe } from '../api/me';
import { AssignUsersPage } from './AssignUsersPage';
import { CompliancePage } from './CompliancePage';
import { CreateAssessmentPage } from './CreateAssessmentPage';
import { ManageUsersPage } from './ManageUsersPage';
import { ReadinessPage } from './ReadinessPage';
import { StandardsHeader } from './StandardsHeader';
import { Loading, StdAccessDenied, StdUnavailable } from './std-parts';

/**
 * The standards app under /app/standards/{projectId}/...: compilence (the compliance tree), create (the wizard),
 * assign-users and manage-users. GET /me decides whether the user may use it at all (404: not their project or
 * the app is off; 403: no standards role) and which sections the header links.
 */
export function StandardsApp() {
  const { projectId, loading } = useCurrentProject();
  if (loading) return <Loading label="Loading project" />;
  if (!projectId) return <NoProject />;
  return <StandardsScreens projectId={projectId} />;
}

function NoProject() {
  usePageTitle('Standards');
  return (
    <Stack gap="md">
      <StandardsHeader projectId="" me={undefined} />
      <StdUnavailable />
    </Stack>
  );
}

/** The app's screens; an unknown path shows the not-found page on its own. */
function StandardsScreens({ projectId }: { projectId: string }) {
  return (
    <Routes>
      <Route element={<StandardsShell projectId={projectId} />}>
        <Route index element={<Navigate to="compilence" replace />} />
        <Route path="compilence" element={<CompliancePage />} />
        <Route path="readiness" element={<ReadinessPage />} />
        <Route path="create" element={<CreateAssessmentPage />} />
        <Route path="assign-users" element={<AssignUsersPage />} />
        <Route path="manage-users" element={<ManageUsersPage />} />
      </Route>
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}

/** The header, then the section once GET /me allows it (or why it does not). */
function StandardsShell({ projectId }: { projectId: string }) {
  const me = useStdMe(projectId);
  const status = me.error instanceof ApiError ? me.error.status : null;

  let body: ReactNode;
  if (me.isPending) body = <Loading label="Checking your access" />;
  else if (status === 403) body = <Denied reason={messageFor(me.error, '')} />;
  else if (status === 404) body = <Unavailable />;
  else if (me.isError)
    body = (
      <LoadFailure
        error={me.error}
        fallback="Your standards access could not be checked. Please try again."
        retrying={me.isFetching}
        onRetry={() => void me.refetch()}
      />
    );
  else body = <Outlet />;

  return (
    <Stack gap="md">
      <StandardsHeader projectId={projectId} me={me.data} />
      {body}
    </Stack>
  );
}

function Denied({ reason }: { reason: string }) {
  usePageTitle('Access denied | Standards');
  return <StdAccessDenied reason={reason || null} />;
}

function Unavailable() {
  usePageTitle('Standards');
  return <StdUnavailable />;
}

export default StandardsApp;
