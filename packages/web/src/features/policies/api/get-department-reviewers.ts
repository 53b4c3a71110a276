import {
  departmentReviewerDataSchema,
  departmentReviewerManagementSchema,
  reviewerEditDataSchema,
} from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';
import { apiQuery } from '../../../lib/api-hooks';
import { departmentPath, departmentPeopleKey, useDepartmentList } from './get-department-assignments';
import { policyPath } from './keys';

export type DepartmentReviewers = z.infer<typeof departmentReviewerDataSchema>['departments'][number];
export type ReviewerManagement = z.infer<typeof departmentReviewerManagementSchema>;
export type ReviewerEditData = z.infer<typeof reviewerEditDataSchema>;

/** GET .../department-reviewer-data (section department-reviewers): reviewers and open reviews of each department. */
export function useDepartmentReviewers(projectId: string) {
  return useDepartmentList(projectId, 'department-reviewer-data', 'reviewers', departmentReviewerDataSchema);
}

/** GET .../department-reviewer-management-data: each reviewer's departments and open reviews, and who reviews none. */
export function getReviewerManagement(projectId: string, signal?: AbortSignal): Promise<ReviewerManagement> {
  return apiFetch(`${policyPath(projectId)}/department-reviewer-management-data`, {
    signal,
    schema: departmentReviewerManagementSchema,
  });
}

export function reviewerManagementQueryOptions(projectId: string) {
  return apiQuery([...departmentPeopleKey(projectId), 'reviewer-management'], (signal) =>
    getReviewerManagement(projectId, signal),
  );
}

export function useReviewerManagement(projectId: string) {
  return useQuery(reviewerManagementQueryOptions(projectId));
}

/** GET .../departments/{departmentId}/reviewer-edit-data: its reviewers and who may review; 404 unknown. */
export function getReviewerEditData(
  projectId: string,
  departmentId: number,
  signal?: AbortSignal,
): Promise<ReviewerEditData> {
  return apiFetch(`${departmentPath(projectId, departmentId)}/reviewer-edit-data`, {
    signal,
    schema: reviewerEditDataSchema,
  });
}
