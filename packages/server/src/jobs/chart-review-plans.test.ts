import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app.js';
import { addResults, type FindingsSetup, findingsProject, times } from '../../test/chart-review-findings-kit.js';
import { auditEvents, crFindings, notifications, projects } from '../db/schema/index.js';
import { unsafeCloseMetFindings } from './chart-review-plans.js';

describe('automatic closing of chart review findings', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;
  /** Far ahead of the real date (session cookies are dated by the app's clock). */
  const TODAY = new Date('2090-07-15T04:00:00Z');

  const good = { unit: 'Ward A', answers: { pain_reassessed: 'yes' as const } };
  const bad = { unit: 'Ward A', answers: { pain_reassessed: 'no' as const } };

  /** A finding on March's reassessment (50 %) with a two-period plan; April to June as given. */
  async function setup(months: { april: boolean; may: boolean; june: boolean }) {
    ctx.clock.set(TODAY);
    const s = await findingsProject(ctx);
    await addResults(db(), { ...s.at, period: '2090-03-01' }, [...times(5, good), ...times(5, bad)]);
    for (const [period, ok] of [
      ['2090-04-01', months.april],
      ['2090-05-01', months.may],
      ['2090-06-01', months.june],
    ] as const) {
      await addResults(db(), { ...s.at, period }, ok ? times(10, good) : [...times(5, good), ...times(5, bad)]);
    }
    const created = await s.lead.post(`${s.base}/programs/${s.program.id}/findings`, {
      period_start: '2090-03-01',
      unit: null,
      question_key: 'pain_reassessed',
    });
    expect(created.statusCode, created.body).toBe(201);
    return { ...s, findingId: created.json().id as number };
  }

  async function savePlan(s: FindingsSetup & { findingId: number }, done: boolean[]) {
    const answer = await s.lead.put(`${s.base}/findings/${s.findingId}/plan`, {
      root_cause: 'Handover',
      actions: done.map((isDone, index) => ({
        what: `Action ${index + 1}`,
        owner_id: s.people.reviewer.id,
        due: '2090-06-30',
        done_at: isDone ? '2090-06-20T10:00:00Z' : null,
      })),
      measure_id: null,
      success_periods: 2,
    });
    expect(answer.statusCode, answer.body).toBe(200);
  }

  const statusOf = async (findingId: number) =>
    (await db().select().from(crFindings).where(eq(crFindings.id, findingId)))[0]!;

  it('closes a finding whose actions are all done and whose success rule is met, and tells the owner', async () => {
    const s = await setup({ april: false, may: true, june: true });
    await savePlan(s, [true, true]);

    const closed = await unsafeCloseMetFindings(db(), TODAY);

    expect(closed).toEqual([{ findingId: s.findingId, projectId: s.project.id }]);
    const row = await statusOf(s.findingId);
    expect(row).toMatchObject({
      status: 'closed',
      closedBy: null,
      closeNote: 'Closed automatically: every action is done and the success rule is met.',
    });
    expect(row.closedAt?.toISOString()).toBe(TODAY.toISOString());
    const events = await db()
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.action, 'chart_review.finding_auto_closed'), eq(auditEvents.subjectId, String(s.findingId))),
      );
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ projectId: s.project.id, actorUserId: null, subjectType: 'cr_finding' });
    expect(events[0]!.data).toMatchObject({
      status: { from: 'action_plan', to: 'closed' },
      success: {
        source: 'program',
        required: 2,
        latest: [
          { period: '2090-05-01', value: 1, met: true },
          { period: '2090-06-01', value: 1, met: true },
        ],
      },
    });
    const owner = await db().select().from(notifications).where(eq(notifications.userId, s.people.lead.id));
    expect(owner).toHaveLength(1);
    expect(owner[0]!.link).toBe(`/app/chart-review/${s.project.id}/findings/${s.findingId}`);

    // A second run has nothing left to close.
    expect(await unsafeCloseMetFindings(db(), TODAY)).toEqual([]);
  });

  it('leaves a finding open while an action is open, or the rule is not met, or chart review is off', async () => {
    const open = await setup({ april: true, may: true, june: true });
    await savePlan(open, [true, false]);
    const unmet = await setup({ april: true, may: false, june: true });
    await savePlan(unmet, [true]);
    const off = await setup({ april: true, may: true, june: true });
    await savePlan(off, [true]);
    await db()
      .update(projects)
      .set({ activeApps: ['monitoring'] })
      .where(eq(projects.id, off.project.id));
    const noPlan = await setup({ april: true, may: true, june: true });

    expect(await unsafeCloseMetFindings(db(), TODAY)).toEqual([]);
    expect((await statusOf(open.findingId)).status).toBe('action_plan');
    expect((await statusOf(unmet.findingId)).status).toBe('action_plan');
    expect((await statusOf(off.findingId)).status).toBe('action_plan');
    expect((await statusOf(noPlan.findingId)).status).toBe('open');

    // A month later (July complete and met) the unmet one closes; nothing else does.
    await addResults(db(), { ...unmet.at, period: '2090-07-01' }, times(10, good));
    const closed = await unsafeCloseMetFindings(db(), new Date('2090-08-01T04:00:00Z'));
    expect(closed).toEqual([{ findingId: unmet.findingId, projectId: unmet.project.id }]);
  });
});
