import type { MonitoringRole } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { type StubRequest, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, typeInto, waitFor } from '../../../test/render';
import { PageRoleManagerPage } from './PageRoleManagerPage';
import {
  API,
  BASE,
  dialog,
  fieldError,
  input,
  openScreen,
  person,
  sessionRoutes,
  toasts,
  violations,
} from './people-test-fixtures';

const IPC: MonitoringRole = {
  id: 5,
  name: 'Infection control',
  description: 'IPC team',
  members: [{ id: 22, name: 'Bob Stone' }],
  grant_count: 3,
  updated_at: '2026-03-01T10:00:00Z',
};
const PEOPLE = [person({ id: 21, name: 'Ann Lee' }), person({ id: 22, name: 'Bob Stone' })];

const open = () => openScreen(`${BASE}/page-role-manager`, ['page-role-manager'], <PageRoleManagerPage />);
const roleRows = () =>
  [...document.querySelectorAll('tr[data-role-id]')].map((tr) =>
    [...tr.querySelectorAll('td')].slice(0, 4).map((td) => td.textContent ?? ''),
  );

describe('PageRoleManagerPage', () => {
  it('lists the roles with their members and pages granted, or says there are none', async () => {
    stubApi({ ...sessionRoutes(), [`GET ${API}/roles`]: jsonResponse({ roles: [IPC] }) });
    await open();
    await waitFor(() => expect(roleRows()).toEqual([['Infection control', 'IPC team', 'Bob Stone', '3']]));
    expect(await violations()).toEqual([]);
  });

  it('says when there are no roles', async () => {
    stubApi({ ...sessionRoutes(), [`GET ${API}/roles`]: jsonResponse({ roles: [] }) });
    await open();
    await waitFor(() => expect(text()).toContain('No monitoring roles yet.'));
  });

  it('creates a role and shows the server refusing a taken name on the name field', async () => {
    const api = stubApi({
      ...sessionRoutes(),
      [`GET ${API}/roles`]: jsonResponse({ roles: [IPC] }),
      [`GET ${API}/users`]: jsonResponse({ users: PEOPLE }),
      [`POST ${API}/roles`]: [
        jsonResponse(
          {
            message: 'A monitoring role with this name already exists.',
            errors: { name: ['A monitoring role with this name already exists.'] },
          },
          400,
        ),
        (request: StubRequest) =>
          jsonResponse({ ...IPC, id: 6, ...(request.body as object), members: [], grant_count: 0 }, 201),
      ],
    });
    await open();
    await waitFor(() => expect(roleRows()).toHaveLength(1));
    await click(getControl('New role'));
    await waitFor(() => dialog());
    // Checked here first: an empty name never reaches the server.
    await click(getControl('Create role', dialog()));
    await waitFor(() => expect(fieldError('Name')).toBe('Enter a name.'));
    expect(api.calls(`POST ${API}/roles`)).toHaveLength(0);

    await typeInto(input('Name'), 'infection CONTROL');
    await typeInto(input('Description'), 'Second team');
    await click(getControl('Create role', dialog()));
    await waitFor(() => expect(fieldError('Name')).toBe('A monitoring role with this name already exists.'));
    expect(api.calls(`POST ${API}/roles`)[0]!.body).toEqual({
      name: 'infection CONTROL',
      description: 'Second team',
      member_ids: [],
    });

    await typeInto(input('Name'), 'Quality team');
    await click(getControl('Create role', dialog()));
    await waitFor(() => expect(toasts()).toContain('Created Quality team.'));
    expect(api.calls(`POST ${API}/roles`)[1]!.body).toMatchObject({ name: 'Quality team' });
  });

  it('asks before deleting, naming the grants removed', async () => {
    const api = stubApi({
      ...sessionRoutes(),
      [`GET ${API}/roles`]: jsonResponse({ roles: [IPC] }),
      [`DELETE ${API}/roles/5`]: jsonResponse({ deleted: 5, grants_removed: 3 }),
    });
    await open();
    await waitFor(() => expect(roleRows()).toHaveLength(1));
    await click(document.querySelector<HTMLElement>('button[aria-label="Delete Infection control"]')!);
    await waitFor(() =>
      expect(text(dialog())).toContain('Delete the role "Infection control"? Its 3 page grants will be removed'),
    );
    await click(getControl('Delete', dialog()));
    await waitFor(() => expect(toasts()).toContain('Deleted Infection control and 3 page grants.'));
    expect(api.calls(`DELETE ${API}/roles/5`)).toHaveLength(1);
  });
});
