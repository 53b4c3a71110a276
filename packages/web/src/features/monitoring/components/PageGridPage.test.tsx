import { describe, expect, it } from 'vitest';
import { stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, typeInto, waitFor } from '../../../test/render';
import { PageGridPage } from './PageGridPage';
import { API, BASE, dialog, node, openMonitoringScreen, sessionRoutes, toasts } from './pages-test-fixtures';
import { errorOf, field, LEVELS, pick } from './structure-test-helpers';

const VIEW_ONLY = { level: 'view', edit: false, delete: false, manage_permissions: false, add_insight: false } as const;
const SAFETY = node({ id: 1, title: 'Safety', number: '1', child_count: 1 });
const FALLS = node({ id: 2, title: 'Falls', number: '1.1', parent_id: 1, depth: 2, version: 3 });
const ACCESS = node({ id: 3, title: 'Access', number: '2', position: 1, version: 2 });
const SECRET = node({ id: 4, title: 'Read only', number: '3', position: 2, abilities: VIEW_ONLY });
const PAGES = [SAFETY, FALLS, ACCESS, SECRET];

function server(bulk: Response) {
  return stubApi({
    ...sessionRoutes(),
    [`GET ${API}/pages`]: jsonResponse({ pages: PAGES, numbering_mode: 'auto', max_depth: 3 }),
    [`GET ${API}/pages/owner-candidates`]: jsonResponse({ people: [{ id: 31, name: 'Owen Owner' }] }),
    [`GET ${API}/page-levels`]: jsonResponse(LEVELS),
    [`POST ${API}/pages/bulk`]: bulk,
  });
}

const open = () =>
  openMonitoringScreen(`${BASE}/update-page-list-tables`, ['update-page-list-tables'], <PageGridPage />);
const changedRows = () =>
  [...document.querySelectorAll<HTMLElement>('tr[data-changed]')].map((tr) => Number(tr.dataset.pageId));
const levelOf = (id: number) =>
  document.querySelector(`tr[data-page-id="${id}"]`)!.querySelectorAll('td')[3]!.textContent;

describe('PageGridPage', () => {
  it('lists the editable pages, highlights changes and saves them in one bulk call with per-row errors', async () => {
    const api = server(
      jsonResponse(
        {
          message: 'Some rows cannot be saved: Changed by someone else since you loaded it.',
          code: 'VALIDATION_FAILED',
          errors: { 'rows.1.version': ['Changed by someone else since you loaded it.'] },
        },
        400,
      ),
    );
    await open();
    await waitFor(() => expect(document.querySelectorAll('tr[data-page-id]')).toHaveLength(3));
    expect(text()).not.toContain('Read only');
    expect(field('Number of 1.1 Falls').disabled).toBe(true);
    expect(levelOf(2)).toBe('Programme');
    expect(getControl('Save all').hasAttribute('disabled')).toBe(true);

    await typeInto(field('Title of 1.1 Falls'), 'Slips and falls');
    await pick('Parent of 2 Access', '1 Safety');
    await pick('Owner of 2 Access', 'Owen Owner');
    await pick('Status of 2 Access', 'Archived');
    expect(changedRows()).toEqual([2, 3]);
    expect(levelOf(3)).toBe('Programme');
    expect(text()).toContain('2 pages changed, not saved yet.');

    await click(getControl('Save all'));
    await waitFor(() => expect(api.calls(`POST ${API}/pages/bulk`)).toHaveLength(1));
    expect(api.calls(`POST ${API}/pages/bulk`)[0]!.body).toEqual({
      rows: [
        { id: 2, version: 3, title: 'Slips and falls' },
        { id: 3, version: 2, parent_id: 1, status: 'archived', owner_id: 31 },
      ],
    });
    await waitFor(() => expect(errorOf('Title of 2 Access')).toBe('Changed by someone else since you loaded it.'));
    expect(errorOf('Title of 1.1 Falls')).toBeNull();
    expect(text()).toContain('Nothing was saved: 1 row needs a correction (marked below).');
    expect(changedRows()).toEqual([2, 3]);
  });

  it('saves, then shows no unsaved changes; Discard undoes edits after confirmation', async () => {
    server(jsonResponse({ pages: PAGES, numbering_mode: 'auto', max_depth: 3 }));
    await open();
    await waitFor(() => expect(document.querySelectorAll('tr[data-page-id]')).toHaveLength(3));
    await typeInto(field('Title of 1 Safety'), 'Patient safety');
    await click(getControl('Save all'));
    await waitFor(() => expect(toasts()).toContain('1 page saved.'));
    expect(changedRows()).toEqual([]);

    await typeInto(field('Title of 1 Safety'), 'Something else');
    expect(changedRows()).toEqual([1]);
    await click(getControl('Discard changes'));
    await waitFor(() => expect(dialog().textContent).toContain('Every change made since the last save is undone.'));
    await click(getControl('Discard changes', dialog()));
    expect(changedRows()).toEqual([]);
    expect(field('Title of 1 Safety').value).toBe('Safety');
  });
});
