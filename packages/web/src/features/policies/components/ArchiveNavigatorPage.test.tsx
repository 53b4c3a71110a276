import { describe, expect, it } from 'vitest';
import { stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, waitFor } from '../../../test/render';
import { API, BASE, bareDetail, dialog, openPolicy, pending, sessionRoutes, toasts } from './browse-test-helpers';

const ARCHIVE = {
  documents: [
    {
      id: 8,
      number: '4.10',
      title: 'Old visiting hours',
      archived_at: '2026-02-10T17:30:00Z',
      archived_by: { id: 7, name: 'Ana Ruiz' },
    },
    { id: 9, number: '4.2', title: 'Fax procedures', archived_at: null, archived_by: null },
  ],
  versions: [
    {
      document_id: 3,
      number: '1.2',
      title: 'Hand hygiene',
      version_id: 31,
      version: 1,
      effective_on: '2025-01-15',
      superseded_at: '2026-01-20T09:00:00Z',
    },
  ],
};

/** The archived policy as its page loads it. */
function detail(id: number) {
  return bareDetail({
    id,
    number: '4.10',
    title: 'Old visiting hours',
    status: 'published',
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
  });
}

function tableRows(testId: string): HTMLTableRowElement[] {
  return [...document.querySelectorAll<HTMLTableRowElement>(`[data-testid="${testId}"] tbody tr`)];
}

function cells(row: HTMLTableRowElement): string[] {
  return [...row.querySelectorAll('td')].map((cell) => text(cell).trim());
}

function button(label: string): HTMLElement {
  const element = document.querySelector<HTMLElement>(`:is(a, button)[aria-label="${label}"]`);
  if (!element) throw new Error(`no button ${label}`);
  return element;
}

describe('ArchiveNavigatorPage', () => {
  it('shows a loading state', async () => {
    stubApi({ ...sessionRoutes(), [`GET ${API}/archive`]: () => pending() });
    await openPolicy(`${BASE}/archive-navigator`);
    expect(document.querySelector('h1')!.textContent).toBe('Archive');
    expect(document.querySelector('[role="status"][aria-label="Loading the archive"]')).not.toBeNull();
  });

  it('lists the archived documents and earlier versions', async () => {
    stubApi({ ...sessionRoutes(), [`GET ${API}/archive`]: jsonResponse(ARCHIVE) });
    await openPolicy(`${BASE}/archive-navigator`);
    await waitFor(() => expect(tableRows('archived-table')).toHaveLength(2));
    expect(document.title).toBe('Archive | Healthcare Quality Portal');
    expect(cells(tableRows('archived-table')[0]!)).toEqual(['4.2', 'Fax procedures', '—', '—', 'Restore']);
    expect(cells(tableRows('archived-table')[1]!)).toEqual([
      '4.10',
      'Old visiting hours',
      'Feb 10, 2026, 9:30 AM',
      'Ana Ruiz',
      'Restore',
    ]);
    expect(cells(tableRows('versions-table')[0]!)).toEqual([
      '1.2 Hand hygiene',
      'Version 1',
      'Jan 15, 2025',
      'Jan 20, 2026, 1:00 AM',
      'ViewRestore as draft',
    ]);
    expect(button('View 1.2 Hand hygiene').getAttribute('href')).toBe(`${BASE}/documents/3`);
  });

  it('restores a document after confirmation and shows the server message', async () => {
    const api = stubApi({
      ...sessionRoutes(),
      [`GET ${API}/archive`]: [jsonResponse(ARCHIVE), jsonResponse({ ...ARCHIVE, documents: [ARCHIVE.documents[1]] })],
      [`POST ${API}/documents/8/restore`]: jsonResponse({
        document: detail(8),
        message: 'Restored. Its number 4.10 was taken meanwhile, so it has no number now.',
      }),
    });
    await openPolicy(`${BASE}/archive-navigator`);
    await waitFor(() => expect(tableRows('archived-table')).toHaveLength(2));

    await click(button('Restore 4.10 Old visiting hours'));
    await waitFor(() => expect(text(dialog())).toContain('Restore “4.10 Old visiting hours” from the archive?'));
    await click(getControl('Cancel', dialog()));
    await waitFor(() => expect(document.querySelector('[role="dialog"]')).toBeNull());
    expect(api.calls(`POST ${API}/documents/8/restore`)).toHaveLength(0);

    await click(button('Restore 4.10 Old visiting hours'));
    await waitFor(() => dialog());
    await click(getControl('Restore', dialog()));
    await waitFor(() =>
      expect(toasts()).toContain('Restored. Its number 4.10 was taken meanwhile, so it has no number now.'),
    );
    expect(api.calls(`POST ${API}/documents/8/restore`)).toHaveLength(1);
    // The archive loads again without the restored document.
    await waitFor(() => expect(tableRows('archived-table')).toHaveLength(1));
  });

  it('restores an earlier version as the draft, and shows the conflict when a draft is open', async () => {
    const api = stubApi({
      ...sessionRoutes(),
      [`GET ${API}/archive`]: jsonResponse(ARCHIVE),
      [`POST ${API}/documents/3/versions/31/restore`]: [
        jsonResponse({ message: 'This document already has an open draft. Finish or discard it first.' }, 409),
        jsonResponse(detail(3)),
      ],
    });
    await openPolicy(`${BASE}/archive-navigator`);
    await waitFor(() => expect(tableRows('versions-table')).toHaveLength(1));

    await click(button('Restore as draft: version 1 of 1.2 Hand hygiene'));
    await waitFor(() => expect(text(dialog())).toContain('Make the text of version 1 of “1.2 Hand hygiene”'));
    await click(getControl('Restore as draft', dialog()));
    await waitFor(() =>
      expect(toasts()).toContain('This document already has an open draft. Finish or discard it first.'),
    );

    await click(button('Restore as draft: version 1 of 1.2 Hand hygiene'));
    await waitFor(() => dialog());
    await click(getControl('Restore as draft', dialog()));
    await waitFor(() => expect(toasts()).toContain('Version 1 of “1.2 Hand hygiene” is now the draft.'));
    expect(api.calls(`POST ${API}/documents/3/versions/31/restore`)).toHaveLength(2);
  });

  it('says when there is nothing archived', async () => {
    stubApi({ ...sessionRoutes(), [`GET ${API}/archive`]: jsonResponse({ documents: [], versions: [] }) });
    await openPolicy(`${BASE}/archive-navigator`);
    await waitFor(() => expect(text()).toContain('No archived policies.'));
    expect(text()).toContain('No earlier versions.');
  });

  it('shows the server message and retries', async () => {
    stubApi({
      ...sessionRoutes(),
      [`GET ${API}/archive`]: [jsonResponse({ message: 'Archive unavailable.' }, 500), jsonResponse(ARCHIVE)],
    });
    await openPolicy(`${BASE}/archive-navigator`);
    await waitFor(() => expect(text(document.querySelector('[role="alert"]')!)).toBe('Archive unavailable.'));
    await click(getControl('Try again'));
    await waitFor(() => expect(tableRows('archived-table')).toHaveLength(2));
  });
});
