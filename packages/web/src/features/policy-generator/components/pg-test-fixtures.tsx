import type { FacilityProfile, Generation, GeneratorLookups, TemplateDetail, TemplateSummary } from '@portal/shared';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { type StubHandler, signedInCheck } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { projectBody } from '../../../test/portal-stub';
import { render } from '../../../test/render';
import type { TemplateVersion } from '../api';
import { PolicyGeneratorApp } from './PolicyGeneratorApp';

/** What the policy generator's screen tests share: the project, the server's answers, and the app at a path. */

export const PG_API = '/api/projects/4/policy-generator';
export const BASE = '/app/policy_generator';

export const LAKESIDE = projectBody(4);
export const HILLTOP = projectBody(9, ['policy_generator', 'policy_management'], 'Hilltop Clinic');
export const RIVERSIDE = projectBody(5, ['monitoring'], 'Riverside Center');

export function profile(overrides: Partial<FacilityProfile> = {}): FacilityProfile {
  return {
    legal_name: 'Lakeside Hospital Inc.',
    short_name: 'Lakeside',
    address: '1 Lake Road, Springfield',
    state: 'IL',
    bed_count: 120,
    service_lines: ['ed', 'ob'],
    accreditors: ['tjc'],
    owner_titles: { ceo: 'President' },
    default_review_interval_months: 24,
    saved: true,
    missing: [],
    can_edit: true,
    updated_at: '2026-03-01T10:00:00Z',
    updated_by: 'Ada Admin',
    ...overrides,
  };
}

export function lookups(overrides: Partial<GeneratorLookups> = {}): GeneratorLookups {
  return {
    departments: [
      {
        id: 11,
        name: 'Nursing',
        code: 'NUR',
        next_number: 'NUR-004',
        reviewers: ['Rita Reviewer'],
        signers: ['Sam Signer'],
      },
      { id: 12, name: 'Pharmacy', code: 'PHA', next_number: 'PHA-001', reviewers: [], signers: [] },
    ],
    next_number: '1.9',
    used_numbers: ['NUR-003', '1.8'],
    people: [
      { id: 21, name: 'Olive Owner' },
      { id: 22, name: 'Lee Lead' },
    ],
    can_generate: true,
    can_edit_templates: true,
    ...overrides,
  };
}

export function summary(overrides: Partial<TemplateSummary> & Pick<TemplateSummary, 'id' | 'title'>): TemplateSummary {
  return {
    code: `T${overrides.id}`,
    category: 'Nursing',
    description: '',
    scope: 'global',
    derived_from: null,
    requires_flags: [],
    fits_profile: true,
    standards: [],
    published: { id: overrides.id * 10, version: 1, published_at: '2026-02-01T10:00:00Z' },
    draft: null,
    updated_at: '2026-02-01T10:00:00Z',
    ...overrides,
  };
}

type Body = TemplateVersion['body'];
type Variable = Body['variables'][number];

export function variable(overrides: Partial<Variable> & Pick<Variable, 'key' | 'label' | 'type'>): Variable {
  return { required: false, default: null, help: '', options: [], ...overrides };
}

/** The wizard's template: profile names, a flag section that applies (OB) and one that does not (psychiatry). */
export const WIZARD_BODY: Body = {
  title: 'Infant security',
  category: 'Obstetrics',
  description: 'Keeping newborns safe.',
  requires_flags: [],
  sections: [
    {
      key: 'purpose',
      html: '<p>{{facility_name}} runs this program under {{owner_name}} from {{start_date|date}}.</p>',
    },
    { key: 'scope', html: '<p>{{title_cno}} oversees it.</p>' },
    {
      key: 'policy',
      html: '<p>{{#if has_ob}}</p><p>Newborn care follows the OB protocol.</p><p>{{/if}}</p><p>Drills: {{drills}}. Lead: {{lead}}.</p>',
    },
    { key: 'procedure', html: '<p>{{#if has_psych}}</p><p>Psychiatric unit rounds hourly.</p><p>{{/if}}</p>' },
  ],
  variables: [
    variable({ key: 'owner_name', label: 'Program owner', type: 'text', required: true, help: 'Who runs it' }),
    variable({ key: 'start_date', label: 'Start date', type: 'date', required: true }),
    variable({ key: 'drills', label: 'Drills per year', type: 'number', default: 4 }),
    variable({ key: 'lead', label: 'Drill lead', type: 'user' }),
    variable({ key: 'notify', label: 'Notify security', type: 'boolean' }),
  ],
  standards: [{ framework: 'CMS', ref_id: '482.13(e)' }],
};

export function version(overrides: Partial<TemplateVersion> = {}): TemplateVersion {
  return {
    id: 70,
    template_id: 7,
    version: 2,
    status: 'published',
    note: '',
    published: { at: '2026-02-01T10:00:00Z', by: 'Ada Admin' },
    body: WIZARD_BODY,
    ...overrides,
  };
}

export function detail(overrides: Partial<TemplateDetail> = {}): TemplateDetail {
  const current = overrides.current === undefined ? version() : overrides.current;
  return {
    ...summary({ id: 7, title: 'Infant security', category: 'Obstetrics' }),
    versions: current
      ? [{ id: current.id, version: current.version, status: 'published', note: '', published: current.published }]
      : [],
    current,
    working: null,
    current_standards: current
      ? current.body.standards.map((ref) => ({ ...ref, title: 'Restraint or seclusion', assessed: true }))
      : [],
    can_edit: false,
    ...overrides,
  };
}

export function generation(overrides: Partial<Generation> & Pick<Generation, 'id'>): Generation {
  return {
    document: { id: 31, number: 'NUR-004', title: 'Infant security', status: 'draft' },
    template: { id: 7, title: 'Infant security' },
    version: 2,
    latest_version: 2,
    update_available: false,
    kind: 'generate',
    unresolved: [],
    assisted: false,
    created: { at: '2026-03-02T15:00:00Z', by: 'Olive Owner' },
    ...overrides,
  };
}

/** The session, the member's projects and project 4 (remembered as the current project by the test). */
export function sessionRoutes(projects = [LAKESIDE, HILLTOP, RIVERSIDE]): Record<string, StubHandler> {
  const routes: Record<string, StubHandler> = {
    'GET /api/auth/check': jsonResponse(signedInCheck()),
    'GET /api/member/projects': jsonResponse({ projects }),
  };
  for (const project of projects) routes[`GET /api/projects/${project.id}`] = jsonResponse(project);
  return routes;
}

/** The calls every generator screen of project 4 makes, with `extra` on top. */
export function generatorRoutes(extra: Record<string, StubHandler | StubHandler[]> = {}) {
  return {
    ...sessionRoutes(),
    [`GET ${PG_API}/lookups`]: jsonResponse(lookups()),
    [`GET ${PG_API}/profile`]: jsonResponse(profile()),
    [`GET ${PG_API}/templates`]: jsonResponse({ templates: [], can_edit: false }),
    [`GET ${PG_API}/generations`]: jsonResponse({ generations: [] }),
    [`GET ${PG_API}/assist`]: jsonResponse({ enabled: false, model: null, actions: [] }),
    ...extra,
  };
}

function Where() {
  const location = useLocation();
  return <h1>At {location.pathname}</h1>;
}

/** Renders the generator app at `path` (project 4 remembered unless `remember` is null). */
export async function openGenerator(path: string, remember: string | null = '4') {
  if (remember) localStorage.setItem('portal.lastProjectId', remember);
  else localStorage.removeItem('portal.lastProjectId');
  const router = createMemoryRouter(
    [
      { path: '/app/policy_generator/*', element: <PolicyGeneratorApp /> },
      { path: '*', element: <Where /> },
    ],
    { initialEntries: [path] },
  );
  await render(<RouterProvider router={router} />);
  return router;
}

export const h2 = () => document.querySelector('h2')?.textContent;
