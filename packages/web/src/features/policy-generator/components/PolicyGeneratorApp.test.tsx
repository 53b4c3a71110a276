import { ACCESS_DENIED } from '@portal/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, waitFor } from '../../../test/render';
import { optionsOf, pick } from '../../../test/ui';
import { BASE, generatorRoutes, h2, lookups, openGenerator, PG_API, profile, summary } from './pg-test-fixtures';

afterEach(() => localStorage.clear());

const navLinks = () =>
  [...document.querySelectorAll('nav[aria-label="Policy Generator"] a')].map(
    (link) => `${link.textContent}${link.getAttribute('aria-current') ? ' (current)' : ''}`,
  );
const h1 = () => document.querySelector('h1')?.textContent;

describe('PolicyGeneratorApp', () => {
  it('shows the title, the sections of the current project and moves between them', async () => {
    const api = stubApi(generatorRoutes());
    const router = await openGenerator(BASE);
    await waitFor(() => expect(h2()).toBe('Templates'));
    expect(h1()).toBe('Policy Generator');
    expect(document.title).toContain('Templates | Policy Generator');
    expect(navLinks()).toEqual(['Templates (current)', 'Generated policies', 'Facility profile']);

    await click(getControl('Generated policies'));
    await waitFor(() => expect(h2()).toBe('Generated policies'));
    expect(router.state.location.pathname).toBe(`${BASE}/generated`);
    expect(navLinks()).toEqual(['Templates', 'Generated policies (current)', 'Facility profile']);

    await click(getControl('Facility profile'));
    await waitFor(() => expect(h2()).toBe('Facility profile'));
    expect(navLinks()).toEqual(['Templates', 'Generated policies', 'Facility profile (current)']);
    // The sections are not projects: the project stays the remembered one.
    expect(api.calls(`GET ${PG_API}/profile`).length).toBeGreaterThan(0);
  });

  it('offers only projects with the app in the picker, and picking one makes it the current project', async () => {
    const hilltop = '/api/projects/9/policy-generator';
    const api = stubApi(
      generatorRoutes({
        [`GET ${PG_API}/templates`]: jsonResponse({
          templates: [summary({ id: 1, title: 'Hand hygiene' })],
          can_edit: false,
        }),
        [`GET ${hilltop}/lookups`]: jsonResponse(lookups()),
        [`GET ${hilltop}/profile`]: jsonResponse(profile({ legal_name: 'Hilltop Clinic LLC' })),
        [`GET ${hilltop}/templates`]: jsonResponse({
          templates: [summary({ id: 2, title: 'Fall prevention' })],
          can_edit: false,
        }),
      }),
    );
    const router = await openGenerator(`${BASE}/generated`);
    await waitFor(() => expect(h2()).toBe('Generated policies'));
    await waitFor(() =>
      expect((document.querySelector('input[aria-haspopup]') as HTMLInputElement | null)?.value).toBe(
        'Lakeside Hospital',
      ),
    );
    expect(await optionsOf('Project')).toEqual(['Lakeside Hospital', 'Hilltop Clinic']);

    await pick('Project', 'Hilltop Clinic');
    await waitFor(() => expect(text()).toContain('Fall prevention'));
    expect(localStorage.getItem('portal.lastProjectId')).toBe('9');
    expect(router.state.location.pathname).toBe(BASE);
    expect(text()).not.toContain('Hand hygiene');
    expect(api.calls(`GET ${hilltop}/templates`)).toHaveLength(1);
  });

  it('without a current project, says so and links to the projects', async () => {
    stubApi(generatorRoutes());
    await openGenerator(BASE, null);
    await waitFor(() => expect(text()).toContain('No project is selected'));
    expect(h1()).toBe('Policy Generator');
    expect(getControl('Go to your projects').getAttribute('href')).toBe('/member/projects');
    expect(navLinks()).toEqual([]);
  });

  it('says the app is off for a current project without it', async () => {
    stubApi(generatorRoutes());
    await openGenerator(BASE, '5');
    await waitFor(() => expect(text()).toContain('The Policy Generator is not switched on for Riverside Center'));
    expect(text()).toContain('Choose another project above');
  });

  it('shows the server’s reason when the member may not generate (403)', async () => {
    const api = stubApi(
      generatorRoutes({
        [`GET ${PG_API}/lookups`]: jsonResponse(
          { message: 'Only policy administrators and authors can generate policies.' },
          403,
        ),
      }),
    );
    await openGenerator(BASE);
    await waitFor(() => expect(text()).toContain(ACCESS_DENIED.title));
    expect(document.querySelector('[data-testid="access-denied-reason"]')?.textContent).toBe(
      'Only policy administrators and authors can generate policies.',
    );
    expect(navLinks()).toEqual([]);
    expect(api.calls(`GET ${PG_API}/templates`)).toHaveLength(0);
  });

  it('says the apps are missing when the server answers 404', async () => {
    stubApi(generatorRoutes({ [`GET ${PG_API}/lookups`]: jsonResponse({ message: 'Not found.' }, 404) }));
    await openGenerator(`${BASE}/profile`);
    await waitFor(() => expect(text()).toContain('The Policy Generator is not available'));
  });

  it('shows the not-found page for an unknown section or template id', async () => {
    stubApi(generatorRoutes());
    await openGenerator(`${BASE}/no-such-section`);
    await waitFor(() => expect(h1()).toBe('Page not found'));
    await openGenerator(`${BASE}/templates/abc/generate`);
    await waitFor(() =>
      expect([...document.querySelectorAll('h1')].map((el) => el.textContent)).toContain('Page not found'),
    );
  });
});
