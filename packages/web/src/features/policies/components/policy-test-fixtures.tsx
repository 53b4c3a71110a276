import type { Department } from '@portal/shared';
import type { ReactNode } from 'react';
import { useCurrentProject } from '../../../lib/project/project-context';
import { signedInCheck } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';

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

export function dialog(): HTMLElement {
  const element = document.querySelector<HTMLElement>('[role="dialog"]');
  if (!element) throw new Error('no dialog');
  return element;
}

/** The titles of the toasts shown. */
export function toasts(): string[] {
  return [...document.querySelectorAll('[data-sonner-toast] [data-title]')].map((element) => element.textContent ?? '');
}

/** The field whose label (visible, a trailing required-asterisk ignored, or aria-label) reads `label`. */
export function input(label: string, root: ParentNode = document.body): HTMLInputElement {
  const match = [...root.querySelectorAll<HTMLInputElement>('input, textarea')].find(
    (element) =>
      element.getAttribute('aria-label') === label ||
      [...(element.labels ?? [])].some((item) => item.textContent?.replace(/\s*\*\s*$/, '').trim() === label),
  );
  if (!match) throw new Error(`no field ${label}`);
  return match;
}

/** The error text Mantine shows under the field labelled `label`. */
export function fieldError(label: string): string | null {
  const field = input(label);
  const ids = (field.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
  const error = ids
    .map((id) => document.getElementById(id))
    .find((element) => element?.className.includes('error') || element?.id.endsWith('-error'));
  return error?.textContent ?? null;
}
