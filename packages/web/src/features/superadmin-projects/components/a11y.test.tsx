import axe from 'axe-core';
import { act, type ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, render, waitFor } from '../../../test/render';
import { ProjectPage } from './ProjectPage';
import { ProjectsPage } from './ProjectsPage';
import { ADMIN_MEMBER, detailOf, findDialog, NORTH, SIMPLE_MEMBER, SOUTH } from './test-helpers';

/** Serious and critical axe findings (jsdom cannot compute colours; the page regions come from the layout). */
async function violations(): Promise<string[]> {
  // Inside act: Mantine's transitions finish while axe runs.
  const result = await act(() =>
    axe.run(document.body, { rules: { 'color-contrast': { enabled: false }, region: { enabled: false } } }),
  );
  return result.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.html.slice(0, 120)).join(' | ')}`);
}

async function show(path: string, route: string, element: ReactElement) {
  const router = createMemoryRouter([{ path: route, element }], { initialEntries: [path] });
  await render(<RouterProvider router={router} />);
  await waitFor(() => {
    if (document.querySelector('[role="status"][aria-label^="Loading"]')) throw new Error('still loading');
  });
}

describe('superadmin projects: accessibility', () => {
  it('the projects list and the New project modal', async () => {
    stubApi({ 'GET /super/projects': jsonResponse({ projects: [NORTH, SOUTH], total: 60, page: 1, page_size: 25 }) });
    await show('/superadmin/projects', '/superadmin/projects', <ProjectsPage />);
    await waitFor(() => expect(document.querySelector('tr[data-project-id="12"]')).not.toBeNull());
    expect(await violations()).toEqual([]);
    await click(getControl('New project'));
    await findDialog('New project');
    expect(await violations()).toEqual([]);
  }, 20_000);

  it('the project page and its member modals', async () => {
    stubApi({
      'GET /super/projects/12': jsonResponse(detailOf(NORTH, { logo_url: '/api/projects/12/logo' })),
      'GET /super/projects/12/members': jsonResponse({ members: [ADMIN_MEMBER, SIMPLE_MEMBER] }),
      'GET /super/users': jsonResponse({ users: [], total: 0, page: 1, page_size: 20 }),
    });
    await show('/superadmin/projects/12', '/superadmin/projects/:id', <ProjectPage />);
    await waitFor(() => expect(document.querySelector('tr[data-user-id="40"]')).not.toBeNull());
    expect(await violations()).toEqual([]);
    await click(getControl('Add member'));
    await findDialog('Add a member to North Clinic');
    expect(await violations()).toEqual([]);
  }, 20_000);
});
