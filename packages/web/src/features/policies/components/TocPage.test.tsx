import { describe, expect, it } from 'vitest';
import { stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, typeInto, waitFor } from '../../../test/render';
import {
  API,
  BASE,
  department,
  doc,
  input,
  openPolicy,
  pending,
  pick,
  rowNames,
  sessionRoutes,
  stubLayout,
  where,
} from './browse-test-helpers';

const DOCS = [
  doc({ id: 1, number: '1', title: 'Infection control', department_id: 5 }),
  doc({ id: 2, number: '1.10', title: 'Hand hygiene audits', department_id: 5 }),
  doc({ id: 3, number: '1.2', title: 'Hand hygiene', department_id: 5, has_draft: true }),
  doc({ id: 4, number: '2', title: 'Medication safety', status: 'draft' }),
  doc({ id: 5, number: null, title: 'Visitor rules' }),
];

const DEPARTMENTS = {
  departments: [
    department({ id: 5, name: 'Nursing', code: 'NUR' }),
    department({ id: 6, name: 'Wards', code: 'WRD', parent_id: 5 }),
  ],
};

describe('TocPage', () => {
  it('shows a loading state while the policies load', async () => {
    stubLayout();
    stubApi({
      ...sessionRoutes(),
      [`GET ${API}/documents`]: () => pending(),
      [`GET ${API}/departments`]: jsonResponse(DEPARTMENTS),
    });
    await openPolicy(`${BASE}/toc`);
    expect(document.querySelector('h1')!.textContent).toBe('Table of contents');
    expect(document.title).toBe('Table of contents | Healthcare Quality Portal');
    expect(document.querySelector('[role="status"][aria-label="Loading the policies"]')).not.toBeNull();
  });

  it('shows the tree in number order with the count, and narrows it as you type', async () => {
    stubLayout();
    const api = stubApi({
      ...sessionRoutes(),
      [`GET ${API}/documents`]: jsonResponse(DOCS),
      [`GET ${API}/departments`]: jsonResponse(DEPARTMENTS),
    });
    await openPolicy(`${BASE}/toc`);
    await waitFor(() => expect(rowNames()).toEqual(['1', '2', 'Unnumbered (1)']));
    expect(text(document.querySelector('[data-testid="toc-count"]')!)).toBe('5 documents');
    expect(api.calls(`GET ${API}/documents`)[0]!.url).toBe(`${API}/documents`);

    await click(getControl('Expand all'));
    expect(rowNames()).toEqual(['1', '1.2', '1.10', '2', 'Unnumbered (1)', 'Visitor rules']);

    await typeInto(input('Filter by number or title'), 'hygiene');
    await waitFor(() => expect(rowNames()).toEqual(['1', '1.2', '1.10']));
    expect(text(document.querySelector('[data-testid="toc-count"]')!)).toBe('2 of 5 documents');

    await typeInto(input('Filter by number or title'), 'nothing like this');
    await waitFor(() => expect(text()).toContain('No policies found.'));
    await click(getControl('Clear the filters'));
    await waitFor(() => expect(rowNames()).toEqual(['1', '2', 'Unnumbered (1)']));
  });

  it('filters by department and status on the server, keeping them in the URL', async () => {
    stubLayout();
    const api = stubApi({
      ...sessionRoutes(),
      [`GET ${API}/documents`]: (request) =>
        jsonResponse(
          DOCS.filter(
            (row) =>
              (!request.query.get('department_id') ||
                String(row.department_id) === request.query.get('department_id')) &&
              (!request.query.get('status') || row.status === request.query.get('status')),
          ),
        ),
      [`GET ${API}/departments`]: jsonResponse(DEPARTMENTS),
    });
    await openPolicy(`${BASE}/toc`);
    await waitFor(() => expect(rowNames()).toHaveLength(3));

    await pick('Department', 'Nursing');
    await waitFor(() => expect(rowNames()).toEqual(['1']));
    expect(where()).toBe(`${BASE}/toc?department=5`);
    expect(api.calls(`GET ${API}/documents`).at(-1)!.query.get('department_id')).toBe('5');

    await pick('Department', 'All departments');
    await pick('Status', 'Draft');
    await waitFor(() => expect(rowNames()).toEqual(['2']));
    expect(where()).toBe(`${BASE}/toc?status=draft`);
    expect(api.calls(`GET ${API}/documents`).at(-1)!.url).toBe(`${API}/documents?status=draft`);
  });

  it('reads the filters from the URL and says when nothing matches', async () => {
    stubLayout();
    const api = stubApi({
      ...sessionRoutes(),
      [`GET ${API}/documents`]: jsonResponse([]),
      [`GET ${API}/departments`]: jsonResponse(DEPARTMENTS),
    });
    await openPolicy(`${BASE}/toc?department=6&status=archived`);
    await waitFor(() => expect(text()).toContain('No policies found.'));
    const request = api.calls(`GET ${API}/documents`)[0]!;
    expect(request.query.get('department_id')).toBe('6');
    expect(request.query.get('status')).toBe('archived');
    expect(input('Department').value).toBe('Wards');
    expect(input('Status').value).toBe('Archived');
  });

  it('shows the server message and retries when the policies cannot be loaded', async () => {
    stubLayout();
    stubApi({
      ...sessionRoutes(),
      [`GET ${API}/documents`]: [jsonResponse({ message: 'The database is busy.' }, 503), jsonResponse(DOCS)],
      [`GET ${API}/departments`]: jsonResponse(DEPARTMENTS),
    });
    await openPolicy(`${BASE}/toc`);
    await waitFor(() => expect(text(document.querySelector('[role="alert"]')!)).toBe('The database is busy.'));
    await click(getControl('Try again'));
    await waitFor(() => expect(rowNames()).toEqual(['1', '2', 'Unnumbered (1)']));
  });
});
