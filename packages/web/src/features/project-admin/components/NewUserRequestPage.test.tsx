import type { UserRequest } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { type StubHandler, type StubRequest, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, getField, text, typeInto, waitFor } from '../../../test/render';
import { API, fieldError, openAdmin, pick, sessionRoutes, toasts, userRequest } from './test-helpers';

const PATH = '/app/admin/12/new-user-request';
const REQUESTS = `${API}/user-requests`;

/** A tiny server keeping the requests, so the list reloaded after sending shows the new one. */
function server(initial: UserRequest[], routes: Record<string, StubHandler> = {}) {
  const requests = [...initial];
  return stubApi({
    ...sessionRoutes(),
    [`GET ${REQUESTS}`]: () => jsonResponse({ requests }),
    [`POST ${REQUESTS}`]: (request: StubRequest) => {
      const body = request.body as Partial<UserRequest>;
      const created = userRequest({
        id: 99,
        first_name: body.first_name,
        last_name: body.last_name,
        email: body.email,
        created_at: '2026-03-06T10:00:00Z',
      });
      requests.unshift(created);
      return jsonResponse(created, 201);
    },
    ...routes,
  });
}

async function fillIn() {
  await typeInto(getField('First name'), '  Lea ');
  await typeInto(getField('Last name'), 'Moreau');
  await typeInto(getField('Email'), 'Lea@Example.org');
  await pick('Monitoring role', 'Data entry');
  await typeInto(getField('Justification') as unknown as HTMLTextAreaElement, 'Joins the quality team in April.');
}

function requestRow(id: number): HTMLElement {
  const element = document.querySelector<HTMLElement>(`tr[data-request-id="${id}"]`);
  if (!element) throw new Error(`no request ${id}`);
  return element;
}

describe('NewUserRequestPage', () => {
  it('checks the form before sending anything', async () => {
    const api = server([]);
    await openAdmin(PATH);
    await waitFor(() => getField('First name'));
    expect(document.querySelector('h1')!.textContent).toBe('Request New User');
    await typeInto(getField('Email'), 'not-an-email');
    await click(getControl('Send request'));
    expect(fieldError('First name')).toBe('Enter the first name.');
    expect(fieldError('Last name')).toBe('Enter the last name.');
    expect(fieldError('Email')).toBe('Enter a valid email address.');
    expect(fieldError('Justification')).toBe('Enter the justification.');
    expect(api.calls(`POST ${REQUESTS}`)).toHaveLength(0);

    await typeInto(getField('Justification') as unknown as HTMLTextAreaElement, 'x'.repeat(2001));
    expect(text()).toContain('2,001 / 2,000 characters');
    await click(getControl('Send request'));
    expect(fieldError('Justification')).toBe('Justification must be at most 2000 characters.');
  });

  it('sends the request, says so, clears the form and lists it', async () => {
    const api = server([]);
    await openAdmin(PATH);
    await waitFor(() => expect(text()).toContain('No requests yet'));
    await fillIn();
    await click(getControl('Send request'));
    await waitFor(() => expect(toasts()).toContain('Request sent to the administrators'));
    expect(api.calls(`POST ${REQUESTS}`)[0]!.body).toEqual({
      first_name: 'Lea',
      last_name: 'Moreau',
      email: 'lea@example.org',
      project_role: 'simple',
      main_roles: { monitoring: 'data_entry' },
      justification: 'Joins the quality team in April.',
    });
    expect(getField('First name').value).toBe('');
    expect(getField('Monitoring role').value).toBe('No role');
    await waitFor(() => expect(text(requestRow(99))).toContain('Lea Moreau'));
    expect(text(requestRow(99))).toContain('Pending');
  });

  it("puts the server's field errors on their fields", async () => {
    server([], {
      [`POST ${REQUESTS}`]: jsonResponse(
        { message: 'The given data was invalid.', errors: { email: ['This person already has an account.'] } },
        422,
      ),
    });
    await openAdmin(PATH);
    await waitFor(() => getField('First name'));
    await fillIn();
    await click(getControl('Send request'));
    await waitFor(() => expect(fieldError('Email')).toBe('This person already has an account.'));
    // The form keeps what was typed.
    expect(getField('Last name').value).toBe('Moreau');
  });

  it('lists earlier requests with their status, reason and dates', async () => {
    server([
      userRequest({ id: 1 }),
      userRequest({
        id: 2,
        first_name: 'Jo',
        status: 'approved',
        decided_at: '2026-03-03T10:00:00Z',
        decided_by: { id: 1, name: 'Root Admin' },
      }),
      userRequest({
        id: 3,
        first_name: 'Max',
        status: 'rejected',
        decided_at: '2026-03-02T10:00:00Z',
        rejection_reason: 'Already has an account under another email.',
      }),
    ]);
    await openAdmin(PATH);
    await waitFor(() => requestRow(1));
    expect(text(requestRow(1))).toContain('Pending');
    expect(text(requestRow(1))).toContain('Not yet');
    expect(text(requestRow(1))).toContain('Mar 1, 2026');
    expect(text(requestRow(2))).toContain('Approved');
    expect(text(requestRow(2))).toContain('Mar 3, 2026');
    expect(text(requestRow(2))).toContain('by Root Admin');
    expect(text(requestRow(3))).toContain('Rejected');
    expect(text(requestRow(3))).toContain('Reason: Already has an account under another email.');
  });
});
