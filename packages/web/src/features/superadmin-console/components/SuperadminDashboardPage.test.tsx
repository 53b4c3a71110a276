import type { SuperDashboard } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, waitFor } from '../../../test/render';
import { SuperadminDashboardPage } from './SuperadminDashboardPage';
import { auditEvent, openPage } from './test-utils';

const DASHBOARD: SuperDashboard = {
  counts: {
    projects: 14,
    active_projects: 12,
    users: 230,
    pending_user_requests: 3,
    failed_emails: 2,
    users_without_two_factor: 17,
  },
  latest_audit_events: [
    auditEvent({
      id: 901,
      created_at: '2026-03-04T18:00:00Z',
      action: 'user.disabled',
      actor: { id: 1, name: 'Ada Admin' },
      project: { id: 12, name: 'North Clinic' },
      subject_type: 'user',
      subject_id: '44',
    }),
    auditEvent({
      id: 900,
      created_at: '2026-03-04T17:00:00Z',
      action: 'terms.published',
    }),
  ],
};

function card(label: string): HTMLAnchorElement {
  const element = document.querySelector<HTMLAnchorElement>(`a[data-stat="${label}"]`);
  if (!element) throw new Error(`no card ${label}`);
  return element;
}

const open = () => openPage('/superadmin', <SuperadminDashboardPage />);

describe('SuperadminDashboardPage', () => {
  it('shows the counts as links, highlights what needs attention and lists the latest activity', async () => {
    const api = stubApi({ 'GET /super/dashboard': jsonResponse(DASHBOARD) });
    await open();
    expect(document.querySelector('h1')?.textContent).toBe('Administration');
    expect(document.title).toBe('Administration | Healthcare Quality Portal');
    await waitFor(() => card('Projects'));

    expect(text(card('Projects'))).toContain('12');
    expect(text(card('Projects'))).toContain('active of 14');
    expect(card('Projects').getAttribute('href')).toBe('/superadmin/projects');
    expect(text(card('Users'))).toContain('230');

    expect(card('Pending user requests').getAttribute('href')).toBe('/superadmin/new-user-requests');
    expect(card('Pending user requests').dataset.alert).toBe('true');
    expect(text(card('Pending user requests'))).toContain('To review');

    expect(card('Failed emails').getAttribute('href')).toBe('/superadmin/email-logs?status=failed');
    expect(card('Failed emails').dataset.alert).toBe('true');
    expect(text(card('Accounts without two-factor'))).toContain('17');
    expect(card('Accounts without two-factor').getAttribute('href')).toBe('/superadmin/users');

    const activity = document.querySelectorAll('tr[data-event-id]');
    expect(activity).toHaveLength(2);
    expect(text(activity[0]!)).toContain('Ada Admin');
    expect(text(activity[0]!)).toContain('user.disabled');
    expect(text(activity[0]!)).toContain('North Clinic');
    expect(text(activity[0]!)).toContain('Mar 4, 2026');
    expect(text(activity[1]!)).toContain('System');
    expect(getControl('Open the audit log').getAttribute('href')).toBe('/superadmin/audit-log');

    // The console sections, the audit log among them.
    expect(getControl('Audit Log').getAttribute('href')).toBe('/superadmin/audit-log');
    expect(getControl('Email Logs').getAttribute('href')).toBe('/superadmin/email-logs');
    expect(api.calls('GET /super/dashboard')).toHaveLength(1);
  });

  it('shows calm cards and an empty activity list when nothing needs attention', async () => {
    stubApi({
      'GET /super/dashboard': jsonResponse({
        counts: { ...DASHBOARD.counts, pending_user_requests: 0, failed_emails: 0 },
        latest_audit_events: [],
      }),
    });
    await open();
    await waitFor(() => card('Failed emails'));
    expect(card('Failed emails').dataset.alert).toBeUndefined();
    expect(card('Pending user requests').dataset.alert).toBeUndefined();
    expect(text()).toContain('No activity recorded yet.');
  });

  it('shows an error with Retry when the overview fails, and the sections meanwhile', async () => {
    const api = stubApi({
      'GET /super/dashboard': [jsonResponse({ message: 'Server error' }, 500), jsonResponse(DASHBOARD)],
    });
    await open();
    await waitFor(() => expect(text()).toContain('Server error'));
    expect(getControl('Terms and Conditions').getAttribute('href')).toBe('/superadmin/terms_and_conditions');
    await click(getControl('Retry'));
    await waitFor(() => card('Projects'));
    expect(api.calls('GET /super/dashboard')).toHaveLength(2);
  });
});
