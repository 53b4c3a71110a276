import { SNIPPET_START, SNIPPET_STOP } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { SIGNED_OUT_CHECK, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, renderRoute, text, typeInto, waitFor } from '../../../test/render';
import { field } from '../../../test/ui';
import { UNAVAILABLE_TEXT } from './guest-frame';

const API = '/api/guest/projects/12';
const UNAVAILABLE = jsonResponse({ message: 'Reading without an account is not available here.' }, 404);
const POLICY = {
  id: 5,
  number: '3.1',
  title: 'Hand hygiene',
  department: 'Nursing',
  version: 2,
  effective_on: '2026-01-15',
  approved_on: '2026-01-10',
  content: '<h2>Purpose</h2><p>Wash hands before every patient contact.</p>',
};

function server(routes: Record<string, Response | (() => Response | Promise<Response>)> = {}) {
  return stubApi({
    'GET /api/auth/check': jsonResponse(SIGNED_OUT_CHECK),
    [`GET ${API}`]: jsonResponse({ project: { id: 12, name: 'North Clinic' } }),
    [`GET ${API}/documents`]: jsonResponse({
      documents: [
        { id: 5, number: '3.1', title: 'Hand hygiene', department: 'Nursing' },
        { id: 6, number: null, title: 'Visitors', department: null },
      ],
    }),
    [`GET ${API}/documents/5`]: jsonResponse(POLICY),
    ...routes,
  });
}

const signInLink = () =>
  [...document.querySelectorAll<HTMLAnchorElement>('a')].find((a) => a.textContent === 'Sign in');

describe('guest reader', () => {
  it('shows a loading state, then the table of contents; a search shows highlighted snippets', async () => {
    let answer: (response: Response) => void = () => {};
    const api = server({
      [`GET ${API}`]: () => new Promise<Response>((resolve) => (answer = resolve)),
      [`GET ${API}/search`]: jsonResponse({
        results: [
          { id: 5, number: '3.1', title: 'Hand hygiene', snippet: `Wash ${SNIPPET_START}hands${SNIPPET_STOP} often` },
        ],
        total: 1,
      }),
    });
    await renderRoute('/read/12');
    await waitFor(() => expect(document.querySelector('[aria-label="Loading the policies"]')).not.toBeNull());
    answer(jsonResponse({ project: { id: 12, name: 'North Clinic' } }));
    await waitFor(() => expect(document.querySelector('h1')?.textContent).toBe('North Clinic policies'));
    await waitFor(() => expect(text()).toContain('Table of contents'));
    const rows = [...document.querySelectorAll('tbody tr')].map((row) => row.textContent);
    expect(rows[0]).toContain('3.1Hand hygiene');
    expect(document.querySelector<HTMLAnchorElement>('tbody a')!.getAttribute('href')).toBe('/read/12/documents/5');

    await typeInto(field('Search policies'), 'hands');
    await click(getControl('Search'));
    await waitFor(() => expect(text()).toContain('1 policy found'));
    expect(api.calls(`GET ${API}/search`)[0]!.query.get('q')).toBe('hands');
    expect(document.querySelector('[data-testid="snippet"] mark')?.textContent).toBe('hands');
  });

  it('says reading without an account is not available, with a sign-in link, when the server answers 404', async () => {
    server({ [`GET ${API}`]: UNAVAILABLE, [`GET ${API}/documents/5`]: UNAVAILABLE });
    await renderRoute('/read/12/documents/5');
    await waitFor(() => expect(text()).toContain(UNAVAILABLE_TEXT));
    expect(text()).not.toContain('Hand hygiene');
    const link = signInLink();
    expect(link?.getAttribute('href')).toBe(
      `/member-login?redirect=${encodeURIComponent('/app/policy_management/12/documents/5')}`,
    );
  });

  it('shows a policy: one header line, its text, Print and the uncontrolled copy note, no people', async () => {
    server();
    await renderRoute('/read/12/documents/5');
    await waitFor(() => expect(document.querySelector('h1')?.textContent).toBe('3.1 Hand hygiene'));
    expect(text(document.querySelector('[data-testid="policy-facts"]')!)).toBe(
      'Version 2 · Effective Jan 15, 2026 · Approved Jan 10, 2026 · Nursing',
    );
    expect(document.querySelector('section[aria-label="Text of 3.1 Hand hygiene"] p')?.textContent).toBe(
      'Wash hands before every patient contact.',
    );
    expect(text()).toContain('Printed copies are not controlled.');
    expect(getControl('Print')).toBeTruthy();
    expect(signInLink()).toBeTruthy();
    expect(document.title).toContain('3.1 Hand hygiene');
  });

  it('says a policy that is not published is not there, while the reader stays open', async () => {
    server({ [`GET ${API}/documents/9`]: jsonResponse({ message: 'Policy not found.' }, 404) });
    await renderRoute('/read/12/documents/9');
    await waitFor(() => expect(text()).toContain('This policy is not published.'));
    expect(text()).not.toContain(UNAVAILABLE_TEXT);
  });
});
