import type { CrActionPlanInput } from '@portal/shared';
import { and, desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import {
  addComplianceMeasure,
  addResults,
  type FindingsSetup,
  findingsProject,
  times,
} from '../../../test/chart-review-findings-kit.js';
import {
  chartReviewSnapshot,
  expectGuards,
  expectSwitchedOff,
  type GuardedCall,
} from '../../../test/chart-review-kit.js';
import { auditEvents, crFindings, crSettings, monMeasures, notifications } from '../../db/schema/index.js';

describe('chart review findings and action plans', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;

  async function setup() {
    // July 2026: March to June are complete months, July is the current (provisional) one.
    // "Today" is far ahead of the real date: session cookies are dated by the app's clock and the test agent drops
    // the ones that expired by the real time.
    ctx.clock.set(new Date('2090-07-15T10:00:00Z'));
    return findingsProject(ctx);
  }

  /** March 2026: Ward A 6 cases (reassessed 3 of 6), Ward B 4 cases all met; scored always yes. */
  async function marchResults(s: FindingsSetup) {
    await addResults(db(), { ...s.at, period: '2090-03-01' }, [
      ...times(3, { unit: 'Ward A', answers: { pain_reassessed: 'yes', pain_scored: 'yes' } }),
      ...times(3, { unit: 'Ward A', answers: { pain_reassessed: 'no', pain_scored: 'yes' } }),
      ...times(4, { unit: 'Ward B', answers: { pain_reassessed: 'yes', pain_scored: 'yes' } }),
      // N/A is excluded; a case waiting for adjudication counts nowhere.
      { unit: 'Ward B', answers: { pain_reassessed: 'na', pain_scored: 'yes' } },
      { unit: 'Ward A', answers: { pain_reassessed: 'no', pain_scored: 'no' }, counts: false },
    ]);
  }

  async function record(s: FindingsSetup, body: Record<string, unknown>) {
    const answer = await s.lead.post(`${s.base}/programs/${s.program.id}/findings`, body);
    expect(answer.statusCode, answer.body).toBe(201);
    return answer.json();
  }

  const plan = (overrides: Partial<CrActionPlanInput> = {}): CrActionPlanInput => ({
    root_cause: 'Night shift handover skips the reassessment.',
    actions: [],
    measure_id: null,
    success_periods: 2,
    ...overrides,
  });

  function calls(programId: number, findingId: number): GuardedCall[] {
    return [
      {
        method: 'GET',
        path: `/programs/${programId}/finding-suggestions?period=2090-03-01`,
        viewer: true,
        namesRow: true,
      },
      { method: 'GET', path: '/findings', viewer: true, namesRow: false },
      { method: 'GET', path: '/findings/measures', viewer: false, namesRow: false },
      {
        method: 'POST',
        path: `/programs/${programId}/findings`,
        body: { period_start: '2090-03-01', unit: 'Ward A', question_key: null },
        viewer: false,
        namesRow: true,
      },
      { method: 'GET', path: `/findings/${findingId}`, viewer: true, namesRow: true },
      { method: 'PUT', path: `/findings/${findingId}/plan`, body: plan(), viewer: false, namesRow: true },
      { method: 'POST', path: `/findings/${findingId}/close`, body: { note: 'Done' }, viewer: false, namesRow: true },
      { method: 'POST', path: `/findings/${findingId}/reopen`, body: { note: 'Again' }, viewer: false, namesRow: true },
    ];
  }

  it('guards every call: 401, 403 without a role, 403 for the viewer on changes, 404 from elsewhere, 419', async () => {
    const s = await setup();
    await marchResults(s);
    const finding = await record(s, { period_start: '2090-03-01', unit: null, question_key: 'pain_reassessed' });
    await expectGuards(ctx, s, calls(s.program.id, finding.id));
  });

  it('answers 404 to every call when chart review is switched off for the project', async () => {
    const s = await setup();
    await marchResults(s);
    const finding = await record(s, { period_start: '2090-03-01', unit: null, question_key: 'pain_reassessed' });
    await expectSwitchedOff(ctx, s, calls(s.program.id, finding.id));
  });

  it('suggests what is below target in a period: overall, each question, each unit, with n and small n', async () => {
    const s = await setup();
    await marchResults(s);
    const answer = await s.lead.get(`${s.base}/programs/${s.program.id}/finding-suggestions?period=2090-03-01`);
    expect(answer.statusCode, answer.body).toBe(200);
    const body = answer.json();
    expect(body).toMatchObject({
      program: { id: s.program.id, name: 'Pain audit', grain: 'month', target: 0.9 },
      period: '2090-03-01',
      cases: 11,
      abilities: { create: true },
    });
    // Overall: 18 of 21 applicable items (N/A left out) = 85.7 %, n = 21 as on the dashboard. Reassessed: 7 of 10.
    // Ward A: 9 of 12.
    // Scored (11 of 11) and Ward B (9 of 9) meet the target.
    expect(body.suggestions).toEqual([
      {
        unit: null,
        question_key: null,
        question_text: null,
        title: 'Overall compliance: 85.7% (n = 21) against 90%',
        rate: 18 / 21,
        n: 21,
        target: 0.9,
        small_n: false,
      },
      {
        unit: null,
        question_key: 'pain_reassessed',
        question_text: 'Pain reassessed within 60 minutes',
        title: 'Pain reassessed within 60 minutes: 70% (n = 10) against 90%',
        rate: 0.7,
        n: 10,
        target: 0.9,
        small_n: false,
      },
      {
        unit: 'Ward A',
        question_key: null,
        question_text: null,
        title: 'Ward A: overall compliance: 75% (n = 12) against 90%',
        rate: 0.75,
        n: 12,
        target: 0.9,
        small_n: false,
      },
    ]);

    // A recorded finding is no longer suggested; a unit with fewer than 5 cases is flagged small.
    await record(s, { period_start: '2090-03-01', unit: null, question_key: 'pain_reassessed' });
    await addResults(db(), { ...s.at, period: '2090-04-01' }, [
      ...times(2, { unit: 'Ward B', answers: { pain_reassessed: 'no', pain_scored: 'yes' } }),
    ]);
    const again = (await s.lead.get(`${s.base}/programs/${s.program.id}/finding-suggestions?period=2090-03-01`)).json();
    expect(again.suggestions.map((x: { question_key: string | null }) => x.question_key)).toEqual([null, null]);
    const april = (await s.lead.get(`${s.base}/programs/${s.program.id}/finding-suggestions?period=2090-04-01`)).json();
    expect(april.suggestions.find((x: { unit: string | null }) => x.unit === 'Ward B')).toMatchObject({
      rate: 0.5,
      n: 4,
      small_n: true,
    });
  });

  it('counts Partial as half when the settings allow it, else as not met', async () => {
    const s = await setup();
    await addResults(db(), { ...s.at, period: '2090-03-01' }, [
      ...times(4, { unit: 'Ward A', answers: { pain_reassessed: 'partial' } }),
      ...times(6, { unit: 'Ward A', answers: { pain_reassessed: 'yes' } }),
    ]);
    const url = `${s.base}/programs/${s.program.id}/finding-suggestions?period=2090-03-01`;
    const off = (await s.lead.get(url)).json();
    expect(off.suggestions[1]).toMatchObject({ question_key: 'pain_reassessed', rate: 0.6, n: 10 });
    await db().update(crSettings).set({ partialEnabled: true }).where(eq(crSettings.projectId, s.project.id));
    const on = (await s.lead.get(url)).json();
    expect(on.suggestions[1]).toMatchObject({ question_key: 'pain_reassessed', rate: 0.8, n: 10 });
  });

  it('refuses a period that is not the first day of a programme period', async () => {
    const s = await setup();
    for (const period of ['2090-03-02', '2090-02-30', 'March']) {
      const answer = await s.lead.get(`${s.base}/programs/${s.program.id}/finding-suggestions?period=${period}`);
      expect(answer.statusCode, period).toBe(400);
      expect(Object.keys(answer.json().errors)).toEqual(['period']);
    }
    expect((await s.lead.get(`${s.base}/programs/999999/finding-suggestions?period=2090-03-01`)).statusCode).toBe(404);
  });

  it('records a finding with the rate and n computed on the server; an open duplicate is refused', async () => {
    const s = await setup();
    await marchResults(s);
    const finding = await record(s, {
      period_start: '2090-03-01',
      unit: 'Ward A',
      question_key: 'pain_reassessed',
      rate: 0.99,
      n: 500,
    });
    expect(finding).toMatchObject({
      program: { id: s.program.id, name: 'Pain audit', grain: 'month' },
      period_start: '2090-03-01',
      unit: 'Ward A',
      question_key: 'pain_reassessed',
      question_text: 'Pain reassessed within 60 minutes',
      title: 'Pain reassessed within 60 minutes (Ward A): 50% (n = 6) against 90%',
      rate: 0.5,
      n: 6,
      target: 0.9,
      small_n: false,
      status: 'open',
      closed_at: null,
      created_by: { id: s.people.lead.id, name: 'Leo Lead' },
      plan: { actions_done: 0, actions_total: 0, next_due: null, overdue: 0 },
      action_plan: { root_cause: '', actions: [], measure_id: null, success_periods: 3, updated_at: null },
      measure: null,
      abilities: { edit: true },
    });
    const [event] = await db().select().from(auditEvents).orderBy(desc(auditEvents.id)).limit(1);
    expect(event).toMatchObject({
      action: 'chart_review.finding_created',
      projectId: s.project.id,
      actorUserId: s.people.lead.id,
      subjectType: 'cr_finding',
      subjectId: String(finding.id),
      data: { program_id: s.program.id, period_start: '2090-03-01', unit: 'Ward A', rate: 0.5, n: 6, target: 0.9 },
    });

    const before = await chartReviewSnapshot(db());
    const duplicate = await s.lead.post(`${s.base}/programs/${s.program.id}/findings`, {
      period_start: '2090-03-01',
      unit: 'Ward A',
      question_key: 'pain_reassessed',
    });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().message).toBe('This finding is already recorded and not closed.');
    expect(await chartReviewSnapshot(db())).toEqual(before);

    // Once closed, the same finding may be recorded again; a title given is kept.
    expect((await s.lead.post(`${s.base}/findings/${finding.id}/close`, { note: 'Wrong ward' })).statusCode).toBe(200);
    const second = await record(s, {
      period_start: '2090-03-01',
      unit: 'Ward A',
      question_key: 'pain_reassessed',
      title: 'Night shift reassessment',
    });
    expect(second).toMatchObject({ title: 'Night shift reassessment', rate: 0.5, status: 'open' });
    // Reopening the first now meets the open second.
    const reopen = await s.lead.post(`${s.base}/findings/${finding.id}/reopen`, { note: 'Was right' });
    expect(reopen.statusCode).toBe(409);
  });

  it('refuses a finding without counted results, another project programme, and bad input', async () => {
    const s = await setup();
    await marchResults(s);
    const url = `${s.base}/programs/${s.program.id}/findings`;
    const cases: [Record<string, unknown>, string][] = [
      [{ period_start: '2090-04-01', unit: null, question_key: null }, 'period_start'],
      [{ period_start: '2090-03-15', unit: null, question_key: null }, 'period_start'],
      [{ period_start: '2090-03-01', unit: 'Ward Z', question_key: null }, 'unit'],
      [{ period_start: '2090-03-01', unit: null, question_key: 'no_such' }, 'question_key'],
      [{ period_start: '2090-03-01', unit: null, question_key: 'Bad Key' }, 'question_key'],
      [{ period_start: '2090-03-01', unit: '', question_key: null }, 'unit'],
      [{ period_start: '2090-03-01', unit: null, question_key: null, title: 'x'.repeat(301) }, 'title'],
    ];
    const outsider = await ctx.signedIn(s.people.outsider);
    const before = await chartReviewSnapshot(db());
    for (const [body, fieldName] of cases) {
      const answer = await s.lead.post(url, body);
      expect(answer.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(answer.json().errors), JSON.stringify(body)).toEqual([fieldName]);
    }
    const foreign = await outsider.post(`${s.otherBase}/programs/${s.program.id}/findings`, {
      period_start: '2090-03-01',
      unit: null,
      question_key: null,
    });
    expect(foreign.statusCode, foreign.body).toBe(404);
    expect(await chartReviewSnapshot(db())).toEqual(before);
  });

  it('lists findings newest period first, filtered by status and programme, with the plan progress', async () => {
    const s = await setup();
    await marchResults(s);
    await addResults(db(), { ...s.at, period: '2090-04-01' }, [
      ...times(5, { unit: 'Ward B', answers: { pain_reassessed: 'no', pain_scored: 'yes' } }),
    ]);
    const march = await record(s, { period_start: '2090-03-01', unit: null, question_key: 'pain_reassessed' });
    const april = await record(s, { period_start: '2090-04-01', unit: 'Ward B', question_key: null });
    const saved = await s.lead.put(
      `${s.base}/findings/${march.id}/plan`,
      plan({
        actions: [
          { what: 'Teach the night shift', owner_id: s.people.reviewer.id, due: '2090-07-01', done_at: null },
          { what: 'Add a reminder', owner_id: s.people.lead.id, due: '2090-08-01', done_at: null },
          { what: 'Audit handovers', owner_id: s.people.lead.id, due: '2090-06-01', done_at: '2090-05-30T09:00:00Z' },
        ],
      }),
    );
    expect(saved.statusCode, saved.body).toBe(200);

    const all = (await s.lead.get(`${s.base}/findings`)).json();
    expect(all.abilities).toEqual({ create: true });
    expect(all.findings.map((f: { id: number }) => f.id)).toEqual([april.id, march.id]);
    expect(all.findings[1]).toMatchObject({
      status: 'action_plan',
      question_text: 'Pain reassessed within 60 minutes',
      // Today is 2090-07-15: the July 1 action is overdue, the August one is next.
      plan: { actions_done: 1, actions_total: 3, next_due: '2090-07-01', overdue: 1 },
    });
    const open = (await s.lead.get(`${s.base}/findings?status=open`)).json();
    expect(open.findings.map((f: { id: number }) => f.id)).toEqual([april.id]);
    const byProgram = (await s.lead.get(`${s.base}/findings?program=${s.program.id}&status=action_plan`)).json();
    expect(byProgram.findings.map((f: { id: number }) => f.id)).toEqual([march.id]);
    expect((await s.lead.get(`${s.base}/findings?program=999999`)).json().findings).toEqual([]);
    expect((await s.lead.get(`${s.base}/findings?status=done`)).statusCode).toBe(400);
    const viewer = await ctx.signedIn(s.people.viewer);
    expect((await viewer.get(`${s.base}/findings`)).json().abilities).toEqual({ create: false });
    expect((await viewer.get(`${s.base}/findings/${march.id}`)).json().abilities).toEqual({ edit: false });
  });

  it('saves the plan, moves the finding to action_plan, notifies newly named owners and audits the changes', async () => {
    const s = await setup();
    await marchResults(s);
    const finding = await record(s, { period_start: '2090-03-01', unit: null, question_key: 'pain_reassessed' });
    const first = plan({
      actions: [{ what: 'Teach the night shift', owner_id: s.people.reviewer.id, due: '2090-08-01', done_at: null }],
    });
    const saved = await s.lead.put(`${s.base}/findings/${finding.id}/plan`, first);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({
      status: 'action_plan',
      action_plan: {
        root_cause: 'Night shift handover skips the reassessment.',
        actions: [
          {
            what: 'Teach the night shift',
            owner_id: s.people.reviewer.id,
            owner: { id: s.people.reviewer.id, name: 'Rita Reviewer' },
            due: '2090-08-01',
            done_at: null,
          },
        ],
        success_periods: 2,
        updated_by: { id: s.people.lead.id, name: 'Leo Lead' },
      },
    });
    const [event] = await db().select().from(auditEvents).orderBy(desc(auditEvents.id)).limit(1);
    expect(event).toMatchObject({ action: 'chart_review.finding_plan_saved', subjectId: String(finding.id) });
    expect(event!.data).toMatchObject({
      status: { from: 'open', to: 'action_plan' },
      changes: {
        root_cause: { from: '', to: 'Night shift handover skips the reassessment.' },
        success_periods: { from: 3, to: 2 },
      },
    });
    const notes = await db().select().from(notifications).where(eq(notifications.userId, s.people.reviewer.id));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({
      projectId: s.project.id,
      link: `/app/chart-review/${s.project.id}/findings/${finding.id}`,
    });
    expect(notes[0]!.message).not.toContain('Pain');

    // Saving again with the same owner and one more (the actor) notifies nobody new; nothing changed writes nothing.
    const second = plan({
      actions: [
        { ...first.actions[0]!, done_at: '2090-07-10T08:00:00.000Z' },
        { what: 'Add a reminder', owner_id: s.people.lead.id, due: '2090-08-15', done_at: null },
      ],
    });
    expect((await s.lead.put(`${s.base}/findings/${finding.id}/plan`, second)).statusCode).toBe(200);
    expect(await db().select().from(notifications).where(eq(notifications.userId, s.people.reviewer.id))).toHaveLength(
      1,
    );
    expect(await db().select().from(notifications).where(eq(notifications.userId, s.people.lead.id))).toHaveLength(0);
    const before = await chartReviewSnapshot(db());
    expect((await s.lead.put(`${s.base}/findings/${finding.id}/plan`, second)).statusCode).toBe(200);
    expect(await chartReviewSnapshot(db())).toEqual(before);

    // Without actions the finding is open again.
    const emptied = await s.lead.put(`${s.base}/findings/${finding.id}/plan`, plan());
    expect(emptied.json().status).toBe('open');
  });

  it('refuses a plan with unknown owners or measure, impossible dates, too many actions, at the field', async () => {
    const s = await setup();
    await marchResults(s);
    const finding = await record(s, { period_start: '2090-03-01', unit: null, question_key: null });
    const foreignPage = await addComplianceMeasure(db(), s.other.id, [], '2090-01-01');
    const ok = { what: 'Teach', owner_id: s.people.lead.id, due: '2090-08-01', done_at: null };
    const url = `${s.base}/findings/${finding.id}/plan`;
    const before = await chartReviewSnapshot(db());

    const people = await s.lead.put(
      url,
      plan({
        actions: [
          ok,
          { ...ok, owner_id: s.people.noRole.id },
          { ...ok, owner_id: s.people.outsider.id },
          { ...ok, owner_id: 999999 },
        ],
        measure_id: foreignPage.id,
      }),
    );
    expect(people.statusCode).toBe(400);
    expect(people.json().errors).toEqual({
      'actions.1.owner_id': ['Choose an owner from the chart review people of this project.'],
      'actions.2.owner_id': ['Choose an owner from the chart review people of this project.'],
      'actions.3.owner_id': ['Choose an owner from the chart review people of this project.'],
      measure_id: ['Choose a measure of this project.'],
    });

    const shapes: [Partial<CrActionPlanInput>, string][] = [
      [{ actions: [ok, { ...ok, due: '2090-02-30' }] }, 'actions.1.due'],
      [{ actions: [{ ...ok, what: ' ' }] }, 'actions.0.what'],
      [{ actions: [{ ...ok, what: 'x'.repeat(501) }] }, 'actions.0.what'],
      [{ actions: [{ ...ok, done_at: 'yesterday' }] }, 'actions.0.done_at'],
      [{ actions: Array.from({ length: 31 }, () => ok) }, 'actions'],
      [{ root_cause: 'x'.repeat(4001) }, 'root_cause'],
      [{ success_periods: 0 }, 'success_periods'],
      [{ success_periods: 25 }, 'success_periods'],
    ];
    for (const [overrides, fieldName] of shapes) {
      const answer = await s.lead.put(url, plan(overrides));
      expect(answer.statusCode, fieldName).toBe(400);
      expect(Object.keys(answer.json().errors), fieldName).toContain(fieldName);
    }
    // A deleted measure is refused like an unknown one.
    const mine = await addComplianceMeasure(db(), s.project.id, [], '2090-01-01');
    await db().update(monMeasures).set({ deletedAt: new Date() }).where(eq(monMeasures.id, mine.id));
    const deleted = await s.lead.put(url, plan({ measure_id: mine.id }));
    expect(deleted.json().errors).toEqual({ measure_id: ['Choose a measure of this project.'] });
    expect(await chartReviewSnapshot(db())).toEqual(before);
  });

  it('closes with a note and reopens with a note; a closed finding keeps its plan until reopened', async () => {
    const s = await setup();
    await marchResults(s);
    const finding = await record(s, { period_start: '2090-03-01', unit: null, question_key: null });
    await s.lead.put(
      `${s.base}/findings/${finding.id}/plan`,
      plan({ actions: [{ what: 'Teach', owner_id: s.people.lead.id, due: '2090-08-01', done_at: null }] }),
    );
    const noNote = await s.lead.post(`${s.base}/findings/${finding.id}/close`, { note: '  ' });
    expect(noNote.statusCode).toBe(400);
    expect(noNote.json().errors).toEqual({ note: ['Write a note: why this finding changes status.'] });

    const closed = await s.lead.post(`${s.base}/findings/${finding.id}/close`, { note: 'Handled by the ward.' });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json()).toMatchObject({
      status: 'closed',
      close_note: 'Handled by the ward.',
      closed_by: { id: s.people.lead.id, name: 'Leo Lead' },
    });
    expect(closed.json().closed_at).not.toBeNull();
    const [closeEvent] = await db().select().from(auditEvents).orderBy(desc(auditEvents.id)).limit(1);
    expect(closeEvent).toMatchObject({
      action: 'chart_review.finding_closed',
      data: { note: 'Handled by the ward.', status: { from: 'action_plan', to: 'closed' } },
    });
    expect((await s.lead.post(`${s.base}/findings/${finding.id}/close`, { note: 'Again' })).statusCode).toBe(409);
    const frozen = await s.lead.put(`${s.base}/findings/${finding.id}/plan`, plan());
    expect(frozen.statusCode).toBe(409);
    expect(frozen.json().message).toBe('A closed finding cannot change. Reopen it first.');

    const reopened = await s.lead.post(`${s.base}/findings/${finding.id}/reopen`, { note: 'Still low in April.' });
    expect(reopened.statusCode, reopened.body).toBe(200);
    expect(reopened.json()).toMatchObject({ status: 'action_plan', close_note: '', closed_by: null, closed_at: null });
    const [reopenEvent] = await db().select().from(auditEvents).orderBy(desc(auditEvents.id)).limit(1);
    expect(reopenEvent).toMatchObject({
      action: 'chart_review.finding_reopened',
      data: { note: 'Still low in April.', status: { from: 'closed', to: 'action_plan' } },
    });
    expect((await s.lead.post(`${s.base}/findings/${finding.id}/reopen`, { note: 'x' })).statusCode).toBe(409);
  });

  it('success rule without a measure: the finding’s own compliance in complete periods after its period', async () => {
    const s = await setup();
    await marchResults(s);
    const finding = await record(s, { period_start: '2090-03-01', unit: null, question_key: 'pain_reassessed' });
    const good = { unit: 'Ward A', answers: { pain_reassessed: 'yes' as const } };
    const bad = { unit: 'Ward A', answers: { pain_reassessed: 'no' as const } };
    await addResults(db(), { ...s.at, period: '2090-04-01' }, [...times(9, good), bad]); // 90 %: met
    await addResults(db(), { ...s.at, period: '2090-05-01' }, [...times(8, good), ...times(2, bad)]); // 80 %
    await addResults(db(), { ...s.at, period: '2090-06-01' }, times(10, good));
    await addResults(db(), { ...s.at, period: '2090-07-01' }, times(10, good)); // current: provisional, skipped
    await s.lead.put(`${s.base}/findings/${finding.id}/plan`, plan({ success_periods: 2 }));
    const state = (await s.lead.get(`${s.base}/findings/${finding.id}`)).json().plan.success;
    expect(state).toEqual({
      met: false,
      source: 'program',
      required: 2,
      periods_checked: 2,
      target: 0.9,
      latest: [
        { period: '2090-05-01', value: 0.8, met: false },
        { period: '2090-06-01', value: 1, met: true },
      ],
    });
    // A month later June and July are both complete and at target.
    ctx.clock.set(new Date('2090-08-02T10:00:00Z'));
    const lead = await ctx.signedIn(s.people.lead);
    const later = (await lead.get(`${s.base}/findings/${finding.id}`)).json().plan.success;
    expect(later).toMatchObject({ met: true, periods_checked: 2 });
    expect(later.latest.map((p: { period: string }) => p.period)).toEqual(['2090-06-01', '2090-07-01']);
  });

  it('success rule with a measure: its series against the programme target, in its direction', async () => {
    const s = await setup();
    await marchResults(s);
    const finding = await record(s, { period_start: '2090-03-01', unit: null, question_key: null });
    // January to July: [met, total] per month; March is the finding's own period and does not count.
    const measure = await addComplianceMeasure(
      db(),
      s.project.id,
      [
        [5, 10],
        [5, 10],
        [5, 10],
        [8, 10],
        [9, 10],
        [19, 20],
        [1, 10],
      ],
      '2090-01-01',
    );
    const saved = await s.lead.put(
      `${s.base}/findings/${finding.id}/plan`,
      plan({ measure_id: measure.id, success_periods: 2 }),
    );
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().measure).toEqual({ id: measure.id, name: 'Pain reassessment compliance' });
    expect(saved.json().plan.success).toEqual({
      met: true,
      source: 'measure',
      required: 2,
      periods_checked: 2,
      target: 0.9,
      // July (10 %) is the current month: provisional, left out.
      latest: [
        { period: '2090-05-01', value: 0.9, met: true },
        { period: '2090-06-01', value: 0.95, met: true },
      ],
    });
    const three = await s.lead.put(
      `${s.base}/findings/${finding.id}/plan`,
      plan({ measure_id: measure.id, success_periods: 3 }),
    );
    expect(three.json().plan.success).toMatchObject({ met: false, periods_checked: 3 });
    // A measure where lower is better meets the target at or below it.
    await db().update(monMeasures).set({ direction: 'down' }).where(eq(monMeasures.id, measure.id));
    const down = (await s.lead.get(`${s.base}/findings/${finding.id}`)).json().plan.success;
    expect(down.latest.map((p: { met: boolean }) => p.met)).toEqual([true, true, false]);
    expect(down.met).toBe(false);
    // A deleted measure: back to the programme's own compliance.
    await db().update(monMeasures).set({ deletedAt: new Date() }).where(eq(monMeasures.id, measure.id));
    const gone = (await s.lead.get(`${s.base}/findings/${finding.id}`)).json();
    expect(gone.measure).toBeNull();
    expect(gone.action_plan.measure_id).toBeNull();
    expect(gone.plan.success.source).toBe('program');
    const rows = await db()
      .select()
      .from(crFindings)
      .where(and(eq(crFindings.projectId, s.project.id), eq(crFindings.id, finding.id)));
    expect(rows[0]!.status).toBe('open');
  });

  it('lists the project’s live measures for the plan', async () => {
    const s = await setup();
    const measure = await addComplianceMeasure(db(), s.project.id, [], '2090-01-01');
    await addComplianceMeasure(db(), s.other.id, [], '2090-01-01');
    const answer = await s.lead.get(`${s.base}/findings/measures`);
    expect(answer.json()).toEqual({
      measures: [{ id: measure.id, name: 'Pain reassessment compliance', page: 'Pain audit' }],
    });
  });
});
