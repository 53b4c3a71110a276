import { describe, expect, it } from 'vitest';
import { CONFIG_NO_CAPTCHA, SIGNED_OUT_CHECK, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { getControl, renderRoute, text, waitFor } from '../../../test/render';

const LINK_API = '/api/policy-links/12/ic-3.1';

function server(answer: Response | (() => Promise<Response>)) {
  return stubApi({
    'GET /api/auth/check': jsonResponse(SIGNED_OUT_CHECK),
    'GET /api/public/config': jsonResponse(CONFIG_NO_CAPTCHA),
    [`GET ${LINK_API}`]: answer,
  });
}

describe('StableLinkPage (/p/:projectId/:number)', () => {
  it('waits for the answer with a status', async () => {
    server(() => new Promise<Response>(() => {}));
    await renderRoute('/p/12/ic-3.1');
    expect(document.querySelector('[role="status"]')?.textContent).toContain('Opening policy IC-3.1');
  });

  it("sends a member to the policy's page, replacing the link in the history", async () => {
    server(jsonResponse({ outcome: 'member', document_id: 5 }));
    const { router } = await renderRoute('/p/12/ic-3.1');
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/policy_management/12/documents/5'));
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('sends a guest to the guest reader', async () => {
    server(jsonResponse({ outcome: 'guest', document_id: 5 }));
    const { router } = await renderRoute('/p/12/ic-3.1');
    await waitFor(() => expect(router.state.location.pathname).toBe('/read/12/documents/5'));
  });

  it('asks to sign in, coming back to the link afterwards', async () => {
    server(jsonResponse({ outcome: 'sign_in' }));
    const { router } = await renderRoute('/p/12/ic-3.1');
    await waitFor(() => expect(router.state.location.pathname).toBe('/member-login'));
    expect(router.state.location.search).toBe(`?redirect=${encodeURIComponent('/p/12/ic-3.1')}`);
  });

  it('says the policy was retired and links to its replacement', async () => {
    server(
      jsonResponse({
        outcome: 'retired',
        number: 'IC-3.1',
        title: 'Restraints',
        retired_on: '2026-03-10',
        replaced_by: { document_id: 9, number: 'IC-3.4', title: 'Restraint and seclusion' },
      }),
    );
    await renderRoute('/p/12/ic-3.1');
    await waitFor(() => expect(document.querySelector('h1')?.textContent).toBe('This policy was retired'));
    expect(text()).toContain('Policy IC-3.1 "Restraints" was retired on March 10, 2026.');
    expect(text()).toContain('It was replaced by IC-3.4 "Restraint and seclusion".');
    expect(getControl('IC-3.4 "Restraint and seclusion"').getAttribute('href')).toBe('/p/12/IC-3.4');
  });

  it('says retired without naming a replacement when there is none', async () => {
    server(
      jsonResponse({
        outcome: 'retired',
        number: 'IC-3.1',
        title: 'Restraints',
        retired_on: '2026-03-10',
        replaced_by: null,
      }),
    );
    await renderRoute('/p/12/ic-3.1');
    await waitFor(() => expect(text()).toContain('was retired on March 10, 2026.'));
    expect(text()).not.toContain('replaced by');
  });

  it('says there is no current policy with that number', async () => {
    server(jsonResponse({ message: 'There is no current policy numbered IC-3.1 in this project.' }, 404));
    await renderRoute('/p/12/ic-3.1');
    await waitFor(() => expect(document.querySelector('h1')?.textContent).toBe('Policy not found'));
    expect(text()).toContain('There is no current policy numbered IC-3.1 in this project.');
  });

  it('offers to try again when the server cannot answer', async () => {
    const api = server(jsonResponse({ message: 'The server is busy.' }, 503));
    await renderRoute('/p/12/ic-3.1');
    await waitFor(() => expect(text()).toContain('The server is busy.'));
    await waitFor(() => getControl('Try again'));
    expect(api.calls(`GET ${LINK_API}`)).toHaveLength(1);
  });
});
