import { type PublicTerms, publicTermsSchema } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { apiQuery } from '../../../lib/api-hooks';

export const PUBLIC_TERMS_PATH = '/api/public/terms-and-conditions';

export function getPublicTerms(signal?: AbortSignal): Promise<PublicTerms> {
  return apiFetch(PUBLIC_TERMS_PATH, { signal, schema: publicTermsSchema });
}

export function publicTermsQueryOptions() {
  return apiQuery(['public', 'terms-and-conditions'], (signal) => getPublicTerms(signal));
}

export function usePublicTerms() {
  return useQuery(publicTermsQueryOptions());
}
