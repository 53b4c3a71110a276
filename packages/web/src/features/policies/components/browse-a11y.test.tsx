import { SNIPPET_START, SNIPPET_STOP } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, waitFor } from '../../../test/render';
import { seriousViolations } from '../../../test/ui';
import { API, BASE, department, dialog, doc, openPolicy, sessionRoutes, stubLayout } from './browse-test-helpers';

const DOCS = [
  doc({ id: 1, number: '1', title: 'Infection control', department_id: 5 }),
  doc({ id: 2, number: '1.2', title: 'Hand hygiene', department_id: 5, has_draft: true }),
  doc({ id: 3, number: null, title: 'Visitor rules' }),
];
const DEPARTMENTS = {
  departments: [
    department({ id: 5, name: 'Nursing', code: 'NUR' }),
    department({ id: 6, name: 'Wards', code: 'WRD', parent_id: 5 }),
  ],
};
const ARCHIVE = {
  documents: [{ id: 8, number: '4', title: 'Fax', archived_at: '2026-02-10T17:30:00Z', archived_by: null }],
  versions: [
    {
      document_id: 2,
      number: '1.2',
      title: 'Hand hygiene',
      version_id: 21,
      version: 1,
      effective_on: null,
      superseded_at: '2026-01-20T09:00:00Z',
    },
  ],
};

function routes() {
  return {
    ...sessionRoutes(),
    [`GET ${API}/documents`]: jsonResponse(DOCS),
    [`GET ${API}/departments`]: jsonResponse(DEPARTMENTS),
    [`GET ${API}/archive`]: jsonResponse(ARCHIVE),
    [`GET ${API}/search`]: jsonResponse({
      results: [
        {
          id: 2,
          number: '1.2',
          title: 'Hand hygiene',
          status: 'published',
          snippet: `Wash ${SNIPPET_START}hands${SNIPPET_STOP}.`,
          rank: 1,
        },
      ],
      total: 1,
      total_capped: false,
      fuzzy: false,
      synonyms: [],
    }),
  };
}

describe('policy browsing screens: accessibility', () => {
  it('the table of contents, expanded', async () => {
    stubLayout();
    stubApi(routes());
    await openPolicy(`${BASE}/toc`);
    await waitFor(() => getControl('Expand all'));
    await click(getControl('Expand all'));
    expect(await seriousViolations()).toEqual([]);
  }, 20_000);

  it('the documents table and the navigator', async () => {
    stubApi(routes());
    await openPolicy(`${BASE}/documents`);
    await waitFor(() => expect(document.querySelector('[data-testid="documents-table"]')).not.toBeNull());
    expect(await seriousViolations()).toEqual([]);

    document.body.innerHTML = '';
    await openPolicy(`${BASE}/navigator?department=5`);
    await waitFor(() => expect(document.querySelector('h2')).not.toBeNull());
    expect(await seriousViolations()).toEqual([]);
  }, 20_000);

  it('the archive and its confirmation, and the search results', async () => {
    stubApi(routes());
    await openPolicy(`${BASE}/archive-navigator`);
    await waitFor(() => expect(document.querySelector('[data-testid="archived-table"]')).not.toBeNull());
    expect(await seriousViolations()).toEqual([]);
    await click(document.querySelector<HTMLElement>('button[aria-label="Restore 4 Fax"]')!);
    await waitFor(() => dialog());
    expect(await seriousViolations()).toEqual([]);

    document.body.innerHTML = '';
    await openPolicy(`${BASE}/search?q=hands`);
    await waitFor(() => expect(document.querySelector('mark')).not.toBeNull());
    expect(await seriousViolations()).toEqual([]);
  }, 20_000);
});
