import type { CrFinding } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, typeInto, waitFor } from '../../../test/render';
import {
  API,
  BASE,
  dialog,
  errorOf,
  field,
  openScreen,
  optionsOf,
  PEOPLE,
  pick,
  sessionRoutes,
  settingsBody,
  toasts,
} from './cr-test-fixtures';
import { FindingsDetailPage } from './FindingsDetailPage';
import { findingBody } from './findings-test-fixtures';

const open = () => openScreen(`${BASE}/findings/41`, ['findings/:findingId'], <FindingsDetailPage />);

const MEASURES = { measures: [{ id: 90, name: 'Pain reassessment compliance', page: 'Pain audit' }] };

const WITH_PLAN = findingBody({
  id: 41,
  title: 'Pain reassessed within 60 minutes: 72% (n = 18) against 90%',
  status: 'action_plan',
  action_plan: {
    root_cause: 'Night shift handover skips the reassessment.',
    actions: [
      {
        what: 'Teach the night shift',
        owner_id: 21,
        owner: { id: 21, name: 'Ada Lead' },
        due: '2026-05-01',
        done_at: null,
      },
      {
        what: 'Add a reminder',
        owner_id: 23,
        owner: { id: 23, name: 'Cy Reviewer' },
        due: '2026-06-01',
        done_at: '2026-05-20T10:00:00Z',
      },
    ],
    measure_id: 90,
    success_periods: 2,
    updated_at: '2026-04-03T10:00:00Z',
    updated_by: { id: 21, name: 'Ada Lead' },
  },
  measure: { id: 90, name: 'Pain reassessment compliance' },
  plan: {
    actions_done: 1,
    actions_total: 2,
    next_due: '2026-05-01',
    overdue: 1,
    success: {
      met: false,
      source: 'measure',
      required: 2,
      periods_checked: 2,
      target: 0.9,
      latest: [
        { period: '2026-04-01', value: 0.85, met: false },
        { period: '2026-05-01', value: 0.93, met: true },
      ],
    },
  },
});

function routes(finding: CrFinding, extra: Record<string, unknown> = {}) {
  return {
    ...sessionRoutes(),
    [`GET ${API}/settings`]: jsonResponse(settingsBody()),
    [`GET ${API}/people`]: jsonResponse(PEOPLE),
    [`GET ${API}/findings/measures`]: jsonResponse(MEASURES),
    [`GET ${API}/findings/41`]: jsonResponse(finding),
    ...extra,
  };
}

describe('FindingsDetailPage', () => {
  it('shows the finding with its rate and n, target, period, unit, question, success rule and privilege label', async () => {
    stubApi(routes(WITH_PLAN));
    await open();
    await waitFor(() => expect(field('Root cause').value).toBe('Night shift handover skips the reassessment.'));
    // The privilege label comes from the settings, a query of its own that may answer after the finding's.
    await waitFor(() => expect(text()).toContain('Privileged and confidential: quality improvement work product.'));
    const page = text();
    expect(page).toContain('Pain reassessed within 60 minutes: 72% (n = 18) against 90%');
    expect(page).toContain('Rate72% (n = 18)');
    expect(page).toContain('Target90%');
    expect(page).toContain('PeriodMar 2026');
    expect(page).toContain('UnitEvery unit');
    expect(page).toContain('QuestionPain reassessed within 60 minutes');
    expect(page).toContain('Privileged and confidential: quality improvement work product.');
    expect(page).toContain('Linked measure: Pain reassessment compliance.');
    expect(page).toContain('Not met yet: 1 of the latest 2 periods at or beyond 90%');
    expect(page).toContain('Apr 202685%No');
    expect(page).toContain('May 202693%Yes');
    expect(field('Action 1').value).toBe('Teach the night shift');
    expect(field('Owner of action 2').value).toBe('Cy Reviewer (Reviewer)');
    expect(field('Due date of action 1').value).toBe('2026-05-01');
    expect(field('Action 2 done').checked).toBe(true);
    expect(field('Monitoring measure').value).toBe('Pain reassessment compliance (Pain audit)');
    expect(field('Success periods').value).toBe('2');
  });

  it('saves the plan and shows the server’s field errors at the field', async () => {
    const saved = findingBody({ ...WITH_PLAN, id: 41, title: WITH_PLAN.title });
    const api = stubApi(
      routes(WITH_PLAN, {
        [`PUT ${API}/findings/41/plan`]: [
          jsonResponse(
            {
              message: 'Choose an owner from the chart review people of this project.',
              code: 'VALIDATION_FAILED',
              errors: {
                'actions.2.owner_id': ['Choose an owner from the chart review people of this project.'],
                measure_id: ['Choose a measure of this project.'],
              },
            },
            400,
          ),
          jsonResponse(saved),
        ],
      }),
    );
    await open();
    await waitFor(() => expect(field('Root cause')).toBeDefined());

    await click(getControl('Add action'));
    await click(getControl('Save plan'));
    expect(errorOf('Action 3')).toBe('Say what will be done.');
    expect(errorOf('Owner of action 3')).toBe('Choose who owns this action.');
    expect(errorOf('Due date of action 3')).toBe('Enter a due date.');
    expect(api.calls(`PUT ${API}/findings/41/plan`)).toHaveLength(0);

    await typeInto(field('Action 3'), 'Audit ten handovers');
    expect(await optionsOf('Owner of action 3')).toEqual([
      'Ada Lead (Programme lead)',
      'Ben Admin (Chart review admin)',
      'Cy Reviewer (Reviewer)',
      'Di Viewer (Viewer)',
    ]);
    await pick('Owner of action 3', 'Di Viewer (Viewer)');
    await typeInto(field('Due date of action 3'), '2026-07-01');
    await click(field('Action 1 done'));
    await click(getControl('Save plan'));
    await waitFor(() =>
      expect(errorOf('Owner of action 3')).toBe('Choose an owner from the chart review people of this project.'),
    );
    expect(errorOf('Monitoring measure')).toBe('Choose a measure of this project.');
    const body = api.calls(`PUT ${API}/findings/41/plan`)[0]!.body as {
      actions: { what: string; owner_id: number; due: string; done_at: string | null }[];
      measure_id: number | null;
      success_periods: number;
      root_cause: string;
    };
    expect(body.root_cause).toBe('Night shift handover skips the reassessment.');
    expect(body.measure_id).toBe(90);
    expect(body.success_periods).toBe(2);
    expect(body.actions.map((a) => [a.what, a.owner_id, a.due])).toEqual([
      ['Teach the night shift', 21, '2026-05-01'],
      ['Add a reminder', 23, '2026-06-01'],
      ['Audit ten handovers', 24, '2026-07-01'],
    ]);
    expect(body.actions[0]!.done_at).not.toBeNull();
    expect(body.actions[1]!.done_at).toBe('2026-05-20T10:00:00Z');

    await click(getControl('Save plan'));
    await waitFor(() => expect(toasts()).toContain('Action plan saved.'));
  });

  it('asks before removing an action', async () => {
    const api = stubApi(routes(WITH_PLAN, { [`PUT ${API}/findings/41/plan`]: jsonResponse(WITH_PLAN) }));
    await open();
    await waitFor(() => expect(field('Action 2')).toBeDefined());
    await click(getControl('Remove action 1'));
    await waitFor(() => expect(text(dialog())).toContain('"Teach the night shift" leaves the plan when you save it.'));
    await click(getControl('Cancel', dialog()));
    expect(field('Action 1').value).toBe('Teach the night shift');
    await click(getControl('Remove action 1'));
    await waitFor(() => expect(getControl('Remove action', dialog())).toBeDefined());
    await click(getControl('Remove action', dialog()));
    await waitFor(() => expect(field('Action 1').value).toBe('Add a reminder'));
    expect(() => field('Action 2')).toThrow();
    await click(getControl('Save plan'));
    await waitFor(() => expect(api.calls(`PUT ${API}/findings/41/plan`)).toHaveLength(1));
    expect((api.calls(`PUT ${API}/findings/41/plan`)[0]!.body as { actions: unknown[] }).actions).toHaveLength(1);
  });

  it('closes with a required note after confirming, and reopens', async () => {
    const closed = findingBody({
      ...WITH_PLAN,
      status: 'closed',
      close_note: 'Handled by the ward.',
      closed_at: '2026-06-02T10:00:00Z',
      closed_by: { id: 21, name: 'Ada Lead' },
    });
    // The server's state: what the next read answers.
    let current: CrFinding = WITH_PLAN;
    const api = stubApi(
      routes(WITH_PLAN, {
        [`GET ${API}/findings/41`]: () => jsonResponse(current),
        [`POST ${API}/findings/41/close`]: () => {
          current = closed;
          return jsonResponse(closed);
        },
        [`POST ${API}/findings/41/reopen`]: () => {
          current = WITH_PLAN;
          return jsonResponse(WITH_PLAN);
        },
      }),
    );
    await open();
    await waitFor(() => expect(getControl('Close finding')).toBeDefined());
    await click(getControl('Close finding'));
    await waitFor(() => expect(getControl('Close finding', dialog())).toBeDefined());
    await click(getControl('Close finding', dialog()));
    expect(errorOf('Note', dialog())).toBe('Write a note: why this finding is closed.');
    expect(api.calls(`POST ${API}/findings/41/close`)).toHaveLength(0);
    await typeInto(field('Note', dialog()), 'Handled by the ward.');
    await click(getControl('Close finding', dialog()));
    await waitFor(() => expect(toasts()).toContain('Finding closed.'));
    expect(api.calls(`POST ${API}/findings/41/close`)[0]!.body).toEqual({ note: 'Handled by the ward.' });
    await waitFor(() => expect(text()).toContain('by Ada Lead: Handled by the ward.'));
    // A closed finding's plan is read-only.
    expect(() => getControl('Save plan')).toThrow();
    expect(field('Root cause').closest('fieldset')?.disabled).toBe(true);

    await click(getControl('Reopen finding'));
    await waitFor(() => expect(field('Note', dialog())).toBeDefined());
    await typeInto(field('Note', dialog()), 'Still low in April.');
    await click(getControl('Reopen finding', dialog()));
    await waitFor(() => expect(toasts()).toContain('Finding reopened.'));
    expect(api.calls(`POST ${API}/findings/41/reopen`)[0]!.body).toEqual({ note: 'Still low in April.' });
  });

  it('is read-only for people without the findings section', async () => {
    const api = stubApi(routes({ ...WITH_PLAN, abilities: { edit: false } }));
    await open();
    await waitFor(() => expect(field('Root cause')).toBeDefined());
    expect(() => getControl('Save plan')).toThrow();
    expect(() => getControl('Add action')).toThrow();
    expect(() => getControl('Close finding')).toThrow();
    expect(() => getControl('Remove action 1')).toThrow();
    expect(field('Root cause').closest('fieldset')?.disabled).toBe(true);
    // The measure list is the findings section's: not asked for.
    expect(api.calls(`GET ${API}/findings/measures`)).toHaveLength(0);
    expect(field('Monitoring measure').value).toBe('Pain reassessment compliance');
  });
});
