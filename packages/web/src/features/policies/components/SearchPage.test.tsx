import { SNIPPET_START as A, SNIPPET_STOP as Z } from '@portal/shared';
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, typeInto, waitFor } from '../../../test/render';
import { API, BASE, input, openPolicy, pending, sessionRoutes, where } from './browse-test-helpers';
import { snippetParts } from './SearchPage';

const RESULTS = {
  results: [
    {
      id: 3,
      number: '1.2',
      title: 'Hand hygiene',
      status: 'published',
      snippet: `Staff wash ${A}hands${Z} before and after <b>every</b> ${A}patient${Z} contact.`,
      rank: 0.9,
    },
    {
      id: 8,
      number: null,
      title: 'Visitor rules',
      status: 'archived',
      snippet: `Visitors clean their ${A}hands${Z}.`,
      rank: 0.4,
    },
  ],
  total: 57,
  total_capped: false,
};

function results(): HTMLElement[] {
  return [...document.querySelectorAll<HTMLElement>('ol[aria-label="Search results"] > li')];
}

async function submitSearch(words: string) {
  await typeInto(input('Search policies'), words);
  const form = input('Search policies').closest('form')!;
  await act(async () => {
    form.requestSubmit();
  });
}

describe('snippetParts', () => {
  it('cuts a snippet into text and matches, dropping stray markers', () => {
    expect(snippetParts(`a ${A}b${Z} c`)).toEqual([
      { text: 'a ', mark: false },
      { text: 'b', mark: true },
      { text: ' c', mark: false },
    ]);
    expect(snippetParts(`${Z}x ${A}y`)).toEqual([
      { text: 'x ', mark: false },
      { text: 'y', mark: true },
    ]);
    expect(snippetParts('')).toEqual([]);
  });
});

describe('SearchPage', () => {
  it('asks for words when there are none, without calling the server', async () => {
    const api = stubApi({ ...sessionRoutes() });
    await openPolicy(`${BASE}/search`);
    expect(document.querySelector('h1')!.textContent).toBe('Search');
    expect(text(document.querySelector('[data-testid="search-hint"]')!)).toContain('Type words in the search box');
    expect(api.calls(`GET ${API}/search`)).toHaveLength(0);
  });

  it('shows a loading state', async () => {
    stubApi({ ...sessionRoutes(), [`GET ${API}/search`]: () => pending() });
    await openPolicy(`${BASE}/search?q=hands`);
    expect(document.querySelector('[role="status"][aria-label="Searching the policies"]')).not.toBeNull();
  });

  it('shows ranked results with marked matches and never reads the snippet as HTML', async () => {
    const api = stubApi({ ...sessionRoutes(), [`GET ${API}/search`]: jsonResponse(RESULTS) });
    await openPolicy(`${BASE}/search?q=hands`);
    await waitFor(() => expect(results()).toHaveLength(2));
    expect(document.title).toBe('Search: hands | Healthcare Quality Portal');
    expect(text()).toContain('Results for “hands”');
    const request = api.calls(`GET ${API}/search`)[0]!;
    expect(request.query.get('q')).toBe('hands');
    expect(request.query.get('include_archived')).toBeNull();
    expect(request.query.get('limit')).toBe('50');

    const first = results()[0]!;
    expect(first.querySelector('a')!.getAttribute('href')).toBe(`${BASE}/documents/3`);
    expect(text(first.querySelector('a')!)).toBe('1.2 Hand hygiene');
    expect(text(first)).toContain('Published');
    const snippet = first.querySelector('[data-testid="snippet"]')!;
    expect([...snippet.querySelectorAll('mark')].map((mark) => mark.textContent)).toEqual(['hands', 'patient']);
    expect(snippet.querySelector('b')).toBeNull();
    expect(snippet.textContent).toBe('Staff wash hands before and after <b>every</b> patient contact.');
    expect(text(results()[1]!)).toContain('Archived');
    expect(text(document.querySelector('[data-testid="search-total"]')!)).toBe(
      '57 results (showing the best 2; add words to narrow the search)',
    );
  });

  it('says when the server stopped counting', async () => {
    stubApi({
      ...sessionRoutes(),
      [`GET ${API}/search`]: jsonResponse({
        ...RESULTS,
        results: RESULTS.results.slice(0, 1),
        total: 1000,
        total_capped: true,
      }),
    });
    await openPolicy(`${BASE}/search?q=the`);
    await waitFor(() => expect(results()).toHaveLength(1));
    expect(text(document.querySelector('[data-testid="search-total"]')!)).toBe(
      '1,000+ results (showing the best 1; add words to narrow the search)',
    );
  });

  it('includes the archive when asked, through the URL', async () => {
    const api = stubApi({ ...sessionRoutes(), [`GET ${API}/search`]: jsonResponse(RESULTS) });
    await openPolicy(`${BASE}/search?q=hands`);
    await waitFor(() => expect(results()).toHaveLength(2));
    await click(input('Include archived'));
    await waitFor(() => expect(where()).toBe(`${BASE}/search?q=hands&include_archived=true`));
    await waitFor(() => expect(api.calls(`GET ${API}/search`)).toHaveLength(2));
    expect(api.calls(`GET ${API}/search`)[1]!.query.get('include_archived')).toBe('true');
    expect(input('Include archived').checked).toBe(true);

    // A new search from the box keeps the choice.
    await submitSearch('visitors');
    await waitFor(() => expect(where()).toBe(`${BASE}/search?q=visitors&include_archived=true`));
  });

  it('says when nothing matches', async () => {
    stubApi({
      ...sessionRoutes(),
      [`GET ${API}/search`]: jsonResponse({ results: [], total: 0, total_capped: false }),
    });
    await openPolicy(`${BASE}/search?q=zebra`);
    await waitFor(() => expect(text()).toContain('No policies found.'));
  });

  it('shows the server message and retries', async () => {
    stubApi({
      ...sessionRoutes(),
      [`GET ${API}/search`]: [
        jsonResponse({ message: 'Search text is at most 200 characters.' }, 400),
        jsonResponse(RESULTS),
      ],
    });
    await openPolicy(`${BASE}/search?q=hands`);
    await waitFor(() =>
      expect(text(document.querySelector('[role="alert"]')!)).toBe('Search text is at most 200 characters.'),
    );
    await click(getControl('Try again'));
    await waitFor(() => expect(results()).toHaveLength(2));
  });
});

describe('PolicySearchBox', () => {
  it('opens the search page on Enter and shows the words searched for', async () => {
    stubApi({
      ...sessionRoutes(),
      [`GET ${API}/search`]: jsonResponse(RESULTS),
      [`GET ${API}/archive`]: () => pending(),
    });
    await openPolicy(`${BASE}/archive-navigator`);
    expect(input('Search policies').value).toBe('');

    await submitSearch('   ');
    expect(where()).toBe(`${BASE}/archive-navigator`);

    await submitSearch('hand & hygiene');
    await waitFor(() => expect(where()).toBe(`${BASE}/search?q=hand+%26+hygiene`));
    await waitFor(() => expect(results()).toHaveLength(2));
    expect(input('Search policies').value).toBe('hand & hygiene');
  });
});
