import { MESSAGES } from '@portal/shared';
import { act } from 'react';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { resetSessionChannelForTests } from '../../../lib/session-channel';
import {
  CONFIG_ALTCHA,
  CONFIG_NO_CAPTCHA,
  SIGNED_OUT_CHECK,
  type StubHandler,
  signedInCheck,
  signInRoutes,
  stubApi,
} from '../../../test/api-stub';
import { stubBroadcastChannel } from '../../../test/broadcast-stub';
import { captchaResets, STUB_PAYLOAD } from '../../../test/captcha-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, flush, getControl, getField, renderRoute, text, typeInto, waitFor } from '../../../test/render';

vi.mock('../../../components/Captcha', async () => (await import('../../../test/captcha-stub')).captchaModule);

const USER = {
  id: 7,
  username: 'dana',
  email: 'dana@example.com',
  role: 'user',
  first_name: 'Dana',
  last_name: 'Reyes',
  two_factor_confirmed_at: null,
};

function server(extra: Record<string, StubHandler | StubHandler[]> = {}) {
  return stubApi({
    ...signInRoutes(CONFIG_ALTCHA),
    ...extra,
  });
}

async function openLogin(path = '/member-login') {
  const rendered = await renderRoute(path);
  await waitFor(() => getField('Username or email'));
  return rendered;
}

async function fill(email: string, password = 'Kx7#qPv9!mZt2$Lw') {
  await typeInto(getField('Username or email'), email);
  await typeInto(getField('Password'), password);
}

async function submit() {
  await click(getControl('Log in'));
}

function alerts(): string[] {
  return [...document.querySelectorAll('[role="alert"]')].map((element) => text(element).trim());
}

afterEach(() => {
  vi.useRealTimers();
  localStorage.clear();
});

describe('LoginPage: the credentials step', () => {
  it('shows the fields, the captcha from the public config and the links', async () => {
    server();
    await openLogin();
    expect(document.querySelector('h1')?.textContent).toBe('Member Login');
    expect(document.title).toBe('Member Login | Healthcare Quality Portal');
    expect(getField('Password').type).toBe('password');
    await waitFor(() =>
      expect(document.querySelector('[data-testid="captcha"]')?.getAttribute('data-challenge-url')).toBe(
        '/api/public/captcha/challenge',
      ),
    );
    expect(getControl('Forgot your password?').getAttribute('href')).toBe('/lost-password');
    expect(getControl('Terms and Conditions').getAttribute('href')).toBe('/terms-and-conditions');
    expect(document.querySelector('input[type="checkbox"]')).toBeNull();
  });

  it('asks for the captcha before sending anything', async () => {
    const api = server();
    await openLogin();
    await waitFor(() => getControl('Solve the captcha'));
    await fill('dana@example.com');
    await submit();

    expect(alerts()).toContain(MESSAGES.captchaRequired);
    expect(api.calls('POST /login')).toHaveLength(0);
  });

  it("takes a field's message away as soon as the field is filled, not at the next submit", async () => {
    server();
    await openLogin();
    await submit();
    expect(text()).toContain('Enter your email or username.');
    expect(text()).toContain('Enter your password.');
    await typeInto(getField('Username or email'), 'dana@example.com');
    expect(text()).not.toContain('Enter your email or username.');
    expect(text()).toContain('Enter your password.');
    await typeInto(getField('Password'), 'Kx7#qPv9!mZt2$Lw');
    expect(text()).not.toContain('Enter your password.');
  });

  it('sends email, password and the captcha payload as g-recaptcha-response', async () => {
    const otherTab = stubBroadcastChannel().otherTab();
    onTestFinished(() => resetSessionChannelForTests());
    const api = server({ 'POST /login': jsonResponse({ user: USER }) });
    const { router } = await openLogin();
    await waitFor(() => getControl('Solve the captcha'));
    await fill('  dana@example.com ');
    await click(getControl('Solve the captcha'));
    await submit();

    await waitFor(() => expect(router.state.location.pathname).toBe('/member/projects'));
    const [login] = api.calls('POST /login');
    expect(login!.body).toEqual({
      email: 'dana@example.com',
      password: 'Kx7#qPv9!mZt2$Lw',
      'g-recaptcha-response': STUB_PAYLOAD,
    });
    expect(login!.headers.get('X-XSRF-TOKEN')).toBe('test-token');
    expect(localStorage.getItem('mfa_setup_required')).toBeNull();
    // The session was asked again after the login, so the guarded page saw it at once.
    expect(api.calls('GET /api/auth/check').length).toBeGreaterThanOrEqual(2);
    expect(otherTab.received).toEqual([{ type: 'login' }]);
  });

  it('needs no captcha when the server turned it off', async () => {
    const api = server({
      'GET /api/public/config': jsonResponse(CONFIG_NO_CAPTCHA),
      'POST /login': jsonResponse({ user: USER }),
    });
    const { router } = await openLogin();
    await flush();
    expect(document.querySelector('[data-testid="captcha"]')).toBeNull();
    await fill('dana');
    await submit();
    await waitFor(() => expect(router.state.location.pathname).toBe('/member/projects'));
    expect(api.calls('POST /login')[0]!.body).toEqual({ email: 'dana', password: 'Kx7#qPv9!mZt2$Lw' });
  });

  it("shows the server's message and resets the captcha after a failed attempt", async () => {
    const api = server({
      'POST /login': jsonResponse({ message: MESSAGES.invalidCredentials }, 422),
    });
    await openLogin();
    await waitFor(() => getControl('Solve the captcha'));
    await fill('dana@example.com', 'wrong');
    await click(getControl('Solve the captcha'));
    captchaResets.mockClear();
    await submit();

    await waitFor(() => expect(alerts()).toContain(MESSAGES.invalidCredentials));
    expect(captchaResets).toHaveBeenCalledTimes(1);
    expect(getField('Password').value).toBe('');

    // The used solution is gone: trying again without a new one asks for the captcha.
    await typeInto(getField('Password'), 'again');
    await submit();
    expect(alerts()).toContain(MESSAGES.captchaRequired);
    expect(api.calls('POST /login')).toHaveLength(1);
  });

  it.each([
    ['a body without a message', () => Promise.resolve(jsonResponse({}, 422))],
    ['no answer at all', () => Promise.reject(new TypeError('Failed to fetch'))],
  ])("falls back to 'Login failed' for %s", async (_case, answer) => {
    server({ 'POST /login': answer });
    await openLogin();
    await waitFor(() => getControl('Solve the captcha'));
    await fill('dana@example.com');
    await click(getControl('Solve the captcha'));
    await submit();
    await waitFor(() => expect(alerts()).toContain(MESSAGES.loginFailed));
  });

  it('shows the throttling message of a 429 as it is', async () => {
    const message = 'Too many login attempts. Please try again in 14 minutes.';
    server({ 'POST /login': jsonResponse({ message }, 429) });
    await openLogin();
    await waitFor(() => getControl('Solve the captcha'));
    await fill('dana@example.com');
    await click(getControl('Solve the captcha'));
    await submit();
    await waitFor(() => expect(alerts()).toContain(message));
  });

  it('shows why the user was signed out after inactivity', async () => {
    server();
    await openLogin('/member-login?reason=inactivity');
    expect(text()).toContain(MESSAGES.inactivityLogout);
  });

  it('does not show the inactivity message otherwise', async () => {
    server();
    await openLogin();
    expect(text()).not.toContain(MESSAGES.inactivityLogout);
  });
});

describe('LoginPage: the terms checkbox', () => {
  it.each(['needs_initial_acceptance', 'needs_update_acceptance'])(
    'is shown and required for %s, with a link to the terms',
    async (status) => {
      const api = server({
        'GET /check-terms': jsonResponse({ status }),
        'POST /login': jsonResponse({ user: USER }),
      });
      const { router } = await openLogin();
      await waitFor(() => getControl('Solve the captcha'));
      await fill('dana@example.com');
      await waitFor(() => expect(document.querySelector('input[type="checkbox"]')).not.toBeNull(), 3000);
      const link = [...document.querySelectorAll('label a')].find((a) => a.textContent?.includes('terms'));
      expect(link?.getAttribute('href')).toBe('/terms-and-conditions');
      // Asked again only because the terms changed: the form says so.
      const changed = 'The terms and conditions have changed since you last accepted them.';
      if (status === 'needs_update_acceptance') expect(text()).toContain(changed);
      else expect(text()).not.toContain(changed);

      await click(getControl('Solve the captcha'));
      await submit();
      expect(text()).toContain(MESSAGES.termsRequired);
      expect(api.calls('POST /login')).toHaveLength(0);

      await click(document.querySelector<HTMLInputElement>('input[type="checkbox"]')!);
      await submit();
      await waitFor(() => expect(router.state.location.pathname).toBe('/member/projects'));
      expect(api.calls('POST /login')[0]!.body).toMatchObject({ accept_terms: true });
    },
  );

  it.each(['accepted', 'not_found'])('stays hidden for %s', async (status) => {
    const api = server({
      'GET /check-terms': jsonResponse({ status }),
      'POST /login': jsonResponse({ user: USER }),
    });
    const { router } = await openLogin();
    await waitFor(() => getControl('Solve the captcha'));
    await fill('dana@example.com');
    await waitFor(() => expect(api.calls('GET /check-terms')).toHaveLength(1), 3000);
    await flush();
    expect(document.querySelector('input[type="checkbox"]')).toBeNull();

    await click(getControl('Solve the captcha'));
    await submit();
    await waitFor(() => expect(router.state.location.pathname).toBe('/member/projects'));
    expect(alerts()).not.toContain(MESSAGES.termsRequired);
    expect(api.calls('POST /login')[0]!.body).not.toHaveProperty('accept_terms');
  });

  it('appears when the server asks for the terms although the lookup could not (a username was typed)', async () => {
    const api = server({
      'POST /login': [jsonResponse({ message: MESSAGES.termsRequired }, 422), jsonResponse({ user: USER })],
    });
    const { router } = await openLogin();
    await waitFor(() => getControl('Solve the captcha'));
    await fill('dana');
    await click(getControl('Solve the captcha'));
    await submit();
    await waitFor(() => expect(document.querySelector('input[type="checkbox"]')).not.toBeNull());
    expect(api.calls('GET /check-terms')).toHaveLength(0);

    await click(document.querySelector<HTMLInputElement>('input[type="checkbox"]')!);
    await typeInto(getField('Password'), 'Kx7#qPv9!mZt2$Lw');
    await click(getControl('Solve the captcha'));
    await submit();
    await waitFor(() => expect(router.state.location.pathname).toBe('/member/projects'));
    expect(api.calls('POST /login')[1]!.body).toMatchObject({ accept_terms: true });
  });

  it('asks /check-terms only for a well-formed email, once, 500 ms after typing stops', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const api = server();
    await renderRoute('/member-login');
    await act(() => vi.advanceTimersByTimeAsync(50));
    const email = getField('Username or email');

    await typeInto(email, 'dana@');
    await typeInto(email, 'dana@example');
    await act(() => vi.advanceTimersByTimeAsync(2000));
    await typeInto(email, 'dana');
    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(api.calls('GET /check-terms')).toHaveLength(0);

    await typeInto(email, 'dana@example.co');
    await act(() => vi.advanceTimersByTimeAsync(300));
    await typeInto(email, 'dana@example.com');
    await act(() => vi.advanceTimersByTimeAsync(499));
    expect(api.calls('GET /check-terms')).toHaveLength(0);

    await act(() => vi.advanceTimersByTimeAsync(1));
    await act(() => vi.advanceTimersByTimeAsync(10));
    const calls = api.calls('GET /check-terms');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.query.get('email')).toBe('dana@example.com');

    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(api.calls('GET /check-terms')).toHaveLength(1);
  });
});

describe('LoginPage: the two-factor step', () => {
  async function reachCodeStep(loginAnswers: StubHandler[]) {
    const api = server({ 'POST /login': [jsonResponse({ two_factor: true }), ...loginAnswers] });
    const rendered = await openLogin();
    await waitFor(() => getControl('Solve the captcha'));
    await fill('dana@example.com');
    await click(getControl('Solve the captcha'));
    await submit();
    await waitFor(() => getField('Authentication code'));
    return { api, ...rendered };
  }

  it('asks for an authentication code, with Verify, and signs in with the same email and no password', async () => {
    const { api, router } = await reachCodeStep([jsonResponse({ user: USER })]);
    expect(document.querySelector('form [name="password"]')).toBeNull();
    expect(document.activeElement).toBe(getField('Authentication code'));

    await typeInto(getField('Authentication code'), '123 456');
    await click(getControl('Verify'));

    await waitFor(() => expect(router.state.location.pathname).toBe('/member/projects'));
    expect(api.calls('POST /login')[1]!.body).toEqual({ email: 'dana@example.com', one_time_password: '123456' });
  });

  it('toggles between the authentication code and a recovery code', async () => {
    const { api, router } = await reachCodeStep([jsonResponse({ user: USER })]);

    await click(getControl('Use a recovery code instead'));
    expect(getField('Recovery code')).toBeTruthy();
    expect(() => getField('Authentication code')).toThrow();

    await click(getControl('Use an authentication code instead'));
    expect(getField('Authentication code')).toBeTruthy();

    await click(getControl('Use a recovery code instead'));
    await typeInto(getField('Recovery code'), ' abcd-efgh-ijkl ');
    await click(getControl('Verify'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/member/projects'));
    expect(api.calls('POST /login')[1]!.body).toEqual({
      email: 'dana@example.com',
      one_time_password: 'abcd-efgh-ijkl',
    });
  });

  it('goes back to the credentials with the login name kept', async () => {
    await reachCodeStep([]);
    await click(getControl('Back'));
    expect(getField('Username or email').value).toBe('dana@example.com');
    expect(getField('Password').value).toBe('');
  });

  it('checks the code format before sending', async () => {
    const { api } = await reachCodeStep([]);
    await typeInto(getField('Authentication code'), '12345');
    await click(getControl('Verify'));
    expect(text()).toContain('Enter the 6-digit code.');
    expect(api.calls('POST /login')).toHaveLength(1);
  });

  it("shows the server's message for a wrong code and lets the user try again", async () => {
    const { router } = await reachCodeStep([
      jsonResponse({ message: MESSAGES.invalidCode }, 422),
      jsonResponse({ user: USER }),
    ]);
    await typeInto(getField('Authentication code'), '000000');
    await click(getControl('Verify'));
    await waitFor(() => expect(alerts()).toContain(MESSAGES.invalidCode));
    expect(getField('Authentication code').value).toBe('');

    await typeInto(getField('Authentication code'), '654321');
    await click(getControl('Verify'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/member/projects'));
  });
});

describe('LoginPage: after signing in', () => {
  async function signIn(path: string, response: unknown) {
    const api = server({ 'POST /login': jsonResponse(response) });
    const rendered = await openLogin(path);
    await waitFor(() => getControl('Solve the captcha'));
    await fill('dana@example.com');
    await click(getControl('Solve the captcha'));
    await submit();
    return { api, ...rendered };
  }

  it('goes back to the page that sent the user to log in', async () => {
    const { router } = await signIn(`/member-login?redirect=${encodeURIComponent('/two-factor-settings?x=1')}`, {
      user: USER,
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/two-factor-settings'));
    expect(router.state.location.search).toBe('?x=1');
  });

  it.each(['//evil.example/x', 'https://evil.example/', '/\\evil.example', 'javascript:alert(1)'])(
    'ignores a redirect to another site (%s)',
    async (redirect) => {
      const { router } = await signIn(`/member-login?redirect=${encodeURIComponent(redirect)}`, { user: USER });
      await waitFor(() => expect(router.state.location.pathname).toBe('/member/projects'));
    },
  );

  it('stores the two-factor setup flag when the server asks for it', async () => {
    const { router } = await signIn('/member-login', { user: USER, setup_two_factor: true });
    await waitFor(() => expect(router.state.location.pathname).toBe('/member/projects'));
    expect(localStorage.getItem('mfa_setup_required')).toBe('true');
  });
});

describe('LoginPage: other tabs', () => {
  afterEach(() => resetSessionChannelForTests());

  it('tells the other tabs about a login, and shows the signed-in panel when another tab logs in', async () => {
    const tabs = stubBroadcastChannel();
    const otherTab = tabs.otherTab();
    let signedIn = false;
    server({
      'GET /api/auth/check': () => jsonResponse(signedIn ? signedInCheck('user', 'dana') : SIGNED_OUT_CHECK),
    });
    await openLogin();

    signedIn = true;
    await act(async () => otherTab.post({ type: 'login' }));
    await waitFor(() => expect(text()).toContain('You are already signed in as dana.'));
  });
});

describe('LoginPage: already signed in', () => {
  it('offers Dashboard and Log out; Log out signs out and shows the form', async () => {
    const api = server({
      'GET /api/auth/check': jsonResponse(signedInCheck('user', 'dana')),
      'POST /logout': new Response(null, { status: 204 }),
    });
    const { router } = await renderRoute('/member-login');
    await waitFor(() => expect(text()).toContain('You are already signed in as dana.'));
    expect(getControl('Dashboard').getAttribute('href')).toBe('/member/projects');
    expect(() => getField('Username or email')).toThrow();

    await click(getControl('Log out'));
    await waitFor(() => getField('Username or email'));
    expect(api.calls('POST /logout')).toHaveLength(1);
    expect(router.state.location.pathname).toBe('/member-login');
  });
});
