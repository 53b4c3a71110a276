import { type AppPerson, appPeopleSchema, type PeopleApp } from '@portal/shared';
import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from './api';

/**
 * The calls of an app's people (who takes part, main roles, new-user requests; SPEC section 7 "Project-scoped users",
 * docs/policies.md, docs/monitoring.md), per app: the people screens (features/people) and the app's own screens
 * that list its users (monitoring's roles and permissions) read them from here.
 */

export type { AppPerson, PeopleApp };

/**
 * - `unassigned`: project members who do not take part in the app;
 * - `assigned`: the app's users (main_role null while they have none);
 * - `unassigned-main-role` / `assigned-main-role`: the app's users without / with a main role (policy management).
 */
export type PeopleList = 'unassigned' | 'assigned' | 'unassigned-main-role' | 'assigned-main-role';

export interface PeopleApi {
  /** Prefix of the app's calls of a project. */
  path: (projectId: string) => string;
  /** Every query of the app in a project: its people queries are under it. */
  key: (projectId: string) => readonly string[];
  /** The lists the app offers, after the prefix. */
  lists: Partial<Record<PeopleList, string>>;
  assign: string;
  update: string;
  bulk: string;
  /** What the bulk call answers with. */
  bulkAnswers: PeopleList;
  userRequests: string;
}

export const PEOPLE_API: Record<PeopleApp, PeopleApi> = {
  policy_management: {
    path: (projectId) => `/api/projects/${projectId}/policy-management`,
    key: (projectId) => ['policies', projectId],
    lists: {
      unassigned: 'eligible-users/unassigned',
      assigned: 'eligible-users/assigned',
      'unassigned-main-role': 'pol-man-users/unassigned-main-role',
      'assigned-main-role': 'pol-man-users/assigned-main-role',
    },
    assign: 'policy-users/assign',
    update: 'policy-users/update',
    bulk: 'pol-man-users/main-role/bulk',
    bulkAnswers: 'assigned-main-role',
    userRequests: 'user-requests',
  },
  monitoring: {
    path: (projectId) => `/api/projects/${projectId}/monitoring`,
    key: (projectId) => ['monitoring', projectId],
    lists: { unassigned: 'users/unassigned', assigned: 'users' },
    assign: 'users/assign',
    update: 'users/update',
    bulk: 'users/main-role/bulk',
    bulkAnswers: 'assigned',
    userRequests: 'user-requests',
  },
};

/** Every people query of an app in a project (lists, and monitoring's dashboard, roles and page permissions). */
export function peopleRootKey(app: PeopleApp, projectId: string) {
  return [...PEOPLE_API[app].key(projectId), 'people'] as const;
}

export function peopleKey(app: PeopleApp, projectId: string, list: PeopleList) {
  return [...peopleRootKey(app, projectId), 'users', list] as const;
}

/** A call of the app's people in a project: `{prefix}/{path}`. */
export function peoplePath(app: PeopleApp, projectId: string, path: string): string {
  return `${PEOPLE_API[app].path(projectId)}/${path}`;
}

/** GET one of the app's people lists (PEOPLE_API[app].lists). */
export async function getPeople(
  app: PeopleApp,
  projectId: string,
  list: PeopleList,
  signal?: AbortSignal,
): Promise<AppPerson[]> {
  const path = PEOPLE_API[app].lists[list];
  if (!path) throw new Error(`${app} has no list ${list}.`);
  const { users } = await apiFetch(peoplePath(app, projectId, path), {
    signal,
    schema: appPeopleSchema(app),
  });
  return users;
}

export function peopleQueryOptions(app: PeopleApp, projectId: string, list: PeopleList) {
  return queryOptions({
    queryKey: peopleKey(app, projectId, list),
    queryFn: ({ signal }) => getPeople(app, projectId, list, signal),
  });
}

export function usePeople(app: PeopleApp, projectId: string, list: PeopleList) {
  return useQuery(peopleQueryOptions(app, projectId, list));
}

/**
 * After a change of an app's users, main roles (or monitoring roles): every people query of the app, and the
 * permission queries (a main role decides which sections a person may open, the signed-in user's own included).
 */
export function invalidatePeople(queryClient: QueryClient, app: PeopleApp, projectId: string): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: peopleRootKey(app, projectId) }),
    queryClient.invalidateQueries({ queryKey: ['permissions'] }),
  ]);
}

/** '1 person', '1,200 people'. */
export function peopleCount(count: number): string {
  return count === 1 ? '1 person' : `${count.toLocaleString('en-US')} people`;
}
