import { describe, expect, it } from 'vitest';
import { CONFIG_ALTCHA, signedInCheck, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, renderRoute, text, waitFor } from '../../../test/render';

function server(projects: unknown) {
  return stubApi({
    'GET /api/auth/check': jsonResponse(signedInCheck()),
    'GET /api/public/config': jsonResponse(CONFIG_ALTCHA),
    'GET /api/member/projects': Array.isArray(projects) ? (projects as Response[]) : (projects as Response),
  });
}

describe('MemberProjectsPage', () => {
  it("lists the user's projects by name with their ids", async () => {
    server(
      jsonResponse({
        projects: [
          { id: 12, name: 'Riverside Clinic', slug: 'riverside' },
          { id: 1, name: 'Demo Facility', slug: 'demo' },
        ],
      }),
    );
    await renderRoute('/member/projects');
    await waitFor(() => expect(document.querySelectorAll('tbody tr')).toHaveLength(2));
    const rows = [...document.querySelectorAll('tbody tr')].map((row) =>
      [...row.querySelectorAll('td')].map((cell) => cell.textContent),
    );
    expect(rows).toEqual([
      ['Demo Facility', '1'],
      ['Riverside Clinic', '12'],
    ]);
    expect(document.title).toBe('Projects | Healthcare Quality Portal');
  });

  it('says so when the user has no project', async () => {
    server(jsonResponse({ projects: [] }));
    await renderRoute('/member/projects');
    await waitFor(() => expect(text()).toContain('You are not a member of any project yet.'));
    expect(document.querySelector('table')).toBeNull();
  });

  it('offers to try again when the list cannot be loaded', async () => {
    server([
      jsonResponse({ message: 'Server Error' }, 500),
      jsonResponse({ projects: [{ id: 3, name: 'Lakeside', slug: 'l' }] }),
    ]);
    await renderRoute('/member/projects');
    await waitFor(() => expect(text()).toContain('Your projects could not be loaded.'));
    await click(getControl('Try again'));
    await waitFor(() => expect(text()).toContain('Lakeside'));
  });
});
