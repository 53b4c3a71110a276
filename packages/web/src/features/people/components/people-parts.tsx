import type { UseQueryResult } from '@tanstack/react-query';
import { LoadingRows, QueryFailure } from '../../../components/page-parts';
import type { PeopleScreens } from '../apps';

/** What shows while the app's users load, or when they could not be loaded (with a way to try again). */
export function UsersNotLoaded({ d, list }: { d: PeopleScreens; list: UseQueryResult<unknown> }) {
  if (list.isPending) return <LoadingRows label={`Loading the ${d.names.users}`} />;
  return <QueryFailure query={list} fallback={`The ${d.names.users} could not be loaded. Please try again.`} />;
}
