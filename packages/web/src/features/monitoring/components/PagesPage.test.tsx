import type { PageNode } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { type StubHandler, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, typeInto, waitFor } from '../../../test/render';
import { PagesPage } from './PagesPage';
import { API, BASE, dialog, node, openMonitoringScreen, sessionRoutes, toasts } from './pages-test-fixtures';

const SAFETY = node({ id: 1, title: 'Safety', number: '1', child_count: 2 });
const FALLS = node({
  id: 2,
  title: 'Falls',
  number: '1.1',
  parent_id: 1,
  depth: 2,
  child_count: 1,
  level: { id: 2, name: 'Programme', icon: 'layers' },
});
const HARM = node({ id: 3, title: 'Falls with harm', number: '1.1.1', parent_id: 2, depth: 3, status: 'draft' });
const SEPSIS = node({ id: 4, title: 'Sepsis', number: '1.2', parent_id: 1, depth: 2, restricted: true });
const ACCESS = node({ id: 5, title: 'Access', number: '2', position: 1 });
const PAGES = [SAFETY, FALLS, HARM, SEPSIS, ACCESS];

function server(pages: PageNode[] = PAGES, routes: Record<string, StubHandler | StubHandler[]> = {}) {
  return stubApi({
    ...sessionRoutes(),
    [`GET ${API}/pages`]: () => jsonResponse({ pages, numbering_mode: 'auto', max_depth: 3 }),
    ...routes,
  });
}

const open = () => openMonitoringScreen(`${BASE}/pages`, ['pages'], <PagesPage />);
const rows = () =>
  [...document.querySelectorAll<HTMLElement>('[data-tree] li[data-page-id]')].map(
    (li) => `${'  '.repeat(Number(li.dataset.depth) - 1)}${li.dataset.number}`,
  );
const button = (label: string) => {
  const element = document.querySelector<HTMLElement>(`button[aria-label="${label}"]`);
  if (!element) throw new Error(`no button ${label}`);
  return element;
};

async function openMenu(name: string) {
  await click(button(`Actions for ${name}`));
  await waitFor(() => expect(document.querySelector('[role="menu"]')).not.toBeNull());
}
function menuItem(label: string): HTMLElement {
  const item = [...document.querySelectorAll<HTMLElement>('[role="menuitem"]')].find(
    (element) => element.textContent?.trim() === label,
  );
  if (!item) throw new Error(`no menu item ${label}`);
  return item;
}

describe('PagesPage', () => {
  it('shows the top of the tree, opens and closes branches, and expands everything', async () => {
    server();
    await open();
    await waitFor(() => expect(rows()).toEqual(['1', '2']));
    expect(text()).toContain('Safety');
    expect(document.querySelector('[data-page-id="1"] svg[data-icon="folder"]')).not.toBeNull();
    await click(button('Expand 1 Safety'));
    expect(rows()).toEqual(['1', '  1.1', '  1.2', '2']);
    expect(document.querySelector('[data-page-id="4"] [aria-label="Restricted"]')).not.toBeNull();
    expect(document.querySelector('[data-page-id="2"] svg[data-icon="layers"]')).not.toBeNull();
    await click(button('Collapse 1 Safety'));
    expect(rows()).toEqual(['1', '2']);
    await click(getControl('Expand all'));
    expect(rows()).toEqual(['1', '  1.1', '    1.1.1', '  1.2', '2']);
    expect(text(document.querySelector('[data-page-id="3"]')!)).toContain('Draft');
    const link = document.querySelector('[data-page-id="3"] a');
    expect(link?.getAttribute('href')).toBe(`${BASE}/pages/page/3`);
    await click(getControl('Collapse all'));
    expect(rows()).toEqual(['1', '2']);
    expect(getControl('New page').getAttribute('href')).toBe(`${BASE}/create-page`);
  });

  it('filters by number or title, keeping the ancestors of what matches', async () => {
    server();
    await open();
    await waitFor(() => expect(rows()).toHaveLength(2));
    const filter = document.querySelector<HTMLInputElement>('input[aria-label="Filter pages"]')!;
    await typeInto(filter, 'harm');
    expect(rows()).toEqual(['1', '  1.1', '    1.1.1']);
    await typeInto(filter, 'nothing like it');
    expect(text()).toContain('No pages found.');
  });

  it('says when there are no pages, and hides New page without the right', async () => {
    stubApi({
      ...sessionRoutes(['create-page']),
      [`GET ${API}/pages`]: jsonResponse({ pages: [], numbering_mode: 'auto', max_depth: 3 }),
    });
    await open();
    await waitFor(() => expect(text()).toContain('No pages found.'));
    expect(() => getControl('New page')).toThrow();
  });

  it('asks before deleting a page, then sends the DELETE', async () => {
    const api = server(PAGES, { [`DELETE ${API}/pages/5`]: jsonResponse({ deleted: [5] }) });
    await open();
    await waitFor(() => expect(rows()).toHaveLength(2));
    await openMenu('2 Access');
    await click(menuItem('Delete'));
    await waitFor(() => expect(text(dialog())).toContain('Delete page "Access"?'));
    expect(api.calls(`DELETE ${API}/pages/5`)).toHaveLength(0);
    await click(getControl('Delete', dialog()));
    await waitFor(() => expect(api.calls(`DELETE ${API}/pages/5`)).toHaveLength(1));
    expect(api.calls(`DELETE ${API}/pages/5`)[0]!.query.get('cascade')).toBe('false');
    await waitFor(() => expect(toasts()).toContain('Page deleted'));
  });

  it('deletes a page with sub-pages only as a whole branch, and says when it fails', async () => {
    const api = server(PAGES, {
      [`DELETE ${API}/pages/1`]: jsonResponse({ message: 'Some sub-pages of this branch are not yours.' }, 403),
    });
    await open();
    await waitFor(() => expect(rows()).toHaveLength(2));
    await openMenu('1 Safety');
    expect(menuItem('Add sub-page').getAttribute('href')).toBe(`${BASE}/create-page?parent=1`);
    await click(menuItem('Delete'));
    await waitFor(() => expect(text(dialog())).toContain('Delete page "Safety"?'));
    expect(text(dialog())).toContain('It has 2 sub-pages');
    const confirm = getControl('Delete branch', dialog()) as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);
    const branch = dialog().querySelector<HTMLInputElement>('input[type="checkbox"]')!;
    await click(branch);
    expect(confirm.disabled).toBe(false);
    await click(confirm);
    await waitFor(() => expect(toasts()).toContain('Failed to delete page'));
    expect(api.calls(`DELETE ${API}/pages/1`)[0]!.query.get('cascade')).toBe('true');
  });

  it('hides actions the page does not allow', async () => {
    const viewOnly = node({
      id: 9,
      title: 'Open data',
      number: '1',
      abilities: { level: 'view', edit: false, delete: false, manage_permissions: false, add_insight: false },
    });
    server([viewOnly]);
    await open();
    await waitFor(() => expect(rows()).toEqual(['1']));
    await openMenu('1 Open data');
    expect(menuItem('View').getAttribute('href')).toBe(`${BASE}/pages/page/9`);
    expect(() => menuItem('Edit')).toThrow();
    expect(() => menuItem('Delete')).toThrow();
    expect(() => menuItem('Add sub-page')).toThrow();
  });

  it('says when the pages cannot be loaded', async () => {
    server([], { [`GET ${API}/pages`]: jsonResponse({ message: 'Server trouble.' }, 500) });
    await open();
    await waitFor(() => expect(toasts()).toContain('Failed to load pages'));
    expect(text()).toContain('Server trouble.');
  });
});
