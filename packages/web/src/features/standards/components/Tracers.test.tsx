import type { StdReadiness, StdTracer } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { type StubRequest, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, typeInto, waitFor } from '../../../test/render';
import { appRoutes, assessment, BASE, field, openApp, pick, STD_API, toasts, tree, ZERO } from './std-test-fixtures';

const CURRENT = assessment({ id: 8, name: 'Mock survey 2026' });
const READINESS: StdReadiness = {
  assessment_id: 8,
  applicable: 0,
  assessed_12m: 0,
  counts: { ...ZERO },
  score: null,
  chapters: [],
  safer: [],
  immediate_threats: 0,
  due_corrections: [],
  policy_evidence: [],
  evidence_items: [],
  overdue_elements: 0,
};

function tracer(overrides: Partial<StdTracer> = {}): StdTracer {
  return {
    id: 7,
    kind: 'individual',
    title: 'Patient from ED to ward 3',
    traced_on: '2026-11-25',
    unit: 'Ward 3',
    lead: null,
    case_code: 'T-0042',
    findings: 0,
    open_findings: 0,
    assessment_id: 8,
    summary: '',
    created_by: 'Ada Admin',
    created_at: '2026-11-25T10:00:00Z',
    finding_list: [],
    abilities: { edit: true },
    ...overrides,
  };
}

function server(extra: Record<string, unknown> = {}) {
  return stubApi({
    ...appRoutes(CURRENT),
    [`GET ${STD_API}/assessments/8/readiness`]: jsonResponse(READINESS),
    ...(extra as Record<string, never>),
  });
}

const modal = () => [...document.querySelectorAll<HTMLElement>('[role="dialog"]')].at(-1)!;

describe('tracers on the readiness screen', () => {
  it('says what a tracer is when there is none, records one with a case code only, and opens it', async () => {
    const api = server({
      [`GET ${STD_API}/assessments/8/tracers`]: [
        jsonResponse({ tracers: [], abilities: { create: true } }),
        jsonResponse({ tracers: [tracer()], abilities: { create: true } }),
      ],
      [`POST ${STD_API}/assessments/8/tracers`]: (request: StubRequest) =>
        jsonResponse(tracer({ ...(request.body as object) }), 201),
      [`GET ${STD_API}/tracers/7`]: jsonResponse(tracer()),
    });
    await openApp(`${BASE}/readiness`);
    await waitFor(() => expect(text()).toContain('No tracers yet.'));
    await click(getControl('Record a tracer'));
    await waitFor(() => expect(modal().textContent).toContain('What was traced'));
    await typeInto(field('What was traced', modal()), 'Patient from ED to ward 3');
    await typeInto(field('Case code', modal()), 'Smith, John');
    await click(getControl('Record tracer', modal()));
    expect(modal().textContent).toContain('never a name or medical record number');
    expect(api.calls(`POST ${STD_API}/assessments/8/tracers`)).toHaveLength(0);

    await typeInto(field('Case code', modal()), 'T-0042');
    await typeInto(field('Date', modal()), '2026-11-25');
    await click(getControl('Record tracer', modal()));
    await waitFor(() => expect(toasts()).toContain('Tracer recorded.'));
    expect(api.calls(`POST ${STD_API}/assessments/8/tracers`)[0]!.body).toEqual({
      kind: 'individual',
      title: 'Patient from ED to ward 3',
      traced_on: '2026-11-25',
      unit: '',
      lead_id: null,
      case_code: 'T-0042',
      summary: '',
    });
    // The new tracer opens in its own window.
    await waitFor(() => expect(modal().textContent).toContain('Individual tracer on Nov 25, 2026, Ward 3'));
  });

  it("records a tracer's finding on the element chosen, without a source to pick", async () => {
    const api = server({
      [`GET ${STD_API}/assessments/8/tracers`]: jsonResponse({ tracers: [tracer()], abilities: { create: true } }),
      [`GET ${STD_API}/tracers/7`]: jsonResponse(tracer()),
      [`POST ${STD_API}/tracers/7/findings`]: (request: StubRequest) =>
        jsonResponse({ message: 'stop here', body: request.body }, 400),
    });
    await openApp(`${BASE}/readiness`);
    await waitFor(() => expect(text()).toContain('Patient from ED to ward 3'));
    await click(getControl('Patient from ED to ward 3'));
    await waitFor(() => expect(modal().textContent).toContain('No findings from this tracer yet.'));
    const firstElement = tree(CURRENT).rows.find((row) => row.req !== null)!;
    await pick('Element the finding concerns', `${firstElement.ref_id} ${firstElement.title}`, modal());
    await click(getControl('Record a finding', modal()));
    await waitFor(() => expect(modal().textContent).toContain('SAFER matrix'));
    expect(() => field('Source', modal())).toThrow();
    await typeInto(field('What was found', modal()), 'Reconciliation not done at transfer.');
    await click(modal().querySelector<HTMLElement>('[role="radio"][aria-label="Low likelihood, limited scope"]')!);
    await typeInto(field('Cited on', modal()), '2026-11-25');
    await click(getControl('Record finding', modal()));
    await waitFor(() => expect(api.calls(`POST ${STD_API}/tracers/7/findings`)).toHaveLength(1));
    expect(api.calls(`POST ${STD_API}/tracers/7/findings`)[0]!.body).toEqual({
      req_id: firstElement.req!.id,
      text: 'Reconciliation not done at transfer.',
      likelihood: 'low',
      scope: 'limited',
      immediate_threat: false,
      cited_on: '2026-11-25',
    });
  });
});
