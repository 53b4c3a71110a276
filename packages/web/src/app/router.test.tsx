import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { CONFIG_ALTCHA, SIGNED_OUT_CHECK, signedInCheck, stubApi } from '../test/api-stub';
import { jsonResponse } from '../test/fetch';
import { renderRoute, text, waitFor } from '../test/render';

vi.mock('../components/Captcha', async () => (await import('../test/captcha-stub')).captchaModule);

describe('/ (role-based landing)', () => {
  it('shows a loading screen until the session is known', async () => {
    stubApi({ 'GET /api/auth/check': () => new Promise<Response>(() => {}) });
    const { router } = await renderRoute('/');
    expect(document.querySelector('[role="status"]')?.textContent).toContain('Checking your session');
    expect(router.state.location.pathname).toBe('/');
  });

  it.each([
    ['a signed-out visitor', SIGNED_OUT_CHECK, '/member-login'],
    ['a member', signedInCheck('user'), '/member/projects'],
    ['a superadmin', signedInCheck('superadmin'), '/superadmin'],
  ])('sends %s to %s', async (_who, check, target) => {
    stubApi({
      'GET /api/auth/check': jsonResponse(check),
      'GET /api/public/config': jsonResponse(CONFIG_ALTCHA),
      'GET /api/member/projects': jsonResponse({ projects: [] }),
    });
    const { router } = await renderRoute('/');
    await waitFor(() => expect(router.state.location.pathname).toBe(target));
  });

  it('treats a failed session check as signed out (SPEC section 8)', async () => {
    stubApi({ 'GET /api/auth/check': jsonResponse({ message: 'Server Error' }, 500) });
    const { router } = await renderRoute('/');
    await waitFor(() => expect(router.state.location.pathname).toBe('/member-login'));
  });
});

describe('logged-in routes', () => {
  it.each(['/member/projects', '/two-factor-settings', '/logout-confirm'])(
    'send a signed-out visitor of %s to the login page with a way back',
    async (path) => {
      stubApi({
        'GET /api/auth/check': jsonResponse(SIGNED_OUT_CHECK),
        'GET /api/public/config': jsonResponse(CONFIG_ALTCHA),
      });
      const { router } = await renderRoute(`${path}?tab=1`);
      await waitFor(() => expect(router.state.location.pathname).toBe('/member-login'));
      expect(router.state.location.search).toBe(`?redirect=${encodeURIComponent(`${path}?tab=1`)}`);
      expect(document.querySelector('h1')?.textContent).toBe('Member Login');
    },
  );

  it('render for a signed-in user inside the portal layout', async () => {
    stubApi({
      'GET /api/auth/check': jsonResponse(signedInCheck('user', 'dana')),
      'GET /api/public/config': jsonResponse(CONFIG_ALTCHA),
      'GET /api/member/projects': jsonResponse({ projects: [] }),
    });
    await renderRoute('/member/projects');
    await waitFor(() => expect(document.querySelector('h1')?.textContent).toBe('Your projects'));
    expect(text(document.querySelector('.portal-nav')!)).toContain('dana');
    const links = [...document.querySelectorAll('nav[aria-label="Main"] a')].map((a) => a.getAttribute('href'));
    expect(links).toEqual(['/member/projects', '/logout-confirm']);
  });
});

describe('scrolling', () => {
  it('scrolls smoothly to the top when the path changes, not on the first render', async () => {
    stubApi({
      'GET /api/public/terms-and-conditions': jsonResponse({ content: null, lastUpdated: null }),
      'GET /api/public/config': jsonResponse(CONFIG_ALTCHA),
    });
    const { router } = await renderRoute('/terms-and-conditions');
    expect(window.scrollTo).not.toHaveBeenCalled();

    await act(() => router.navigate('/lost-password'));
    expect(document.querySelector('h1')?.textContent).toBe('Lost password');
    expect(window.scrollTo).toHaveBeenCalledWith({ top: 0, behavior: 'smooth' });
  });

  it('scrolls without animation when the user prefers reduced motion', async () => {
    stubApi({ 'GET /api/public/terms-and-conditions': jsonResponse({ content: null, lastUpdated: null }) });
    vi.spyOn(window, 'matchMedia').mockImplementation(
      (query) => ({ matches: query.includes('reduce'), media: query }) as MediaQueryList,
    );
    const { router } = await renderRoute('/terms-and-conditions');
    await act(() => router.navigate('/somewhere-else'));
    expect(window.scrollTo).toHaveBeenCalledWith({ top: 0, behavior: 'auto' });
  });
});
