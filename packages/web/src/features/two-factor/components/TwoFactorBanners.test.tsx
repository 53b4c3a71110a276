import { act } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { signedInCheck, stubApi, TWO_FACTOR_OFF } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { portalRoutes } from '../../../test/portal-stub';
import { click, getControl, renderRoute, text, waitFor } from '../../../test/render';

beforeEach(() => localStorage.clear());

const STATUS = { ...TWO_FACTOR_OFF, required: true, grace_days_remaining: 5 };

function server() {
  return stubApi({ ...portalRoutes(), 'GET /api/two-factor': jsonResponse(STATUS) });
}

const warn = (days = 5) =>
  act(async () => {
    window.dispatchEvent(
      new CustomEvent('mfa-warning', {
        detail: { message: 'Set up two-factor authentication soon.', days_remaining: days },
      }),
    );
  });
const require2fa = () =>
  act(async () => {
    window.dispatchEvent(new CustomEvent('mfa-required', { detail: { mfa_required: true } }));
  });
const banner = () =>
  [...document.querySelectorAll('[role="status"]')].find((el) => /two-factor/i.test(el.textContent ?? ''));
const modalTitle = 'Two-Factor Authentication Required';

describe('two-factor banners', () => {
  it('shows the yellow warning with days remaining, Set Up Now and dismiss; repeated events do not bring it back', async () => {
    server();
    await renderRoute('/member/projects');
    await waitFor(() => expect(document.querySelector('h1')).not.toBeNull());
    expect(banner()).toBeUndefined();
    await warn();
    await warn();
    expect(document.querySelectorAll('.mantine-Alert-root')).toHaveLength(1);
    expect(text(banner()!)).toContain('Set up two-factor authentication soon.');
    expect(text(banner()!)).toContain('Days remaining: 5');
    expect(getControl('Set Up Now', banner()!).getAttribute('href')).toBe(
      '/two-factor-settings?continue=%2Fmember%2Fprojects',
    );
    await click(banner()!.querySelector<HTMLElement>('button[aria-label="Dismiss"]')!);
    expect(banner()).toBeUndefined();
    await warn();
    expect(banner()).toBeUndefined();
  });

  it('stays dismissed for the rest of the day, after a reload too, and comes back the next day', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date(2026, 11, 2, 9, 0));
      server();
      const first = await renderRoute('/member/projects');
      await waitFor(() => expect(document.querySelector('h1')).not.toBeNull());
      await warn();
      await click(banner()!.querySelector<HTMLElement>('button[aria-label="Dismiss"]')!);
      first.unmount();

      vi.setSystemTime(new Date(2026, 11, 2, 23, 30));
      server();
      const later = await renderRoute('/member/projects');
      await waitFor(() => expect(document.querySelector('h1')).not.toBeNull());
      await warn();
      expect(banner()).toBeUndefined();
      later.unmount();

      vi.setSystemTime(new Date(2026, 11, 3, 7, 0));
      server();
      await renderRoute('/member/projects');
      await waitFor(() => expect(document.querySelector('h1')).not.toBeNull());
      await warn();
      expect(text(banner()!)).toContain('Days remaining: 5');
    } finally {
      vi.useRealTimers();
    }
  });

  it("shows the warning from the login's 'mfa_setup_required' flag", async () => {
    localStorage.setItem('mfa_setup_required', 'true');
    server();
    await renderRoute('/member/projects');
    await waitFor(() => expect(banner()).toBeDefined());
    expect(text(banner()!)).toContain('Two-factor authentication is required for your account.');
  });

  it('opens the blocking modal once on mfa-required; Cancel closes it and a burst does not reopen it', async () => {
    server();
    await renderRoute('/member/projects');
    await waitFor(() => expect(document.querySelector('h1')).not.toBeNull());
    await require2fa();
    await require2fa();
    await waitFor(() => expect(text()).toContain(modalTitle));
    expect(document.querySelectorAll('.mantine-Modal-title')).toHaveLength(1);
    await click(getControl('Cancel'));
    await waitFor(() => expect(text()).not.toContain(modalTitle));
    await require2fa();
    expect(text()).not.toContain(modalTitle);
  });

  it('Set Up Now in the modal goes to /two-factor-settings', async () => {
    server();
    const { router } = await renderRoute('/member/projects');
    await waitFor(() => expect(document.querySelector('h1')).not.toBeNull());
    await require2fa();
    await waitFor(() => expect(text()).toContain(modalTitle));
    const modal = document.querySelector<HTMLElement>('.mantine-Modal-content')!;
    await click(getControl('Set Up Now', modal));
    await waitFor(() => expect(router.state.location.pathname).toBe('/two-factor-settings'));
    await waitFor(() => expect(text()).not.toContain(modalTitle));
  });

  it('shows neither on /two-factor-settings', async () => {
    localStorage.setItem('mfa_setup_required', 'true');
    server();
    await renderRoute('/two-factor-settings');
    await waitFor(() => expect(document.querySelector('h1')).not.toBeNull());
    await warn();
    await require2fa();
    expect(banner()).toBeUndefined();
    expect(text()).not.toContain(modalTitle);
  });

  it('reopens the modal for a later mfa-required after the quiet period', async () => {
    server();
    await renderRoute('/member/projects');
    await waitFor(() => expect(document.querySelector('h1')).not.toBeNull());
    await require2fa();
    await waitFor(() => expect(text()).toContain(modalTitle));
    await click(getControl('Cancel'));
    await waitFor(() => expect(text()).not.toContain(modalTitle));
    vi.spyOn(Date, 'now').mockReturnValue(Date.now() + 10_000);
    await require2fa();
    await waitFor(() => expect(text()).toContain(modalTitle));
  });
});

describe('two-factor: the session check', () => {
  const check = (mfa: { required: boolean; days_remaining: number | null; overdue: boolean }) => ({
    ...signedInCheck('user', 'dana'),
    user: { ...signedInCheck('user', 'dana').user, mfa },
  });

  it('shows the days remaining from the session check, before any other answer', async () => {
    stubApi({
      ...portalRoutes(),
      'GET /api/auth/check': jsonResponse(check({ required: true, days_remaining: 3, overdue: false })),
    });
    await renderRoute('/member/projects');
    await waitFor(() => expect(banner()).toBeDefined());
    expect(text(banner()!)).toContain('required for your account in 3 days');
    expect(text(banner()!)).toContain('Days remaining: 3');
    expect(text()).not.toContain(modalTitle);
  });

  it('overdue: the modal and the setup gate on every screen, no project call; Set Up Now keeps where the user was', async () => {
    const api = stubApi({
      ...portalRoutes(),
      'GET /api/auth/check': jsonResponse(check({ required: true, days_remaining: 0, overdue: true })),
      'GET /api/two-factor': jsonResponse(STATUS),
    });
    const { router } = await renderRoute('/member/projects');
    await waitFor(() => expect(text()).toContain(modalTitle));
    expect(text()).toContain('Set up two-factor authentication to continue');
    expect(banner()).toBeUndefined();
    expect(api.requests.filter((r) => r.path.startsWith('/api/projects') || r.path.includes('notifications'))).toEqual(
      [],
    );
    await click(getControl('Cancel'));
    await waitFor(() => expect(text()).not.toContain(modalTitle));
    // After Cancel the gate stays: the screen behind never loads.
    expect(text()).toContain('Set up two-factor authentication to continue');
    const panelLink = getControl('Set Up Now');
    expect(panelLink.getAttribute('href')).toBe('/two-factor-settings?continue=%2Fmember%2Fprojects');
    await click(panelLink);
    await waitFor(() => expect(router.state.location.pathname).toBe('/two-factor-settings'));
    await waitFor(() => expect(document.querySelector('h1')?.textContent).toBe('Two-factor authentication'));
    expect(text()).not.toContain(modalTitle);
  });
});
