import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetSessionChannelForTests } from '../../../lib/session-channel';
import { CONFIG_ALTCHA, SIGNED_OUT_CHECK, signedInCheck, stubApi } from '../../../test/api-stub';
import { stubBroadcastChannel } from '../../../test/broadcast-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, getField, renderRoute, text, waitFor } from '../../../test/render';

vi.mock('../../../components/Captcha', async () => (await import('../../../test/captcha-stub')).captchaModule);

let tabs: ReturnType<typeof stubBroadcastChannel>;
beforeEach(() => {
  tabs = stubBroadcastChannel();
});
afterEach(() => {
  resetSessionChannelForTests();
});

function server(logout: Response) {
  let signedIn = true;
  return stubApi({
    'GET /api/auth/check': () => jsonResponse(signedIn ? signedInCheck() : SIGNED_OUT_CHECK),
    'GET /api/public/config': jsonResponse(CONFIG_ALTCHA),
    'GET /api/member/projects': jsonResponse({ projects: [] }),
    'POST /logout': () => {
      if (logout.ok) signedIn = false;
      return logout.clone();
    },
  });
}

describe('LogoutConfirmPage', () => {
  it('asks first, then logs out, tells the other tabs and goes to the login page', async () => {
    const otherTab = tabs.otherTab();
    localStorage.setItem('mfa_setup_required', 'true');
    const api = server(new Response(null, { status: 204 }));
    const { router } = await renderRoute('/logout-confirm');
    await waitFor(() => expect(text()).toContain('Do you want to log out?'));
    expect(api.calls('POST /logout')).toHaveLength(0);

    await click(getControl('Log out', document.querySelector('main')!));
    await waitFor(() => expect(router.state.location.pathname).toBe('/member-login'));
    expect(router.state.location.search).toBe('');
    expect(api.calls('POST /logout')).toHaveLength(1);
    await waitFor(() => getField('Username or email'));
    expect(otherTab.received).toEqual([{ type: 'logout' }]);
    expect(localStorage.getItem('mfa_setup_required')).toBeNull();
  });

  it('goes back on Cancel', async () => {
    const api = server(new Response(null, { status: 204 }));
    const { router } = await renderRoute('/member/projects');
    await waitFor(() => expect(text()).toContain('Your projects'));
    await act(() => router.navigate('/logout-confirm'));
    await waitFor(() => getControl('Cancel'));
    await click(getControl('Cancel'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/member/projects'));
    expect(api.calls('POST /logout')).toHaveLength(0);
  });

  it('stays and says so when the logout fails', async () => {
    server(jsonResponse({ message: 'Server Error' }, 500));
    const { router } = await renderRoute('/logout-confirm');
    await waitFor(() => getControl('Cancel'));
    await click(getControl('Log out', document.querySelector('main')!));
    await waitFor(() => expect(text()).toContain('Server Error'));
    expect(router.state.location.pathname).toBe('/logout-confirm');
  });

  it('treats a session the server already ended as logged out', async () => {
    server(jsonResponse({ message: 'Unauthenticated.' }, 401));
    const { router } = await renderRoute('/logout-confirm');
    await waitFor(() => getControl('Cancel'));
    await click(getControl('Log out', document.querySelector('main')!));
    await waitFor(() => expect(router.state.location.pathname).toBe('/member-login'));
  });
});
