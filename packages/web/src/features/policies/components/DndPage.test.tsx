import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { type StubHandler, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, waitFor } from '../../../test/render';
import { API, BASE, dialog, openPolicyAdmin, pick, row, sessionRoutes, toasts } from './admin-test-helpers';

const PATH = `${BASE}/dnd`;
const ROWS = [
  row({ id: 1, number: '1', title: 'Governance', status: 'published' }),
  row({ id: 2, number: '1.1', title: 'Committees' }),
  row({ id: 3, number: '1.2', title: 'Reporting' }),
  row({ id: 4, number: '1.2.1', title: 'Incident reporting' }),
  row({ id: 5, number: '2', title: 'Infection control' }),
  row({ id: 6, number: '2.1', title: 'Hand hygiene' }),
  row({ id: 7, number: '10', title: 'Visitors' }),
  row({ id: 8, number: 'NUR-1', title: 'Falls', department_id: 3 }),
  row({ id: 9, number: null, title: 'Unnumbered draft' }),
];

function server(routes: Record<string, StubHandler | StubHandler[]> = {}) {
  return stubApi({
    ...sessionRoutes(),
    [`GET ${API}/documents`]: jsonResponse(ROWS),
    [`GET ${API}/numbering`]: jsonResponse({
      scheme: { levels: 3, department_prefixes: true, prefix_separator: '-' },
      used_count: 8,
      unassigned_count: 1,
    }),
    ...routes,
  });
}

async function open() {
  const router = await openPolicyAdmin(PATH);
  await waitFor(() => expect(listed().length).toBeGreaterThan(0));
  return router;
}

/** The rows of the sortable list: "number title (below)". */
function listed(): string[] {
  return [...document.querySelectorAll('li[data-document-id]')].map((li) => {
    const number = li.querySelector('code')?.textContent;
    const title = li.querySelector('a')?.textContent;
    const below = li.querySelector('p')?.textContent;
    return `${number} ${title} (${below})`;
  });
}

function previewRows(): string[] {
  return [...document.querySelectorAll('[data-testid="preview-table"] tbody tr')].map((tr) =>
    [...tr.querySelectorAll('td')].map((td) => td.textContent).join(' | '),
  );
}

function moveButton(label: string): HTMLElement {
  const button = document.querySelector<HTMLElement>(`button[aria-label="Move ${label} to…"]`);
  if (!button) throw new Error(`no move button for ${label}`);
  return button;
}

describe('DndPage', () => {
  it('lists the top level in number order with what sits below each policy', async () => {
    server();
    await open();
    expect(document.querySelector('h1')!.textContent).toBe('Reorder and renumber');
    expect(listed()).toEqual([
      '1 Governance (3 policies below)',
      '2 Infection control (1 policy below)',
      '10 Visitors (No policies below)',
    ]);
    await pick('Show the policies under', '1 Governance');
    expect(listed()).toEqual(['1.1 Committees (No policies below)', '1.2 Reporting (1 policy below)']);
    await pick('Show the policies under', 'NUR- (department numbers)');
    expect(listed()).toEqual(['NUR-1 Falls (No policies below)']);
    await pick('Show the policies under', '1.1 Committees');
    expect(text()).toContain('No policies found.');
  });

  it('moves a policy under another parent with "Move to…", previews the numbers and sends the confirmed plan', async () => {
    const api = server({
      [`POST ${API}/documents/move`]: jsonResponse({
        changes: [
          { id: 5, from: '2', to: '1.3' },
          { id: 6, from: '2.1', to: '1.3.1' },
          { id: 7, from: '10', to: '2' },
        ],
      }),
    });
    await open();
    await click(moveButton('2 Infection control'));
    await waitFor(() => expect(text(dialog())).toContain('Move 2 Infection control'));
    await pick('New parent', '1 Governance', dialog());
    await click(getControl('Preview the new numbers', dialog()));

    await waitFor(() => expect(previewRows()).toHaveLength(3));
    expect(previewRows()).toEqual(['Infection control | 2 | 1.3', 'Hand hygiene | 2.1 | 1.3.1', 'Visitors | 10 | 2']);
    expect(text()).toContain('Moving 2 Infection control to position 3 under 1 Governance.');

    await click(getControl('Apply renumbering'));
    await waitFor(() => expect(text(dialog())).toContain('3 policies get a new number.'));
    await click(getControl('Apply renumbering', dialog()));
    await waitFor(() => expect(toasts()).toContain('Renumbering applied: 3 numbers changed.'));
    expect(api.calls(`POST ${API}/documents/move`)[0]!.body).toEqual({
      document_id: 5,
      parent: '1',
      index: 2,
      expected: [
        { id: 5, from: '2', to: '1.3' },
        { id: 6, from: '2.1', to: '1.3.1' },
        { id: 7, from: '10', to: '2' },
      ],
    });
    await waitFor(() => expect(document.querySelector('[data-testid="preview-table"]')).toBeNull());
  });

  it('moves to the chosen position and says when a move is impossible', async () => {
    const api = server();
    await open();
    await click(moveButton('10 Visitors'));
    await waitFor(() => dialog());
    await pick('Position', 'First', dialog());
    await click(getControl('Preview the new numbers', dialog()));
    await waitFor(() =>
      expect(previewRows()).toEqual([
        'Visitors | 10 | 1',
        'Governance | 1 | 2',
        'Committees | 1.1 | 2.1',
        'Reporting | 1.2 | 2.2',
        'Incident reporting | 1.2.1 | 2.2.1',
        'Infection control | 2 | 3',
        'Hand hygiene | 2.1 | 3.1',
      ]),
    );
    await click(getControl('Cancel'));
    expect(document.querySelector('[data-testid="preview-table"]')).toBeNull();

    // Governance has two levels below it: under 2 it would need four.
    await click(moveButton('1 Governance'));
    await waitFor(() => dialog());
    await pick('New parent', '2 Infection control', dialog());
    await click(getControl('Preview the new numbers', dialog()));
    await waitFor(() => expect(text()).toContain('Numbers have at most 3 levels in this project.'));
    expect(() => getControl('Apply renumbering')).toThrow();
    expect(api.calls(`POST ${API}/documents/move`)).toHaveLength(0);
  });

  it('does not offer a policy, or one below it, as its own new parent', async () => {
    server();
    await open();
    await click(moveButton('1 Governance'));
    await waitFor(() => dialog());
    const select = [...dialog().querySelectorAll<HTMLInputElement>('input')].find(
      (element) => element.labels?.[0]?.textContent === 'New parent',
    )!;
    await click(select);
    await waitFor(() => {
      const listbox = document.getElementById(select.getAttribute('aria-controls') ?? '');
      const options = [...(listbox?.querySelectorAll('[role="option"]') ?? [])].map((option) => option.textContent);
      expect(options).toEqual([
        'Top level',
        'NUR- (department numbers)',
        '2 Infection control',
        '2.1 Hand hygiene',
        '10 Visitors',
        'NUR-1 Falls',
      ]);
    });
  });

  it('tells the user and reloads when someone renumbered meanwhile', async () => {
    const api = server({
      [`POST ${API}/documents/move`]: jsonResponse(
        { message: 'The numbers changed since you opened this page. Check the new order and try again.' },
        409,
      ),
    });
    await open();
    const loads = api.calls(`GET ${API}/documents`).length;
    await click(moveButton('10 Visitors'));
    await waitFor(() => dialog());
    await pick('Position', 'First', dialog());
    await click(getControl('Preview the new numbers', dialog()));
    await waitFor(() => getControl('Apply renumbering'));
    await click(getControl('Apply renumbering'));
    await waitFor(() => dialog());
    await click(getControl('Apply renumbering', dialog()));
    await waitFor(() =>
      expect(toasts()).toContain('The numbers changed since you opened this page. Check the new order and try again.'),
    );
    await waitFor(() => expect(api.calls(`GET ${API}/documents`).length).toBeGreaterThan(loads));
    expect(document.querySelector('[data-testid="preview-table"]')).toBeNull();
  });

  it('reorders with the keyboard and previews the new numbers', async () => {
    server();
    // jsdom lays nothing out: give each row of the list a place, 60px apart.
    vi.spyOn(Element.prototype, 'getBoundingClientRect').mockImplementation(function (this: Element) {
      const item = this.closest('[data-row-index]');
      const top = item ? Number(item.getAttribute('data-row-index')) * 60 : 0;
      const height = item ? 50 : 0;
      return { x: 0, y: top, top, left: 0, width: 400, height, right: 400, bottom: top + height, toJSON: () => ({}) };
    });
    await open();
    const handle = document.querySelector<HTMLElement>('[aria-label="Reorder 10 Visitors"]')!;
    expect(handle.getAttribute('aria-roledescription')).toBe('sortable');
    const key = async (target: EventTarget, code: string) => {
      await act(async () => {
        target.dispatchEvent(new KeyboardEvent('keydown', { code, key: code === 'Space' ? ' ' : code, bubbles: true }));
        await new Promise((resolve) => setTimeout(resolve, 20));
      });
    };
    handle.focus();
    await key(handle, 'Space');
    // The live region announces each step (picked up, then where the policy is over).
    await waitFor(() => expect(text()).toContain('10 Visitors was moved into position 3 of 3.'));
    await key(document, 'ArrowUp');
    await waitFor(() => expect(text()).toContain('10 Visitors was moved into position 2 of 3.'));
    await key(document, 'Space');
    await waitFor(() =>
      expect(text()).toContain('10 Visitors was dropped at position 2 of 3. The preview of new numbers is below.'),
    );

    await waitFor(() => expect(previewRows()).toHaveLength(3));
    expect(previewRows()).toEqual(['Visitors | 10 | 2', 'Infection control | 2 | 3', 'Hand hygiene | 2.1 | 3.1']);
    expect(listed().map((item) => item.split(' (')[0])).toEqual(['1 Governance', '10 Visitors', '2 Infection control']);
    expect(text()).toContain('Apply or cancel the change below before making another.');
  });
});
