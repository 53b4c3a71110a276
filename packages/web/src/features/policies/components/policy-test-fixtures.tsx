import type { Department } from '@portal/shared';
import type { ReactNode } from 'react';
import { useCurrentProject } from '../../../lib/project/project-context';
import { signedInCheck } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';

export { dialog, errorOf as fieldError, field as input, toasts } from '../../../test/ui';

/** What every policy screen test shares: the project, its session routes and a few DOM lookups. */
export const API = '/api/projects/12/policy-management';
export const BASE = '/app/policy_management/12';

export const PROJECT = {
  id: 12,
  name: 'North Clinic',
  slug: 'north',
  active_apps: ['policy_management'],
  facility_name: 'North Clinic Inc.',
  is_active: true,
  project_role: 'admin',
};

/** The session and the project the policy routes need. */
export function sessionRoutes() {
  return {
    'GET /api/auth/check': jsonResponse(signedInCheck()),
    'GET /api/projects/12': () => jsonResponse(PROJECT),
  };
}

export function department(overrides: Partial<Department> & Pick<Department, 'id' | 'name' | 'code'>): Department {
  return { parent_id: null, document_count: 0, ...overrides };
}

/** Renders the screen once the route's project is known, as SectionGuard does in the app. */
export function ProjectReady({ children }: { children: ReactNode }) {
  const { projectId } = useCurrentProject();
  return projectId ? children : null;
}
