import type { StdElementHit, StdLink } from '@portal/shared';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { signedInCheck } from '../../test/api-stub';
import { jsonResponse } from '../../test/fetch';
import { render } from '../../test/render';

/** What the standards screen tests (manage and assign users, my standards, add-standards) share. */
export const STD_API = '/api/projects/12/standards';

export const PROJECT = {
  id: 12,
  name: 'North Clinic',
  slug: 'north',
  active_apps: ['standards', 'policy_management', 'monitoring'],
  facility_name: 'North Clinic Inc.',
  is_active: true,
  project_role: 'admin',
};

export function sessionRoutes() {
  return {
    'GET /api/auth/check': jsonResponse(signedInCheck()),
    'GET /api/projects/12': () => jsonResponse(PROJECT),
  };
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

/** Renders `element` at `route` (a pattern such as /app/standards/:projectId/manage-users), a marker page elsewhere. */
export async function openAt(path: string, route: string | string[], element: ReactNode) {
  const routes = (Array.isArray(route) ? route : [route]).map((pattern) => ({ path: pattern, element }));
  const router = createMemoryRouter([...routes, { path: '*', element: <Where /> }], { initialEntries: [path] });
  await render(<RouterProvider router={router} />);
  return router;
}

export function link(overrides: Partial<StdLink> & Pick<StdLink, 'id' | 'node_id' | 'ref_id'>): StdLink {
  return {
    title: 'Element title',
    framework: 'CMS CoP 2025',
    target_type: 'policy',
    target_id: 5,
    note: '',
    created_at: '2026-03-02T10:00:00Z',
    created_by: 'Ada Admin',
    ...overrides,
  };
}

export function hit(overrides: Partial<StdElementHit> & Pick<StdElementHit, 'node_id' | 'ref_id'>): StdElementHit {
  return {
    title: 'Element title',
    wording: '',
    framework: 'CMS CoP 2025',
    path: '§482.23 Nursing services',
    ...overrides,
  };
}

export { dialog, field, labelled, optionsOf, pick, rows, seriousViolations, toasts } from '../../test/ui';
