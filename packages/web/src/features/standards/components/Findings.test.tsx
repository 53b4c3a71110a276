import type { StdFinding, StdReadiness } from '@portal/shared';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { type StubRequest, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, getField, text, typeInto, waitFor } from '../../../test/render';
import {
  appRoutes,
  assessment,
  BASE,
  ELEMENT_API,
  element,
  field,
  openApp,
  STD_API,
  seriousViolations,
  toasts,
  ZERO,
} from './std-test-fixtures';

const CURRENT = assessment({ id: 8, name: 'Self-assessment 2026' });

function finding(overrides: Partial<StdFinding> = {}): StdFinding {
  return {
    id: 41,
    req_id: 502,
    tracer_id: null,
    ref_id: 'A-0395',
    title: 'RN supervises nursing care',
    source: 'mock',
    text: 'Two rosters lacked an RN in charge.',
    likelihood: 'high',
    scope: 'pattern',
    immediate_threat: false,
    cited_on: '2026-11-20',
    due_date: '2027-01-19',
    overdue: false,
    status: 'open',
    high_risk: true,
    assessment_id: 8,
    version: 0,
    created_by: 'Ada Admin',
    created_at: '2026-11-20T10:00:00Z',
    closed_note: '',
    plan: {
      root_cause: '',
      actions: [],
      leadership_involvement: '',
      preventive_analysis: '',
      measure_id: null,
      success_periods: 3,
    },
    sustain: { measure: null, target: null, required: 3, latest: [], met: false },
    abilities: { edit: true, plan: true, close: true },
    ...overrides,
  };
}

function server(extra: Record<string, unknown> = {}) {
  return stubApi({
    ...appRoutes(CURRENT),
    [`GET ${STD_API}/link-targets`]: jsonResponse({ targets: [] }),
    [`GET ${ELEMENT_API}`]: jsonResponse(element()),
    ...(extra as Record<string, never>),
  });
}

/** The option of the open combobox whose text matches. */
async function waitForOption(name: RegExp): Promise<HTMLElement> {
  let found: HTMLElement | undefined;
  await waitFor(() => {
    found = [...document.querySelectorAll<HTMLElement>('[role="option"]')].find((o) => name.test(o.textContent ?? ''));
    expect(found).toBeDefined();
  });
  return found!;
}

const panelReady = () => waitFor(() => expect(text()).toContain('Record a finding'));
const modal = () => [...document.querySelectorAll<HTMLElement>('[role="dialog"]')].at(-1)!;

describe('standards findings', () => {
  it('records a finding in a SAFER cell and shows its due date and the high-risk warning first', async () => {
    const api = server({
      [`POST ${ELEMENT_API}/findings`]: (request: StubRequest) =>
        jsonResponse(finding({ ...(request.body as object) }), 201),
    });
    await openApp(`${BASE}/compilence?element=502`);
    await panelReady();
    await click(getControl('Record a finding'));
    await waitFor(() => expect(modal().textContent).toContain('SAFER matrix'));
    await click(getControl('Record finding', modal()));
    // Nothing chosen: the text and the cell are asked for, nothing is sent.
    expect(modal().textContent).toContain('Choose a cell of the matrix');
    expect(api.calls(`POST ${ELEMENT_API}/findings`)).toHaveLength(0);

    await typeInto(field('What was found', modal()), 'Two rosters lacked an RN in charge.');
    await click(modal().querySelector<HTMLElement>('[role="radio"][aria-label="High likelihood, pattern scope"]')!);
    expect(modal().textContent).toContain('High-risk cell');
    await typeInto(field('Cited on', modal()), '2026-11-20');
    expect(modal().textContent).toContain('Correction due Jan 19, 2027 (60 days after it was cited)');
    await click(field('Immediate threat to life (must be removed within 72 hours)', modal()));
    expect(modal().textContent).toContain('Correction due Nov 23, 2026 (3 days after it was cited)');
    await click(getControl('Record finding', modal()));
    await waitFor(() => expect(toasts()).toContain('Finding recorded.'));
    expect(api.calls(`POST ${ELEMENT_API}/findings`)[0]!.body).toEqual({
      source: 'self',
      text: 'Two rosters lacked an RN in charge.',
      likelihood: 'high',
      scope: 'pattern',
      immediate_threat: true,
      cited_on: '2026-11-20',
    });
  });

  it('opens a finding from the panel, saves its plan and shows the server’s field errors', async () => {
    const summary = {
      id: 41,
      source: 'mock' as const,
      text: 'Two rosters lacked an RN in charge.',
      likelihood: 'high' as const,
      scope: 'pattern' as const,
      immediate_threat: false,
      due_date: '2027-01-19',
      overdue: false,
      status: 'open' as const,
      high_risk: true,
    };
    const api = server({
      [`GET ${ELEMENT_API}`]: jsonResponse(element({ findings: [summary] })),
      [`GET ${STD_API}/findings/41`]: jsonResponse(finding()),
      [`PUT ${STD_API}/findings/41/plan`]: [
        jsonResponse(
          {
            message: 'A high-risk finding needs leadership involvement in its plan.',
            errors: { leadership_involvement: ['A high-risk finding needs leadership involvement in its plan.'] },
          },
          400,
        ),
        (request: StubRequest) => {
          const body = request.body as { root_cause: string; actions: { what: string }[] };
          const plan = finding().plan;
          return jsonResponse(
            finding({
              status: 'action_plan',
              version: 1,
              plan: {
                ...plan,
                root_cause: body.root_cause,
                actions: body.actions.map((a) => ({
                  what: a.what,
                  owner: null,
                  due: null,
                  done: false,
                  overdue: false,
                })),
              },
            }),
          );
        },
      ],
    });
    await openApp(`${BASE}/compilence?element=502`);
    await panelReady();
    await click(getControl('Two rosters lacked an RN in charge.'));
    await waitFor(() => expect(modal().textContent).toContain('Plan of correction'));
    await typeInto(field('Root cause', modal()), 'Rota built without a charge role.');
    await click(getControl('Add an action', modal()));
    await typeInto(field('Action 1', modal()), 'Add a charge role to the rota template');
    await click(getControl('Save plan', modal()));
    await waitFor(() =>
      expect(modal().textContent).toContain('A high-risk finding needs leadership involvement in its plan.'),
    );
    await typeInto(field('Leadership involvement', modal()), 'CNO signs the rota weekly.');
    await typeInto(field('Preventive analysis', modal()), 'Checked the night rotas too.');
    await click(getControl('Save plan', modal()));
    await waitFor(() => expect(toasts()).toContain('Plan saved.'));
    expect(api.calls(`PUT ${STD_API}/findings/41/plan`)[1]!.body).toEqual({
      root_cause: 'Rota built without a charge role.',
      actions: [{ what: 'Add a charge role to the rota template', owner_id: null, due: null, done: false }],
      leadership_involvement: 'CNO signs the rota weekly.',
      preventive_analysis: 'Checked the night rotas too.',
      measure_id: null,
      success_periods: 3,
    });
  });

  it('shows readiness: figures, chapters, the SAFER grid, corrections due and policy evidence; no a11y problem', async () => {
    const readiness: StdReadiness = {
      assessment_id: 8,
      applicable: 40,
      assessed_12m: 30,
      counts: { ...ZERO, compliant: 27, non_compliant: 3, not_assessed: 10 },
      score: 0.9,
      chapters: [
        {
          node_id: 1,
          ref_id: 'Subpart B',
          title: 'Administration',
          counts: { ...ZERO, compliant: 9, non_compliant: 1 },
          score: 0.9,
        },
      ],
      safer: [
        { likelihood: 'high', scope: 'pattern', count: 2 },
        { likelihood: 'low', scope: 'limited', count: 1 },
      ],
      immediate_threats: 0,
      due_corrections: [
        {
          id: 41,
          req_id: 502,
          tracer_id: null,
          ref_id: 'A-0395',
          title: 'RN supervises nursing care',
          source: 'mock',
          text: 'Two rosters lacked an RN in charge.',
          likelihood: 'high',
          scope: 'pattern',
          immediate_threat: false,
          cited_on: '2026-09-01',
          due_date: '2026-10-31',
          overdue: true,
          status: 'open',
          high_risk: true,
        },
      ],
      policy_evidence: [
        {
          policy_id: 5,
          number: '2.4',
          title: 'Nurse staffing plan',
          next_review_on: '2026-10-01',
          state: 'expired',
          elements: [{ req_id: 502, ref_id: 'A-0395' }],
        },
      ],
      evidence_items: [],
      overdue_elements: 4,
    };
    // The binder is answered when the test says so: first a failure, then the PDF.
    let answerBinder: (response: Response) => void = () => {};
    server({
      [`GET ${STD_API}/assessments/8/readiness`]: jsonResponse(readiness),
      [`GET ${STD_API}/assessments/8/tracers`]: jsonResponse({ tracers: [], abilities: { create: true } }),
      [`GET ${STD_API}/assessments/8/binder.pdf`]: () =>
        new Promise<Response>((resolve) => {
          answerBinder = resolve;
        }),
    });
    await openApp(`${BASE}/readiness`);
    await waitFor(() => expect(text()).toContain('Corrections due'));
    expect(text()).toContain('75%');
    expect(text()).toContain('30 of 40 applicable elements');
    expect(document.querySelector('[aria-label="High likelihood, pattern scope: 2 open"]')?.textContent).toBe('2');
    expect(text()).toContain('Two rosters lacked an RN in charge.');
    expect(text()).toContain('Overdue');
    expect(text()).toContain('2.4 Nurse staffing plan');
    expect(text()).toContain('supports A-0395');
    expect(getControl('Gap report (CSV)').getAttribute('href')).toBe(`${STD_API}/assessments/8/gap-report.csv`);
    expect(getControl('Gap report (PDF)').getAttribute('href')).toBe(`${STD_API}/assessments/8/gap-report.pdf`);
    // The binder needs a chapter or standard first, and says so.
    expect((getControl('Download the binder (PDF)') as HTMLButtonElement).disabled).toBe(true);
    expect(text()).toContain('Choose a chapter or standard first.');
    expect(await seriousViolations()).toEqual([]);

    // While it is built the screen says what and how much; a failure is said in words; the PDF is then saved.
    const original = { createObjectURL: URL.createObjectURL, revokeObjectURL: URL.revokeObjectURL };
    Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:binder'), revokeObjectURL: vi.fn() });
    onTestFinished(() => {
      Object.assign(URL, original);
    });
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    await click(getField('Survey binder'));
    await click(await waitForOption(/§482\.24 Medical record services/));
    await click(getControl('Download the binder (PDF)'));
    const building = () =>
      [...document.querySelectorAll('[role="status"]')].find((s) => s.textContent?.includes('Building the binder'));
    await waitFor(() =>
      expect(building()?.textContent).toContain('Building the binder of §482.24 Medical record services: 2 elements'),
    );
    expect(building()?.querySelector('[role="progressbar"]')).not.toBeNull();
    answerBinder(jsonResponse({ message: 'The binder holds at most 500 elements.' }, 400));
    await waitFor(() => expect(document.querySelector('[role="alert"]')?.textContent).toContain('at most 500'));
    expect(building()).toBeUndefined();
    expect(saved).toEqual([]);
    await click(getControl('Download the binder (PDF)'));
    await waitFor(() => expect(building()).toBeDefined());
    answerBinder(
      new Response('%PDF-1.7', {
        headers: {
          'Content-Type': 'application/pdf',
          'Content-Disposition': 'attachment; filename="binder-482-24.pdf"',
        },
      }),
    );
    await waitFor(() => expect(saved).toEqual(['binder-482-24.pdf']));
    expect(building()).toBeUndefined();
    expect(document.querySelector('[role="alert"]')).toBeNull();
  });
});
