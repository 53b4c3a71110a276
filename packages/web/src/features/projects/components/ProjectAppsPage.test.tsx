import { beforeEach, describe, expect, it } from 'vitest';
import { stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { ALL_APPS, closedApp, portalRoutes, projectBody, usableApp } from '../../../test/portal-stub';
import { renderRoute, text, waitFor } from '../../../test/render';

const cards = () => [...document.querySelectorAll('li[data-app]')].map((card) => card.getAttribute('data-app'));
const explanation = () => document.querySelector<HTMLElement>('[data-testid="apps-not-available"]');
const sentences = () => [...(explanation()?.querySelectorAll('p') ?? [])].map((p) => p.textContent);
const heading = () => document.querySelector('h1')?.textContent;

beforeEach(() => localStorage.clear());

describe('ProjectAppsPage (/member/projects/{id}/apps, issue 32)', () => {
  it('shows cards only for the apps the user can open, and explains the others once, grouped by reason', async () => {
    const api = stubApi(
      portalRoutes({
        myApps: [
          closedApp('monitoring', 'no_role'),
          usableApp('policy_management'),
          closedApp('chart_review', 'no_role'),
          closedApp('standards', 'no_standards_role'),
          closedApp('admin', 'admins_only'),
          usableApp('policy_generator'),
        ],
      }),
    );
    await renderRoute('/member/projects/4/apps');
    await waitFor(() => expect(cards()).toEqual(['policy_management', 'policy_generator']));
    expect(explanation()?.getAttribute('role')).toBe('region');
    expect(text(explanation()!)).toContain('Not available to you');
    expect(sentences()).toEqual([
      'You have no role in Monitoring and Chart Review yet. A project administrator can give you one in Manage Users.',
      'You have no role in Standards yet. A project administrator can give you one in Standards Users.',
      "Admin is only for the project's administrators.",
    ]);
    // No denial is shown for an app the user never opened; one call serves the page and the navigation.
    expect(text()).not.toContain('Access Denied');
    expect(api.calls('GET /api/projects/4/my-apps')).toHaveLength(1);
    expect(api.calls('GET /api/projects/4/active-apps')).toHaveLength(0);
  });

  it('a member who can open nothing is told so, with the reasons, and no card', async () => {
    stubApi(
      portalRoutes({
        myApps: [
          closedApp('monitoring', 'no_role'),
          closedApp('policy_management', 'no_role'),
          closedApp('chart_review', 'no_role'),
          closedApp('standards', 'no_standards_role'),
          closedApp('admin', 'admins_only'),
          closedApp('policy_generator', 'needs_policy_role'),
        ],
      }),
    );
    await renderRoute('/member/projects/4/apps');
    await waitFor(() => expect(explanation()).not.toBeNull());
    expect(cards()).toEqual([]);
    expect(text()).toContain('No app is available to you in this project yet.');
    expect(sentences()).toEqual([
      'You have no role in Monitoring, Policy Management and Chart Review yet. A project administrator can give you one in Manage Users.',
      'You have no role in Standards yet. A project administrator can give you one in Standards Users.',
      "Admin is only for the project's administrators.",
      'Policy Generator needs a role in Policy Management, which you do not have yet. A project administrator can give you one in Manage Users.',
    ]);
  });

  it('no explanation when every active app can be opened', async () => {
    stubApi(portalRoutes({ isAdmin: true, project: projectBody(4, ['monitoring', 'admin']) }));
    await renderRoute('/member/projects/4/apps');
    await waitFor(() => expect(cards()).toEqual(['monitoring', 'admin']));
    expect(explanation()).toBeNull();
  });

  it('a superadmin sees every active app, without asking which they can open', async () => {
    const api = stubApi(portalRoutes({ role: 'superadmin', project: projectBody(4, ALL_APPS) }));
    await renderRoute('/member/projects/4/apps');
    await waitFor(() => expect(cards()).toEqual(ALL_APPS));
    expect(explanation()).toBeNull();
    expect(api.calls('GET /api/projects/4/my-apps')).toHaveLength(0);
  });

  it('shows a loader until the answer comes, and the active apps with a warning when it fails', async () => {
    let answer: (response: Response) => void = () => {};
    let calls = 0;
    const api = stubApi({
      ...portalRoutes(),
      // The first answer waits for the test; any later one is the same server error.
      'GET /api/projects/4/my-apps': () =>
        calls++ === 0
          ? new Promise<Response>((resolve) => (answer = resolve))
          : jsonResponse({ message: 'Server Error' }, 500),
    });
    await renderRoute('/member/projects/4/apps');
    await waitFor(() => expect(api.calls('GET /api/projects/4/my-apps')).toHaveLength(1));
    expect(document.querySelector('[aria-label="Loading the project\'s apps"]')).not.toBeNull();
    expect(cards()).toEqual([]);
    answer(jsonResponse({ message: 'Server Error' }, 500));
    await waitFor(() => expect(heading()).toBe('Lakeside Hospital'), 10_000);
    expect(text()).toContain(
      "The project's current apps could not be loaded; showing the apps known when the project was opened.",
    );
    // The apps known with the project, without Admin for a member: as before the server could say more.
    expect(cards()).toEqual(['monitoring', 'policy_management', 'chart_review', 'standards', 'policy_generator']);
    expect(explanation()).toBeNull();
  });
});
