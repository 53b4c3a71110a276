import type { UserRequest } from '@portal/shared';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { type StubHandler, type StubRequest, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, getField, render, text, typeInto, waitFor } from '../../../test/render';
import { NewUserRequestsPage } from './NewUserRequestsPage';
import { dialog, toasts } from './test-helpers';

const KIM: UserRequest = {
  id: 5,
  project: { id: 12, name: 'North Clinic' },
  first_name: 'Kim',
  last_name: 'Park',
  email: 'kim.park@example.org',
  project_role: 'simple',
  main_roles: { monitoring: 'data_entry', policy_management: 'reader', chart_review: null },
  justification: 'New charge nurse on ward 3.\nStarts Monday.',
  status: 'pending',
  requested_by: { id: 2, name: 'Pat Admin' },
  decided_by: null,
  decided_at: null,
  rejection_reason: null,
  user_id: null,
  created_at: '2026-03-04T18:00:00Z',
};
const LEE: UserRequest = {
  ...KIM,
  id: 6,
  first_name: 'Lee',
  last_name: 'Chen',
  email: 'lee@example.org',
  project_role: 'admin',
  main_roles: { monitoring: null, policy_management: null, chart_review: null },
  status: 'rejected',
  decided_by: { id: 1, name: 'Root Admin' },
  decided_at: '2026-03-05T17:30:00Z',
  rejection_reason: 'Already has an account under another email.',
};

/** Keeps the requests, so the list reloaded after a decision shows it. */
function server(initial: UserRequest[], routes: Record<string, StubHandler | StubHandler[]> = {}) {
  let requests = structuredClone(initial);
  const decide = (id: number, change: Partial<UserRequest>) => {
    requests = requests.map((request) =>
      request.id === id
        ? { ...request, ...change, decided_by: { id: 1, name: 'Root Admin' }, decided_at: '2026-03-06T17:00:00Z' }
        : request,
    );
    return jsonResponse(requests.find((request) => request.id === id));
  };
  return stubApi({
    'GET /super/user-requests': (request: StubRequest) => {
      const status = request.query.get('status');
      return jsonResponse({ requests: requests.filter((r) => status === 'all' || r.status === status) });
    },
    'POST /super/user-requests/5/approve': () => decide(5, { status: 'approved', user_id: 30 }),
    'POST /super/user-requests/5/reject': (request: StubRequest) =>
      decide(5, { status: 'rejected', rejection_reason: (request.body as { reason: string }).reason }),
    ...routes,
  });
}

async function open(path = '/superadmin/new-user-requests') {
  const router = createMemoryRouter([{ path: '/superadmin/new-user-requests', element: <NewUserRequestsPage /> }], {
    initialEntries: [path],
  });
  await render(<RouterProvider router={router} />);
  await waitFor(() => expect(document.querySelector('h1')?.textContent).toBe('New User Requests'));
  return router;
}

function card(id: number): HTMLElement {
  const element = document.querySelector<HTMLElement>(`li[data-request-id="${id}"]`);
  if (!element) throw new Error(`no request ${id}`);
  return element;
}

function segment(label: string): HTMLInputElement {
  return getField(label);
}

describe('NewUserRequestsPage', () => {
  it('lists the pending requests with everything needed to decide', async () => {
    const api = server([KIM, LEE]);
    await open();
    await waitFor(() => card(5));
    expect(document.querySelector('li[data-request-id="6"]')).toBeNull();
    expect(api.calls('GET /super/user-requests')[0]!.query.get('status')).toBe('pending');
    expect(segment('Pending').checked).toBe(true);
    const shown = text(card(5));
    expect(shown).toContain('Kim Park');
    expect(shown).toContain('kim.park@example.org');
    expect(shown).toContain('Project: North Clinic');
    expect(shown).toContain('Project role: Member');
    expect(shown).toContain('Main roles: Monitoring: Data entry, Policy management: Reader');
    expect(shown).toContain('New charge nurse on ward 3. Starts Monday.');
    expect(shown).toContain('Requested by Pat Admin on Mar 4, 2026, 10:00 AM');
    expect(shown).toContain('Pending');
    expect(getControl('Approve', card(5))).toBeTruthy();
    expect(getControl('Reject', card(5))).toBeTruthy();
  });

  it('shows decided requests with who decided, when, and the reason; and each empty state', async () => {
    const api = server([LEE]);
    const router = await open();
    await waitFor(() => expect(text()).toContain('No pending requests.'));

    await click(segment('Rejected'));
    await waitFor(() => card(6));
    expect(router.state.location.search).toBe('?status=rejected');
    expect(api.calls('GET /super/user-requests').at(-1)!.query.get('status')).toBe('rejected');
    expect(text(card(6))).toContain('Rejected by Root Admin on Mar 5, 2026, 9:30 AM');
    expect(text(card(6))).toContain('Already has an account under another email.');
    expect(text(card(6))).toContain('Project role: Project admin');
    expect(text(card(6))).toContain('Main roles: None');
    expect(card(6).querySelector('button')).toBeNull();

    await click(segment('Approved'));
    await waitFor(() => expect(text()).toContain('No approved requests.'));
    await click(segment('All'));
    await waitFor(() => card(6));
  });

  it('approves with a username of choice, says so and moves the request out of Pending', async () => {
    const api = server([KIM]);
    await open();
    await waitFor(() => card(5));
    await click(getControl('Approve', card(5)));
    await waitFor(() => expect(text(dialog())).toContain('Leave blank to make one from the email address'));
    expect(getField('Username (optional)', dialog()).placeholder).toBe('kim.park');
    await typeInto(getField('Username (optional)', dialog()), 'k');
    await click(getControl('Approve and send invitation', dialog()));
    expect(text(dialog())).toContain('Username must be 3 to 50 letters');
    expect(api.calls('POST /super/user-requests/5/approve')).toHaveLength(0);

    await typeInto(getField('Username (optional)', dialog()), ' kpark ');
    await click(getControl('Approve and send invitation', dialog()));
    await waitFor(() => expect(toasts()).toContain('Request approved: invitation sent to kim.park@example.org'));
    expect(api.calls('POST /super/user-requests/5/approve')[0]!.body).toEqual({ username: 'kpark' });
    await waitFor(() => expect(text()).toContain('No pending requests.'));
    await waitFor(() => expect(document.querySelector('[role="dialog"]')).toBeNull());
  });

  it('approves with a blank username as an empty body, and shows a taken username on the field', async () => {
    const api = server([KIM], {
      'POST /super/user-requests/5/approve': jsonResponse(
        {
          message: 'A user with this username already exists.',
          code: 'CONFLICT',
          errors: { username: ['A user with this username already exists.'] },
        },
        409,
      ),
    });
    await open();
    await waitFor(() => card(5));
    await click(getControl('Approve', card(5)));
    await waitFor(() => dialog());
    await click(getControl('Approve and send invitation', dialog()));
    await waitFor(() => expect(getField('Username (optional)', dialog()).getAttribute('aria-invalid')).toBe('true'));
    expect(text(dialog())).toContain('A user with this username already exists.');
    expect(api.calls('POST /super/user-requests/5/approve')[0]!.body).toEqual({});
  });

  it('rejects only with a reason', async () => {
    const api = server([KIM]);
    await open();
    await waitFor(() => card(5));
    await click(getControl('Reject', card(5)));
    await waitFor(() => expect(text(dialog())).toContain('The reason is emailed to Pat Admin.'));
    await click(getControl('Reject request', dialog()));
    expect(text(dialog())).toContain('Enter the reason.');
    expect(api.calls('POST /super/user-requests/5/reject')).toHaveLength(0);

    await typeInto(getField('Reason', dialog()) as unknown as HTMLTextAreaElement, '  Use the existing account.  ');
    await click(getControl('Reject request', dialog()));
    await waitFor(() => expect(toasts()).toContain('Request for Kim Park rejected.'));
    expect(api.calls('POST /super/user-requests/5/reject')[0]!.body).toEqual({ reason: 'Use the existing account.' });
    await waitFor(() => expect(text()).toContain('No pending requests.'));
  });

  it('offers Retry when the list fails', async () => {
    server([KIM], {
      'GET /super/user-requests': [
        jsonResponse({ message: 'The database is unavailable.' }, 503),
        jsonResponse({ requests: [KIM] }),
      ],
    });
    await open();
    await waitFor(() => expect(text()).toContain('The database is unavailable.'));
    await click(getControl('Retry'));
    await waitFor(() => card(5));
  });
});
