import type { StdMy } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import {
  openAt,
  rows,
  STD_API,
  seriousViolations,
  sessionRoutes,
} from '../../../components/standards-links/links-test-helpers';
import { stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { getControl, text, waitFor } from '../../../test/render';
import { MyStandardsPage, NOTHING_ASSIGNED } from './MyStandardsPage';

const open = () => openAt('/12/standards', '/:projectId/standards', <MyStandardsPage />);
const table = 'table[aria-label="My standard elements"]';

type Element = StdMy['elements'][number];
function element(overrides: Partial<Element> & Pick<Element, 'req_id' | 'ref_id'>): Element {
  return {
    assessment: { id: 4, name: 'Self-assessment 2026' },
    title: 'Element title',
    result: 'not_assessed',
    status: 'to_do',
    due_date: null,
    overdue: false,
    ...overrides,
  };
}

const COUNTS = { owned: 4, overdue: 1, due_30: 2, open: 3 };

describe('MyStandardsPage', () => {
  it('shows my counts and my elements, overdue first, each opening the element on the compliance screen', async () => {
    stubApi({
      ...sessionRoutes(),
      [`GET ${STD_API}/my`]: jsonResponse({
        role: 'owner',
        counts: COUNTS,
        // Not in order: the page puts the overdue one first, then by due date (none last).
        elements: [
          element({ req_id: 51, ref_id: '§482.23(b)', title: 'Staffing', result: 'compliant', status: 'done' }),
          element({ req_id: 52, ref_id: '§482.23(c)', title: 'Drugs', due_date: '2026-05-01', status: 'in_progress' }),
          element({
            req_id: 53,
            ref_id: 'IC.04.01.01',
            title: 'Hand hygiene',
            assessment: { id: 7, name: 'Mock survey' },
            result: 'non_compliant',
            due_date: '2026-02-01',
            overdue: true,
          }),
          element({ req_id: 54, ref_id: '§482.42(a)', title: 'Program', due_date: '2026-04-01' }),
        ],
      } satisfies StdMy),
    });
    await open();
    await waitFor(() => expect(rows(table)).toHaveLength(4));
    expect(document.title).toContain('My standards');
    expect(document.querySelector('h1')?.textContent).toBe('My standards');
    expect(text()).toContain('Your standards role: Owner');
    const count = (label: string) => document.querySelector(`[data-count="${label}"] dd`)?.textContent;
    expect([count('Owned'), count('Overdue'), count('Due in 30 days'), count('Open')]).toEqual(['4', '1', '2', '3']);

    expect(rows(table)).toEqual([
      ['IC.04.01.01', 'Hand hygiene', 'Mock survey', 'Non-compliant', 'To do', 'Feb 1, 2026Overdue'],
      ['§482.42(a)', 'Program', 'Self-assessment 2026', 'Not assessed', 'To do', 'Apr 1, 2026'],
      ['§482.23(c)', 'Drugs', 'Self-assessment 2026', 'Not assessed', 'In progress', 'May 1, 2026'],
      ['§482.23(b)', 'Staffing', 'Self-assessment 2026', 'Compliant', 'Done', 'No due date'],
    ]);
    expect(getControl('IC.04.01.01').getAttribute('href')).toBe('/app/standards/12/compilence?assessment=7&element=53');
    expect(getControl('§482.23(b)').getAttribute('href')).toBe('/app/standards/12/compilence?assessment=4&element=51');
    expect(await seriousViolations()).toEqual([]);
    expect(getControl('Open the compliance screen').getAttribute('href')).toBe('/app/standards/12/compilence');
  });

  it('says when nothing is assigned', async () => {
    stubApi({
      ...sessionRoutes(),
      [`GET ${STD_API}/my`]: jsonResponse({
        role: 'viewer',
        counts: { owned: 0, overdue: 0, due_30: 0, open: 0 },
        elements: [],
      }),
    });
    await open();
    await waitFor(() => expect(text()).toContain(NOTHING_ASSIGNED));
    expect(document.querySelector(table)).toBeNull();
  });

  it('shows the not-found page for a project that is not mine', async () => {
    stubApi({ ...sessionRoutes(), [`GET ${STD_API}/my`]: jsonResponse({ message: 'Not found.' }, 404) });
    await open();
    await waitFor(() => expect(document.querySelector('h1')?.textContent).toBe('Page not found'));
  });

  it('denies access without a standards role, with the reason the server gives', async () => {
    stubApi({
      ...sessionRoutes(),
      [`GET ${STD_API}/my`]: jsonResponse({ message: 'You have no standards role in this project.' }, 403),
    });
    await open();
    await waitFor(() => expect(text()).toContain('Access Denied !'));
    expect(document.querySelector('[data-testid="access-denied-reason"]')?.textContent).toBe(
      'You have no standards role in this project.',
    );
    expect(document.querySelector(table)).toBeNull();
  });
});
