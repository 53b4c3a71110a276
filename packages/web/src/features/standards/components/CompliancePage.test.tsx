import { describe, expect, it } from 'vitest';
import { type StubRequest, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, typeInto, waitFor } from '../../../test/render';
import {
  assessment,
  BASE,
  element,
  field,
  MEMBERS,
  me,
  openApp,
  pressKey,
  STD_API,
  seriousViolations,
  sessionRoutes,
  TREE_ROWS,
  toasts,
  tree,
  treeRefs,
  treeRow,
} from './std-test-fixtures';

const OLDER = assessment({ id: 7, name: 'Mock survey 2025', kind: 'mock', created_at: '2025-10-01T10:00:00Z' });
const NEWER = assessment({
  id: 8,
  name: 'Self-assessment 2026',
  created_at: '2026-03-01T10:00:00Z',
  counts: { compliant: 2, partially_compliant: 0, non_compliant: 1, not_applicable: 0, not_assessed: 2 },
  score: 2 / 3,
  overdue: 1,
});

function server(extra: Record<string, unknown> = {}, ability = me()) {
  return stubApi({
    ...sessionRoutes(),
    [`GET ${STD_API}/me`]: jsonResponse(ability),
    [`GET ${STD_API}/assessments`]: jsonResponse({ assessments: [OLDER, NEWER] }),
    [`GET ${STD_API}/assessments/8/tree`]: jsonResponse(tree(NEWER)),
    [`GET ${STD_API}/assessments/7/tree`]: jsonResponse(tree(OLDER, TREE_ROWS.slice(6))),
    [`GET ${STD_API}/members`]: jsonResponse(MEMBERS),
    ...(extra as Record<string, never>),
  });
}

const tree$ = () => document.querySelector('[data-testid="compliance-tree"]');

describe('CompliancePage', () => {
  it('shows the newest assessment with its summary and the tree open to its standards, with roll-ups', async () => {
    const api = server();
    await openApp(`${BASE}/compilence`);
    await waitFor(() => expect(tree$()).not.toBeNull());
    expect(document.title).toContain('Compliance');
    expect(field('Assessment').value).toBe('Self-assessment 2026 (CMS-482 2025)');
    expect(api.calls(`GET ${STD_API}/assessments/8/tree`)[0]!.query.get('filter')).toBe('all');
    expect(api.calls(`GET ${STD_API}/assessments/7/tree`)).toHaveLength(0);
    expect(document.querySelector('[data-testid="assessment-context"]')?.textContent).toContain(
      'Self-assessment 2026 · Self-assessment · CMS Conditions of Participation, edition 2025',
    );

    // Summary: counts by result, score and overdue.
    const counts = document.querySelector('[data-testid="result-counts"]')!.textContent;
    expect(counts).toContain('2 Compliant');
    expect(counts).toContain('1 Non-compliant');
    expect(counts).toContain('2 Not assessed');
    expect(document.querySelector('[data-testid="score"]')?.textContent).toBe('67%');
    expect(document.querySelector('[data-testid="overdue"]')?.textContent).toBe('1');

    // Chapters start open (their standards and elements directly below show), standards closed.
    expect(treeRefs()).toEqual(['§482.23', '§482.23(b)', '§482.23(c)', '§482.24', 'A-0431', 'A-0438']);
    const chapter = treeRow('§482.23');
    expect(chapter.textContent).toContain('Non-compliant');
    // The counts below a chapter are in its chip (tooltip and screen readers).
    expect(chapter.textContent).toContain('1 compliant, 1 non-compliant, 1 not assessed');
    expect(chapter.textContent).toContain('50% compliant');
    expect(treeRow('§482.24').textContent).toContain('Incomplete');

    await click(document.querySelector<HTMLElement>('[aria-label="Expand §482.23(b)"]')!);
    expect(treeRefs()).toEqual([
      '§482.23',
      '§482.23(b)',
      'A-0392',
      'A-0395',
      '§482.23(c)',
      '§482.24',
      'A-0431',
      'A-0438',
    ]);
    const overdue = treeRow('A-0395');
    expect(overdue.textContent).toContain('Non-compliant');
    expect(overdue.textContent).toContain('Overdue');
    expect(overdue.textContent).toContain('Feb 1, 2026');
    expect(overdue.textContent).toContain('No owner');
    expect(overdue.querySelector('[role="img"]')?.getAttribute('aria-label')).toBe(
      '1 linked policy, 1 measure, 1 audit',
    );
    expect(treeRow('A-0392').textContent).toContain('Ada Admin');

    await click(getControl('Collapse all'));
    expect(treeRefs()).toEqual(['§482.23', '§482.24']);
    await click(getControl('Expand all'));
    expect(treeRefs()).toHaveLength(9);
  });

  it('opens an element in the side panel with Enter, and keeps it in the address', async () => {
    const api = server({ [`GET ${STD_API}/req-assessments/502`]: jsonResponse(element()) });
    const router = await openApp(`${BASE}/compilence`);
    await waitFor(() => expect(tree$()).not.toBeNull());
    await click(getControl('Expand all'));
    const target = treeRow('A-0395');
    expect(target.tabIndex).toBe(0);
    await pressKey(target, 'Enter');
    await waitFor(() => expect(router.state.location.search).toBe('?element=502'));
    await waitFor(() => expect(document.querySelector('[role="dialog"]')?.textContent).toContain('Regulation text'));
    const panel = document.querySelector<HTMLElement>('[role="dialog"]')!;
    expect(panel.textContent).toContain('A-0395 RN supervises nursing care');
    expect(panel.textContent).toContain('Regulation text (public domain)');
    expect(panel.textContent).toContain('A registered nurse must supervise');
    expect(panel.textContent).toContain('§482.23 Nursing services');
    expect(panel.textContent).toContain('CMS Conditions of Participation, edition 2025');
    expect(api.calls(`GET ${STD_API}/req-assessments/502`)).toHaveLength(1);

    await click(panel.querySelector<HTMLElement>('button[aria-label="Close"]')!);
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('has no serious accessibility problem, with the tree open and the side panel shown', async () => {
    server({ [`GET ${STD_API}/req-assessments/502`]: jsonResponse(element()) });
    await openApp(`${BASE}/compilence`);
    await waitFor(() => expect(tree$()).not.toBeNull());
    await click(getControl('Expand all'));
    expect(await seriousViolations()).toEqual([]);
    await click(treeRow('A-0395'));
    await waitFor(() => expect(document.querySelector('[role="dialog"]')?.textContent).toContain('Linked policies'));
    expect(await seriousViolations()).toEqual([]);
  });

  it('changes the tree query with the filter and the search', async () => {
    const api = server({
      [`GET ${STD_API}/assessments/8/tree`]: (request: StubRequest) =>
        jsonResponse(
          request.query.get('filter') === 'all' && !request.query.get('search')
            ? tree(NEWER)
            : tree(
                NEWER,
                TREE_ROWS.filter((item) => ['§482.23', '§482.23(b)', 'A-0395'].includes(item.ref_id)),
              ),
        ),
    });
    const router = await openApp(`${BASE}/compilence`);
    await waitFor(() => expect(tree$()).not.toBeNull());
    await click(field('Gaps'));
    await waitFor(() =>
      expect(api.calls(`GET ${STD_API}/assessments/8/tree`).at(-1)!.query.get('filter')).toBe('gaps'),
    );
    expect(router.state.location.search).toBe('?filter=gaps');
    // A filtered tree opens everything, so the matching element shows.
    await waitFor(() => expect(treeRefs()).toEqual(['§482.23', '§482.23(b)', 'A-0395']));
    expect(text()).toContain('1 element matches.');

    await typeInto(field('Search'), 'A-0395');
    await waitFor(() =>
      expect(api.calls(`GET ${STD_API}/assessments/8/tree`).at(-1)!.query.get('search')).toBe('A-0395'),
    );
    const last = api.calls(`GET ${STD_API}/assessments/8/tree`).at(-1)!;
    expect(last.query.get('filter')).toBe('gaps');
    // Debounced: one call for the search, not one per character.
    expect(api.calls(`GET ${STD_API}/assessments/8/tree`).filter((call) => call.query.get('search'))).toHaveLength(1);
  });

  it('switches to another assessment through the picker', async () => {
    const api = server();
    const router = await openApp(`${BASE}/compilence?assessment=7`);
    await waitFor(() => expect(tree$()).not.toBeNull());
    expect(field('Assessment').value).toBe('Mock survey 2025 (CMS-482 2025)');
    expect(treeRefs()).toEqual(['§482.24', 'A-0431', 'A-0438']);
    expect(api.calls(`GET ${STD_API}/assessments/8/tree`)).toHaveLength(0);
    expect(router.state.location.search).toBe('?assessment=7');
  });

  it('sets an owner and a due date for the ticked elements', async () => {
    const api = server({ [`POST ${STD_API}/req-assessments/bulk`]: jsonResponse({ updated: 2 }) });
    await openApp(`${BASE}/compilence`);
    await waitFor(() => expect(tree$()).not.toBeNull());
    await click(field('Select A-0431'));
    await click(field('Select A-0438'));
    await waitFor(() => expect(text()).toContain('2 elements selected'));
    await click(getControl('Apply to 2 elements'));
    expect(text()).toContain('Choose an owner or a due date.');
    expect(api.calls(`POST ${STD_API}/req-assessments/bulk`)).toHaveLength(0);

    await typeInto(field('Set due date'), '2026-05-01');
    await click(getControl('Apply to 2 elements'));
    await waitFor(() => expect(toasts()).toContain('Updated 2 elements.'));
    expect(api.calls(`POST ${STD_API}/req-assessments/bulk`)[0]!.body).toEqual({
      ids: [504, 505],
      due_date: '2026-05-01',
    });
    expect(text()).not.toContain('elements selected');
  });

  it('offers no ticks without the bulk ability', async () => {
    server({ [`GET ${STD_API}/assessments/8/tree`]: jsonResponse(tree(NEWER, TREE_ROWS, false)) }, me('viewer', false));
    await openApp(`${BASE}/compilence`);
    await waitFor(() => expect(tree$()).not.toBeNull());
    expect(tree$()!.querySelector('input[type="checkbox"]')).toBeNull();
  });

  it('explains assessments when there is none, with the way to create one', async () => {
    server({ [`GET ${STD_API}/assessments`]: jsonResponse({ assessments: [] }) });
    await openApp(`${BASE}/compilence`);
    await waitFor(() => expect(text()).toContain('No assessments yet.'));
    expect(text()).toContain('An assessment is one pass through a framework of standards');
    expect(getControl('Create an assessment').getAttribute('href')).toBe(`${BASE}/create`);
  });

  it('does not offer to create an assessment to someone who may not', async () => {
    server({ [`GET ${STD_API}/assessments`]: jsonResponse({ assessments: [] }) }, me('viewer', false));
    await openApp(`${BASE}/compilence`);
    await waitFor(() => expect(text()).toContain('No assessments yet.'));
    expect(() => getControl('Create an assessment')).toThrow();
    expect(text()).toContain('A standards admin can create the first one.');
  });

  it('offers a retry when the tree cannot be loaded', async () => {
    const api = server({
      [`GET ${STD_API}/assessments/8/tree`]: [
        jsonResponse({ message: 'The server is busy. Please try again.' }, 503),
        jsonResponse(tree(NEWER)),
      ],
    });
    await openApp(`${BASE}/compilence`);
    await waitFor(() => expect(text()).toContain('The server is busy. Please try again.'));
    await click(getControl('Try again'));
    await waitFor(() => expect(tree$()).not.toBeNull());
    expect(api.calls(`GET ${STD_API}/assessments/8/tree`)).toHaveLength(2);
  });
});
