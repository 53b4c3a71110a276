import { describe, expect, it } from 'vitest';
import { CONFIG_ALTCHA, signedInCheck, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, getField, renderRoute, text, typeInto, waitFor } from '../../../test/render';

function server(projects: unknown, role: 'user' | 'superadmin' = 'user') {
  return stubApi({
    'GET /api/auth/check': jsonResponse(signedInCheck(role)),
    'GET /api/public/config': jsonResponse(CONFIG_ALTCHA),
    // A superadmin's /api/member/projects lists every active project (the paged /super/projects is the console's).
    'GET /api/member/projects': Array.isArray(projects) ? (projects as Response[]) : (projects as Response),
    'GET /super/notifications/': jsonResponse({ notifications: [] }),
    // A member's bell here lists their notifications across projects.
    'GET /api/notifications/': jsonResponse({ notifications: [] }),
  });
}

const project = (id: number, name: string, active_apps: string[] = []) => ({ id, name, slug: `p${id}`, active_apps });
const cards = () =>
  [...document.querySelectorAll('li[data-project]')].map((card) => [
    card.querySelector('[data-testid="project-name"]')?.textContent,
    card.querySelector('[data-testid="project-id"]')?.textContent,
    card.querySelector('a')?.getAttribute('href'),
  ]);

describe('MemberProjectsPage', () => {
  it("shows the user's projects as cards by name, with id, apps and a link to the project's apps", async () => {
    server(
      jsonResponse({
        projects: [
          project(12, 'Riverside Clinic', ['monitoring']),
          project(1, 'Demo Facility', ['policy_management', 'chart_review']),
        ],
      }),
    );
    await renderRoute('/member/projects');
    await waitFor(() => expect(cards()).toHaveLength(2));
    expect(cards()).toEqual([
      ['Demo Facility', 'ID 1', '/member/projects/1/apps'],
      ['Riverside Clinic', 'ID 12', '/member/projects/12/apps'],
    ]);
    expect(text(document.querySelector('li[data-project="1"]')!)).toContain('Policy ManagementChart Review');
    expect(document.querySelector('input')).toBeNull();
    expect(document.title).toBe('Projects | Healthcare Quality Portal');
  });

  it('offers a search field once there are more than 6 projects', async () => {
    server(
      jsonResponse({
        projects: Array.from({ length: 7 }, (_, i) => project(i + 1, `Clinic ${String.fromCharCode(65 + i)}`)),
      }),
    );
    await renderRoute('/member/projects');
    await waitFor(() => expect(cards()).toHaveLength(7));
    await typeInto(getField('Search projects'), 'clinic c');
    expect(cards().map((c) => c[0])).toEqual(['Clinic C']);
    await typeInto(getField('Search projects'), '5');
    expect(cards().map((c) => c[0])).toEqual(['Clinic E']);
  });

  it('lists every active project for a superadmin (GET /api/member/projects)', async () => {
    const api = server(jsonResponse({ projects: [project(3, 'Hilltop')] }), 'superadmin');
    await renderRoute('/member/projects');
    await waitFor(() => expect(cards()).toHaveLength(1));
    expect(api.calls('GET /api/member/projects')).toHaveLength(1);
  });

  it('says so when the user has no project', async () => {
    server(jsonResponse({ projects: [] }));
    await renderRoute('/member/projects');
    await waitFor(() => expect(text()).toContain('You are not a member of any project yet.'));
  });

  it('offers to try again when the list cannot be loaded', async () => {
    server([jsonResponse({ message: 'Server Error' }, 500), jsonResponse({ projects: [project(3, 'Lakeside')] })]);
    await renderRoute('/member/projects');
    await waitFor(() => expect(text()).toContain('Your projects could not be loaded.'));
    await click(getControl('Try again'));
    await waitFor(() => expect(text()).toContain('Lakeside'));
  });
});
