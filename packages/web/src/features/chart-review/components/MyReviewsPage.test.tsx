import type { CrMyAssignment } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, waitFor } from '../../../test/render';
import { API, BASE, openScreen, rows, sessionRoutes } from './cr-test-fixtures';
import { MyReviewsPage } from './MyReviewsPage';

const open = () => openScreen(`${BASE}/my`, ['my'], <MyReviewsPage />);
const table = 'table[aria-label="My reviews"]';

function assignment(overrides: Partial<CrMyAssignment> & Pick<CrMyAssignment, 'id' | 'case_code'>): CrMyAssignment {
  return {
    program: { id: 4, name: 'Pain reassessment' },
    unit: 'Ward 4',
    period_start: '2026-03-01',
    due_at: '2026-03-20',
    overdue: false,
    status: 'assigned',
    role: 'primary',
    return_reason: null,
    progress: { answered: 0, total: 5 },
    ...overrides,
  };
}

describe('MyReviewsPage', () => {
  it('lists my reviews with due dates, overdue and returned badges, progress, and a Start next button', async () => {
    const api = stubApi({
      ...sessionRoutes(),
      [`GET ${API}/me/assignments`]: jsonResponse({
        assignments: [
          assignment({ id: 7, case_code: 'CR-2026-03-0007', due_at: '2026-03-05', overdue: true }),
          assignment({
            id: 8,
            case_code: 'CR-2026-03-0008',
            status: 'returned',
            return_reason: 'Check the MAR again.',
            progress: { answered: 4, total: 5 },
          }),
          assignment({ id: 9, case_code: 'CR-2026-03-0009', role: 'second', status: 'in_progress', unit: null }),
        ],
      }),
    });
    await open();
    await waitFor(() => expect(rows(table)).toHaveLength(3));
    expect(api.calls(`GET ${API}/me/assignments`)[0]!.query.get('status')).toBe('todo');
    expect(rows(table)).toEqual([
      ['CR-2026-03-0007', 'Pain reassessment', 'Ward 4', 'Mar 2026', 'Mar 5, 2026Overdue', 'Not started', '0 of 5'],
      [
        'CR-2026-03-0008',
        'Pain reassessment',
        'Ward 4',
        'Mar 2026',
        'Mar 20, 2026',
        'ReturnedCheck the MAR again.',
        '4 of 5',
      ],
      // A second review looks like any other.
      ['CR-2026-03-0009', 'Pain reassessment', '—', 'Mar 2026', 'Mar 20, 2026', 'In progress', '0 of 5'],
    ]);
    expect(getControl('Start next').getAttribute('href')).toBe(`${BASE}/review/7`);
    expect(getControl('CR-2026-03-0008').getAttribute('href')).toBe(`${BASE}/review/8`);
  });

  it('says when nothing is assigned, and shows the submitted ones on request', async () => {
    const api = stubApi({ ...sessionRoutes(), [`GET ${API}/me/assignments`]: jsonResponse({ assignments: [] }) });
    await open();
    await waitFor(() => expect(text()).toContain('No chart reviews are assigned to you.'));
    expect(() => getControl('Start next')).toThrow();
    const submitted = document.querySelector<HTMLInputElement>('input[type="radio"][value="submitted"]')!;
    await click(submitted);
    await waitFor(() =>
      expect(api.calls(`GET ${API}/me/assignments`).map((call) => call.query.get('status'))).toContain('submitted'),
    );
  });
});
