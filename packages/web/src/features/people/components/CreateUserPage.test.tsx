import type { UserRequest } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { type StubHandler, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, typeInto, waitFor } from '../../../test/render';
import { errorOf, field, seriousViolations, toasts } from '../../../test/ui';
import { CreateUserPage, NO_REQUESTS, REQUEST_SENT } from './CreateUserPage';
import { APPS, api, base, openScreen, sessionRoutes } from './people-test-fixtures';

/**
 * Per app: a role to ask for, its label and what the form says it may do, a second role for the list, and the texts
 * of the screen that name the app, as they read.
 */
const ROLES = {
  policy_management: {
    role: 'signer',
    label: 'Signer',
    does: 'Signs policies.',
    other: 'reader',
    otherLabel: 'Reader',
    among: 'After that they appear among the policy users with the main role you chose.',
    members: ['Add them under Policy users', 'policy-users'],
    undescribed: 'What the person may do in policy management.',
  },
  monitoring: {
    role: 'data_entry',
    label: 'Data entry',
    does: 'Imports data and answers data requests.',
    other: 'viewer',
    otherLabel: 'Viewer',
    among: 'After that they appear among the monitoring users with the main role you chose.',
    members: ['Add them under Monitoring users', 'assign-users'],
    undescribed: 'What the person may do in monitoring.',
  },
} as const;

describe.each(APPS)('CreateUserPage of $app', (d) => {
  const roles = ROLES[d.app];
  const URL = `${api(d)}/user-requests`;

  function request(
    overrides: Partial<UserRequest> & Pick<UserRequest, 'id' | 'first_name' | 'last_name'>,
    role: string = roles.other,
  ): UserRequest {
    return {
      project: { id: 12, name: 'North Clinic' },
      email: `${overrides.first_name.toLowerCase()}@north.example`,
      project_role: 'simple',
      main_roles: { monitoring: null, policy_management: null, chart_review: null, [d.app]: role },
      justification: 'Needs to take part.',
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
  const SAM = request({ id: 1, first_name: 'Sam', last_name: 'Steward' }, roles.role);
  const RAE = request({
    id: 2,
    first_name: 'Rae',
    last_name: 'Reader',
    status: 'rejected',
    rejection_reason: 'Use her existing account.',
  });

  function server(routes: Record<string, StubHandler | StubHandler[]> = {}) {
    return stubApi({ ...sessionRoutes(d), [`GET ${URL}`]: jsonResponse({ requests: [] }), ...routes });
  }

  const open = () => openScreen(d, d.createUser, [d.createUser], <CreateUserPage d={d} />);

  function form(): HTMLFormElement {
    const element = document.querySelector('form');
    if (!element) throw new Error('no form');
    return element;
  }

  /** Opens the main role Select and clicks the option whose label is `label` (its description follows it). */
  async function chooseRole(label: string) {
    const select = field('Main role');
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

  async function fill() {
    await typeInto(field('First name'), 'Sam');
    await typeInto(field('Last name'), 'Steward');
    await typeInto(field('Email'), ' Sam.Steward@North.example ');
    await chooseRole(roles.label);
    await typeInto(field('Justification'), 'Takes part from December.');
  }

  const requestRows = () =>
    [...document.querySelectorAll('tr[data-request-id]')].map((tr) =>
      [...tr.querySelectorAll('td')].map((td) => td.textContent ?? ''),
    );

  it('explains the request and shows placeholders while the requests load', async () => {
    server({ [`GET ${URL}`]: () => new Promise<Response>(() => {}) });
    await open();
    expect(document.querySelector('h1')!.textContent).toBe('Request a new user');
    expect(text()).toContain('a superadmin creates the account and the person receives an invitation email');
    expect(text()).toContain(roles.among);
    expect(document.querySelector('[role="status"][aria-label="Loading the requests"]')).not.toBeNull();
    expect(getControl(roles.members[0]).getAttribute('href')).toBe(`${base(d)}/${roles.members[1]}`);
    expect(text()).toContain(roles.undescribed);
  });

  it('says what is missing without calling the server', async () => {
    const api = server();
    await open();
    await click(getControl('Send request', form()));
    await waitFor(() => expect(errorOf('First name')).toBe('Enter the first name.'));
    expect(errorOf('Last name')).toBe('Enter the last name.');
    expect(errorOf('Email')).toBe('Enter a valid email address.');
    expect(errorOf('Main role')).toBe('Choose a main role.');
    expect(errorOf('Justification')).toBe('Enter the justification.');
    expect(await seriousViolations()).toEqual([]);

    await typeInto(field('Email'), 'not-an-email');
    await typeInto(field('Justification'), 'x'.repeat(2001));
    await waitFor(() => expect(text()).toContain('2,001 / 2,000 characters'));
    await click(getControl('Send request', form()));
    await waitFor(() => expect(errorOf('Justification')).toBe('Justification must be at most 2000 characters.'));
    expect(errorOf('Email')).toBe('Enter a valid email address.');
    expect(api.calls(`POST ${URL}`)).toHaveLength(0);
  });

  it("sends the request with the app's main role, confirms it, empties the form and lists it", async () => {
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
    expect(text()).toContain(roles.does);
    expect(text()).toContain('25 / 2,000 characters');
    await click(getControl('Send request', form()));
    await waitFor(() => expect(toasts()).toContain(REQUEST_SENT));
    expect(api.calls(`POST ${URL}`).map((call) => call.body)).toEqual([
      {
        first_name: 'Sam',
        last_name: 'Steward',
        email: 'sam.steward@north.example',
        main_role: roles.role,
        justification: 'Takes part from December.',
      },
    ]);
    await waitFor(() => expect(requestRows()).toHaveLength(1));
    expect(field('First name').value).toBe('');
    expect(field('Email').value).toBe('');
    expect(field('Main role').value).toBe('');
    expect(field('Justification').value).toBe('');
  });

  it("puts the server's field errors under the fields and shows a refusal in an alert", async () => {
    const refusal = 'sam.steward@north.example is already a member of this project.';
    const api = server({
      [`POST ${URL}`]: [
        jsonResponse(
          { message: 'Enter a valid email address.', errors: { email: ['Enter a valid email address.'] } },
          400,
        ),
        jsonResponse({ message: refusal }, 409),
      ],
    });
    await open();
    await fill();
    await click(getControl('Send request', form()));
    await waitFor(() => expect(errorOf('Email')).toBe('Enter a valid email address.'));
    expect(document.querySelector('form [role="alert"]')).toBeNull();

    await click(getControl('Send request', form()));
    await waitFor(() => expect(document.querySelector('form [role="alert"]')?.textContent).toBe(refusal));
    expect(api.calls(`POST ${URL}`)).toHaveLength(2);
    // The form keeps what was typed.
    expect(field('First name').value).toBe('Sam');
  });

  it("lists the requests with the app's role, status, requester, date and reason", async () => {
    server({ [`GET ${URL}`]: jsonResponse({ requests: [RAE, SAM] }) });
    await open();
    await waitFor(() => expect(requestRows()).toHaveLength(2));
    const [rae, sam] = requestRows();
    expect(rae!.slice(0, 5)).toEqual(['Rae Reader', 'rae@north.example', roles.otherLabel, 'Rejected', 'Ann Lee']);
    expect(rae![5]).toMatch(/2026/);
    expect(rae![6]).toBe('Use her existing account.');
    expect(sam!.slice(0, 5)).toEqual(['Sam Steward', 'sam@north.example', roles.label, 'Pending', 'Ann Lee']);
    expect(sam![6]).toBe('—');
    expect(await seriousViolations()).toEqual([]);
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
