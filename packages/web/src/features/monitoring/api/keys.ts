import type { QueryClient } from '@tanstack/react-query';

/** Every monitoring query of one project: what a change to its pages, levels or people may make stale. */
export function monitoringKey(projectId: string) {
  return ['monitoring', projectId] as const;
}

/** Prefix of every monitoring call of a project (SPEC section 7; docs/monitoring.md). */
export function monitoringPath(projectId: string): string {
  return `/api/projects/${projectId}/monitoring`;
}

/** After any change to the page tree: lists, the tree, page views and the Analytics table of contents. */
export function invalidateMonitoring(queryClient: QueryClient, projectId: string): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: monitoringKey(projectId) });
}
