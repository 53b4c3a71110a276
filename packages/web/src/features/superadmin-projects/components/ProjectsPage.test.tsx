import type { SuperProjectRow } from '@portal/shared';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { type StubHandler, type StubRequest, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, getField, render, text, typeInto } from '../../../test/render';
import { ProjectsPage } from './ProjectsPage';
import { detailOf, eventually, findDialog, NORTH, pickOption, SOUTH, toasts } from './test-helpers';

/** A tiny server keeping the projects, filtering and paging them like GET /super/projects. */
function server(initial: SuperProjectRow[], routes: Record<string, StubHandler | StubHandler[]> = {}) {
  const projects = [...initial];
  const list = (request: StubRequest) => {
    const q = (request.query.get('q') ?? '').toLowerCase();
    const status = request.query.get('status') ?? 'all';
    const page = Number(request.query.get('page') ?? 1);
    const size = Number(request.query.get('page_size') ?? 25);
    const found = projects.filter(
      (project) =>
        (!q || project.name.toLowerCase().includes(q) || project.slug.includes(q)) &&
        (status === 'all' || (status === 'active') === project.is_active),
    );
    return jsonResponse({
      projects: found.slice((page - 1) * size, page * size),
      total: found.length,
      page,
      page_size: size,
    });
  };
  const create = (request: StubRequest) => {
    const body = request.body as SuperProjectRow;
    const row: SuperProjectRow = {
      ...body,
      id: 99,
      is_active: true,
      member_count: 0,
      created_at: '2026-03-10T09:00:00Z',
    };
    projects.push(row);
    return jsonResponse(detailOf(row, { address: '', phone: '', email: '' }), 201);
  };
  return stubApi({ 'GET /super/projects': list, 'POST /super/projects': create, ...routes });
}

async function open(path = '/superadmin/projects') {
  const router = createMemoryRouter(
    [
      { path: '/superadmin/projects', element: <ProjectsPage /> },
      { path: '/superadmin/projects/:id', element: <p>Project page</p> },
    ],
    { initialEntries: [path] },
  );
  await render(<RouterProvider router={router} />);
  await eventually(() => expect(document.querySelector('h1')?.textContent).toBe('Projects'));
  return router;
}

function row(id: number): HTMLElement {
  const element = document.querySelector<HTMLElement>(`tr[data-project-id="${id}"]`);
  if (!element) throw new Error(`no row ${id}`);
  return element;
}

function many(count: number): SuperProjectRow[] {
  return Array.from({ length: count }, (_, index) => ({
    ...NORTH,
    id: 100 + index,
    name: `Project ${String(index + 1).padStart(2, '0')}`,
    slug: `project-${index + 1}`,
  }));
}

describe('ProjectsPage: list', () => {
  it('lists the projects with slug, facility, apps, members, status and creation date', async () => {
    const api = server([NORTH, SOUTH]);
    await open();
    await eventually(() => row(12));
    expect(document.title).toContain('Projects');

    const link = row(12).querySelector('a')!;
    expect(link.textContent).toBe('North Clinic');
    expect(link.getAttribute('href')).toBe('/superadmin/projects/12');
    expect(text(row(12))).toContain('north-clinic');
    expect(text(row(12))).toContain('North Clinic Inc.');
    expect(text(row(12))).toContain('Monitoring');
    expect(text(row(12))).toContain('Policy Management');
    expect(text(row(12))).toContain('14');
    expect(text(row(12))).toContain('Active');
    expect(text(row(12))).toContain('Jan 15, 2026');
    expect(text(row(13))).toContain('Inactive');
    expect(text(row(13))).toContain('None');
    expect(text()).toContain('Showing 1–2 of 2 projects');

    const request = api.calls('GET /super/projects')[0]!;
    expect(request.query.get('status')).toBe('all');
    expect(request.query.get('page')).toBe('1');
    expect(request.query.get('page_size')).toBe('25');
    expect(request.query.has('q')).toBe(false);
  });

  it('searches once typing pauses and keeps the search in the address', async () => {
    const api = server([NORTH, SOUTH]);
    const router = await open();
    await eventually(() => row(13));
    await typeInto(getField('Search'), 'north');
    // Not sent on every key press.
    expect(api.calls('GET /super/projects').some((call) => call.query.get('q') === 'north')).toBe(false);
    await eventually(() => expect(router.state.location.search).toBe('?q=north'));
    await eventually(() => expect(document.querySelector('tr[data-project-id="13"]')).toBeNull());
    expect(row(12)).toBeTruthy();
    expect(api.calls('GET /super/projects').at(-1)!.query.get('q')).toBe('north');
  });

  it('filters by status from the address and from the Status field', async () => {
    const api = server([NORTH, SOUTH]);
    const router = await open('/superadmin/projects?status=inactive');
    await eventually(() => row(13));
    expect(document.querySelector('tr[data-project-id="12"]')).toBeNull();
    expect(getField('Status').value).toBe('Inactive');
    expect(api.calls('GET /super/projects')[0]!.query.get('status')).toBe('inactive');

    await pickOption(getField('Status'), 'Active');
    await eventually(() => row(12));
    expect(router.state.location.search).toBe('?status=active');
    expect(api.calls('GET /super/projects').at(-1)!.query.get('status')).toBe('active');
  });

  it('says when no project matches and clears the filters', async () => {
    const api = server([NORTH]);
    const router = await open('/superadmin/projects?q=zzz&status=inactive');
    await eventually(() => expect(text()).toContain('No projects match your filters'));
    expect(getField('Search').value).toBe('zzz');
    await click(getControl('Clear filters'));
    await eventually(() => row(12));
    expect(router.state.location.search).toBe('');
    expect(getField('Search').value).toBe('');
    const last = api.calls('GET /super/projects').at(-1)!;
    expect(last.query.has('q')).toBe(false);
    expect(last.query.get('status')).toBe('all');
  });

  it('invites to create the first project when there is none', async () => {
    server([]);
    await open();
    await eventually(() => expect(text()).toContain('No projects yet'));
    expect(text()).not.toContain('Clear filters');
    await click(getControl('Create the first project'));
    expect(getField('Name', await findDialog('New project'))).toBeTruthy();
  });

  it('pages through the projects', async () => {
    const api = server(many(30));
    const router = await open();
    await eventually(() => expect(text()).toContain('Showing 1–25 of 30 projects'));
    await click(document.querySelector<HTMLElement>('button[aria-label="Page 2"]')!);
    await eventually(() => expect(text()).toContain('Showing 26–30 of 30 projects'));
    expect(router.state.location.search).toBe('?page=2');
    expect(api.calls('GET /super/projects').at(-1)!.query.get('page')).toBe('2');
    expect(text()).toContain('Project 26');
  });

  it('shows an error with Retry when the list cannot load', async () => {
    const api = server([NORTH], {
      'GET /super/projects': [jsonResponse({ message: 'Server error' }, 500), (request) => listOk(request)],
    });
    await open();
    await eventually(() => expect(text()).toContain('Server error'));
    await click(getControl('Retry'));
    await eventually(() => row(12));
    expect(api.calls('GET /super/projects')).toHaveLength(2);
  });
});

function listOk(_request: StubRequest): Response {
  return jsonResponse({ projects: [NORTH], total: 1, page: 1, page_size: 25 });
}

describe('ProjectsPage: new project', () => {
  it('suggests the slug from the name, validates, creates and opens the project', async () => {
    const api = server([NORTH]);
    const router = await open();
    await eventually(() => row(12));
    await click(getControl('New project'));
    const modal = await findDialog('New project');

    await click(getControl('Create project', modal));
    expect(text(modal)).toContain('Enter the name.');
    expect(api.calls('POST /super/projects')).toHaveLength(0);

    await typeInto(getField('Name', modal), "St. Mary's Clínica  West");
    expect(getField('Slug', modal).value).toBe('st-marys-clinica-west');
    await typeInto(getField('Facility name', modal), 'St. Mary Health');
    await typeInto(getField('Contact email', modal), 'not-an-email');
    await click(getField('Standards', modal));
    await click(getField('Monitoring', modal));
    await click(getControl('Create project', modal));
    expect(text(modal)).toContain('Enter a valid email address.');
    expect(api.calls('POST /super/projects')).toHaveLength(0);

    await typeInto(getField('Contact email', modal), 'Office@StMary.example');
    await click(getControl('Create project', modal));
    await eventually(() => expect(router.state.location.pathname).toBe('/superadmin/projects/99'));
    expect(api.calls('POST /super/projects')[0]!.body).toEqual({
      name: "St. Mary's Clínica  West",
      slug: 'st-marys-clinica-west',
      facility_name: 'St. Mary Health',
      address: '',
      phone: '',
      email: 'office@stmary.example',
      active_apps: ['monitoring', 'standards'],
    });
    await eventually(() => expect(toasts()).toContain(`Project "St. Mary's Clínica  West" created.`));
  });

  it('stops following the name once the slug is typed', async () => {
    server([NORTH]);
    await open();
    await eventually(() => row(12));
    await click(getControl('New project'));
    const modal = await findDialog('New project');
    await typeInto(getField('Name', modal), 'East');
    expect(getField('Slug', modal).value).toBe('east');
    await typeInto(getField('Slug', modal), 'east_wing');
    await typeInto(getField('Name', modal), 'East Wing Clinic');
    expect(getField('Slug', modal).value).toBe('east_wing');
    await typeInto(getField('Slug', modal), 'bad slug!');
    await click(getControl('Create project', modal));
    expect(text(modal)).toContain('The slug is 1 to 50 letters, digits, underscores or hyphens.');
  });

  it("shows the server's 409 on the slug field", async () => {
    const api = server([NORTH], {
      'POST /super/projects': jsonResponse(
        { message: 'This slug is taken.', code: 'conflict', errors: { slug: ['The slug north-clinic is taken.'] } },
        409,
      ),
    });
    await open();
    await eventually(() => row(12));
    await click(getControl('New project'));
    const modal = await findDialog('New project');
    await typeInto(getField('Name', modal), 'North Clinic');
    await click(getControl('Create project', modal));
    await eventually(() => expect(text(modal)).toContain('The slug north-clinic is taken.'));
    expect(api.calls('POST /super/projects')).toHaveLength(1);
    expect(getField('Slug', modal).getAttribute('aria-invalid')).toBe('true');
  });
});
