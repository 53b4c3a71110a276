import type { CrFinding, CrFindingSummary, CrSuccessState } from '@portal/shared';

/** Answers of the findings calls for the findings screen tests. */

export const NO_SUCCESS: CrSuccessState = {
  met: false,
  source: 'program',
  required: 3,
  periods_checked: 0,
  target: 0.9,
  latest: [],
};

export function findingSummary(
  overrides: Partial<CrFindingSummary> & Pick<CrFindingSummary, 'id' | 'title'>,
): CrFindingSummary {
  return {
    program: { id: 7, name: 'Pain audit', grain: 'month' },
    period_start: '2026-03-01',
    unit: null,
    question_key: 'pain_reassessed',
    question_text: 'Pain reassessed within 60 minutes',
    rate: 0.72,
    n: 18,
    target: 0.9,
    small_n: false,
    status: 'open',
    created_at: '2026-04-02T10:00:00Z',
    closed_at: null,
    plan: { actions_done: 0, actions_total: 0, next_due: null, overdue: 0, success: NO_SUCCESS },
    ...overrides,
  };
}

export function findingBody(overrides: Partial<CrFinding> & Pick<CrFinding, 'id' | 'title'>): CrFinding {
  return {
    ...findingSummary(overrides),
    close_note: '',
    closed_by: null,
    created_by: { id: 21, name: 'Ada Lead' },
    action_plan: {
      root_cause: '',
      actions: [],
      measure_id: null,
      success_periods: 3,
      updated_at: null,
      updated_by: null,
    },
    measure: null,
    abilities: { edit: true },
    ...overrides,
  };
}
