import {
  type CrTool,
  type CrToolUpdate,
  type CrToolVersion,
  type CrToolVersionSummary,
  crToolSchema,
  crToolVersionSchema,
} from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { apiQuery, useApiMutation, useInvalidatingMutation } from '../../../lib/api-hooks';
import { chartReviewKey, chartReviewPath, invalidateChartReview } from './keys';
import { toolsKey } from './tools-list';

export type { CrTool, CrToolUpdate, CrToolVersionSummary };

export function toolKey(projectId: string, toolId: number) {
  return [...toolsKey(projectId), toolId] as const;
}

/** GET .../tools/{id}: the tool with its versions, newest first. */
export function getTool(projectId: string, toolId: number, signal?: AbortSignal): Promise<CrTool> {
  return apiFetch(`${chartReviewPath(projectId)}/tools/${toolId}`, { signal, schema: crToolSchema });
}

export function toolQueryOptions(projectId: string, toolId: number) {
  return apiQuery(toolKey(projectId, toolId), (signal) => getTool(projectId, toolId, signal));
}

export function useTool(projectId: string, toolId: number | null) {
  return useQuery({ ...toolQueryOptions(projectId, toolId ?? 0), enabled: toolId !== null });
}

/** PUT .../tools/{id}: name, purpose, and retired (true retires it, false brings it back) -> the tool. */
export function updateTool(projectId: string, toolId: number, body: CrToolUpdate): Promise<CrTool> {
  return apiFetch(`${chartReviewPath(projectId)}/tools/${toolId}`, { method: 'PUT', body, schema: crToolSchema });
}

export function useUpdateTool(projectId: string, toolId: number) {
  return useApiMutation(
    (body: CrToolUpdate) => updateTool(projectId, toolId, body),
    (queryClient, tool) => {
      queryClient.setQueryData(toolKey(projectId, toolId), tool);
      return invalidateChartReview(queryClient, projectId);
    },
  );
}

/** POST .../tools/{id}/versions: a new draft holding the latest version's questions (409 when a draft exists). */
export function startVersion(projectId: string, toolId: number): Promise<CrToolVersion> {
  return apiFetch(`${chartReviewPath(projectId)}/tools/${toolId}/versions`, {
    method: 'POST',
    schema: crToolVersionSchema,
  });
}

export function useStartVersion(projectId: string, toolId: number) {
  return useInvalidatingMutation(() => startVersion(projectId, toolId), [chartReviewKey(projectId)]);
}
