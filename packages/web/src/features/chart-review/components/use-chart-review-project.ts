import { useCurrentProject } from '../../../lib/project/project-context';

/**
 * The project of the chart review app's route. The app sits behind SectionGuard, which renders nothing until the
 * project is known, so inside it the id is always there.
 */
export function useChartReviewProjectId(): string {
  const { projectId } = useCurrentProject();
  if (!projectId) throw new Error('The chart review screens render only inside a project (SectionGuard).');
  return projectId;
}

/** Where a chart review screen lives: /app/chart-review/{projectId}/{path}. */
export function chartReviewRoute(projectId: string, path = ''): string {
  return `/app/chart-review/${projectId}${path ? `/${path}` : ''}`;
}
