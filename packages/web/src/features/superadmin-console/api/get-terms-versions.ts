import { termsVersionListSchema, type termsVersionSchema } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';
import { apiQuery } from '../../../lib/api-hooks';
import { SUPER_TERMS_KEY } from './get-terms-editor';

export type TermsVersion = z.infer<typeof termsVersionSchema>;
export type TermsVersionList = z.infer<typeof termsVersionListSchema>;

/** GET /super/terms: every version, newest first, with acceptance counts. */
export function getTermsVersions(signal?: AbortSignal): Promise<TermsVersionList> {
  return apiFetch('/super/terms', { signal, schema: termsVersionListSchema });
}

export function termsVersionsQueryOptions() {
  return apiQuery([...SUPER_TERMS_KEY, 'versions'] as const, (signal) => getTermsVersions(signal));
}

export function useTermsVersions() {
  return useQuery(termsVersionsQueryOptions());
}
