import {
  type DepartmentPerson,
  departmentReaderDataSchema,
  departmentReaderEditListsSchema,
  readerEditDataSchema,
} from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';
import { apiQuery } from '../../../lib/api-hooks';
import { departmentPath, departmentPeopleKey, useDepartmentList } from './get-department-assignments';
import { policyPath } from './keys';

export type DepartmentReaders = z.infer<typeof departmentReaderDataSchema>['departments'][number];
export type ReaderEditData = z.infer<typeof readerEditDataSchema>;

/** GET .../department-reader-data (section department-readers): readers and attestation of each department. */
export function useDepartmentReaders(projectId: string) {
  return useDepartmentList(projectId, 'department-reader-data', 'readers', departmentReaderDataSchema);
}

/** GET .../department-reader-edit-lists: everyone who may read (every policy user with a main role). */
export async function getReaderCandidates(projectId: string, signal?: AbortSignal): Promise<DepartmentPerson[]> {
  const { readers } = await apiFetch(`${policyPath(projectId)}/department-reader-edit-lists`, {
    signal,
    schema: departmentReaderEditListsSchema,
  });
  return readers;
}

export function readerCandidatesQueryOptions(projectId: string) {
  return apiQuery([...departmentPeopleKey(projectId), 'reader-candidates'], (signal) =>
    getReaderCandidates(projectId, signal),
  );
}

export function useReaderCandidates(projectId: string) {
  return useQuery(readerCandidatesQueryOptions(projectId));
}

/** GET .../departments/{departmentId}/reader-edit-data: its readers and who may read; 404 unknown. */
export function getReaderEditData(
  projectId: string,
  departmentId: number,
  signal?: AbortSignal,
): Promise<ReaderEditData> {
  return apiFetch(`${departmentPath(projectId, departmentId)}/reader-edit-data`, {
    signal,
    schema: readerEditDataSchema,
  });
}
