import type { QueryClient } from '@tanstack/react-query';

/** Every Admin-app query of one project: what a change to its members, requests or details makes stale. */
export function projectAdminKey(projectId: string) {
  return ['project-admin', projectId] as const;
}

export function adminPath(projectId: string): string {
  return `/api/projects/${projectId}/admin`;
}

/**
 * After a change: the Admin app's lists, and the project's own queries (['project', id, ...]: its name in the layout,
 * and whether the signed-in user still administers it).
 */
export function invalidateProject(queryClient: QueryClient, projectId: string): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: projectAdminKey(projectId) }),
    queryClient.invalidateQueries({ queryKey: ['project', projectId] }),
  ]);
}
