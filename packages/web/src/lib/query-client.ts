import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api';

/** Retrying cannot fix a client error (4xx): the answer would be the same. */
function isClientError(error: unknown): boolean {
  return error instanceof ApiError && error.status >= 400 && error.status < 500;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: (failureCount, error) => failureCount < 1 && !isClientError(error),
        staleTime: 30_000,
        // An error screen should stay until the user asks to try again, not flicker on every tab switch.
        refetchOnWindowFocus: (query) => query.state.status !== 'error',
      },
      mutations: { retry: false },
    },
  });
}
