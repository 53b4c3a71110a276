import { ACCESS_DENIED } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, waitFor } from '../../../test/render';
import { assessment, BASE, MEMBERS, me, openApp, STD_API, sessionRoutes, tree } from './std-test-fixtures';

const CURRENT = assessment({ id: 8, name: 'Self-assessment 2026' });

function server(ability: ReturnType<typeof jsonResponse>) {
  return stubApi({
    ...sessionRoutes(),
    [`GET ${STD_API}/me`]: ability,
    [`GET ${STD_API}/assessments`]: jsonResponse({ assessments: [CURRENT] }),
    [`GET ${STD_API}/assessments/8/tree`]: jsonResponse(tree(CURRENT)),
    [`GET ${STD_API}/frameworks`]: jsonResponse({ frameworks: [] }),
    [`GET ${STD_API}/members`]: jsonResponse(MEMBERS),
  });
}

const navLinks = () =>
  [...document.querySelectorAll('nav[aria-label="Standards"] a')].map(
    (link) => `${link.textContent}${link.getAttribute('aria-current') ? ' (current)' : ''}`,
  );
const h1 = () => document.querySelector('h1')?.textContent;

describe('StandardsApp', () => {
  it('opens on the compliance page and links the sections the abilities allow', async () => {
    server(jsonResponse(me()));
    const router = await openApp(BASE);
    await waitFor(() => expect(router.state.location.pathname).toBe(`${BASE}/compilence`));
    await waitFor(() => expect(h1()).toBe('Compliance'));
    expect(navLinks()).toEqual(['Compliance (current)', 'Readiness', 'Create', 'Assign users', 'Manage users']);
    expect(document.querySelector('[data-testid="standards-app-title"]')?.textContent).toBe('Standards');

    // The links keep the assessment in view.
    await router.navigate(`${BASE}/compilence?assessment=8`);
    await waitFor(() => expect(getControl('Create').getAttribute('href')).toBe(`${BASE}/create?assessment=8`));
    await click(getControl('Create'));
    await waitFor(() => expect(h1()).toBe('Create an assessment'));
    expect(navLinks()).toEqual(['Compliance', 'Readiness', 'Create (current)', 'Assign users', 'Manage users']);
  });

  it('links only the compliance and readiness pages for a viewer', async () => {
    server(jsonResponse(me('viewer', false)));
    await openApp(`${BASE}/compilence`);
    await waitFor(() => expect(h1()).toBe('Compliance'));
    expect(navLinks()).toEqual(['Compliance (current)', 'Readiness']);
  });

  it('shows the access denial with the server reason when the user has no standards role', async () => {
    const api = server(jsonResponse({ message: 'You do not have a standards role in this project.' }, 403));
    await openApp(`${BASE}/compilence`);
    await waitFor(() => expect(h1()).toBe(ACCESS_DENIED.title));
    expect(document.querySelector('[data-testid="access-denied-reason"]')?.textContent).toBe(
      'You do not have a standards role in this project.',
    );
    expect(text()).toContain('Your role: No role assigned');
    expect(text()).toContain('A standards admin or a project admin can give you a standards role in Manage users.');
    expect(getControl('Back to Dashboard').getAttribute('href')).toBe('/member/projects');
    expect(navLinks()).toEqual([]);
    expect(api.calls(`GET ${STD_API}/assessments`)).toHaveLength(0);
  });

  it('says the app is not available when the project is not the user’s or the app is off (404)', async () => {
    server(jsonResponse({ message: 'Not found.' }, 404));
    await openApp(`${BASE}/compilence`);
    await waitFor(() => expect(h1()).toBe('Standards is not available'));
    expect(text()).toContain('Standards is not switched on for this project');
  });

  it('shows the not-found page for an unknown section', async () => {
    server(jsonResponse(me()));
    await openApp(`${BASE}/no-such-section`);
    await waitFor(() => expect(h1()).toBe('Page not found'));
  });

  it('offers a retry when the access check fails', async () => {
    const api = stubApi({
      ...sessionRoutes(),
      [`GET ${STD_API}/me`]: [jsonResponse({ message: 'The server is busy.' }, 503), jsonResponse(me())],
      [`GET ${STD_API}/assessments`]: jsonResponse({ assessments: [] }),
    });
    await openApp(`${BASE}/compilence`);
    await waitFor(() => expect(text()).toContain('The server is busy.'));
    await click(getControl('Try again'));
    await waitFor(() => expect(h1()).toBe('Compliance'));
    expect(api.calls(`GET ${STD_API}/me`).length).toBeGreaterThanOrEqual(2);
  });
});
