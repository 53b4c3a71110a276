import type { CrFindingSuggestions } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, waitFor } from '../../../test/render';
import {
  API,
  BASE,
  field,
  labelled,
  openScreen,
  pick,
  programBody,
  rows,
  sessionRoutes,
  settingsBody,
  toasts,
} from './cr-test-fixtures';
import { FindingsPage } from './FindingsPage';
import { findingBody, findingSummary, NO_SUCCESS } from './findings-test-fixtures';
import { recentPeriods } from './findings-words';

const open = (path: string) => openScreen(path, ['findings'], <FindingsPage />);

const PROGRAMS = {
  abilities: { create: true },
  programs: [programBody({ id: 7, name: 'Pain audit' }), programBody({ id: 8, name: 'Falls audit', grain: 'quarter' })],
};

const LIST = {
  abilities: { create: true },
  findings: [
    findingSummary({
      id: 41,
      title: 'Pain reassessed within 60 minutes: 72% (n = 18) against 90%',
      status: 'action_plan',
      plan: { actions_done: 1, actions_total: 3, next_due: '2026-05-01', overdue: 2, success: NO_SUCCESS },
    }),
    findingSummary({
      id: 40,
      title: 'Ward B: overall compliance: 60% (n = 3) against 90%',
      period_start: '2026-02-01',
      unit: 'Ward B',
      question_key: null,
      question_text: null,
      rate: 0.6,
      n: 3,
      small_n: true,
      status: 'closed',
    }),
  ],
};

function suggestions(overrides: Partial<CrFindingSuggestions> = {}): CrFindingSuggestions {
  return {
    program: { id: 7, name: 'Pain audit', grain: 'month', target: 0.9 },
    period: recentPeriods('month', new Date())[0]!,
    cases: 12,
    suggestions: [
      {
        unit: null,
        question_key: 'pain_scored',
        question_text: 'Pain score recorded',
        title: 'Pain score recorded: 75% (n = 12) against 90%',
        rate: 0.75,
        n: 12,
        target: 0.9,
        small_n: false,
      },
      {
        unit: 'Ward A',
        question_key: null,
        question_text: null,
        title: 'Ward A: overall compliance: 50% (n = 4) against 90%',
        rate: 0.5,
        n: 4,
        target: 0.9,
        small_n: true,
      },
    ],
    abilities: { create: true },
    ...overrides,
  };
}

function routes(extra: Record<string, unknown> = {}) {
  return {
    ...sessionRoutes(),
    [`GET ${API}/settings`]: jsonResponse(settingsBody()),
    [`GET ${API}/programs`]: jsonResponse(PROGRAMS),
    [`GET ${API}/findings`]: jsonResponse(LIST),
    [`GET ${API}/programs/7/finding-suggestions`]: jsonResponse(suggestions()),
    ...extra,
  };
}

describe('FindingsPage', () => {
  it('lists findings with status, rate with n, plan progress and overdue actions, and the privilege label', async () => {
    stubApi(routes());
    await open(`${BASE}/findings`);
    await waitFor(() => expect(rows('table[aria-label="Findings"]')).toHaveLength(2));
    expect(document.title).toContain('Findings');
    const [first, second] = rows('table[aria-label="Findings"]');
    expect(first![0]).toContain('Pain reassessed within 60 minutes: 72% (n = 18) against 90%');
    expect(first![1]).toBe('Pain auditMar 2026');
    expect(first![2]).toBe('72% (n = 18) against 90%');
    expect(first![3]).toBe('Action plan');
    expect(first![4]).toContain('1 of 3 actions done');
    expect(first![4]).toContain('2 overdue');
    expect(first![4]).toContain('Next due May 1, 2026');
    expect(second![2]).toContain('Small n');
    expect(second![3]).toBe('Closed');
    expect(second![4]).toBe('No actions yet');
    expect(text()).toContain('Privileged and confidential: quality improvement work product.');
    const link = [...document.querySelectorAll('a')].find((a) => a.textContent?.startsWith('Pain reassessed'));
    expect(link?.getAttribute('href')).toBe(`${BASE}/findings/41`);
  });

  it('filters by status and programme through the address', async () => {
    const api = stubApi(routes());
    const router = await open(`${BASE}/findings?status=closed`);
    await waitFor(() => expect(api.calls(`GET ${API}/findings`)).toHaveLength(1));
    expect(api.calls(`GET ${API}/findings`)[0]!.query.get('status')).toBe('closed');
    expect(field('Status').value).toBe('Closed');
    await pick('Programme', 'Falls audit');
    await waitFor(() => expect(router.state.location.search).toBe('?status=closed&program=8'));
    await waitFor(() => expect(api.calls(`GET ${API}/findings`).at(-1)!.query.get('program')).toBe('8'));
  });

  it('suggests findings for a programme and period and records one, then opens it', async () => {
    const api = stubApi(
      routes({
        [`POST ${API}/programs/7/findings`]: [
          jsonResponse({ message: 'This finding is already recorded and not closed.', code: 'CONFLICT' }, 409),
          jsonResponse(findingBody({ id: 55, title: 'Ward A: overall compliance: 50% (n = 4) against 90%' }), 201),
        ],
      }),
    );
    const router = await open(`${BASE}/findings`);
    await waitFor(() => expect(labelled('Suggested findings')).toBeDefined());
    const list = labelled('Suggested findings');
    expect(text(list)).toContain('Pain score recorded: 75% (n = 12) against 90%');
    expect(text(list)).toContain('Small n (fewer than 5)');
    const period = recentPeriods('month', new Date())[0]!;
    expect(api.calls(`GET ${API}/programs/7/finding-suggestions`)[0]!.query.get('period')).toBe(period);

    const record = labelled('Record finding: Ward A: overall compliance: 50% (n = 4) against 90%');
    await click(record);
    await waitFor(() => expect(toasts()).toContain('This finding is already recorded and not closed.'));
    expect(router.state.location.pathname).toBe(`${BASE}/findings`);

    await click(record);
    await waitFor(() => expect(router.state.location.pathname).toBe(`${BASE}/findings/55`));
    expect(api.calls(`POST ${API}/programs/7/findings`).map((call) => call.body)).toEqual([
      { period_start: period, unit: 'Ward A', question_key: null },
      { period_start: period, unit: 'Ward A', question_key: null },
    ]);
  });

  it('hides "Record finding" from people without the findings section and says when nothing falls short', async () => {
    stubApi(
      routes({
        [`GET ${API}/findings`]: jsonResponse({ ...LIST, abilities: { create: false } }),
        [`GET ${API}/programs/7/finding-suggestions`]: jsonResponse(suggestions()),
        [`GET ${API}/programs/8/finding-suggestions`]: jsonResponse(
          suggestions({ program: { id: 8, name: 'Falls audit', grain: 'quarter', target: 0.9 }, suggestions: [] }),
        ),
      }),
    );
    await open(`${BASE}/findings`);
    await waitFor(() => expect(labelled('Suggested findings')).toBeDefined());
    expect(() => getControl('Record finding')).toThrow();
    await pick('Programme of the suggestions', 'Falls audit');
    await waitFor(() =>
      expect(text()).toContain('Nothing below the 90% target without a finding in this period (12 counted cases).'),
    );
    expect(field('Period').value).toMatch(/^\d{4} Q[1-4]$/);
  });
});
