import type { PagePermissions } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, waitFor } from '../../../test/render';
import { PagePermissionsPage } from './PagePermissionsPage';
import { API, BASE, dialog, openScreen, pick, sessionRoutes, toasts, violations } from './people-test-fixtures';

const IPC = { id: 5, name: 'Infection control' };
const QUALITY = { id: 6, name: 'Quality' };
const DANA = { id: 31, name: 'Dana Entry' };
const DOMAIN = { id: 1, number: '1', title: 'Safety' };

const DATA: PagePermissions = {
  roles: [IPC, QUALITY],
  people: [DANA, { id: 32, name: 'Vera Viewer' }],
  pages: [
    {
      ...DOMAIN,
      parent_id: null,
      depth: 1,
      restricted: true,
      open: false,
      grants: [{ id: 100, role: IPC, user: null, level: 'edit' }],
      effective: [{ role: IPC, user: null, level: 'edit', inherited_from: null }],
    },
    {
      id: 2,
      parent_id: 1,
      number: '1.1',
      title: 'Hand hygiene',
      depth: 2,
      restricted: false,
      open: false,
      grants: [{ id: 101, role: null, user: DANA, level: 'view' }],
      effective: [
        { role: IPC, user: null, level: 'edit', inherited_from: DOMAIN },
        { role: null, user: DANA, level: 'view', inherited_from: null },
      ],
    },
    {
      id: 3,
      parent_id: null,
      number: '2',
      title: 'Finance',
      depth: 1,
      restricted: false,
      open: true,
      grants: [],
      effective: [],
    },
  ],
};

const open = () => openScreen(`${BASE}/page-permissions`, ['page-permissions'], <PagePermissionsPage />);
const cell = (pageId: number, roleId: number) =>
  document.querySelector<HTMLElement>(`tr[data-page-id="${pageId}"] td[data-role-id="${roleId}"]`)!;

describe('PagePermissionsPage', () => {
  it('shows the pages against the roles with explicit and inherited marks', async () => {
    stubApi({ ...sessionRoutes(), [`GET ${API}/page-permissions`]: jsonResponse(DATA) });
    await open();
    await waitFor(() => expect(document.querySelector('tr[data-page-id="2"]')).not.toBeNull());
    expect([...document.querySelectorAll('thead th')].map((th) => th.textContent)).toEqual([
      'Page',
      'Infection control',
      'Quality',
      'People',
    ]);
    const explicit = cell(1, 5).querySelector('[aria-label]')!;
    expect(explicit.getAttribute('aria-label')).toBe('Infection control: Edit, explicit on this page');
    expect(explicit.textContent).toBe('Edit');
    const inherited = cell(2, 5).querySelector('[aria-label]')!;
    expect(inherited.getAttribute('aria-label')).toBe('Infection control: Edit, inherited from 1 Safety');
    expect(inherited.textContent).toBe('↓ Edit');
    expect(inherited.getAttribute('tabindex')).toBe('0');
    expect(cell(2, 6).querySelector('[aria-label]')!.getAttribute('aria-label')).toBe('Quality: no grant');
    expect(text(document.querySelector('tr[data-page-id="2"]')!)).toContain('Dana Entry');
    expect(text(document.querySelector('tr[data-page-id="1"] th')!)).toContain('Restricted');
    expect(text(document.querySelector('tr[data-page-id="3"] th')!)).toContain('Open');
    // The matrix scrolls sideways on a phone instead of squeezing.
    expect(document.querySelector('.mantine-Table-scrollContainer, [class*="ScrollContainer"]')).not.toBeNull();
    expect(await violations()).toEqual([]);
  });

  it('edits a page: restricted switch, levels, removing and adding grants, and saves the right PUT body', async () => {
    const api = stubApi({
      ...sessionRoutes(),
      [`GET ${API}/page-permissions`]: jsonResponse(DATA),
      [`PUT ${API}/pages/2/permissions`]: jsonResponse({ ...DATA.pages[1], restricted: true }),
    });
    await open();
    await waitFor(() =>
      expect(document.querySelector('button[aria-label="Edit permissions of 1.1 Hand hygiene"]')).not.toBeNull(),
    );
    await click(document.querySelector<HTMLElement>('button[aria-label="Edit permissions of 1.1 Hand hygiene"]')!);
    await waitFor(() => expect(text(dialog())).toContain('Permissions of 1.1 Hand hygiene'));
    expect(text(dialog())).toContain(
      'Restricted pages are hidden from everyone without a grant, and so is their branch.',
    );
    expect(text(dialog())).toContain('Infection control: Edit (from 1 Safety)');
    expect(await violations()).toEqual([]);

    const restricted = dialog().querySelector<HTMLInputElement>('input[type="checkbox"]')!;
    expect(restricted.checked).toBe(false);
    await click(restricted);
    expect(text(dialog())).toContain('Grants on the pages above do not apply to a restricted page.');
    await pick('Level of Dana Entry', 'Manage');
    await pick('Add a role or person', 'Quality');
    await pick('Level', 'Edit');
    await click(getControl('Add grant', dialog()));
    await pick('Add a role or person', 'Vera Viewer');
    await click(getControl('Add grant', dialog()));
    await click(document.querySelector<HTMLElement>('button[aria-label="Remove the grant of Vera Viewer"]')!);
    await click(getControl('Save', dialog()));
    await waitFor(() => expect(toasts()).toContain('Saved the permissions of 1.1 Hand hygiene.'));
    expect(api.calls(`PUT ${API}/pages/2/permissions`).map((call) => call.body)).toEqual([
      {
        restricted: true,
        grants: [
          { user_id: 31, level: 'manage' },
          { role_id: 6, level: 'edit' },
        ],
      },
    ]);
  });

  it('marks the grant the server refuses', async () => {
    stubApi({
      ...sessionRoutes(),
      [`GET ${API}/page-permissions`]: jsonResponse(DATA),
      [`PUT ${API}/pages/1/permissions`]: jsonResponse(
        {
          message: 'This role is not a monitoring role of this project.',
          errors: { 'grants.0.role_id': ['This role is not a monitoring role of this project.'] },
        },
        400,
      ),
    });
    await open();
    await waitFor(() =>
      expect(document.querySelector('button[aria-label="Edit permissions of 1 Safety"]')).not.toBeNull(),
    );
    await click(document.querySelector<HTMLElement>('button[aria-label="Edit permissions of 1 Safety"]')!);
    await waitFor(() => dialog());
    await click(getControl('Save', dialog()));
    await waitFor(() => expect(text(dialog())).toContain('Nothing was saved; see the marked grants.'));
    expect(text(dialog().querySelector('[data-grant="r5"]')!)).toContain(
      'This role is not a monitoring role of this project.',
    );
  });

  it('says when there are no pages', async () => {
    stubApi({ ...sessionRoutes(), [`GET ${API}/page-permissions`]: jsonResponse({ ...DATA, pages: [] }) });
    await open();
    await waitFor(() => expect(text()).toContain('No pages found.'));
  });
});
