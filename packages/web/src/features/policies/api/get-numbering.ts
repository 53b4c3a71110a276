import { numberingSchema } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';
import { apiQuery } from '../../../lib/api-hooks';
import { policyKey, policyPath } from './keys';

export type Numbering = z.infer<typeof numberingSchema>;
export type Scheme = Numbering['scheme'];

export function numberingKey(projectId: string) {
  return [...policyKey(projectId), 'numbering'] as const;
}

/** GET .../policy-management/numbering: the numbering scheme and how many numbers are used or missing. */
export function getNumbering(projectId: string, signal?: AbortSignal): Promise<Numbering> {
  return apiFetch(`${policyPath(projectId)}/numbering`, { signal, schema: numberingSchema });
}

export function numberingQueryOptions(projectId: string) {
  return apiQuery(numberingKey(projectId), (signal) => getNumbering(projectId, signal));
}

export function useNumbering(projectId: string) {
  return useQuery(numberingQueryOptions(projectId));
}
