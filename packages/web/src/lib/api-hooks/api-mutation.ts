import { type QueryClient, type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';

/**
 * A mutation followed, once it succeeds, by `afterSuccess` (store the answer in the cache, make queries stale).
 * Whatever `afterSuccess` returns is awaited: the mutation settles only when the cache has caught up.
 */
export function useApiMutation<TData, TVariables = void>(
  mutationFn: (variables: TVariables) => Promise<TData>,
  afterSuccess?: (queryClient: QueryClient, data: TData, variables: TVariables) => unknown,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: afterSuccess && ((data: TData, variables: TVariables) => afterSuccess(queryClient, data, variables)),
  });
}

/** A mutation after whose success every query under each of `staleKeys` is refetched (and awaited, as above). */
export function useInvalidatingMutation<TData, TVariables = void>(
  mutationFn: (variables: TVariables) => Promise<TData>,
  staleKeys: readonly QueryKey[],
) {
  return useApiMutation(mutationFn, (queryClient) => invalidateKeys(queryClient, staleKeys));
}

/** Marks every query under each key stale and refetches the active ones; resolves when they have been fetched. */
function invalidateKeys(queryClient: QueryClient, keys: readonly QueryKey[]): Promise<unknown> {
  return Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}
