import {
  type PageLevel,
  type PageLevelBody,
  type PageLevelList,
  pageLevelDeletedSchema,
  pageLevelListSchema,
  pageLevelSchema,
} from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { apiQuery, useInvalidatingMutation } from '../../../lib/api-hooks';
import { monitoringKey, monitoringPath } from './keys';

export type { PageLevel, PageLevelBody, PageLevelList };

export function pageLevelsKey(projectId: string) {
  return [...monitoringKey(projectId), 'levels'] as const;
}

/** GET .../page-levels: the levels by depth, with how many pages each holds, and the most levels a tree may have. */
export function getPageLevels(projectId: string, signal?: AbortSignal): Promise<PageLevelList> {
  return apiFetch(`${monitoringPath(projectId)}/page-levels`, { signal, schema: pageLevelListSchema });
}

export function pageLevelsQueryOptions(projectId: string) {
  return apiQuery(pageLevelsKey(projectId), (signal) => getPageLevels(projectId, signal));
}

export function usePageLevels(projectId: string) {
  return useQuery(pageLevelsQueryOptions(projectId));
}

/** POST .../page-levels: adds the next (deepest) level -> the level (201). */
export function addPageLevel(projectId: string, body: PageLevelBody): Promise<PageLevel> {
  return apiFetch(`${monitoringPath(projectId)}/page-levels`, { method: 'POST', body, schema: pageLevelSchema });
}

/** PUT .../page-levels/{id}: name, icon and whether its pages may hold measures -> the level. */
export function updatePageLevel(projectId: string, levelId: number, body: PageLevelBody): Promise<PageLevel> {
  return apiFetch(`${monitoringPath(projectId)}/page-levels/${levelId}`, {
    method: 'PUT',
    body,
    schema: pageLevelSchema,
  });
}

/** DELETE .../page-levels/{id}: the deepest level only, and only while no page is that deep (409 otherwise). */
export async function deletePageLevel(projectId: string, levelId: number): Promise<void> {
  await apiFetch(`${monitoringPath(projectId)}/page-levels/${levelId}`, {
    method: 'DELETE',
    schema: pageLevelDeletedSchema,
  });
}

/** Levels name the pages of the tree: a change makes every monitoring query of the project stale. */
export function useSavePageLevel(projectId: string, levelId: number | null) {
  return useInvalidatingMutation(
    (body: PageLevelBody) =>
      levelId === null ? addPageLevel(projectId, body) : updatePageLevel(projectId, levelId, body),
    [monitoringKey(projectId)],
  );
}

export function useDeletePageLevel(projectId: string) {
  return useInvalidatingMutation((levelId: number) => deletePageLevel(projectId, levelId), [monitoringKey(projectId)]);
}
