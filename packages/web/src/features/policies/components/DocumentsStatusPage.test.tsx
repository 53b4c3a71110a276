import { describe, expect, it } from 'vitest';
import { stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, waitFor } from '../../../test/render';
import { API, BASE, department, doc, openPolicy, pending, sessionRoutes, where } from './browse-test-helpers';

const DOCS = [
  doc({ id: 2, number: '1.10', title: 'Hand hygiene audits', department_id: 5, updated_at: '2026-03-04T18:00:00Z' }),
  doc({ id: 3, number: '1.2', title: 'Hand hygiene', department_id: 5, next_review_on: '2026-11-21' }),
  doc({ id: 5, number: null, title: 'Visitor rules' }),
  doc({ id: 1, number: '1', title: 'Infection control', status: 'draft', has_draft: true, department_id: 6 }),
];
const DEPARTMENTS = {
  departments: [
    department({ id: 5, name: 'Nursing', code: 'NUR' }),
    department({ id: 6, name: 'Pharmacy', code: 'PH' }),
  ],
};

function rows(): HTMLTableRowElement[] {
  return [...document.querySelectorAll<HTMLTableRowElement>('[data-testid="documents-table"] tbody tr')];
}

function cells(row: HTMLTableRowElement): string[] {
  return [...row.querySelectorAll('td')].map((cell) => text(cell).trim());
}

describe('DocumentsStatusPage', () => {
  it('shows a loading state', async () => {
    stubApi({
      ...sessionRoutes(),
      [`GET ${API}/documents`]: () => pending(),
      [`GET ${API}/departments`]: jsonResponse(DEPARTMENTS),
    });
    await openPolicy(`${BASE}/documents`);
    expect(document.querySelector('h1')!.textContent).toBe('Documents');
    expect(document.querySelector('[role="status"][aria-label="Loading the documents"]')).not.toBeNull();
  });

  it('lists every live document in number order with its department, status and dates', async () => {
    const api = stubApi({
      ...sessionRoutes(),
      [`GET ${API}/documents`]: jsonResponse(DOCS),
      [`GET ${API}/departments`]: jsonResponse(DEPARTMENTS),
    });
    await openPolicy(`${BASE}/documents`);
    await waitFor(() => expect(rows()).toHaveLength(4));
    await waitFor(() => expect(cells(rows()[1]!)[2]).toBe('Nursing'));
    expect(api.calls(`GET ${API}/documents`)[0]!.url).toBe(`${API}/documents`);
    expect(document.title).toBe('Documents | Healthcare Quality Portal');
    expect(rows().map((row) => cells(row)[0])).toEqual(['1', '1.2', '1.10', '—']);
    expect(cells(rows()[0]!)).toEqual([
      '1',
      'Infection controlDraft in progress',
      'Pharmacy',
      'Draft',
      '—',
      'Mar 1, 2026',
    ]);
    expect(cells(rows()[1]!)).toEqual(['1.2', 'Hand hygiene', 'Nursing', 'Published', 'Nov 21, 2026', 'Mar 1, 2026']);
    expect(cells(rows()[2]!)[5]).toBe('Mar 4, 2026');
    expect(cells(rows()[3]!)[2]).toBe('None');
    expect(rows()[1]!.querySelector('a')!.getAttribute('href')).toBe(`${BASE}/documents/3`);
    expect(text(document.querySelector('[data-testid="documents-count"]')!)).toBe('4 documents');
  });

  it('switches status through the URL and asks the server for that status', async () => {
    const api = stubApi({
      ...sessionRoutes(),
      [`GET ${API}/documents`]: (request) =>
        jsonResponse(DOCS.filter((row) => !request.query.get('status') || row.status === request.query.get('status'))),
      [`GET ${API}/departments`]: jsonResponse(DEPARTMENTS),
    });
    await openPolicy(`${BASE}/documents/status/published`);
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(document.querySelector('h1')!.textContent).toBe('Published documents');
    expect(api.calls(`GET ${API}/documents`)[0]!.url).toBe(`${API}/documents?status=published`);

    const draft = [...document.querySelectorAll('label')].find((label) => label.textContent === 'Draft')!;
    await click(draft);
    await waitFor(() => expect(where()).toBe(`${BASE}/documents/status/draft`));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(cells(rows()[0]!)[1]).toContain('Infection control');

    const all = [...document.querySelectorAll('label')].find((label) => label.textContent === 'All')!;
    await click(all);
    await waitFor(() => expect(where()).toBe(`${BASE}/documents`));
    await waitFor(() => expect(rows()).toHaveLength(4));
  });

  it('says an unknown status is unknown and links to the real ones', async () => {
    const api = stubApi({ ...sessionRoutes(), [`GET ${API}/departments`]: jsonResponse(DEPARTMENTS) });
    await openPolicy(`${BASE}/documents/status/retired`);
    await waitFor(() => expect(text()).toContain('Unknown status.'));
    expect(api.calls(`GET ${API}/documents`)).toHaveLength(0);
    expect(getControl('Pending signature').getAttribute('href')).toBe(`${BASE}/documents/status/pending_signature`);
    expect(getControl('All documents').getAttribute('href')).toBe(`${BASE}/documents`);
  });

  it('says when no policy has the status', async () => {
    stubApi({
      ...sessionRoutes(),
      [`GET ${API}/documents`]: jsonResponse([]),
      [`GET ${API}/departments`]: jsonResponse(DEPARTMENTS),
    });
    await openPolicy(`${BASE}/documents/status/archived`);
    await waitFor(() => expect(text()).toContain('No policies found.'));
    expect(document.querySelector('[data-testid="documents-table"]')).toBeNull();
  });

  it('shows the server message and retries', async () => {
    stubApi({
      ...sessionRoutes(),
      [`GET ${API}/documents`]: [jsonResponse({ message: 'Not now.' }, 500), jsonResponse(DOCS)],
      [`GET ${API}/departments`]: jsonResponse(DEPARTMENTS),
    });
    await openPolicy(`${BASE}/documents`);
    await waitFor(() => expect(text(document.querySelector('[role="alert"]')!)).toBe('Not now.'));
    await click(getControl('Try again'));
    await waitFor(() => expect(rows()).toHaveLength(4));
  });

  it('pages through thousands of documents 100 at a time', async () => {
    const many = Array.from({ length: 250 }, (_, index) =>
      doc({ id: index + 1, number: `1.${index + 1}`, title: `Section ${index + 1}` }),
    ).reverse();
    stubApi({
      ...sessionRoutes(),
      [`GET ${API}/documents`]: jsonResponse(many),
      [`GET ${API}/departments`]: jsonResponse(DEPARTMENTS),
    });
    await openPolicy(`${BASE}/documents`);
    await waitFor(() => expect(rows()).toHaveLength(100));
    expect(cells(rows()[0]!)[0]).toBe('1.1');
    expect(text(document.querySelector('[data-testid="documents-count"]')!)).toBe('250 documents (showing 1–100)');
    await click(document.querySelector<HTMLElement>('button[aria-label="Page 3"]')!);
    await waitFor(() => expect(rows()).toHaveLength(50));
    expect(cells(rows()[0]!)[0]).toBe('1.201');
  });
});
