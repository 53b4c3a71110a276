import { MESSAGES } from '@portal/shared';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { type StubHandler, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, getField, render, text, typeInto, waitFor } from '../../../test/render';
import { dialog, section, toasts } from '../../../test/ui';
import { MyAccountPage } from './MyAccountPage';

const USER = {
  id: 7,
  username: 'dana',
  email: 'dana@example.org',
  role: 'user',
  first_name: 'Dana',
  last_name: 'Reyes',
  two_factor_confirmed_at: null,
};
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const THIS = {
  id: 'sess-this',
  ip: '10.0.0.1',
  user_agent: CHROME,
  created_at: '2026-03-01T15:00:00Z',
  last_seen_at: '2026-03-04T18:00:00Z',
  current: true,
};
const PHONE = {
  id: 'sess-phone',
  ip: '203.0.113.9',
  user_agent: IPHONE,
  created_at: '2026-02-20T15:00:00Z',
  last_seen_at: '2026-03-02T18:00:00Z',
  current: false,
};
const STRONG = 'Kx7#qPv9!mZt2$Lw';

function server(routes: Record<string, StubHandler | StubHandler[]> = {}) {
  return stubApi({
    'GET /api/user': jsonResponse(USER),
    'GET /api/user/sessions': jsonResponse({ sessions: [THIS] }),
    ...routes,
  });
}

async function open() {
  const router = createMemoryRouter([{ path: '/member/projects/:slug/myaccount', element: <MyAccountPage /> }], {
    initialEntries: ['/member/projects/acme/myaccount'],
  });
  await render(<RouterProvider router={router} />);
  await waitFor(() => getField('First name'));
}

describe('MyAccountPage: profile', () => {
  it('shows the loaded names, the two-factor status with its link, and titles the page', async () => {
    server();
    await open();
    expect(document.querySelector('h1')?.textContent).toBe('My Account');
    expect(getField('First name').value).toBe('Dana');
    expect(getField('Last name').value).toBe('Reyes');
    expect(text(section('Two-factor authentication'))).toContain('Off');
    expect(getControl('Set up two-factor authentication').getAttribute('href')).toBe('/two-factor-settings');
    expect(document.title).toContain('My Account');
  });

  it('refuses empty names with the schema messages and sends nothing', async () => {
    const api = server({ 'PUT /api/user/profile': jsonResponse(USER) });
    await open();
    await typeInto(getField('First name'), '   ');
    await typeInto(getField('Last name'), '');
    await click(getControl('Save'));
    expect(text(section('Profile'))).toContain('Enter your first name.');
    expect(text(section('Profile'))).toContain('Enter your last name.');
    expect(getField('First name').getAttribute('aria-invalid')).toBe('true');
    expect(api.calls('PUT /api/user/profile')).toHaveLength(0);
  });

  it('saves the trimmed names with PUT and shows the saved ones', async () => {
    const api = server({
      'PUT /api/user/profile': jsonResponse({ ...USER, first_name: 'Danielle', last_name: 'Reyes-Ortiz' }),
    });
    await open();
    await typeInto(getField('First name'), '  Danielle ');
    await typeInto(getField('Last name'), 'Reyes-Ortiz');
    await click(getControl('Save'));
    await waitFor(() => expect(toasts()).toContain('Your profile was saved.'));
    const [call] = api.calls('PUT /api/user/profile');
    expect(call!.body).toEqual({ first_name: 'Danielle', last_name: 'Reyes-Ortiz' });
    expect(call!.headers.get('X-XSRF-TOKEN')).toBe('test-token');
    expect(getField('First name').value).toBe('Danielle');
  });
});

describe('MyAccountPage: password', () => {
  it('says when the confirmation does not match and sends nothing', async () => {
    const api = server({ 'PUT /api/user/password': jsonResponse({ message: 'ok' }) });
    await open();
    await typeInto(getField('Current password'), 'old-password');
    await typeInto(getField('New password'), STRONG);
    expect(text(section('Change password'))).toContain('Password strength:');
    await typeInto(getField('Confirm new password'), `${STRONG}x`);
    expect(text(section('Change password'))).toContain('Passwords do not match');
    expect(section('Change password').querySelector('[data-icon="cross"]')).not.toBeNull();
    await click(getControl('Change password'));
    expect(text(section('Change password'))).toContain(MESSAGES.resetMismatch);
    expect(api.calls('PUT /api/user/password')).toHaveLength(0);

    await typeInto(getField('Confirm new password'), STRONG);
    expect(section('Change password').querySelector('[data-icon="tick"]')).not.toBeNull();
  });

  it('refuses a weak new password with the requirements', async () => {
    const api = server();
    await open();
    await typeInto(getField('Current password'), 'old-password');
    await typeInto(getField('New password'), 'short');
    await typeInto(getField('Confirm new password'), 'short');
    await click(getControl('Change password'));
    expect(text(section('Change password'))).toContain('Password does not meet security requirements:');
    expect(api.calls('PUT /api/user/password')).toHaveLength(0);
  });

  it("shows the server's field error under the current password", async () => {
    server({
      'PUT /api/user/password': jsonResponse(
        {
          message: 'The current password is incorrect.',
          errors: { current_password: ['The current password is incorrect.'] },
        },
        422,
      ),
    });
    await open();
    await typeInto(getField('Current password'), 'wrong-password');
    await typeInto(getField('New password'), STRONG);
    await typeInto(getField('Confirm new password'), STRONG);
    await click(getControl('Change password'));
    await waitFor(() => expect(getField('Current password').getAttribute('aria-invalid')).toBe('true'));
    const describedBy = getField('Current password').getAttribute('aria-describedby') ?? '';
    const messages = describedBy
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent)
      .join(' ');
    expect(messages).toContain('The current password is incorrect.');
    expect(getField('New password').value).toBe(STRONG);
  });

  it('changes the password, clears the form, says the other sessions were signed out and reloads them', async () => {
    const api = server({
      'PUT /api/user/password': jsonResponse({ message: 'Password changed.' }),
      'GET /api/user/sessions': [jsonResponse({ sessions: [THIS, PHONE] }), jsonResponse({ sessions: [THIS] })],
    });
    await open();
    await waitFor(() => expect(text()).toContain('Safari 17 on iPhone'));
    await typeInto(getField('Current password'), 'old-password');
    await typeInto(getField('New password'), STRONG);
    await typeInto(getField('Confirm new password'), STRONG);
    await click(getControl('Change password'));
    await waitFor(() => expect(toasts()).toContain('Password changed. Your other sessions were signed out.'));
    expect(api.calls('PUT /api/user/password')[0]!.body).toEqual({
      current_password: 'old-password',
      password: STRONG,
      password_confirmation: STRONG,
    });
    expect(getField('New password').value).toBe('');
    await waitFor(() => expect(text()).not.toContain('Safari 17 on iPhone'));
  });
});

describe('MyAccountPage: email', () => {
  it('validates, then changes the email and shows the new one', async () => {
    const api = server({
      'PUT /api/user/email': [
        jsonResponse({ message: 'Wrong password.', errors: { password: ['The password is incorrect.'] } }, 422),
        jsonResponse({ ...USER, email: 'dana.reyes@example.org' }),
      ],
    });
    await open();
    const card = () => section('Change email');
    expect(text(card())).toContain('dana@example.org');
    await typeInto(getField('New email'), 'not-an-email');
    await click(getControl('Change email'));
    expect(text(card())).toContain('Enter a valid email address.');
    expect(text(card())).toContain('Enter your password to confirm.');
    expect(api.calls('PUT /api/user/email')).toHaveLength(0);

    await typeInto(getField('New email'), ' Dana.Reyes@Example.org ');
    await typeInto(getField('Password'), 'wrong');
    await click(getControl('Change email'));
    await waitFor(() => expect(text(card())).toContain('The password is incorrect.'));
    expect(api.calls('PUT /api/user/email')[0]!.body).toEqual({ email: 'dana.reyes@example.org', password: 'wrong' });

    await typeInto(getField('Password'), STRONG);
    await click(getControl('Change email'));
    await waitFor(() => expect(toasts()).toContain('Your email address is now dana.reyes@example.org.'));
    expect(text(card())).toContain('Current email: dana.reyes@example.org');
  });
});

describe('MyAccountPage: sessions', () => {
  it('lists the sessions with "This device" on the current one and signs out another after confirming', async () => {
    const api = server({
      'GET /api/user/sessions': [jsonResponse({ sessions: [PHONE, THIS] }), jsonResponse({ sessions: [THIS] })],
      'DELETE /api/user/sessions/sess-phone': new Response(null, { status: 204 }),
    });
    await open();
    await waitFor(() => expect(text()).toContain('Safari 17 on iPhone'));
    const rows = [...document.querySelectorAll<HTMLElement>('[data-testid="sessions-table"] tbody tr')];
    expect(rows.map((row) => row.dataset.sessionId)).toEqual(['sess-this', 'sess-phone']);
    expect(text(rows[0]!)).toContain('Chrome 126 on Windows');
    expect(text(rows[0]!)).toContain('This device');
    expect(text(rows[0]!)).toContain('10.0.0.1');
    expect(rows[0]!.querySelector('button')).toBeNull();
    expect(text(rows[1]!)).not.toContain('This device');
    expect(text(rows[1]!)).toContain('203.0.113.9');
    expect(text(rows[1]!)).toContain('Mar 2, 2026');

    // Cancelling does nothing.
    await click(getControl('Sign out', rows[1]!));
    await waitFor(() => expect(text(dialog())).toContain('Safari 17 on iPhone (203.0.113.9) will be signed out'));
    await click(getControl('Cancel', dialog()));
    expect(api.calls('DELETE /api/user/sessions/sess-phone')).toHaveLength(0);

    await click(getControl('Sign out', rows[1]!));
    await waitFor(() => dialog());
    await click(getControl('Sign out', dialog()));
    await waitFor(() => expect(api.calls('DELETE /api/user/sessions/sess-phone')).toHaveLength(1));
    await waitFor(() => expect(document.querySelectorAll('[data-testid="sessions-table"] tbody tr')).toHaveLength(1));
    expect(text()).toContain('You are not signed in anywhere else.');
    expect(api.calls('DELETE /api/user/sessions')).toHaveLength(0);
  });

  it('signs out every other session', async () => {
    const api = server({
      'GET /api/user/sessions': [jsonResponse({ sessions: [THIS, PHONE] }), jsonResponse({ sessions: [THIS] })],
      'DELETE /api/user/sessions': new Response(null, { status: 204 }),
    });
    await open();
    await waitFor(() => getControl('Sign out other sessions'));
    await click(getControl('Sign out other sessions'));
    await waitFor(() => dialog());
    await click(getControl('Sign out other sessions', dialog()));
    await waitFor(() => expect(toasts()).toContain('Your other sessions were signed out.'));
    expect(api.calls('DELETE /api/user/sessions')).toHaveLength(1);
    await waitFor(() => expect(text()).toContain('You are not signed in anywhere else.'));
  });

  it('says so when the sessions cannot be loaded', async () => {
    server({ 'GET /api/user/sessions': jsonResponse({ message: 'Server error' }, 500) });
    await open();
    await waitFor(() => expect(text(section('Active sessions'))).toContain('Server error'));
    expect(getControl('Try again', section('Active sessions'))).toBeTruthy();
  });
});
