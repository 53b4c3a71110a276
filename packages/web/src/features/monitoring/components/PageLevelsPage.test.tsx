import { describe, expect, it } from 'vitest';
import { type StubRequest, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, typeInto, waitFor } from '../../../test/render';
import { LevelFormPage } from './LevelFormPage';
import { PageLevelsPage } from './PageLevelsPage';
import { API, BASE, dialog, openMonitoringScreen, sessionRoutes, toasts } from './pages-test-fixtures';
import { errorOf, field, LEVELS, labelled } from './structure-test-helpers';

const open = (path: string) =>
  openMonitoringScreen(
    path,
    ['page-levels', 'page-levels/add', 'page-levels/edit/:levelId'],
    path.endsWith('page-levels') ? <PageLevelsPage /> : <LevelFormPage />,
  );

const rows = () =>
  [...document.querySelectorAll('tr[data-level-id]')].map((tr) =>
    [...tr.querySelectorAll('td')]
      .slice(0, 5)
      .map((td) => td.querySelector('svg')?.getAttribute('data-icon') ?? td.textContent)
      .join(' | '),
  );

describe('PageLevelsPage', () => {
  it('lists the levels, offers Delete on the deepest only, and deletes after confirmation', async () => {
    const api = stubApi({
      ...sessionRoutes(),
      [`GET ${API}/page-levels`]: [
        jsonResponse(LEVELS),
        jsonResponse({ ...LEVELS, levels: LEVELS.levels.slice(0, 2) }),
      ],
      [`DELETE ${API}/page-levels/3`]: jsonResponse({ deleted: 3 }),
    });
    await open(`${BASE}/page-levels`);
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(rows()).toEqual([
      '1 | folder | Domain | No | 2',
      '2 | layers | Programme | Yes | 3',
      '3 | chart | Indicator | Yes | 0',
    ]);
    expect(document.querySelector('table')!.getAttribute('aria-label')).toBe('Page levels');
    expect(document.querySelector('[aria-label="Delete Domain"]')).toBeNull();
    expect(getControl('Add level').getAttribute('href')).toBe(`${BASE}/page-levels/add`);
    expect(labelled('Edit Programme').getAttribute('href')).toBe(`${BASE}/page-levels/edit/2`);

    await click(labelled('Delete Indicator'));
    await waitFor(() => expect(dialog().textContent).toContain('The level "Indicator" (depth 3) will be deleted.'));
    expect(api.calls(`DELETE ${API}/page-levels/3`)).toHaveLength(0);
    await click(getControl('Delete level', dialog()));
    await waitFor(() => expect(toasts()).toContain('Level "Indicator" deleted.'));
    expect(api.calls(`DELETE ${API}/page-levels/3`)).toHaveLength(1);
    await waitFor(() => expect(rows()).toHaveLength(2));
  });

  it('shows the server refusal of a delete', async () => {
    stubApi({
      ...sessionRoutes(),
      [`GET ${API}/page-levels`]: jsonResponse(LEVELS),
      [`DELETE ${API}/page-levels/3`]: jsonResponse(
        { message: '1 page is at the level "Indicator". Move or delete it first.', code: 'CONFLICT' },
        409,
      ),
    });
    await open(`${BASE}/page-levels`);
    await waitFor(() => expect(rows()).toHaveLength(3));
    await click(labelled('Delete Indicator'));
    await waitFor(() => expect(dialog()).toBeDefined());
    await click(getControl('Delete level', dialog()));
    await waitFor(() =>
      expect(document.querySelector('[role="alert"]')?.textContent).toBe(
        '1 page is at the level "Indicator". Move or delete it first.',
      ),
    );
  });
});

describe('LevelFormPage', () => {
  it('checks the name, shows the server field errors, then adds the level and goes back', async () => {
    const api = stubApi({
      ...sessionRoutes(),
      [`GET ${API}/page-levels`]: jsonResponse(LEVELS),
      [`POST ${API}/page-levels`]: [
        jsonResponse(
          {
            message: 'Another level has this name.',
            code: 'VALIDATION_FAILED',
            errors: { name: ['Another level has this name.'] },
          },
          400,
        ),
        (request: StubRequest) => jsonResponse({ id: 4, depth: 4, page_count: 0, ...(request.body as object) }, 201),
      ],
    });
    const router = await open(`${BASE}/page-levels/add`);
    await waitFor(() => expect(text()).toContain('Depth 4'));
    await click(getControl('Add level', document.querySelector('form')!));
    await waitFor(() => expect(errorOf('Name')).toBe('Enter a name.'));
    expect(api.calls(`POST ${API}/page-levels`)).toHaveLength(0);

    await typeInto(field('Name'), 'Domain');
    await click(labelled('Target'));
    await click(getControl('Add level', document.querySelector('form')!));
    await waitFor(() => expect(errorOf('Name')).toBe('Another level has this name.'));
    expect(api.calls(`POST ${API}/page-levels`)[0]!.body).toEqual({
      name: 'Domain',
      icon: 'target',
      may_hold_measures: false,
    });

    await typeInto(field('Name'), 'Measure');
    await click(field('Pages of this level may hold measures and charts'));
    await click(getControl('Add level', document.querySelector('form')!));
    await waitFor(() => expect(router.state.location.pathname).toBe(`${BASE}/page-levels`));
    expect(api.calls(`POST ${API}/page-levels`)[1]!.body).toEqual({
      name: 'Measure',
      icon: 'target',
      may_hold_measures: true,
    });
    await waitFor(() => expect(toasts()).toContain('Level "Measure" added.'));
  });

  it('edits a level with its current values', async () => {
    const api = stubApi({
      ...sessionRoutes(),
      [`GET ${API}/page-levels`]: jsonResponse(LEVELS),
      [`PUT ${API}/page-levels/2`]: (request: StubRequest) =>
        jsonResponse({ id: 2, depth: 2, page_count: 3, ...(request.body as object) }),
    });
    await open(`${BASE}/page-levels/edit/2`);
    await waitFor(() => expect(field('Name').value).toBe('Programme'));
    await typeInto(field('Name'), 'Service');
    await click(getControl('Save level'));
    await waitFor(() => expect(api.calls(`PUT ${API}/page-levels/2`)).toHaveLength(1));
    expect(api.calls(`PUT ${API}/page-levels/2`)[0]!.body).toEqual({
      name: 'Service',
      icon: 'layers',
      may_hold_measures: true,
    });
  });
});
