import { type AppPerson, appPeopleSchema } from '@portal/shared';
import { apiFetch } from '../../../lib/api';
import { useApiMutation } from '../../../lib/api-hooks';
import { invalidatePeople, PEOPLE_API, type PeopleApp, peopleKey, peoplePath } from '../../../lib/people';

/**
 * POST .../{assign} {user_ids}: adds these members to the app; POST .../{update} {user_ids}: the WHOLE list of the
 * app's users (those left out stop taking part and lose their main role there; 409 when it would remove the
 * signed-in user). Both answer with the app's users after.
 */
export async function sendUsers(
  app: PeopleApp,
  projectId: string,
  call: 'assign' | 'update',
  userIds: number[],
): Promise<AppPerson[]> {
  const { users } = await apiFetch(peoplePath(app, projectId, PEOPLE_API[app][call]), {
    method: 'POST',
    body: { user_ids: userIds },
    schema: appPeopleSchema(app),
  });
  return users;
}

function useUsersMutation(app: PeopleApp, projectId: string, call: 'assign' | 'update') {
  return useApiMutation(
    (userIds: number[]) => sendUsers(app, projectId, call, userIds),
    (queryClient, users) => {
      queryClient.setQueryData(peopleKey(app, projectId, 'assigned'), users);
      return invalidatePeople(queryClient, app, projectId);
    },
  );
}

export function useAssignUsers(app: PeopleApp, projectId: string) {
  return useUsersMutation(app, projectId, 'assign');
}

export function useUpdateUsers(app: PeopleApp, projectId: string) {
  return useUsersMutation(app, projectId, 'update');
}
