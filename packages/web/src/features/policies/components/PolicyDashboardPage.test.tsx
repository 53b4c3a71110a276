import type { PolicyDashboard, WorkflowSettings } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { type StubHandler, type StubRequest, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, typeInto, waitFor } from '../../../test/render';
import { seriousViolations } from '../../../test/ui';
import { API, BASE, fieldError, input, openPolicyScreen, sessionRoutes, toasts } from './admin-test-helpers';
import { PolicyDashboardPage } from './PolicyDashboardPage';

const NUR = { id: 3, name: 'Nursing', code: 'NUR' };
const PHA = { id: 8, name: 'Pharmacy', code: 'PHA' };

const DASHBOARD: PolicyDashboard = {
  by_status: { draft: 4, in_review: 2, pending_signature: 1, published: 30, archived: 3 },
  revisions: { draft: 2, in_review: 1, pending_signature: 0 },
  my_tasks: { to_review: 1, to_sign: 3, to_read: 0, sent_back: 0 },
  overdue_reviews: [
    {
      id: 11,
      number: '1.1',
      title: 'Hand hygiene',
      department: NUR,
      owner: { id: 9, name: 'Ana Ruiz' },
      next_review_on: '2026-02-01',
      days: -30,
    },
  ],
  due_soon_reviews: [
    { id: 12, number: null, title: 'Visitors', department: null, owner: null, next_review_on: '2026-03-20', days: 10 },
  ],
  overdue_count: 1,
  due_soon_count: 4,
  attestation: [
    { department: PHA, attested: 0, required: 0, rate: null },
    { department: NUR, attested: 15, required: 20, rate: 0.75 },
  ],
  recent_activity: [
    {
      id: 1,
      at: '2026-03-05T10:00:00Z',
      actor: 'Ray Chen',
      summary: 'Signed version 3',
      document: { id: 11, number: '1.1', title: 'Hand hygiene' },
    },
    { id: 2, at: '2026-03-05T06:00:00Z', actor: null, summary: 'Review reminders sent', document: null },
  ],
  broken_references: [
    {
      source: { id: 72, number: '7.2', title: 'Falls' },
      target_number: '3.1',
      reason: 'retired',
      target_title: 'Restraints',
    },
    { source: { id: 72, number: '7.2', title: 'Falls' }, target_number: '8.8', reason: 'missing', target_title: null },
  ],
};

const SETTINGS: WorkflowSettings = {
  default_review_interval_months: 12,
  signatures_required: 'all',
  allow_self_signing: false,
};

function server(routes: Record<string, StubHandler | StubHandler[]> = {}) {
  let settings = SETTINGS;
  return stubApi({
    ...sessionRoutes(),
    [`GET ${API}/admin-dashboard`]: jsonResponse(DASHBOARD),
    [`GET ${API}/workflow-settings`]: () => jsonResponse(settings),
    [`PUT ${API}/workflow-settings`]: (request: StubRequest) => {
      settings = request.body as WorkflowSettings;
      return jsonResponse(settings);
    },
    'GET /api/me/permissions': jsonResponse({
      permissions: { 'policy_management:bulk-sign': true, 'policy_management:bulk-new-version': true },
    }),
    ...routes,
  });
}

const open = () => openPolicyScreen(`${BASE}/admin-dashboard`, ['admin-dashboard'], <PolicyDashboardPage />);

function card(title: string): HTMLElement {
  const element = document.querySelector<HTMLElement>(`section[data-card="${title}"]`);
  if (!element) throw new Error(`no card ${title}`);
  return element;
}

describe('PolicyDashboardPage', () => {
  it('shows the policies by status, tasks, reviews due, reading and activity', async () => {
    server();
    await open();
    expect(document.querySelector('h1')?.textContent).toBe('Policy dashboard');
    await waitFor(() => card('Policies by status'));

    const published = document.querySelector('[data-status="published"]')!;
    expect(text(published)).toContain('Published');
    expect(text(published)).toContain('30');
    expect(published.querySelector('a')?.getAttribute('href')).toBe(`${BASE}/documents/status/published`);
    expect(text(card('Policies by status'))).toContain('Revisions in progress');
    expect(text(document.querySelector('[aria-label="Revisions in progress"] [data-count="Draft"]')!)).toBe('2Draft');

    expect(text(card('My tasks'))).toContain('3To sign');

    const reviews = card('Reviews due');
    expect(text(reviews)).toContain('1Overdue');
    expect(text(reviews)).toContain('4Due within 30 days');
    const overdue = text(reviews.querySelector('table[aria-label="Overdue reviews"] tbody tr')!);
    expect(overdue).toContain('1.1 Hand hygiene');
    expect(overdue).toContain('Ana Ruiz');
    expect(overdue).toContain('Feb 1, 2026');
    expect(overdue).toContain('Overdue by 30 days');
    const soon = text(reviews.querySelector('table[aria-label="Due soon reviews"] tbody tr')!);
    expect(soon).toContain('No owner');
    expect(soon).toContain('Due in 10 days');
    expect(text(reviews)).toContain('Showing 1 of 4.');

    const reading = [...card('Reading by department').querySelectorAll('li')].map((item) => text(item));
    expect(reading[0]).toContain('Nursing (NUR)');
    expect(reading[0]).toContain('15 of 20 · 75%');
    expect(reading[1]).toContain('Pharmacy (PHA)');
    expect(reading[1]).toContain('No readers');
    expect(
      card('Reading by department').querySelector('[role="progressbar"][aria-label="Nursing (NUR): 75% read"]'),
    ).not.toBeNull();

    const activity = [...card('Recent activity').querySelectorAll('tbody tr')].map((row) => text(row));
    expect(activity[0]).toContain('Ray Chen');
    expect(activity[0]).toContain('Signed version 3');
    expect(activity[1]).toContain('The system');
    expect(getControl('1.1 Hand hygiene', card('Recent activity')).getAttribute('href')).toBe(`${BASE}/documents/11`);

    await waitFor(() => card('Bulk actions'));
    expect([...card('Bulk actions').querySelectorAll('a')].map((a) => [a.textContent, a.getAttribute('href')])).toEqual(
      [
        ['Sign policies', `${BASE}/bulk-sign`],
        ['Start new versions', `${BASE}/bulk-new-version`],
      ],
    );
  });

  it('lists the broken cross-references naming both sides, or says there are none', async () => {
    server();
    await open();
    await waitFor(() => card('Broken cross-references'));
    const items = [...card('Broken cross-references').querySelectorAll('li')].map((item) => text(item));
    expect(items).toEqual([
      '7.2 Falls links to 3.1, which was retired ("Restraints").',
      '7.2 Falls links to 8.8, which does not exist.',
    ]);
    expect(getControl('7.2 Falls', card('Broken cross-references')).getAttribute('href')).toBe(`${BASE}/documents/72`);
  });

  it('says when no policy links to a retired or missing policy', async () => {
    server({ [`GET ${API}/admin-dashboard`]: jsonResponse({ ...DASHBOARD, broken_references: [] }) });
    await open();
    await waitFor(() => card('Broken cross-references'));
    expect(text(card('Broken cross-references'))).toContain('No policy links to a retired or missing policy.');
  });

  it('saves the workflow settings with the exact body', async () => {
    const api = server();
    await open();
    await waitFor(() => expect(input('Default review interval (months)').value).toBe('12'));
    await typeInto(input('Default review interval (months)'), '24');
    const one = [...document.querySelectorAll<HTMLInputElement>('input[type="radio"]')].find(
      (radio) => radio.value === 'one',
    )!;
    await click(one);
    const selfSigning = document.querySelector<HTMLInputElement>('input[role="switch"]')!;
    expect(selfSigning.labels?.[0]?.textContent).toContain('Authors may sign their own versions');
    expect(selfSigning.checked).toBe(false);
    await click(selfSigning);
    await click(getControl('Save settings'));
    await waitFor(() => expect(toasts()).toContain('Workflow settings saved.'));
    expect(api.calls(`PUT ${API}/workflow-settings`)[0]!.body).toEqual({
      default_review_interval_months: 24,
      signatures_required: 'one',
      allow_self_signing: true,
    });
  });

  it('shows the field errors of the settings, its own and the server’s', async () => {
    const api = server({
      [`PUT ${API}/workflow-settings`]: jsonResponse(
        { message: 'Check the fields.', errors: { default_review_interval_months: ['Review at least every month.'] } },
        400,
      ),
    });
    await open();
    await waitFor(() => expect(input('Default review interval (months)').value).toBe('12'));
    await typeInto(input('Default review interval (months)'), '');
    await click(getControl('Save settings'));
    await waitFor(() =>
      expect(fieldError('Default review interval (months)')).toBe('Enter how many months pass between reviews.'),
    );
    expect(api.calls(`PUT ${API}/workflow-settings`)).toHaveLength(0);

    await typeInto(input('Default review interval (months)'), '6');
    await click(getControl('Save settings'));
    await waitFor(() => expect(fieldError('Default review interval (months)')).toBe('Review at least every month.'));
    expect(api.calls(`PUT ${API}/workflow-settings`)[0]!.body).toEqual({
      ...SETTINGS,
      default_review_interval_months: 6,
    });
  });

  it('shows a load failure of the dashboard, and the settings still', async () => {
    server({ [`GET ${API}/admin-dashboard`]: jsonResponse({ message: 'Database unavailable.' }, 503) });
    await open();
    await waitFor(() => expect(text()).toContain('Database unavailable.'));
    await waitFor(() => expect(input('Default review interval (months)').value).toBe('12'));
  });

  it('has no serious accessibility findings', async () => {
    server();
    await open();
    await waitFor(() => card('Bulk actions'));
    await waitFor(() => expect(input('Default review interval (months)').value).toBe('12'));
    expect(await seriousViolations()).toEqual([]);
  });
});
