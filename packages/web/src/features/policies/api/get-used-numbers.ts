import { usedNumbersSchema } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { apiQuery } from '../../../lib/api-hooks';
import { policyKey, policyPath } from './keys';

export function usedNumbersKey(projectId: string) {
  return [...policyKey(projectId), 'used-numbers'] as const;
}

/** GET .../policy-management/documents/used-numbers: every number a document holds (archived ones included). */
export async function getUsedNumbers(projectId: string, signal?: AbortSignal): Promise<string[]> {
  const { numbers } = await apiFetch(`${policyPath(projectId)}/documents/used-numbers`, {
    signal,
    schema: usedNumbersSchema,
  });
  return numbers;
}

export function usedNumbersQueryOptions(projectId: string) {
  return apiQuery(usedNumbersKey(projectId), (signal) => getUsedNumbers(projectId, signal));
}

export function useUsedNumbers(projectId: string) {
  return useQuery(usedNumbersQueryOptions(projectId));
}
