import { describe, expect, it } from 'vitest';
import { type StubHandler, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, text, waitFor } from '../../../test/render';
import { seriousViolations } from '../../../test/ui';
import type { DepartmentHealth } from '../api/get-department-health';
import { API, BASE, input, openPolicyScreen, sessionRoutes } from './admin-test-helpers';
import { HealthyDepartmentsPage } from './HealthyDepartmentsPage';

function health(
  overrides: Partial<DepartmentHealth> & Pick<DepartmentHealth, 'id' | 'name' | 'code'>,
): DepartmentHealth {
  return {
    parent_id: null,
    reviewers: 2,
    signers: 1,
    readers: 9,
    documents: 5,
    overdue_reviews: 0,
    due_soon_reviews: 0,
    attested: 7,
    required: 9,
    attestation_rate: 7 / 9,
    gaps: [],
    ...overrides,
  };
}

const NUR = health({ id: 3, name: 'Nursing', code: 'NUR', due_soon_reviews: 2 });
const ICU = health({
  id: 4,
  name: 'Intensive care',
  code: 'ICU',
  parent_id: 3,
  signers: 0,
  overdue_reviews: 3,
  gaps: ['No signer', '3 overdue reviews'],
});
const PHA = health({
  id: 8,
  name: 'Pharmacy',
  code: 'PHA',
  reviewers: 0,
  readers: 0,
  required: 0,
  attested: 0,
  attestation_rate: null,
  gaps: ['No reviewer', 'No reader'],
});

const ALL = {
  'policy_management:department-reviewers': true,
  'policy_management:department-signers': true,
  'policy_management:department-readers': true,
  'policy_management:attestation-reports': true,
  'policy_management:insert-department': true,
};

function server(
  departments: DepartmentHealth[] = [PHA, ICU, NUR],
  permissions: Record<string, boolean> = ALL,
  routes: Record<string, StubHandler> = {},
) {
  return stubApi({
    ...sessionRoutes(),
    'GET /api/me/permissions': jsonResponse({ permissions }),
    [`GET ${API}/healthy-departments`]: jsonResponse({ departments }),
    ...routes,
  });
}

const open = () => openPolicyScreen(`${BASE}/healthy-departments`, ['healthy-departments'], <HealthyDepartmentsPage />);

function row(id: number): HTMLElement {
  const element = document.querySelector<HTMLElement>(`tr[data-department-id="${id}"]`);
  if (!element) throw new Error(`no row ${id}`);
  return element;
}

const shownIds = () =>
  [...document.querySelectorAll<HTMLElement>('tr[data-department-id]')].map((tr) => Number(tr.dataset.departmentId));
const cell = (id: number, column: string) => row(id).querySelector<HTMLElement>(`[data-column="${column}"]`)!;
const count = (label: string) => document.querySelector(`[data-count="${label}"]`)?.firstChild?.textContent;

describe('HealthyDepartmentsPage', () => {
  it('sums up the departments and shows their gaps, or Ready', async () => {
    server();
    await open();
    expect(document.querySelector('h1')?.textContent).toBe('Department health');
    await waitFor(() => expect(shownIds()).toEqual([3, 4, 8]));
    expect(count('Departments')).toBe('3');
    expect(count('Ready')).toBe('1');
    expect(count('With gaps')).toBe('2');
    expect(document.querySelector('[data-testid="health-sentence"]')?.textContent).toBe(
      '1 of 3 departments are ready; 2 have gaps to fix.',
    );
    expect(cell(3, 'gaps').textContent).toBe('Ready');
    expect(row(3).hasAttribute('data-ready')).toBe(true);
    expect(cell(4, 'gaps').textContent).toBe('No signer3 overdue reviews');
    expect(row(4).hasAttribute('data-ready')).toBe(false);
    expect(text(cell(4, 'overdue'))).toBe('3');
    expect(text(row(3))).toContain('7 of 9 · 78%');
    expect(text(row(8))).toContain('Nothing to read');
    expect(document.querySelector('table[aria-label="Department health"]')).not.toBeNull();
    expect(await seriousViolations()).toEqual([]);
  });

  it('links a missing role to the screen that fixes it, and the name to the attestation report', async () => {
    server();
    await open();
    await waitFor(() => expect(shownIds()).toHaveLength(3));
    const fix = cell(8, 'reviewers').querySelector('a');
    expect(fix?.getAttribute('aria-label')).toBe('Add reviewers to Pharmacy');
    expect(fix?.getAttribute('href')).toBe(`${BASE}/department-reviewers/8`);
    expect(cell(4, 'signers').querySelector('a')?.getAttribute('href')).toBe(`${BASE}/department-signers/4`);
    expect(cell(8, 'readers').querySelector('a')?.getAttribute('href')).toBe(`${BASE}/department-readers/8`);
    expect(cell(3, 'reviewers').querySelector('a')).toBeNull();
    expect(row(3).querySelector('a')?.getAttribute('href')).toBe(`${BASE}/attestation-reports/3`);
  });

  it('shows no fix link and no report link without the permission', async () => {
    server(undefined, { 'policy_management:department-signers': true });
    await open();
    await waitFor(() => expect(shownIds()).toHaveLength(3));
    expect(cell(8, 'reviewers').textContent).toBe('0');
    expect(cell(8, 'reviewers').querySelector('a')).toBeNull();
    expect(cell(8, 'readers').querySelector('a')).toBeNull();
    expect(cell(4, 'signers').querySelector('a')?.getAttribute('href')).toBe(`${BASE}/department-signers/4`);
    expect(row(3).querySelector('a')).toBeNull();
  });

  it('filters to the departments with gaps', async () => {
    server();
    await open();
    await waitFor(() => expect(shownIds()).toHaveLength(3));
    const filter = input('Only departments with gaps');
    await click(filter);
    expect(filter.checked).toBe(true);
    expect(shownIds()).toEqual([4, 8]);
    await click(filter);
    expect(shownIds()).toEqual([3, 4, 8]);
  });

  it('says when every department is ready', async () => {
    server([NUR]);
    await open();
    await waitFor(() => expect(shownIds()).toEqual([3]));
    expect(text()).toContain('Every department is ready: none has a gap.');
    await click(input('Only departments with gaps'));
    expect(shownIds()).toEqual([]);
  });

  it('has an empty state that offers to add a department to those who may', async () => {
    server([]);
    await open();
    await waitFor(() => expect(text()).toContain('No departments yet.'));
    expect(document.querySelector(`a[href="${BASE}/insert-department"]`)?.textContent).toBe('Add a department');

    document.body.innerHTML = '';
    server([], {});
    await open();
    await waitFor(() => expect(text()).toContain('No departments yet.'));
    expect(document.querySelector(`a[href="${BASE}/insert-department"]`)).toBeNull();
  });

  it('shows placeholders while loading and a failure with a retry', async () => {
    server(undefined, ALL, { [`GET ${API}/healthy-departments`]: () => new Promise<Response>(() => {}) });
    await open();
    expect(document.querySelector('[role="status"][aria-label="Loading the departments"]')).not.toBeNull();
    expect(count('Departments')).toBe('—');

    document.body.innerHTML = '';
    server(undefined, ALL, { [`GET ${API}/healthy-departments`]: jsonResponse({ message: 'Not now.' }, 500) });
    await open();
    await waitFor(() => expect(document.querySelector('[role="alert"]')?.textContent).toBe('Not now.'));
  });
});
