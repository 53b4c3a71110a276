import { type AppPerson, appPeopleSchema, type MainRoleChange } from '@portal/shared';
import { apiFetch } from '../../../lib/api';
import { useApiMutation } from '../../../lib/api-hooks';
import { invalidatePeople, PEOPLE_API, type PeopleApp, peopleKey, peoplePath } from '../../../lib/people';

export type { MainRoleChange };

/**
 * POST .../{bulk} {items}: the main roles of several users of the app at once -> the list PEOPLE_API[app].bulkAnswers
 * after. A 400 names the failing items as `items.{index}` in `errors`; nothing is saved then.
 */
export async function setMainRoles(app: PeopleApp, projectId: string, items: MainRoleChange[]): Promise<AppPerson[]> {
  const { users } = await apiFetch(peoplePath(app, projectId, PEOPLE_API[app].bulk), {
    method: 'POST',
    body: { items },
    schema: appPeopleSchema(app),
  });
  return users;
}

export function useSetMainRoles(app: PeopleApp, projectId: string) {
  return useApiMutation(
    (items: MainRoleChange[]) => setMainRoles(app, projectId, items),
    (queryClient, users) => {
      queryClient.setQueryData(peopleKey(app, projectId, PEOPLE_API[app].bulkAnswers), users);
      return invalidatePeople(queryClient, app, projectId);
    },
  );
}
