import {
  type DepartmentPerson,
  type DepartmentRoles,
  departmentAssignmentDataSchema,
  departmentEditListsSchema,
  departmentRolesSchema,
  editAssignmentDataSchema,
} from '@portal/shared';
import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';
import { apiQuery } from '../../../lib/api-hooks';
import { invalidatePolicies, policyKey, policyPath } from './keys';

export type { DepartmentPerson, DepartmentRoles };
export type DepartmentCandidates = z.infer<typeof departmentEditListsSchema>;
export type EditAssignmentData = z.infer<typeof editAssignmentDataSchema>;

/** Every query of the department screens (reviewers, signers, readers, health, attestation reports). */
export function departmentPeopleKey(projectId: string) {
  return [...policyKey(projectId), 'department-people'] as const;
}

/** Where one department's calls live: .../policy-management/departments/{departmentId}. */
export function departmentPath(projectId: string, departmentId: number | string): string {
  return `${policyPath(projectId)}/departments/${departmentId}`;
}

/** A change to one department's people at .../departments/{departmentId}/{action} -> the department with its people. */
export function sendDepartmentPeople(
  projectId: string,
  departmentId: number,
  method: 'POST' | 'DELETE',
  action: string,
  body?: unknown,
): Promise<DepartmentRoles> {
  return apiFetch(`${departmentPath(projectId, departmentId)}/${action}`, {
    method,
    body,
    schema: departmentRolesSchema,
  });
}

/**
 * One department screen's list: GET .../policy-management/{path}, answering `{ departments }`. It is cached under the
 * department-people key (as `name`), so any change of a department's people refreshes it.
 */
export function useDepartmentList<T>(
  projectId: string,
  path: string,
  name: string,
  schema: z.ZodType<{ departments: T[] }>,
) {
  return useQuery(
    queryOptions({
      queryKey: [...departmentPeopleKey(projectId), name],
      queryFn: async ({ signal }) => {
        const { departments } = await apiFetch(`${policyPath(projectId)}/${path}`, { signal, schema });
        return departments;
      },
    }),
  );
}

/**
 * After a change of a department's people: every department screen, and the rest of the project's policy queries
 * (open review rounds follow the reviewers and signers; tasks, dashboard and workflows change with them).
 */
export function invalidateDepartmentPeople(queryClient: QueryClient, projectId: string): Promise<void> {
  return invalidatePolicies(queryClient, projectId);
}

/** GET .../department-assignment-data (section department-signers): every department with all its people. */
export function useDepartmentAssignments(projectId: string) {
  return useDepartmentList(projectId, 'department-assignment-data', 'assignments', departmentAssignmentDataSchema);
}

/** GET .../department-edit-lists: who may hold each department role. */
export function getDepartmentEditLists(projectId: string, signal?: AbortSignal): Promise<DepartmentCandidates> {
  return apiFetch(`${policyPath(projectId)}/department-edit-lists`, { signal, schema: departmentEditListsSchema });
}

export function departmentEditListsQueryOptions(projectId: string) {
  return apiQuery([...departmentPeopleKey(projectId), 'edit-lists'], (signal) =>
    getDepartmentEditLists(projectId, signal),
  );
}

export function useDepartmentEditLists(projectId: string) {
  return useQuery(departmentEditListsQueryOptions(projectId));
}

/** GET .../departments/{departmentId}/edit-assignment-data: the department's people and the candidates; 404 unknown. */
export function getEditAssignmentData(
  projectId: string,
  departmentId: number,
  signal?: AbortSignal,
): Promise<EditAssignmentData> {
  return apiFetch(`${departmentPath(projectId, departmentId)}/edit-assignment-data`, {
    signal,
    schema: editAssignmentDataSchema,
  });
}
