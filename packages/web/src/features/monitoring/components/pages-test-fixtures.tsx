import type { PageDetail, PageNode } from '@portal/shared';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { expect } from 'vitest';
import { useCurrentProject } from '../../../lib/project/project-context';
import { signedInCheck } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { render, waitFor } from '../../../test/render';

export { dialog, toasts } from '../../../test/ui';

/** What the monitoring page screen tests share: the project, its session routes, page factories and lookups. */
export const API = '/api/projects/12/monitoring';
export const BASE = '/app/monitoring/12';

export const PROJECT = {
  id: 12,
  name: 'North Clinic',
  slug: 'north',
  active_apps: ['monitoring'],
  facility_name: 'North Clinic Inc.',
  is_active: true,
  project_role: 'admin',
};

/** The session, the project and the permission map (every section allowed unless `denied`). */
export function sessionRoutes(denied: string[] = []) {
  const sections = ['introduction', 'pages', 'create-page', 'edit-page', 'page-levels', 'page-permissions'];
  return {
    'GET /api/auth/check': jsonResponse(signedInCheck()),
    'GET /api/projects/12': () => jsonResponse(PROJECT),
    'GET /api/me/permissions': () =>
      jsonResponse({
        permissions: Object.fromEntries(sections.map((s) => [`monitoring:${s}`, !denied.includes(s)])),
      }),
  };
}

const ALL = { level: 'manage', edit: true, delete: true, manage_permissions: true, add_insight: true } as const;

export function node(overrides: Partial<PageNode> & Pick<PageNode, 'id' | 'title'>): PageNode {
  return {
    parent_id: null,
    position: 0,
    depth: 1,
    number: null,
    status: 'published',
    restricted: false,
    owner: null,
    level: { id: 1, name: 'Domain', icon: 'folder' },
    version: 1,
    child_count: 0,
    abilities: ALL,
    ...overrides,
  };
}

export function detail(overrides: Partial<PageDetail> & Pick<PageDetail, 'id' | 'title'>): PageDetail {
  return {
    ...node(overrides),
    introduction: '',
    benchmarks: '',
    parameters_and_metrics: '',
    ancestors: [],
    children: [],
    created_at: '2026-03-01T10:00:00Z',
    updated_at: '2026-03-02T10:00:00Z',
    updated_by: null,
    ...overrides,
  };
}

function ProjectReady({ children }: { children: ReactNode }) {
  const { projectId } = useCurrentProject();
  return projectId ? children : null;
}

function Where() {
  const location = useLocation();
  return (
    <h1>
      At {location.pathname}
      {location.search}
    </h1>
  );
}

/** Renders `element` at the monitoring routes `paths` (relative to the project), and a marker page elsewhere. */
export async function openMonitoringScreen(path: string, paths: string[], element: ReactNode) {
  const router = createMemoryRouter(
    [
      ...paths.map((route) => ({
        path: `/app/monitoring/:projectId/${route}`,
        element: <ProjectReady>{element}</ProjectReady>,
      })),
      { path: '*', element: <Where /> },
    ],
    { initialEntries: [path] },
  );
  await render(<RouterProvider router={router} />);
  await waitFor(() => expect(document.querySelector('h1')).not.toBeNull());
  return router;
}
