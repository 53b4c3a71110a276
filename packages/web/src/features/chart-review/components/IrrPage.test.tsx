import type { CrIrrProgram } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { getControl, text, waitFor } from '../../../test/render';
import { API, BASE, openScreen, programBody, rows, sessionRoutes } from './cr-test-fixtures';
import { IrrPage } from './IrrPage';

const person = (id: number, name: string) => ({ id, name });

function irrBody(overrides: Partial<CrIrrProgram> = {}): CrIrrProgram {
  return {
    program: { id: 4, name: 'Pain reassessment' },
    period: null,
    periods: ['2026-03-01', '2026-02-01'],
    privilege_label: 'Privileged and confidential: quality improvement work product.',
    thresholds: { kappa_min: 0.75, agreement_min: 0.95 },
    pairs: [
      {
        id: 11,
        case_id: 1,
        case_code: 'CR-2026-03-0001',
        unit: 'Ward 4',
        period_start: '2026-03-01',
        primary_reviewer: person(23, 'Cy Reviewer'),
        second_reviewer: person(25, 'Rob Second'),
        status: 'disagreed',
        items_compared: 4,
        items_agreed: 2,
      },
      {
        id: 12,
        case_id: 2,
        case_code: 'CR-2026-03-0002',
        unit: 'Ward 5',
        period_start: '2026-03-01',
        primary_reviewer: person(23, 'Cy Reviewer'),
        second_reviewer: person(25, 'Rob Second'),
        status: 'agreed',
        items_compared: 3,
        items_agreed: 3,
      },
      {
        id: null,
        case_id: 3,
        case_code: 'CR-2026-03-0003',
        unit: null,
        period_start: '2026-03-01',
        primary_reviewer: person(23, 'Cy Reviewer'),
        second_reviewer: person(25, 'Rob Second'),
        status: 'pending',
        items_compared: null,
        items_agreed: null,
      },
    ],
    questions: [
      { key: 'icu', text: 'Was the patient in ICU?', n: 2, agreed: 1, percent: 0.5, kappa: 0, pabak: 0, flagged: true },
      { key: 'pain', text: 'Pain assessed?', n: 2, agreed: 2, percent: 1, kappa: null, pabak: 1, flagged: false },
    ],
    overall: { n: 6, agreed: 5, percent: 5 / 6, kappa: 0.4, pabak: 0.75, completed_pairs: 2, meets: false },
    ...overrides,
  };
}

describe('IrrPage', () => {
  it("shows a programme's reliability per question and its pairs, with links to adjudicate", async () => {
    const api = stubApi({
      ...sessionRoutes(),
      [`GET ${API}/programs`]: jsonResponse({
        abilities: { create: true },
        programs: [programBody({ id: 4, name: 'Pain reassessment' })],
      }),
      [`GET ${API}/programs/4/irr`]: jsonResponse(irrBody()),
    });
    await openScreen(`${BASE}/irr?program=4&period=2026-03-01`, ['irr'], <IrrPage />);
    await waitFor(() => expect(rows('table[aria-label="Reliability by question"]')).toHaveLength(2));
    expect(api.calls(`GET ${API}/programs/4/irr`)[0]!.query.get('period')).toBe('2026-03-01');
    expect(text()).toContain('Privileged and confidential');
    expect(text()).toContain('83.3%');
    expect(rows('table[aria-label="Reliability by question"]')).toEqual([
      ['Was the patient in ICU?', '50%', '0.00', '0.00', '2', 'Below threshold'],
      ['Pain assessed?', '100%', '—', '1.00', '2', ''],
    ]);
    expect(rows('table[aria-label="Second reviews"]')).toEqual([
      ['CR-2026-03-0001', 'Ward 4', 'Mar 2026', 'Cy Reviewer and Rob Second', '2 of 4', 'Needs adjudication'],
      ['CR-2026-03-0002', 'Ward 5', 'Mar 2026', 'Cy Reviewer and Rob Second', '3 of 3', 'Agreed'],
      ['CR-2026-03-0003', '—', 'Mar 2026', 'Cy Reviewer and Rob Second', '—', 'Waiting for both reviews'],
    ]);
    expect(getControl('CR-2026-03-0001').getAttribute('href')).toBe(`${BASE}/irr/11`);
    expect(() => getControl('CR-2026-03-0002')).toThrow();
  });

  it('says when a programme has no second reviews yet', async () => {
    stubApi({
      ...sessionRoutes(),
      [`GET ${API}/programs`]: jsonResponse({
        abilities: { create: true },
        programs: [programBody({ id: 4, name: 'Pain' })],
      }),
      [`GET ${API}/programs/4/irr`]: jsonResponse(irrBody({ pairs: [], questions: [], periods: [] })),
    });
    await openScreen(`${BASE}/irr`, ['irr'], <IrrPage />);
    await waitFor(() => expect(text()).toContain('No second reviews yet.'));
  });
});
