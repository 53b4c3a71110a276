import type {
  CrProgram,
  CrQuestion,
  CrSettings,
  CrTool,
  CrToolSummary,
  CrToolVersion,
  CrToolVersionSummary,
} from '@portal/shared';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { expect } from 'vitest';
import { useCurrentProject } from '../../../lib/project/project-context';
import { signedInCheck } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { render, waitFor } from '../../../test/render';
import { NEW_QUESTION_DEFAULTS } from './question-draft';

/** What the chart review screen tests share: the project, its session routes, factories and lookups. */
export const API = '/api/projects/12/chart-review';
export const BASE = '/app/chart-review/12';

const PROJECT = {
  id: 12,
  name: 'North Clinic',
  slug: 'north',
  active_apps: ['chart_review'],
  facility_name: 'North Clinic Inc.',
  is_active: true,
  project_role: 'admin',
};

export function sessionRoutes() {
  return {
    'GET /api/auth/check': jsonResponse(signedInCheck()),
    'GET /api/projects/12': () => jsonResponse(PROJECT),
  };
}

export function settingsBody(overrides: Partial<CrSettings> = {}): CrSettings {
  return {
    store_encounter_ref: false,
    reveal_roles: ['chart_review_admin'],
    retention_months: 24,
    default_irr_rate: 0.05,
    irr_kappa_min: 0.75,
    irr_agreement_min: 0.95,
    new_reviewer_match_min: 0.97,
    partial_enabled: false,
    privilege_label: 'Privileged and confidential: quality improvement work product.',
    coi_own_unit: true,
    updated_at: '2026-03-01T10:00:00Z',
    updated_by: null,
    abilities: { edit: true },
    ...overrides,
  };
}

export function versionSummary(
  overrides: Partial<CrToolVersionSummary> & Pick<CrToolVersionSummary, 'id' | 'version'>,
): CrToolVersionSummary {
  return {
    status: 'draft',
    note: '',
    frozen: false,
    published_at: null,
    published_by: null,
    question_count: 0,
    ...overrides,
  };
}

export function toolSummary(overrides: Partial<CrToolSummary> & Pick<CrToolSummary, 'id' | 'name'>): CrToolSummary {
  return {
    purpose: '',
    retired: false,
    published: null,
    draft: null,
    program_count: 0,
    updated_at: '2026-03-01T10:00:00Z',
    ...overrides,
  };
}

export function toolBody(overrides: Partial<CrTool> & Pick<CrTool, 'id' | 'name' | 'versions'>, edit = true): CrTool {
  const published = overrides.versions.find((version) => version.status === 'published') ?? null;
  const draft = overrides.versions.find((version) => version.status === 'draft') ?? null;
  return { ...toolSummary({ published, draft, ...overrides }), abilities: { edit }, ...overrides };
}

let nextQuestionId = 500;
export function question(overrides: Partial<CrQuestion> & Pick<CrQuestion, 'key' | 'text'>): CrQuestion {
  return {
    id: nextQuestionId++,
    position: 0,
    section: '',
    ...NEW_QUESTION_DEFAULTS,
    ...overrides,
  };
}

export function versionBody(
  overrides: Partial<CrToolVersion> & Pick<CrToolVersion, 'id' | 'version' | 'questions'>,
): CrToolVersion {
  const status = overrides.status ?? 'draft';
  return {
    ...versionSummary({ question_count: overrides.questions.length, ...overrides }),
    tool: { id: 3, name: 'Falls audit' },
    abilities: {
      edit: status === 'draft',
      publish: status === 'draft',
      discard: status === 'draft' && overrides.version > 1,
    },
    ...overrides,
  };
}

export function programBody(overrides: Partial<CrProgram> & Pick<CrProgram, 'id' | 'name'>): CrProgram {
  return {
    tool_id: 3,
    pinned_version_id: null,
    units: ['Ward 4'],
    grain: 'month',
    sampling: { method: 'jc_table' },
    due_days: 14,
    irr_rate: 0.05,
    target: 0.9,
    owner_id: null,
    status: 'active',
    mon_measure_id: null,
    tool: { id: 3, name: 'Falls audit' },
    version_in_use: { id: 31, version: 2 },
    owner: null,
    measure: null,
    updated_at: '2026-03-01T10:00:00Z',
    abilities: { edit: true },
    ...overrides,
  };
}

export const PEOPLE = {
  people: [
    { id: 21, name: 'Ada Lead', role: 'program_lead' },
    { id: 22, name: 'Ben Admin', role: 'chart_review_admin' },
    { id: 23, name: 'Cy Reviewer', role: 'reviewer' },
    { id: 24, name: 'Di Viewer', role: 'viewer' },
  ],
};

function ProjectReady({ children }: { children: ReactNode }) {
  const { projectId } = useCurrentProject();
  return projectId ? children : null;
}

function Where() {
  const location = useLocation();
  return (
    <h1>
      At {location.pathname}
      {location.search}
    </h1>
  );
}

/** Renders `element` at the chart review routes `paths` (relative to the project), and a marker page elsewhere. */
export async function openScreen(path: string, paths: string[], element: ReactNode) {
  const router = createMemoryRouter(
    [
      ...paths.map((route) => ({
        path: `/app/chart-review/:slug/${route}`,
        element: <ProjectReady>{element}</ProjectReady>,
      })),
      { path: '*', element: <Where /> },
    ],
    { initialEntries: [path] },
  );
  await render(<RouterProvider router={router} />);
  await waitFor(() => expect(document.querySelector('h1')).not.toBeNull());
  return router;
}

export { dialog, errorOf, field, labelled, optionsOf, pick, rows, toasts } from '../../../test/ui';
