import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, waitFor } from '../../../test/render';
import { API, BASE, department, doc, openPolicy, pending, sessionRoutes, where } from './browse-test-helpers';

const DOCS = [
  doc({ id: 2, number: '1.10', title: 'Hand hygiene audits', department_id: 5 }),
  doc({ id: 3, number: '1.2', title: 'Hand hygiene', department_id: 5, status: 'draft' }),
  doc({ id: 4, number: '3', title: 'Ward rounds', department_id: 7 }),
  doc({ id: 5, number: null, title: 'Visitor rules' }),
];
const DEPARTMENTS = {
  departments: [
    department({ id: 7, name: 'Wards', code: 'WRD', parent_id: 5 }),
    department({ id: 5, name: 'Nursing', code: 'NUR' }),
    department({ id: 6, name: 'Admissions', code: 'ADM' }),
  ],
};

function navLinks(): HTMLAnchorElement[] {
  return [...document.querySelectorAll<HTMLAnchorElement>('nav[aria-label="Departments"] a')];
}

function listed(): string[] {
  return [...document.querySelectorAll('section[aria-label="Policies"] li')].map((item) => text(item).trim());
}

describe('NavigatorPage', () => {
  it('shows a loading state', async () => {
    stubApi({
      ...sessionRoutes(),
      [`GET ${API}/documents`]: () => pending(),
      [`GET ${API}/departments`]: () => pending(),
    });
    await openPolicy(`${BASE}/navigator`);
    expect(document.querySelector('h1')!.textContent).toBe('Navigator');
    expect(document.querySelector('[role="status"][aria-label="Loading the departments"]')).not.toBeNull();
  });

  it('lists the departments nested with their counts and shows the chosen one in number order', async () => {
    stubApi({
      ...sessionRoutes(),
      [`GET ${API}/documents`]: jsonResponse(DOCS),
      [`GET ${API}/departments`]: jsonResponse(DEPARTMENTS),
    });
    await openPolicy(`${BASE}/navigator`);
    await waitFor(() => expect(navLinks()).toHaveLength(4));
    expect(navLinks().map((link) => text(link).trim())).toEqual([
      'AdmissionsADM0 policies',
      'NursingNUR2 policies',
      'WardsWRD1 policy',
      'No department1 policy',
    ]);
    // Wards sits under Nursing: indented further.
    const indent = (link: HTMLElement) => link.style.paddingLeft || link.getAttribute('style') || '';
    expect(indent(navLinks()[2]!)).toContain('16px');
    expect(indent(navLinks()[1]!)).toContain('0px');
    expect(text()).toContain('Choose a department to see its policies.');

    await click(navLinks()[1]!);
    await waitFor(() => expect(where()).toBe(`${BASE}/navigator?department=5`));
    await waitFor(() => expect(listed()).toEqual(['1.2 Hand hygieneDraft', '1.10 Hand hygiene auditsPublished']));
    expect(document.querySelector('h2')!.textContent).toBe('Nursing (NUR)');
    expect(navLinks()[1]!.getAttribute('aria-current')).toBe('page');
    expect(document.querySelector('section[aria-label="Policies"] a')!.getAttribute('href')).toBe(
      `${BASE}/documents/3`,
    );

    await click(getControl('No department1 policy'));
    await waitFor(() => expect(where()).toBe(`${BASE}/navigator?department=none`));
    await waitFor(() => expect(listed()).toEqual(['Visitor rulesPublished']));
  });

  it('says when a department has no policies, and when it does not exist', async () => {
    stubApi({
      ...sessionRoutes(),
      [`GET ${API}/documents`]: jsonResponse(DOCS),
      [`GET ${API}/departments`]: jsonResponse(DEPARTMENTS),
    });
    const router = await openPolicy(`${BASE}/navigator?department=6`);
    await waitFor(() => expect(text()).toContain('No policies found.'));
    expect(document.querySelector('h2')!.textContent).toBe('Admissions (ADM)');

    await act(() => router.navigate(`${BASE}/navigator?department=99`));
    await waitFor(() => expect(text()).toContain('Department not found.'));
  });

  it('shows the server message and retries', async () => {
    stubApi({
      ...sessionRoutes(),
      [`GET ${API}/documents`]: jsonResponse(DOCS),
      [`GET ${API}/departments`]: [
        jsonResponse({ message: 'Departments are resting.' }, 500),
        jsonResponse(DEPARTMENTS),
      ],
    });
    await openPolicy(`${BASE}/navigator`);
    await waitFor(() => expect(text(document.querySelector('[role="alert"]')!)).toBe('Departments are resting.'));
    await click(getControl('Try again'));
    await waitFor(() => expect(navLinks()).toHaveLength(4));
  });
});
