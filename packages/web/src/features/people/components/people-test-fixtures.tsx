import type { AppPerson } from '@portal/shared';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { expect } from 'vitest';
import { PEOPLE_API, type PeopleList } from '../../../lib/people';
import { useCurrentProject } from '../../../lib/project/project-context';
import { signedInCheck } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { render, waitFor } from '../../../test/render';
import { MONITORING_SCREENS, type PeopleScreens, POLICY_SCREENS, screenRoute } from '../apps';

/** What the people screen tests share: both apps, their project, session routes, people and calls. */
export const APPS = [POLICY_SCREENS, MONITORING_SCREENS];

export const api = (d: PeopleScreens) => PEOPLE_API[d.app].path('12');
export const base = (d: PeopleScreens) => screenRoute(d, '12');
/** The stub key of a people list's call (`GET /api/projects/12/monitoring/users`). */
export const listCall = (d: PeopleScreens, list: PeopleList) => `GET ${api(d)}/${PEOPLE_API[d.app].lists[list]}`;

/** The session, the project (the app switched on) and the permission map (`allowed` sections of the app only). */
export function sessionRoutes(d: PeopleScreens, allowed: string[] = []) {
  return {
    'GET /api/auth/check': jsonResponse(signedInCheck()),
    'GET /api/projects/12': () =>
      jsonResponse({
        id: 12,
        name: 'North Clinic',
        slug: 'north',
        active_apps: [d.app],
        facility_name: 'North Clinic Inc.',
        is_active: true,
        project_role: 'admin',
      }),
    'GET /api/me/permissions': () =>
      jsonResponse({ permissions: Object.fromEntries(allowed.map((s) => [`${d.app}:${s}`, true])) }),
  };
}

/** A project member as the app's people screens list them (with the app's flag, as the server sends it). */
export function person(
  d: PeopleScreens,
  overrides: Partial<AppPerson> & Pick<AppPerson, 'id' | 'name'> & { takesPart?: boolean },
): AppPerson {
  const { takesPart = true, ...rest } = overrides;
  const username = rest.username ?? rest.name.toLowerCase().replace(/[^a-z]+/g, '.');
  const flag = d.app === 'monitoring' ? 'monitoring_user' : 'policy_user';
  return {
    username,
    email: `${username}@north.example`,
    project_role: 'simple',
    main_role: null,
    ...rest,
    [flag]: takesPart,
  } as AppPerson;
}

function ProjectReady({ children }: { children: ReactNode }) {
  const { projectId } = useCurrentProject();
  return projectId ? children : null;
}

/** Renders `element` (behind the project check, as SectionGuard does) at each of the app's `paths`, opened at `path`. */
export async function openScreen(d: PeopleScreens, path: string, paths: readonly string[], element: ReactNode) {
  const router = createMemoryRouter(
    paths.map((route) => ({ path: `${d.base}/:projectId/${route}`, element: <ProjectReady>{element}</ProjectReady> })),
    { initialEntries: [`${base(d)}/${path}`] },
  );
  await render(<RouterProvider router={router} />);
  await waitFor(() => expect(document.querySelector('h1')).not.toBeNull());
  return router;
}
