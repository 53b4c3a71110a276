import type { GroupMapping, GroupMappingOptions } from '@portal/shared';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { type StubHandler, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, render, text, typeInto, waitFor } from '../../../test/render';
import { dialog, errorOf, field, labelled, optionsOf, pick, rows, seriousViolations, toasts } from '../../../test/ui';
import { GroupMappingsPage } from './GroupMappingsPage';

const PATH = '/super/identity-providers/5/mappings';
const OPTIONS_PATH = '/super/identity-providers/5/mapping-options';

const ICU_NURSING: GroupMapping = {
  id: 11,
  provider_id: 5,
  group: 'ICU Nursing',
  project_id: 1,
  project_name: 'Lakeside Hospital',
  project_role: 'simple',
  main_roles: { monitoring: null, policy_management: 'reader', chart_review: 'viewer' },
  reader_departments: [{ id: 7, name: 'ICU' }],
  created_at: '2026-03-01T10:00:00Z',
  updated_at: '2026-03-01T10:00:00Z',
};
const LEADS: GroupMapping = {
  ...ICU_NURSING,
  id: 12,
  group: 'Ward leads',
  project_role: 'admin',
  main_roles: { monitoring: null, policy_management: null, chart_review: null },
  reader_departments: [],
};

const OPTIONS: GroupMappingOptions = {
  projects: [
    {
      id: 1,
      name: 'Lakeside Hospital',
      apps: ['policy_management', 'chart_review'],
      departments: [
        { id: 7, name: 'ICU', code: 'ICU' },
        { id: 8, name: 'Emergency', code: 'ER' },
      ],
    },
    { id: 2, name: 'Hilltop Clinic', apps: ['monitoring'], departments: [] },
  ],
  main_roles: {
    monitoring: ['monitoring_admin', 'page_owner', 'data_entry', 'viewer'],
    policy_management: ['policy_admin', 'author', 'reviewer', 'signer', 'reader'],
    chart_review: ['chart_review_admin', 'program_lead', 'reviewer', 'viewer'],
  },
};

function server(mappings: GroupMapping[], routes: Record<string, StubHandler | StubHandler[]> = {}) {
  return stubApi({
    'GET /super/identity-providers': jsonResponse({ providers: [] }),
    [`GET ${PATH}`]: jsonResponse({ mappings }),
    [`GET ${OPTIONS_PATH}`]: jsonResponse(OPTIONS),
    ...routes,
  });
}

async function open() {
  const router = createMemoryRouter(
    [
      { path: '/superadmin/identity-providers/:id/mappings', element: <GroupMappingsPage /> },
      { path: '/superadmin/identity-providers', element: <p>Providers</p> },
    ],
    { initialEntries: ['/superadmin/identity-providers/5/mappings'] },
  );
  await render(<RouterProvider router={router} />);
  await waitFor(() => expect(document.querySelector('h1')?.textContent).toBe('Group mappings'));
  return router;
}

const TABLE = '[data-testid="group-mappings"]';

describe('GroupMappingsPage', () => {
  it('lists each mapping: group, project, project role, main roles by their names, reader departments', async () => {
    server([ICU_NURSING, LEADS]);
    await open();
    await waitFor(() => expect(rows(TABLE)).toHaveLength(2));
    expect(rows(TABLE)).toEqual([
      [
        'ICU Nursing',
        'Lakeside Hospital',
        'Member',
        'Policy management: Reader; Chart review: Viewer',
        'ICU',
        'EditDelete',
      ],
      ['Ward leads', 'Lakeside Hospital', 'Project admin', 'None', 'None', 'EditDelete'],
    ]);
    expect(document.title).toBe('Group mappings | Healthcare Quality Portal');
    expect(getControl('Identity providers').getAttribute('href')).toBe('/superadmin/identity-providers');
    expect(await seriousViolations()).toEqual([]);
  });

  it('explains mappings when there is none, with an example', async () => {
    server([]);
    await open();
    await waitFor(() => expect(text()).toContain('No group mappings yet'));
    expect(text()).toContain('a group “ICU Nursing” → project Lakeside Hospital, member, policy management reader');
    expect(document.querySelector(TABLE)).toBeNull();
    await click(getControl('Add group mapping'));
    await waitFor(() => field('Directory group', dialog()));
  });

  it('says when the mappings cannot be loaded and tries again', async () => {
    const api = server([], {
      [`GET ${PATH}`]: [jsonResponse({ message: 'The database is away.' }, 500), jsonResponse({ mappings: [LEADS] })],
    });
    await open();
    await waitFor(() => expect(document.querySelector('[role="alert"]')?.textContent).toBe('The database is away.'));
    await click(getControl('Retry'));
    await waitFor(() => expect(rows(TABLE)).toHaveLength(1));
    expect(api.calls(`GET ${PATH}`)).toHaveLength(2);
  });

  it('adds a mapping with the roles of the project’s apps and its departments', async () => {
    let mappings: GroupMapping[] = [LEADS];
    const api = server([], {
      [`GET ${PATH}`]: () => jsonResponse({ mappings }),
      [`POST ${PATH}`]: () => {
        mappings = [ICU_NURSING, LEADS];
        return jsonResponse(ICU_NURSING, 201);
      },
    });
    await open();
    await waitFor(() => expect(rows(TABLE)).toHaveLength(1));
    await click(getControl('Add group mapping'));
    await waitFor(() => field('Directory group', dialog()));
    // No project yet: no role selects.
    expect(text(dialog())).toContain('Pick a project to choose the main roles of its apps.');
    await typeInto(field('Directory group', dialog()), 'ICU Nursing');
    await pick('Project', 'Lakeside Hospital', dialog());
    // Only the apps switched on in the project.
    await waitFor(() => field('Policy management role', dialog()));
    expect(() => field('Monitoring role', dialog())).toThrow();
    expect(await optionsOf('Chart review role', dialog())).toEqual([
      'No role',
      'Chart review admin',
      'Programme lead',
      'Reviewer',
      'Viewer',
    ]);
    await pick('Policy management role', 'Reader', dialog());
    await pick('Chart review role', 'Viewer', dialog());
    await pick('Reader of departments', 'ICU (ICU)', dialog());
    await click(getControl('Add mapping', dialog()));

    await waitFor(() => expect(api.calls(`POST ${PATH}`)).toHaveLength(1));
    expect(api.calls(`POST ${PATH}`)[0]!.body).toEqual({
      group: 'ICU Nursing',
      project_id: 1,
      project_role: 'simple',
      main_roles: { monitoring: null, policy_management: 'reader', chart_review: 'viewer' },
      reader_department_ids: [7],
    });
    await waitFor(() => expect(document.querySelector('[role="dialog"]')).toBeNull());
    await waitFor(() => expect(rows(TABLE)).toHaveLength(2));
    expect(toasts()).toContain('ICU Nursing mapped to Lakeside Hospital.');
  });

  it('checks the form before sending, and shows the server’s answer under its field', async () => {
    const api = server([LEADS], {
      [`POST ${PATH}`]: jsonResponse(
        {
          message: 'This group is already mapped to this project.',
          errors: { group: ['“Ward leads” is already mapped to this project: change that mapping instead.'] },
        },
        409,
      ),
    });
    await open();
    await waitFor(() => expect(rows(TABLE)).toHaveLength(1));
    await click(getControl('Add group mapping'));
    await waitFor(() => field('Directory group', dialog()));
    await click(getControl('Add mapping', dialog()));
    await waitFor(() =>
      expect(errorOf('Directory group', dialog())).toBe('Enter the group’s name or ID as the directory sends it.'),
    );
    expect(errorOf('Project', dialog())).toBe('Pick a project.');

    await typeInto(field('Directory group', dialog()), 'Ward leads');
    await pick('Project', 'Lakeside Hospital', dialog());
    await waitFor(() => field('Reader of departments', dialog()));
    await pick('Reader of departments', 'Emergency (ER)', dialog());
    await click(getControl('Add mapping', dialog()));
    await waitFor(() =>
      expect(errorOf('Reader of departments', dialog())).toBe(
        'Reader duties need a policy management main role: pick one, or no departments.',
      ),
    );
    expect(api.calls(`POST ${PATH}`)).toHaveLength(0);

    await pick('Policy management role', 'Author', dialog());
    await click(getControl('Add mapping', dialog()));
    await waitFor(() =>
      expect(errorOf('Directory group', dialog())).toBe(
        '“Ward leads” is already mapped to this project: change that mapping instead.',
      ),
    );
    expect(api.calls(`POST ${PATH}`)).toHaveLength(1);
    // Another project's apps replace the roles: the policy role goes with the app.
    await pick('Project', 'Hilltop Clinic', dialog());
    await waitFor(() => field('Monitoring role', dialog()));
    expect(() => field('Policy management role', dialog())).toThrow();
  });

  it('edits a mapping, filled in with its values', async () => {
    const api = server([ICU_NURSING], {
      [`PUT ${PATH}/11`]: jsonResponse({ ...ICU_NURSING, project_role: 'admin' }),
    });
    await open();
    await waitFor(() => labelled('Edit the mapping of ICU Nursing to Lakeside Hospital'));
    await click(labelled('Edit the mapping of ICU Nursing to Lakeside Hospital'));
    await waitFor(() => expect(field('Directory group', dialog()).value).toBe('ICU Nursing'));
    expect(field('Project', dialog()).value).toBe('Lakeside Hospital');
    expect(field('Policy management role', dialog()).value).toBe('Reader');
    await pick('Project role', 'Project admin', dialog());
    await click(getControl('Save mapping', dialog()));
    await waitFor(() => expect(api.calls(`PUT ${PATH}/11`)).toHaveLength(1));
    expect(api.calls(`PUT ${PATH}/11`)[0]!.body).toEqual({
      group: 'ICU Nursing',
      project_id: 1,
      project_role: 'admin',
      main_roles: { monitoring: null, policy_management: 'reader', chart_review: 'viewer' },
      reader_department_ids: [7],
    });
    await waitFor(() => expect(toasts()).toContain('The mapping of ICU Nursing saved.'));
  });

  it('asks before deleting a mapping, and says what its members lose', async () => {
    let mappings = [ICU_NURSING, LEADS];
    const api = server([], {
      [`GET ${PATH}`]: () => jsonResponse({ mappings }),
      [`DELETE ${PATH}/11`]: () => {
        mappings = [LEADS];
        return new Response(null, { status: 204 });
      },
    });
    await open();
    await waitFor(() => labelled('Delete the mapping of ICU Nursing to Lakeside Hospital'));
    await click(labelled('Delete the mapping of ICU Nursing to Lakeside Hospital'));
    await waitFor(() => expect(text(dialog())).toContain('Delete the mapping of ICU Nursing?'));
    expect(text(dialog())).toContain('What an administrator granted by hand stays.');
    await click(getControl('Cancel', dialog()));
    await waitFor(() => expect(document.querySelector('[role="dialog"]')).toBeNull());
    expect(api.calls(`DELETE ${PATH}/11`)).toHaveLength(0);

    await click(labelled('Delete the mapping of ICU Nursing to Lakeside Hospital'));
    await waitFor(() => getControl('Delete mapping', dialog()));
    await click(getControl('Delete mapping', dialog()));
    await waitFor(() => expect(api.calls(`DELETE ${PATH}/11`)).toHaveLength(1));
    await waitFor(() => expect(rows(TABLE)).toHaveLength(1));
    expect(toasts()).toContain('The mapping of ICU Nursing to Lakeside Hospital deleted.');
  });
});
