import { termsVersionListSchema, type termsVersionSchema } from '@portal/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';
import { SUPER_TERMS_KEY } from './get-terms-editor';

export type TermsVersion = z.infer<typeof termsVersionSchema>;
export type TermsVersionList = z.infer<typeof termsVersionListSchema>;

/** GET /super/terms: every version, newest first, with acceptance counts. */
export function getTermsVersions(signal?: AbortSignal): Promise<TermsVersionList> {
  return apiFetch('/super/terms', { signal, schema: termsVersionListSchema });
}

export function termsVersionsQueryOptions() {
  return queryOptions({
    queryKey: [...SUPER_TERMS_KEY, 'versions'] as const,
    queryFn: ({ signal }) => getTermsVersions(signal),
  });
}

export function useTermsVersions() {
  return useQuery(termsVersionsQueryOptions());
}
