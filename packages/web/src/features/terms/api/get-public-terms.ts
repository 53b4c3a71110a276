import { type PublicTerms, publicTermsSchema } from '@portal/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';

export const PUBLIC_TERMS_PATH = '/api/public/terms-and-conditions';

export function getPublicTerms(signal?: AbortSignal): Promise<PublicTerms> {
  return apiFetch(PUBLIC_TERMS_PATH, { signal, schema: publicTermsSchema });
}

export function publicTermsQueryOptions() {
  return queryOptions({
    queryKey: ['public', 'terms-and-conditions'],
    queryFn: ({ signal }) => getPublicTerms(signal),
  });
}

export function usePublicTerms() {
  return useQuery(publicTermsQueryOptions());
}
