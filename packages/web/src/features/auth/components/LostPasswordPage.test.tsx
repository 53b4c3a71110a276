import { MESSAGES } from '@portal/shared';
import { describe, expect, it, vi } from 'vitest';
import { CONFIG_ALTCHA, type StubHandler, stubApi } from '../../../test/api-stub';
import { captchaResets, STUB_PAYLOAD } from '../../../test/captcha-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, getField, renderRoute, text, typeInto, waitFor } from '../../../test/render';

vi.mock('../../../components/Captcha', async () => (await import('../../../test/captcha-stub')).captchaModule);

async function open(forgot: StubHandler) {
  const api = stubApi({ 'GET /api/public/config': jsonResponse(CONFIG_ALTCHA), 'POST /password/forgot': forgot });
  await renderRoute('/lost-password');
  await waitFor(() => getControl('Solve the captcha'));
  return api;
}

describe('LostPasswordPage', () => {
  it('asks for an email and the captcha, with the Get New Password button', async () => {
    const api = await open(jsonResponse({ message: MESSAGES.forgotSent }));
    expect(document.querySelector('h1')?.textContent).toBe('Lost password');
    expect(getField('Email').type).toBe('email');
    expect(getControl('Back to login').getAttribute('href')).toBe('/member-login');

    await click(getControl('Get New Password'));
    expect(text()).toContain('Enter a valid email address.');
    expect(text()).toContain(MESSAGES.captchaRequired);

    await typeInto(getField('Email'), 'not-an-email');
    await click(getControl('Solve the captcha'));
    await click(getControl('Get New Password'));
    expect(text()).toContain('Enter a valid email address.');
    expect(api.calls('POST /password/forgot')).toHaveLength(0);
  });

  it('sends email and captcha and shows the SPEC text on success', async () => {
    const api = await open(jsonResponse({ message: 'anything the server says' }));
    await typeInto(getField('Email'), ' dana@example.com ');
    await click(getControl('Solve the captcha'));
    await click(getControl('Get New Password'));

    await waitFor(() => expect(text()).toContain(MESSAGES.forgotSent));
    expect(api.calls('POST /password/forgot')[0]!.body).toEqual({ email: 'dana@example.com', captcha: STUB_PAYLOAD });
    expect(document.querySelector('form')).toBeNull();
  });

  it("shows the server's message on failure and resets the captcha", async () => {
    await open(jsonResponse({ message: 'The captcha has expired. Please try again.' }, 422));
    await typeInto(getField('Email'), 'dana@example.com');
    await click(getControl('Solve the captcha'));
    captchaResets.mockClear();
    await click(getControl('Get New Password'));

    await waitFor(() => expect(text()).toContain('The captcha has expired. Please try again.'));
    expect(captchaResets).toHaveBeenCalledTimes(1);
    expect(text()).not.toContain(MESSAGES.forgotSent);
  });

  it.each([
    ['an answer without a message', () => Promise.resolve(jsonResponse({}, 500))],
    ['no answer', () => Promise.reject(new TypeError('Failed to fetch'))],
  ])("falls back to 'Something went wrong.' for %s", async (_case, answer) => {
    await open(answer);
    await typeInto(getField('Email'), 'dana@example.com');
    await click(getControl('Solve the captcha'));
    await click(getControl('Get New Password'));
    await waitFor(() => expect(text()).toContain(MESSAGES.forgotFailed));
  });
});
