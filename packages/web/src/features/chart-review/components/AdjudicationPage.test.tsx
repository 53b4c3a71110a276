import type { CrIrrPair } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, typeInto, waitFor } from '../../../test/render';
import { AdjudicationPage } from './AdjudicationPage';
import { API, BASE, dialog, field, openScreen, sessionRoutes, toasts } from './cr-test-fixtures';

const open = () => openScreen(`${BASE}/irr/11`, ['irr/:pairId'], <AdjudicationPage />);

function pairBody(overrides: Partial<CrIrrPair> = {}): CrIrrPair {
  return {
    id: 11,
    case_code: 'CR-2026-03-0001',
    unit: 'Ward 4',
    period_start: '2026-03-01',
    program: { id: 4, name: 'Pain reassessment' },
    privilege_label: 'Privileged and confidential: quality improvement work product.',
    partial_enabled: false,
    status: 'disagreed',
    reviewer_a: { id: 23, name: 'Cy Reviewer' },
    reviewer_b: { id: 25, name: 'Rob Second' },
    items_compared: 4,
    items_agreed: 2,
    disagreements: [
      {
        key: 'icu',
        text: 'Was the patient in ICU?',
        help: 'Any ICU stay during the admission.',
        answer_type: 'yes_no_na',
        na_allowed: false,
        a: { value: 'no', note: 'Ward only' },
        b: { value: 'yes', note: 'ICU day 1' },
        final: null,
      },
      {
        key: 'icu_score',
        text: 'Is the ICU pain score charted?',
        help: '',
        answer_type: 'yes_no_na',
        na_allowed: true,
        a: { value: null, note: '' },
        b: { value: 'yes', note: '' },
        final: null,
      },
    ],
    adjudicated_by: null,
    adjudicated_at: null,
    abilities: { adjudicate: true },
    adjudicate_blocked: null,
    ...overrides,
  };
}

const card = (key: string) => document.querySelector<HTMLElement>(`[data-key="${key}"]`)!;
const option = (key: string, value: string) =>
  card(key).querySelector<HTMLInputElement>(`input[type="radio"][value="${value}"]`)!;

describe('AdjudicationPage', () => {
  it('shows the disagreements side by side and saves a final answer per question after confirmation', async () => {
    const api = stubApi({
      ...sessionRoutes(),
      [`GET ${API}/irr/11`]: jsonResponse(pairBody()),
      [`POST ${API}/irr/11/adjudicate`]: [
        jsonResponse(
          { message: 'Choose the final answer.', errors: { 'final.icu_score': ['Choose the final answer.'] } },
          400,
        ),
        jsonResponse(
          pairBody({
            status: 'adjudicated',
            adjudicated_by: { id: 22, name: 'Ben Admin' },
            adjudicated_at: '2026-03-25T10:00:00Z',
          }),
        ),
      ],
    });
    await open();
    await waitFor(() => expect(card('icu')).not.toBeNull());
    expect(text()).toContain('2 of 4 answers matched and were accepted as they are.');
    expect(card('icu').textContent).toContain('Reviewer A: Cy ReviewerNoWard only');
    expect(card('icu').textContent).toContain('Reviewer B: Rob SecondYesICU day 1');
    expect(card('icu_score').textContent).toContain('Not shown to this reviewer');

    await click(option('icu', 'yes'));
    await typeInto(field('Comment', card('icu')), 'ICU on day 1 per the transfer note.');
    await click(getControl('Save adjudication'));
    await waitFor(() => expect(dialog()).toBeTruthy());
    await click(getControl('Save adjudication', dialog()));
    await waitFor(() => expect(card('icu_score').textContent).toContain('Choose the final answer.'));
    expect(api.calls(`POST ${API}/irr/11/adjudicate`)[0]!.body).toEqual({
      final: {
        icu: { value: 'yes', comment: 'ICU on day 1 per the transfer note.' },
        icu_score: { value: null, comment: '' },
      },
    });

    await click(option('icu_score', 'na'));
    await click(getControl('Save adjudication'));
    await waitFor(() => expect(dialog()).toBeTruthy());
    await click(getControl('Save adjudication', dialog()));
    await waitFor(() => expect(toasts()).toContain('Adjudication saved. The case counts again.'));
    expect(api.calls(`POST ${API}/irr/11/adjudicate`)[1]!.body).toMatchObject({
      final: { icu_score: { value: 'na' } },
    });
  });

  it('tells a reviewer of the case that someone else adjudicates it', async () => {
    stubApi({
      ...sessionRoutes(),
      [`GET ${API}/irr/11`]: jsonResponse(
        pairBody({
          abilities: { adjudicate: false },
          adjudicate_blocked: 'You reviewed this case, so someone else must adjudicate it.',
        }),
      ),
    });
    await open();
    await waitFor(() => expect(text()).toContain('You reviewed this case, so someone else must adjudicate it.'));
    expect(() => getControl('Save adjudication')).toThrow();
    expect(option('icu', 'yes').disabled).toBe(true);
  });
});
