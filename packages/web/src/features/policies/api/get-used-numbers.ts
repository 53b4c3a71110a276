import { usedNumbersSchema } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';
import { apiQuery } from '../../../lib/api-hooks';
import { policyKey, policyPath } from './keys';

export function usedNumbersKey(projectId: string) {
  return [...policyKey(projectId), 'used-numbers'] as const;
}

export type NumbersInUse = z.infer<typeof usedNumbersSchema>;

/**
 * GET .../policy-management/documents/used-numbers: every number a document holds (archived ones included), and the
 * chapter each department's policies are numbered in.
 */
export function getUsedNumbers(projectId: string, signal?: AbortSignal): Promise<NumbersInUse> {
  return apiFetch(`${policyPath(projectId)}/documents/used-numbers`, { signal, schema: usedNumbersSchema });
}

/** The chapter a department's policies are numbered in, or null while none of them has a number. */
export function chapterOf(inUse: NumbersInUse, departmentId: number): string | null {
  return inUse.chapters.find((row) => row.department_id === departmentId)?.chapter ?? null;
}

export function usedNumbersQueryOptions(projectId: string) {
  return apiQuery(usedNumbersKey(projectId), (signal) => getUsedNumbers(projectId, signal));
}

export function useUsedNumbers(projectId: string) {
  return useQuery(usedNumbersQueryOptions(projectId));
}
