import { type NumberingUpdate, numberingSchema } from '@portal/shared';
import { apiFetch } from '../../../lib/api';
import { useApiMutation } from '../../../lib/api-hooks';
import { type Numbering, numberingKey } from './get-numbering';
import { invalidatePolicies, policyPath } from './keys';

export type { NumberingUpdate };

/**
 * POST .../policy-management/numbering {scheme?, assignments?}: changes the scheme and/or gives numbers to
 * documents (a null number takes it away). 400 errors for assignments are keyed `assignments.{index}`.
 */
export function updateNumbering(projectId: string, update: NumberingUpdate): Promise<Numbering> {
  return apiFetch(`${policyPath(projectId)}/numbering`, { method: 'POST', body: update, schema: numberingSchema });
}

export function useUpdateNumbering(projectId: string) {
  return useApiMutation(
    (update: NumberingUpdate) => updateNumbering(projectId, update),
    (queryClient, numbering) => {
      queryClient.setQueryData(numberingKey(projectId), numbering);
      return invalidatePolicies(queryClient, projectId);
    },
  );
}
