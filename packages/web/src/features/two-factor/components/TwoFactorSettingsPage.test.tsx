import { MESSAGES } from '@portal/shared';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { CONFIG_ALTCHA, type StubHandler, signedInCheck, stubApi, TWO_FACTOR_OFF } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, getField, renderRoute, text, typeInto, waitFor } from '../../../test/render';
import { dialog } from '../../../test/ui';

const OFF = TWO_FACTOR_OFF;
const ON = { ...OFF, enabled: true, confirmed_at: '2026-03-04T10:00:00Z', recovery_codes_remaining: 8 };
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>';
const CODES = ['aaaa-bbbb', 'cccc-dddd', 'eeee-ffff', 'gggg-hhhh'];

function server(routes: Record<string, StubHandler | StubHandler[]>) {
  return stubApi({
    'GET /api/auth/check': jsonResponse(signedInCheck()),
    'GET /api/public/config': jsonResponse(CONFIG_ALTCHA),
    ...routes,
  });
}

async function open() {
  await renderRoute('/two-factor-settings');
  await waitFor(() => expect(text()).toContain('Status'));
}

afterEach(() => {
  localStorage.clear();
});

describe('TwoFactorSettingsPage: setting up', () => {
  it('shows the QR code as an image, the key as text, confirms the code and shows the recovery codes once', async () => {
    localStorage.setItem('mfa_setup_required', 'true');
    const api = server({
      'GET /api/two-factor': [jsonResponse(OFF), jsonResponse(ON)],
      'POST /api/two-factor/enable': jsonResponse({
        secret: 'JBSWY3DPEHPK3PXP',
        otpauth_url: 'otpauth://totp/Portal:dana?secret=JBSWY3DPEHPK3PXP',
        qr_svg: SVG,
      }),
      'POST /api/two-factor/confirm': jsonResponse({ recovery_codes: CODES }),
    });
    await open();
    expect(document.querySelector('h1')?.textContent).toBe('Two-factor authentication');
    expect(text()).toContain('Off');

    await click(getControl('Set up two-factor authentication'));
    await waitFor(() => expect(document.querySelector('img')).not.toBeNull());
    const image = document.querySelector('img')!;
    expect(image.getAttribute('alt')).toBe('QR code for your authenticator app');
    expect(image.getAttribute('src')).toBe(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(SVG)}`);
    // The server's SVG is never put into the page itself.
    expect(document.querySelector('svg[viewBox="0 0 10 10"]')).toBeNull();
    expect(text()).toContain('JBSW Y3DP EHPK 3PXP');

    await typeInto(getField('Authentication code'), '12345');
    await click(getControl('Confirm'));
    expect(text()).toContain('Enter the 6-digit code.');
    expect(api.calls('POST /api/two-factor/confirm')).toHaveLength(0);

    await typeInto(getField('Authentication code'), '123456');
    await click(getControl('Confirm'));
    await waitFor(() => expect(text()).toContain('Your recovery codes'));
    expect(api.calls('POST /api/two-factor/confirm')[0]!.body).toEqual({ code: '123456' });
    const shown = [...document.querySelectorAll('ul[aria-label="Recovery codes"] li')].map((li) => li.textContent);
    expect(shown).toEqual(CODES);
    expect(getControl('Copy')).toBeTruthy();
    expect(localStorage.getItem('mfa_setup_required')).toBeNull();
    await waitFor(() => expect(text()).toContain('On'));

    await click(getControl('I have saved my codes'));
    expect(text()).not.toContain('aaaa-bbbb');
  });

  it('downloads the recovery codes as a text file', async () => {
    server({
      'GET /api/two-factor': jsonResponse(ON),
      'POST /api/two-factor/recovery-codes': jsonResponse({ recovery_codes: CODES }),
    });
    const blobs: Blob[] = [];
    const createObjectURL = vi.fn((blob: Blob) => {
      blobs.push(blob);
      return 'blob:codes';
    });
    // jsdom has no object URLs: lend them for this test only.
    const original = { createObjectURL: URL.createObjectURL, revokeObjectURL: URL.revokeObjectURL };
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    onTestFinished(() => {
      Object.assign(URL, original);
    });
    let downloaded: HTMLAnchorElement | null = null;
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      downloaded = this;
    });

    await open();
    await click(getControl('Regenerate recovery codes'));
    await waitFor(() => dialog());
    await click(getControl('Regenerate', dialog()));
    await waitFor(() => expect(text()).toContain('Your recovery codes'));
    await click(getControl('Download'));

    expect(downloaded!.download).toBe('recovery-codes.txt');
    expect(downloaded!.href).toBe('blob:codes');
    expect(blobs[0]!.type).toBe('text/plain;charset=utf-8');
    const content = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.readAsText(blobs[0]!);
    });
    for (const code of CODES) expect(content).toContain(`${code}\n`);
  });

  it("shows the server's message for a wrong code", async () => {
    server({
      'GET /api/two-factor': jsonResponse(OFF),
      'POST /api/two-factor/enable': jsonResponse({ secret: 'ABCD', otpauth_url: 'otpauth://x', qr_svg: SVG }),
      'POST /api/two-factor/confirm': jsonResponse({ message: MESSAGES.invalidCode }, 422),
    });
    await open();
    await click(getControl('Set up two-factor authentication'));
    await waitFor(() => getField('Authentication code'));
    await typeInto(getField('Authentication code'), '000000');
    await click(getControl('Confirm'));
    await waitFor(() => expect(text()).toContain(MESSAGES.invalidCode));
    expect(text()).not.toContain('Your recovery codes');
  });

  it('says when the role requires two-factor and how many days are left', async () => {
    server({ 'GET /api/two-factor': jsonResponse({ ...OFF, required: true, grace_days_remaining: 3 }) });
    await open();
    expect(text()).toContain('Your role requires two-factor authentication. Set it up within 3 days to keep access.');
  });
});

describe('TwoFactorSettingsPage: managing', () => {
  it('regenerates the recovery codes after a confirmation, asking for the password on 423', async () => {
    const api = server({
      'GET /api/two-factor': jsonResponse(ON),
      'POST /api/two-factor/recovery-codes': [
        jsonResponse({ message: MESSAGES.passwordConfirmationRequired }, 423),
        jsonResponse({ message: 'The provided password is incorrect.' }, 422),
        jsonResponse({ recovery_codes: CODES }),
      ],
    });
    await open();
    expect(text()).toContain('Recovery codes left: 8');

    await click(getControl('Regenerate recovery codes'));
    await waitFor(() => expect(text(dialog())).toContain('the old codes stop working'));
    await click(getControl('Regenerate', dialog()));

    await waitFor(() => expect(text(dialog())).toContain(MESSAGES.passwordConfirmationRequired));
    expect(api.calls('POST /api/two-factor/recovery-codes')[0]!.body).toEqual({});

    await typeInto(getField('Password', dialog()), 'wrong');
    await click(getControl('Confirm', dialog()));
    await waitFor(() => expect(text(dialog())).toContain('The provided password is incorrect.'));

    await typeInto(getField('Password', dialog()), 'Kx7#qPv9!mZt2$Lw');
    await click(getControl('Confirm', dialog()));
    await waitFor(() => expect(text()).toContain('Your recovery codes'));
    expect(api.calls('POST /api/two-factor/recovery-codes')[2]!.body).toEqual({ password: 'Kx7#qPv9!mZt2$Lw' });
  });

  it('does nothing when the confirmation is cancelled', async () => {
    const api = server({ 'GET /api/two-factor': jsonResponse(ON) });
    await open();
    await click(getControl('Disable two-factor authentication'));
    await waitFor(() => dialog());
    await click(getControl('Cancel', dialog()));
    expect(api.calls('DELETE /api/two-factor')).toHaveLength(0);
  });

  it('disables two-factor with DELETE and shows it off', async () => {
    const api = server({
      'GET /api/two-factor': [jsonResponse(ON), jsonResponse(OFF)],
      'DELETE /api/two-factor': new Response(null, { status: 204 }),
    });
    await open();
    await click(getControl('Disable two-factor authentication'));
    await waitFor(() => dialog());
    await click(getControl('Disable', dialog()));
    await waitFor(() => getControl('Set up two-factor authentication'));
    const [call] = api.calls('DELETE /api/two-factor');
    expect(call!.body).toEqual({});
    expect(call!.headers.get('X-XSRF-TOKEN')).toBe('test-token');
  });
});

describe('TwoFactorSettingsPage: confirming it is you (423, issue 29)', () => {
  const PASSWORD = 'Kx7#qPv9!mZt2$Lw';
  const ASKED = jsonResponse(
    {
      message: MESSAGES.passwordConfirmationRequired,
      code: 'PASSWORD_CONFIRMATION_REQUIRED',
      details: { reauthenticate: { password: true, sso: null } },
    },
    423,
  );
  const SETUP = { secret: 'JBSWY3DPEHPK3PXP', otpauth_url: 'otpauth://totp/x', qr_svg: SVG };

  async function confirmWith(password: string) {
    await waitFor(() => expect(text(dialog())).toContain(MESSAGES.passwordConfirmationRequired));
    await typeInto(getField('Password', dialog()), password);
    await click(getControl('Confirm', dialog()));
  }

  it('asks for the password when starting the setup answers 423, then starts it with the password', async () => {
    const api = server({
      'GET /api/two-factor': jsonResponse(OFF),
      'POST /api/two-factor/enable': [ASKED, jsonResponse(SETUP)],
    });
    await open();
    await click(getControl('Set up two-factor authentication'));
    await confirmWith(PASSWORD);
    await waitFor(() => expect(document.querySelector('img')).not.toBeNull());
    const calls = api.calls('POST /api/two-factor/enable');
    expect(calls).toHaveLength(2);
    expect(calls[0]!.body).toBeUndefined();
    expect(calls[1]!.body).toEqual({ password: PASSWORD });
    await waitFor(() => expect(document.querySelector('[role="dialog"]')).toBeNull());
  });

  it('asks again when confirming the code answers 423, then sends the same code with the password', async () => {
    const api = server({
      'GET /api/two-factor': [jsonResponse(OFF), jsonResponse(ON)],
      'POST /api/two-factor/enable': jsonResponse(SETUP),
      'POST /api/two-factor/confirm': [ASKED, jsonResponse({ recovery_codes: CODES })],
    });
    await open();
    await click(getControl('Set up two-factor authentication'));
    await waitFor(() => getField('Authentication code'));
    await typeInto(getField('Authentication code'), '123456');
    await click(getControl('Confirm'));
    await confirmWith(PASSWORD);
    await waitFor(() => expect(text()).toContain('Your recovery codes'));
    expect(api.calls('POST /api/two-factor/confirm').map((call) => call.body)).toEqual([
      { code: '123456' },
      { code: '123456', password: PASSWORD },
    ]);
  });

  it('shows a wrong code after the password on the form, not in the password modal', async () => {
    server({
      'GET /api/two-factor': jsonResponse(OFF),
      'POST /api/two-factor/enable': jsonResponse(SETUP),
      'POST /api/two-factor/confirm': [
        ASKED,
        jsonResponse({ message: MESSAGES.invalidCode, errors: { code: [MESSAGES.invalidCode] } }, 422),
      ],
    });
    await open();
    await click(getControl('Set up two-factor authentication'));
    await waitFor(() => getField('Authentication code'));
    await typeInto(getField('Authentication code'), '123456');
    await click(getControl('Confirm'));
    await confirmWith(PASSWORD);
    await waitFor(() => expect(document.querySelector('[role="dialog"]')).toBeNull());
    expect(text()).toContain(MESSAGES.invalidCode);
  });

  it('asks for the password when disabling answers 423, then disables with it', async () => {
    const api = server({
      'GET /api/two-factor': [jsonResponse(ON), jsonResponse(OFF)],
      'DELETE /api/two-factor': [ASKED, new Response(null, { status: 204 })],
    });
    await open();
    await click(getControl('Disable two-factor authentication'));
    await waitFor(() => dialog());
    await click(getControl('Disable', dialog()));
    await confirmWith(PASSWORD);
    await waitFor(() => getControl('Set up two-factor authentication'));
    expect(api.calls('DELETE /api/two-factor').map((call) => call.body)).toEqual([{}, { password: PASSWORD }]);
  });

  it('offers an account without a password to sign in again with its provider, back to this page', async () => {
    const message = 'For your security, sign in again with Hospital SSO to continue.';
    const api = server({
      'GET /api/two-factor': jsonResponse(OFF),
      'POST /api/two-factor/enable': jsonResponse(
        {
          message,
          code: 'PASSWORD_CONFIRMATION_REQUIRED',
          details: {
            reauthenticate: { password: false, sso: { name: 'Hospital SSO', login_url: '/auth/oidc/hospital/login' } },
          },
        },
        423,
      ),
    });
    await renderRoute('/two-factor-settings?continue=%2Fmember%2Fprojects');
    await waitFor(() => expect(text()).toContain('Status'));
    await click(getControl('Set up two-factor authentication'));
    await waitFor(() => expect(text(dialog())).toContain(message));
    expect(text(dialog())).toContain('Sign in again to continue');
    expect(dialog().querySelector('input[type="password"]')).toBeNull();
    const link = getControl('Sign in again with Hospital SSO', dialog()) as HTMLAnchorElement;
    expect(link.getAttribute('href')).toBe(
      `/auth/oidc/hospital/login?redirect=${encodeURIComponent('/two-factor-settings?continue=%2Fmember%2Fprojects')}`,
    );
    await click(getControl('Cancel', dialog()));
    await waitFor(() => expect(document.querySelector('[role="dialog"]')).toBeNull());
    expect(api.calls('POST /api/two-factor/enable')).toHaveLength(1);
    expect(text()).not.toContain('Setup key');
  });
});
