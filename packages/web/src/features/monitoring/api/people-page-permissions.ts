import {
  type PagePermissionRow,
  type PagePermissions,
  type PagePermissionsUpdate,
  pagePermissionRowSchema,
  pagePermissionsSchema,
} from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { apiQuery, useInvalidatingMutation } from '../../../lib/api-hooks';
import { peopleRootKey } from '../../../lib/people';
import { monitoringKey, monitoringPath } from './keys';

export type { PagePermissionRow, PagePermissions, PagePermissionsUpdate };

export function pagePermissionsKey(projectId: string) {
  return [...peopleRootKey('monitoring', projectId), 'page-permissions'] as const;
}

/**
 * GET .../page-permissions: the pages the user manages in tree order with their grants and effective (inherited)
 * grants, and the roles and monitoring users a grant may name.
 */
export function getPagePermissions(projectId: string, signal?: AbortSignal): Promise<PagePermissions> {
  return apiFetch(`${monitoringPath(projectId)}/page-permissions`, { signal, schema: pagePermissionsSchema });
}

export function usePagePermissions(projectId: string) {
  return useQuery(apiQuery(pagePermissionsKey(projectId), (signal) => getPagePermissions(projectId, signal)));
}

/**
 * PUT .../pages/{pageId}/permissions {restricted, grants: [{role_id | user_id, level}]} -> the page's row. A 400 names
 * `grants.{index}` (or `.role_id`, `.user_id`, `.level`).
 */
export function savePagePermissions(
  projectId: string,
  pageId: number,
  body: PagePermissionsUpdate,
): Promise<PagePermissionRow> {
  return apiFetch(`${monitoringPath(projectId)}/pages/${pageId}/permissions`, {
    method: 'PUT',
    body,
    schema: pagePermissionRowSchema,
  });
}

export function useSavePagePermissions(projectId: string) {
  // Restricting a page changes who sees it: the tree, the pages and their grants below are all stale.
  return useInvalidatingMutation(
    ({ pageId, body }: { pageId: number; body: PagePermissionsUpdate }) => savePagePermissions(projectId, pageId, body),
    [monitoringKey(projectId)],
  );
}
