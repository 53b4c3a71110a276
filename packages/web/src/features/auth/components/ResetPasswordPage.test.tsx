import { MESSAGES } from '@portal/shared';
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CONFIG_ALTCHA, type StubHandler, stubApi } from '../../../test/api-stub';
import { captchaResets, STUB_PAYLOAD } from '../../../test/captcha-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, flush, getControl, getField, renderRoute, text, typeInto, waitFor } from '../../../test/render';

vi.mock('../../../components/Captcha', async () => (await import('../../../test/captcha-stub')).captchaModule);

const TOKEN = 'a'.repeat(64);
const GOOD = 'Kx7#qPv9!mZt2$Lw';
const resetPath = (token = TOKEN, email = 'dana@example.com') =>
  `/reset-password?${new URLSearchParams({ token, email })}`;

async function open(reset: StubHandler = jsonResponse({ message: 'ok' }), path = resetPath()) {
  const api = stubApi({ 'GET /api/public/config': jsonResponse(CONFIG_ALTCHA), 'POST /password/reset': reset });
  const rendered = await renderRoute(path);
  await waitFor(() => getControl('Solve the captcha'));
  return { api, ...rendered };
}

async function fillPasswords(password: string, confirmation = password) {
  await typeInto(getField('New password'), password);
  await typeInto(getField('Confirm password'), confirmation);
}

afterEach(() => {
  vi.useRealTimers();
});

describe('ResetPasswordPage: the link', () => {
  it.each([
    ['no token', '/reset-password?email=dana%40example.com'],
    ['a short token', resetPath('a'.repeat(63))],
    ['a long token', resetPath('a'.repeat(129))],
    ['a token that is not hex', resetPath('g'.repeat(64))],
    ['no email', `/reset-password?token=${TOKEN}`],
    ['a malformed email', resetPath(TOKEN, 'dana@')],
  ])('shows only the invalid-link message for %s', async (_case, path) => {
    stubApi({ 'GET /api/public/config': jsonResponse(CONFIG_ALTCHA) });
    await renderRoute(path);
    expect(text()).toContain(MESSAGES.resetInvalidLink);
    expect(document.querySelector('form')).toBeNull();
    expect(document.querySelector('input[type="password"]')).toBeNull();
  });

  it.each([
    ['64', 'ab'.repeat(32)],
    ['128', 'F0'.repeat(64)],
  ])('accepts a %s-character hex token and shows the form', async (_length, token) => {
    await open(undefined, resetPath(token));
    expect(text()).not.toContain(MESSAGES.resetInvalidLink);
    expect(getField('New password').type).toBe('password');
    expect(getField('Email').value).toBe('dana@example.com');
    expect(getControl('Update')).toBeTruthy();
  });
});

describe('ResetPasswordPage: the form', () => {
  it('shows a green tick when the passwords match and a red cross when not, in words too', async () => {
    await open();
    const match = () => document.querySelector<HTMLElement>('[data-matches]');
    expect(match()).toBeNull();

    await fillPasswords(GOOD, 'Kx7#');
    expect(match()?.dataset.matches).toBe('false');
    expect(match()?.querySelector('[data-icon="cross"]')).not.toBeNull();
    expect(text(match()!)).toContain('Passwords do not match');

    await typeInto(getField('Confirm password'), GOOD);
    expect(match()?.dataset.matches).toBe('true');
    expect(match()?.querySelector('[data-icon="tick"]')).not.toBeNull();
    expect(text(match()!)).toContain('Passwords match');
    // Read out with the field: the indicator is part of its description.
    const describedBy = getField('Confirm password').getAttribute('aria-describedby') ?? '';
    expect(describedBy.split(' ').some((id) => document.getElementById(id)?.contains(match()!))).toBe(true);
  });

  it('shows the strength label and the unmet requirements', async () => {
    await open();
    await typeInto(getField('New password'), 'abc');
    expect(text()).toMatch(/Password strength: (Very Weak|Weak)/);
    expect(text()).toContain('At least 12 characters');
    expect(text()).toContain('An uppercase letter');

    await typeInto(getField('New password'), GOOD);
    expect(text()).toMatch(/Password strength: (Strong|Very Strong)/);
    expect(text()).not.toContain('At least 12 characters');
  });

  it('checks both fields, the match, the strength and the captcha before sending', async () => {
    const { api } = await open();
    await click(getControl('Update'));
    expect(text()).toContain('Enter a new password.');
    expect(text()).toContain('Confirm your new password.');
    expect(text()).toContain(MESSAGES.captchaRequired);

    await fillPasswords(GOOD, `${GOOD}x`);
    await click(getControl('Solve the captcha'));
    await click(getControl('Update'));
    expect(text()).toContain(MESSAGES.resetMismatch);

    await fillPasswords('short');
    await click(getControl('Update'));
    expect(text()).toContain(
      'Password does not meet security requirements: Password must be at least 12 characters long',
    );
    expect(api.calls('POST /password/reset')).toHaveLength(0);
  });

  it('sends the reset, shows the success text and goes to the login page after 2000 ms', async () => {
    const { api, router } = await open();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    await fillPasswords(GOOD);
    await click(getControl('Solve the captcha'));
    await click(getControl('Update'));
    await act(() => vi.advanceTimersByTimeAsync(10));

    expect(text()).toContain(MESSAGES.resetSuccess);
    expect(api.calls('POST /password/reset')[0]!.body).toEqual({
      token: TOKEN,
      email: 'dana@example.com',
      password: GOOD,
      password_confirmation: GOOD,
      'g-recaptcha-response': STUB_PAYLOAD,
    });

    await act(() => vi.advanceTimersByTimeAsync(1980));
    expect(router.state.location.pathname).toBe('/reset-password');
    await act(() => vi.advanceTimersByTimeAsync(20));
    expect(router.state.location.pathname).toBe('/member-login');
  });

  it.each([
    [
      'the server message',
      jsonResponse({ message: MESSAGES.resetInvalidToken, errors: {} }, 422),
      MESSAGES.resetInvalidToken,
    ],
    [
      'the first item of the first errors list',
      jsonResponse({ errors: { password: ['Password does not meet security requirements: x', 'second'] } }, 422),
      'Password does not meet security requirements: x',
    ],
    ['the first errors value when it is a string', jsonResponse({ errors: { email: 'Bad email' } }, 422), 'Bad email'],
    ["'Reset failed' for a structured answer with neither", jsonResponse({ ok: false }, 422), MESSAGES.resetFailed],
    [
      'the unknown-error text for an unstructured answer',
      new Response('Bad Gateway', { status: 502 }),
      MESSAGES.resetUnknown,
    ],
  ])('on failure shows %s and clears the captcha', async (_case, answer, message) => {
    await open(answer);
    await fillPasswords(GOOD);
    await click(getControl('Solve the captcha'));
    captchaResets.mockClear();
    await click(getControl('Update'));
    await waitFor(() => expect(text()).toContain(message));
    expect(captchaResets).toHaveBeenCalledTimes(1);
    expect(text()).not.toContain(MESSAGES.resetSuccess);
  });

  it('shows the unknown-error text when the server cannot be reached', async () => {
    await open(() => Promise.reject(new TypeError('Failed to fetch')));
    await fillPasswords(GOOD);
    await click(getControl('Solve the captcha'));
    await click(getControl('Update'));
    await waitFor(() => expect(text()).toContain(MESSAGES.resetUnknown));
    await flush();
  });
});
