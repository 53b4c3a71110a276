import type { AuditEvent, SuperUserRow } from '@portal/shared';
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { type StubHandler, type StubRequest, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, getField, text, typeInto, waitFor } from '../../../test/render';
import { AuditLogPage } from './AuditLogPage';
import { auditEvent, choose, fieldError, openPage, rows } from './test-utils';

const EVENTS: AuditEvent[] = [
  auditEvent({
    id: 31,
    created_at: '2026-03-04T18:00:00Z',
    action: 'user.disabled',
    actor: { id: 5, name: 'Ann Admin' },
    project: { id: 12, name: 'North Clinic' },
    subject_type: 'user',
    subject_id: '44',
    data: { reason: 'Left the facility', sessions_ended: 2, note: 'x'.repeat(120) },
    ip: '203.0.113.9',
  }),
  auditEvent({
    id: 30,
    created_at: '2026-03-04T17:00:00Z',
    action: 'terms.published',
  }),
];

const ANN: SuperUserRow = {
  id: 5,
  username: 'ann',
  email: 'ann@example.org',
  first_name: 'Ann',
  last_name: 'Admin',
  role: 'superadmin',
  status: 'active',
  locked: false,
  two_factor_enabled: true,
  last_login_at: null,
  project_count: 0,
  created_at: '2026-01-01T00:00:00Z',
};

const CHAIN_OK = {
  ok: true,
  verified: 1234,
  unsealed: 0,
  head_hash: 'ab12cd34ef56ab78cd90ef12ab34cd56ef78ab90cd12ef34ab56cd78ef90ab12',
  broken: null,
  checked_at: '2026-03-04T10:00:00Z',
};

function server(events: AuditEvent[] = EVENTS, extra: Record<string, StubHandler | StubHandler[]> = {}) {
  return stubApi({
    'GET /api/member/projects': jsonResponse({
      projects: [{ id: 12, name: 'North Clinic', slug: 'north', active_apps: [] }],
    }),
    'GET /super/users': (request: StubRequest) =>
      jsonResponse({
        users: (request.query.get('q') ?? '').startsWith('an') ? [ANN] : [],
        total: 1,
        page: 1,
        page_size: 20,
      }),
    'GET /super/audit-events': (request: StubRequest) =>
      jsonResponse({
        events,
        total: events.length,
        page: Number(request.query.get('page') ?? 1),
        page_size: Number(request.query.get('page_size') ?? 50),
      }),
    'GET /super/audit-chain': jsonResponse(CHAIN_OK),
    ...extra,
  });
}

const open = (path = '/superadmin/audit-log') => openPage('/superadmin/audit-log', <AuditLogPage />, path);
const lastQuery = (api: ReturnType<typeof server>) => api.calls('GET /super/audit-events').at(-1)!.query;
const exportLink = () => getControl('Export CSV') as HTMLAnchorElement;
/** The listed changes under `root`: [field, "from … → to …"] (the hidden words are what a screen reader says). */
const changeList = (root: Element) =>
  [...root.querySelectorAll('dt')].map((dt) => [dt.textContent, text(dt.nextElementSibling!).trim()]);

describe('AuditLogPage', () => {
  it('lists the events with time, actor, action, project, subject and details', async () => {
    const api = server();
    await open();
    expect(document.querySelector('h1')?.textContent).toBe('Audit Log');
    await waitFor(() => expect(rows()).toHaveLength(2));
    const [first, second] = rows();
    expect(text(first!)).toContain('Mar 4, 2026');
    expect(getControl('Ann Admin', first!).getAttribute('href')).toBe('/superadmin/users/5');
    expect(first!.querySelector('code')?.textContent).toBe('user.disabled');
    expect(text(first!)).toContain('North Clinic');
    expect(text(first!)).toContain('User #44');
    expect(text(first!)).toContain('{"reason":"Left the facility"');
    expect(text(first!)).toContain('…');
    expect(text(second!)).toContain('System');
    expect(text(second!)).toContain('terms.published');

    // The whole details on demand.
    const toggle = first!.querySelector<HTMLButtonElement>('button[aria-expanded]')!;
    await click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const details = document.getElementById(toggle.getAttribute('aria-controls')!)!;
    expect(details.textContent).toContain('"sessions_ended": 2');
    expect(text(first!)).toContain('IP address 203.0.113.9');
    await click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(document.getElementById(details.id)).toBeNull();
    // An event without details has nothing to expand.
    expect(second!.querySelector('button[aria-expanded]')).toBeNull();

    const query = api.calls('GET /super/audit-events')[0]!.query;
    expect(query.get('page')).toBe('1');
    expect(query.get('page_size')).toBe('50');
    expect(exportLink().getAttribute('href')).toBe('/super/audit-events.csv');
    expect(exportLink().hasAttribute('download')).toBe(true);
  });

  it('names each action in words and lists what an update changed, before → after, secrets only as changed', async () => {
    const events: AuditEvent[] = [
      auditEvent({
        id: 52,
        created_at: '2026-03-05T09:00:00Z',
        action: 'user.profile_updated',
        actor: { id: 5, name: 'Ann Admin' },
        subject_type: 'user',
        subject_id: '5',
        data: {
          changes: {
            first_name: { from: 'Ann', to: 'Anna' },
            last_name: { from: 'Lee', to: '' },
            na_justification: { from: null, to: 'Not a hospital' },
            owner_id: { from: 3, to: 4 },
          },
        },
        ip: '203.0.113.9',
      }),
      auditEvent({
        id: 51,
        created_at: '2026-03-05T08:00:00Z',
        action: 'user.password_changed',
        actor: { id: 5, name: 'Ann Admin' },
        subject_type: 'user',
        subject_id: '5',
        data: { changes: { password: { changed: true } } },
      }),
      auditEvent({
        id: 50,
        created_at: '2026-03-05T07:00:00Z',
        action: 'standards.element_updated',
        actor: { id: 6, name: 'Owen Owner' },
        project: { id: 12, name: 'North Clinic' },
        subject_type: 'std_req_assessment',
        subject_id: '9',
        data: {
          summary: ['Observation changed'],
          changes: { observation: { from: 'Two meetings seen.', to: 'Four meetings, minutes seen.' } },
        },
      }),
      ...EVENTS,
    ];
    server(events);
    await open();
    await waitFor(() => expect(rows()).toHaveLength(5));
    const [profile, password, element, old] = rows();

    // Known actions in words; an old row whose action is unknown keeps its stored name.
    expect(text(profile!)).toContain('Profile updated');
    expect(text(password!)).toContain('Password changed');
    expect(text(element!)).toContain('Element assessment updated');
    // What each is about, in words: the kind of record, not its table's name.
    expect(text(element!)).toContain('Requirement assessment #9');
    expect(text(element!)).not.toContain('std_req_assessment');
    expect(profile!.querySelector('code')).toBeNull();
    expect(old!.querySelector('code')?.textContent).toBe('user.disabled');

    // Field names in words, then the list on demand under the row.
    expect(text(profile!)).toContain('Changed: First name, Last name, N/A justification and 1 more');
    const toggle = getControl('Show changes of event 52', profile!);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    await click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const list = document.getElementById(toggle.getAttribute('aria-controls')!)!;
    expect(list.closest('tr')?.getAttribute('data-changes-of')).toBe('52');
    expect(changeList(list)).toEqual([
      ['First name', 'from Ann → to Anna'],
      ['Last name', 'from Lee → to empty'],
      ['N/A justification', 'from empty → to Not a hospital'],
      ['Owner', 'from 3 → to 4'],
    ]);
    expect(rows()).toHaveLength(6);
    await click(getControl('Hide changes of event 52', profile!));
    expect(document.getElementById(list.id)).toBeNull();

    // A secret field is named as changed, with no value.
    await click(getControl('Show changes of event 51', password!));
    const secret = document.querySelector('[data-changes-of="51"] dd')!;
    expect(secret.previousElementSibling?.textContent).toBe('Password');
    expect(text(secret)).toBe('changed (its value is not recorded)');

    // The standards observation before and after; the rest of the data stays as it is stored.
    await click(getControl('Show changes of event 50', element!));
    expect(changeList(document.querySelector('[data-changes-of="50"]')!)).toEqual([
      ['Observation', 'from Two meetings seen. → to Four meetings, minutes seen.'],
    ]);
    expect(text(element!)).toContain('{"summary":["Observation changed"]}');
    expect(text(element!)).not.toContain('"changes"');
  });

  it('shows the events as a list of cards at phone width, with the same labels and changes', async () => {
    const matchMedia = window.matchMedia;
    window.matchMedia = ((query: string) => ({
      ...matchMedia(query),
      matches: query === '(max-width: 40em)',
    })) as never;
    try {
      server([
        auditEvent({
          id: 60,
          created_at: '2026-03-05T09:00:00Z',
          action: 'monitoring.introduction_updated',
          actor: { id: 5, name: 'Ann Admin' },
          project: { id: 12, name: 'North Clinic' },
          subject_type: 'mon_settings',
          subject_id: '12',
          data: { changes: { introduction: { from: '<p>Old</p>', to: '<p>New</p>' } } },
        }),
      ]);
      await open();
      await waitFor(() => expect(document.querySelector('li[data-event-id="60"]')).not.toBeNull());
      expect(document.querySelector('table')).toBeNull();
      const card = document.querySelector<HTMLElement>('li[data-event-id="60"]')!;
      expect(text(card)).toContain('Monitoring introduction updated');
      expect(text(card)).toContain('Ann Admin · North Clinic · Monitoring settings #12');
      await click(getControl('Show changes of event 60', card));
      expect(changeList(card)).toEqual([['Introduction', 'from <p>Old</p> → to <p>New</p>']]);
    } finally {
      window.matchMedia = matchMedia;
    }
  });

  it('filters by action prefix and whole days, and exports with the same filters', async () => {
    const api = server();
    const router = await open();
    await waitFor(() => expect(rows()).toHaveLength(2));

    await typeInto(getField('Action'), 'User!');
    expect(fieldError(getField('Action'))).toBe('Actions are lower-case words joined by dots.');
    await typeInto(getField('Action'), 'user.');
    expect(fieldError(getField('Action'))).toBeNull();
    await waitFor(() => expect(lastQuery(api).get('action')).toBe('user.'), 3000);
    expect(api.calls('GET /super/audit-events').some((call) => call.query.get('action') === 'User!')).toBe(false);

    await typeInto(getField('From'), '2026-03-01');
    await waitFor(() => expect(lastQuery(api).get('from')).toBe('2026-03-01T00:00:00.000Z'));
    await typeInto(getField('To'), '2026-03-04');
    await waitFor(() => expect(lastQuery(api).get('to')).toBe('2026-03-04T23:59:59.999Z'));
    expect(router.state.location.search).toBe('?action=user.&from=2026-03-01&to=2026-03-04');

    const href = new URL(exportLink().getAttribute('href')!, 'http://portal.test');
    expect(href.pathname).toBe('/super/audit-events.csv');
    expect(Object.fromEntries(href.searchParams)).toEqual({
      action: 'user.',
      from: '2026-03-01T00:00:00.000Z',
      to: '2026-03-04T23:59:59.999Z',
    });
  });

  it('refuses an end date before the start date', async () => {
    const api = server();
    await open('/superadmin/audit-log?from=2026-03-10&to=2026-03-01');
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(fieldError(getField('To'))).toBe('The end date is before the start date.');
    expect(lastQuery(api).has('from')).toBe(false);
    expect(lastQuery(api).has('to')).toBe(false);
    expect(getControl('Export CSV').tagName).toBe('BUTTON');
    expect((getControl('Export CSV') as HTMLButtonElement).disabled).toBe(true);
  });

  it('filters by an actor found with a server search, and by project', async () => {
    const api = server();
    const router = await open();
    await waitFor(() => expect(rows()).toHaveLength(2));

    // Mantine reads a change to an unfocused combobox as autofill: focus it first, as typing does.
    await act(async () => getField('Actor').focus());
    await typeInto(getField('Actor'), 'ann');
    await waitFor(() => expect(api.calls('GET /super/users').some((call) => call.query.get('q') === 'ann')).toBe(true));
    const search = api.calls('GET /super/users').find((call) => call.query.get('q') === 'ann')!;
    expect(search.query.get('page_size')).toBe('20');
    await choose(getField('Actor'), 'Ann Admin (ann)');
    await waitFor(() => expect(lastQuery(api).get('actor')).toBe('5'));

    await choose(getField('Project'), 'North Clinic');
    await waitFor(() => expect(lastQuery(api).get('project')).toBe('12'));
    expect(router.state.location.search).toBe('?actor=5&project=12');
    expect(getField('Actor').value).toBe('Ann Admin (ann)');
  });

  it("shows the server's field errors on the filters", async () => {
    server(EVENTS, {
      'GET /super/audit-events': jsonResponse(
        { message: 'Invalid query', errors: { from: ['Give the start as an ISO date and time.'] } },
        422,
      ),
    });
    await open('/superadmin/audit-log?from=2026-03-01');
    await waitFor(() => expect(fieldError(getField('From'))).toBe('Give the start as an ISO date and time.'));
    expect(text()).toContain('Check the filters marked above.');
  });

  it('shows empty states, with a way out of the filters', async () => {
    const api = server([]);
    const router = await open('/superadmin/audit-log?action=user.');
    await waitFor(() => expect(text()).toContain('No events match these filters.'));
    expect(getField('Action').value).toBe('user.');
    const clear = [...document.querySelectorAll<HTMLButtonElement>('button')].filter(
      (button) => button.textContent === 'Clear filters',
    );
    await click(clear.at(-1)!);
    await waitFor(() => expect(text()).toContain('No events have been recorded yet.'));
    expect(router.state.location.search).toBe('');
    expect(getField('Action').value).toBe('');
    expect(lastQuery(api).has('action')).toBe(false);
  });

  it('says whether the audit trail verifies, names the first broken link, and checks again on demand', async () => {
    const api = server(EVENTS, {
      'GET /super/audit-chain': [
        jsonResponse(CHAIN_OK),
        jsonResponse({
          ...CHAIN_OK,
          ok: false,
          verified: 41,
          head_hash: null,
          broken: { seq: 42, event_id: 977, reason: 'Its content changed after it was sealed (its hash differs).' },
        }),
      ],
    });
    await open();
    await waitFor(() => expect(document.body.textContent).toContain('The audit trail verifies'));
    expect(document.body.textContent).toContain('1,234 events chained, each to the one before it.');
    expect(document.body.textContent).toContain('ab12cd34ef56ab78');
    await click(getControl('Check again'));
    await waitFor(() => expect(document.body.textContent).toContain('The audit trail does not verify'));
    expect(document.querySelector('[role="alert"]')?.textContent).toContain(
      'First broken link: position 42 (event 977). Its content changed after it was sealed (its hash differs). 41 events before it verify.',
    );
    expect(api.calls('GET /super/audit-chain')).toHaveLength(2);
  });

  it('pages through the log', async () => {
    const many = Array.from({ length: 50 }, (_, index) => ({ ...EVENTS[1]!, id: 1000 - index }));
    const api = server(many, {
      'GET /super/audit-events': (request: StubRequest) =>
        jsonResponse({ events: many, total: 120, page: Number(request.query.get('page') ?? 1), page_size: 50 }),
    });
    await open();
    await waitFor(() => expect(text()).toContain('Showing 1–50 of 120 events'));
    await click(document.querySelector<HTMLElement>('button[aria-label="Next page"]')!);
    await waitFor(() => expect(lastQuery(api).get('page')).toBe('2'));
    await waitFor(() => expect(text()).toContain('Showing 51–100 of 120 events'));
  });

  it('shows a load error with Retry', async () => {
    const api = server(EVENTS, {
      'GET /super/audit-events': [
        jsonResponse({ message: 'Server error' }, 500),
        jsonResponse({ events: EVENTS, total: 2, page: 1, page_size: 50 }),
      ],
    });
    await open();
    await waitFor(() => expect(text()).toContain('Server error'));
    await click(getControl('Retry'));
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(api.calls('GET /super/audit-events')).toHaveLength(2);
  });
});
