import type { QueryClient } from '@tanstack/react-query';

/** Every policy-management query of one project: what a change to its documents or departments makes stale. */
export function policyKey(projectId: string) {
  return ['policies', projectId] as const;
}

/** Prefix of every policy-management call of a project (SPEC section 7). */
export function policyPath(projectId: string): string {
  return `/api/projects/${projectId}/policy-management`;
}

/** After any change to documents, numbers or departments: lists, trees, search and the layout's sub-menu. */
export function invalidatePolicies(queryClient: QueryClient, projectId: string): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: policyKey(projectId) });
}
