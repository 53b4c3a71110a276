import type { DepartmentPerson, DepartmentRole } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { type StubHandler, type StubRequest, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, waitFor } from '../../../test/render';
import { seriousViolations } from '../../../test/ui';
import { API, BASE, dialog, fieldError, openPolicyScreen, pick, sessionRoutes, toasts } from './admin-test-helpers';
import { DepartmentRolePage } from './DepartmentRolePage';

function person(id: number, name: string, mainRole: string): DepartmentPerson {
  const username = name.toLowerCase().replace(/[^a-z]+/g, '.');
  return { id, name, username, email: `${username}@north.example`, main_role: mainRole };
}

const ANN = person(21, 'Ann Lee', 'policy_admin');
const BOB = person(22, 'Bob Stone', 'reviewer');
const CARA = person(23, 'Cara Diaz', 'signer');
const DAN = person(24, 'Dan Ford', 'reader');
const EVERYONE = [ANN, BOB, CARA, DAN];
const ELIGIBLE: Record<DepartmentRole, DepartmentPerson[]> = {
  reviewer: [ANN, BOB, CARA],
  signer: [ANN, CARA],
  reader: EVERYONE,
};

const NUR = { id: 3, name: 'Nursing', code: 'NUR', parent_id: null };
const ICU = { id: 4, name: 'Intensive care', code: 'ICU', parent_id: 3 };
const PHA = { id: 8, name: 'Pharmacy', code: 'PHA', parent_id: null };

type People = Record<DepartmentRole, number[]>;

/** A small server keeping each department's reviewers, signers and readers. */
function server(routes: Record<string, StubHandler | StubHandler[]> = {}, permissions: Record<string, boolean> = {}) {
  const people = new Map<number, People>([
    [3, { reviewer: [21, 22], signer: [23], reader: [21, 22, 24] }],
    [4, { reviewer: [22], signer: [21], reader: [24] }],
    [8, { reviewer: [], signer: [23], reader: [] }],
  ]);
  const departments = [PHA, ICU, NUR];
  const byId = (ids: number[]) => EVERYONE.filter((item) => ids.includes(item.id));
  const roles = (department: (typeof departments)[number]) => {
    const current = people.get(department.id)!;
    return {
      ...department,
      document_count: department.id === 3 ? 12 : 2,
      reviewers: byId(current.reviewer),
      signers: byId(current.signer),
      readers: byId(current.reader),
    };
  };
  const departmentOf = (request: StubRequest) =>
    departments.find((item) => request.path.includes(`/departments/${item.id}/`))!;
  const set = (request: StubRequest, role: DepartmentRole, ids: number[]) => {
    const department = departmentOf(request);
    people.get(department.id)![role] = ids;
    return jsonResponse(roles(department));
  };
  const idsOf = (request: StubRequest) => (request.body as { user_ids: number[] }).user_ids;
  const perDepartment: Record<string, StubHandler> = {};
  for (const department of departments) {
    const path = `${API}/departments/${department.id}`;
    perDepartment[`GET ${path}/edit-assignment-data`] = () =>
      jsonResponse({
        department: roles(department),
        candidates: { reviewers: ELIGIBLE.reviewer, signers: ELIGIBLE.signer, readers: ELIGIBLE.reader },
      });
    perDepartment[`GET ${path}/reviewer-edit-data`] = () =>
      jsonResponse({
        department: { ...department, reviewers: roles(department).reviewers },
        candidates: ELIGIBLE.reviewer,
      });
    perDepartment[`GET ${path}/reader-edit-data`] = () =>
      jsonResponse({ department: { ...department, readers: roles(department).readers }, candidates: ELIGIBLE.reader });
    perDepartment[`POST ${path}/update-reviewers`] = (request) => set(request, 'reviewer', idsOf(request));
    perDepartment[`POST ${path}/assign-readers`] = (request) => set(request, 'reader', idsOf(request));
    perDepartment[`POST ${path}/assign-roles`] = (request) =>
      set(request, 'signer', (request.body as { signer_ids: number[] }).signer_ids);
    perDepartment[`DELETE ${path}/remove-all-reviewers`] = (request) => set(request, 'reviewer', []);
    perDepartment[`DELETE ${path}/clear-readers`] = (request) => set(request, 'reader', []);
    perDepartment[`DELETE ${path}/clear-assignments`] = (request) => {
      set(request, 'reviewer', []);
      set(request, 'reader', []);
      return set(request, 'signer', []);
    };
  }
  const missing = jsonResponse({ message: 'Department not found.' }, 404);
  return stubApi({
    ...sessionRoutes(),
    'GET /api/me/permissions': jsonResponse({ permissions }),
    [`GET ${API}/department-reviewer-data`]: () =>
      jsonResponse({
        departments: departments.map((department) => {
          const { signers: _s, readers: _r, ...rest } = roles(department);
          return { ...rest, open_reviews: department.id === 3 ? 4 : 0 };
        }),
      }),
    [`GET ${API}/department-reviewer-management-data`]: () =>
      jsonResponse({
        reviewers: [
          { ...ANN, departments: [{ id: 3, name: 'Nursing', code: 'NUR' }], open_reviews: 2 },
          {
            ...BOB,
            departments: [
              { id: 3, name: 'Nursing', code: 'NUR' },
              { id: 4, name: 'Intensive care', code: 'ICU' },
            ],
            open_reviews: 3,
          },
        ],
        unassigned: [CARA],
      }),
    [`GET ${API}/department-assignment-data`]: () => jsonResponse({ departments: departments.map(roles) }),
    [`GET ${API}/department-reader-data`]: () =>
      jsonResponse({
        departments: departments.map((department) => {
          const { reviewers: _v, signers: _s, ...rest } = roles(department);
          const required = department.id === 3 ? 9 : 0;
          return {
            ...rest,
            attested: department.id === 3 ? 7 : 0,
            required,
            attestation_rate: required ? 7 / 9 : null,
          };
        }),
      }),
    [`GET ${API}/department-edit-lists`]: jsonResponse({
      reviewers: ELIGIBLE.reviewer,
      signers: ELIGIBLE.signer,
      readers: ELIGIBLE.reader,
    }),
    [`GET ${API}/department-reader-edit-lists`]: jsonResponse({ readers: ELIGIBLE.reader }),
    [`GET ${API}/departments/99/reviewer-edit-data`]: missing,
    [`GET ${API}/departments/99/reader-edit-data`]: missing,
    [`GET ${API}/departments/99/edit-assignment-data`]: missing,
    ...perDepartment,
    ...routes,
  });
}

function open(role: DepartmentRole, path: string) {
  return openPolicyScreen(path, [`department-${role}s/:departmentId?`], <DepartmentRolePage role={role} />);
}

/** The rows of the departments table: name, the people chips, whether it is marked as missing people. */
function rows() {
  return [...document.querySelectorAll<HTMLElement>('tr[data-department-id]')].map((tr) => ({
    id: Number(tr.dataset.departmentId),
    people: [...tr.querySelectorAll('.mantine-Pill-root')].map((pill) => pill.textContent),
    none: tr.querySelector('[data-testid="no-people"]')?.textContent ?? null,
    missing: tr.hasAttribute('data-missing'),
  }));
}

function row(id: number): HTMLElement {
  const element = document.querySelector<HTMLElement>(`tr[data-department-id="${id}"]`);
  if (!element) throw new Error(`no row ${id}`);
  return element;
}

describe('DepartmentRolePage: every department', () => {
  it('lists the departments with their reviewers and highlights the one without any', async () => {
    server();
    await open('reviewer', `${BASE}/department-reviewers`);
    expect(document.querySelector('h1')?.textContent).toBe('Department reviewers');
    await waitFor(() => expect(rows()).toHaveLength(3));
    // Tree order: Intensive care under Nursing, then Pharmacy.
    expect(rows()).toEqual([
      { id: 3, people: ['Ann Lee', 'Bob Stone'], none: null, missing: false },
      { id: 4, people: ['Bob Stone'], none: null, missing: false },
      { id: 8, people: [], none: 'None', missing: true },
    ]);
    expect(text(row(3))).toContain('NUR');
    expect(text(row(3))).toContain('12');
    expect(text(row(3))).toContain('4'); // open reviews
    expect(document.querySelector('[data-testid="summary"]')?.textContent).toBe(
      '1 of 3 departments have no reviewers.',
    );
    const edit = row(8).querySelector<HTMLAnchorElement>('a[aria-label="Edit reviewers of Pharmacy"]');
    expect(edit?.getAttribute('href')).toBe(`${BASE}/department-reviewers/8`);
    expect(document.querySelector('table[aria-label="Reviewers by department"]')).not.toBeNull();

    // Who reviews what, and who may review but reviews nothing.
    await waitFor(() => expect(document.querySelector('tr[data-reviewer-id="22"]')).not.toBeNull());
    expect(text(document.querySelector('tr[data-reviewer-id="22"]')!)).toContain('Intensive care (ICU)');
    expect(text(document.querySelector('tr[data-reviewer-id="22"]')!)).toContain('3');
    expect(document.querySelector('[data-testid="unassigned-reviewers"]')?.textContent).toBe('Cara Diaz');
    await waitFor(() =>
      expect(document.querySelector('[data-testid="eligible-hint"]')?.textContent).toContain(
        '3 people may be reviewers',
      ),
    );
    expect(await seriousViolations()).toEqual([]);
  });

  it('shows the readers with how far they have read', async () => {
    server();
    await open('reader', `${BASE}/department-readers`);
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(rows().map((item) => item.missing)).toEqual([false, false, true]);
    expect(text(row(3))).toContain('7 of 9 · 78%');
    expect(text(row(8))).toContain('Nothing to read');
  });

  it('shows a failure with a way to try again', async () => {
    server({ [`GET ${API}/department-assignment-data`]: jsonResponse({ message: 'Database down.' }, 500) });
    await open('signer', `${BASE}/department-signers`);
    await waitFor(() => expect(document.querySelector('[role="alert"]')?.textContent).toBe('Database down.'));
    expect(getControl('Try again')).toBeDefined();
  });
});

describe('DepartmentRolePage: one department', () => {
  it('saves the whole list of reviewers through update-reviewers, then goes back to the list', async () => {
    const api = server();
    const router = await open('reviewer', `${BASE}/department-reviewers/3`);
    expect(document.querySelector('h1')?.textContent).toBe('Edit department reviewers');
    await waitFor(() => expect(document.querySelector('[data-testid="current-people"]')).not.toBeNull());
    expect(text()).toContain('Nursing (NUR)');
    expect(text()).toContain('Changing the reviewers updates the open review rounds');
    expect(getControl('Save reviewers').hasAttribute('disabled')).toBe(true);

    await pick('Reviewers', 'Cara Diaz');
    expect(getControl('Save reviewers').hasAttribute('disabled')).toBe(false);
    await click(getControl('Save reviewers'));
    await waitFor(() => expect(toasts()).toContain('Saved the reviewers of Nursing.'));
    expect(api.calls(`POST ${API}/departments/3/update-reviewers`).map((call) => call.body)).toEqual([
      { user_ids: [21, 22, 23] },
    ]);
    expect(api.calls(`POST ${API}/departments/3/assign-reviewers`)).toHaveLength(0);
    await waitFor(() => expect(router.state.location.pathname).toBe(`${BASE}/department-reviewers`));
    await waitFor(() => expect(rows()[0]?.people).toEqual(['Ann Lee', 'Bob Stone', 'Cara Diaz']));
  });

  it('saves the signers through assign-roles and the readers through assign-readers', async () => {
    const api = server();
    await open('signer', `${BASE}/department-signers/3`);
    await waitFor(() => expect(document.querySelector('[data-testid="current-people"]')).not.toBeNull());
    await pick('Signers', 'Ann Lee');
    await click(getControl('Save signers'));
    await waitFor(() => expect(toasts()).toContain('Saved the signers of Nursing.'));
    expect(api.calls(`POST ${API}/departments/3/assign-roles`).map((call) => call.body)).toEqual([
      { signer_ids: [23, 21] },
    ]);

    document.body.innerHTML = '';
    const readers = server();
    await open('reader', `${BASE}/department-readers/8`);
    await waitFor(() => expect(text()).toContain('Pharmacy (PHA)'));
    expect(text()).toContain('This department has no readers yet.');
    await pick('Readers', 'Dan Ford');
    await click(getControl('Save readers'));
    await waitFor(() =>
      expect(readers.calls(`POST ${API}/departments/8/assign-readers`).map((call) => call.body)).toEqual([
        { user_ids: [24] },
      ]),
    );
  });

  it('shows the error of the server on the field and keeps the choice', async () => {
    const api = server({
      [`POST ${API}/departments/3/update-reviewers`]: jsonResponse(
        { message: 'Some people cannot review.', errors: { 'user_ids.2': ['This person may not review policies.'] } },
        400,
      ),
    });
    await open('reviewer', `${BASE}/department-reviewers/3`);
    await waitFor(() => expect(document.querySelector('[data-testid="current-people"]')).not.toBeNull());
    const saved = () => toasts().filter((toast) => toast === 'Saved the reviewers of Nursing.').length;
    const before = saved();
    await pick('Reviewers', 'Cara Diaz');
    await click(getControl('Save reviewers'));
    await waitFor(() => expect(fieldError('Reviewers')).toBe('Cara Diaz: This person may not review policies.'));
    expect(api.calls(`POST ${API}/departments/3/update-reviewers`)).toHaveLength(1);
    expect(saved()).toBeLessThanOrEqual(before);
    expect(getControl('Save reviewers').hasAttribute('disabled')).toBe(false);
    expect(document.querySelector('h1')?.textContent).toBe('Edit department reviewers');
  });

  it('shows a refusal (403) as a message', async () => {
    server({
      [`POST ${API}/departments/3/assign-roles`]: jsonResponse({ message: 'Ann Lee may not sign policies.' }, 403),
    });
    await open('signer', `${BASE}/department-signers/3`);
    await waitFor(() => expect(document.querySelector('[data-testid="current-people"]')).not.toBeNull());
    await pick('Signers', 'Ann Lee');
    await click(getControl('Save signers'));
    await waitFor(() =>
      expect(document.querySelector('[role="alert"]')?.textContent).toBe('Ann Lee may not sign policies.'),
    );
  });

  it('says "1 person stops reviewing" for a department with one reviewer', async () => {
    server();
    await open('reviewer', `${BASE}/department-reviewers/4`);
    await waitFor(() => expect(document.querySelector('[data-testid="current-people"]')).not.toBeNull());
    await click(getControl('Remove all reviewers'));
    await waitFor(() => expect(dialog().textContent).toContain('will have no reviewers: 1 person stops reviewing'));
  });

  it('removes all reviewers only after the confirmation', async () => {
    const api = server();
    await open('reviewer', `${BASE}/department-reviewers/3`);
    await waitFor(() => expect(document.querySelector('[data-testid="current-people"]')).not.toBeNull());

    await click(getControl('Remove all reviewers'));
    await waitFor(() => expect(dialog().textContent).toContain('Remove all reviewers of Nursing?'));
    expect(dialog().textContent).toContain('Nursing (NUR) will have no reviewers: 2 people stop reviewing');
    await click(getControl('Cancel', dialog()));
    expect(api.calls(`DELETE ${API}/departments/3/remove-all-reviewers`)).toHaveLength(0);

    await click(getControl('Remove all reviewers'));
    await waitFor(() => dialog());
    await click(getControl('Remove all reviewers', dialog()));
    await waitFor(() => expect(toasts()).toContain('Removed all reviewers of Nursing.'));
    expect(api.calls(`DELETE ${API}/departments/3/remove-all-reviewers`)).toHaveLength(1);
    await waitFor(() => expect(text()).toContain('This department has no reviewers yet.'));
    expect(getControl('Remove all reviewers').hasAttribute('disabled')).toBe(true);
  });

  it('warns that clearing the signers clears every assignment of the department', async () => {
    const api = server();
    await open('signer', `${BASE}/department-signers/3`);
    await waitFor(() => expect(document.querySelector('[data-testid="current-people"]')).not.toBeNull());
    await click(getControl('Clear all assignments'));
    await waitFor(() => expect(dialog().textContent).toContain('Clear all assignments of Nursing?'));
    expect(dialog().textContent).toContain(
      'This removes everyone from Nursing (NUR), not only the signers: 2 reviewers, 1 signer and 3 readers.',
    );
    expect(api.calls(`DELETE ${API}/departments/3/clear-assignments`)).toHaveLength(0);
    await click(getControl('Clear all assignments', dialog()));
    await waitFor(() => expect(toasts()).toContain('Cleared all assignments of Nursing.'));
    expect(api.calls(`DELETE ${API}/departments/3/clear-assignments`)).toHaveLength(1);
  });

  it('links to the other roles of the same department', async () => {
    server();
    await open('reader', `${BASE}/department-readers/3`);
    await waitFor(() => expect(document.querySelector('nav[aria-label="Roles of Nursing"]')).not.toBeNull());
    const nav = document.querySelector('nav[aria-label="Roles of Nursing"]')!;
    expect([...nav.querySelectorAll('a')].map((link) => link.getAttribute('href'))).toEqual([
      `${BASE}/department-reviewers/3`,
      `${BASE}/department-signers/3`,
      `${BASE}/department-readers/3`,
    ]);
    expect(nav.querySelector('[aria-current="page"]')?.textContent).toBe('Readers');
    expect(await seriousViolations()).toEqual([]);
  });

  it('says when the department does not exist', async () => {
    server();
    await open('reader', `${BASE}/department-readers/99`);
    await waitFor(() => expect(text()).toContain('This department does not exist (it may have been deleted).'));
    expect(getControl('Back to department readers').getAttribute('href')).toBe(`${BASE}/department-readers`);
    expect(document.querySelector('form')).toBeNull();
  });
});
