import { type AppUserRequestCreate, type UserRequest, userRequestListSchema, userRequestSchema } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { apiQuery, useInvalidatingMutation } from '../../../lib/api-hooks';
import { PEOPLE_API, type PeopleApp, peoplePath } from '../../../lib/people';

export type { UserRequest };

const path = (app: PeopleApp, projectId: string) => peoplePath(app, projectId, PEOPLE_API[app].userRequests);

export function userRequestsKey(app: PeopleApp, projectId: string) {
  return [...PEOPLE_API[app].key(projectId), 'user-requests'] as const;
}

/** GET .../user-requests: this project's new-user requests that ask for a main role of the app, newest first. */
export async function getUserRequests(app: PeopleApp, projectId: string, signal?: AbortSignal): Promise<UserRequest[]> {
  const { requests } = await apiFetch(path(app, projectId), { signal, schema: userRequestListSchema });
  return requests;
}

export function useUserRequests(app: PeopleApp, projectId: string) {
  return useQuery(apiQuery(userRequestsKey(app, projectId), (signal) => getUserRequests(app, projectId, signal)));
}

/**
 * POST .../user-requests {first_name, last_name, email, main_role, justification} -> 201: the superadmins are asked
 * for the account. 409 when the email belongs to a member already or has a pending request.
 */
export function createUserRequest(
  app: PeopleApp,
  projectId: string,
  request: AppUserRequestCreate,
): Promise<UserRequest> {
  return apiFetch(path(app, projectId), { method: 'POST', body: request, schema: userRequestSchema });
}

export function useCreateUserRequest(app: PeopleApp, projectId: string) {
  return useInvalidatingMutation(
    (request: AppUserRequestCreate) => createUserRequest(app, projectId, request),
    [userRequestsKey(app, projectId)],
  );
}
