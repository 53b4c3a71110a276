import { describe, expect, it } from 'vitest';
import { field, link, pick, STD_API } from '../../../components/standards-links/links-test-helpers';
import { stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { getControl, text, waitFor } from '../../../test/render';
import { AddStandardsPage, MEASURE_NOT_FOUND } from './AddStandardsPage';
import { measure } from './charts-test-fixtures';
import { API, BASE, node, openMonitoringScreen, sessionRoutes } from './pages-test-fixtures';

const open = (search = '') =>
  openMonitoringScreen(`${BASE}/add-standards${search}`, ['add-standards'], <AddStandardsPage />);

const FALLS = measure({ id: 9, name: 'Falls with injury' });
const PRESSURE = measure({ id: 10, name: 'Pressure injuries' });

function routes(extra: Record<string, Response> = {}) {
  return {
    ...sessionRoutes(),
    [`GET ${API}/pages`]: jsonResponse({
      pages: [
        node({ id: 4, title: 'Patient safety', number: '1', child_count: 1 }),
        node({ id: 5, title: 'Falls', number: '1.1', parent_id: 4, depth: 2 }),
      ],
      numbering_mode: 'auto',
      max_depth: 3,
    }),
    [`GET ${API}/pages/5/measures`]: jsonResponse({ measures: [FALLS, PRESSURE], abilities: { edit: true } }),
    [`GET ${API}/pages/4/measures`]: jsonResponse({ measures: [], abilities: { edit: true } }),
    [`GET ${API}/measures/9`]: jsonResponse({
      ...FALLS,
      page: { id: 5, number: '1.1', title: 'Falls' },
      abilities: { edit: true },
    }),
    [`GET ${STD_API}/links`]: jsonResponse({
      links: [link({ id: 7, node_id: 31, ref_id: 'PC.01.02.08', title: 'Falls reduction', target_type: 'measure' })],
    }),
    [`GET ${STD_API}/elements`]: jsonResponse({ elements: [], more: false }),
    ...extra,
  };
}

describe('monitoring AddStandardsPage', () => {
  it("picks a page, then one of its measures, and shows the measure's standards", async () => {
    const api = stubApi(routes());
    const router = await open();
    await waitFor(() => expect(field('Page')).toBeTruthy());
    expect(() => field('Measure')).toThrow();

    await pick('Page', '— 1.1 Falls');
    await waitFor(() => expect(router.state.location.search).toBe('?page=5'));
    await waitFor(() => expect(field('Measure')).toBeTruthy());
    expect(api.calls(`GET ${STD_API}/links`)).toHaveLength(0);

    await pick('Measure', 'Falls with injury');
    await waitFor(() => expect(router.state.location.search).toBe('?page=5&measure=9'));
    await waitFor(() => expect(document.querySelector('[data-testid="chosen-measure"]')).not.toBeNull());
    const chosen = text(document.querySelector('[data-testid="chosen-measure"]')!);
    expect(chosen).toContain('Measure on 1.1 Falls');
    expect(chosen).toContain('Falls with injury');
    expect(getControl('Open the page').getAttribute('href')).toBe(`${BASE}/pages/page/5`);
    await waitFor(() => expect(text()).toContain('PC.01.02.08'));
    const query = api.calls(`GET ${STD_API}/links`)[0]!.query;
    expect([query.get('target_type'), query.get('target_id')]).toEqual(['measure', '9']);
    await waitFor(() => expect(api.calls(`GET ${STD_API}/elements`)[0]!.query.get('for')).toBe('measure'));
  });

  it('finds the page from ?measure= alone', async () => {
    stubApi(routes());
    await open('?measure=9');
    await waitFor(() => expect(field('Page').value).toBe('— 1.1 Falls'));
    await waitFor(() => expect(field('Measure').value).toBe('Falls with injury'));
    await waitFor(() => expect(text()).toContain('PC.01.02.08'));
  });

  it('says when a page has no measures, with a way to define one', async () => {
    stubApi(routes());
    await open('?page=4');
    await waitFor(() => expect(text()).toContain('No measures on this page yet.'));
    expect(getControl('Define a measure').getAttribute('href')).toBe(`${BASE}/formula-builder?page=4`);
  });

  it('says when the measure of ?measure= does not exist', async () => {
    const api = stubApi(routes({ [`GET ${API}/measures/77`]: jsonResponse({ message: 'Measure not found.' }, 404) }));
    await open('?page=5&measure=77');
    await waitFor(() => expect(text()).toContain(MEASURE_NOT_FOUND));
    expect(api.calls(`GET ${STD_API}/links`)).toHaveLength(0);
  });
});
