import { MESSAGES, type PublicIdentityProvider, SSO_ERRORS } from '@portal/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CONFIG_NO_CAPTCHA, type StubHandler, signInRoutes, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, flush, getControl, getField, renderRoute, text, typeInto, waitFor } from '../../../test/render';
import { browserNavigation } from '../sso';

const NORTHWIND: PublicIdentityProvider = {
  slug: 'northwind',
  name: 'Northwind Health',
  kind: 'oidc',
  domains: ['northwind.org'],
  login_url: '/auth/oidc/northwind/login',
  local_passwords_off: false,
};
const LAKESIDE: PublicIdentityProvider = {
  slug: 'lakeside',
  name: 'Lakeside',
  kind: 'oidc',
  domains: ['lakeside.example'],
  login_url: '/auth/oidc/lakeside/login',
  local_passwords_off: true,
};
const USER = {
  id: 7,
  username: 'dana',
  email: 'dana@northwind.org',
  role: 'user',
  first_name: 'Dana',
  last_name: 'Reyes',
  two_factor_confirmed_at: null,
};

function server(
  providers: StubHandler | PublicIdentityProvider[],
  extra: Record<string, StubHandler | StubHandler[]> = {},
) {
  return stubApi({
    ...signInRoutes(CONFIG_NO_CAPTCHA),
    'GET /api/public/identity-providers': Array.isArray(providers) ? jsonResponse({ providers }) : providers,
    ...extra,
  });
}

async function openLogin(path = '/member-login') {
  const rendered = await renderRoute(path);
  await waitFor(() => getField('Username or email'));
  return rendered;
}

function ssoButtons(): HTMLAnchorElement[] {
  return [...document.querySelectorAll<HTMLAnchorElement>('[aria-label="Single sign-on"] a')];
}

function alerts(): string[] {
  return [...document.querySelectorAll('[role="alert"]')].map((element) => text(element).trim());
}

function watchNavigation() {
  return vi.spyOn(browserNavigation, 'assign').mockImplementation(() => {});
}

afterEach(() => {
  vi.restoreAllMocks();
  localStorage.clear();
});

describe('LoginPage: single sign-on buttons', () => {
  it('shows a "Sign in with" button per enabled provider, going to its sign-in with the redirect', async () => {
    server([NORTHWIND, LAKESIDE]);
    await openLogin(`/member-login?redirect=${encodeURIComponent('/two-factor-settings?x=1')}`);
    await waitFor(() => expect(ssoButtons()).toHaveLength(2));
    expect(ssoButtons().map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      [
        'Sign in with Northwind Health',
        `/auth/oidc/northwind/login?redirect=${encodeURIComponent('/two-factor-settings?x=1')}`,
      ],
      ['Sign in with Lakeside', '/auth/oidc/lakeside/login?redirect=%2Ftwo-factor-settings%3Fx%3D1'],
    ]);
    // The password form is all there.
    expect(getField('Password')).toBeTruthy();
    expect(getControl('Log in')).toBeTruthy();
  });

  it('ignores a redirect to another site in the provider link', async () => {
    server([NORTHWIND]);
    await openLogin(`/member-login?redirect=${encodeURIComponent('//evil.example/x')}`);
    await waitFor(() => expect(ssoButtons()).toHaveLength(1));
    expect(ssoButtons()[0]!.getAttribute('href')).toBe('/auth/oidc/northwind/login?redirect=%2Fmember%2Fprojects');
  });

  it.each([
    ['there are none', [] as PublicIdentityProvider[]],
    ['the call fails', jsonResponse({ message: 'Server error' }, 500)],
  ])('shows none and keeps the password form working when %s', async (_case, answer) => {
    const api = server(answer, { 'POST /login': jsonResponse({ user: USER }) });
    const { router } = await openLogin();
    await waitFor(() => expect(api.calls('GET /api/public/identity-providers')).toHaveLength(1));
    await flush();
    expect(ssoButtons()).toHaveLength(0);
    expect(text()).not.toContain('Sign in with');
    expect(alerts()).toEqual([]);
    await typeInto(getField('Username or email'), 'dana');
    await typeInto(getField('Password'), 'Kx7#qPv9!mZt2$Lw');
    await click(getControl('Log in'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/member/projects'));
  });
});

describe('LoginPage: email-domain discovery', () => {
  it("offers the provider that claims the address's domain, keeping the password", async () => {
    server([NORTHWIND, LAKESIDE]);
    const navigate = watchNavigation();
    await openLogin();
    await waitFor(() => expect(ssoButtons()).toHaveLength(2));
    await typeInto(getField('Username or email'), 'dana@example.com');
    expect(text()).not.toContain('Your organisation signs in with');

    await typeInto(getField('Username or email'), 'Dana@NorthWind.org');
    expect(text()).toContain('Your organisation signs in with Northwind Health.');
    expect(getField('Password')).toBeTruthy();
    expect(getControl('Log in')).toBeTruthy();

    await click(getControl('Continue with Northwind Health'));
    expect(navigate).toHaveBeenCalledWith('/auth/oidc/northwind/login?redirect=%2Fmember%2Fprojects');
  });

  it('replaces the password and Log in with "Continue with" when the provider turned local passwords off', async () => {
    const api = server([NORTHWIND, LAKESIDE]);
    const navigate = watchNavigation();
    await openLogin();
    await waitFor(() => expect(ssoButtons()).toHaveLength(2));
    await typeInto(getField('Username or email'), 'sam@lakeside.example');

    expect(text()).toContain('Your organisation signs in with Lakeside.');
    expect(() => getField('Password')).toThrow();
    expect(() => getControl('Log in')).toThrow();
    const next = getControl('Continue with Lakeside');
    expect(next.getAttribute('type')).toBe('submit');

    // Enter in the email field submits the form: it goes to the provider, never to POST /login.
    const form = getField('Username or email').form!;
    await click(next);
    expect(navigate).toHaveBeenCalledTimes(1);
    form.requestSubmit();
    await flush();
    expect(navigate).toHaveBeenCalledTimes(2);
    expect(navigate).toHaveBeenLastCalledWith('/auth/oidc/lakeside/login?redirect=%2Fmember%2Fprojects');
    expect(api.calls('POST /login')).toHaveLength(0);

    // Another address brings the password back.
    await typeInto(getField('Username or email'), 'sam@example.com');
    expect(getField('Password')).toBeTruthy();
    expect(getControl('Log in')).toBeTruthy();
  });
});

describe('LoginPage: back from the identity provider', () => {
  it.each(Object.entries(SSO_ERRORS))('shows the message of ?sso_error=%s', async (key, message) => {
    server([NORTHWIND]);
    await openLogin(`/member-login?sso_error=${key}`);
    expect(alerts()).toContain(message);
  });

  it('shows the general failure for an unknown sso_error', async () => {
    server([NORTHWIND]);
    await openLogin('/member-login?sso_error=%3Cscript%3E');
    expect(alerts()).toEqual([SSO_ERRORS.failed]);
    expect(text()).not.toContain('<script>');
  });

  it('shows no single sign-on message without sso_error', async () => {
    server([NORTHWIND]);
    await openLogin();
    expect(alerts()).toEqual([]);
  });
});

describe('LoginPage: the terms step after a single sign-on', () => {
  async function openTerms(extra: Record<string, StubHandler | StubHandler[]>, path = '/member-login?sso=terms') {
    const api = server([NORTHWIND], extra);
    const rendered = await renderRoute(path);
    await waitFor(() => getControl('Continue'));
    return { api, ...rendered };
  }

  it('asks for the terms, posts the acceptance and goes where the password sign-in would', async () => {
    const { api, router } = await openTerms(
      { 'POST /auth/sso/accept-terms': new Response(null, { status: 204 }) },
      `/member-login?sso=terms&redirect=${encodeURIComponent('/two-factor-settings')}`,
    );
    expect(() => getField('Password')).toThrow();
    const link = [...document.querySelectorAll('label a')].find((a) => a.textContent?.includes('terms'));
    expect(link?.getAttribute('href')).toBe('/terms-and-conditions');

    await click(getControl('Continue'));
    expect(text()).toContain(MESSAGES.termsRequired);
    expect(api.calls('POST /auth/sso/accept-terms')).toHaveLength(0);

    await click(document.querySelector<HTMLInputElement>('input[type="checkbox"]')!);
    await click(getControl('Continue'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/two-factor-settings'));
    const [accept] = api.calls('POST /auth/sso/accept-terms');
    expect(accept!.body).toEqual({ accept_terms: true });
    expect(accept!.headers.get('X-XSRF-TOKEN')).toBe('test-token');
    // The session was asked again, as after a password sign-in.
    expect(api.calls('GET /api/auth/check').length).toBeGreaterThanOrEqual(2);
  });

  it('says the step expired on a 401', async () => {
    await openTerms({ 'POST /auth/sso/accept-terms': jsonResponse({ message: 'Unauthenticated.' }, 401) });
    await click(document.querySelector<HTMLInputElement>('input[type="checkbox"]')!);
    await click(getControl('Continue'));
    await waitFor(() => expect(alerts()).toContain(SSO_ERRORS.expired));
  });

  it('goes on to the two-factor step when the server asks for a code', async () => {
    const { router } = await openTerms({ 'POST /auth/sso/accept-terms': jsonResponse({ two_factor: true }) });
    await click(document.querySelector<HTMLInputElement>('input[type="checkbox"]')!);
    await click(getControl('Continue'));
    await waitFor(() => getField('Authentication code'));
    expect(router.state.location.search).toBe('?sso=two_factor');
  });

  it('Back leaves for the password form', async () => {
    const { router } = await openTerms({});
    await click(getControl('Back'));
    await waitFor(() => getField('Username or email'));
    expect(router.state.location.search).toBe('');
  });
});

describe('LoginPage: the two-factor step after a single sign-on', () => {
  it('asks for the code and posts it to /login without a login name', async () => {
    const api = server([NORTHWIND], { 'POST /login': jsonResponse({ user: USER }) });
    const { router } = await renderRoute('/member-login?sso=two_factor');
    await waitFor(() => getField('Authentication code'));
    expect(() => getField('Username or email')).toThrow();

    await typeInto(getField('Authentication code'), '123456');
    await click(getControl('Verify'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/member/projects'));
    expect(api.calls('POST /login')[0]!.body).toEqual({ one_time_password: '123456' });
  });
});
