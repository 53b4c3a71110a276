import { useCurrentProject } from '../../../lib/project/project-context';

/**
 * The project of the monitoring app's route. The app's routes sit behind SectionGuard, which renders nothing until
 * the project is known, so inside them the id is always there.
 */
export function useMonitoringProjectId(): string {
  const { projectId } = useCurrentProject();
  if (!projectId) throw new Error('The monitoring screens render only inside a project (SectionGuard).');
  return projectId;
}

/** Where a monitoring screen lives: /app/monitoring/{projectId}/{path}. */
export function monitoringRoute(projectId: string, path = ''): string {
  return `/app/monitoring/${projectId}${path ? `/${path}` : ''}`;
}
