import { SNIPPET_START as A, SNIPPET_STOP as Z } from '@portal/shared';
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, typeInto, waitFor } from '../../../test/render';
import { API, BASE, department, input, openPolicy, pending, pick, sessionRoutes, where } from './browse-test-helpers';
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
  fuzzy: false,
  synonyms: [],
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
      [`GET ${API}/search`]: jsonResponse({ results: [], total: 0, total_capped: false, fuzzy: false, synonyms: [] }),
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

describe('SearchPage filters and guesses', () => {
  const departments = {
    departments: [
      department({ id: 4, name: 'Pharmacy', code: 'PHA' }),
      department({ id: 3, name: 'Nursing', code: 'NUR' }),
    ],
  };
  const allowed = (editDocuments: boolean) =>
    jsonResponse({
      permissions: {
        'policy_management:documents': true,
        'policy_management:edit-documents': editDocuments,
      },
    });

  it('filters by department and status through the URL, and a new search keeps the filters', async () => {
    const api = stubApi({
      ...sessionRoutes(),
      'GET /api/me/permissions': allowed(true),
      [`GET ${API}/departments`]: jsonResponse(departments),
      [`GET ${API}/search`]: jsonResponse(RESULTS),
    });
    await openPolicy(`${BASE}/search?q=hands`);
    await waitFor(() => expect(results()).toHaveLength(2));
    await waitFor(() => expect(input('Status')).toBeDefined());

    await pick('Department', 'Nursing (NUR)');
    await waitFor(() => expect(where()).toBe(`${BASE}/search?q=hands&department_id=3`));
    await waitFor(() => expect(api.calls(`GET ${API}/search`).at(-1)!.query.get('department_id')).toBe('3'));
    await pick('Status', 'Draft');
    await waitFor(() => expect(where()).toBe(`${BASE}/search?q=hands&department_id=3&status=draft`));
    await waitFor(() => expect(api.calls(`GET ${API}/search`).at(-1)!.query.get('status')).toBe('draft'));

    await submitSearch('gloves');
    await waitFor(() => expect(where()).toBe(`${BASE}/search?q=gloves&department_id=3&status=draft`));
    await waitFor(() => expect(api.calls(`GET ${API}/search`).at(-1)!.query.get('q')).toBe('gloves'));
  });

  it('offers no status filter to readers, and ignores one in the URL', async () => {
    const api = stubApi({
      ...sessionRoutes(),
      'GET /api/me/permissions': allowed(false),
      [`GET ${API}/departments`]: jsonResponse(departments),
      [`GET ${API}/search`]: jsonResponse(RESULTS),
    });
    await openPolicy(`${BASE}/search?q=hands&status=draft`);
    await waitFor(() => expect(results()).toHaveLength(2));
    expect(input('Department')).toBeDefined();
    expect(document.querySelector('input[aria-label="Status"], label[for]')?.textContent).not.toBe('Status');
    expect([...document.querySelectorAll('label')].map((label) => label.textContent)).not.toContain('Status');
    expect(api.calls(`GET ${API}/search`).every((call) => call.query.get('status') === null)).toBe(true);
  });

  it('says when the results are spelling guesses, and which synonyms were searched', async () => {
    stubApi({
      ...sessionRoutes(),
      [`GET ${API}/search`]: jsonResponse({
        ...RESULTS,
        results: RESULTS.results.slice(0, 1),
        total: 1,
        fuzzy: true,
        synonyms: ['handwashing', 'hand washing'],
      }),
    });
    await openPolicy(`${BASE}/search?q=hand+hygeine`);
    await waitFor(() => expect(results()).toHaveLength(1));
    expect(text(document.querySelector('[data-testid="search-fuzzy"]')!)).toBe(
      'No exact matches; showing policies with similar titles.',
    );
    expect(text(document.querySelector('[data-testid="search-synonyms"]')!)).toBe(
      'Also searched for “handwashing”, “hand washing”.',
    );
  });

  it('says nothing of guesses for exact results', async () => {
    stubApi({ ...sessionRoutes(), [`GET ${API}/search`]: jsonResponse(RESULTS) });
    await openPolicy(`${BASE}/search?q=hands`);
    await waitFor(() => expect(results()).toHaveLength(2));
    expect(document.querySelector('[data-testid="search-fuzzy"]')).toBeNull();
    expect(document.querySelector('[data-testid="search-synonyms"]')).toBeNull();
  });
});

describe('PolicySearchBox', () => {
  const press = async (target: Element, key: string, init: KeyboardEventInit = {}) => {
    const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init });
    await act(async () => {
      target.dispatchEvent(event);
    });
    return event;
  };

  it('puts the cursor in the box on "/", unless something else is being typed in', async () => {
    stubApi({ ...sessionRoutes(), [`GET ${API}/archive`]: () => pending() });
    await openPolicy(`${BASE}/archive-navigator`);
    const box = input('Search policies');
    expect(box.getAttribute('aria-keyshortcuts')).toBe('/');
    expect(text(document.querySelector('[data-testid="search-shortcut"]')!)).toBe('/');
    expect(document.activeElement).not.toBe(box);

    const slash = await press(document.body, '/');
    expect(document.activeElement).toBe(box);
    expect(slash.defaultPrevented).toBe(true);

    // In another field (or an editor) "/" is just a character.
    const other = document.createElement('textarea');
    const editor = document.createElement('div');
    editor.setAttribute('contenteditable', 'true');
    document.body.append(other, editor);
    for (const field of [other, editor]) {
      field.focus();
      const typed = await press(field, '/');
      expect(typed.defaultPrevented).toBe(false);
      expect(document.activeElement).not.toBe(box);
    }
    // Ctrl+/ belongs to the browser; other keys do nothing.
    other.blur();
    expect((await press(document.body, '/', { ctrlKey: true })).defaultPrevented).toBe(false);
    expect((await press(document.body, 'k')).defaultPrevented).toBe(false);
    other.remove();
    editor.remove();
  });

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
