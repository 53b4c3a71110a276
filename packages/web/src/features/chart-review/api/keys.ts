import type { QueryClient } from '@tanstack/react-query';

/** Every chart review query of one project: what a change to its tools, programmes or settings may make stale. */
export function chartReviewKey(projectId: string) {
  return ['chart-review', projectId] as const;
}

/** Prefix of every chart review call of a project (DOMAIN.md 2.4; docs/chart-review.md). */
export function chartReviewPath(projectId: string): string {
  return `/api/projects/${projectId}/chart-review`;
}

/** After a change that other chart review screens show (a tool's programme count, a programme's tool version). */
export function invalidateChartReview(queryClient: QueryClient, projectId: string): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: chartReviewKey(projectId) });
}
