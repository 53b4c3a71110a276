import { type QueryKey, queryOptions } from '@tanstack/react-query';

/**
 * The query options of one API read under `queryKey`. `fetch` receives the query's abort signal, so a read nobody
 * waits for any more (the screen closed, the key changed) is cancelled rather than left to finish.
 */
export function apiQuery<TKey extends QueryKey, TData>(queryKey: TKey, fetch: (signal: AbortSignal) => Promise<TData>) {
  return queryOptions({ queryKey, queryFn: ({ signal }) => fetch(signal) });
}
