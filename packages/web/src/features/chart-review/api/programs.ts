import {
  type CrProgram,
  type CrProgramInput,
  type CrProgramList,
  crProgramListSchema,
  crProgramSchema,
} from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { apiQuery, useInvalidatingMutation } from '../../../lib/api-hooks';
import { chartReviewKey, chartReviewPath } from './keys';

export type { CrProgram, CrProgramInput, CrProgramList };

export function programsKey(projectId: string) {
  return [...chartReviewKey(projectId), 'programs'] as const;
}

/** GET .../programs: every programme (recurring audit) and whether I may create one. */
export function getPrograms(projectId: string, signal?: AbortSignal): Promise<CrProgramList> {
  return apiFetch(`${chartReviewPath(projectId)}/programs`, { signal, schema: crProgramListSchema });
}

export function programsQueryOptions(projectId: string) {
  return apiQuery(programsKey(projectId), (signal) => getPrograms(projectId, signal));
}

export function usePrograms(projectId: string) {
  return useQuery(programsQueryOptions(projectId));
}

/** GET .../programs/{id}: one programme with its tool, version in use, owner and abilities. */
export function getProgram(projectId: string, programId: number, signal?: AbortSignal): Promise<CrProgram> {
  return apiFetch(`${chartReviewPath(projectId)}/programs/${programId}`, { signal, schema: crProgramSchema });
}

export function programQueryOptions(projectId: string, programId: number) {
  return apiQuery([...programsKey(projectId), programId] as const, (signal) =>
    getProgram(projectId, programId, signal),
  );
}

export function useProgram(projectId: string, programId: number | null) {
  return useQuery({ ...programQueryOptions(projectId, programId ?? 0), enabled: programId !== null });
}

/** POST .../programs (201) or PUT .../programs/{id}: the whole programme -> the programme as stored. */
export function saveProgram(projectId: string, programId: number | null, body: CrProgramInput): Promise<CrProgram> {
  const base = `${chartReviewPath(projectId)}/programs`;
  return programId === null
    ? apiFetch(base, { method: 'POST', body, schema: crProgramSchema })
    : apiFetch(`${base}/${programId}`, { method: 'PUT', body, schema: crProgramSchema });
}

export function useSaveProgram(projectId: string, programId: number | null) {
  return useInvalidatingMutation(
    (body: CrProgramInput) => saveProgram(projectId, programId, body),
    [chartReviewKey(projectId)],
  );
}
