import { describe, expect, it } from 'vitest';
import { type StubHandler, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, waitFor } from '../../../test/render';
import { seriousViolations } from '../../../test/ui';
import type { DepartmentAttestations } from '../api/get-department-attestations';
import { API, BASE, openPolicyScreen, sessionRoutes } from './admin-test-helpers';
import { DepartmentAttestationsPage } from './DepartmentAttestationsPage';

const reader = (id: number, name: string) => ({
  id,
  name,
  username: name.toLowerCase(),
  email: `${name.toLowerCase()}@north.example`,
  main_role: 'reader',
});

const PENDING = ['Hal', 'Ida', 'Jon', 'Kim', 'Lea', 'Max', 'Ned', 'Oli'].map((name, index) => ({
  id: 40 + index,
  name,
}));

const REPORT: DepartmentAttestations = {
  department: { id: 3, name: 'Nursing', code: 'NUR' },
  readers: [reader(31, 'Ana'), reader(32, 'Ben'), reader(33, 'Cy')],
  documents: [
    {
      id: 11,
      number: 'NUR-1.1',
      title: 'Hand hygiene',
      version: 3,
      effective_on: '2026-02-01',
      attested: 2,
      required: 3,
      rate: 2 / 3,
      pending: [{ id: 33, name: 'Cy' }],
    },
    {
      id: 12,
      number: null,
      title: 'Visitors',
      version: 1,
      effective_on: null,
      attested: 3,
      required: 11,
      rate: 3 / 11,
      pending: PENDING,
    },
    {
      id: 13,
      number: 'NUR-2',
      title: 'Falls',
      version: 2,
      effective_on: '2026-01-10',
      attested: 3,
      required: 3,
      rate: 1,
      pending: [],
    },
  ],
  attested: 8,
  required: 17,
  rate: 8 / 17,
};

function server(routes: Record<string, StubHandler> = {}) {
  return stubApi({
    ...sessionRoutes(),
    [`GET ${API}/departments/3/attestations`]: jsonResponse(REPORT),
    [`GET ${API}/departments/99/attestations`]: jsonResponse({ message: 'Department not found.' }, 404),
    ...routes,
  });
}

const open = (id: string | number = 3) =>
  openPolicyScreen(
    `${BASE}/attestation-reports/${id}`,
    ['attestation-reports/:departmentId'],
    <DepartmentAttestationsPage />,
  );

const shownIds = () =>
  [...document.querySelectorAll<HTMLElement>('tr[data-document-id]')].map((tr) => Number(tr.dataset.documentId));
const pendingOf = (id: number) =>
  document.querySelector(`tr[data-document-id="${id}"] [data-column="pending"]`) as HTMLElement;

describe('DepartmentAttestationsPage', () => {
  it('shows the overall rate, each published policy and who still has to read it', async () => {
    const api = server();
    await open();
    expect(document.querySelector('h1')?.textContent).toBe('Attestation report');
    await waitFor(() => expect(shownIds()).toEqual([11, 12, 13]));
    expect(text()).toContain('Nursing (NUR)');
    expect(document.querySelector('[data-testid="overall"]')?.textContent).toBe('8 of 17 attestations (47%).');
    expect(text()).toContain('3 readers must read each published policy.');

    const first = document.querySelector<HTMLElement>('tr[data-document-id="11"]')!;
    expect(first.querySelector('a')?.getAttribute('href')).toBe(`${BASE}/documents/11`);
    expect(first.querySelector('a')?.textContent).toBe('NUR-1.1 Hand hygiene');
    expect(text(first)).toContain('Feb 1, 2026');
    expect(text(first)).toContain('2 of 3 · 67%');
    expect(pendingOf(11).textContent).toBe('Cy');
    expect(pendingOf(13).textContent).toBe('Everyone has read it');

    // Long lists show a few names and the rest on demand.
    expect(pendingOf(12).querySelectorAll('.mantine-Pill-root')).toHaveLength(6);
    await click(getControl('Show all 8', pendingOf(12)));
    expect(pendingOf(12).querySelectorAll('.mantine-Pill-root')).toHaveLength(8);

    const csv = getControl('Download CSV');
    expect(csv.tagName).toBe('A');
    expect(csv.getAttribute('href')).toBe(`${API}/departments/3/attestations.csv`);
    expect(csv.hasAttribute('download')).toBe(true);
    expect(api.calls(`GET ${API}/departments/3/attestations.csv`)).toHaveLength(0);

    expect(document.querySelector('table[aria-label="Published policies of Nursing"]')).not.toBeNull();
    expect(await seriousViolations()).toEqual([]);
  });

  it('says when the department has no published policy yet', async () => {
    server({
      [`GET ${API}/departments/3/attestations`]: jsonResponse({
        ...REPORT,
        documents: [],
        attested: 0,
        required: 0,
        rate: null,
      }),
    });
    await open();
    await waitFor(() => expect(text()).toContain('No published policies in this department yet.'));
    expect(document.querySelector('table')).toBeNull();
  });

  it('says when the department does not exist', async () => {
    server();
    await open(99);
    await waitFor(() => expect(text()).toContain('This department does not exist (it may have been deleted).'));
    expect(getControl('Back to department health').getAttribute('href')).toBe(`${BASE}/healthy-departments`);
    expect(() => getControl('Download CSV')).toThrow();
  });

  it('shows a failure with a retry', async () => {
    server({ [`GET ${API}/departments/3/attestations`]: jsonResponse({ message: 'Not now.' }, 500) });
    await open();
    await waitFor(() => expect(document.querySelector('[role="alert"]')?.textContent).toBe('Not now.'));
    expect(getControl('Try again')).toBeDefined();
  });
});
