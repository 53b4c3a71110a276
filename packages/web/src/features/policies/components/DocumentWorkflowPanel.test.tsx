import {
  ATTESTATION_STATEMENT,
  type DocumentWorkflow,
  SIGNATURE_MEANING,
  type Signature,
  type WorkflowProblem,
  type WorkflowRequest,
} from '@portal/shared';
import axe from 'axe-core';
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { type StubHandler, type StubRequest, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, typeInto, waitFor } from '../../../test/render';
import {
  API,
  BASE,
  DOC_API,
  dialog,
  fieldError,
  input,
  openDocument,
  sessionRoutes,
  tab,
  toasts,
  V3,
  withDraft,
} from './document-test-helpers';

const PAGE = `${BASE}/documents/5`;
const HASH = '3f2a9c0d1e8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f';
const OLD_HASH = 'aa11bb22cc33dd44ee55ff6600778899aabbccddeeff00112233445566778899';
const ANA = { id: 9, name: 'Ana Ruiz' };
const MEMBER = { id: 7, name: 'Member One' };
const RAY = { id: 11, name: 'Ray Chen' };

const NO_ABILITIES: DocumentWorkflow['abilities'] = {
  send_to_review: false,
  withdraw: false,
  approve: false,
  request_changes: false,
  sign: false,
  decline: false,
  attest: false,
  view_attestations: false,
};

function request(overrides: Partial<WorkflowRequest> & Pick<WorkflowRequest, 'id' | 'person'>): WorkflowRequest {
  return { kind: 'review', round: 1, status: 'pending', comment: null, decided_at: null, ...overrides };
}

function signature(overrides: Partial<Signature> & Pick<Signature, 'id' | 'signer'>): Signature {
  return {
    version_id: 103,
    version: 3,
    signed_at: '2026-03-02T10:00:00Z',
    ip: '10.0.0.8',
    user_agent:
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
    content_sha256: HASH,
    method: 'password',
    meaning: SIGNATURE_MEANING,
    valid: true,
    voided_at: null,
    void_reason: null,
    ...overrides,
  };
}

/** Version 3 of "Hand hygiene" waits for signatures; version 2 is current. The user may do nothing yet. */
function workflow(overrides: Partial<DocumentWorkflow> = {}): DocumentWorkflow {
  return {
    document_id: 5,
    status: 'published',
    working_version: { id: 103, version: 3, state: 'pending_signature', round: 1, author: MEMBER },
    current_version: { id: 102, version: 2, effective_on: '2026-01-15', content_sha256: OLD_HASH },
    reviews: [
      request({ id: 1, person: ANA, status: 'approved', comment: 'Looks right.', decided_at: '2026-03-01T09:00:00Z' }),
    ],
    signature_requests: [
      request({ id: 2, kind: 'signature', person: RAY, status: 'signed', decided_at: '2026-03-02T10:00:00Z' }),
      request({ id: 3, kind: 'signature', person: MEMBER }),
    ],
    signatures: [signature({ id: 31, signer: RAY })],
    published_signatures: [
      signature({ id: 21, signer: ANA, version_id: 102, version: 2, content_sha256: OLD_HASH, method: 'totp' }),
    ],
    events: [
      { id: 1, at: '2026-02-28T08:00:00Z', actor: MEMBER, action: 'send_to_review', version: 3, comment: 'Ready.' },
      { id: 2, at: '2026-03-01T09:00:00Z', actor: ANA, action: 'approve', version: 3, comment: 'Looks right.' },
      { id: 3, at: '2026-03-02T10:00:00Z', actor: RAY, action: 'sign', version: 3, comment: null },
    ],
    settings: { default_review_interval_months: 12, signatures_required: 'all', allow_self_signing: false },
    attestation: null,
    abilities: NO_ABILITIES,
    problems: [],
    ...overrides,
  };
}

/** A tiny server keeping the document and its workflow; `steps` answer the workflow POSTs. */
function server(initial: DocumentWorkflow, routes: Record<string, StubHandler | StubHandler[]> = {}) {
  let flow = initial;
  const step = (next: (body: unknown) => DocumentWorkflow) => (request: StubRequest) => {
    flow = next(request.body);
    return jsonResponse(flow);
  };
  return stubApi({
    ...sessionRoutes(),
    [`GET ${DOC_API}`]: () => jsonResponse(withDraft({ draft_version: { ...V3, state: 'pending_signature' } })),
    [`GET ${DOC_API}/workflow`]: () => jsonResponse(flow),
    [`POST ${DOC_API}/send-to-review`]: step(() => ({
      ...flow,
      working_version: { ...flow.working_version!, state: 'in_review' },
      abilities: NO_ABILITIES,
    })),
    [`POST ${DOC_API}/review`]: step(() => ({ ...flow, abilities: NO_ABILITIES })),
    [`POST ${DOC_API}/sign`]: step(() => ({ ...flow, abilities: NO_ABILITIES })),
    [`POST ${DOC_API}/attest`]: step(() => ({
      ...flow,
      attestation: { version_id: 102, required: true, attested_at: '2026-03-05T15:00:00Z' },
      abilities: NO_ABILITIES,
    })),
    ...routes,
  });
}

/** A draft of version 3 its author may send for review. */
const DRAFT: Partial<DocumentWorkflow> = {
  status: 'draft',
  working_version: { id: 103, version: 3, state: 'draft', round: 1, author: MEMBER },
  reviews: [],
  signature_requests: [],
  signatures: [],
  abilities: { ...NO_ABILITIES, send_to_review: true },
};
const SAFETY = { id: 8, name: 'Patient Safety' };

function problem(overrides: Partial<WorkflowProblem> & Pick<WorkflowProblem, 'kind' | 'message'>): WorkflowProblem {
  return { department: null, can_fix: true, ...overrides };
}

/** The reasons shown beside a disabled "Send for review". */
const blocked = () => document.querySelector<HTMLElement>('[data-testid="send-blocked"]');

/** The text of the elements an element's aria-describedby names. */
function describedBy(element: HTMLElement): string {
  const ids = element.getAttribute('aria-describedby')?.split(' ') ?? [];
  return ids.map((id) => document.getElementById(id)?.textContent ?? `(missing ${id})`).join(' ');
}

function actions(): string[] {
  const group = document.querySelector('[role="group"][aria-label="Workflow actions"]');
  return [...(group?.querySelectorAll('button') ?? [])].map((button) => button.textContent?.trim() ?? '');
}

async function openPanel() {
  await openDocument(PAGE);
  await waitFor(() => expect(text()).toContain('Review and sign-off'));
}

/** Clicks the control named `name` as soon as it shows. */
async function clickOnceShown(name: string) {
  await waitFor(() => getControl(name));
  await click(getControl(name));
}

async function expand(name: RegExp) {
  const control = [...document.querySelectorAll<HTMLElement>('button')].find((button) =>
    name.test(button.textContent ?? ''),
  );
  if (!control) throw new Error(`no accordion control ${name}`);
  await click(control);
}

/**
 * Serious and critical axe findings (jsdom cannot compute colours; the page regions come from the layout; the
 * fixture's policy text holds an image without alt text, which is the author's content, not the screen).
 */
async function violations(): Promise<string[]> {
  const rules = { 'color-contrast': { enabled: false }, region: { enabled: false }, 'image-alt': { enabled: false } };
  const result = await act(() => axe.run(document.body, { rules }));
  return result.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.html.slice(0, 160)).join(' | ')}`);
}

describe('DocumentWorkflowPanel', () => {
  it('shows where the version stands and who answered, without actions for an onlooker', async () => {
    server(workflow());
    await openPanel();
    expect(text()).toContain(
      'Version 3 by Member One is pending signature. Readers keep version 2 until it is published.',
    );
    const current = document.querySelector('li[aria-current="step"]');
    expect(current?.getAttribute('data-step')).toBe('pending_signature');
    expect(text(current!)).toContain('Pending signature (current step)');
    expect(text(document.querySelector('[aria-label="Reviewers"]')!)).toContain('Ana RuizApproved');
    expect(text(document.querySelector('[aria-label="Reviewers"]')!)).toContain('Looks right.');
    const signers = text(document.querySelector('[aria-label="Signers"]')!);
    expect(signers).toContain('Ray ChenSigned');
    expect(signers).toContain('Member OneWaiting');
    expect(text()).toContain('Every signer asked must sign.');
    expect(actions()).toEqual([]);
  });

  it('disables Send for review while it cannot succeed, says why beside it and links to the fix', async () => {
    const api = server(
      workflow({
        ...DRAFT,
        problems: [problem({ kind: 'no_reviewers', message: 'Patient Safety has no reviewers.', department: SAFETY })],
      }),
    );
    await openPanel();
    await waitFor(() => expect(actions()).toEqual(['Send for review']));
    const send = getControl('Send for review');
    // Disabled to everyone, yet focusable: a keyboard reaches it and hears the reason it is described by.
    expect(send.getAttribute('aria-disabled')).toBe('true');
    expect(send.hasAttribute('disabled')).toBe(false);
    expect(describedBy(send)).toBe('Patient Safety has no reviewers.');
    expect(text(blocked()!)).toBe('Patient Safety has no reviewers. Assign reviewers');
    expect(getControl('Assign reviewers', blocked()!).getAttribute('href')).toBe(`${BASE}/department-reviewers/8`);
    // One place says it: no warning above the panel's actions, and no dialog that would only repeat the refusal.
    expect(text()).not.toContain('This version cannot go on yet');
    await click(send);
    expect(document.querySelector('[role="dialog"]')).toBeNull();
    expect(api.calls(`POST ${DOC_API}/send-to-review`)).toHaveLength(0);
    expect(await violations()).toEqual([]);
  });

  it('says who can fix it when the signed-in user cannot', async () => {
    server(
      workflow({
        ...DRAFT,
        problems: [
          problem({
            kind: 'no_reviewers',
            message: 'Patient Safety has no reviewers.',
            department: SAFETY,
            can_fix: false,
          }),
          problem({
            kind: 'no_signers',
            message: 'Patient Safety has no signers.',
            department: SAFETY,
            can_fix: false,
          }),
        ],
      }),
    );
    await openPanel();
    await waitFor(() => expect(blocked()).not.toBeNull());
    expect([...blocked()!.querySelectorAll<HTMLElement>('[data-problem]')].map((line) => text(line))).toEqual([
      'Patient Safety has no reviewers. A policy administrator can assign reviewers.',
      'Patient Safety has no signers. A policy administrator can assign signers.',
    ]);
    expect(blocked()!.querySelector('a, button')).toBeNull();
    expect(describedBy(getControl('Send for review'))).toBe(
      'Patient Safety has no reviewers. Patient Safety has no signers.',
    );
  });

  it('opens the policy settings to choose a department, and the editor for the template fields', async () => {
    server(
      workflow({
        ...DRAFT,
        problems: [
          problem({
            kind: 'template_fields',
            message: 'Fill in the template fields still marked in the text before sending it for review: {{lead}}.',
          }),
          problem({
            kind: 'no_department',
            message: 'This policy has no department: its reviewers, signers and readers come from there.',
          }),
        ],
      }),
    );
    await openPanel();
    await waitFor(() => expect(blocked()).not.toBeNull());
    expect(getControl('Edit the text', blocked()!).getAttribute('href')).toBe(`${BASE}/documents/5/edit`);
    await click(getControl('Choose a department', blocked()!));
    await waitFor(() => expect(dialog().textContent).toContain('Policy settings'));
  });

  it('shows the problems of a version already in the workflow once, without a send button', async () => {
    server(
      workflow({
        abilities: { ...NO_ABILITIES, withdraw: true },
        problems: [problem({ kind: 'no_signers', message: 'Patient Safety has no signers.', department: SAFETY })],
      }),
    );
    await openPanel();
    await waitFor(() => expect(actions()).toEqual(['Withdraw']));
    const alert = [...document.querySelectorAll('.mantine-Alert-root')].find((element) =>
      element.textContent?.includes('This version cannot go on yet'),
    );
    expect(text(alert!)).toContain('Patient Safety has no signers. Assign signers');
    expect(blocked()).toBeNull();
  });

  it('sends the draft for review with an optional comment', async () => {
    const api = server(
      workflow({
        status: 'draft',
        working_version: { id: 103, version: 3, state: 'draft', round: 1, author: MEMBER },
        reviews: [],
        signature_requests: [],
        signatures: [],
        abilities: { ...NO_ABILITIES, send_to_review: true, view_attestations: false },
      }),
    );
    await openPanel();
    await clickOnceShown('Send for review');
    await waitFor(() => input('Comment for the reviewers', dialog()));
    await typeInto(input('Comment for the reviewers', dialog()), 'Ready for you.');
    await click(getControl('Send for review', dialog()));
    await waitFor(() => expect(toasts()).toContain('Version 3 was sent for review.'));
    expect(api.calls(`POST ${DOC_API}/send-to-review`)[0]!.body).toEqual({ comment: 'Ready for you.' });
    await waitFor(() => expect(document.querySelector('[role="dialog"]')).toBeNull());
    await waitFor(() =>
      expect(document.querySelector('li[aria-current="step"]')?.getAttribute('data-step')).toBe('in_review'),
    );
    expect(actions()).toEqual([]);
  });

  it('lets a reviewer approve or request changes, and a request for changes needs a comment', async () => {
    const api = server(
      workflow({
        working_version: { id: 103, version: 3, state: 'in_review', round: 2, author: MEMBER },
        reviews: [request({ id: 1, person: { id: 7, name: 'Member One' } })],
        signature_requests: [],
        signatures: [],
        abilities: { ...NO_ABILITIES, approve: true, request_changes: true },
      }),
    );
    await openPanel();
    await waitFor(() => expect(actions()).toEqual(['Approve', 'Request changes']));
    expect(text()).toContain('Reviewers (round 2)');
    expect(text()).toContain('Asked once the reviewers approve.');

    await click(getControl('Request changes'));
    await waitFor(() => input('What needs to change?', dialog()));
    await click(getControl('Request changes', dialog()));
    await waitFor(() => expect(fieldError('What needs to change?')).toBe('Say what needs to change.'));
    expect(api.calls(`POST ${DOC_API}/review`)).toHaveLength(0);

    await typeInto(input('What needs to change?', dialog()), 'Section 2 names the wrong soap.');
    await click(getControl('Request changes', dialog()));
    await waitFor(() => expect(toasts()).toContain('Version 3 was sent back to its author.'));
    expect(api.calls(`POST ${DOC_API}/review`)[0]!.body).toEqual({
      decision: 'request_changes',
      comment: 'Section 2 names the wrong soap.',
    });
  });

  it('approves with an optional comment', async () => {
    const api = server(
      workflow({
        working_version: { id: 103, version: 3, state: 'in_review', round: 1, author: MEMBER },
        signature_requests: [],
        signatures: [],
        abilities: { ...NO_ABILITIES, approve: true, request_changes: true },
      }),
    );
    await openPanel();
    await clickOnceShown('Approve');
    await waitFor(() => dialog());
    await click(getControl('Approve', dialog()));
    await waitFor(() => expect(toasts()).toContain('You approved version 3.'));
    expect(api.calls(`POST ${DOC_API}/review`)[0]!.body).toEqual({ decision: 'approve', comment: '' });
  });

  it('signs with the password after showing what the signature means, and shows a wrong password on its field', async () => {
    const api = server(workflow({ abilities: { ...NO_ABILITIES, sign: true, decline: true } }), {
      [`POST ${DOC_API}/sign`]: [
        jsonResponse(
          { message: 'The password is incorrect.', errors: { password: ['The password is incorrect.'] } },
          422,
        ),
        jsonResponse(
          workflow({
            status: 'published',
            working_version: null,
            current_version: { id: 103, version: 3, effective_on: '2026-03-05', content_sha256: HASH },
          }),
        ),
      ],
    });
    await openPanel();
    await waitFor(() => expect(actions()).toEqual(['Sign', 'Decline']));
    await click(getControl('Sign'));
    await waitFor(() => input('Password', dialog()));
    const box = text(dialog());
    expect(box).toContain('Sign version 3');
    expect(box).toContain('You are signing version 3 of “4.2 Hand hygiene”.');
    expect(box).toContain(SIGNATURE_MEANING);
    expect(box).toContain(`${HASH.slice(0, 12)}…`);
    expect(dialog().querySelector(`[title="${HASH}"]`)).not.toBeNull();
    // No authenticator app: no choice of method.
    expect(() => input('Authenticator code', dialog())).toThrow();

    await click(getControl('Sign version 3', dialog()));
    await waitFor(() => expect(fieldError('Password')).toBe('Enter your password.'));
    expect(api.calls(`POST ${DOC_API}/sign`)).toHaveLength(0);

    await typeInto(input('Password', dialog()), 'wrong one');
    await click(getControl('Sign version 3', dialog()));
    await waitFor(() => expect(fieldError('Password')).toBe('The password is incorrect.'));

    await typeInto(input('Password', dialog()), 'Kx7#qPv9!mZt2$Lw');
    await click(getControl('Sign version 3', dialog()));
    await waitFor(() => expect(toasts()).toContain('Version 3 is signed and published.'));
    expect(api.calls(`POST ${DOC_API}/sign`).map((call) => call.body)).toEqual([
      { version_id: 103, password: 'wrong one' },
      { version_id: 103, password: 'Kx7#qPv9!mZt2$Lw' },
    ]);
    await waitFor(() => expect(document.querySelector('[role="dialog"]')).toBeNull());
  });

  it('signs with an authenticator code when the user has two-factor', async () => {
    const api = server(workflow({ abilities: { ...NO_ABILITIES, sign: true } }), {
      'GET /api/auth/check': jsonResponse({
        authenticated: true,
        user: {
          id: 7,
          username: 'member',
          role: 'user',
          two_factor_secret: true,
          two_factor_confirmed_at: '2026-01-01T00:00:00Z',
        },
      }),
    });
    await openPanel();
    await clickOnceShown('Sign');
    await waitFor(() => input('Password', dialog()));
    const codeChoice = [...dialog().querySelectorAll<HTMLInputElement>('input[type="radio"]')].find(
      (radio) => radio.value === 'code',
    );
    await click(codeChoice!);
    await waitFor(() => input('Authenticator code', dialog()));
    await typeInto(input('Authenticator code', dialog()), '12345');
    await click(getControl('Sign version 3', dialog()));
    await waitFor(() =>
      expect(fieldError('Authenticator code')).toBe('Enter the 6-digit code of your authenticator app.'),
    );
    await typeInto(input('Authenticator code', dialog()), '123456');
    await click(getControl('Sign version 3', dialog()));
    await waitFor(() => expect(toasts()).toContain('You signed version 3.'));
    expect(api.calls(`POST ${DOC_API}/sign`)[0]!.body).toEqual({ version_id: 103, code: '123456' });
  });

  it('says so when the version changed meanwhile', async () => {
    server(workflow({ abilities: { ...NO_ABILITIES, sign: true } }), {
      [`POST ${DOC_API}/sign`]: jsonResponse(
        { message: 'This version changed meanwhile. Read it again before signing.' },
        409,
      ),
    });
    await openPanel();
    await clickOnceShown('Sign');
    await waitFor(() => input('Password', dialog()));
    await typeInto(input('Password', dialog()), 'secret');
    await click(getControl('Sign version 3', dialog()));
    await waitFor(() =>
      expect(text(dialog().querySelector('[role="alert"]')!)).toBe(
        'This version changed meanwhile. Read it again before signing.',
      ),
    );
  });

  it('declines with a required comment and withdraws after asking', async () => {
    const api = server(workflow({ abilities: { ...NO_ABILITIES, decline: true, withdraw: true } }), {
      [`POST ${DOC_API}/decline`]: jsonResponse(workflow()),
      [`POST ${DOC_API}/withdraw`]: jsonResponse(workflow()),
    });
    await openPanel();
    await waitFor(() => expect(actions()).toEqual(['Decline', 'Withdraw']));
    await click(getControl('Decline'));
    await waitFor(() => input('Why do you decline?', dialog()));
    await click(getControl('Decline', dialog()));
    await waitFor(() => expect(fieldError('Why do you decline?')).toBe('Say what needs to change.'));
    await typeInto(input('Why do you decline?', dialog()), 'Wrong owner.');
    await click(getControl('Decline', dialog()));
    await waitFor(() => expect(toasts()).toContain('You declined to sign version 3.'));
    expect(api.calls(`POST ${DOC_API}/decline`)[0]!.body).toEqual({ version_id: 103, comment: 'Wrong owner.' });

    await waitFor(() => expect(document.querySelector('[role="dialog"]')).toBeNull());
    await click(getControl('Withdraw'));
    await waitFor(() => expect(text(dialog())).toContain('signatures already given become void'));
    await typeInto(input('Why are you withdrawing it?', dialog()), 'Needs a new section.');
    await click(getControl('Withdraw', dialog()));
    await waitFor(() => expect(toasts()).toContain('Version 3 is a draft again.'));
    expect(api.calls(`POST ${DOC_API}/withdraw`)[0]!.body).toEqual({ comment: 'Needs a new section.' });
  });

  it('asks a reader to attest the current version, then says when they did', async () => {
    const api = server(
      workflow({
        working_version: null,
        reviews: [],
        signature_requests: [],
        signatures: [],
        attestation: { version_id: 102, required: true, attested_at: null },
        abilities: { ...NO_ABILITIES, attest: true },
      }),
    );
    await openPanel();
    expect(text()).toContain('Version 2 is in force, effective January 15, 2026.');
    expect(document.querySelector('li[aria-current="step"]')).toBeNull();
    const statement = ATTESTATION_STATEMENT.replace(/\.$/, '');
    await clickOnceShown(statement);
    await waitFor(() => expect(toasts()).toContain('Thank you. Your reading of version 2 is recorded.'));
    expect(api.calls(`POST ${DOC_API}/attest`)[0]!.body).toEqual({ version_id: 102 });
    await waitFor(() => expect(text()).toContain('You attested version 2 on March 5, 2026.'));
    expect(() => getControl(statement)).toThrow();
  });

  it('shows the signature manifest and the history, newest first', async () => {
    server(
      workflow({
        signatures: [
          signature({ id: 31, signer: RAY }),
          signature({
            id: 30,
            signer: ANA,
            valid: false,
            voided_at: '2026-02-20T10:00:00Z',
            void_reason: 'Withdrawn by the author',
            method: 'totp',
            user_agent: null,
          }),
        ],
      }),
    );
    await openPanel();
    await expand(/^Signatures \(3\)$/);
    const current = document.querySelector('table[aria-label="Signatures of Version 2 (current)"]')!;
    expect(text(current)).toContain('Ana Ruiz');
    expect(text(current)).toContain('Authenticator code');
    expect(text(current)).toContain('Valid');
    const working = document.querySelector('table[aria-label="Signatures of Version 3 (Pending signature)"]')!;
    const rows = [...working.querySelectorAll('tbody tr')].map((row) => text(row));
    expect(rows[0]).toContain('Ray Chen');
    expect(rows[0]).toContain('10.0.0.8');
    expect(rows[0]).toContain('Chrome 126 on Windows');
    expect(rows[0]).toContain(`${HASH.slice(0, 16)}…`);
    expect(rows[0]).toContain('Valid');
    expect(rows[1]).toContain('Void');
    expect(rows[1]).toContain('Withdrawn by the author');
    const hash = working.querySelector('[data-hash]')!;
    expect(hash.getAttribute('title')).toBe(HASH);
    expect(working.querySelector('button[aria-label="Copy the fingerprint of Ray Chen\'s signature"]')).not.toBeNull();

    await expand(/^Workflow history \(3\)$/);
    const events = [...document.querySelectorAll('[aria-label="Workflow history"] li')].map((item) => text(item));
    expect(events[0]).toContain('Signed');
    expect(events[0]).toContain('Ray Chen');
    expect(events[1]).toContain('Approved');
    expect(events[1]).toContain('Looks right.');
    expect(events[2]).toContain('Sent for review');
    expect(events[2]).toContain('Ready.');
  });

  it('shows nothing of the workflow when it is not available, and the policy still', async () => {
    server(workflow(), { [`GET ${DOC_API}/workflow`]: jsonResponse({ message: 'Not found.' }, 404) });
    await openDocument(PAGE);
    await waitFor(() => expect(document.querySelector('h1')?.textContent).toBe('Hand hygiene'));
    await waitFor(() =>
      expect(document.querySelector('[aria-label="Loading the review and signature status"]')).toBeNull(),
    );
    expect(text()).not.toContain('Review and sign-off');
    expect(() => tab('Readers')).toThrow();
  });

  it('shows the Readers tab with the attestation report when allowed', async () => {
    const api = server(workflow({ abilities: { ...NO_ABILITIES, view_attestations: true } }), {
      [`GET ${DOC_API}/attestations`]: jsonResponse({
        document: { id: 5, number: '4.2', title: 'Hand hygiene', department: { id: 3, name: 'Nursing', code: 'NUR' } },
        version: { id: 102, version: 2, effective_on: '2026-01-15' },
        readers: [
          {
            person: { id: 21, name: 'Ann Lee', username: 'ann', email: 'ann@north.example', main_role: 'reader' },
            attested_at: '2026-02-01T10:00:00Z',
            last_attested_version: 2,
          },
          {
            person: { id: 22, name: 'Bob Stone', username: 'bob', email: 'bob@north.example', main_role: 'reader' },
            attested_at: null,
            last_attested_version: 1,
          },
        ],
        others: [{ person: { id: 30, name: 'Dan Ford' }, attested_at: '2026-02-03T10:00:00Z' }],
        attested: 1,
        required: 2,
        rate: 0.5,
      }),
    });
    await openPanel();
    await waitFor(() => tab('Readers'));
    await click(tab('Readers'));
    await waitFor(() =>
      expect(text(document.querySelector('[data-testid="attestation-summary"]')!)).toContain(
        '1 of 2 readers attested version 2, effective January 15, 2026 (50%).',
      ),
    );
    const rows = [...document.querySelectorAll('tr[data-reader-id]')].map((row) => text(row));
    expect(rows[0]).toContain('Bob Stone');
    expect(rows[0]).toContain('Not yet');
    expect(rows[0]).toContain('Version 1');
    expect(rows[1]).toContain('Ann Lee');
    expect(text(document.querySelector('[aria-label="Also read by"]')!)).toContain('Dan Ford');
    expect(getControl('Download CSV').getAttribute('href')).toBe(`${API}/documents/5/attestations.csv`);
    expect(api.calls(`GET ${DOC_API}/attestations`)).toHaveLength(1);
  });

  it('opens the Readers tab from the address when the permission map allows the reports', async () => {
    server(workflow(), {
      'GET /api/me/permissions': jsonResponse({ permissions: { 'policy_management:attestation-reports': true } }),
      [`GET ${DOC_API}/attestations`]: jsonResponse({
        document: { id: 5, number: '4.2', title: 'Hand hygiene', department: null },
        version: { id: 102, version: 2, effective_on: null },
        readers: [],
        others: [],
        attested: 0,
        required: 0,
        rate: null,
      }),
    });
    await openDocument(`${PAGE}?tab=readers`);
    await waitFor(() => expect(text()).toContain('No readers: this policy has nobody who must read it.'));
  });

  it('has no serious accessibility findings, with the manifest open and in the sign dialog', async () => {
    server(
      workflow({
        abilities: { ...NO_ABILITIES, sign: true, decline: true, view_attestations: true },
        attestation: { version_id: 102, required: true, attested_at: null },
        problems: [problem({ kind: 'no_signers', message: 'Nursing has no signers.', department: SAFETY })],
      }),
    );
    await openPanel();
    await expand(/^Signatures/);
    await expand(/^Workflow history/);
    expect(await violations()).toEqual([]);
    await click(getControl('Sign'));
    await waitFor(() => input('Password', dialog()));
    expect(await violations()).toEqual([]);
  });
});
