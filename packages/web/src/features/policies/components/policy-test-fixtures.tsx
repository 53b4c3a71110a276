import type { Department, DocumentDetail, DocumentRow } from '@portal/shared';
import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import { useCurrentProject } from '../../../lib/project/project-context';
import { signedInCheck } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';

export { dialog, errorOf as fieldError, field as input, pick, toasts } from '../../../test/ui';

/** What every policy screen test shares: the project, its session routes and a few DOM lookups. */
export const API = '/api/projects/12/policy-management';
export const BASE = '/app/policy_management/12';

export const PROJECT = {
  id: 12,
  name: 'North Clinic',
  slug: 'north',
  active_apps: ['policy_management'],
  facility_name: 'North Clinic Inc.',
  is_active: true,
  project_role: 'admin',
};

/** The session and the project the policy routes need. */
export function sessionRoutes() {
  return {
    'GET /api/auth/check': jsonResponse(signedInCheck()),
    'GET /api/projects/12': () => jsonResponse(PROJECT),
  };
}

export function department(overrides: Partial<Department> & Pick<Department, 'id' | 'name' | 'code'>): Department {
  return { parent_id: null, document_count: 0, ...overrides };
}

/** Renders the screen once the route's project is known, as SectionGuard does in the app. */
export function ProjectReady({ children }: { children: ReactNode }) {
  const { projectId } = useCurrentProject();
  return projectId ? children : null;
}

/** A published policy's row in a list, with no draft. */
export function doc(overrides: Partial<DocumentRow> & Pick<DocumentRow, 'id' | 'title'>): DocumentRow {
  return {
    number: null,
    status: 'published',
    department_id: null,
    has_draft: false,
    working_state: null,
    next_review_on: null,
    updated_at: '2026-03-01T10:00:00Z',
    ...overrides,
  };
}

/** A new draft policy with no versions, owner or department yet. */
export function bareDetail(overrides: Partial<DocumentDetail> & Pick<DocumentDetail, 'id' | 'title'>): DocumentDetail {
  return {
    number: null,
    status: 'draft',
    department: null,
    owner: null,
    review_interval_months: 12,
    next_review_on: null,
    effective_on: null,
    approved_at: null,
    created_at: '2026-03-01T10:00:00Z',
    updated_at: '2026-03-01T10:00:00Z',
    current_version: null,
    draft_version: null,
    versions: [],
    number_history: [],
    abilities: { edit: true, archive: true, restore: false, renumber: true },
    generated_from: null,
    ...overrides,
  };
}

/** Stands in for the document page where a test only follows a link to it. */
export function DocumentMarker() {
  const { documentId } = useParams();
  return <h1>Document {documentId}</h1>;
}
