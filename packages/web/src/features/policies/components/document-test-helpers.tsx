import type { DocumentDetail, PolicyVersion, VersionSummary } from '@portal/shared';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { expect } from 'vitest';
import { render, waitFor } from '../../../test/render';
import { DocumentEditPage } from './DocumentEditPage';
import { DocumentPage } from './DocumentPage';
import { DocumentPrintPage } from './DocumentPrintPage';
import { API, ProjectReady } from './policy-test-fixtures';

export { API, BASE, dialog, fieldError, input, PROJECT, pick, sessionRoutes, toasts } from './policy-test-fixtures';

export const DOC_API = `${API}/documents/5`;

const ANA = { id: 9, name: 'Ana Ruiz' };

export function version(overrides: Partial<PolicyVersion> & Pick<PolicyVersion, 'id' | 'version'>): PolicyVersion {
  return {
    state: 'published',
    change_summary: '',
    effective_on: null,
    author: ANA,
    created_at: '2026-01-10T09:00:00Z',
    updated_at: '2026-01-10T09:00:00Z',
    source_file: null,
    content: '<p>Text</p>',
    revision: 1,
    ...overrides,
  };
}

export function summaryOf(full: PolicyVersion): VersionSummary {
  const { content: _content, revision: _revision, ...summary } = full;
  return summary;
}

/** Version 1, superseded, imported from a Word file. */
export const V1 = version({
  id: 101,
  version: 1,
  state: 'superseded',
  change_summary: 'First issue',
  effective_on: '2025-01-15',
  content: '<h2>Purpose</h2><p>Wash hands often.</p>',
  source_file: {
    id: 77,
    name: 'hand-hygiene.docx',
    content_type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  },
});

/** Version 2, the current (published) one. */
export const V2 = version({
  id: 102,
  version: 2,
  state: 'published',
  change_summary: 'Adds gloves',
  effective_on: '2026-01-15',
  content:
    '<h2>Purpose</h2><p>Wash hands before and after patient contact.</p><table><tbody><tr><th><p>Who</p></th></tr><tr><td><p>Nurses</p></td></tr></tbody></table><img src="x" onerror="window.hacked=1">',
  revision: 2,
});

/** Version 3, the working draft. */
export const V3 = version({
  id: 103,
  version: 3,
  state: 'draft',
  change_summary: 'Adds alcohol rub',
  effective_on: null,
  content: '<p>Draft text about alcohol rub.</p>',
  revision: 3,
  author: { id: 7, name: 'Member One' },
});

/** A published policy with an older version and no draft; the user may do everything but restore. */
export function detail(overrides: Partial<DocumentDetail> = {}): DocumentDetail {
  const base: DocumentDetail = {
    id: 5,
    number: '4.2',
    title: 'Hand hygiene',
    status: 'published',
    department: { id: 3, name: 'Nursing', code: 'NUR' },
    owner: ANA,
    review_interval_months: 12,
    next_review_on: '2027-01-15',
    effective_on: '2026-01-15',
    approved_at: '2026-01-10T14:00:00Z',
    created_at: '2025-01-01T09:00:00Z',
    updated_at: '2026-01-15T09:00:00Z',
    current_version: V2,
    draft_version: null,
    versions: [summaryOf(V1), summaryOf(V2)],
    number_history: [{ from: '4.1', to: '4.2', by: ANA, at: '2025-06-01T12:00:00Z' }],
    abilities: { edit: true, archive: true, restore: false, renumber: true },
    generated_from: null,
  };
  return { ...base, ...overrides };
}

/** The same policy with version 3 open as a draft. */
export function withDraft(overrides: Partial<DocumentDetail> = {}): DocumentDetail {
  return detail({
    draft_version: V3,
    versions: [summaryOf(V1), summaryOf(V2), summaryOf(V3)],
    ...overrides,
  });
}

/** The document routes, with a marker page for the table of contents. */
export async function openDocument(path: string, { waitForHeading = true } = {}) {
  const screen = (element: ReactNode) => <ProjectReady>{element}</ProjectReady>;
  const router = createMemoryRouter(
    [
      { path: '/app/policy_management/:projectId/documents/:documentId', element: screen(<DocumentPage />) },
      { path: '/app/policy_management/:projectId/documents/:documentId/edit', element: screen(<DocumentEditPage />) },
      {
        path: '/app/policy_management/:projectId/documents/:documentId/print',
        element: screen(<DocumentPrintPage />),
      },
      { path: '/app/policy_management/:projectId/toc', element: <h1>Table of contents</h1> },
    ],
    { initialEntries: [path] },
  );
  await render(<RouterProvider router={router} />);
  if (waitForHeading) await waitFor(() => expect(document.querySelector('h1')).not.toBeNull());
  return router;
}

/** The tab named `name`. */
export function tab(name: string): HTMLElement {
  const match = [...document.querySelectorAll<HTMLElement>('[role="tab"]')].find(
    (element) => element.textContent?.trim() === name,
  );
  if (!match) throw new Error(`no tab ${name}`);
  return match;
}

/** Link or button texts in the page header (the buttons `abilities` decides). */
export function headerActions(): string[] {
  const heading = document.querySelector('h1');
  const header = heading?.closest('.mantine-Paper-root');
  return [...(header?.querySelectorAll<HTMLElement>('a, button') ?? [])].map(
    (element) => element.textContent?.trim() ?? '',
  );
}
