import { CR_RATER_CANNOT_ADJUDICATE, type CrIrrPair, type CrIrrProgram, type CrReviewForm } from '@portal/shared';
import { and, desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Agent } from '../../../test/agent.js';
import { useTestApp } from '../../../test/app.js';
import { lockedSample } from '../../../test/chart-review-cases-kit.js';
import {
  addSecondReviewer,
  chartReviewProject,
  createTool,
  expectGuards,
  expectSwitchedOff,
  type GuardedCall,
  programInput,
  question,
} from '../../../test/chart-review-kit.js';
import { auditEvents, crCaseResults, crIrrPairs } from '../../db/schema/index.js';

describe('chart review inter-rater reliability and adjudication', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;
  const PERIOD = '2026-01-01';

  async function setup() {
    const s = await chartReviewProject(db());
    const rob = await addSecondReviewer(db(), s);
    const lead = await ctx.signedIn(s.people.lead);
    const tool = await createTool(lead, s.base, 'Pain', [
      question('icu', { na_allowed: false }),
      question('pain_assessed', { critical: true, weight: 2 }),
      question('icu_score', { show_if: "icu == 'yes'" }),
      question('reassessed'),
    ]);
    const program = (
      await lead.post(`${s.base}/programs`, programInput(tool.id, { owner_id: s.people.lead.id }))
    ).json();
    const second = { reviewerId: s.people.reviewer.id, secondReviewerId: rob.id };
    const sample = await lockedSample(db(), s, {
      toolVersionId: tool.versionId,
      programId: program.id,
      periodStart: PERIOD,
      cases: [
        { unit: 'Ward A', ...second },
        { unit: 'Ward B', ...second },
        { unit: 'Ward A', ...second },
      ],
    });
    const later = await lockedSample(db(), s, {
      toolVersionId: tool.versionId,
      programId: program.id,
      periodStart: '2026-02-01',
      cases: [{ unit: 'Ward C', ...second }],
    });
    const rita = await ctx.signedIn(s.people.reviewer);
    const robAgent = await ctx.signedIn(rob);
    const admin = await ctx.signedIn(s.people.admin);
    return { ...s, rob, lead, admin, tool, program, sample, later, rita, robAgent };
  }
  type Setup = Awaited<ReturnType<typeof setup>>;

  async function submit(s: Setup, agent: Agent, id: number, values: Record<string, string>) {
    const f = (await agent.get(`${s.base}/assignments/${id}`)).json() as CrReviewForm;
    const saved = await agent.put(`${s.base}/assignments/${id}/answers`, {
      version: f.version,
      answers: Object.entries(values).map(([key, value]) => ({
        question_id: f.questions.find((q) => q.key === key)!.id,
        value,
        na_reason: '',
        note: `${key} note`,
        evidence_location: '',
      })),
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const done = await agent.post(`${s.base}/assignments/${id}/submit`);
    expect(done.statusCode, done.body).toBe(200);
  }

  const FULL = { icu: 'no', pain_assessed: 'yes', reassessed: 'no' };
  const ICU = { icu: 'yes', icu_score: 'yes', pain_assessed: 'yes', reassessed: 'no' };

  /** Case 1 agreed, case 2 disagreed, case 3 waiting for its second review. */
  async function reviewed(s: Setup) {
    const [one, two, three] = s.sample.cases;
    await submit(s, s.rita, one!.primaryId, FULL);
    await submit(s, s.robAgent, one!.secondId!, FULL);
    await submit(s, s.rita, two!.primaryId, FULL);
    await submit(s, s.robAgent, two!.secondId!, ICU);
    await submit(s, s.rita, three!.primaryId, FULL);
    const [pair] = await db().select().from(crIrrPairs).where(eq(crIrrPairs.caseId, two!.id));
    return pair!.id;
  }

  function calls(s: Setup, pairId: number): GuardedCall[] {
    return [
      { method: 'GET', path: `/programs/${s.program.id}/irr`, viewer: false, namesRow: true },
      { method: 'GET', path: `/irr/${pairId}`, viewer: false, namesRow: true },
      {
        method: 'POST',
        path: `/irr/${pairId}/adjudicate`,
        body: { final: { icu: { value: 'no', comment: '' }, icu_score: { value: 'yes', comment: '' } } },
        viewer: false,
        namesRow: true,
      },
    ];
  }

  it('guards every call: 401, 403 without a role or for the viewer, 404 from elsewhere, 419', async () => {
    const s = await setup();
    await expectGuards(ctx, s, calls(s, await reviewed(s)));
    const reviewer = await s.rita.get(`${s.base}/programs/${s.program.id}/irr`);
    expect(reviewer.statusCode).toBe(403);
  });

  it('answers 404 to every call when chart review is switched off for the project', async () => {
    const s = await setup();
    await expectSwitchedOff(ctx, s, calls(s, await reviewed(s)));
  });

  it("reports a programme's second reviews with agreement, kappa and PABAK per question", async () => {
    const s = await setup();
    const pairId = await reviewed(s);
    const answer = await s.lead.get(`${s.base}/programs/${s.program.id}/irr?period=${PERIOD}`);
    expect(answer.statusCode, answer.body).toBe(200);
    const irr = answer.json() as CrIrrProgram;
    expect(irr.periods).toEqual(['2026-02-01', PERIOD]);
    expect(irr.thresholds).toEqual({ kappa_min: 0.75, agreement_min: 0.95 });
    expect(irr.pairs.map((p) => [p.case_code, p.status, p.items_compared, p.items_agreed])).toEqual([
      [s.sample.cases[0]!.caseCode, 'agreed', 3, 3],
      [s.sample.cases[1]!.caseCode, 'disagreed', 4, 2],
      [s.sample.cases[2]!.caseCode, 'pending', null, null],
    ]);
    expect(irr.pairs[1]).toMatchObject({
      id: pairId,
      unit: 'Ward B',
      primary_reviewer: { id: s.people.reviewer.id, name: 'Rita Reviewer' },
      second_reviewer: { id: s.rob.id, name: 'Rob Second' },
    });
    const byKey = Object.fromEntries(irr.questions.map((q) => [q.key, q]));
    // icu: (no, no) and (no, yes): half agree and kappa 0, so it is flagged.
    expect(byKey.icu).toMatchObject({ n: 2, agreed: 1, percent: 0.5, kappa: 0, pabak: 0, flagged: true });
    // Always the same answer: kappa undefined, PABAK 1, not flagged.
    expect(byKey.pain_assessed).toMatchObject({ n: 2, agreed: 2, percent: 1, kappa: null, pabak: 1, flagged: false });
    // Answered by one reviewer only: nothing to compare.
    expect(byKey.icu_score).toMatchObject({ n: 0, percent: null, flagged: false });
    expect(irr.overall).toMatchObject({ n: 6, agreed: 5, completed_pairs: 2, meets: false });
    expect(irr.overall.percent).toBeCloseTo(5 / 6);

    const all = (await s.lead.get(`${s.base}/programs/${s.program.id}/irr`)).json() as CrIrrProgram;
    expect(all.pairs).toHaveLength(4);
    expect(all.period).toBeNull();
    const bad = await s.lead.get(`${s.base}/programs/${s.program.id}/irr?period=March`);
    expect(bad.statusCode).toBe(400);
    expect((await s.lead.get(`${s.base}/programs/999999/irr`)).statusCode).toBe(404);
  });

  it('shows only the disagreeing questions side by side; a rater may not adjudicate', async () => {
    const s = await setup();
    const pairId = await reviewed(s);
    const answer = await s.admin.get(`${s.base}/irr/${pairId}`);
    expect(answer.statusCode, answer.body).toBe(200);
    const pair = answer.json() as CrIrrPair;
    expect(pair).toMatchObject({
      status: 'disagreed',
      case_code: s.sample.cases[1]!.caseCode,
      reviewer_a: { name: 'Rita Reviewer' },
      reviewer_b: { name: 'Rob Second' },
      items_compared: 4,
      items_agreed: 2,
      abilities: { adjudicate: true },
      adjudicate_blocked: null,
    });
    expect(pair.disagreements.map((d) => [d.key, d.a, d.b])).toEqual([
      ['icu', { value: 'no', note: 'icu note' }, { value: 'yes', note: 'icu note' }],
      ['icu_score', { value: null, note: '' }, { value: 'yes', note: 'icu_score note' }],
    ]);

    // A lead who reviewed the case sees it, may not adjudicate, and is told why.
    const kase = await lockedSample(db(), s, {
      toolVersionId: s.tool.versionId,
      programId: s.program.id,
      periodStart: '2026-03-01',
      cases: [{ unit: 'Ward A', reviewerId: s.people.lead.id, secondReviewerId: s.rob.id }],
    });
    await submit(s, s.lead, kase.cases[0]!.primaryId, FULL);
    await submit(s, s.robAgent, kase.cases[0]!.secondId!, ICU);
    const [own] = await db().select().from(crIrrPairs).where(eq(crIrrPairs.caseId, kase.cases[0]!.id));
    const seen = (await s.lead.get(`${s.base}/irr/${own!.id}`)).json() as CrIrrPair;
    expect(seen).toMatchObject({ abilities: { adjudicate: false }, adjudicate_blocked: CR_RATER_CANNOT_ADJUDICATE });
    const refused = await s.lead.post(`${s.base}/irr/${own!.id}/adjudicate`, {
      final: { icu: { value: 'no', comment: '' }, icu_score: { value: 'yes', comment: '' } },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(CR_RATER_CANNOT_ADJUDICATE);

    // An agreed pair has nothing to adjudicate.
    const [agreed] = await db().select().from(crIrrPairs).where(eq(crIrrPairs.caseId, s.sample.cases[0]!.id));
    const nothing = await s.admin.post(`${s.base}/irr/${agreed!.id}/adjudicate`, { final: {} });
    expect(nothing.statusCode).toBe(409);
  });

  it('adjudicates: every disagreeing question needs a final value; the case then counts with them', async () => {
    const s = await setup();
    const pairId = await reviewed(s);
    const kase = s.sample.cases[1]!;
    const missing = await s.admin.post(`${s.base}/irr/${pairId}/adjudicate`, {
      final: { icu: { value: null, comment: '' }, pain_assessed: { value: 'yes', comment: '' } },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toEqual({
      'final.pain_assessed': ['The two reviews agree on this question.'],
      'final.icu': ['Choose the final answer.'],
      'final.icu_score': ['Choose the final answer.'],
    });
    const naRefused = await s.admin.post(`${s.base}/irr/${pairId}/adjudicate`, {
      final: { icu: { value: 'na', comment: '' }, icu_score: { value: 'yes', comment: '' } },
    });
    expect(naRefused.json().errors).toEqual({ 'final.icu': ['N/A is not an answer to this question.'] });
    expect((await db().select().from(crCaseResults).where(eq(crCaseResults.caseId, kase.id)))[0]!.counts).toBe(false);

    const done = await s.admin.post(`${s.base}/irr/${pairId}/adjudicate`, {
      final: {
        icu: { value: 'yes', comment: 'Transferred from ICU on day 2.' },
        icu_score: { value: 'no', comment: 'No score charted.' },
      },
    });
    expect(done.statusCode, done.body).toBe(200);
    const pair = done.json() as CrIrrPair;
    expect(pair).toMatchObject({ status: 'adjudicated', adjudicated_by: { id: s.people.admin.id, name: 'Ada Admin' } });
    expect(pair.disagreements.find((d) => d.key === 'icu')!.final).toEqual({
      value: 'yes',
      comment: 'Transferred from ICU on day 2.',
    });
    const [result] = await db().select().from(crCaseResults).where(eq(crCaseResults.caseId, kase.id));
    expect(result).toMatchObject({
      counts: true,
      answers: { icu: 'yes', pain_assessed: 'yes', icu_score: 'no', reassessed: 'no' },
      applicable: 4,
      met: 2,
    });
    const [event] = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.projectId, s.project.id), eq(auditEvents.action, 'chart_review.review_adjudicated')))
      .orderBy(desc(auditEvents.id));
    expect(event).toMatchObject({ subjectType: 'cr_irr_pair', subjectId: String(pairId) });
    const irr = (await s.lead.get(`${s.base}/programs/${s.program.id}/irr?period=${PERIOD}`)).json() as CrIrrProgram;
    expect(irr.pairs[1]!.status).toBe('adjudicated');
  });
});
