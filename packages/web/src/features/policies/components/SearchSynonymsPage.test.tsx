import type { SynonymGroup } from '@portal/shared';
import { act } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { type StubHandler, type StubRequest, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, render, text, waitFor } from '../../../test/render';
import { API, BASE, dialog, input, ProjectReady, sessionRoutes, toasts } from './policy-test-fixtures';
import { SearchSynonymsPage } from './SearchSynonymsPage';

const URL = `${API}/search-synonyms`;
const group = (id: number, terms: string[]): SynonymGroup => ({ id, terms, updated_at: '2026-03-01T10:00:00Z' });

/** A fake server keeping the groups, refusing a word already in another group as the real one does. */
function server(initial: SynonymGroup[], routes: Record<string, StubHandler | StubHandler[]> = {}) {
  let groups = [...initial];
  let next = 100;
  const taken = (terms: string[], except?: number) =>
    terms.filter((term) => groups.some((g) => g.id !== except && g.terms.includes(term)));
  const refuse = (terms: string[]) => {
    const message = `"${terms[0]}" is already in another group; a word can be in one group only.`;
    return jsonResponse({ message, code: 'VALIDATION_FAILED', errors: { terms: [message] } }, 400);
  };
  return stubApi({
    ...sessionRoutes(),
    [`GET ${URL}`]: () => jsonResponse({ groups }),
    [`POST ${URL}`]: (request: StubRequest) => {
      const { terms } = request.body as { terms: string[] };
      if (taken(terms).length) return refuse(taken(terms));
      const created = group(next++, terms);
      groups = [...groups, created];
      return jsonResponse(created, 201);
    },
    [`POST ${URL}/suggested`]: () => {
      groups = [group(1, ['fall', 'falls']), group(2, ['restraint', 'seclusion'])];
      return jsonResponse({ groups });
    },
    ...Object.fromEntries(
      [1, 2, 7].flatMap((id) => [
        [
          `PUT ${URL}/${id}`,
          (request: StubRequest) => {
            const { terms } = request.body as { terms: string[] };
            if (taken(terms, id).length) return refuse(taken(terms, id));
            groups = groups.map((g) => (g.id === id ? group(id, terms) : g));
            return jsonResponse(group(id, terms));
          },
        ],
        [
          `DELETE ${URL}/${id}`,
          () => {
            groups = groups.filter((g) => g.id !== id);
            return new Response(null, { status: 204 });
          },
        ],
      ]),
    ),
    ...routes,
  });
}

async function open() {
  const router = createMemoryRouter(
    [
      {
        path: '/app/policy_management/:projectId/search-synonyms',
        element: (
          <ProjectReady>
            <SearchSynonymsPage />
          </ProjectReady>
        ),
      },
    ],
    { initialEntries: [`${BASE}/search-synonyms`] },
  );
  await render(<RouterProvider router={router} />);
  await waitFor(() => expect(document.querySelector('h1')?.textContent).toBe('Search synonyms'));
}

function groupsShown(): string[][] {
  return [...document.querySelectorAll('ul[aria-label="Synonym groups"] > li')].map((li) =>
    [...li.querySelectorAll('.mantine-Badge-root')].map((badge) => badge.textContent ?? ''),
  );
}

/** Types words into a TagsInput, each followed by Enter, as a person adds tags. */
async function addTags(field: HTMLInputElement, words: string[]) {
  const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
  for (const word of words) {
    await act(async () => {
      field.focus();
      setValue.call(field, word);
      field.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await act(async () => {
      field.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
    });
  }
}

const submitIn = async (root: HTMLElement, label: string) => click(getControl(label, root));

describe('SearchSynonymsPage', () => {
  it('offers the suggested synonyms when there are none, and adds them', async () => {
    const api = server([]);
    await open();
    await waitFor(() => expect(document.querySelector('[data-testid="synonyms-empty"]')).not.toBeNull());
    expect(text()).toContain('No synonym groups yet.');
    expect(text()).toContain('hand hygiene, handwashing, hand washing');
    await click(getControl('Add the suggested synonyms'));
    await waitFor(() =>
      expect(groupsShown()).toEqual([
        ['fall', 'falls'],
        ['restraint', 'seclusion'],
      ]),
    );
    expect(api.calls(`POST ${URL}/suggested`)).toHaveLength(1);
    expect(toasts()).toContain('Suggested synonyms added.');
  });

  it('adds a group from tags, checking it first and showing the server refusal', async () => {
    const api = server([group(7, ['fall', 'falls'])]);
    await open();
    await waitFor(() => expect(groupsShown()).toEqual([['fall', 'falls']]));
    const form = input('Words or phrases').closest('form')!;

    await addTags(input('Words or phrases'), ['Bedsore']);
    await submitIn(form, 'Add group');
    expect(text(form)).toContain('A group needs at least 2 words or phrases.');
    expect(api.calls(`POST ${URL}`)).toHaveLength(0);

    await addTags(input('Words or phrases'), ['Falls']);
    await submitIn(form, 'Add group');
    await waitFor(() =>
      expect(text(form)).toContain('"falls" is already in another group; a word can be in one group only.'),
    );
    expect(api.calls(`POST ${URL}`)[0]!.body).toEqual({ terms: ['bedsore', 'falls'] });

    // Remove the clashing tag (its remove button), add another.
    const remove = form.querySelectorAll<HTMLButtonElement>('.mantine-Pill-remove');
    await click(remove[remove.length - 1]!);
    await addTags(input('Words or phrases'), ['pressure ulcer']);
    await submitIn(form, 'Add group');
    await waitFor(() =>
      expect(groupsShown()).toEqual([
        ['fall', 'falls'],
        ['bedsore', 'pressure ulcer'],
      ]),
    );
    expect(toasts()).toContain('Synonym group added.');
  });

  it('edits a group in a dialog and deletes one after confirming', async () => {
    const api = server([group(1, ['fall', 'falls']), group(2, ['restraint', 'seclusion'])]);
    await open();
    await waitFor(() => expect(groupsShown()).toHaveLength(2));

    await click(document.querySelector<HTMLButtonElement>('button[aria-label="Edit “fall”, “falls”"]')!);
    await waitFor(() => expect(dialog().textContent).toContain('Edit synonyms'));
    await addTags(dialog().querySelector('input')!, ['tumble']);
    await submitIn(dialog(), 'Save group');
    await waitFor(() => expect(groupsShown()[0]).toEqual(['fall', 'falls', 'tumble']));
    expect(api.calls(`PUT ${URL}/1`)[0]!.body).toEqual({ terms: ['fall', 'falls', 'tumble'] });

    await click(document.querySelector<HTMLButtonElement>('button[aria-label="Delete “restraint”, “seclusion”"]')!);
    await waitFor(() => expect(dialog().textContent).toContain('Delete this synonym group?'));
    expect(api.calls(`DELETE ${URL}/2`)).toHaveLength(0);
    await click(getControl('Cancel', dialog()));
    expect(groupsShown()).toHaveLength(2);

    await click(document.querySelector<HTMLButtonElement>('button[aria-label="Delete “restraint”, “seclusion”"]')!);
    await waitFor(() => expect(dialog().textContent).toContain('restraint'));
    await click(getControl('Delete group', dialog()));
    await waitFor(() => expect(groupsShown()).toEqual([['fall', 'falls', 'tumble']]));
    expect(api.calls(`DELETE ${URL}/2`)).toHaveLength(1);
  });

  it('shows a failure to load with a way to try again', async () => {
    server([], {
      [`GET ${URL}`]: [jsonResponse({ message: 'Access forbidden.' }, 403), jsonResponse({ groups: [] })],
    });
    await open();
    await waitFor(() => expect(text(document.querySelector('[role="alert"]')!)).toBe('Access forbidden.'));
    await click(getControl('Try again'));
    await waitFor(() => expect(document.querySelector('[data-testid="synonyms-empty"]')).not.toBeNull());
  });
});
