import { ATTESTATION_STATEMENT, type BulkAction, type BulkCandidate, SIGNATURE_MEANING } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { type StubHandler, type StubRequest, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, typeInto, waitFor } from '../../../test/render';
import { seriousViolations } from '../../../test/ui';
import { API, BASE, dialog, fieldError, input, openPolicyScreen, sessionRoutes, toasts } from './admin-test-helpers';
import { BulkActionPage } from './BulkActionPage';

const NUR = { id: 3, name: 'Nursing', code: 'NUR' };
const TOKEN = 'batch-token-0123456789abcdef';

function candidate(id: number, overrides: Partial<BulkCandidate> = {}): BulkCandidate {
  return {
    id,
    number: `1.${id}`,
    title: `Policy ${id}`,
    department: NUR,
    version_id: id * 10,
    version: 2,
    state: 'published',
    note: null,
    ...overrides,
  };
}

const TWELVE = Array.from({ length: 12 }, (_, index) => candidate(index + 1));

type Outcome = (ids: number[], request: StubRequest) => Response | Promise<Response>;

/** Answers every id done, except those `failing` says (with their message). */
function answer(failing: (id: number) => string | null = () => null): Outcome {
  return (ids) =>
    jsonResponse({
      results: ids.map((id) => {
        const message = failing(id);
        return message
          ? { document_id: id, outcome: 'failed', message }
          : { document_id: id, outcome: 'done', message: 'Done.' };
      }),
    });
}

function server(
  action: BulkAction,
  candidates: BulkCandidate[],
  outcomes: Outcome[],
  routes: Record<string, StubHandler | StubHandler[]> = {},
) {
  let call = 0;
  return stubApi({
    ...sessionRoutes(),
    [`GET ${API}/bulk/${action}`]: () => jsonResponse({ documents: candidates }),
    [`POST ${API}/bulk/${action}`]: (request: StubRequest) => {
      const outcome = outcomes[Math.min(call, outcomes.length - 1)]!;
      call += 1;
      return outcome((request.body as { document_ids: number[] }).document_ids, request);
    },
    [`POST ${API}/bulk/sign/authorize`]: jsonResponse({ batch_token: TOKEN, expires_at: '2099-01-01T00:00:00Z' }),
    ...routes,
  });
}

const open = (action: BulkAction) =>
  openPolicyScreen(`${BASE}/bulk-${action}`, [`bulk-${action}`], <BulkActionPage action={action} />);

function checkbox(label: string): HTMLInputElement {
  const element = document.querySelector<HTMLInputElement>(`input[type="checkbox"][aria-label="${label}"]`);
  if (!element) throw new Error(`no checkbox ${label}`);
  return element;
}

function results(): Record<number, string> {
  return Object.fromEntries(
    [...document.querySelectorAll<HTMLElement>('tr[data-result-id]')].map((row) => [
      Number(row.dataset.resultId),
      row.dataset.outcome ?? '',
    ]),
  );
}

const bodies = (api: ReturnType<typeof stubApi>, action: BulkAction) =>
  api.calls(`POST ${API}/bulk/${action}`).map((call) => call.body as { document_ids: number[]; batch_token?: string });

describe('BulkActionPage', () => {
  it('says when there is nothing to do', async () => {
    server('sign', [], []);
    await open('sign');
    expect(document.querySelector('h1')?.textContent).toBe('Sign policies');
    await waitFor(() => expect(text()).toContain('No policies wait for your signature.'));
    expect(document.querySelector('table')).toBeNull();
  });

  it('chooses policies one by one or all, and counts them', async () => {
    server('new-version', TWELVE.slice(0, 3), [answer()]);
    await open('new-version');
    await waitFor(() => checkbox('Choose 1.1 Policy 1'));
    expect(text()).toContain('0 of 3 chosen');
    expect(getControl('Choose policies first').hasAttribute('disabled')).toBe(true);
    await click(checkbox('Choose 1.2 Policy 2'));
    expect(text()).toContain('1 of 3 chosen');
    expect(checkbox('Choose every policy').indeterminate).toBe(true);
    await click(checkbox('Choose every policy'));
    expect(text()).toContain('3 of 3 chosen');
    expect(getControl('Start new versions of 3 policies').hasAttribute('disabled')).toBe(false);
    await click(checkbox('Choose every policy'));
    expect(text()).toContain('0 of 3 chosen');
  });

  it('attests twelve policies in two requests of 10 and 2, shows each result, and retries only the failed one', async () => {
    const api = server('read', TWELVE, [
      answer(),
      answer((id) => (id === 11 ? 'This policy has a newer version now.' : null)),
      answer(),
    ]);
    await open('read');
    expect(document.querySelector('h1')?.textContent).toBe('Read and attest policies');
    await waitFor(() => checkbox('Choose every policy'));
    await click(checkbox('Choose every policy'));
    await click(getControl('Attest 12 policies'));
    await waitFor(() => expect(text(dialog())).toContain(ATTESTATION_STATEMENT));
    expect(bodies(api, 'read')).toHaveLength(0);
    await click(getControl('Attest 12 policies', dialog()));

    await waitFor(() => expect(text()).toContain('11 done · 0 already done · 1 failed'));
    expect(bodies(api, 'read').map((body) => body.document_ids)).toEqual([
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
      [11, 12],
    ]);
    expect(bodies(api, 'read').every((body) => body.batch_token === undefined)).toBe(true);
    expect(results()[11]).toBe('failed');
    expect(results()[12]).toBe('done');
    expect(text(document.querySelector('tr[data-result-id="11"]')!)).toContain('This policy has a newer version now.');
    expect(text(document.querySelector('[role="alert"]')!)).toContain('1 policy was not done.');

    await click(getControl('Retry failed (1)'));
    await waitFor(() => expect(results()[11]).toBe('done'));
    expect(bodies(api, 'read')[2]!.document_ids).toEqual([11]);
    expect(text()).toContain('12 done · 0 already done · 0 failed');
    await waitFor(() => expect(toasts()).toContain('1 policy attested.'));
    expect(() => getControl('Retry failed (1)')).toThrow();
  });

  it('shows the progress while the chunks go, one after the other', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const api = server('read', TWELVE, [
      answer(),
      (ids) => {
        const response = answer()(ids, {} as StubRequest) as Response;
        return held.then(() => response);
      },
    ]);
    await open('read');
    await waitFor(() => checkbox('Choose every policy'));
    await click(checkbox('Choose every policy'));
    await click(getControl('Attest 12 policies'));
    await waitFor(() => dialog());
    await click(getControl('Attest 12 policies', dialog()));
    await waitFor(() =>
      expect(text(document.querySelector('[data-testid="bulk-progress"]')!)).toBe('Recording… 10 of 12'),
    );
    expect(document.querySelector('[role="progressbar"]')?.getAttribute('aria-label')).toBe('10 of 12');
    expect(results()[1]).toBe('done');
    expect(results()[12]).toBe('waiting');
    expect(() => getControl('Back to the list')).toThrow();
    expect(bodies(api, 'read')).toHaveLength(2);
    release();
    await waitFor(() => expect(text()).toContain('12 done · 0 already done · 0 failed'));
    await waitFor(() => expect(toasts()).toContain('12 policies attested.'));
  });

  it('marks the policies of a failed request failed and goes on with the next one', async () => {
    const api = server('send-to-sign', TWELVE, [
      () => jsonResponse({ message: 'Something went wrong.' }, 500),
      answer(),
      answer(),
    ]);
    await open('send-to-sign');
    await waitFor(() => checkbox('Choose every policy'));
    await click(checkbox('Choose every policy'));
    await click(getControl('Send 12 policies for review'));
    await waitFor(() => dialog());
    await click(getControl('Send 12 policies', dialog()));
    await waitFor(() => expect(text()).toContain('2 done · 0 already done · 10 failed'));
    expect(text(document.querySelector('tr[data-result-id="1"]')!)).toContain('Something went wrong.');
    await click(getControl('Retry failed (10)'));
    await waitFor(() => expect(text()).toContain('12 done · 0 already done · 0 failed'));
    expect(bodies(api, 'send-to-sign').map((body) => body.document_ids)).toEqual([
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
      [11, 12],
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
    ]);
  });

  it('signs after confirming the password once, sends the batch token, and retries with the same token', async () => {
    const three = TWELVE.slice(0, 3).map((item) => ({ ...item, state: 'pending_signature' as const }));
    const api = server(
      'sign',
      three,
      [answer((id) => (id === 2 ? 'The version changed meanwhile.' : null)), answer()],
      {
        [`POST ${API}/bulk/sign/authorize`]: [
          jsonResponse(
            { message: 'The password is incorrect.', errors: { password: ['The password is incorrect.'] } },
            422,
          ),
          jsonResponse({ batch_token: TOKEN, expires_at: '2099-01-01T00:00:00Z' }),
        ],
      },
    );
    await open('sign');
    await waitFor(() => checkbox('Choose 1.1 Policy 1'));
    await click(checkbox('Choose 1.1 Policy 1'));
    await click(checkbox('Choose 1.2 Policy 2'));
    await click(getControl('Sign 2 policies'));
    await waitFor(() => input('Password', dialog()));
    expect(text(dialog())).toContain(SIGNATURE_MEANING);

    await click(getControl('Sign 2 policies', dialog()));
    await waitFor(() => expect(fieldError('Password')).toBe('Enter your password.'));
    expect(api.calls(`POST ${API}/bulk/sign/authorize`)).toHaveLength(0);

    await typeInto(input('Password', dialog()), 'wrong');
    await click(getControl('Sign 2 policies', dialog()));
    await waitFor(() => expect(fieldError('Password')).toBe('The password is incorrect.'));
    expect(bodies(api, 'sign')).toHaveLength(0);

    await typeInto(input('Password', dialog()), 'Kx7#qPv9!mZt2$Lw');
    await click(getControl('Sign 2 policies', dialog()));
    await waitFor(() => expect(text()).toContain('1 done · 0 already done · 1 failed'));
    expect(api.calls(`POST ${API}/bulk/sign/authorize`).map((call) => call.body)).toEqual([
      { document_ids: [1, 2], password: 'wrong' },
      { document_ids: [1, 2], password: 'Kx7#qPv9!mZt2$Lw' },
    ]);
    expect(bodies(api, 'sign')).toEqual([{ document_ids: [1, 2], batch_token: TOKEN }]);
    await waitFor(() => expect(document.querySelector('[role="dialog"]')).toBeNull());

    await click(getControl('Retry failed (1)'));
    await waitFor(() => expect(text()).toContain('2 done · 0 already done · 0 failed'));
    expect(document.querySelector('[role="dialog"]')).toBeNull();
    expect(bodies(api, 'sign')[1]).toEqual({ document_ids: [2], batch_token: TOKEN });
    expect(api.calls(`POST ${API}/bulk/sign/authorize`)).toHaveLength(2);
  });

  it('asks for the credentials again when the signing confirmation has expired', async () => {
    const expired = 'Your signing confirmation has expired. Enter your password or a code again to sign.';
    const api = server('sign', TWELVE, [() => jsonResponse({ message: expired }, 423), answer()]);
    await open('sign');
    await waitFor(() => checkbox('Choose every policy'));
    await click(checkbox('Choose every policy'));
    await click(getControl('Sign 12 policies'));
    await waitFor(() => input('Password', dialog()));
    await typeInto(input('Password', dialog()), 'Kx7#qPv9!mZt2$Lw');
    await click(getControl('Sign 12 policies', dialog()));
    await waitFor(() => expect(text()).toContain('0 done · 0 already done · 12 failed'));
    // The expired batch stops at once: the second chunk is not sent with a token the server refuses.
    expect(bodies(api, 'sign')).toHaveLength(1);
    expect(text(document.querySelector('tr[data-result-id="12"]')!)).toContain(expired);

    await click(getControl('Retry failed (12)'));
    await waitFor(() => input('Password', dialog()));
    await typeInto(input('Password', dialog()), 'Kx7#qPv9!mZt2$Lw');
    await click(getControl('Sign 12 policies', dialog()));
    await waitFor(() => expect(text()).toContain('12 done · 0 already done · 0 failed'));
    expect(api.calls(`POST ${API}/bulk/sign/authorize`)).toHaveLength(2);
    expect(bodies(api, 'sign').map((body) => body.document_ids.length)).toEqual([10, 10, 2]);
  });

  it('has no serious accessibility findings, choosing and in the results', async () => {
    server(
      'sign',
      TWELVE.slice(0, 2).map((item) => ({ ...item, note: 'No signer in NUR' })),
      [answer((id) => (id === 2 ? 'No signer in NUR' : null))],
    );
    await open('sign');
    await waitFor(() => checkbox('Choose every policy'));
    await click(checkbox('Choose every policy'));
    expect(await seriousViolations()).toEqual([]);
    await click(getControl('Sign 2 policies'));
    await waitFor(() => input('Password', dialog()));
    expect(await seriousViolations()).toEqual([]);
    await typeInto(input('Password', dialog()), 'Kx7#qPv9!mZt2$Lw');
    await click(getControl('Sign 2 policies', dialog()));
    await waitFor(() => getControl('Retry failed (1)'));
    await waitFor(() => expect(document.querySelector('[role="dialog"]')).toBeNull());
    expect(await seriousViolations()).toEqual([]);
  });
});
