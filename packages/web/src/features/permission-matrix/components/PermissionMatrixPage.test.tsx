import type { PermissionMatrix } from '@portal/shared';
import { act } from 'react';
import { createMemoryRouter, Link, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { type StubHandler, type StubRequest, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, render, text, waitFor } from '../../../test/render';
import { dialog, pick, toasts } from '../../../test/ui';
import { LOCKED_NOTE, PermissionMatrixPage } from './PermissionMatrixPage';

const PROJECTS = {
  projects: [
    { id: 1, name: 'North Clinic', slug: 'north', active_apps: ['monitoring'] },
    { id: 2, name: 'South Hospital', slug: 'south', active_apps: [] },
  ],
};
const ROLES = ['monitoring_admin', 'page_owner', 'data_entry', 'viewer'];

function matrixFor(projectId: number): PermissionMatrix {
  return {
    app: 'monitoring',
    project_id: projectId,
    roles: ROLES,
    sections: [
      { path: 'pages', allowed_roles: ['monitoring_admin', 'page_owner', 'viewer'], is_default: true, locked: false },
      { path: 'csv-import', allowed_roles: ['monitoring_admin'], is_default: false, locked: false },
      { path: 'formula-builder', allowed_roles: [], is_default: false, locked: true },
    ],
  };
}

const BASE = '/super/permissions/monitoring';

/** A tiny server keeping each project's matrix. */
function server(routes: Record<string, StubHandler | StubHandler[]> = {}) {
  const matrices = new Map<number, PermissionMatrix>([
    [1, matrixFor(1)],
    [
      2,
      { ...matrixFor(2), sections: [{ path: 'pages', allowed_roles: ['viewer'], is_default: false, locked: false }] },
    ],
  ]);
  const answer = (id: number) => jsonResponse(matrices.get(id));
  return stubApi({
    'GET /api/member/projects': jsonResponse(PROJECTS),
    [`GET ${BASE}`]: (request: StubRequest) => answer(Number(request.query.get('project'))),
    [`PUT ${BASE}`]: (request: StubRequest) => {
      const body = request.body as { project_id: number; sections: { path: string; allowed_roles: string[] }[] };
      matrices.set(body.project_id, {
        ...matrices.get(body.project_id)!,
        sections: body.sections.map((section) => ({
          ...section,
          is_default: false,
          locked: section.allowed_roles.length === 0,
        })),
      });
      return answer(body.project_id);
    },
    [`POST ${BASE}/copy`]: (request: StubRequest) => {
      const body = request.body as { project_id: number; from_project_id: number };
      matrices.set(body.project_id, { ...matrices.get(body.from_project_id)!, project_id: body.project_id });
      return answer(body.project_id);
    },
    [`POST ${BASE}/reset`]: (request: StubRequest) => {
      const body = request.body as { project_id: number };
      const defaults = matrixFor(body.project_id);
      matrices.set(body.project_id, {
        ...defaults,
        sections: defaults.sections.map((section) => ({
          ...section,
          allowed_roles: ROLES,
          is_default: true,
          locked: false,
        })),
      });
      return answer(body.project_id);
    },
    ...routes,
  });
}

async function open(path = '/superadmin/monitoring-permissions') {
  const router = createMemoryRouter(
    [
      { path: '/superadmin/monitoring-permissions', element: <PermissionMatrixPage app="monitoring" /> },
      { path: '/superadmin', element: <Link to="/superadmin/monitoring-permissions">Home</Link> },
    ],
    { initialEntries: [path] },
  );
  await render(<RouterProvider router={router} />);
  await waitFor(() => expect(document.querySelector('h1')?.textContent).toBe('Monitoring Permissions'));
  return router;
}

function row(path: string): HTMLElement {
  const element = document.querySelector<HTMLElement>(`tr[data-path="${path}"]`);
  if (!element) throw new Error(`no row ${path}`);
  return element;
}

function box(label: string): HTMLInputElement {
  const element = document.querySelector<HTMLInputElement>(`input[aria-label="${label}"]`);
  if (!element) throw new Error(`no checkbox ${label}`);
  return element;
}

describe('PermissionMatrixPage: the matrix', () => {
  it('shows the first project, roles as columns, sections as rows, locked and changed rows', async () => {
    const api = server();
    const router = await open();
    await waitFor(() => row('pages'));
    expect(router.state.location.search).toBe('?project=1');
    expect(api.calls(`GET ${BASE}`)[0]!.query.get('project')).toBe('1');
    const headers = [...document.querySelectorAll('thead th')].map((element) => element.textContent);
    expect(headers).toEqual(['Section', 'All roles', 'Monitoring admin', 'Page owner', 'Data entry', 'Viewer']);
    expect(text()).toContain(LOCKED_NOTE);
    // A section by its name with a line of explanation; its address only small, below them.
    expect(text(row('csv-import'))).toContain('Import data');
    expect(text(row('csv-import'))).toContain('Load measure data from a CSV file.');

    expect(box('Page owner may open Page list').checked).toBe(true);
    expect(box('Data entry may open Page list').checked).toBe(false);
    expect(box('All roles may open Page list').indeterminate).toBe(true);
    expect(row('formula-builder').dataset.locked).toBe('true');
    expect(text(row('formula-builder'))).toContain('Locked');
    expect(row('pages').dataset.locked).toBeUndefined();
    expect(text(row('pages'))).not.toContain('Locked');
    expect(text(row('csv-import'))).toContain('Changed');
    expect(text(row('pages'))).not.toContain('Changed');

    expect(getControl('Save').hasAttribute('disabled')).toBe(true);
    expect(getControl('Discard').hasAttribute('disabled')).toBe(true);
    expect(text()).toContain('No unsaved changes');
  });

  it('keeps edits local until Save, then sends every row and says so', async () => {
    const api = server();
    await open();
    await waitFor(() => row('pages'));
    await click(box('Data entry may open Page list'));
    await click(box('Viewer may open Formula builder'));
    expect(text()).toContain('2 rows changed, not saved yet');
    expect(text(row('pages'))).toContain('Unsaved');
    // Unlocked by the edit.
    expect(row('formula-builder').dataset.locked).toBeUndefined();
    expect(api.calls(`PUT ${BASE}`)).toHaveLength(0);

    await click(getControl('Save'));
    await waitFor(() => expect(toasts()).toContain('Permissions saved for North Clinic.'));
    expect(api.calls(`PUT ${BASE}`)[0]!.body).toEqual({
      project_id: 1,
      sections: [
        { path: 'pages', allowed_roles: ['monitoring_admin', 'page_owner', 'data_entry', 'viewer'] },
        { path: 'csv-import', allowed_roles: ['monitoring_admin'] },
        { path: 'formula-builder', allowed_roles: ['viewer'] },
      ],
    });
    await waitFor(() => expect(text()).toContain('No unsaved changes'));
    expect(box('Data entry may open Page list').checked).toBe(true);
    expect(text(row('pages'))).toContain('Changed');
    expect(getControl('Save').hasAttribute('disabled')).toBe(true);
  });

  it('asks before saving rows that would become locked, listing them', async () => {
    const api = server();
    await open();
    await waitFor(() => row('csv-import'));
    await click(box('All roles may open Import data'));
    expect(box('Viewer may open Import data').checked).toBe(true);
    await click(box('All roles may open Import data'));
    expect(box('Monitoring admin may open Import data').checked).toBe(false);
    expect(row('csv-import').dataset.locked).toBe('true');

    await click(getControl('Save'));
    await waitFor(() => expect(text(dialog())).toContain('Lock 1 section?'));
    const listed = dialog().querySelector('[data-testid="locking-rows"]')!;
    // The row locked already is not listed; only the one the edit locks.
    expect(text(listed).trim()).toBe('Import data');
    await click(getControl('Go back', dialog()));
    expect(api.calls(`PUT ${BASE}`)).toHaveLength(0);

    await click(getControl('Save'));
    await waitFor(() => dialog());
    await click(getControl('Save and lock', dialog()));
    await waitFor(() => expect(api.calls(`PUT ${BASE}`)).toHaveLength(1));
    const body = api.calls(`PUT ${BASE}`)[0]!.body as { sections: { path: string; allowed_roles: string[] }[] };
    expect(body.sections.find((section) => section.path === 'csv-import')!.allowed_roles).toEqual([]);
  });

  it('discards the edits', async () => {
    server();
    await open();
    await waitFor(() => row('pages'));
    await click(box('Viewer may open Page list'));
    expect(box('Viewer may open Page list').checked).toBe(false);
    expect(text()).toContain('1 row changed, not saved yet');
    await click(getControl('Discard'));
    expect(box('Viewer may open Page list').checked).toBe(true);
    expect(text()).toContain('No unsaved changes');
  });

  it('shows the server message when saving fails and keeps the edits', async () => {
    server({ [`PUT ${BASE}`]: jsonResponse({ message: 'The matrix names an unknown section.' }, 422) });
    await open();
    await waitFor(() => row('pages'));
    await click(box('Viewer may open Page list'));
    await click(getControl('Save'));
    await waitFor(() => expect(toasts()).toContain('The matrix names an unknown section.'));
    expect(text()).toContain('1 row changed, not saved yet');
  });
});

describe('PermissionMatrixPage: projects', () => {
  it('switches project through the picker and keeps it in the URL', async () => {
    const api = server();
    const router = await open('/superadmin/monitoring-permissions?project=2');
    await waitFor(() => row('pages'));
    expect(document.querySelector('tr[data-path="csv-import"]')).toBeNull();
    expect(text()).toContain('South Hospital does not use Monitoring yet.');
    await pick('Project', 'North Clinic');
    await waitFor(() => row('csv-import'));
    expect(router.state.location.search).toBe('?project=1');
    expect(api.calls(`GET ${BASE}`).map((call) => call.query.get('project'))).toEqual(['2', '1']);
  });

  it('asks before switching project or leaving with unsaved changes', async () => {
    server();
    const router = await open();
    await waitFor(() => row('csv-import'));
    await click(box('Viewer may open Import data'));

    await pick('Project', 'South Hospital');
    await waitFor(() => expect(text(dialog())).toContain('Discard unsaved changes?'));
    expect(text(dialog())).toContain('You changed 1 row of North Clinic without saving.');
    await click(getControl('Cancel', dialog()));
    expect(router.state.location.search).toBe('?project=1');
    expect(box('Viewer may open Import data').checked).toBe(true);

    await pick('Project', 'South Hospital');
    await waitFor(() => dialog());
    await click(getControl('Discard changes', dialog()));
    await waitFor(() => expect(router.state.location.search).toBe('?project=2'));
    await waitFor(() => expect(document.querySelector('tr[data-path="csv-import"]')).toBeNull());

    // Back to the first project: the discarded edit does not come back.
    await pick('Project', 'North Clinic');
    await waitFor(() => row('csv-import'));
    expect(box('Viewer may open Import data').checked).toBe(false);
    await click(box('Viewer may open Import data'));
    await act(async () => {
      await router.navigate('/superadmin');
    });
    await waitFor(() => expect(text(dialog())).toContain('Discard unsaved changes?'));
    expect(router.state.location.pathname).toBe('/superadmin/monitoring-permissions');
    await click(getControl('Discard changes', dialog()));
    await waitFor(() => expect(router.state.location.pathname).toBe('/superadmin'));
  });

  it('copies another project after confirmation', async () => {
    const api = server();
    await open();
    await waitFor(() => row('csv-import'));
    await click(getControl('Copy from another project'));
    await waitFor(() => dialog());
    await click(getControl('Replace permissions', dialog()));
    expect(text(dialog())).toContain('Pick the project to copy from.');
    expect(api.calls(`POST ${BASE}/copy`)).toHaveLength(0);

    await pick('Copy from', 'South Hospital', dialog());
    expect(text(dialog())).toContain(
      'The Monitoring permissions of North Clinic are replaced by those of South Hospital.',
    );
    await click(getControl('Replace permissions', dialog()));
    await waitFor(() => expect(toasts()).toContain('Permissions copied from South Hospital.'));
    expect(api.calls(`POST ${BASE}/copy`)[0]!.body).toEqual({ project_id: 1, from_project_id: 2 });
    await waitFor(() => expect(document.querySelector('tr[data-path="csv-import"]')).toBeNull());
    expect(box('Viewer may open Page list').checked).toBe(true);
    expect(box('Page owner may open Page list').checked).toBe(false);
  });

  it('resets to the defaults after confirmation', async () => {
    const api = server();
    await open();
    await waitFor(() => row('formula-builder'));
    await click(getControl('Reset to defaults'));
    await waitFor(() => expect(text(dialog())).toContain('Reset to defaults?'));
    await click(getControl('Cancel', dialog()));
    expect(api.calls(`POST ${BASE}/reset`)).toHaveLength(0);

    await click(getControl('Reset to defaults'));
    await waitFor(() => dialog());
    await click(getControl('Reset to defaults', dialog()));
    await waitFor(() => expect(toasts()).toContain('Permissions of North Clinic reset to the defaults.'));
    expect(api.calls(`POST ${BASE}/reset`)[0]!.body).toEqual({ project_id: 1 });
    await waitFor(() => expect(row('formula-builder').dataset.locked).toBeUndefined());
  });

  it('shows an empty state when there is no project', async () => {
    stubApi({ 'GET /api/member/projects': jsonResponse({ projects: [] }) });
    await open();
    await waitFor(() => expect(text()).toContain('No projects yet'));
    expect(getControl('Go to Projects').getAttribute('href')).toBe('/superadmin/projects');
  });

  it('offers a retry when the matrix cannot be loaded', async () => {
    server({
      [`GET ${BASE}`]: [jsonResponse({ message: 'Server error.' }, 500), jsonResponse(matrixFor(1))],
    });
    await open();
    await waitFor(() => expect(text()).toContain('Server error.'));
    await click(getControl('Try again'));
    await waitFor(() => row('pages'));
  });
});
