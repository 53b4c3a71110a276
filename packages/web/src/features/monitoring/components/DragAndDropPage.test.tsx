import type { PageNode } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { type StubRequest, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, waitFor } from '../../../test/render';
import { DragAndDropPage, projectDrop } from './DragAndDropPage';
import { API, BASE, node, openMonitoringScreen, sessionRoutes, toasts } from './pages-test-fixtures';
import { labelled } from './structure-test-helpers';

const SAFETY = node({ id: 1, title: 'Safety', number: '1', child_count: 2 });
const FALLS = node({ id: 2, title: 'Falls', number: '1.1', parent_id: 1, depth: 2, version: 4 });
const SEPSIS = node({ id: 3, title: 'Sepsis', number: '1.2', parent_id: 1, depth: 2, position: 1, version: 2 });
const DOSES = node({ id: 4, title: 'Doses', number: '1.2.1', parent_id: 3, depth: 3 });
const ACCESS = node({ id: 5, title: 'Access', number: '2', position: 1 });
const PAGES = [SAFETY, FALLS, SEPSIS, DOSES, ACCESS];

const open = () => openMonitoringScreen(`${BASE}/drag-and-drop`, ['drag-and-drop'], <DragAndDropPage />);
const rows = () =>
  [...document.querySelectorAll<HTMLElement>('li[data-page-id]')].map(
    (li) =>
      `${'  '.repeat(Number(li.dataset.depth) - 1)}${li.querySelector('code')?.textContent} ${li.querySelector('p')?.textContent}`,
  );

async function menu(page: string, item: string) {
  const target = labelled(`Move ${page}`);
  if (target.getAttribute('aria-expanded') !== 'true') await click(target);
  let entry: HTMLElement | undefined;
  await waitFor(() => {
    const dropdown = document.getElementById(target.getAttribute('aria-controls') ?? '');
    entry = [...(dropdown?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])].find((element) =>
      element.textContent?.startsWith(item),
    );
    expect(entry).toBeDefined();
  });
  return entry!;
}

describe('DragAndDropPage', () => {
  it('indents with the Move menu (the keyboard path): sends parent and version, shows the new numbers', async () => {
    const moved: PageNode[] = [
      { ...SAFETY, child_count: 3 },
      FALLS,
      SEPSIS,
      DOSES,
      { ...ACCESS, parent_id: 1, depth: 2, position: 2, number: '1.3', version: 2 },
    ];
    const api = stubApi({
      ...sessionRoutes(),
      [`GET ${API}/pages`]: [
        jsonResponse({ pages: PAGES, numbering_mode: 'auto', max_depth: 3 }),
        jsonResponse({ pages: moved, numbering_mode: 'auto', max_depth: 3 }),
      ],
      [`POST ${API}/pages/5/move`]: (_request: StubRequest) =>
        jsonResponse({ pages: moved, numbering_mode: 'auto', max_depth: 3 }),
    });
    await open();
    await waitFor(() => expect(rows()).toHaveLength(5));
    expect(rows()).toEqual(['1 Safety', '  1.1 Falls', '  1.2 Sepsis', '    1.2.1 Doses', '2 Access']);

    // Falls has no page above it among its siblings: it cannot indent; Sepsis would be too deep under Falls.
    const indentFalls = await menu('1.1 Falls', 'Indent');
    expect(indentFalls.hasAttribute('disabled') || indentFalls.hasAttribute('data-disabled')).toBe(true);
    const indentSepsis = await menu('1.2 Sepsis', 'Indent');
    expect(indentSepsis.hasAttribute('disabled') || indentSepsis.hasAttribute('data-disabled')).toBe(true);
    await click(await menu('2 Access', 'Indent'));
    await waitFor(() => expect(api.calls(`POST ${API}/pages/5/move`)).toHaveLength(1));
    expect(api.calls(`POST ${API}/pages/5/move`)[0]!.body).toEqual({ parent_id: 1, before_id: null, version: 1 });
    await waitFor(() =>
      expect(rows()).toEqual(['1 Safety', '  1.1 Falls', '  1.2 Sepsis', '    1.2.1 Doses', '  1.3 Access']),
    );
    await waitFor(() => expect(toasts()).toContain('Access moved: it is now 1.3.'));
  });

  it('outdents and reports a refusal', async () => {
    const api = stubApi({
      ...sessionRoutes(),
      [`GET ${API}/pages`]: jsonResponse({ pages: PAGES, numbering_mode: 'auto', max_depth: 3 }),
      [`POST ${API}/pages/4/move`]: jsonResponse(
        { message: 'This page was changed by someone else. Reload it to see their changes.', code: 'CONFLICT' },
        409,
      ),
    });
    await open();
    await waitFor(() => expect(rows()).toHaveLength(5));
    await click(await menu('1.2.1 Doses', 'Outdent'));
    await waitFor(() => expect(api.calls(`POST ${API}/pages/4/move`)).toHaveLength(1));
    // Out of Sepsis, right after it: before the next sibling of Sepsis (none), so last under Safety.
    expect(api.calls(`POST ${API}/pages/4/move`)[0]!.body).toEqual({ parent_id: 1, before_id: null, version: 1 });
    await waitFor(() =>
      expect(toasts()).toContain('This page was changed by someone else. Reload it to see their changes.'),
    );
    expect(rows()).toEqual(['1 Safety', '  1.1 Falls', '  1.2 Sepsis', '    1.2.1 Doses', '2 Access']);
  });
});

describe('projectDrop', () => {
  it('places a dragged page after the row above and before the row below, as deep as allowed', () => {
    // Access dropped on Falls (moving up): between Safety and Falls, a sub-page of Safety before Falls.
    expect(projectDrop(PAGES, 5, 2, 1, 3)).toEqual({ parent_id: 1, before_id: 2, depth: 2 });
    // Same spot without a sideways move: depth 1 is too shallow for the row below (Falls, depth 2).
    expect(projectDrop(PAGES, 5, 2, 0, 3)).toEqual({ parent_id: 1, before_id: 2, depth: 2 });
    // Falls dropped on Access (moving down), dragged left: a top-level page after Access.
    expect(projectDrop(PAGES, 2, 5, -1, 3)).toEqual({ parent_id: null, before_id: null, depth: 1 });
    // Dragged right below Doses: at most one deeper than the row above, and never deeper than the tree.
    expect(projectDrop(PAGES, 2, 5, 5, 3)).toEqual({ parent_id: 5, before_id: null, depth: 2 });
  });

  it('never offers a place under its own sub-pages and respects the depth of the moved branch', () => {
    // Sepsis carries Doses: dropped after Falls it may not become Falls' sub-page (3 + 1 > 3).
    expect(projectDrop(PAGES, 3, 2, 1, 3)).toEqual({ parent_id: 1, before_id: 2, depth: 2 });
    // Its own sub-page is not in the list while it moves.
    expect(projectDrop(PAGES, 3, 4, 0, 3)).toBeNull();
  });
});
