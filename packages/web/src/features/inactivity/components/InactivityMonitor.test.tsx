import { MESSAGES } from '@portal/shared';
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetSessionChannelForTests } from '../../../lib/session-channel';
import { CONFIG_ALTCHA, SIGNED_OUT_CHECK, signedInCheck, stubApi } from '../../../test/api-stub';
import { stubBroadcastChannel } from '../../../test/broadcast-stub';
import { jsonResponse } from '../../../test/fetch';
import { portalRoutes } from '../../../test/portal-stub';
import { click, getControl, renderRoute, text } from '../../../test/render';

vi.mock('../../../components/Captcha', async () => (await import('../../../test/captcha-stub')).captchaModule);

let tabs: ReturnType<typeof stubBroadcastChannel>;

beforeEach(() => {
  tabs = stubBroadcastChannel();
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date', 'requestAnimationFrame', 'cancelAnimationFrame'] });
});

afterEach(() => {
  vi.useRealTimers();
  resetSessionChannelForTests();
});

async function advance(ms: number) {
  await act(() => vi.advanceTimersByTimeAsync(ms));
}

async function openSignedIn(path = '/member/projects') {
  let signedIn = true;
  const api = stubApi({
    'GET /api/auth/check': () => jsonResponse(signedIn ? signedInCheck('user', 'dana') : SIGNED_OUT_CHECK),
    'GET /api/public/config': jsonResponse({ ...CONFIG_ALTCHA, inactivityTimeoutMinutes: 2 }),
    'GET /api/member/projects': jsonResponse({
      projects: [{ id: 1, name: 'Demo Facility', slug: 'demo', active_apps: [] }],
    }),
    'POST /logout-inactivity': () => {
      signedIn = false;
      return new Response(null, { status: 204 });
    },
  });
  const rendered = await renderRoute(path);
  await advance(50);
  expect(text()).toContain('Demo Facility');
  const endServerSession = () => {
    signedIn = false;
  };
  return { api, endServerSession, ...rendered };
}

describe('InactivityMonitor', () => {
  it('warns with a countdown a minute before, then signs out and says why on the login page', async () => {
    const otherTab = tabs.otherTab();
    const { api, router } = await openSignedIn();

    await advance(59_000);
    expect(text()).not.toContain('due to inactivity');
    await advance(1000);
    // The modal's opening transition.
    await advance(300);
    expect(text()).toContain('You will be signed out in 60 seconds due to inactivity.');
    expect(getControl('Stay signed in')).toBeTruthy();
    await advance(1000);
    expect(text()).toContain('You will be signed out in 59 seconds due to inactivity.');

    // 61.35 s so far; the timeout is 120 s.
    await advance(57_500);
    expect(api.calls('POST /logout-inactivity')).toHaveLength(0);
    await advance(1_300);
    expect(api.calls('POST /logout-inactivity')).toHaveLength(1);
    await advance(50);
    expect(router.state.location.pathname).toBe('/member-login');
    expect(router.state.location.search).toBe('?reason=inactivity');
    expect(text()).toContain(MESSAGES.inactivityLogout);
    expect(otherTab.received).toContainEqual({ type: 'logout', reason: 'inactivity' });
  });

  it("signs out of a project's app page without a stray 'No project context.' toast on the login page", async () => {
    let signedIn = true;
    const api = stubApi({
      ...portalRoutes(),
      'GET /api/auth/check': () => jsonResponse(signedIn ? signedInCheck('user', 'dana') : SIGNED_OUT_CHECK),
      'GET /api/public/config': jsonResponse({ ...CONFIG_ALTCHA, inactivityTimeoutMinutes: 2 }),
      'GET /api/projects/4/chart-review/me': jsonResponse({
        main_role: 'reviewer',
        project_role: 'simple',
        is_superadmin: false,
      }),
      'GET /api/projects/4/chart-review/permissions': jsonResponse({
        rules: [{ path: 'my', allowed_roles: ['reviewer'] }],
      }),
      'GET /api/me/permissions': jsonResponse({ permissions: { 'chart_review:my': true } }),
      'POST /logout-inactivity': () => {
        signedIn = false;
        return new Response(null, { status: 204 });
      },
    });
    const { router } = await renderRoute('/app/chart-review/4/my');
    // The project loaded and its section guard let the reviewer in: the app (a chunk of its own) is on its way.
    const appShown = () =>
      document.querySelector('[aria-label="Loading Chart Review"]') !== null ||
      document.querySelector('h1')?.textContent === 'My reviews';
    for (let i = 0; i < 20 && !appShown(); i++) await advance(50);
    expect(appShown()).toBe(true);
    expect(text()).toContain('Lakeside Hospital');

    await advance(120_000);
    expect(api.calls('POST /logout-inactivity')).toHaveLength(1);
    await advance(50);
    expect(router.state.location.pathname).toBe('/member-login');
    expect(text()).toContain(MESSAGES.inactivityLogout);
    // The app page, left without a project as the session ended, said nothing: no project was missing.
    expect(text()).not.toContain('No project context.');
    expect(text()).not.toContain('Access denied');
  });

  it('"Stay signed in" closes the warning and starts the timer again', async () => {
    const { api } = await openSignedIn();
    await advance(70_000);
    await advance(300);
    expect(text()).toContain('You will be signed out in 50 seconds due to inactivity.');

    await click(getControl('Stay signed in'));
    await advance(500);
    expect(text()).not.toContain('due to inactivity');
    await advance(50_000);
    expect(text()).not.toContain('due to inactivity');
    expect(api.calls('POST /logout-inactivity')).toHaveLength(0);
  });

  it('signs out when another tab signs out', async () => {
    const otherTab = tabs.otherTab();
    const { api, router, endServerSession } = await openSignedIn();
    endServerSession();
    await act(async () => otherTab.post({ type: 'logout' }));
    await advance(50);
    expect(router.state.location.pathname).toBe('/member-login');
    expect(router.state.location.search).toBe('');
    expect(api.calls('POST /logout-inactivity')).toHaveLength(0);
    expect(api.calls('POST /logout')).toHaveLength(0);
    expect(document.querySelector('h1')?.textContent).toBe('Member Login');
    expect(text()).toContain('Username or email');
    expect(text()).not.toContain(MESSAGES.inactivityLogout);
  });

  it('does not run on public pages', async () => {
    const api = stubApi({
      'GET /api/auth/check': jsonResponse(signedInCheck()),
      'GET /api/public/config': jsonResponse({ ...CONFIG_ALTCHA, inactivityTimeoutMinutes: 2 }),
      'GET /api/public/terms-and-conditions': jsonResponse({ content: null, lastUpdated: null }),
    });
    await renderRoute('/terms-and-conditions');
    await advance(5 * 60_000);
    expect(text()).not.toContain('due to inactivity');
    expect(api.calls('POST /logout-inactivity')).toHaveLength(0);
  });
});
