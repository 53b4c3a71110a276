import type { UserRequest } from '@portal/shared';
import axe from 'axe-core';
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { type StubHandler, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, typeInto, waitFor } from '../../../test/render';
import { API, BASE, fieldError, input, openPolicyScreen, sessionRoutes, toasts } from './admin-test-helpers';
import { CreateProjectUserPage, NO_REQUESTS, REQUEST_SENT } from './CreateProjectUserPage';

const URL = `${API}/user-requests`;

function request(overrides: Partial<UserRequest> & Pick<UserRequest, 'id' | 'first_name' | 'last_name'>): UserRequest {
  return {
    project: { id: 12, name: 'North Clinic' },
    email: `${overrides.first_name.toLowerCase()}@north.example`,
    project_role: 'simple',
    main_roles: { monitoring: null, policy_management: 'reader', chart_review: null },
    justification: 'Needs to read the policies.',
    status: 'pending',
    requested_by: { id: 7, name: 'Ann Lee' },
    decided_by: null,
    decided_at: null,
    rejection_reason: null,
    user_id: null,
    created_at: '2026-03-04T10:00:00Z',
    ...overrides,
  };
}

const SAM = request({
  id: 1,
  first_name: 'Sam',
  last_name: 'Signer',
  main_roles: { monitoring: null, policy_management: 'signer', chart_review: null },
});
const RAE = request({
  id: 2,
  first_name: 'Rae',
  last_name: 'Reader',
  status: 'rejected',
  rejection_reason: 'Use her existing account.',
});

function server(routes: Record<string, StubHandler | StubHandler[]> = {}) {
  return stubApi({ ...sessionRoutes(), [`GET ${URL}`]: jsonResponse({ requests: [] }), ...routes });
}

const open = () => openPolicyScreen(`${BASE}/create-project-user`, ['create-project-user'], <CreateProjectUserPage />);

function form(): HTMLFormElement {
  const element = document.querySelector('form');
  if (!element) throw new Error('no form');
  return element;
}

/** Opens the main role Select and clicks the option whose label is `label` (its description follows it). */
async function chooseRole(label: string) {
  const select = input('Main role');
  await click(select);
  let choice: HTMLElement | undefined;
  await waitFor(() => {
    const listbox = document.getElementById(select.getAttribute('aria-controls') ?? '');
    choice = [...(listbox?.querySelectorAll<HTMLElement>('[role="option"]') ?? [])].find((element) =>
      element.textContent?.startsWith(label),
    );
    expect(choice).toBeDefined();
  });
  await click(choice!);
}

async function fill(values: { first?: string; last?: string; email?: string; role?: string; why?: string } = {}) {
  await typeInto(input('First name'), values.first ?? 'Sam');
  await typeInto(input('Last name'), values.last ?? 'Signer');
  await typeInto(input('Email'), values.email ?? ' Sam.Signer@North.example ');
  await chooseRole(values.role ?? 'Signer');
  await typeInto(input('Justification'), values.why ?? 'Signs the nursing policies.');
}

function requestRows(): string[][] {
  return [...document.querySelectorAll('tr[data-request-id]')].map((tr) =>
    [...tr.querySelectorAll('td')].map((td) => td.textContent ?? ''),
  );
}

/** Serious and critical axe findings (jsdom cannot compute colours; the page regions come from the layout). */
async function violations(): Promise<string[]> {
  const result = await act(() =>
    axe.run(document.body, { rules: { 'color-contrast': { enabled: false }, region: { enabled: false } } }),
  );
  return result.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.html.slice(0, 160)).join(' | ')}`);
}

describe('CreateProjectUserPage', () => {
  it('explains the request and shows placeholders while the requests load', async () => {
    server({ [`GET ${URL}`]: () => new Promise<Response>(() => {}) });
    await open();
    expect(document.querySelector('h1')!.textContent).toBe('Request a new user');
    expect(text()).toContain('a superadmin creates the account and the person receives an invitation email');
    expect(text()).toContain('they appear among the policy users with the main role you chose');
    expect(document.querySelector('[role="status"][aria-label="Loading the requests"]')).not.toBeNull();
  });

  it('says what is missing without calling the server', async () => {
    const api = server();
    await open();
    await click(getControl('Send request', form()));
    await waitFor(() => expect(fieldError('First name')).toBe('Enter the first name.'));
    expect(fieldError('Last name')).toBe('Enter the last name.');
    expect(fieldError('Email')).toBe('Enter a valid email address.');
    expect(fieldError('Main role')).toBe('Choose a main role.');
    expect(fieldError('Justification')).toBe('Enter the justification.');
    expect(await violations()).toEqual([]);

    await typeInto(input('Email'), 'not-an-email');
    await typeInto(input('Justification'), 'x'.repeat(2001));
    await waitFor(() => expect(text()).toContain('2,001 / 2,000 characters'));
    await click(getControl('Send request', form()));
    await waitFor(() => expect(fieldError('Justification')).toBe('Justification must be at most 2000 characters.'));
    expect(fieldError('Email')).toBe('Enter a valid email address.');
    expect(api.calls(`POST ${URL}`)).toHaveLength(0);
  });

  it('sends the request, confirms it, empties the form and lists it', async () => {
    let requests: UserRequest[] = [];
    const api = server({
      [`GET ${URL}`]: () => jsonResponse({ requests }),
      [`POST ${URL}`]: () => {
        requests = [SAM];
        return jsonResponse(SAM, 201);
      },
    });
    await open();
    await waitFor(() => expect(text()).toContain(NO_REQUESTS));
    await fill();
    expect(text()).toContain('Signs policies.');
    expect(text()).toContain('27 / 2,000 characters');
    await click(getControl('Send request', form()));
    await waitFor(() => expect(toasts()).toContain(REQUEST_SENT));
    expect(api.calls(`POST ${URL}`).map((call) => call.body)).toEqual([
      {
        first_name: 'Sam',
        last_name: 'Signer',
        email: 'sam.signer@north.example',
        main_role: 'signer',
        justification: 'Signs the nursing policies.',
      },
    ]);
    await waitFor(() => expect(requestRows()).toHaveLength(1));
    expect(input('First name').value).toBe('');
    expect(input('Email').value).toBe('');
    expect(input('Main role').value).toBe('');
    expect(input('Justification').value).toBe('');
  });

  it("puts the server's field errors under the fields and shows a refusal in an alert", async () => {
    const api = server({
      [`POST ${URL}`]: [
        jsonResponse(
          { message: 'Enter a valid email address.', errors: { email: ['Enter a valid email address.'] } },
          400,
        ),
        jsonResponse(
          { message: 'sam.signer@north.example is already a member of this project: add them under Policy users.' },
          409,
        ),
      ],
    });
    await open();
    await fill();
    await click(getControl('Send request', form()));
    await waitFor(() => expect(fieldError('Email')).toBe('Enter a valid email address.'));
    expect(document.querySelector('form [role="alert"]')).toBeNull();

    await click(getControl('Send request', form()));
    await waitFor(() =>
      expect(document.querySelector('form [role="alert"]')?.textContent).toBe(
        'sam.signer@north.example is already a member of this project: add them under Policy users.',
      ),
    );
    expect(api.calls(`POST ${URL}`)).toHaveLength(2);
    // The form keeps what was typed.
    expect(input('First name').value).toBe('Sam');
  });

  it('lists the requests with their role, status, requester, date and reason', async () => {
    server({ [`GET ${URL}`]: jsonResponse({ requests: [RAE, SAM] }) });
    await open();
    await waitFor(() => expect(requestRows()).toHaveLength(2));
    const [rae, sam] = requestRows();
    expect(rae!.slice(0, 5)).toEqual(['Rae Reader', 'rae@north.example', 'Reader', 'Rejected', 'Ann Lee']);
    expect(rae![5]).toMatch(/2026/);
    expect(rae![6]).toBe('Use her existing account.');
    expect(sam!.slice(0, 5)).toEqual(['Sam Signer', 'sam@north.example', 'Signer', 'Pending', 'Ann Lee']);
    expect(sam![6]).toBe('—');
    expect(await violations()).toEqual([]);
    expect(document.querySelector('.mantine-Table-scrollContainer, [class*="ScrollContainer"]')).not.toBeNull();
  });

  it('shows why the requests cannot be loaded and tries again', async () => {
    server({
      [`GET ${URL}`]: [
        jsonResponse({ message: 'Your role may not request new users.' }, 403),
        jsonResponse({ requests: [SAM] }),
      ],
    });
    await open();
    await waitFor(() => expect(text()).toContain('Your role may not request new users.'));
    await click(getControl('Try again'));
    await waitFor(() => expect(requestRows()).toHaveLength(1));
  });
});
