import { describe, expect, it } from 'vitest';
import { type StubHandler, type StubRequest, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, typeInto, waitFor } from '../../../test/render';
import {
  API,
  BASE,
  department,
  fieldError,
  input,
  openPolicyAdmin,
  pick,
  row,
  sessionRoutes,
  toasts,
} from './admin-test-helpers';

const PATH = `${BASE}/numbering`;
const SCHEME = { levels: 3, department_prefixes: false, prefix_separator: '-' as const };
const NURSING = department({ id: 3, name: 'Nursing', code: 'NUR', document_count: 4 });
const FALLS = row({ id: 5, title: 'Falls prevention' });
const VISITORS = row({ id: 6, title: 'Visitor policy', department_id: 3, status: 'published' });

function server(routes: Record<string, StubHandler | StubHandler[]> = {}) {
  let scheme = { ...SCHEME };
  return stubApi({
    ...sessionRoutes(),
    [`GET ${API}/numbering`]: () => jsonResponse({ scheme, used_count: 4, unassigned_count: 2 }),
    [`POST ${API}/numbering`]: (request: StubRequest) => {
      const body = request.body as { scheme?: typeof SCHEME };
      if (body.scheme) scheme = body.scheme;
      return jsonResponse({ scheme, used_count: 4, unassigned_count: 2 });
    },
    [`GET ${API}/documents/used-numbers`]: jsonResponse({
      numbers: ['10', '1', '1.1', '2'],
      chapters: [{ department_id: 3, chapter: '1' }],
    }),
    [`GET ${API}/documents/unassigned`]: jsonResponse([FALLS, VISITORS]),
    [`GET ${API}/departments`]: jsonResponse({ departments: [NURSING] }),
    ...routes,
  });
}

async function open() {
  await openPolicyAdmin(PATH);
  await waitFor(() => input('Number for Falls prevention'));
}

describe('NumberingPage', () => {
  it('shows the scheme, the numbers in use and suggests numbers for the documents without one', async () => {
    const api = server();
    await open();
    expect(document.querySelector('h1')!.textContent).toBe('Numbering');
    expect(document.title).toContain('Numbering');
    expect(input('Levels').value).toBe('3');
    expect(prefixSwitch().checked).toBe(false);
    expect(text(document.querySelector('[data-testid="number-example"]')!)).toBe('Example: 1.2.3');
    expect(text(document.querySelector('[data-testid="used-count"]')!)).toBe('4 numbers are in use.');

    const toggle = getControl('Show the numbers in use');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(document.getElementById(toggle.getAttribute('aria-controls')!)).not.toBeNull();
    await click(toggle);
    expect(getControl('Hide the numbers in use').getAttribute('aria-expanded')).toBe('true');
    const listed = [...document.querySelectorAll('ul[aria-label="Numbers in use"] li')].map((li) => li.textContent);
    expect(listed).toEqual(['1', '1.1', '2', '10']);

    // Without a department, the next free top-level number; Nursing's policy, the next in Nursing's chapter 1.
    expect(input('Number for Falls prevention').value).toBe('11');
    expect(input('Number for Visitor policy').value).toBe('1.2');
    await typeInto(input('Number for Visitor policy'), '');
    await click(getControl('Assign numbers'));
    await waitFor(() => expect(toasts()).toContain('1 number assigned.'));
    expect(api.calls(`POST ${API}/numbering`)[0]!.body).toEqual({
      assignments: [{ document_id: 5, number: '11' }],
    });
  });

  it('checks the numbers before sending and puts the server errors on their rows', async () => {
    const api = server({
      [`POST ${API}/numbering`]: jsonResponse(
        { message: 'Some numbers cannot be used.', errors: { 'assignments.1': ['NUR is not a prefix here.'] } },
        400,
      ),
    });
    await open();
    await typeInto(input('Number for Falls prevention'), '1.1');
    await typeInto(input('Number for Visitor policy'), '01');
    await click(getControl('Assign numbers'));
    expect(fieldError('Number for Falls prevention')).toBe('This number is already used.');
    expect(fieldError('Number for Visitor policy')).toBe(
      'Use a number like 1, 1.2 or 1.2.10 (each part 1 to 9999, no leading zeros).',
    );

    await typeInto(input('Number for Falls prevention'), '1.2.3.4');
    await typeInto(input('Number for Visitor policy'), '3');
    await click(getControl('Assign numbers'));
    expect(fieldError('Number for Falls prevention')).toBe('Numbers have at most 3 levels in this project.');

    await typeInto(input('Number for Falls prevention'), '3');
    await click(getControl('Assign numbers'));
    expect(fieldError('Number for Visitor policy')).toBe('This number is given to another document above.');
    expect(api.calls(`POST ${API}/numbering`)).toHaveLength(0);

    await typeInto(input('Number for Visitor policy'), '4');
    await click(getControl('Assign numbers'));
    await waitFor(() => expect(fieldError('Number for Visitor policy')).toBe('NUR is not a prefix here.'));
    expect(fieldError('Number for Falls prevention')).toBeNull();
    expect(api.calls(`POST ${API}/numbering`)[0]!.body).toEqual({
      assignments: [
        { document_id: 5, number: '3' },
        { document_id: 6, number: '4' },
      ],
    });
  });

  it('saves the scheme and then suggests department numbers', async () => {
    const api = server();
    await open();
    await click(prefixSwitch());
    await pick('Separator', 'Full stop (NUR.1.2)');
    await typeInto(input('Levels'), '2');
    expect(text(document.querySelector('[data-testid="number-example"]')!)).toBe('Example: NUR.1.2');
    await click(getControl('Save'));
    await waitFor(() => expect(toasts()).toContain('Numbering saved.'));
    expect(api.calls(`POST ${API}/numbering`)[0]!.body).toEqual({
      scheme: { levels: 2, department_prefixes: true, prefix_separator: '.' },
    });
    // The Nursing document is now offered the first Nursing number.
    await waitFor(() => expect(input('Number for Visitor policy').value).toBe('NUR.1'));
    expect(input('Number for Falls prevention').value).toBe('11');
  });

  it('explains a scheme the form or the server refuses', async () => {
    const api = server({
      [`POST ${API}/numbering`]: jsonResponse(
        {
          message: 'Some numbers have 3 levels; renumber them first.',
          errors: { 'scheme.levels': ['Some numbers have 3 levels.'] },
        },
        409,
      ),
    });
    await open();
    await typeInto(input('Levels'), '');
    await click(getControl('Save'));
    expect(fieldError('Levels')).toBe('Enter how many levels numbers may have.');
    expect(api.calls(`POST ${API}/numbering`)).toHaveLength(0);

    await typeInto(input('Levels'), '2');
    await click(getControl('Save'));
    await waitFor(() => expect(fieldError('Levels')).toBe('Some numbers have 3 levels.'));
  });

  it('says when every policy has a number, and offers a retry when a list fails', async () => {
    const api = server({
      [`GET ${API}/documents/unassigned`]: jsonResponse([]),
      [`GET ${API}/documents/used-numbers`]: [
        jsonResponse({ message: 'The numbers are unavailable right now.' }, 503),
        jsonResponse({ numbers: ['1'], chapters: [] }),
      ],
    });
    await openPolicyAdmin(PATH);
    await waitFor(() => expect(text()).toContain('The numbers are unavailable right now.'));
    const retries = [...document.querySelectorAll<HTMLElement>('button')].filter((b) => b.textContent === 'Try again');
    expect(retries.length).toBeGreaterThan(0);
    await click(retries[0]!);
    await waitFor(() => expect(text()).toContain('Every policy has a number.'));
    expect(text()).toContain('1 number is in use.');
    expect(api.calls(`GET ${API}/documents/used-numbers`).length).toBeGreaterThanOrEqual(2);
  });
});

function prefixSwitch(): HTMLInputElement {
  const element = document.querySelector<HTMLInputElement>('input[role="switch"]');
  if (!element?.labels?.[0]?.textContent?.startsWith('Prefix numbers with the department code')) {
    throw new Error('no prefix switch');
  }
  return element;
}
