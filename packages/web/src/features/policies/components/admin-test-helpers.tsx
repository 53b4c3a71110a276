import type { Department, DocumentRow, PolicyPerson } from '@portal/shared';
import { act, type ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, useParams } from 'react-router';
import { expect } from 'vitest';
import { useCurrentProject } from '../../../lib/project/project-context';
import { signedInCheck } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, render, waitFor } from '../../../test/render';
import { ConvertPage } from './ConvertPage';
import { DepartmentsPage } from './DepartmentsPage';
import { DndPage } from './DndPage';
import { NumberingPage } from './NumberingPage';
import { QuickReferenceGuidePage } from './QuickReferenceGuidePage';

/** Fixtures and helpers of the policy administration screen tests. */
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

export function row(overrides: Partial<DocumentRow> & Pick<DocumentRow, 'id' | 'title'>): DocumentRow {
  return {
    number: null,
    status: 'draft',
    department_id: null,
    has_draft: true,
    next_review_on: null,
    updated_at: '2026-03-01T10:00:00Z',
    ...overrides,
  };
}

/** As SectionGuard does: the screens render once the project is known. */
function ProjectReady({ children }: { children: ReactNode }) {
  const { projectId } = useCurrentProject();
  return projectId ? children : null;
}

function DocumentMarker() {
  const { documentId } = useParams();
  return <h1>Document {documentId}</h1>;
}

/** The policy administration routes, with a marker page for a document. */
export async function openPolicyAdmin(path: string) {
  const screen = (element: ReactNode) => <ProjectReady>{element}</ProjectReady>;
  const router = createMemoryRouter(
    [
      { path: '/app/policy_management/:projectId/numbering', element: screen(<NumberingPage />) },
      { path: '/app/policy_management/:projectId/convert', element: screen(<ConvertPage />) },
      { path: '/app/policy_management/:projectId/dnd', element: screen(<DndPage />) },
      { path: '/app/policy_management/:projectId/insert-department', element: screen(<DepartmentsPage />) },
      { path: '/app/policy_management/:projectId/edit-department', element: screen(<DepartmentsPage />) },
      {
        path: '/app/policy_management/:projectId/edit-department/:departmentId',
        element: screen(<DepartmentsPage />),
      },
      {
        path: '/app/policy_management/:projectId/quick-reference-guide',
        element: screen(<QuickReferenceGuidePage />),
      },
      { path: '/app/policy_management/:projectId/documents/:documentId', element: <DocumentMarker /> },
    ],
    { initialEntries: [path] },
  );
  await render(<RouterProvider router={router} />);
  await waitFor(() => expect(document.querySelector('h1')).not.toBeNull());
  return router;
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

/** The field whose label (visible or aria-label) reads `label`. */
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

/** Opens a Mantine Select by its label and clicks the option named `option`. */
export async function pick(label: string, option: string, root: ParentNode = document.body) {
  const select = input(label, root);
  await click(select);
  let choice: HTMLElement | undefined;
  await waitFor(() => {
    const listbox = document.getElementById(select.getAttribute('aria-controls') ?? '');
    choice = [...(listbox?.querySelectorAll<HTMLElement>('[role="option"]') ?? [])].find(
      (element) => element.textContent?.trim() === option,
    );
    expect(choice).toBeDefined();
  });
  await click(choice!);
}

/** Picks `file` in the (hidden) file input, as the browser's file dialog does. */
export async function chooseFile(file: File) {
  const element = document.querySelector<HTMLInputElement>('input[type="file"]');
  if (!element) throw new Error('no file input');
  Object.defineProperty(element, 'files', { value: [file], configurable: true });
  await act(async () => {
    element.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

/** A project member as the policy people screens list them. */
export function policyPerson(overrides: Partial<PolicyPerson> & Pick<PolicyPerson, 'id' | 'name'>): PolicyPerson {
  const username = overrides.username ?? overrides.name.toLowerCase().replace(/[^a-z]+/g, '.');
  return {
    username,
    email: `${username}@north.example`,
    project_role: 'simple',
    main_role: null,
    policy_user: true,
    ...overrides,
  };
}

/** Renders `element` (behind the project check, as SectionGuard does) at each of `paths`, opened at `path`. */
export async function openPolicyScreen(path: string, paths: string[], element: ReactNode) {
  const router = createMemoryRouter(
    paths.map((route) => ({
      path: `/app/policy_management/:projectId/${route}`,
      element: <ProjectReady>{element}</ProjectReady>,
    })),
    { initialEntries: [path] },
  );
  await render(<RouterProvider router={router} />);
  await waitFor(() => expect(document.querySelector('h1')).not.toBeNull());
  return router;
}
