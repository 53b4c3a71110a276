import { departmentAttestationsSchema } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';
import { apiQuery } from '../../../lib/api-hooks';
import { departmentPath, departmentPeopleKey } from './get-department-assignments';

export type DepartmentAttestations = z.infer<typeof departmentAttestationsSchema>;

/** Where the same report downloads as CSV (a plain link: the browser sends the session cookie). */
export function departmentAttestationsCsvUrl(projectId: string, departmentId: number | string): string {
  return `${departmentPath(projectId, departmentId)}/attestations.csv`;
}

/**
 * GET .../departments/{departmentId}/attestations (section attestation-reports): how far the department's readers
 * have read each of its published policies; 404 for an unknown department.
 */
export function getDepartmentAttestations(
  projectId: string,
  departmentId: number,
  signal?: AbortSignal,
): Promise<DepartmentAttestations> {
  return apiFetch(`${departmentPath(projectId, departmentId)}/attestations`, {
    signal,
    schema: departmentAttestationsSchema,
  });
}

export function departmentAttestationsQueryOptions(projectId: string, departmentId: number) {
  return apiQuery([...departmentPeopleKey(projectId), 'attestations', departmentId], (signal) =>
    getDepartmentAttestations(projectId, departmentId, signal),
  );
}

export function useDepartmentAttestations(projectId: string, departmentId: number) {
  return useQuery(departmentAttestationsQueryOptions(projectId, departmentId));
}
