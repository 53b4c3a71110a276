import type { Member, UserRequest } from '@portal/shared';
import { act } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { expect } from 'vitest';
import { signedInCheck } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { render, waitFor } from '../../../test/render';
import { AdminDashboardPage } from './AdminDashboardPage';
import { EditUserPage } from './EditUserPage';
import { NewUserRequestPage } from './NewUserRequestPage';
import { ProjectDetailsEditPage } from './ProjectDetailsEditPage';

export { dialog, errorOf as fieldError, pick, toasts } from '../../../test/ui';

/** Fixtures and helpers of the Admin app's screen tests. */
export const API = '/api/projects/12/admin';

export const PROJECT = {
  id: 12,
  name: 'North Clinic',
  slug: 'north',
  active_apps: ['admin', 'monitoring'],
  facility_name: 'North Clinic Inc.',
  is_active: true,
  project_role: 'admin',
};

/** The session and the project the layout's header reads. */
export function sessionRoutes() {
  return {
    'GET /api/auth/check': jsonResponse(signedInCheck()),
    'GET /api/projects/12': () => jsonResponse(PROJECT),
  };
}

export const ANA: Member = {
  user_id: 40,
  username: 'ana.ruiz',
  email: 'ana@example.org',
  first_name: 'Ana',
  last_name: 'Ruiz',
  status: 'active',
  project_role: 'admin',
  main_roles: { monitoring: 'monitoring_admin', policy_management: null, chart_review: 'reviewer' },
  last_login_at: '2026-03-04T18:00:00Z',
  two_factor_enabled: true,
  joined_at: '2025-01-10T09:00:00Z',
};

export const SAM: Member = {
  user_id: 41,
  username: 'sam.lee',
  email: 'sam@example.org',
  first_name: 'Sam',
  last_name: 'Lee',
  status: 'invited',
  project_role: 'simple',
  main_roles: { monitoring: null, policy_management: null, chart_review: null },
  last_login_at: null,
  two_factor_enabled: false,
  joined_at: '2026-02-01T09:00:00Z',
};

export function userRequest(overrides: Partial<UserRequest> = {}): UserRequest {
  return {
    id: 5,
    project: { id: 12, name: 'North Clinic' },
    first_name: 'Kim',
    last_name: 'Park',
    email: 'kim@example.org',
    project_role: 'simple',
    main_roles: { monitoring: 'viewer', policy_management: null, chart_review: null },
    justification: 'New nurse on ward 3.',
    status: 'pending',
    requested_by: { id: 7, name: 'Ana Ruiz' },
    decided_by: null,
    decided_at: null,
    rejection_reason: null,
    user_id: null,
    created_at: '2026-03-01T10:00:00Z',
    ...overrides,
  };
}

/** The Admin app's routes, with a marker page for the contact messages. */
export async function openAdmin(path: string) {
  const router = createMemoryRouter(
    [
      { path: '/app/admin/:projectId/admin-dashboard', element: <AdminDashboardPage /> },
      { path: '/app/admin/:projectId/edit-user/:userId', element: <EditUserPage /> },
      { path: '/app/admin/:projectId/new-user-request', element: <NewUserRequestPage /> },
      { path: '/app/admin/:projectId/project-details-edit', element: <ProjectDetailsEditPage /> },
    ],
    { initialEntries: [path] },
  );
  await render(<RouterProvider router={router} />);
  await waitFor(() => expect(document.querySelector('h1')).not.toBeNull());
  return router;
}

/** Picks `file` in the (hidden) file input, as the browser's file dialog does. */
export async function chooseFile(file: File) {
  const input = document.querySelector<HTMLInputElement>('input[type="file"]');
  if (!input) throw new Error('no file input');
  Object.defineProperty(input, 'files', { value: [file], configurable: true });
  await act(async () => {
    input.dispatchEvent(new Event('change', { bubbles: true }));
  });
}
