import { LOGO_MAX_BYTES, type Member, type SuperProjectDetail } from '@portal/shared';
import { act } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { type StubHandler, type StubRequest, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, getField, render, text, typeInto } from '../../../test/render';
import { section } from '../../../test/ui';
import { ProjectPage } from './ProjectPage';
import {
  ADMIN_MEMBER,
  detailOf,
  eventually,
  findDialog,
  NORTH,
  optionsOf,
  pickOption,
  SIMPLE_MEMBER,
  toasts,
  userRow,
} from './test-helpers';

const BASE = '/super/projects/12';
const NORTH_DETAIL = detailOf(NORTH);

/** A tiny server keeping one project and its members, so reloads after a change show the change. */
function server(
  options: { project?: SuperProjectDetail; members?: Member[] } = {},
  routes: Record<string, StubHandler | StubHandler[]> = {},
) {
  let project = { ...(options.project ?? NORTH_DETAIL) };
  let members = [...(options.members ?? [ADMIN_MEMBER, SIMPLE_MEMBER])];
  const users = [
    userRow(40, 'Sam', 'Lee', 'sam@example.org'),
    userRow(50, 'Samira', 'Khan', 'samira@example.org'),
    userRow(51, 'Tom', 'Baker', 'tom@example.org'),
  ];
  const patchProject = (request: StubRequest) => {
    project = { ...project, ...(request.body as object), updated_at: '2026-03-09T10:00:00Z' };
    return jsonResponse(project);
  };
  const patchMember = (id: number) => (request: StubRequest) => {
    const body = request.body as Partial<Member>;
    members = members.map((member) =>
      member.user_id === id
        ? {
            ...member,
            ...(body.project_role ? { project_role: body.project_role } : {}),
            ...(body.main_roles ? { main_roles: { ...member.main_roles, ...body.main_roles } } : {}),
          }
        : member,
    );
    return jsonResponse(members.find((member) => member.user_id === id));
  };
  const deleteMember = (id: number) => () => {
    members = members.filter((member) => member.user_id !== id);
    return new Response(null, { status: 204 });
  };
  const addMember = (request: StubRequest) => {
    const body = request.body as { user_id: number; project_role: Member['project_role'] };
    const user = users.find((candidate) => candidate.id === body.user_id)!;
    const member: Member = {
      ...SIMPLE_MEMBER,
      user_id: user.id,
      username: user.username,
      email: user.email,
      first_name: user.first_name,
      last_name: user.last_name,
      status: 'active',
      project_role: body.project_role,
    };
    members = [...members, member];
    return jsonResponse(member, 201);
  };
  const searchUsers = (request: StubRequest) => {
    const q = (request.query.get('q') ?? '').toLowerCase();
    const found = users.filter((user) =>
      `${user.first_name} ${user.last_name} ${user.email}`.toLowerCase().includes(q),
    );
    return jsonResponse({ users: found, total: found.length, page: 1, page_size: 20 });
  };
  return stubApi({
    [`GET ${BASE}`]: () => jsonResponse(project),
    [`PATCH ${BASE}`]: patchProject,
    [`PUT ${BASE}/logo`]: (request) => {
      project = { ...project, logo_url: '/api/projects/12/logo', updated_at: '2026-03-09T11:00:00Z' };
      return request.body ? jsonResponse(project) : jsonResponse({ message: 'no body' }, 400);
    },
    [`DELETE ${BASE}/logo`]: () => {
      project = { ...project, logo_url: null };
      return jsonResponse(project);
    },
    [`GET ${BASE}/members`]: () => jsonResponse({ members }),
    [`POST ${BASE}/members`]: addMember,
    [`PATCH ${BASE}/members/40`]: patchMember(40),
    [`PATCH ${BASE}/members/41`]: patchMember(41),
    [`DELETE ${BASE}/members/40`]: deleteMember(40),
    [`DELETE ${BASE}/members/41`]: deleteMember(41),
    'GET /super/users': searchUsers,
    ...routes,
  });
}

async function open(path = '/superadmin/projects/12') {
  const router = createMemoryRouter(
    [
      { path: '/superadmin/projects/:id', element: <ProjectPage /> },
      { path: '/superadmin/projects', element: <p>Projects list</p> },
    ],
    { initialEntries: [path] },
  );
  await render(<RouterProvider router={router} />);
  return router;
}

async function openLoaded() {
  const router = await open();
  await eventually(() => expect(document.querySelector('h1')?.textContent).toBe('North Clinic'));
  return router;
}

function memberRow(id: number): HTMLElement {
  const element = document.querySelector<HTMLElement>(`tr[data-user-id="${id}"]`);
  if (!element) throw new Error(`no member row ${id}`);
  return element;
}

function checkbox(label: string, root: ParentNode): HTMLInputElement {
  return getField(label, root);
}

/** Chooses `file` in the logo card's file input the way the browser's picker does. */
async function chooseFile(file: File) {
  const input = section('Logo').querySelector<HTMLInputElement>('input[type="file"]')!;
  Object.defineProperty(input, 'files', { configurable: true, value: [file] });
  await act(async () => {
    input.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

describe('ProjectPage: loading', () => {
  it('shows the project, its details, apps, status and members', async () => {
    const api = server();
    await openLoaded();
    expect(document.title).toContain('North Clinic');
    expect(document.querySelectorAll('h1')).toHaveLength(1);
    expect(text()).toContain('north-clinic');
    expect(getControl('Open apps').getAttribute('href')).toBe('/member/projects/12/apps');

    const details = section('Details');
    expect(getField('Name', details).value).toBe('North Clinic');
    expect(getField('Slug', details).value).toBe('north-clinic');
    expect(getField('Facility name', details).value).toBe('North Clinic Inc.');
    expect(getField('Phone', details).value).toBe('+1 555 0100');
    expect(getField('Contact email', details).value).toBe('office@north.example');

    const apps = section('Apps');
    expect(checkbox('Monitoring', apps).checked).toBe(true);
    expect(checkbox('Policy Management', apps).checked).toBe(true);
    expect(checkbox('Standards', apps).checked).toBe(false);

    expect(text(section('Logo'))).toContain('No logo yet.');
    expect(getControl('Deactivate project', section('Status'))).toBeTruthy();

    await eventually(() => memberRow(40));
    expect(text(memberRow(40))).toContain('Sam Lee');
    expect(text(memberRow(40))).toContain('sam@example.org');
    expect(text(memberRow(40))).toContain('Project admin');
    expect(text(memberRow(40))).toContain('Monitoring: Page owner');
    expect(text(memberRow(40))).toContain('Mar 4, 2026');
    expect(text(memberRow(40))).toContain('On');
    expect(text(memberRow(41))).toContain('Member');
    expect(text(memberRow(41))).toContain('Never');
    expect(text(memberRow(41))).toContain('Off');
    expect(text(memberRow(41))).toContain('Invited');
    expect(text(section('Members'))).toContain('2 members, with their roles in this project.');
    expect(api.calls(`GET ${BASE}/members`)).toHaveLength(1);
  });

  it('shows the logo with its name as alternative text', async () => {
    server({ project: detailOf(NORTH, { logo_url: '/api/projects/12/logo' }) });
    await openLoaded();
    const image = section('Logo').querySelector('img')!;
    expect(image.getAttribute('alt')).toBe('North Clinic logo');
    expect(image.getAttribute('src')).toMatch(/^\/api\/projects\/12\/logo\?v=/);
  });

  it('says the project was not found on 404, with a link back', async () => {
    stubApi({ [`GET ${BASE}`]: jsonResponse({ message: 'Not found.' }, 404) });
    const router = await open();
    await eventually(() => expect(document.querySelector('h1')?.textContent).toBe('Project not found'));
    await click(getControl('Back to projects'));
    expect(router.state.location.pathname).toBe('/superadmin/projects');
  });

  it('shows the not-found panel for an id that cannot be a project', async () => {
    const api = stubApi({});
    await open('/superadmin/projects/abc');
    await eventually(() => expect(document.querySelector('h1')?.textContent).toBe('Project not found'));
    expect(api.requests).toHaveLength(0);
  });

  it('offers Retry when the project cannot load', async () => {
    const api = server(
      {},
      { [`GET ${BASE}`]: [jsonResponse({ message: 'Server error' }, 500), jsonResponse(NORTH_DETAIL)] },
    );
    await open();
    await eventually(() => expect(text()).toContain('Server error'));
    await click(getControl('Retry'));
    await eventually(() => expect(document.querySelector('h1')?.textContent).toBe('North Clinic'));
    expect(api.calls(`GET ${BASE}`)).toHaveLength(2);
  });

  it('shows an empty members state', async () => {
    server({ members: [] });
    await openLoaded();
    await eventually(() => expect(text(section('Members'))).toContain('No members yet'));
    await click(getControl('Add the first member'));
    await findDialog('Add a member to North Clinic');
  });
});

describe('ProjectPage: editing the project', () => {
  it('sends only the changed details and shows the saved values', async () => {
    const api = server();
    await openLoaded();
    const details = section('Details');
    await typeInto(getField('Facility name', details), '  North Clinic Group ');
    await typeInto(getField('Contact email', details), 'FRONT@north.example');
    await click(getControl('Save details', details));
    await eventually(() => expect(api.calls(`PATCH ${BASE}`)).toHaveLength(1));
    expect(api.calls(`PATCH ${BASE}`)[0]!.body).toEqual({
      facility_name: 'North Clinic Group',
      email: 'front@north.example',
    });
    await eventually(() => expect(toasts()).toContain('Project details saved.'));
    await eventually(() => expect(getField('Facility name', section('Details')).value).toBe('North Clinic Group'));
  });

  it('validates on the client and shows the server field errors inline', async () => {
    const api = server(
      {},
      {
        [`PATCH ${BASE}`]: jsonResponse(
          { message: 'The given data was invalid.', errors: { slug: ['The slug south is taken.'] } },
          422,
        ),
      },
    );
    await openLoaded();
    const details = section('Details');
    await typeInto(getField('Name', details), '   ');
    await typeInto(getField('Contact email', details), 'nope');
    await click(getControl('Save details', details));
    expect(text(details)).toContain('Enter the name.');
    expect(text(details)).toContain('Enter a valid email address.');
    expect(api.calls(`PATCH ${BASE}`)).toHaveLength(0);

    await typeInto(getField('Name', details), 'North Clinic');
    await typeInto(getField('Contact email', details), 'office@north.example');
    await typeInto(getField('Slug', details), 'south');
    await click(getControl('Save details', details));
    await eventually(() => expect(text(section('Details'))).toContain('The slug south is taken.'));
    expect(api.calls(`PATCH ${BASE}`)[0]!.body).toEqual({ slug: 'south' });
    expect(getField('Slug', section('Details')).getAttribute('aria-invalid')).toBe('true');
  });

  it('saves the active apps', async () => {
    const api = server();
    await openLoaded();
    const apps = section('Apps');
    await click(checkbox('Policy Management', apps));
    await click(checkbox('Admin', apps));
    await click(checkbox('Chart Review', apps));
    await click(getControl('Save apps', apps));
    await eventually(() => expect(api.calls(`PATCH ${BASE}`)).toHaveLength(1));
    expect(api.calls(`PATCH ${BASE}`)[0]!.body).toEqual({ active_apps: ['monitoring', 'chart_review', 'admin'] });
    await eventually(() => expect(toasts()).toContain('Active apps saved.'));
    expect(checkbox('Admin', section('Apps')).checked).toBe(true);
  });

  it('asks before deactivating, then deactivates and offers to reactivate', async () => {
    const api = server();
    await openLoaded();
    await click(getControl('Deactivate project', section('Status')));
    let modal = await findDialog('Deactivate North Clinic?');
    expect(text(modal)).toContain('Members lose access at once. Nothing is deleted; you can reactivate it later.');
    await click(getControl('Cancel', modal));
    expect(api.calls(`PATCH ${BASE}`)).toHaveLength(0);

    await click(getControl('Deactivate project', section('Status')));
    modal = await findDialog('Deactivate North Clinic?');
    await click(getControl('Deactivate project', modal));
    await eventually(() => expect(api.calls(`PATCH ${BASE}`)).toHaveLength(1));
    expect(api.calls(`PATCH ${BASE}`)[0]!.body).toEqual({ is_active: false });
    await eventually(() => expect(getControl('Reactivate project', section('Status'))).toBeTruthy());
    expect(text()).toContain('This project is inactive');
    expect(() => getControl('Open apps')).toThrow();
    await eventually(() => expect(toasts()).toContain('Project deactivated.'));

    await click(getControl('Reactivate project', section('Status')));
    await eventually(() => expect(api.calls(`PATCH ${BASE}`)).toHaveLength(2));
    expect(api.calls(`PATCH ${BASE}`)[1]!.body).toEqual({ is_active: true });
    await eventually(() => expect(getControl('Open apps')).toBeTruthy());
  });
});

describe('ProjectPage: logo', () => {
  it('rejects other types and large files before sending', async () => {
    const api = server();
    await openLoaded();
    await chooseFile(new File(['GIF89a'], 'logo.gif', { type: 'image/gif' }));
    expect(text(section('Logo'))).toContain('The logo must be a PNG, JPEG or WebP image.');
    await click(getControl('Upload logo', section('Logo')));
    expect(api.calls(`PUT ${BASE}/logo`)).toHaveLength(0);

    await chooseFile(new File([new Uint8Array(LOGO_MAX_BYTES + 1)], 'big.png', { type: 'image/png' }));
    expect(text(section('Logo'))).toContain('The logo must be at most 512 KB.');
    await click(getControl('Upload logo', section('Logo')));
    expect(api.calls(`PUT ${BASE}/logo`)).toHaveLength(0);
  });

  it('uploads the image as base64 and shows it', async () => {
    const api = server();
    await openLoaded();
    await chooseFile(new File([new Uint8Array([137, 80, 78, 71])], 'logo.png', { type: 'image/png' }));
    expect(section('Logo').querySelector('[aria-invalid="true"]')).toBeNull();
    await click(getControl('Upload logo', section('Logo')));
    await eventually(() => expect(api.calls(`PUT ${BASE}/logo`)).toHaveLength(1));
    expect(api.calls(`PUT ${BASE}/logo`)[0]!.body).toEqual({ content_type: 'image/png', data: 'iVBORw==' });
    await eventually(() => expect(section('Logo').querySelector('img')?.getAttribute('alt')).toBe('North Clinic logo'));
    await eventually(() => expect(toasts()).toContain('Logo uploaded.'));
  });

  it('asks before removing the logo', async () => {
    const api = server({ project: detailOf(NORTH, { logo_url: '/api/projects/12/logo' }) });
    await openLoaded();
    await click(getControl('Remove logo', section('Logo')));
    const modal = await findDialog('Remove the logo?');
    expect(api.calls(`DELETE ${BASE}/logo`)).toHaveLength(0);
    await click(getControl('Remove logo', modal));
    await eventually(() => expect(api.calls(`DELETE ${BASE}/logo`)).toHaveLength(1));
    await eventually(() => expect(text(section('Logo'))).toContain('No logo yet.'));
    expect(section('Logo').querySelector('img')).toBeNull();
  });
});

describe('ProjectPage: members', () => {
  it("edits a member's roles", async () => {
    const api = server();
    await openLoaded();
    await eventually(() => memberRow(41));
    await click(getControl('Edit', memberRow(41)));
    const modal = await findDialog('Edit the roles of Ana Ruiz');
    await pickOption(getField('Project role', modal), 'Project admin');
    await pickOption(getField('Chart review role', modal), 'Reviewer');
    await click(getControl('Save roles', modal));
    await eventually(() => expect(api.calls(`PATCH ${BASE}/members/41`)).toHaveLength(1));
    expect(api.calls(`PATCH ${BASE}/members/41`)[0]!.body).toEqual({
      project_role: 'admin',
      main_roles: { monitoring: null, policy_management: null, chart_review: 'reviewer' },
    });
    await eventually(() => expect(text(memberRow(41))).toContain('Chart review: Reviewer'));
    expect(text(memberRow(41))).toContain('Project admin');
    await eventually(() => expect(toasts()).toContain('Roles of Ana Ruiz saved.'));
  });

  it("shows the server's 409 in a toast when the last admin would be demoted", async () => {
    server(
      {},
      {
        [`PATCH ${BASE}/members/40`]: jsonResponse(
          { message: 'The last project admin cannot be demoted.', code: 'last_admin' },
          409,
        ),
      },
    );
    await openLoaded();
    await eventually(() => memberRow(40));
    await click(getControl('Edit', memberRow(40)));
    const modal = await findDialog('Edit the roles of Sam Lee');
    await pickOption(getField('Project role', modal), 'Member');
    await click(getControl('Save roles', modal));
    await eventually(() => expect(toasts()).toContain('The last project admin cannot be demoted.'));
    expect(text(memberRow(40))).toContain('Project admin');
  });

  it('asks before removing a member, then removes them', async () => {
    const api = server();
    await openLoaded();
    await eventually(() => memberRow(41));
    await click(getControl('Remove', memberRow(41)));
    const modal = await findDialog('Remove Ana Ruiz?');
    expect(text(modal)).toContain('They lose access to North Clinic');
    expect(api.calls(`DELETE ${BASE}/members/41`)).toHaveLength(0);
    await click(getControl('Remove member', modal));
    await eventually(() => expect(api.calls(`DELETE ${BASE}/members/41`)).toHaveLength(1));
    await eventually(() => expect(document.querySelector('tr[data-user-id="41"]')).toBeNull());
    await eventually(() => expect(toasts()).toContain('Ana Ruiz removed from the project.'));
  });

  it("shows the server's 409 in a toast when the last admin would be removed", async () => {
    server(
      {},
      {
        [`DELETE ${BASE}/members/40`]: jsonResponse({ message: 'The last project admin cannot be removed.' }, 409),
      },
    );
    await openLoaded();
    await eventually(() => memberRow(40));
    await click(getControl('Remove', memberRow(40)));
    await click(getControl('Remove member', await findDialog('Remove Sam Lee?')));
    await eventually(() => expect(toasts()).toContain('The last project admin cannot be removed.'));
    expect(memberRow(40)).toBeTruthy();
  });

  it('adds a member picked from a search that leaves out current members', async () => {
    const api = server();
    await openLoaded();
    await eventually(() => memberRow(40));
    await click(getControl('Add member', section('Members')));
    const modal = await findDialog('Add a member to North Clinic');

    await click(getControl('Add member', modal));
    expect(text(modal)).toContain('Pick a user.');
    expect(api.calls(`POST ${BASE}/members`)).toHaveLength(0);

    await typeInto(getField('User', modal), 'sam');
    await eventually(() =>
      expect(api.calls('GET /super/users').some((call) => call.query.get('q') === 'sam')).toBe(true),
    );
    const search = api.calls('GET /super/users').find((call) => call.query.get('q') === 'sam')!;
    expect(search.query.get('page_size')).toBe('20');
    const picker = getField('User', modal);
    await eventually(() => {
      const options = optionsOf(picker).map((option) => option.textContent);
      expect(options).toEqual(['Samira Khan (samira@example.org)']);
    });
    await click(optionsOf(picker)[0]!);
    await pickOption(getField('Project role', modal), 'Project admin');
    await click(getControl('Add member', modal));
    await eventually(() => expect(api.calls(`POST ${BASE}/members`)).toHaveLength(1));
    expect(api.calls(`POST ${BASE}/members`)[0]!.body).toEqual({ user_id: 50, project_role: 'admin', main_roles: {} });
    await eventually(() => memberRow(50));
    await eventually(() => expect(toasts()).toContain('Samira Khan added to the project.'));
  });

  it("shows the server's field error on the user picker", async () => {
    server(
      {},
      {
        [`POST ${BASE}/members`]: jsonResponse(
          { message: 'Already a member.', errors: { user_id: ['This user is already a member of the project.'] } },
          409,
        ),
      },
    );
    await openLoaded();
    await eventually(() => memberRow(40));
    await click(getControl('Add member', section('Members')));
    const modal = await findDialog('Add a member to North Clinic');
    await typeInto(getField('User', modal), 'tom');
    const picker = getField('User', modal);
    const tom = () => optionsOf(picker).find((option) => option.textContent === 'Tom Baker (tom@example.org)');
    await eventually(() => expect(tom()).toBeDefined());
    await click(tom()!);
    await click(getControl('Add member', modal));
    await eventually(() => expect(text(modal)).toContain('This user is already a member of the project.'));
  });
});
