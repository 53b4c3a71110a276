import { CR_ANSWER_EVERY_QUESTION, CR_STALE_ANSWERS, type CrAnswerInput, type CrReviewForm } from '@portal/shared';
import { and, asc, eq, like } from 'drizzle-orm';
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
import { addMember, createUser, setMainRole } from '../../../test/factories.js';
import {
  auditEvents,
  crAnswers,
  crAssignments,
  crCaseResults,
  crIrrPairs,
  crReviewerUnits,
  crSettings,
  crToolVersions,
  notifications,
} from '../../db/schema/index.js';

describe('chart review reviews', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;
  /** A day relative to the test clock, YYYY-MM-DD. */
  const day = (offset: number) => new Date(ctx.clock.now().getTime() + offset * 86_400_000).toISOString().slice(0, 10);
  const period = () => `${day(0).slice(0, 7)}-01`;

  async function setup(cases?: (s: Awaited<ReturnType<typeof chartReviewProject>>, robId: number) => unknown[]) {
    const s = await chartReviewProject(db());
    const rob = await addSecondReviewer(db(), s);
    const lead = await ctx.signedIn(s.people.lead);
    const tool = await createTool(lead, s.base, 'Pain', [
      question('icu', { na_allowed: false }),
      question('pain_assessed', { critical: true, weight: 2 }),
      question('icu_score', { show_if: "icu == 'yes'" }),
      question('reassessed', { na_reason_required: true }),
    ]);
    const created = await lead.post(`${s.base}/programs`, programInput(tool.id, { owner_id: s.people.lead.id }));
    expect(created.statusCode, created.body).toBe(201);
    const program = created.json() as { id: number; name: string };
    const sample = await lockedSample(db(), s, {
      toolVersionId: tool.versionId,
      programId: program.id,
      periodStart: period(),
      cases: (cases?.(s, rob.id) as never) ?? [
        { unit: 'Ward A', reviewerId: s.people.reviewer.id, secondReviewerId: rob.id },
        { unit: 'Ward B', reviewerId: s.people.reviewer.id },
      ],
    });
    const rita = await ctx.signedIn(s.people.reviewer);
    const robAgent = await ctx.signedIn(rob);
    return { ...s, rob, lead, tool, program, sample, rita, robAgent };
  }
  type Setup = Awaited<ReturnType<typeof setup>>;

  async function form(s: Setup, agent: Agent, assignmentId: number): Promise<CrReviewForm> {
    const answer = await agent.get(`${s.base}/assignments/${assignmentId}`);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json();
  }

  /** Answer inputs by key for a form's questions. */
  function answers(f: CrReviewForm, values: Record<string, Partial<CrAnswerInput> | CrAnswerInput['value']>) {
    return Object.entries(values).map(([key, given]) => {
      const q = f.questions.find((item) => item.key === key)!;
      const extra = typeof given === 'object' && given !== null ? given : { value: given };
      return { question_id: q.id, value: null, na_reason: '', note: '', evidence_location: '', ...extra };
    });
  }

  async function save(s: Setup, agent: Agent, id: number, values: Record<string, unknown>, version?: number) {
    const f = await form(s, agent, id);
    return agent.put(`${s.base}/assignments/${id}/answers`, {
      version: version ?? f.version,
      answers: answers(f, values as never),
    });
  }

  async function answerAndSubmit(s: Setup, agent: Agent, id: number, values: Record<string, unknown>) {
    const saved = await save(s, agent, id, values);
    expect(saved.statusCode, saved.body).toBe(200);
    const submitted = await agent.post(`${s.base}/assignments/${id}/submit`);
    expect(submitted.statusCode, submitted.body).toBe(200);
    return submitted.json() as CrReviewForm;
  }

  const FULL = { icu: 'no', pain_assessed: 'yes', reassessed: 'no' };

  async function actions(projectId: number) {
    const rows = await db()
      .select({ action: auditEvents.action })
      .from(auditEvents)
      .where(and(eq(auditEvents.projectId, projectId), like(auditEvents.action, 'chart_review.review_%')))
      .orderBy(asc(auditEvents.id));
    return rows.map((row) => row.action);
  }

  function calls(s: Setup, formQuestionId: number): GuardedCall[] {
    const id = s.sample.cases[1]!.primaryId;
    return [
      { method: 'GET', path: '/me/assignments', viewer: false, namesRow: false },
      { method: 'GET', path: `/assignments/${id}`, viewer: false, namesRow: true },
      {
        method: 'PUT',
        path: `/assignments/${id}/answers`,
        body: {
          version: 0,
          answers: [{ question_id: formQuestionId, value: 'yes', na_reason: '', note: '', evidence_location: '' }],
        },
        viewer: false,
        namesRow: true,
      },
      { method: 'POST', path: `/assignments/${id}/submit`, viewer: false, namesRow: true },
      {
        method: 'POST',
        path: `/assignments/${id}/return`,
        body: { reason: 'Check again' },
        viewer: false,
        namesRow: true,
      },
      {
        method: 'POST',
        path: `/assignments/${id}/reassign`,
        body: { reviewer_id: s.rob.id },
        viewer: false,
        namesRow: true,
      },
    ];
  }

  it('guards every call: 401, 403 without a role or for the viewer, 404 from elsewhere, 419', async () => {
    const s = await setup();
    const f = await form(s, s.rita, s.sample.cases[1]!.primaryId);
    await expectGuards(ctx, s, calls(s, f.questions[0]!.id));
  });

  it('answers 404 to every call when chart review is switched off for the project', async () => {
    const s = await setup();
    const f = await form(s, s.rita, s.sample.cases[1]!.primaryId);
    await expectSwitchedOff(ctx, s, calls(s, f.questions[0]!.id));
  });

  it('lists my assignments: overdue first, then by due date; progress over the questions to answer; submitted last', async () => {
    const s = await setup((s, robId) => [
      { unit: 'Ward A', reviewerId: s.people.reviewer.id, dueAt: day(10) },
      { unit: 'Ward B', reviewerId: s.people.reviewer.id, dueAt: day(-5) },
      { unit: 'Ward A', reviewerId: robId, secondReviewerId: s.people.reviewer.id, dueAt: day(8) },
      { unit: 'Ward C', reviewerId: s.people.reviewer.id, dueAt: day(-9) },
    ]);
    const [first, second, third, fourth] = s.sample.cases;
    // Progress (the shared rule, as the form counts): answered shown questions of those to answer; icu_score counts
    // until icu rules it out. Case 1: icu yes shows icu_score: 2 answered of 4. Case 2, not started: icu unanswered
    // leaves icu_score to come: 0 of 4 (not 0 of 3, which grew to 4 when icu was answered yes). Case 4: icu no: 3 of 3.
    expect((await save(s, s.rita, first!.primaryId, { icu: 'yes', pain_assessed: 'yes' })).statusCode).toBe(200);
    await answerAndSubmit(s, s.rita, fourth!.primaryId, FULL);

    const list = await s.rita.get(`${s.base}/me/assignments`);
    expect(list.statusCode, list.body).toBe(200);
    const rows = list.json().assignments as Array<Record<string, unknown>>;
    expect(rows.map((row) => row.case_code)).toEqual([
      second!.caseCode, // overdue
      third!.caseCode, // due 18th (a blind second review, shown like any other)
      first!.caseCode, // due 20th
      fourth!.caseCode, // submitted
    ]);
    expect(rows[0]).toMatchObject({ overdue: true, status: 'assigned', progress: { answered: 0, total: 4 } });
    expect(rows[1]).toMatchObject({
      role: 'second',
      unit: 'Ward A',
      program: { id: s.program.id, name: s.program.name },
    });
    expect(rows[2]).toMatchObject({ status: 'in_progress', progress: { answered: 2, total: 4 }, due_at: day(10) });
    expect(rows[3]).toMatchObject({ status: 'submitted', overdue: false, progress: { answered: 3, total: 3 } });

    const todo = (await s.rita.get(`${s.base}/me/assignments?status=todo`)).json().assignments;
    expect(todo).toHaveLength(3);
    const done = (await s.rita.get(`${s.base}/me/assignments?status=submitted`)).json().assignments;
    expect(done.map((row: { case_code: string }) => row.case_code)).toEqual([fourth!.caseCode]);
    const otherProgram = await s.rita.get(`${s.base}/me/assignments?program=${s.program.id + 1000}`);
    expect(otherProgram.json().assignments).toEqual([]);
    const bad = await s.rita.get(`${s.base}/me/assignments?status=later`);
    expect(bad.statusCode).toBe(400);
    // Rob sees only his own review.
    const robs = (await s.robAgent.get(`${s.base}/me/assignments`)).json().assignments;
    expect(robs.map((row: { case_code: string }) => row.case_code)).toEqual([third!.caseCode]);
    // A lead with no reviews of their own sees none.
    expect((await s.lead.get(`${s.base}/me/assignments`)).json().assignments).toEqual([]);
  });

  it('opens the form for its reviewer (editable) and for leads (read-only); never for the other reviewer', async () => {
    const s = await setup();
    const kase = s.sample.cases[0]!;
    const mine = await form(s, s.rita, kase.primaryId);
    expect(mine).toMatchObject({
      case: { case_code: kase.caseCode, unit: 'Ward A', discharge_month: period(), has_encounter_ref: false },
      program: { id: s.program.id },
      status: 'assigned',
      version: 0,
      mine: true,
      abilities: { edit: true, submit: true, return: false, reassign: false },
      answers: [],
    });
    expect(mine.questions.map((q) => q.key)).toEqual(['icu', 'pain_assessed', 'icu_score', 'reassessed']);
    expect(mine.privilege_label).toContain('Privileged and confidential');

    const asLead = await form(s, s.lead, kase.primaryId);
    expect(asLead).toMatchObject({
      mine: false,
      abilities: { edit: false, submit: false, return: false, reassign: true },
    });

    // Blind both ways: the second reviewer cannot open the primary review, nor the primary reviewer the second.
    await save(s, s.rita, kase.primaryId, { icu: 'yes' });
    expect((await s.robAgent.get(`${s.base}/assignments/${kase.primaryId}`)).statusCode).toBe(404);
    expect((await s.rita.get(`${s.base}/assignments/${kase.secondId}`)).statusCode).toBe(404);
    const robForm = await form(s, s.robAgent, kase.secondId!);
    expect(robForm.answers).toEqual([]);
    // A lead who is the case's other reviewer does not see it either.
    const third = await lockedSample(db(), s, {
      toolVersionId: s.tool.versionId,
      programId: s.program.id,
      periodStart: '2030-04-01',
      cases: [{ unit: 'Ward A', reviewerId: s.people.reviewer.id, secondReviewerId: s.people.lead.id }],
    });
    expect((await s.lead.get(`${s.base}/assignments/${third.cases[0]!.primaryId}`)).statusCode).toBe(404);
    expect((await s.lead.get(`${s.base}/assignments/999999`)).statusCode).toBe(404);
  });

  it('offers the reveal only when the project keeps references, the case has one and the role may reveal', async () => {
    const s = await setup((s) => [{ unit: 'Ward A', reviewerId: s.people.reviewer.id, encounterRefEnc: 'cipher' }]);
    const id = s.sample.cases[0]!.primaryId;
    expect((await form(s, s.rita, id)).case).toMatchObject({ has_encounter_ref: true, may_reveal: false });
    await db()
      .update(crSettings)
      .set({ storeEncounterRef: true, revealRoles: ['reviewer'] })
      .where(eq(crSettings.projectId, s.project.id));
    expect((await form(s, s.rita, id)).case.may_reveal).toBe(true);
    expect((await form(s, s.lead, id)).case.may_reveal).toBe(false);
  });

  it('autosaves: a stale version answers 409; the first answer starts the review and freezes the version', async () => {
    const s = await setup();
    const id = s.sample.cases[1]!.primaryId;
    const first = await save(s, s.rita, id, { icu: 'yes', pain_assessed: { value: 'yes', note: 'Seen at 10:00' } });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ version: 1, status: 'in_progress', warnings: [] });
    const [version] = await db().select().from(crToolVersions).where(eq(crToolVersions.id, s.tool.versionId));
    expect(version!.frozenAt).not.toBeNull();

    const stale = await save(s, s.rita, id, { icu: 'no' }, 0);
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toBe(CR_STALE_ANSWERS);
    const second = await save(s, s.rita, id, { icu: 'no', pain_assessed: { value: 'no', note: 'Not found' } });
    expect(second.json()).toMatchObject({ version: 2, status: 'in_progress' });

    const reloaded = await form(s, s.rita, id);
    expect(reloaded.version).toBe(2);
    const byKey = Object.fromEntries(
      reloaded.answers.map((a) => [reloaded.questions.find((q) => q.id === a.question_id)!.key, a]),
    );
    expect(byKey.icu).toMatchObject({ value: 'no' });
    expect(byKey.pain_assessed).toMatchObject({ value: 'no', note: 'Not found' });
    expect(await actions(s.project.id)).toEqual(['chart_review.review_started']);

    // Only the reviewer saves.
    const asLead = await s.lead.put(`${s.base}/assignments/${id}/answers`, { version: 2, answers: [] });
    expect(asLead.statusCode).toBe(403);
    expect((await s.robAgent.put(`${s.base}/assignments/${id}/answers`, { version: 2, answers: [] })).statusCode).toBe(
      404,
    );
  });

  it('audits each autosave with the answers it changed: the first as review_started, later ones as answers_saved', async () => {
    const s = await setup();
    const id = s.sample.cases[1]!.primaryId;
    const events = async () =>
      (
        await db()
          .select()
          .from(auditEvents)
          .where(and(eq(auditEvents.subjectType, 'cr_assignment'), eq(auditEvents.subjectId, String(id))))
          .orderBy(asc(auditEvents.id))
      ).map((e) => [e.action, e.data]);

    expect((await save(s, s.rita, id, { icu: 'yes', pain_assessed: 'yes' })).statusCode).toBe(200);
    expect(await events()).toEqual([
      [
        'chart_review.review_started',
        expect.objectContaining({
          changes: { icu: { from: null, to: 'yes' }, pain_assessed: { from: null, to: 'yes' } },
        }),
      ],
    ]);

    // The second save: one event with only what changed (icu the same, pain_assessed and its note changed).
    const second = await save(s, s.rita, id, {
      icu: 'yes',
      pain_assessed: { value: 'no', note: 'Not in the notes', evidence_location: 'MAR 3/4' },
    });
    expect(second.statusCode, second.body).toBe(200);
    const after = await events();
    expect(after).toHaveLength(2);
    expect(after[1]).toEqual([
      'chart_review.answers_saved',
      {
        case_id: expect.any(Number),
        version: 2,
        changes: {
          pain_assessed: { from: 'yes', to: 'no' },
          'pain_assessed.note': { from: '', to: 'Not in the notes' },
          'pain_assessed.evidence_location': { from: '', to: 'MAR 3/4' },
        },
      },
    ]);

    // A third save that changes a value back, and free text that looks like patient data is named, never kept.
    const third = await save(s, s.rita, id, {
      reassessed: { value: 'no', note: 'MRN 00451234 checked' },
    });
    expect(third.statusCode, third.body).toBe(200);
    const last = await events();
    expect(last).toHaveLength(3);
    expect(last[2]![1]).toMatchObject({
      version: 3,
      changes: { reassessed: { from: null, to: 'no' }, 'reassessed.note': { changed: true } },
    });
    expect(JSON.stringify(last[2]![1])).not.toContain('00451234');

    // A save that changes nothing records nothing.
    expect((await save(s, s.rita, id, { icu: 'yes' })).statusCode).toBe(200);
    expect(await events()).toHaveLength(3);
  });

  it('refuses answers that do not fit their question, and warns on text that looks like patient data', async () => {
    const s = await setup();
    const id = s.sample.cases[1]!.primaryId;
    const f = await form(s, s.rita, id);
    const bad = await s.rita.put(`${s.base}/assignments/${id}/answers`, {
      version: 0,
      answers: [
        ...answers(f, { icu: 'na', pain_assessed: 'partial' }),
        { question_id: 999999, value: 'yes', na_reason: '', note: '', evidence_location: '' },
      ],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual({
      'answers.0.value': ['N/A is not an answer to this question.'],
      'answers.1.value': ['Partial is not an answer to this question.'],
      'answers.2.question_id': ['This question is not part of this review.'],
    });
    const shape = await s.rita.put(`${s.base}/assignments/${id}/answers`, {
      version: 0,
      answers: answers(f, { icu: { value: 'maybe' as never } }),
    });
    expect(shape.statusCode).toBe(400);
    expect(Object.keys(shape.json().errors)).toEqual(['answers.0.value']);
    expect(await db().select().from(crAnswers).where(eq(crAnswers.assignmentId, id))).toEqual([]);

    const warned = await save(s, s.rita, id, {
      icu: { value: 'no', note: 'MRN 00451234 checked' },
      pain_assessed: { value: 'yes', note: 'Daughter on (555) 123-4567', evidence_location: 'MAR 3/4' },
      reassessed: { value: 'na', na_reason: 'DOB 03/04/1956 so not applicable' },
    });
    expect(warned.statusCode, warned.body).toBe(200);
    const warnings = warned.json().warnings as { question_id: number; field: string; message: string }[];
    expect(warnings.map((w) => [f.questions.find((q) => q.id === w.question_id)!.key, w.field])).toEqual([
      ['icu', 'note'],
      ['pain_assessed', 'note'],
      ['reassessed', 'na_reason'],
    ]);
    expect(warnings[0]!.message).toContain('medical record number');
    expect(warnings[1]!.message).toContain('phone number');
    expect(warnings[2]!.message).toContain('date of birth');
  });

  it('submits only with every visible question answered, then writes the case result', async () => {
    const s = await setup();
    const id = s.sample.cases[1]!.primaryId;
    const f = await form(s, s.rita, id);
    const qid = (key: string) => f.questions.find((q) => q.key === key)!.id;
    await save(s, s.rita, id, { icu: 'yes', reassessed: 'na' });
    const missing = await s.rita.post(`${s.base}/assignments/${id}/submit`);
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({
      message: CR_ANSWER_EVERY_QUESTION,
      errors: {
        [`answers.${qid('pain_assessed')}`]: ['Answer this question.'],
        [`answers.${qid('icu_score')}`]: ['Answer this question.'],
        [`answers.${qid('reassessed')}`]: ['Give the reason for N/A.'],
      },
    });
    // icu no hides icu_score: its earlier answer is ignored for scoring.
    await save(s, s.rita, id, {
      icu: 'no',
      icu_score: 'no',
      pain_assessed: 'yes',
      reassessed: { value: 'na', na_reason: 'Discharged within the hour' },
    });
    const submitted = await s.rita.post(`${s.base}/assignments/${id}/submit`);
    expect(submitted.statusCode, submitted.body).toBe(200);
    expect(submitted.json()).toMatchObject({ status: 'submitted', abilities: { edit: false, submit: false } });
    const [result] = await db().select().from(crCaseResults).where(eq(crCaseResults.caseId, s.sample.cases[1]!.id));
    expect(result).toMatchObject({
      programId: s.program.id,
      periodStart: period(),
      unit: 'Ward B',
      counts: true,
      applicable: 2,
      met: 1,
      allOrNone: true,
      answers: { icu: 'no', pain_assessed: 'yes', reassessed: 'na' },
    });
    // icu (no, weight 1) and pain_assessed (yes, weight 2): 2/3.
    expect(result!.score).toBeCloseTo(2 / 3);
    expect(await actions(s.project.id)).toEqual(['chart_review.review_started', 'chart_review.review_submitted']);

    const again = await s.rita.post(`${s.base}/assignments/${id}/submit`);
    expect(again.statusCode).toBe(409);
    const late = await save(s, s.rita, id, { icu: 'yes' });
    expect(late.statusCode).toBe(409);
    const asLead = await form(s, s.lead, id);
    expect(asLead.abilities).toEqual({ edit: false, submit: false, return: true, reassign: false });
  });

  it('compares a second review: agreement counts the primary answers', async () => {
    const s = await setup();
    const kase = s.sample.cases[0]!;
    await answerAndSubmit(s, s.rita, kase.primaryId, FULL);
    const [pending] = await db().select().from(crIrrPairs).where(eq(crIrrPairs.caseId, kase.id));
    expect(pending).toMatchObject({ status: 'pending', itemsCompared: null });
    expect((await db().select().from(crCaseResults).where(eq(crCaseResults.caseId, kase.id)))[0]!.counts).toBe(true);
    await answerAndSubmit(s, s.robAgent, kase.secondId!, FULL);
    const [pair] = await db().select().from(crIrrPairs).where(eq(crIrrPairs.caseId, kase.id));
    expect(pair).toMatchObject({ status: 'agreed', itemsCompared: 3, itemsAgreed: 3 });
    const [result] = await db().select().from(crCaseResults).where(eq(crCaseResults.caseId, kase.id));
    expect(result).toMatchObject({ counts: true, answers: FULL });
    expect(await db().select().from(notifications).where(eq(notifications.userId, s.people.lead.id))).toEqual([]);
  });

  it('a disagreement keeps the case out of the rates and notifies the programme owner with a link', async () => {
    const s = await setup();
    const kase = s.sample.cases[0]!;
    await answerAndSubmit(s, s.robAgent, kase.secondId!, {
      icu: 'yes',
      icu_score: 'yes',
      pain_assessed: 'yes',
      reassessed: 'no',
    });
    // The second review alone writes no result.
    expect(await db().select().from(crCaseResults).where(eq(crCaseResults.caseId, kase.id))).toEqual([]);
    await answerAndSubmit(s, s.rita, kase.primaryId, FULL);
    const [pair] = await db().select().from(crIrrPairs).where(eq(crIrrPairs.caseId, kase.id));
    // Compared over icu, pain_assessed, icu_score (seen by one) and reassessed: icu and icu_score differ.
    expect(pair).toMatchObject({ status: 'disagreed', itemsCompared: 4, itemsAgreed: 2 });
    const [result] = await db().select().from(crCaseResults).where(eq(crCaseResults.caseId, kase.id));
    expect(result).toMatchObject({ counts: false, answers: FULL });
    const sent = await db().select().from(notifications).where(eq(notifications.userId, s.people.lead.id));
    expect(sent).toHaveLength(1);
    expect(sent[0]!.link).toBe(`/app/chart-review/${s.project.id}/irr/${pair!.id}`);
    expect(sent[0]!.message).not.toContain(kase.caseCode);
  });

  it('returns a submitted review to its reviewer with a reason: answers kept, result withdrawn, pair pending', async () => {
    const s = await setup();
    const kase = s.sample.cases[0]!;
    await answerAndSubmit(s, s.rita, kase.primaryId, FULL);
    await answerAndSubmit(s, s.robAgent, kase.secondId!, FULL);
    const open = await s.lead.post(`${s.base}/assignments/${s.sample.cases[1]!.primaryId}/return`, { reason: 'x' });
    expect(open.statusCode).toBe(409);
    const empty = await s.lead.post(`${s.base}/assignments/${kase.primaryId}/return`, { reason: '  ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors.reason).toEqual(['Say why the review goes back to its reviewer.']);
    const asReviewer = await s.rita.post(`${s.base}/assignments/${kase.primaryId}/return`, { reason: 'Mine' });
    expect(asReviewer.statusCode).toBe(403);

    const returned = await s.lead.post(`${s.base}/assignments/${kase.primaryId}/return`, {
      reason: 'Pain score is on the MAR, look again.',
    });
    expect(returned.statusCode, returned.body).toBe(200);
    expect(returned.json()).toMatchObject({
      status: 'returned',
      return_reason: 'Pain score is on the MAR, look again.',
    });
    expect(await db().select().from(crCaseResults).where(eq(crCaseResults.caseId, kase.id))).toEqual([]);
    const [pair] = await db().select().from(crIrrPairs).where(eq(crIrrPairs.caseId, kase.id));
    expect(pair).toMatchObject({ status: 'pending', itemsCompared: null });
    const mine = await form(s, s.rita, kase.primaryId);
    expect(mine).toMatchObject({ status: 'returned', abilities: { edit: true, submit: true } });
    expect(mine.answers).toHaveLength(3);
    const list = (await s.rita.get(`${s.base}/me/assignments`)).json().assignments;
    expect(list.find((row: { id: number }) => row.id === kase.primaryId)).toMatchObject({
      status: 'returned',
      return_reason: 'Pain score is on the MAR, look again.',
    });
    const sent = await db().select().from(notifications).where(eq(notifications.userId, s.people.reviewer.id));
    expect(sent.map((n) => n.link)).toEqual([`/app/chart-review/${s.project.id}/review/${kase.primaryId}`]);
    // Saving keeps it returned; submitting again counts again.
    expect((await save(s, s.rita, kase.primaryId, { reassessed: 'yes' })).json().status).toBe('returned');
    const again = await s.rita.post(`${s.base}/assignments/${kase.primaryId}/submit`);
    expect(again.statusCode).toBe(200);
    const [after] = await db().select().from(crIrrPairs).where(eq(crIrrPairs.caseId, kase.id));
    expect(after).toMatchObject({ status: 'disagreed', itemsCompared: 3, itemsAgreed: 2 });
    expect(await actions(s.project.id)).toContain('chart_review.review_returned');
  });

  it('reassigns a review before submission to someone allowed, not the other reviewer, not of the unit', async () => {
    const s = await setup();
    const kase = s.sample.cases[0]!;
    const ruth = await createUser(db(), { firstName: 'Ruth', lastName: 'Third' });
    await addMember(db(), s.project.id, ruth.id, 'simple');
    await setMainRole(db(), s.project.id, ruth.id, 'chart_review', 'reviewer');
    await save(s, s.rita, kase.primaryId, { icu: 'yes' });
    const reassign = (reviewerId: number) =>
      s.lead.post(`${s.base}/assignments/${kase.primaryId}/reassign`, { reviewer_id: reviewerId });

    const refusals: [number, string][] = [
      [s.people.reviewer.id, 'This person already reviews this case.'],
      [s.rob.id, 'This person does the other review of this case: choose someone else.'],
      [s.people.viewer.id, 'Choose an active member whose chart review role may review charts.'],
      [s.people.outsider.id, 'Choose an active member whose chart review role may review charts.'],
      [s.people.noRole.id, 'Choose an active member whose chart review role may review charts.'],
    ];
    for (const [who, message] of refusals) {
      const answer = await reassign(who);
      expect(answer.statusCode, message).toBe(400);
      expect(answer.json().errors).toEqual({ reviewer_id: [message] });
    }
    await db().insert(crReviewerUnits).values({ projectId: s.project.id, userId: ruth.id, unit: 'Ward A' });
    const own = await reassign(ruth.id);
    expect(own.json().errors).toEqual({ reviewer_id: ['This person works on Ward A, so may not review its cases.'] });
    await db().update(crSettings).set({ coiOwnUnit: false }).where(eq(crSettings.projectId, s.project.id));

    const done = await reassign(ruth.id);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({
      reviewer: { id: ruth.id, name: 'Ruth Third' },
      status: 'assigned',
      answers: [],
    });
    const [row] = await db().select().from(crAssignments).where(eq(crAssignments.id, kase.primaryId));
    expect(row).toMatchObject({ reviewerId: ruth.id, startedAt: null });
    expect((await s.rita.get(`${s.base}/assignments/${kase.primaryId}`)).statusCode).toBe(404);
    const ruthAgent = await ctx.signedIn(ruth);
    expect((await form(s, ruthAgent, kase.primaryId)).mine).toBe(true);
    expect(await actions(s.project.id)).toEqual(['chart_review.review_started', 'chart_review.review_reassigned']);

    await answerAndSubmit(s, ruthAgent, kase.primaryId, FULL);
    const late = await s.lead.post(`${s.base}/assignments/${kase.primaryId}/reassign`, {
      reviewer_id: s.people.reviewer.id,
    });
    expect(late.statusCode).toBe(409);
  });
});
