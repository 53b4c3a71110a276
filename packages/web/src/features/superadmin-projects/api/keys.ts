import type { QueryClient } from '@tanstack/react-query';

/** Every query of this feature: the list pages, one project's detail and members, the user picker. */
export const SUPER_PROJECTS_KEY = ['super-projects'] as const;

export interface ProjectListParams {
  q: string;
  status: 'all' | 'active' | 'inactive';
  page: number;
  page_size: number;
}

export const projectListKey = (params?: ProjectListParams) =>
  params ? ([...SUPER_PROJECTS_KEY, 'list', params] as const) : ([...SUPER_PROJECTS_KEY, 'list'] as const);
export const projectDetailKey = (id: string) => [...SUPER_PROJECTS_KEY, 'detail', id] as const;
export const projectMembersKey = (id: string) => [...SUPER_PROJECTS_KEY, 'members', id] as const;
export const USER_SEARCH_KEY = [...SUPER_PROJECTS_KEY, 'user-search'] as const;
export const userSearchKey = (q: string) => [...USER_SEARCH_KEY, q] as const;

export function superProjectPath(id: string | number): string {
  return `/super/projects/${id}`;
}

/**
 * After a project changed: the superadmin list, and the caches the rest of the portal keeps of the project (its
 * name and apps in the navigation, the member's project list) load again.
 */
export function invalidateProjectCaches(queryClient: QueryClient, id: string | number): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: projectListKey() }),
    queryClient.invalidateQueries({ queryKey: ['project', String(id)] }),
    queryClient.invalidateQueries({ queryKey: ['super', 'projects'] }),
    queryClient.invalidateQueries({ queryKey: ['member', 'projects'] }),
  ]);
}
