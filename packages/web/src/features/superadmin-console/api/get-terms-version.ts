import { type TermsVersionDetail, termsVersionDetailSchema } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { apiQuery } from '../../../lib/api-hooks';
import { SUPER_TERMS_KEY } from './get-terms-editor';

export type { TermsVersionDetail };

/** GET /super/terms/{id}: one version with its content. */
export function getTermsVersion(id: number, signal?: AbortSignal): Promise<TermsVersionDetail> {
  return apiFetch(`/super/terms/${id}`, { signal, schema: termsVersionDetailSchema });
}

export function termsVersionQueryOptions(id: number) {
  return apiQuery([...SUPER_TERMS_KEY, 'version', id] as const, (signal) => getTermsVersion(id, signal));
}

/** One version's content; nothing is fetched while `id` is null. */
export function useTermsVersion(id: number | null) {
  return useQuery({ ...termsVersionQueryOptions(id ?? 0), enabled: id !== null });
}
