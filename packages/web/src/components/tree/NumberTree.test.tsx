import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { click, getControl, render, text } from '../../test/render';
import { compareDotted, type TreeItem } from './dotted-number';
import { NumberTree } from './NumberTree';

const item = (id: number, number: string, title: string): TreeItem => ({
  id,
  number,
  title,
  href: `/app/policy_management/4/documents/${id}`,
});

// Deliberately out of order, with 1.10 after 1.2 only when compared as numbers.
const ITEMS = [
  item(5, '2', 'Safety'),
  item(3, '1.10', 'Consent'),
  item(2, '1.2', 'Admission'),
  item(1, '1', 'Patient rights'),
  item(4, '1.2.1', 'Emergency admission'),
  item(6, '10', 'Records'),
];

async function renderTree(activeId?: number, items: TreeItem[] = ITEMS) {
  return render(
    <MemoryRouter>
      <NumberTree items={items} label="Policy table of contents" emptyText="No policies found." activeId={activeId} />
    </MemoryRouter>,
  );
}

const visibleNumbers = () =>
  [...document.querySelectorAll('li[data-number]')].map((el) => el.getAttribute('data-number'));

describe('compareDotted', () => {
  it('orders by number, part by part', () => {
    expect(['1.10', '2', '1.2', '1', '10', '1.2.1'].sort(compareDotted)).toEqual([
      '1',
      '1.2',
      '1.2.1',
      '1.10',
      '2',
      '10',
    ]);
  });
});

describe('NumberTree', () => {
  it('shows the top level in numeric order, collapsed', async () => {
    await renderTree();
    expect(visibleNumbers()).toEqual(['1', '2', '10']);
  });

  it('expands and collapses one node, children in numeric order', async () => {
    await renderTree();
    await click(document.querySelector<HTMLElement>('[aria-label="Expand 1 Patient rights"]')!);
    expect(visibleNumbers()).toEqual(['1', '1.2', '1.10', '2', '10']);
    await click(document.querySelector<HTMLElement>('[aria-label="Collapse 1 Patient rights"]')!);
    expect(visibleNumbers()).toEqual(['1', '2', '10']);
  });

  it('expands all and collapses all', async () => {
    await renderTree();
    await click(getControl('Expand all'));
    expect(visibleNumbers()).toEqual(['1', '1.2', '1.2.1', '1.10', '2', '10']);
    await click(getControl('Collapse all'));
    expect(visibleNumbers()).toEqual(['1', '2', '10']);
  });

  it('opens the ancestors of the active item by themselves and marks it', async () => {
    await renderTree(4);
    expect(visibleNumbers()).toEqual(['1', '1.2', '1.2.1', '1.10', '2', '10']);
    expect(document.querySelector('li[data-active]')?.getAttribute('data-number')).toBe('1.2.1');
  });

  it('makes every name a link that breaks between words only, with an icon by depth', async () => {
    await renderTree(4);
    const view = [...document.querySelectorAll('a')].find((a) => a.textContent === '1.2.1 Emergency admission');
    expect(view?.getAttribute('href')).toBe('/app/policy_management/4/documents/4');
    expect(view?.getAttribute('aria-current')).toBe('page');
    // `anywhere` let a narrow menu cut words in the middle ("Governa|nce"); `break-word` cuts only an over-long word.
    expect(view?.style.overflowWrap).toBe('break-word');
    const icons = [...document.querySelectorAll('li[data-number] > div svg[data-icon]')].map((svg) =>
      svg.getAttribute('data-icon'),
    );
    expect(icons).toEqual(['folder', 'pages', 'page', 'page', 'folder', 'folder']);
  });

  it('shows its empty text without items', async () => {
    await renderTree(undefined, []);
    expect(text()).toContain('No policies found.');
    expect(document.querySelector('[data-tree]')).toBeNull();
  });
});
