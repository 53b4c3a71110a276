import type { UserRequest } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { type StubHandler, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, typeInto, waitFor } from '../../../test/render';
import { CreateMonitoringUserPage, NO_REQUESTS, REQUEST_SENT } from './CreateMonitoringUserPage';
import { API, BASE, fieldError, input, openScreen, sessionRoutes, toasts } from './people-test-fixtures';

const URL = `${API}/user-requests`;

const SAM: UserRequest = {
  id: 1,
  project: { id: 12, name: 'North Clinic' },
  first_name: 'Sam',
  last_name: 'Steward',
  email: 'sam@north.example',
  project_role: 'simple',
  main_roles: { monitoring: 'data_entry', policy_management: null, chart_review: null },
  justification: 'Enters data.',
  status: 'rejected',
  requested_by: { id: 7, name: 'Ann Lee' },
  decided_by: null,
  decided_at: null,
  rejection_reason: 'Use the existing account.',
  user_id: null,
  created_at: '2026-03-04T10:00:00Z',
};

function server(routes: Record<string, StubHandler | StubHandler[]> = {}) {
  return stubApi({ ...sessionRoutes(), [`GET ${URL}`]: jsonResponse({ requests: [] }), ...routes });
}

const open = () => openScreen(`${BASE}/create-user`, ['create-user'], <CreateMonitoringUserPage />);

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

describe('CreateMonitoringUserPage', () => {
  it('lists the requests filed, or says there are none', async () => {
    server({ [`GET ${URL}`]: jsonResponse({ requests: [SAM] }) });
    await open();
    await waitFor(() => expect(document.querySelector('tr[data-request-id="1"]')).not.toBeNull());
    const cells = [...document.querySelectorAll('tr[data-request-id="1"] td')].map((td) => td.textContent);
    expect(cells.slice(0, 5)).toEqual(['Sam Steward', 'sam@north.example', 'Data entry', 'Rejected', 'Ann Lee']);
    expect(cells[6]).toBe('Use the existing account.');
  });

  it('checks the fields before sending and sends the request with the monitoring main role', async () => {
    const api = server({
      [`POST ${URL}`]: [
        jsonResponse(
          {
            message: 'sam@north.example is already a member of this project: add them under Monitoring users.',
            errors: { email: ['sam@north.example is already a member of this project.'] },
          },
          409,
        ),
        jsonResponse({ ...SAM, status: 'pending', rejection_reason: null }, 201),
      ],
    });
    await open();
    await waitFor(() => expect(text()).toContain(NO_REQUESTS));
    await click(getControl('Send request'));
    await waitFor(() => expect(fieldError('First name')).toBe('Enter the first name.'));
    expect(fieldError('Main role')).toBe('Choose a main role.');
    expect(api.calls(`POST ${URL}`)).toHaveLength(0);

    await typeInto(input('First name'), 'Sam');
    await typeInto(input('Last name'), 'Steward');
    await typeInto(input('Email'), 'Sam@North.example');
    await chooseRole('Data entry');
    expect(text()).toContain('Imports data and answers data requests.');
    await typeInto(input('Justification'), 'Enters data.');
    await click(getControl('Send request'));
    await waitFor(() => expect(fieldError('Email')).toBe('sam@north.example is already a member of this project.'));
    await click(getControl('Send request'));
    await waitFor(() => expect(toasts()).toContain(REQUEST_SENT));
    expect(api.calls(`POST ${URL}`)[1]!.body).toEqual({
      first_name: 'Sam',
      last_name: 'Steward',
      email: 'sam@north.example',
      main_role: 'data_entry',
      justification: 'Enters data.',
    });
  });
});
