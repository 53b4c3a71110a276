import { createMemoryRouter, Outlet, RouterProvider, useLocation } from 'react-router';
import { expect, vi } from 'vitest';
import { render, waitFor } from '../../../test/render';
import { ArchiveNavigatorPage } from './ArchiveNavigatorPage';
import { DocumentsStatusPage } from './DocumentsStatusPage';
import { NavigatorPage } from './NavigatorPage';
import { PolicyAppHeader } from './PolicyAppHeader';
import { DocumentMarker, ProjectReady } from './policy-test-fixtures';
import { SearchPage } from './SearchPage';
import { TocPage } from './TocPage';

export {
  API,
  BASE,
  bareDetail,
  department,
  dialog,
  doc,
  input,
  PROJECT,
  pick,
  sessionRoutes,
  toasts,
} from './policy-test-fixtures';

/** A response that never comes: the screen stays in its loading state. */
export function pending(): Promise<Response> {
  return new Promise(() => {});
}

/** Shows where the router is, for tests that follow links and URL changes. */
function Where() {
  const location = useLocation();
  return <output data-testid="where">{`${location.pathname}${location.search}`}</output>;
}

/** The current path and query string of the test router. */
export function where(): string {
  return document.querySelector('[data-testid="where"]')?.textContent ?? '';
}

/** The policy browsing routes under a layout with the app header (all sections allowed unless given). */
export async function openPolicy(path: string, sections?: string[]) {
  const p = (route: string) => `/app/policy_management/:projectId/${route}`;
  const router = createMemoryRouter(
    [
      {
        element: (
          <ProjectReady>
            <PolicyAppHeader
              sections={
                sections ?? ['toc', 'documents', 'navigator', 'archive-navigator', 'numbering', 'insert-department']
              }
            />
            <Where />
            <Outlet />
          </ProjectReady>
        ),
        children: [
          { path: p('toc'), element: <TocPage /> },
          { path: p('documents'), element: <DocumentsStatusPage /> },
          { path: p('documents/status/:status'), element: <DocumentsStatusPage /> },
          { path: p('documents/:documentId'), element: <DocumentMarker /> },
          { path: p('navigator'), element: <NavigatorPage /> },
          { path: p('archive-navigator'), element: <ArchiveNavigatorPage /> },
          { path: p('search'), element: <SearchPage /> },
          { path: p('numbering'), element: <h1>Numbering</h1> },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  await render(<RouterProvider router={router} />);
  await waitFor(() => expect(document.querySelector('h1')).not.toBeNull());
  return router;
}

/**
 * jsdom lays nothing out: give the tree's scroll box a height and each row a height, as a browser would, so the
 * virtualiser computes a real window of rows.
 */
export function stubLayout({ viewport = 400, row = 40 }: { viewport?: number; row?: number } = {}) {
  vi.spyOn(Element.prototype, 'clientHeight', 'get').mockImplementation(function (this: Element) {
    return this instanceof HTMLElement && this.dataset.testid === 'policy-tree-scroll' ? viewport : 0;
  });
  vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockImplementation(function (this: HTMLElement) {
    return this.dataset.index !== undefined ? row : 0;
  });
}

/** The rows of the policy tree now in the page: their numbers (or titles) in order. */
export function treeRows(): HTMLElement[] {
  return [...document.querySelectorAll<HTMLElement>('[data-testid="policy-tree-scroll"] li')];
}

export function rowNames(): string[] {
  return treeRows().map((row) => row.dataset.number ?? row.querySelector('a')?.textContent ?? row.textContent ?? '');
}
