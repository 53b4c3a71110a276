import type { StdAssessment, StdAssignments } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import {
  dialog,
  field,
  labelled,
  openAt,
  pick,
  rows,
  STD_API,
  seriousViolations,
  sessionRoutes,
  toasts,
} from '../../../components/standards-links/links-test-helpers';
import { type StubRequest, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, waitFor } from '../../../test/render';
import { AssignUsersPage, INHERIT_NOTE, NO_ASSESSMENTS } from './AssignUsersPage';

const PATH = '/app/standards/12/assign-users';
const open = (path = PATH) => openAt(path, '/app/standards/:projectId/assign-users', <AssignUsersPage />);
const table = 'table[aria-label="Assignments"]';

const ME = (assign = true) => ({
  role: assign ? 'standards_admin' : 'viewer',
  abilities: { create: assign, manage_users: assign, assign, import_frameworks: assign, load_editions: false },
});

function assessment(overrides: Partial<StdAssessment> & Pick<StdAssessment, 'id' | 'name'>): StdAssessment {
  return {
    kind: 'self',
    framework: {
      id: 1,
      code: 'CMS-COP',
      name: 'CMS Conditions of Participation',
      edition: '2025',
      text_policy: 'public_domain',
    },
    survey_window_start: null,
    survey_window_end: null,
    scope_note: '',
    created_at: '2026-01-10T10:00:00Z',
    counts: { compliant: 0, partially_compliant: 0, non_compliant: 0, not_applicable: 0, not_assessed: 4 },
    score: null,
    overdue: 0,
    upgraded_from: null,
    ...overrides,
  };
}

const ASSESSMENTS = [
  assessment({ id: 3, name: 'Self-assessment 2025', created_at: '2025-06-01T10:00:00Z' }),
  assessment({ id: 4, name: 'Self-assessment 2026', created_at: '2026-02-01T10:00:00Z' }),
];

const PEOPLE: StdAssignments['people'] = [
  { id: 21, name: 'Ada Admin', role: 'standards_admin' },
  { id: 22, name: 'Ben Nurse', role: 'owner' },
  { id: 23, name: 'Cy Lead', role: 'chapter_lead' },
];

function assignments(assessmentId: number): StdAssignments {
  return {
    assessment_id: assessmentId,
    people: PEOPLE,
    rows: [
      {
        node_id: 100,
        parent_id: null,
        depth: 0,
        ref_id: '§482.23',
        title: 'Nursing services',
        lead: { id: 23, name: 'Cy Lead' },
        owners: [{ id: 22, name: 'Ben Nurse' }],
        unowned: 3,
        elements: 5,
      },
      {
        node_id: 101,
        parent_id: 100,
        depth: 1,
        ref_id: '§482.23(a)',
        title: 'Organization',
        lead: null,
        owners: [{ id: 22, name: 'Ben Nurse' }],
        unowned: 0,
        elements: 2,
      },
      {
        node_id: 102,
        parent_id: 100,
        depth: 1,
        ref_id: '§482.23(b)',
        title: 'Staffing and delivery of care',
        lead: null,
        owners: [],
        unowned: 3,
        elements: 3,
      },
      {
        node_id: 200,
        parent_id: null,
        depth: 0,
        ref_id: '§482.42',
        title: 'Infection prevention',
        lead: null,
        owners: [],
        unowned: 1,
        elements: 1,
      },
    ],
  };
}

/** A small server keeping assessment 4's assignments, so a saved change shows on the page. */
function routes(overrides: Record<string, unknown> = {}) {
  let current = assignments(4);
  return {
    ...sessionRoutes(),
    [`GET ${STD_API}/me`]: jsonResponse(ME()),
    [`GET ${STD_API}/assessments`]: jsonResponse({ assessments: ASSESSMENTS }),
    [`GET ${STD_API}/assessments/4/assignments`]: () => jsonResponse(current),
    [`GET ${STD_API}/assessments/3/assignments`]: () => jsonResponse(assignments(3)),
    [`PUT ${STD_API}/assessments/4/assignments`]: (request: StubRequest) => {
      const body = request.body as { node_id: number; lead_id?: number | null; owner_id?: number };
      const next = { ...current };
      current = next;
      next.rows = next.rows.map((row) => {
        if (row.node_id !== body.node_id) return row;
        if (body.owner_id) {
          const owner = PEOPLE.find((person) => person.id === body.owner_id)!;
          return { ...row, owners: [{ id: owner.id, name: owner.name }], unowned: 0 };
        }
        const lead = PEOPLE.find((person) => person.id === body.lead_id);
        return { ...row, lead: lead ? { id: lead.id, name: lead.name } : null };
      });
      return jsonResponse(next);
    },
    ...(overrides as Record<string, Response>),
  };
}

describe('AssignUsersPage', () => {
  it('shows the newest assessment as a tree with leads, owners and elements without owner', async () => {
    const api = stubApi(routes());
    await open();
    await waitFor(() => expect(rows(table)).toHaveLength(4));
    expect(text()).toContain(INHERIT_NOTE);
    expect(field('Assessment').value).toBe('Self-assessment 2026 (CMS-COP 2025)');
    expect(api.calls(`GET ${STD_API}/assessments/3/assignments`)).toHaveLength(0);
    expect(rows(table).map((row) => [row[0], row[3]])).toEqual([
      ['§482.23Nursing services5 elements', 'Ben Nurse3 without owner'],
      ['§482.23(a)Organization2 elements', 'Ben Nurse'],
      ['§482.23(b)Staffing and delivery of care3 elements', '3 without owner'],
      ['§482.42Infection prevention1 element', '1 without owner'],
    ]);
    expect(field('Lead of §482.23 Nursing services').value).toBe('Cy Lead (Chapter lead)');
    expect(field('Lead of §482.23(a) Organization').value).toBe('');
    expect(await seriousViolations()).toEqual([]);

    // Chapters collapse and expand.
    const toggle = labelled('Collapse §482.23');
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    await click(toggle);
    await waitFor(() => expect(rows(table)).toHaveLength(2));
    await click(labelled('Expand §482.23'));
    await waitFor(() => expect(rows(table)).toHaveLength(4));
    // Leaves have nothing to collapse.
    expect(document.querySelector('[aria-label="Collapse §482.23(a)"]')).toBeNull();
  });

  it('opens the assessment of ?assessment= and switches with the picker', async () => {
    const api = stubApi(routes());
    const router = await open(`${PATH}?assessment=3`);
    await waitFor(() => expect(rows(table)).toHaveLength(4));
    expect(field('Assessment').value).toBe('Self-assessment 2025 (CMS-COP 2025)');
    expect(api.calls(`GET ${STD_API}/assessments/4/assignments`)).toHaveLength(0);
    await pick('Assessment', 'Self-assessment 2026 (CMS-COP 2025)');
    await waitFor(() => expect(router.state.location.search).toBe('?assessment=4'));
    await waitFor(() => expect(api.calls(`GET ${STD_API}/assessments/4/assignments`)).toHaveLength(1));
  });

  it('saves a lead at once', async () => {
    const api = stubApi(routes());
    await open();
    await waitFor(() => expect(rows(table)).toHaveLength(4));
    await pick('Lead of §482.42 Infection prevention', 'Ada Admin (Standards admin)');
    await waitFor(() => expect(api.calls(`PUT ${STD_API}/assessments/4/assignments`)).toHaveLength(1));
    expect(api.calls(`PUT ${STD_API}/assessments/4/assignments`)[0]!.body).toEqual({ node_id: 200, lead_id: 21 });
    await waitFor(() => expect(toasts()).toContain('Ada Admin now leads §482.42.'));
    await waitFor(() =>
      expect(field('Lead of §482.42 Infection prevention').value).toBe('Ada Admin (Standards admin)'),
    );
  });

  it('gives an owner to every element below a node only after confirming', async () => {
    const api = stubApi(routes());
    await open();
    await waitFor(() => expect(rows(table)).toHaveLength(4));
    const apply = labelled('Apply to all below §482.23');
    expect(apply.hasAttribute('disabled')).toBe(true);

    await pick('Owner for every element below §482.23 Nursing services', 'Ben Nurse (Owner)');
    await waitFor(() => expect(labelled('Apply to all below §482.23').hasAttribute('disabled')).toBe(false));
    await click(labelled('Apply to all below §482.23'));
    await waitFor(() =>
      expect(text(dialog())).toContain(
        'Make Ben Nurse the owner of all 5 elements below §482.23 Nursing services? This replaces their current owners.',
      ),
    );
    await click(getControl('Cancel', dialog()));
    await waitFor(() => expect(document.querySelector('[role="dialog"]')).toBeNull());
    expect(api.calls(`PUT ${STD_API}/assessments/4/assignments`)).toHaveLength(0);

    await click(labelled('Apply to all below §482.23'));
    await waitFor(() => expect(dialog()).toBeTruthy());
    await click(getControl('Apply to all below', dialog()));
    await waitFor(() => expect(api.calls(`PUT ${STD_API}/assessments/4/assignments`)).toHaveLength(1));
    expect(api.calls(`PUT ${STD_API}/assessments/4/assignments`)[0]!.body).toEqual({ node_id: 100, owner_id: 22 });
    await waitFor(() => expect(toasts()).toContain('Ben Nurse now owns the 5 elements below §482.23.'));
    await waitFor(() => expect(rows(table)[0]![3]).toBe('Ben Nurse'));
  });

  it('says when there is no assessment, with a way to create one', async () => {
    stubApi(routes({ [`GET ${STD_API}/assessments`]: jsonResponse({ assessments: [] }) }));
    await open();
    await waitFor(() => expect(text()).toContain(NO_ASSESSMENTS));
    expect(getControl('Create an assessment').getAttribute('href')).toBe('/app/standards/12/create');
    expect(document.querySelector(table)).toBeNull();
  });

  it('denies access without the assign ability', async () => {
    stubApi(routes({ [`GET ${STD_API}/me`]: jsonResponse(ME(false)) }));
    await open();
    await waitFor(() => expect(text()).toContain('Access Denied !'));
    expect(document.querySelector(table)).toBeNull();
  });
});
