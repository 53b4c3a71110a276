import { twoFactorStatusSchema } from '@portal/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';

export const TWO_FACTOR_PATH = '/api/two-factor';
export const TWO_FACTOR_STATUS_KEY = ['two-factor', 'status'] as const;
export type TwoFactorStatus = z.infer<typeof twoFactorStatusSchema>;

export function getTwoFactorStatus(signal?: AbortSignal): Promise<TwoFactorStatus> {
  return apiFetch(TWO_FACTOR_PATH, { signal, schema: twoFactorStatusSchema });
}

export function twoFactorStatusQueryOptions() {
  return queryOptions({ queryKey: TWO_FACTOR_STATUS_KEY, queryFn: ({ signal }) => getTwoFactorStatus(signal) });
}

export function useTwoFactorStatus() {
  return useQuery(twoFactorStatusQueryOptions());
}
