import {
  type CrTool,
  type CrToolInput,
  type CrToolList,
  type CrToolSummary,
  crToolListSchema,
  crToolSchema,
} from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { apiQuery, useInvalidatingMutation } from '../../../lib/api-hooks';
import { chartReviewKey, chartReviewPath } from './keys';

export type { CrToolInput, CrToolList, CrToolSummary };

export function toolsKey(projectId: string) {
  return [...chartReviewKey(projectId), 'tools'] as const;
}

/** GET .../tools: every audit tool (retired ones flagged) and whether I may create one. */
export function getTools(projectId: string, signal?: AbortSignal): Promise<CrToolList> {
  return apiFetch(`${chartReviewPath(projectId)}/tools`, { signal, schema: crToolListSchema });
}

export function toolsQueryOptions(projectId: string) {
  return apiQuery(toolsKey(projectId), (signal) => getTools(projectId, signal));
}

export function useTools(projectId: string, enabled = true) {
  return useQuery({ ...toolsQueryOptions(projectId), enabled });
}

/** POST .../tools: a new tool with an empty draft version 1 -> the tool (201; 409 for a name in use). */
export function createTool(projectId: string, body: CrToolInput): Promise<CrTool> {
  return apiFetch(`${chartReviewPath(projectId)}/tools`, { method: 'POST', body, schema: crToolSchema });
}

export function useCreateTool(projectId: string) {
  return useInvalidatingMutation((body: CrToolInput) => createTool(projectId, body), [chartReviewKey(projectId)]);
}
