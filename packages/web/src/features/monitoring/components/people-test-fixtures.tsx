import type { MonitoringPerson } from '@portal/shared';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { expect } from 'vitest';
import { useCurrentProject } from '../../../lib/project/project-context';
import { signedInCheck } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { render, waitFor } from '../../../test/render';

export {
  dialog,
  errorOf as fieldError,
  field as input,
  pick,
  seriousViolations as violations,
  toasts,
} from '../../../test/ui';

/** What the monitoring people and permission screen tests share: the project, session routes, people, lookups. */
export const API = '/api/projects/12/monitoring';
export const BASE = '/app/monitoring/12';

const PROJECT = {
  id: 12,
  name: 'North Clinic',
  slug: 'north',
  active_apps: ['monitoring'],
  facility_name: 'North Clinic Inc.',
  is_active: true,
  project_role: 'admin',
};

/** The session, the project and the permission map (`allowed` sections only). */
export function sessionRoutes(allowed: string[] = []) {
  return {
    'GET /api/auth/check': jsonResponse(signedInCheck()),
    'GET /api/projects/12': () => jsonResponse(PROJECT),
    'GET /api/me/permissions': () =>
      jsonResponse({ permissions: Object.fromEntries(allowed.map((s) => [`monitoring:${s}`, true])) }),
  };
}

/** A project member as the monitoring people screens list them. */
export function person(overrides: Partial<MonitoringPerson> & Pick<MonitoringPerson, 'id' | 'name'>): MonitoringPerson {
  const username = overrides.username ?? overrides.name.toLowerCase().replace(/[^a-z]+/g, '.');
  return {
    username,
    email: `${username}@north.example`,
    project_role: 'simple',
    main_role: null,
    monitoring_user: true,
    ...overrides,
  };
}

function ProjectReady({ children }: { children: ReactNode }) {
  const { projectId } = useCurrentProject();
  return projectId ? children : null;
}

/** Renders `element` (behind the project check, as SectionGuard does) at each of `paths`, opened at `path`. */
export async function openScreen(path: string, paths: string[], element: ReactNode) {
  const router = createMemoryRouter(
    paths.map((route) => ({
      path: `/app/monitoring/:projectId/${route}`,
      element: <ProjectReady>{element}</ProjectReady>,
    })),
    { initialEntries: [path] },
  );
  await render(<RouterProvider router={router} />);
  await waitFor(() => expect(document.querySelector('h1')).not.toBeNull());
  return router;
}
