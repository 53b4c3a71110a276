import type { StdAssessment, StdElement, StdFramework, StdMe, StdMember, StdTreeRow } from '@portal/shared';
import { act } from 'react';
import { openAt, STD_API, sessionRoutes } from '../../../components/standards-links/links-test-helpers';
import { jsonResponse } from '../../../test/fetch';
import { StandardsApp } from './StandardsApp';

/** What the tests of the standards app's screens (compliance, element panel, wizard) share. */
export {
  dialog,
  field,
  labelled,
  optionsOf,
  pick,
  STD_API,
  seriousViolations,
  sessionRoutes,
  toasts,
} from '../../../components/standards-links/links-test-helpers';

export const BASE = '/app/standards/12';

/** Renders the standards app (header, GET /me, the section's screen) at `path`. */
export const openApp = (path: string) => openAt(path, '/app/standards/:projectId/*', <StandardsApp />);

export function me(role: StdMe['role'] = 'standards_admin', all = true): StdMe {
  return {
    role,
    abilities: { create: all, manage_users: all, assign: all, import_frameworks: all, load_editions: false },
  };
}

/** No element in any status. */
export const ZERO = { compliant: 0, partially_compliant: 0, non_compliant: 0, not_applicable: 0, not_assessed: 0 };

/** The element whose panel the element tests open (`?element=502`). */
export const ELEMENT_API = `${STD_API}/req-assessments/502`;

export function assessment(overrides: Partial<StdAssessment> & Pick<StdAssessment, 'id' | 'name'>): StdAssessment {
  return {
    kind: 'self',
    framework: {
      id: 3,
      code: 'CMS-482',
      name: 'CMS Conditions of Participation',
      edition: '2025',
      text_policy: 'public_domain',
    },
    survey_window_start: null,
    survey_window_end: null,
    scope_note: '',
    created_at: '2026-03-01T10:00:00Z',
    counts: { ...ZERO },
    score: null,
    overdue: 0,
    upgraded_from: null,
    ...overrides,
  };
}

type Req = NonNullable<StdTreeRow['req']>;

export function row(
  overrides: Partial<StdTreeRow> & Pick<StdTreeRow, 'node_id' | 'parent_id' | 'ref_id' | 'title'>,
  req?: Partial<Req> & Pick<Req, 'id' | 'result'>,
): StdTreeRow {
  const counts = { ...ZERO };
  if (req) counts[req.result] = 1;
  return {
    depth: 0,
    node_type: req ? 'element' : 'chapter',
    in_force_from: null,
    rollup: req?.result ?? 'not_assessed',
    counts,
    score: null,
    req: req
      ? {
          status: 'to_do',
          owner: null,
          due_date: null,
          overdue: false,
          links: { policy: 0, measure: 0, cr_program: 0 },
          comments: 0,
          ...req,
        }
      : null,
    ...overrides,
  };
}

/**
 * Two chapters of CMS Conditions of Participation: §482.23 with two standards (the first with two elements, one
 * overdue and non-compliant), and §482.24 with two elements straight below it.
 */
export const TREE_ROWS: StdTreeRow[] = [
  row({
    node_id: 100,
    parent_id: null,
    ref_id: '§482.23',
    title: 'Nursing services',
    node_type: 'condition',
    rollup: 'non_compliant',
    counts: { ...ZERO, compliant: 1, non_compliant: 1, not_assessed: 1 },
    score: 0.5,
  }),
  row({
    node_id: 110,
    parent_id: 100,
    depth: 1,
    ref_id: '§482.23(b)',
    title: 'Staffing and delivery of care',
    node_type: 'standard',
    rollup: 'non_compliant',
    counts: { ...ZERO, compliant: 1, non_compliant: 1 },
    score: 0.5,
  }),
  row(
    { node_id: 111, parent_id: 110, depth: 2, ref_id: 'A-0392', title: 'Adequate numbers of nurses' },
    {
      id: 501,
      result: 'compliant',
      status: 'done',
      owner: { id: 21, name: 'Ada Admin' },
      due_date: '2026-01-10',
      links: { policy: 1, measure: 0, cr_program: 0 },
    },
  ),
  row(
    { node_id: 112, parent_id: 110, depth: 2, ref_id: 'A-0395', title: 'RN supervises nursing care' },
    {
      id: 502,
      result: 'non_compliant',
      status: 'in_progress',
      due_date: '2026-02-01',
      overdue: true,
      links: { policy: 1, measure: 1, cr_program: 1 },
      comments: 2,
    },
  ),
  row({
    node_id: 120,
    parent_id: 100,
    depth: 1,
    ref_id: '§482.23(c)',
    title: 'Preparation and administration of drugs',
    node_type: 'standard',
    rollup: 'not_assessed',
    counts: { ...ZERO, not_assessed: 1 },
  }),
  row(
    { node_id: 121, parent_id: 120, depth: 2, ref_id: 'A-0405', title: 'Drugs given per orders' },
    { id: 503, result: 'not_assessed' },
  ),
  row({
    node_id: 200,
    parent_id: null,
    ref_id: '§482.24',
    title: 'Medical record services',
    node_type: 'condition',
    rollup: 'incomplete',
    counts: { ...ZERO, compliant: 1, not_assessed: 1 },
    score: 1,
  }),
  row(
    { node_id: 201, parent_id: 200, depth: 1, ref_id: 'A-0431', title: 'Records kept' },
    { id: 504, result: 'compliant' },
  ),
  row(
    { node_id: 202, parent_id: 200, depth: 1, ref_id: 'A-0438', title: 'Records complete' },
    { id: 505, result: 'not_assessed' },
  ),
];

export function tree(current: StdAssessment, rows = TREE_ROWS, bulk = true) {
  return { assessment: current, rows, matches: rows.filter((item) => item.req).length, abilities: { bulk } };
}

/** What every screen of the app loads: the session, the member, the one assessment `current` with its tree, the members. */
export function appRoutes(current: StdAssessment) {
  return {
    ...sessionRoutes(),
    [`GET ${STD_API}/me`]: jsonResponse(me()),
    [`GET ${STD_API}/assessments`]: jsonResponse({ assessments: [current] }),
    [`GET ${STD_API}/assessments/${current.id}/tree`]: jsonResponse(tree(current)),
    [`GET ${STD_API}/members`]: jsonResponse(MEMBERS),
  };
}

export function element(overrides: Partial<StdElement> = {}): StdElement {
  return {
    id: 502,
    assessment_id: 8,
    version: 3,
    node: {
      id: 112,
      ref_id: 'A-0395',
      title: 'RN supervises nursing care',
      node_type: 'element',
      official_text: 'A registered nurse must supervise and evaluate the nursing care for each patient.',
      heading: null,
      in_force_from: null,
      source_note: null,
      public_url: 'https://www.ecfr.gov/current/title-42/section-482.23',
      path: [
        { ref_id: '§482.23', title: 'Nursing services' },
        { ref_id: '§482.23(b)', title: 'Staffing and delivery of care' },
      ],
    },
    framework: { id: 3, name: 'CMS Conditions of Participation', edition: '2025', text_policy: 'public_domain' },
    local: { wording: '', guidance: '', public_url: '' },
    result: 'non_compliant',
    status: 'in_progress',
    na_justification: '',
    owner: null,
    due_date: '2026-02-01',
    overdue: true,
    observation: 'Night shift on Ward 4 had no RN on two dates.',
    last_reviewed_at: '2026-02-10T15:00:00Z',
    last_reviewed_by: 'Ada Admin',
    carried_from: '',
    crosswalk: [{ framework: 'TJC-HAP 2026', ref_id: 'NR.02.01.01', title: 'Nurse staffing', relationship: 'equal' }],
    policies: [
      {
        link_id: 71,
        note: '',
        id: 5,
        number: '2.4',
        title: 'Nurse staffing plan',
        status: 'published',
        approved: true,
        version: 3,
        effective_on: '2025-07-01',
        signatures: 2,
        attestation_rate: 0.85,
        next_review_on: '2026-01-15',
        review_overdue: true,
        evidence_expired: true,
      },
    ],
    measures: [
      {
        link_id: 72,
        note: 'Monthly',
        id: 31,
        name: 'RN hours per patient day',
        page_id: 9,
        page_title: 'Nursing',
        unit_label: 'hours',
        latest: { period: '2026-02', value: 7.5 },
        target: 8,
        meets_target: false,
        variation: 'concern',
        empty_reason: null,
      },
    ],
    programs: [
      {
        link_id: 73,
        note: '',
        id: 4,
        name: 'Nursing documentation audit',
        target: 0.9,
        latest: { period: '2026-02', rate: 0.92, n: 30 },
      },
    ],
    evidence: [],
    questions: [],
    comments: [
      { id: 1, author: { id: 21, name: 'Ada Admin' }, body: 'Roster attached.', created_at: '2026-02-11T09:00:00Z' },
    ],
    history: [
      {
        id: 1,
        action: 'update',
        actor: 'Ada Admin',
        at: '2026-02-10T15:00:00Z',
        summary: 'Result: Not assessed -> Non-compliant',
      },
    ],
    findings: [],
    abilities: { edit: true, comment: true, link: true, edit_wording: true, finding: true },
    ...overrides,
  };
}

export function member(overrides: Partial<StdMember> & Pick<StdMember, 'user_id' | 'name'>): StdMember {
  return {
    email: `${overrides.name.split(' ')[0]!.toLowerCase()}@north.example`,
    project_role: 'simple',
    role: null,
    effective_role: null,
    ...overrides,
  };
}

export const MEMBERS = {
  members: [
    member({ user_id: 21, name: 'Ada Admin', project_role: 'admin', effective_role: 'standards_admin' }),
    member({ user_id: 22, name: 'Ben Owner', role: 'owner', effective_role: 'owner' }),
    member({ user_id: 23, name: 'Cy Nobody' }),
  ],
};

export function framework(overrides: Partial<StdFramework> & Pick<StdFramework, 'id' | 'name'>): StdFramework {
  return {
    code: 'CMS-482',
    publisher: 'CMS',
    edition: '2025',
    text_policy: 'public_domain',
    licence_note: '',
    public_url: null,
    as_of: null,
    built_in: true,
    node_count: 10,
    assessable_count: 6,
    chapters: [],
    ...overrides,
  };
}

/** Visible rows of the compliance tree: their identifier (first bold text). */
export function treeRefs(): string[] {
  return [...document.querySelectorAll('[data-testid="compliance-tree"] tbody tr')].map(
    (element) => element.querySelector('[data-testid="row-ref"]')?.textContent ?? '',
  );
}

export function treeRow(ref: string): HTMLTableRowElement {
  const found = [...document.querySelectorAll<HTMLTableRowElement>('[data-testid="compliance-tree"] tbody tr')].find(
    (element) => element.querySelector('[data-testid="row-ref"]')?.textContent === ref,
  );
  if (!found) throw new Error(`no row ${ref}`);
  return found;
}

export async function pressKey(target: HTMLElement, key: string) {
  await act(async () => {
    target.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
  });
}

/** Picks a file in the first file input. */
export async function chooseFile(file: File) {
  const input = document.querySelector<HTMLInputElement>('input[type="file"]');
  if (!input) throw new Error('no file input');
  Object.defineProperty(input, 'files', { value: [file], configurable: true });
  await act(async () => {
    input.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

/** The error Mantine shows under `input`. */
export function errorAt(input: HTMLElement): string | null {
  const ids = (input.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
  const error = ids.map((id) => document.getElementById(id)).find((node) => node?.id.endsWith('-error'));
  return error?.textContent ?? null;
}
