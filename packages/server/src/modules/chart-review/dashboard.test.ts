import { agreement, type CrDashboard, wilsonInterval } from '@portal/shared';
import { desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import {
  chartReviewProject,
  chartReviewSnapshot,
  createTool,
  expectGuards,
  expectSwitchedOff,
  type GuardedCall,
  programInput,
  question,
} from '../../../test/chart-review-kit.js';
import {
  insertAssignment,
  insertCase,
  insertFinding,
  insertSample,
  insertSecondReview,
  reviewedCase,
} from '../../../test/chart-review-results-kit.js';
import { auditEvents, crSettings } from '../../db/schema/index.js';

describe('chart review dashboard, compliance and export', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;

  const QUESTIONS = [
    question('pain_score', { critical: true }),
    question('reassessed', { critical: true }),
    question('care_plan', { weight: 2 }),
    question('education'),
  ];
  const ALL_YES = { pain_score: 'yes', reassessed: 'yes', care_plan: 'yes', education: 'yes' } as const;

  async function setup(programOverrides = {}) {
    const s = await chartReviewProject(db());
    const lead = await ctx.signedIn(s.people.lead);
    const tool = await createTool(lead, s.base, 'Pain', QUESTIONS);
    const created = await lead.post(`${s.base}/programs`, programInput(tool.id, programOverrides));
    expect(created.statusCode, created.body).toBe(201);
    const program = created.json() as { id: number };
    const viewer = await ctx.signedIn(s.people.viewer);
    return { ...s, lead, viewer, tool, program };
  }
  type Setup = Awaited<ReturnType<typeof setup>>;

  /**
   * March: three counted cases (Ward A twice, Ward B once), one waiting for adjudication, one overdue, one not yet
   * due, one unassigned, one excluded; a January sample with two counted cases; no February sample.
   */
  async function seed(s: Setup) {
    // The overdue rule reads today from the app's clock.
    const today = ctx.clock.now().toISOString().slice(0, 10);
    const yesterday = new Date(ctx.clock.now().getTime() - 86_400_000).toISOString().slice(0, 10);
    const reviewer = s.people.reviewer.id;
    const base = { projectId: s.project.id, programId: s.program.id, toolVersionId: s.tool.versionId };
    const january = await insertSample(db(), { ...base, periodStart: '2026-01-01' });
    await reviewedCase(db(), january, {
      code: 'CR-2026-01-0001',
      unit: 'Ward A',
      reviewerId: reviewer,
      answers: ALL_YES,
    });
    await reviewedCase(db(), january, {
      code: 'CR-2026-01-0002',
      unit: 'Ward B',
      reviewerId: s.people.lead.id,
      answers: { pain_score: 'no', reassessed: 'no', care_plan: 'no', education: 'yes' },
    });
    const march = await insertSample(db(), { ...base, periodStart: '2026-03-01' });
    const c1 = await reviewedCase(db(), march, {
      code: 'CR-2026-03-0001',
      unit: 'Ward A',
      reviewerId: reviewer,
      answers: ALL_YES,
      dischargeMonth: '2026-02-01',
      encounterRefEnc: 'SECRET-ENCOUNTER-REF',
    });
    await reviewedCase(db(), march, {
      code: 'CR-2026-03-0002',
      unit: 'Ward A',
      reviewerId: reviewer,
      answers: { pain_score: 'yes', reassessed: 'no', care_plan: 'yes', education: 'na' },
    });
    const c3 = await reviewedCase(db(), march, {
      code: 'CR-2026-03-0003',
      unit: 'Ward B',
      reviewerId: s.people.lead.id,
      answers: { pain_score: 'yes', reassessed: 'yes', care_plan: 'no', education: 'yes' },
    });
    const c4 = await reviewedCase(db(), march, {
      code: 'CR-2026-03-0004',
      unit: 'Ward B',
      reviewerId: reviewer,
      answers: { pain_score: 'no', reassessed: 'no', care_plan: 'no', education: 'no' },
      counts: false,
    });
    await insertSecondReview(db(), c1, { reviewerId: s.people.lead.id, answers: ALL_YES, status: 'agreed' });
    await insertSecondReview(db(), c4, {
      reviewerId: s.people.lead.id,
      answers: { pain_score: 'yes', reassessed: 'no', care_plan: 'no', education: 'no' },
      status: 'disagreed',
    });
    // Not compared yet: the second review is still in progress.
    await insertSecondReview(db(), c3, {
      reviewerId: s.people.admin.id,
      answers: { pain_score: 'no', reassessed: 'no', care_plan: 'yes', education: 'no' },
      status: 'pending',
    });
    const overdue = await insertCase(db(), march, { code: 'CR-2026-03-0005', unit: 'Ward A' });
    await insertAssignment(db(), overdue, {
      reviewerId: reviewer,
      toolVersionId: s.tool.versionId,
      status: 'in_progress',
      dueAt: yesterday,
    });
    const dueToday = await insertCase(db(), march, { code: 'CR-2026-03-0006', unit: 'Ward B' });
    await insertAssignment(db(), dueToday, {
      reviewerId: reviewer,
      toolVersionId: s.tool.versionId,
      status: 'assigned',
      dueAt: today,
    });
    await insertCase(db(), march, { code: 'CR-2026-03-0007', unit: 'Ward B' });
    await insertCase(db(), march, { code: 'CR-2026-03-0008', unit: 'Ward A', status: 'excluded' });
    await insertCase(db(), march, { code: 'CR-2026-03-0009', unit: 'Ward A', status: 'eligible' });
    for (const status of ['open', 'action_plan', 'closed', 'closed'] as const) {
      await insertFinding(db(), {
        projectId: s.project.id,
        programId: s.program.id,
        periodStart: '2026-01-01',
        status,
      });
    }
    return { march, january };
  }

  const rateOf = (successes: number, n: number) => ({ rate: successes / n, n, interval: wilsonInterval(successes, n) });

  function calls(programId: number): GuardedCall[] {
    return [
      { method: 'GET', path: '/dashboard', viewer: true, namesRow: false },
      { method: 'GET', path: `/programs/${programId}/dashboard`, viewer: true, namesRow: true },
      { method: 'GET', path: `/programs/${programId}/compliance?by=unit`, viewer: true, namesRow: true },
      { method: 'GET', path: `/programs/${programId}/export.csv`, viewer: true, namesRow: true },
    ];
  }

  it('guards every call: 401, 403 without a role, 404 from another project; the viewer reads', async () => {
    const s = await setup();
    await seed(s);
    await expectGuards(ctx, s, calls(s.program.id));
  });

  it('answers 404 to every call when chart review is switched off for the project', async () => {
    const s = await setup();
    await expectSwitchedOff(ctx, s, calls(s.program.id));
  });

  it('answers 404 for an unknown programme and 400 for a malformed id', async () => {
    const s = await setup();
    for (const path of ['dashboard', 'compliance?by=unit', 'export.csv']) {
      const missing = await s.viewer.get(`${s.base}/programs/99999/${path}`);
      expect(missing.statusCode, path).toBe(404);
      expect(missing.json().message).toBe('Programme not found.');
      expect((await s.viewer.get(`${s.base}/programs/abc/${path}`)).statusCode, path).toBe(400);
    }
  });

  it("shows the latest period's progress, compliance with n and intervals, questions, heat map and more", async () => {
    const s = await setup();
    await seed(s);
    const answer = await s.viewer.get(`${s.base}/programs/${s.program.id}/dashboard`);
    expect(answer.statusCode, answer.body).toBe(200);
    const d = answer.json() as CrDashboard;
    expect(d.program).toEqual({
      id: s.program.id,
      name: 'Falls prevention audit',
      grain: 'month',
      status: 'active',
      units: ['Ward A', 'Ward B'],
      target: 0.9,
    });
    expect(d.period).toEqual({ period_start: '2026-03-01', label: 'Mar 2026' });
    expect(d.periods).toEqual([
      { period_start: '2026-03-01', label: 'Mar 2026' },
      { period_start: '2026-01-01', label: 'Jan 2026' },
    ]);
    expect(d.kpis).toEqual({
      sampled: 7,
      assigned: 6,
      submitted: 4,
      overdue: 1,
      awaiting_adjudication: 1,
      counted: 3,
    });
    // Items of the three counted cases: 4 of 4, 2 of 3 (N/A left out), 3 of 4; the case waiting is in no rate.
    expect(d.compliance).toEqual(rateOf(9, 11));
    expect(d.meets_target).toBe(false);
    expect(d.all_or_none).toEqual(rateOf(2, 3));
    expect(d.mean_score.n).toBe(3);
    expect(d.mean_score.mean).toBeCloseTo((1 + 3 / 4 + 3 / 5) / 3, 10);
    expect(d.questions.map((q) => [q.key, q.rate, q.n, q.below_target, q.critical])).toEqual([
      ['pain_score', 1, 3, false, true],
      ['reassessed', 2 / 3, 3, true, true],
      ['care_plan', 2 / 3, 3, true, false],
      ['education', 1, 2, false, false],
    ]);
    expect(d.questions[1]!.interval).toEqual(wilsonInterval(2, 3));
    expect(d.questions[0]!.text).toBe('Is pain score documented?');
    expect(d.units).toEqual(['Ward A', 'Ward B']);
    expect(d.heat_map.find((row) => row.key === 'reassessed')!.cells).toEqual([
      { unit: 'Ward A', rate: 0.5, n: 2 },
      { unit: 'Ward B', rate: 1, n: 1 },
    ]);
    expect(d.heat_map.find((row) => row.key === 'education')!.cells).toEqual([
      { unit: 'Ward A', rate: 1, n: 1 },
      { unit: 'Ward B', rate: 1, n: 1 },
    ]);
    expect(d.findings).toEqual({ open: 1, action_plan: 1, closed: 2 });
    expect(d.abilities).toEqual({ findings: false, irr: false });
    expect(d.privilege_label).toMatch(/privileged/i);
  });

  it('summarises reliability over the compared pairs with the shared engine; a pending pair is left out', async () => {
    const s = await setup();
    await seed(s);
    const d = (await s.lead.get(`${s.base}/programs/${s.program.id}/dashboard`)).json() as CrDashboard;
    const expected = agreement(
      [
        ['yes', 'yes'],
        ['yes', 'yes'],
        ['yes', 'yes'],
        ['yes', 'yes'],
        ['no', 'yes'],
        ['no', 'no'],
        ['no', 'no'],
        ['no', 'no'],
      ],
      { categories: 3 },
    );
    expect(d.reliability).toEqual({
      pairs: 2,
      items: 8,
      agreement: 7 / 8,
      kappa: expected.kappa,
      pabak: expected.pabak,
      meets_thresholds: false,
      // pain_score: yes/yes and no/yes: kappa 0.
      flagged: ['pain_score'],
      thresholds: { kappa_min: 0.75, agreement_min: 0.95 },
    });
    expect(d.abilities).toEqual({ findings: true, irr: true });
  });

  it('draws the P chart of every period from the first sample to the last, with a gap where none was drawn', async () => {
    const s = await setup();
    await seed(s);
    const d = (await s.viewer.get(`${s.base}/programs/${s.program.id}/dashboard`)).json() as CrDashboard;
    expect(d.trend.chart).toBe('p');
    expect(d.trend.points.map((p) => [p.period, p.label, p.numerator, p.denominator, p.cases, p.gap])).toEqual([
      ['2026-01-01', 'Jan 2026', 5, 8, 2, null],
      ['2026-02-01', 'Feb 2026', null, null, 0, 'no denominator'],
      ['2026-03-01', 'Mar 2026', 9, 11, 3, null],
    ]);
    const centre = (5 + 9) / (8 + 11);
    const march = d.trend.points[2]!;
    expect(march.value).toBeCloseTo(9 / 11, 10);
    expect(march.cl).toBeCloseTo(centre, 10);
    expect(march.ucl).toBeCloseTo(Math.min(1, centre + 3 * Math.sqrt((centre * (1 - centre)) / 11)), 10);
    expect(d.trend.summary.trial).toBe(true);
  });

  it('shows an earlier period on request and refuses a period without a sample or a malformed one', async () => {
    const s = await setup();
    await seed(s);
    const january = (
      await s.viewer.get(`${s.base}/programs/${s.program.id}/dashboard?period=2026-01-01`)
    ).json() as CrDashboard;
    expect(january.period?.period_start).toBe('2026-01-01');
    expect(january.kpis).toEqual({
      sampled: 2,
      assigned: 2,
      submitted: 2,
      overdue: 0,
      awaiting_adjudication: 0,
      counted: 2,
    });
    expect(january.compliance).toEqual(rateOf(5, 8));
    expect(january.all_or_none).toEqual(rateOf(1, 2));
    expect(january.reliability.pairs).toBe(0);

    const none = await s.viewer.get(`${s.base}/programs/${s.program.id}/dashboard?period=2026-02-01`);
    expect(none.statusCode).toBe(400);
    expect(none.json().errors).toEqual({ period: ['This programme has no sample for this period.'] });
    const bad = await s.viewer.get(`${s.base}/programs/${s.program.id}/dashboard?period=March`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.period).toEqual(['The period is a date written YYYY-MM-DD.']);
  });

  it('opens on the newest period with counted reviews, not a newer one still being reviewed', async () => {
    const s = await setup();
    await seed(s);
    const base = { projectId: s.project.id, programId: s.program.id, toolVersionId: s.tool.versionId };
    await insertSample(db(), { ...base, periodStart: '2026-05-01' });
    const opened = (await s.viewer.get(`${s.base}/programs/${s.program.id}/dashboard`)).json() as CrDashboard;
    expect(opened.period?.period_start).toBe('2026-03-01');
    expect(opened.periods.map((p) => p.period_start)).toContain('2026-05-01');
    const landing = (await s.viewer.get(`${s.base}/dashboard`)).json() as { programs: { period: unknown }[] };
    expect(landing.programs[0]!.period).toMatchObject({ period_start: '2026-03-01' });
  });

  it('answers an empty programme with zeros and no periods', async () => {
    const s = await setup();
    const answer = await s.viewer.get(`${s.base}/programs/${s.program.id}/dashboard`);
    expect(answer.statusCode, answer.body).toBe(200);
    const d = answer.json() as CrDashboard;
    expect(d.period).toBeNull();
    expect(d.periods).toEqual([]);
    expect(d.kpis).toEqual({ sampled: 0, assigned: 0, submitted: 0, overdue: 0, awaiting_adjudication: 0, counted: 0 });
    expect(d.compliance).toEqual({ rate: null, n: 0, interval: null });
    expect(d.meets_target).toBeNull();
    expect(d.questions).toEqual([]);
    expect(d.heat_map).toEqual([]);
    expect(d.trend.points).toEqual([]);
    expect(d.reliability).toMatchObject({ pairs: 0, items: 0, agreement: null, kappa: null, flagged: [] });
    expect(d.findings).toEqual({ open: 0, action_plan: 0, closed: 0 });
  });

  it('counts Partial as half met when the project enables it, and as not met otherwise', async () => {
    const s = await setup();
    const sample = await insertSample(db(), {
      projectId: s.project.id,
      programId: s.program.id,
      periodStart: '2026-03-01',
      toolVersionId: s.tool.versionId,
    });
    await reviewedCase(db(), sample, {
      code: 'CR-P-1',
      unit: 'Ward A',
      reviewerId: s.people.reviewer.id,
      answers: { pain_score: 'partial', reassessed: 'yes', care_plan: 'yes', education: 'yes' },
    });
    const off = (await s.viewer.get(`${s.base}/programs/${s.program.id}/dashboard`)).json() as CrDashboard;
    expect(off.compliance).toEqual(rateOf(3, 4));
    await db().update(crSettings).set({ partialEnabled: true }).where(eq(crSettings.projectId, s.project.id));
    const on = (await s.viewer.get(`${s.base}/programs/${s.program.id}/dashboard`)).json() as CrDashboard;
    expect(on.compliance).toEqual(rateOf(3.5, 4));
    expect(on.questions[0]).toMatchObject({ key: 'pain_score', rate: 0.5, n: 1 });
    // Partial is not "met" for all-or-none.
    expect(on.all_or_none).toEqual(rateOf(0, 1));
  });

  it("words questions from the tool's latest version and orders them as the period's version does", async () => {
    const s = await setup();
    await seed(s);
    const draft = await s.lead.post(`${s.base}/tools/${s.tool.id}/versions`);
    expect(draft.statusCode, draft.body).toBe(201);
    const versionId = (draft.json() as { id: number }).id;
    const saved = await s.lead.put(`${s.base}/tool-versions/${versionId}/questions`, {
      questions: [
        question('education'),
        question('pain_score', { critical: true, text: 'Is a pain score recorded on admission?' }),
        question('reassessed', { critical: true }),
        question('care_plan', { weight: 2 }),
      ],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(
      (await s.lead.post(`${s.base}/tool-versions/${versionId}/publish`, { note: 'Clearer wording' })).statusCode,
    ).toBe(200);
    const d = (await s.viewer.get(`${s.base}/programs/${s.program.id}/dashboard`)).json() as CrDashboard;
    expect(d.questions.map((q) => q.key)).toEqual(['pain_score', 'reassessed', 'care_plan', 'education']);
    expect(d.questions[0]!.text).toBe('Is a pain score recorded on admission?');
  });

  it('gives compliance by question, unit and primary reviewer over a range of periods', async () => {
    const s = await setup();
    await seed(s);
    const url = (query: string) => `${s.base}/programs/${s.program.id}/compliance?${query}`;

    const units = await s.viewer.get(url('by=unit'));
    expect(units.statusCode, units.body).toBe(200);
    expect(units.json()).toEqual({
      by: 'unit',
      from: '2026-01-01',
      to: '2026-03-01',
      groups: [
        { key: 'Ward A', label: 'Ward A', cases: 3, ...rateOf(10, 11) },
        { key: 'Ward B', label: 'Ward B', cases: 2, ...rateOf(4, 8) },
      ],
    });

    const reviewers = (await s.viewer.get(url('by=reviewer&from=2026-03-15&to=2026-03-31'))).json();
    expect(reviewers).toEqual({
      by: 'reviewer',
      from: '2026-03-01',
      to: '2026-03-01',
      groups: [
        { key: String(s.people.lead.id), label: 'Leo Lead', cases: 1, ...rateOf(3, 4) },
        { key: String(s.people.reviewer.id), label: 'Rita Reviewer', cases: 2, ...rateOf(6, 7) },
      ],
    });

    const questions = (await s.viewer.get(url('by=question&to=2026-01-31'))).json();
    expect(
      questions.groups.map((g: { key: string; rate: number; n: number; cases: number }) => [
        g.key,
        g.rate,
        g.n,
        g.cases,
      ]),
    ).toEqual([
      ['pain_score', 0.5, 2, 2],
      ['reassessed', 0.5, 2, 2],
      ['care_plan', 0.5, 2, 2],
      ['education', 1, 2, 2],
    ]);
    expect(questions.groups[0].label).toBe('Is pain score documented?');

    const empty = (await s.viewer.get(url('by=unit&from=2025-01-01&to=2025-06-30'))).json();
    expect(empty).toEqual({
      by: 'unit',
      from: null,
      to: null,
      groups: [
        { key: 'Ward A', label: 'Ward A', cases: 0, rate: null, n: 0, interval: null },
        { key: 'Ward B', label: 'Ward B', cases: 0, rate: null, n: 0, interval: null },
      ],
    });
  });

  it('refuses a compliance query without a grouping, with a bad one or with a range that ends before it starts', async () => {
    const s = await setup();
    const url = (query: string) => `${s.base}/programs/${s.program.id}/compliance?${query}`;
    for (const query of ['', 'by=ward']) {
      const answer = await s.viewer.get(url(query));
      expect(answer.statusCode, query).toBe(400);
      expect(answer.json().errors.by).toEqual(['Group by question, unit or reviewer.']);
    }
    const backwards = await s.viewer.get(url('by=unit&from=2026-03-01&to=2026-01-01'));
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().errors).toEqual({ to: ['The end of the range is on or after its start.'] });
    const notADate = await s.viewer.get(url('by=unit&from=2026-02-30'));
    expect(notADate.statusCode).toBe(400);
    expect(notADate.json().errors).toEqual({ from: ['The start of the range is not a real date.'] });
  });

  it('exports de-identified case results with the privilege label first, escaped cells and an audit event', async () => {
    const s = await setup();
    const { march } = await seed(s);
    await reviewedCase(db(), march, {
      code: '=HYPERLINK("x")',
      unit: '+Ward C',
      reviewerId: s.people.reviewer.id,
      answers: ALL_YES,
      dischargeMonth: null,
    });
    const answer = await s.viewer.get(`${s.base}/programs/${s.program.id}/export.csv?from=2026-03-01`);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(answer.headers['content-disposition']).toBe(
      'attachment; filename="chart-review-falls-prevention-audit-2026-03-to-latest.csv"',
    );
    expect(answer.headers['cache-control']).toBe('private, no-store');
    const lines = answer.body.split('\r\n');
    expect(lines[0]).toMatch(/^# Privileged/);
    expect(lines[1]).toBe(
      'case_code,unit,period,discharge_month,pain_score,reassessed,care_plan,education,score,all_or_none,counted',
    );
    expect(lines.slice(2)).toEqual([
      `"'=HYPERLINK(""x"")",'+Ward C,2026-03,,yes,yes,yes,yes,1,yes,true`,
      'CR-2026-03-0001,Ward A,2026-03,2026-02,yes,yes,yes,yes,1,yes,true',
      'CR-2026-03-0002,Ward A,2026-03,2026-03,yes,no,yes,na,0.75,no,true',
      'CR-2026-03-0003,Ward B,2026-03,2026-03,yes,yes,no,yes,0.6,yes,true',
      'CR-2026-03-0004,Ward B,2026-03,2026-03,no,no,no,no,0,no,false',
      '',
    ]);
    expect(answer.body).not.toContain('SECRET-ENCOUNTER-REF');
    const [event] = await db().select().from(auditEvents).orderBy(desc(auditEvents.id)).limit(1);
    expect(event).toMatchObject({
      action: 'chart_review.results_exported',
      projectId: s.project.id,
      actorUserId: s.people.viewer.id,
      subjectType: 'cr_program',
      subjectId: String(s.program.id),
      data: { from: '2026-03-01', to: null, rows: 5 },
    });

    const january = await s.viewer.get(`${s.base}/programs/${s.program.id}/export.csv?from=2026-01-10&to=2026-02-20`);
    expect(january.body.split('\r\n').slice(2, -1)).toEqual([
      'CR-2026-01-0001,Ward A,2026-01,2026-01,yes,yes,yes,yes,1,yes,true',
      'CR-2026-01-0002,Ward B,2026-01,2026-01,no,no,no,yes,0.2,no,true',
    ]);

    const before = await chartReviewSnapshot(db());
    const backwards = await s.viewer.get(`${s.base}/programs/${s.program.id}/export.csv?from=2026-03-01&to=2026-01-01`);
    expect(backwards.statusCode).toBe(400);
    expect(await chartReviewSnapshot(db())).toEqual(before);
  });

  it('lists every programme with its latest figures for the landing page', async () => {
    const s = await setup();
    await seed(s);
    const second = await s.lead.post(`${s.base}/programs`, programInput(s.tool.id, { name: 'Another audit' }));
    expect(second.statusCode).toBe(201);
    const answer = await s.viewer.get(`${s.base}/dashboard`);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({
      programs: [
        {
          id: second.json().id,
          name: 'Another audit',
          status: 'active',
          grain: 'month',
          target: 0.9,
          period: null,
          compliance: { rate: null, n: 0, interval: null },
          meets_target: null,
          all_or_none: { rate: null, n: 0, interval: null },
          sampled: 0,
          submitted: 0,
          overdue: 0,
          open_findings: 0,
        },
        {
          id: s.program.id,
          name: 'Falls prevention audit',
          status: 'active',
          grain: 'month',
          target: 0.9,
          period: { period_start: '2026-03-01', label: 'Mar 2026' },
          compliance: rateOf(9, 11),
          meets_target: false,
          all_or_none: rateOf(2, 3),
          sampled: 7,
          submitted: 4,
          overdue: 1,
          open_findings: 2,
        },
      ],
    });
    // Another project's figures never show.
    const outsider = await ctx.signedIn(s.people.outsider);
    expect((await outsider.get(`${s.otherBase}/dashboard`)).json()).toEqual({ programs: [] });
  });
});
