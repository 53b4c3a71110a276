import type { FacilityProfile, TemplateDetail, TemplateVersion } from '@portal/shared';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { expect } from 'vitest';
import { type StubHandler, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { render, waitFor } from '../../../test/render';
import { TemplatePage } from './TemplatePage';

/** What the template page and editor tests share: a project, its profile, a template and a fake server. */

export const PROJECT_ID = 12;
export const API = `/api/projects/${PROJECT_ID}/policy-generator`;
export const PAGE = '/app/policy_generator/templates';

export const PROFILE: FacilityProfile = {
  legal_name: 'North Valley Hospital',
  short_name: 'NVH',
  address: '',
  state: 'CA',
  bed_count: 120,
  service_lines: ['ed'],
  accreditors: ['tjc'],
  owner_titles: { infection_prevention: 'Infection Preventionist' },
  default_review_interval_months: 24,
  saved: true,
  missing: ['address'],
  can_edit: true,
  updated_at: '2026-02-01T10:00:00Z',
  updated_by: 'Ana Ruiz',
};

export const BODY: TemplateVersion['body'] = {
  title: 'Hand hygiene',
  category: 'Infection prevention',
  description: 'Who cleans hands when, and how compliance is audited.',
  requires_flags: [],
  sections: [
    {
      key: 'policy',
      html: '<p>Hand hygiene is led by the {{title_infection_prevention}} in {{department}}.</p><p>{{#if has_ob}}</p><p>Newborn care has its own rules.</p><p>{{/if}}</p>',
    },
    { key: 'purpose', html: '<p>{{facility_name}} prevents infections.</p>' },
    { key: 'procedure', html: '<p>Audits start {{audit_start|date}} at {{facility_address}} with {{audit_tool}}.</p>' },
  ],
  variables: [
    {
      key: 'department',
      label: 'Department',
      type: 'department',
      required: true,
      default: null,
      help: 'The department that owns the policy.',
      options: [],
    },
    {
      key: 'audit_start',
      label: 'First audit',
      type: 'date',
      required: false,
      default: '2026-03-05',
      help: '',
      options: [],
    },
    {
      key: 'audit_tool',
      label: 'Audit tool',
      type: 'select',
      required: true,
      default: 'WHO',
      help: 'The observation form used.',
      options: ['WHO', 'Custom'],
    },
  ],
  standards: [
    { framework: 'CMS-482', ref_id: '§482.42(a)' },
    { framework: 'TJC-HAP', ref_id: 'IC.02.01.01' },
  ],
};

export function version(overrides: Partial<TemplateVersion> = {}): TemplateVersion {
  return {
    id: 502,
    template_id: 5,
    version: 2,
    status: 'published',
    note: 'Adds the audit tool.',
    published: { at: '2026-02-10T17:00:00Z', by: 'Ana Ruiz' },
    body: BODY,
    ...overrides,
  };
}

export const V1 = version({
  id: 501,
  version: 1,
  status: 'retired',
  note: 'First version.',
  published: { at: '2025-11-03T17:00:00Z', by: 'Ana Ruiz' },
  body: {
    ...BODY,
    sections: [{ key: 'purpose', html: '<p>The first wording for {{facility_short_name}}.</p>' }],
    variables: [],
  },
});
export const V2 = version();
export const V3_DRAFT = version({ id: 503, version: 3, status: 'draft', note: '', published: null });

const summaryOf = (v: TemplateVersion) => ({
  id: v.id,
  version: v.version,
  status: v.status,
  note: v.note,
  published: v.published,
});

/** A project template (copied from the library) with versions 1 and 2 published; editable. */
export function detail(overrides: Partial<TemplateDetail> = {}): TemplateDetail {
  return {
    id: 5,
    code: 'IC-001',
    title: BODY.title,
    category: BODY.category,
    description: BODY.description,
    scope: 'project',
    derived_from: { id: 1, title: 'Hand hygiene (library)' },
    requires_flags: [],
    fits_profile: true,
    standards: BODY.standards,
    published: { id: V2.id, version: 2, published_at: '2026-02-10T17:00:00Z' },
    draft: null,
    updated_at: '2026-02-10T17:00:00Z',
    versions: [summaryOf(V2), summaryOf(V1)],
    current: V2,
    working: null,
    // The project's CMS framework has the first element; the TJC one is not in any framework it sees.
    current_standards: V2.body.standards.map((ref, i) => ({
      ...ref,
      title: i === 0 ? 'Infection prevention program' : null,
      assessed: i === 0,
    })),
    can_edit: true,
    ...overrides,
  };
}

/** The same template with a saved draft (version 3). */
export function withDraft(overrides: Partial<TemplateDetail> = {}): TemplateDetail {
  return detail({
    draft: { id: V3_DRAFT.id, version: 3 },
    versions: [summaryOf(V3_DRAFT), summaryOf(V2), summaryOf(V1)],
    working: V3_DRAFT,
    ...overrides,
  });
}

/** A template of the product's library (read-only to projects). */
export function globalTemplate(overrides: Partial<TemplateDetail> = {}): TemplateDetail {
  return detail({ id: 1, scope: 'global', derived_from: null, code: 'LIB-IC-001', ...overrides });
}

export function server(template: TemplateDetail, routes: Record<string, StubHandler | StubHandler[]> = {}) {
  return stubApi({
    [`GET ${API}/templates/${template.id}`]: jsonResponse(template),
    [`GET ${API}/profile`]: jsonResponse(PROFILE),
    ...routes,
  });
}

function Where() {
  const location = useLocation();
  return <h1 data-testid="where">{`${location.pathname}${location.search}`}</h1>;
}

/** Renders the template page at `path` (other generator paths show where the app went). */
export async function openTemplate(path: string) {
  const router = createMemoryRouter(
    [
      { path: `${PAGE}/:templateId`, element: <TemplatePage projectId={PROJECT_ID} /> },
      { path: '*', element: <Where /> },
    ],
    { initialEntries: [path] },
  );
  await render(<RouterProvider router={router} />);
  await waitFor(() => expect(document.querySelector('h2')).not.toBeNull());
  return router;
}

export const where = () => document.querySelector('[data-testid="where"]')?.textContent ?? null;

/** The element marked as a group named `label` (a variable row, a standard row). */
export function group(label: string): HTMLElement {
  const element = document.querySelector<HTMLElement>(`[role="group"][aria-label="${label}"]`);
  if (!element) throw new Error(`no group ${label}`);
  return element;
}

export { dialog, errorOf, field, labelled, pick, seriousViolations, toasts } from '../../../test/ui';
