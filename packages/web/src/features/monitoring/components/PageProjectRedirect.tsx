import { Center, Loader } from '@mantine/core';
import { Navigate, useParams } from 'react-router';
import { NotFoundPage } from '../../../components/NotFoundPage';
import { usePageProject } from '../api/pages-project';
import { monitoringRoute } from './use-monitoring-project';

/**
 * /app/monitoring/pages/page/{pageId} (SPEC: dashboard paths without a project): finds the page's project and goes
 * to the page there; a page the user may not see, or that does not exist, shows the not-found page.
 */
export function PageProjectRedirect() {
  const { pageId = '' } = useParams();
  const valid = /^\d{1,10}$/.test(pageId);
  const query = usePageProject(pageId, valid);
  if (!valid || query.isError) return <NotFoundPage />;
  if (query.isPending) {
    return (
      <Center py="xl" role="status" aria-label="Finding the page">
        <Loader aria-hidden="true" />
      </Center>
    );
  }
  return <Navigate to={monitoringRoute(String(query.data), `pages/page/${pageId}`)} replace />;
}
