import { describe, expect, it } from 'vitest';
import { stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, getField, text, typeInto, waitFor } from '../../../test/render';
import { ANA, API, openAdmin, SAM, sessionRoutes, userRequest } from './test-helpers';

const PATH = '/app/admin/12/admin-dashboard';

function dashboard(overrides: Record<string, unknown> = {}) {
  return jsonResponse({
    members: [ANA, SAM],
    pending_requests: [userRequest()],
    unread_contact_messages: 3,
    ...overrides,
  });
}

function memberRow(id: number): HTMLElement {
  const element = document.querySelector<HTMLElement>(`tr[data-user-id="${id}"]`);
  if (!element) throw new Error(`no member ${id}`);
  return element;
}

const count = (testId: string) => document.querySelector(`[data-testid="${testId}"]`)?.textContent;

describe('AdminDashboardPage', () => {
  it('shows the summary, the members and the pending requests', async () => {
    const api = stubApi({ ...sessionRoutes(), [`GET ${API}/dashboard`]: dashboard() });
    await openAdmin(PATH);
    await waitFor(() => memberRow(40));
    expect(document.querySelector('h1')!.textContent).toBe('Manage Users');
    await waitFor(() =>
      expect(document.querySelector('[data-testid="project-name"]')?.textContent).toBe('North Clinic'),
    );
    expect(document.title).toBe('Manage Users | Healthcare Quality Portal');
    expect(api.calls(`GET ${API}/dashboard`)).toHaveLength(1);

    expect(count('members-count')).toBe('2');
    expect(count('pending-count')).toBe('1');
    expect(count('unread-count')).toBe('3');
    expect(getControl('See the requests').getAttribute('href')).toBe('/app/admin/12/new-user-request');
    expect(getControl('Open contact messages').getAttribute('href')).toBe('/member/projects/12/contact-us-messages');
    expect(getControl('Request new user').getAttribute('href')).toBe('/app/admin/12/new-user-request');

    const ana = text(memberRow(40));
    expect(ana).toContain('Ana Ruiz');
    expect(ana).toContain('ana@example.org');
    expect(ana).toContain('Project admin');
    expect(ana).toContain('Monitoring: Monitoring admin');
    expect(ana).toContain('Chart review: Reviewer');
    expect(ana).not.toContain('Policy management:');
    expect(ana).toContain('Mar 4, 2026');
    expect(ana).toContain('On');
    expect(ana).toContain('Active');
    expect(getControl('Ana Ruiz').getAttribute('href')).toBe('/app/admin/12/edit-user/40');
    expect(memberRow(40).querySelector('a[aria-label="Edit Ana Ruiz"]')?.getAttribute('href')).toBe(
      '/app/admin/12/edit-user/40',
    );

    const sam = text(memberRow(41));
    expect(sam).toContain('Member');
    expect(sam).toContain('None');
    expect(sam).toContain('Never');
    expect(sam).toContain('Off');
    expect(sam).toContain('Invited');

    const pending = text(document.querySelector('[data-testid="pending-table"]')!);
    expect(pending).toContain('Kim Park');
    expect(pending).toContain('kim@example.org');
    expect(pending).toContain('Monitoring: Viewer');
    expect(pending).toContain('Mar 1, 2026');
  });

  it('filters the members as you type', async () => {
    stubApi({ ...sessionRoutes(), [`GET ${API}/dashboard`]: dashboard() });
    await openAdmin(PATH);
    await waitFor(() => memberRow(40));
    await typeInto(getField('Search members'), 'sam');
    await waitFor(() => expect(document.querySelector('tr[data-user-id="40"]')).toBeNull());
    expect(memberRow(41)).toBeTruthy();
    expect(text()).toContain('1 of 2 members shown');

    await typeInto(getField('Search members'), 'ANA@EXAMPLE');
    await waitFor(() => expect(document.querySelector('tr[data-user-id="41"]')).toBeNull());
    expect(memberRow(40)).toBeTruthy();

    await typeInto(getField('Search members'), 'nobody');
    await waitFor(() => expect(text()).toContain('No member matches “nobody”.'));
  });

  it('shows empty states', async () => {
    stubApi({
      ...sessionRoutes(),
      [`GET ${API}/dashboard`]: dashboard({ members: [], pending_requests: [], unread_contact_messages: 0 }),
    });
    await openAdmin(PATH);
    await waitFor(() => expect(text()).toContain('No members yet'));
    expect(text()).toContain('No pending requests.');
    expect(count('members-count')).toBe('0');
    expect(document.querySelector('input[type="search"]')).toBeNull();
  });

  it('offers a retry when the dashboard cannot be loaded', async () => {
    stubApi({
      ...sessionRoutes(),
      [`GET ${API}/dashboard`]: [jsonResponse({ message: 'Server error.' }, 500), dashboard()],
    });
    await openAdmin(PATH);
    await waitFor(() => expect(text()).toContain('Server error.'));
    await click(getControl('Try again'));
    await waitFor(() => memberRow(40));
  });
});
