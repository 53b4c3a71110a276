import type { DocumentRow } from '@portal/shared';
import { act, type ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { expect } from 'vitest';
import { render, waitFor } from '../../../test/render';
import { ConvertPage } from './ConvertPage';
import { DepartmentsPage } from './DepartmentsPage';
import { DndPage } from './DndPage';
import { NumberingPage } from './NumberingPage';
import { DocumentMarker, doc, ProjectReady } from './policy-test-fixtures';
import { QuickReferenceGuidePage } from './QuickReferenceGuidePage';

export {
  API,
  BASE,
  bareDetail,
  department,
  dialog,
  fieldError,
  input,
  PROJECT,
  pick,
  sessionRoutes,
  toasts,
} from './policy-test-fixtures';

/** A policy's row in a list, with a draft being written. */
export function row(overrides: Partial<DocumentRow> & Pick<DocumentRow, 'id' | 'title'>): DocumentRow {
  return doc({ status: 'draft', has_draft: true, working_state: 'draft', ...overrides });
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

/** Picks `file` in the (hidden) file input, as the browser's file dialog does. */
export async function chooseFile(file: File) {
  const element = document.querySelector<HTMLInputElement>('input[type="file"]');
  if (!element) throw new Error('no file input');
  Object.defineProperty(element, 'files', { value: [file], configurable: true });
  await act(async () => {
    element.dispatchEvent(new Event('change', { bubbles: true }));
  });
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
