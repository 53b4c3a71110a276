import { describe, expect, it } from 'vitest';
import { type StubRequest, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, typeInto, waitFor } from '../../../test/render';
import {
  appRoutes,
  assessment,
  BASE,
  dialog,
  ELEMENT_API,
  element,
  errorAt,
  field,
  openApp,
  optionsOf,
  pick,
  STD_API,
  toasts,
} from './std-test-fixtures';

const CURRENT = assessment({ id: 8, name: 'Self-assessment 2026' });

function server(extra: Record<string, unknown> = {}) {
  return stubApi({
    ...appRoutes(CURRENT),
    [`GET ${ELEMENT_API}`]: jsonResponse(element()),
    ...(extra as Record<string, never>),
  });
}

const open = () => openApp(`${BASE}/compilence?element=502`);
const panel = () => document.querySelector<HTMLElement>('[role="dialog"]')!;
const section = (name: string) => panel().querySelector<HTMLElement>(`section[aria-label="${name}"]`)!;
const ready = () => waitFor(() => expect(panel()?.textContent ?? '').toContain('Linked policies'));

describe('ElementPanel', () => {
  it('shows the live state of linked policies, measures and audits', async () => {
    server();
    await open();
    await ready();
    const policies = section('Linked policies');
    const policy = policies.querySelector('a')!;
    expect(policy.textContent).toBe('2.4 Nurse staffing plan');
    expect(policy.getAttribute('href')).toBe('/app/policy_management/12/documents/5');
    for (const words of [
      'Approved',
      'Review overdue',
      'Evidence expired',
      'Version 3',
      '2 signatures',
      'Attestation 85%',
    ])
      expect(policies.textContent).toContain(words);
    expect(policies.textContent).toContain('Next review Jan 15, 2026');

    const measures = section('Linked measures');
    expect(measures.querySelector('a')!.getAttribute('href')).toBe('/app/monitoring/12/pages/page/9');
    expect(measures.textContent).toContain('Latest 7.5 hours (2026-02)');
    expect(measures.textContent).toContain('Target 8 hours');
    expect(measures.textContent).toContain('Below target');
    expect(measures.textContent).toContain('Variation: Concern');
    expect(measures.textContent).toContain('Note: Monthly');

    const audits = section('Linked audits');
    expect(audits.querySelector('a')!.getAttribute('href')).toBe('/app/chart-review/12/dashboard/4');
    expect(audits.textContent).toContain('Latest period 2026-02: 92% compliance (n = 30)');
    expect(audits.textContent).toContain('Target 90%');
    expect(audits.textContent).toContain('Meets target');

    expect(section('Crosswalk').textContent).toContain('TJC-HAP 2026 NR.02.01.01 Nurse staffing (equal)');
    expect(section('Comments').textContent).toContain('Roster attached.');
    expect(section('History').textContent).toContain('Result: Not assessed -> Non-compliant');
    expect(section('History').textContent).toContain('Ada Admin');
  });

  it('shows a linked audit question with its compliance in each programme of its tool', async () => {
    server({
      [`GET ${ELEMENT_API}`]: jsonResponse(
        element({
          questions: [
            {
              link_id: 77,
              note: '',
              id: 301,
              key: 'reassessed',
              text: 'Was pain reassessed within an hour?',
              tool: 'Pain',
              tool_id: 6,
              programs: [
                { id: 4, name: 'Pain audit', target: 0.9, latest: { period: 'Oct 2026', rate: 2 / 3, n: 3 } },
                { id: 5, name: 'Pain audit ED', target: 0.9, latest: null },
              ],
            },
          ],
        }),
      ),
    });
    await open();
    await ready();
    const questions = section('Linked audit questions');
    expect(questions.querySelector('a')!.getAttribute('href')).toBe('/app/chart-review/12/tools/6');
    // The question's words and its tool, never its key (a key is for the tool's editor).
    expect(questions.textContent).toContain('Audit tool: Pain');
    expect(questions.textContent).not.toContain('· reassessed');
    expect(questions.textContent).toContain('Pain audit: Oct 2026, 67% compliance (n = 3)');
    expect(questions.textContent).toContain('Below target');
    expect(questions.textContent).toContain('Pain audit ED: no reviews counted yet');
  });

  it('a measure without data says why', async () => {
    const base = element();
    server({
      [`GET ${ELEMENT_API}`]: jsonResponse(
        element({
          measures: [
            {
              ...base.measures[0]!,
              latest: null,
              meets_target: null,
              variation: null,
              empty_reason: 'No data entered yet.',
            },
          ],
        }),
      ),
    });
    await open();
    await ready();
    expect(section('Linked measures').textContent).toContain('No data entered yet.');
    expect(section('Linked measures').textContent).not.toContain('Below target');
  });

  it('saves the assessment with the version it was read at', async () => {
    const api = server({
      [`PUT ${ELEMENT_API}`]: (request: StubRequest) =>
        jsonResponse(element({ ...(request.body as object), version: 4, owner: { id: 22, name: 'Ben Owner' } })),
    });
    await open();
    await ready();
    await pick('Result', 'Partially compliant');
    await pick('Status', 'In review');
    await pick('Owner', 'Ben Owner');
    await typeInto(field('Due date'), '2026-04-30');
    await typeInto(field('Observation'), 'Rota fixed from March.');
    await click(getControl('Save assessment'));
    await waitFor(() => expect(toasts()).toContain('A-0395 saved.'));
    expect(api.calls(`PUT ${ELEMENT_API}`)[0]!.body).toEqual({
      version: 3,
      result: 'partially_compliant',
      status: 'in_review',
      na_justification: '',
      owner_id: 22,
      due_date: '2026-04-30',
      observation: 'Rota fixed from March.',
    });
  });

  it('asks why an element does not apply before saving', async () => {
    const api = server({ [`PUT ${ELEMENT_API}`]: jsonResponse(element()) });
    await open();
    await ready();
    expect(() => field('Why it does not apply')).toThrow();
    await pick('Result', 'Not applicable');
    await click(getControl('Save assessment'));
    expect(errorAt(field('Why it does not apply'))).toBe('Say why this element does not apply.');
    expect(api.calls(`PUT ${ELEMENT_API}`)).toHaveLength(0);
  });

  it('shows the conflict when someone saved first, and reloads the element', async () => {
    const api = server({
      [`GET ${ELEMENT_API}`]: [
        jsonResponse(element()),
        jsonResponse(element({ version: 4, observation: 'Ben: rota fixed.', result: 'compliant' })),
      ],
      [`PUT ${ELEMENT_API}`]: jsonResponse(
        { message: 'Someone else saved this element after you opened it. Reload to see their changes.' },
        409,
      ),
    });
    await open();
    await ready();
    await typeInto(field('Observation'), 'My note');
    await click(getControl('Save assessment'));
    await waitFor(() =>
      expect(text()).toContain('Someone else saved this element after you opened it. Reload to see their changes.'),
    );
    expect(api.calls(`PUT ${ELEMENT_API}`)[0]!.body).toMatchObject({ version: 3, observation: 'My note' });
    expect(toasts()).not.toContain('A-0395 saved.');

    await click(getControl('Reload'));
    await waitFor(() => expect(field('Observation').value).toBe('Ben: rota fixed.'));
    expect(api.calls(`GET ${ELEMENT_API}`).length).toBeGreaterThanOrEqual(2);
    expect(text()).not.toContain('Someone else saved this element');
  });

  it('links a measure with a note, posting the element node and the target', async () => {
    const api = server({
      [`GET ${STD_API}/link-targets`]: (request: StubRequest) =>
        jsonResponse({
          targets:
            request.query.get('type') === 'measure'
              ? [
                  { id: 31, label: 'RN hours per patient day', detail: 'Nursing' },
                  { id: 32, label: 'Falls per 1,000 patient days', detail: 'Safety' },
                ]
              : [{ id: 5, label: '2.4 Nurse staffing plan', detail: 'Published' }],
        }),
      [`POST ${STD_API}/links`]: (request: StubRequest) =>
        jsonResponse({
          id: 90,
          node_id: 112,
          ref_id: 'A-0395',
          title: 'RN supervises nursing care',
          framework: 'CMS',
          target_type: 'measure',
          target_id: 32,
          note: (request.body as { note: string }).note,
          created_at: '2026-03-02T10:00:00Z',
          created_by: 'Ada Admin',
        }),
    });
    await open();
    await ready();
    await click(getControl('Link'));
    expect(errorAt(field('Policy to link'))).toBe('Choose the policy to link.');

    await click(field('Measure'));
    await waitFor(() =>
      expect(api.calls(`GET ${STD_API}/link-targets`).some((call) => call.query.get('type') === 'measure')).toBe(true),
    );
    // The measure already linked (31) is not offered again.
    await pick('Measure to link', 'Falls per 1,000 patient days (Safety)');
    await typeInto(field('Note (optional)'), 'Falls with harm on the ward');
    await click(getControl('Link'));
    await waitFor(() => expect(api.calls(`POST ${STD_API}/links`)).toHaveLength(1));
    expect(api.calls(`POST ${STD_API}/links`)[0]!.body).toEqual({
      node_id: 112,
      target_type: 'measure',
      target_id: 32,
      note: 'Falls with harm on the ward',
    });
    await waitFor(() => expect(toasts()).toContain('Linked Falls per 1,000 patient days (Safety).'));
  });

  it('does not offer the policies under "Measure to link" while the measures load', async () => {
    let answerMeasures: () => void = () => {};
    const measuresHeld = new Promise<void>((resolve) => {
      answerMeasures = resolve;
    });
    server({
      [`GET ${STD_API}/link-targets`]: async (request: StubRequest) => {
        if (request.query.get('type') !== 'measure')
          return jsonResponse({ targets: [{ id: 6, label: '2.2 Falls prevention', detail: 'Published' }] });
        await measuresHeld;
        return jsonResponse({ targets: [{ id: 32, label: 'Falls per 1,000 patient days', detail: 'Safety' }] });
      },
    });
    await open();
    await ready();
    expect(await optionsOf('Policy to link')).toEqual(['2.2 Falls prevention (Published)']);

    await click(field('Measure'));
    const picker = field('Measure to link');
    await click(picker);
    const listbox = () => document.getElementById(picker.getAttribute('aria-controls') ?? '');
    await waitFor(() => expect(listbox()?.textContent).toContain('Searching…'));
    expect(listbox()!.querySelectorAll('[role="option"]')).toHaveLength(0);

    answerMeasures();
    await pick('Measure to link', 'Falls per 1,000 patient days (Safety)');
    expect(field('Measure to link')).toHaveProperty('value', 'Falls per 1,000 patient days (Safety)');
  });

  it('unlinks after a confirmation', async () => {
    const api = server({ [`DELETE ${STD_API}/links/71`]: () => new Response(null, { status: 204 }) });
    await open();
    await ready();
    await click(panel().querySelector<HTMLElement>('[aria-label="Unlink 2.4 Nurse staffing plan"]')!);
    await waitFor(() => expect(document.querySelectorAll('[role="dialog"]').length).toBe(2));
    const confirm = [...document.querySelectorAll<HTMLElement>('[role="dialog"]')].find((item) =>
      item.textContent?.includes('Remove this link?'),
    )!;
    expect(confirm.textContent).toContain('“2.4 Nurse staffing plan” will no longer be linked to A-0395.');
    await click(getControl('Unlink', confirm));
    await waitFor(() => expect(api.calls(`DELETE ${STD_API}/links/71`)).toHaveLength(1));
    await waitFor(() => expect(toasts()).toContain('Link removed.'));
  });

  it('saves the facility wording and adds a comment', async () => {
    const api = server({
      [`PUT ${ELEMENT_API}/wording`]: (request: StubRequest) =>
        jsonResponse(element({ local: request.body as { wording: string; guidance: string; public_url: string } })),
      [`POST ${ELEMENT_API}/comments`]: jsonResponse(element()),
    });
    await open();
    await ready();
    await typeInto(field('Public link'), 'not a link');
    await typeInto(field('Facility wording'), 'An RN is on every shift of every ward.');
    await click(getControl('Save wording'));
    expect(errorAt(field('Public link'))).toBe('Enter a link starting with https:// or http://.');
    await typeInto(field('Public link'), 'https://example.org/a0395');
    await click(getControl('Save wording'));
    await waitFor(() => expect(toasts()).toContain('Wording saved.'));
    expect(api.calls(`PUT ${ELEMENT_API}/wording`)[0]!.body).toEqual({
      wording: 'An RN is on every shift of every ward.',
      guidance: '',
      public_url: 'https://example.org/a0395',
    });

    await click(getControl('Add comment'));
    expect(errorAt(field('Add a comment'))).toBe('Write a comment.');
    await typeInto(field('Add a comment'), 'Checked the March rota.');
    await click(getControl('Add comment'));
    await waitFor(() => expect(toasts()).toContain('Comment added.'));
    expect(api.calls(`POST ${ELEMENT_API}/comments`)[0]!.body).toEqual({ body: 'Checked the March rota.' });
  });

  it('shows the assessment read-only, without link or comment controls, to someone who may not change it', async () => {
    server({
      [`GET ${ELEMENT_API}`]: jsonResponse(
        element({
          node: { ...element().node, official_text: null },
          framework: { id: 4, name: 'Joint Commission HAP', edition: '2026', text_policy: 'identifiers_only' },
          local: { wording: 'Our words for this element.', guidance: '', public_url: '' },
          abilities: { edit: false, comment: false, link: false, edit_wording: false, finding: false },
        }),
      ),
    });
    await open();
    await ready();
    expect(panel().querySelector('form')).toBeNull();
    expect(panel().textContent).not.toContain('Regulation text (public domain)');
    expect(panel().textContent).toContain('Our words for this element.');
    expect(panel().textContent).toContain('identifiers and titles only');
    expect(section('Assessment').textContent).toContain('Non-compliant');
    expect(section('Assessment').textContent).toContain('Night shift on Ward 4');
    expect(panel().querySelector('[aria-label^="Unlink"]')).toBeNull();
    expect(() => getControl('Add comment')).toThrow();
  });

  it('says so when the element does not exist', async () => {
    server({ [`GET ${ELEMENT_API}`]: jsonResponse({ message: 'Not found.' }, 404) });
    await open();
    await waitFor(() => expect(dialog().textContent).toContain('This element does not exist in this project'));
  });
});
