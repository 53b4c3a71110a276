import type { DocumentRow } from '@portal/shared';
import { act } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { click, getControl, render, text } from '../../../test/render';
import { doc, rowNames, stubLayout, treeRows } from './browse-test-helpers';
import { buildPolicyTree, PolicyTree, pruneTree, visibleRows } from './PolicyTree';

const DOCS: DocumentRow[] = [
  doc({ id: 10, number: '1.10', title: 'Ten' }),
  doc({ id: 2, number: '1.2', title: 'Two', status: 'draft', has_draft: true }),
  doc({ id: 1, number: '1', title: 'Infection control' }),
  doc({ id: 3, number: '1.2.1', title: 'Two point one' }),
  doc({ id: 20, number: '2', title: 'Medication' }),
  doc({ id: 9, number: '1.9', title: 'Nine' }),
  doc({ id: 7, number: '3.4', title: 'Orphan' }),
  doc({ id: 30, number: null, title: 'Zebra crossing' }),
  doc({ id: 31, number: null, title: 'Apple policy' }),
];

async function renderTree(documents: DocumentRow[], filter = '') {
  const router = createMemoryRouter(
    [{ path: '*', element: <PolicyTree documents={documents} projectId="12" filter={filter} /> }],
    { initialEntries: ['/app/policy_management/12/toc'] },
  );
  await render(<RouterProvider router={router} />);
  return router;
}

function button(label: string): HTMLButtonElement {
  const element = document.querySelector<HTMLButtonElement>(`button[aria-label="${label}"]`);
  if (!element) throw new Error(`no button ${label}`);
  return element;
}

describe('buildPolicyTree', () => {
  it('nests by parent number, in numeric order, with orphans at the top and unnumbered last', () => {
    const tree = buildPolicyTree(DOCS);
    expect(tree.map((node) => node.doc?.number ?? node.key)).toEqual(['1', '2', '3.4', 'unnumbered']);
    expect(tree[0]!.children.map((node) => node.doc!.number)).toEqual(['1.2', '1.9', '1.10']);
    expect(tree[0]!.children[0]!.children.map((node) => node.doc!.number)).toEqual(['1.2.1']);
    expect(tree[3]!.children.map((node) => node.doc!.title)).toEqual(['Apple policy', 'Zebra crossing']);
  });

  it('keeps matches with their ancestors when pruned, and flattens only open branches', () => {
    const tree = buildPolicyTree(DOCS);
    const pruned = pruneTree(tree, (row) => row.title === 'Two point one');
    expect(
      visibleRows(pruned, new Set(['1', '2'])).map((row) => [row.node.doc!.number, row.depth, !!row.node.context]),
    ).toEqual([
      ['1', 0, true],
      ['1.2', 1, true],
      ['1.2.1', 2, false],
    ]);
    expect(visibleRows(tree, new Set()).map((row) => row.node.key)).toEqual(['1', '20', '7', 'unnumbered']);
  });
});

describe('PolicyTree', () => {
  it('shows the roots, opens and closes branches, and orders 1.2 before 1.10', async () => {
    stubLayout();
    await renderTree(DOCS);
    expect(rowNames()).toEqual(['1', '2', '3.4', 'Unnumbered (2)']);
    expect(button('Expand 1').getAttribute('aria-expanded')).toBe('false');

    await click(button('Expand 1'));
    expect(rowNames()).toEqual(['1', '1.2', '1.9', '1.10', '2', '3.4', 'Unnumbered (2)']);
    expect(button('Collapse 1').getAttribute('aria-expanded')).toBe('true');
    expect(button('Expand 1.2').getAttribute('aria-expanded')).toBe('false');

    // The number and title link to the document; status and the open draft are shown.
    const two = treeRows()[1]!;
    expect(two.querySelector('a')!.getAttribute('href')).toBe('/app/policy_management/12/documents/2');
    expect(two.querySelector('a')!.textContent).toBe('1.2 Two');
    expect(text(two)).toContain('Draft');
    expect(text(two)).toContain('Draft in progress');
    expect(text(treeRows()[2]!)).not.toContain('Draft in progress');
    expect(two.dataset.depth).toBe('1');

    await click(button('Collapse 1'));
    expect(rowNames()).toEqual(['1', '2', '3.4', 'Unnumbered (2)']);

    await click(getControl('Expand all'));
    expect(rowNames()).toEqual([
      '1',
      '1.2',
      '1.2.1',
      '1.9',
      '1.10',
      '2',
      '3.4',
      'Unnumbered (2)',
      'Apple policy',
      'Zebra crossing',
    ]);
    expect(treeRows()[2]!.dataset.depth).toBe('2');

    await click(getControl('Collapse all'));
    expect(rowNames()).toEqual(['1', '2', '3.4', 'Unnumbered (2)']);
  });

  it('narrows to the filter, keeping the parents of a match and opening them', async () => {
    stubLayout();
    await renderTree(DOCS, 'point');
    expect(rowNames()).toEqual(['1', '1.2', '1.2.1']);
    expect(button('Collapse 1.2').getAttribute('aria-expanded')).toBe('true');
  });

  it('keeps only a window of 5,000 rows in the page and moves it on scroll', async () => {
    stubLayout({ viewport: 400, row: 40 });
    const many = Array.from({ length: 5000 }, (_, index) =>
      doc({ id: index + 1, number: String(index + 1), title: `P${index + 1}` }),
    );
    await renderTree(many);
    const rows = treeRows();
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.length).toBeLessThan(50);
    expect(rows[0]!.dataset.number).toBe('1');
    expect(rows[0]!.getAttribute('aria-setsize')).toBe('5000');

    const scroller = document.querySelector<HTMLElement>('[data-testid="policy-tree-scroll"]')!;
    await act(async () => {
      scroller.scrollTop = 40 * 2500;
      scroller.dispatchEvent(new Event('scroll'));
    });
    const moved = treeRows();
    expect(moved.length).toBeLessThan(50);
    const numbers = moved.map((row) => Number(row.dataset.number));
    expect(numbers).toContain(2501);
    expect(numbers).not.toContain(1);
  });

  it('keeps a window when a 5,000-document tree is fully expanded', async () => {
    stubLayout();
    // 50 chapters of 99 sections each, plus the chapters themselves: 5,000 documents.
    const many: DocumentRow[] = [];
    for (let chapter = 1; chapter <= 50; chapter++) {
      many.push(doc({ id: chapter * 1000, number: String(chapter), title: `Chapter ${chapter}` }));
      for (let section = 1; section <= 99; section++) {
        many.push(doc({ id: chapter * 1000 + section, number: `${chapter}.${section}`, title: `S${section}` }));
      }
    }
    expect(many).toHaveLength(5000);
    await renderTree(many);
    expect(treeRows().length).toBeLessThan(50);
    await click(getControl('Expand all'));
    expect(treeRows()[0]!.getAttribute('aria-setsize')).toBe('5000');
    expect(rowNames().slice(0, 4)).toEqual(['1', '1.1', '1.2', '1.3']);
    expect(treeRows().length).toBeLessThan(50);
  });

  it('moves between rows with the arrow keys and opens a branch with the right arrow', async () => {
    stubLayout();
    await renderTree(DOCS);
    const first = treeRows()[0]!.querySelector('a')!;
    first.focus();
    await act(async () => {
      first.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
    });
    expect(rowNames().slice(0, 2)).toEqual(['1', '1.2']);
    await act(async () => {
      first.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true }));
    });
    expect(document.activeElement?.textContent).toBe('1.2 Two');
    await act(async () => {
      document.activeElement!.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowLeft', bubbles: true }));
    });
    expect(document.activeElement?.textContent).toBe('1 Infection control');
    await act(async () => {
      document.activeElement!.dispatchEvent(new KeyboardEvent('keydown', { key: 'End', bubbles: true }));
    });
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Expand Unnumbered');
  });
});
