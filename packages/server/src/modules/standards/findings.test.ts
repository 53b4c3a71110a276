import type { StdFinding, StdPlanInput, StdReadiness } from '@portal/shared';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { addComplianceMeasure } from '../../../test/chart-review-findings-kit.js';
import { addTarget, repeat } from '../../../test/monitoring-data-kit.js';
import {
  addPolicy,
  auditOf,
  expectGuards,
  type GuardedCall,
  readElement,
  type StandardsSetup,
  saveElement,
  standardsSetup,
  standardsSnapshot,
} from '../../../test/standards-kit.js';
import { policyDocuments, stdFindings, stdReqAssessments } from '../../db/schema/index.js';
import { unsafeCloseSustainedFindings } from './findings.service.js';

/**
 * Findings on the SAFER matrix, their plans of correction and sustainment, readiness and the gap report
 * (docs/standards.md "Findings", "Readiness").
 */
describe('standards findings, readiness and gap report', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;
  const TODAY = new Date('2026-11-27T12:00:00Z');

  const finding = (overrides: Record<string, unknown> = {}) => ({
    source: 'mock',
    text: 'Two of five board minutes were not signed.',
    likelihood: 'low',
    scope: 'pattern',
    immediate_threat: false,
    cited_on: '2026-11-20',
    ...overrides,
  });
  const plan = (overrides: Partial<StdPlanInput> = {}): StdPlanInput => ({
    root_cause: 'No one checks signatures before filing.',
    actions: [{ what: 'Add a signature check to the filing step', owner_id: null, due: '2026-12-15', done: false }],
    leadership_involvement: '',
    preventive_analysis: '',
    measure_id: null,
    success_periods: 3,
    ...overrides,
  });

  async function withFinding(s: StandardsSetup, overrides: Record<string, unknown> = {}): Promise<StdFinding> {
    const created = await s.admin.post(`${s.base}/req-assessments/${s.reqs['GOV.1.1']}/findings`, finding(overrides));
    expect(created.statusCode, created.body).toBe(201);
    return created.json() as StdFinding;
  }

  it('guards every call: 401, 403 without a role, 403 for the viewer on changes, 404 for another project, 419', async () => {
    ctx.clock.set(TODAY);
    const s = await standardsSetup(ctx);
    const f = await withFinding(s);
    const calls: GuardedCall[] = [
      { method: 'GET', path: `/assessments/${s.assessmentId}/findings`, viewer: true, namesRow: true },
      { method: 'GET', path: `/assessments/${s.assessmentId}/findings?status=open`, viewer: true, namesRow: true },
      {
        method: 'POST',
        path: `/req-assessments/${s.reqs['GOV.1.2']}/findings`,
        body: finding(),
        viewer: false,
        namesRow: true,
      },
      { method: 'GET', path: `/findings/${f.id}`, viewer: true, namesRow: true },
      { method: 'PUT', path: `/findings/${f.id}`, body: { ...finding(), version: 0 }, viewer: false, namesRow: true },
      { method: 'PUT', path: `/findings/${f.id}/plan`, body: plan(), viewer: false, namesRow: true },
      { method: 'POST', path: `/findings/${f.id}/close`, body: { note: 'Done' }, viewer: false, namesRow: true },
      { method: 'POST', path: `/findings/${f.id}/reopen`, body: { note: 'Again' }, viewer: false, namesRow: true },
      { method: 'GET', path: `/assessments/${s.assessmentId}/readiness`, viewer: true, namesRow: true },
    ];
    const before = (await db().select().from(stdFindings)).length;
    await expectGuards(ctx, s, calls);
    expect(await db().select().from(stdFindings)).toHaveLength(before);
    // The gap report is a download: the same guards, checked by hand (its 200 is CSV, and each one is audited).
    const outsider = await ctx.signedIn(s.people.outsider);
    expect((await outsider.get(`${s.base}/assessments/${s.assessmentId}/gap-report.csv`)).statusCode).toBe(404);
    expect((await outsider.get(`${s.otherBase}/assessments/${s.assessmentId}/gap-report.csv`)).statusCode).toBe(404);
    const noRole = await ctx.signedIn(s.people.noRole);
    expect((await noRole.get(`${s.base}/assessments/${s.assessmentId}/gap-report.csv`)).statusCode).toBe(403);
    expect((await ctx.agent().get(`${s.base}/assessments/${s.assessmentId}/gap-report.csv`)).statusCode).toBe(401);
  });

  it('records a finding in its SAFER cell, due in 60 days or 3 for an immediate threat, in the element history', async () => {
    ctx.clock.set(TODAY);
    const s = await standardsSetup(ctx);
    const f = await withFinding(s);
    expect(f).toMatchObject({
      ref_id: 'GOV.1.1',
      likelihood: 'low',
      scope: 'pattern',
      due_date: '2027-01-19',
      status: 'open',
      overdue: false,
      high_risk: false,
      abilities: { edit: true, plan: true, close: true },
    });
    const threat = await withFinding(s, { immediate_threat: true, likelihood: 'high', scope: 'widespread' });
    expect(threat).toMatchObject({ due_date: '2026-11-23', overdue: true, high_risk: true });
    const element = await readElement(s.admin, s.base, s.reqs['GOV.1.1']);
    expect(element.history[0]?.summary).toContain('immediate threat');
    expect((await auditOf(db(), s.project.id, 'standards.finding_created')).map((e) => e.data.finding_id)).toEqual([
      f.id,
      threat.id,
    ]);
  });

  it('lets owners record on their elements, mock assessors anywhere; refuses contributors, viewers, bad input', async () => {
    ctx.clock.set(TODAY);
    const s = await standardsSetup(ctx);
    const as = async (who: keyof StandardsSetup['people']) => ctx.signedIn(s.people[who]);
    const url = (ref: 'GOV.1.1' | 'OB.1' | 'GOV.2.1') => `${s.base}/req-assessments/${s.reqs[ref]}/findings`;
    const owner = await as('owner');
    expect((await owner.post(url('GOV.1.1'), finding())).statusCode).toBe(201);
    expect((await owner.post(url('OB.1'), finding())).statusCode).toBe(403);
    const assessor = await as('assessor');
    const mock = await assessor.post(url('OB.1'), finding());
    expect(mock.statusCode, mock.body).toBe(201);
    // The assessor may correct their own finding but neither plan nor close it.
    expect(mock.json().abilities).toEqual({ edit: true, plan: false, close: false });
    expect((await (await as('contributor')).post(url('GOV.2.1'), finding())).statusCode).toBe(403);
    const before = await standardsSnapshot(db());
    const bad = await s.admin.post(url('OB.1'), finding({ likelihood: 'extreme', cited_on: '2026-02-30', text: ' ' }));
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['cited_on', 'likelihood', 'text']);
    expect(await standardsSnapshot(db())).toEqual(before);
  });

  it('asks a high-risk plan for leadership and a preventive analysis; the owner plans; the admin closes and reopens', async () => {
    ctx.clock.set(TODAY);
    const s = await standardsSetup(ctx);
    const f = await withFinding(s, { likelihood: 'high', scope: 'pattern' });
    const owner = await ctx.signedIn(s.people.owner);
    const missing = await owner.put(`${s.base}/findings/${f.id}/plan`, plan());
    expect(missing.statusCode).toBe(400);
    expect(Object.keys(missing.json().errors).sort()).toEqual(['leadership_involvement', 'preventive_analysis']);
    const saved = await owner.put(
      `${s.base}/findings/${f.id}/plan`,
      plan({
        leadership_involvement: 'The CNO reviews weekly.',
        preventive_analysis: 'Same risk in committee minutes.',
      }),
    );
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ status: 'action_plan', abilities: { plan: true, close: false } });
    expect((await owner.post(`${s.base}/findings/${f.id}/close`, { note: 'Fixed' })).statusCode).toBe(403);
    // Not every action is done: the admin may not close yet.
    const early = await s.admin.post(`${s.base}/findings/${f.id}/close`, { note: 'Fixed' });
    expect(early.statusCode).toBe(400);
    expect(early.json().message).toBe('Finish every action of the plan before closing the finding.');
    const done = plan({
      leadership_involvement: 'The CNO reviews weekly.',
      preventive_analysis: 'Same risk in committee minutes.',
      actions: [{ what: 'Add a signature check', owner_id: s.people.owner.id, due: '2026-12-15', done: true }],
    });
    expect((await owner.put(`${s.base}/findings/${f.id}/plan`, done)).statusCode).toBe(200);
    const closed = await s.admin.post(`${s.base}/findings/${f.id}/close`, { note: 'Checked ten minutes: all signed.' });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json()).toMatchObject({ status: 'closed', closed_note: 'Checked ten minutes: all signed.' });
    expect(closed.json().plan.actions[0].owner).toEqual({ id: s.people.owner.id, name: 'Owen Owner' });
    // A closed finding's plan is frozen until it is reopened.
    expect((await owner.put(`${s.base}/findings/${f.id}/plan`, done)).statusCode).toBe(409);
    const reopened = await s.admin.post(`${s.base}/findings/${f.id}/reopen`, { note: 'Found two more unsigned.' });
    expect(reopened.json()).toMatchObject({ status: 'action_plan', closed_note: '' });
  });

  it('corrects a finding with its version: the cell and citation day move the due date; a stale save is refused', async () => {
    ctx.clock.set(TODAY);
    const s = await standardsSetup(ctx);
    const f = await withFinding(s);
    const changed = await s.admin.put(`${s.base}/findings/${f.id}`, {
      ...finding({ cited_on: '2026-11-25', immediate_threat: true }),
      version: f.version,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ due_date: '2026-11-28', immediate_threat: true, version: f.version + 1 });
    const stale = await s.admin.put(`${s.base}/findings/${f.id}`, { ...finding(), version: f.version });
    expect(stale.statusCode).toBe(409);
  });

  it('sustains through a measure: closes when its actions are done and the measure met the target, also by the job', async () => {
    ctx.clock.set(TODAY);
    const s = await standardsSetup(ctx);
    // 95 % every month of 2026 against a 90 % target (November, the current month, is provisional).
    const measure = await addComplianceMeasure(db(), s.project.id, repeat(11, [19, 20]), '2026-01-01');
    await addTarget(db(), measure, 90, '2025-01-01');
    const f = await withFinding(s, { cited_on: '2026-06-15' });
    const foreign = await addComplianceMeasure(db(), s.other.id, repeat(2, [1, 2]), '2026-01-01');
    const refused = await s.admin.put(`${s.base}/findings/${f.id}/plan`, plan({ measure_id: foreign.id }));
    expect(refused.json().errors).toEqual({ measure_id: ['Choose a measure of this project.'] });
    const doneActions = [{ what: 'Retrain', owner_id: null, due: null, done: true }];
    const saved = await s.admin.put(
      `${s.base}/findings/${f.id}/plan`,
      plan({ measure_id: measure.id, success_periods: 3, actions: doneActions }),
    );
    expect(saved.json().sustain).toMatchObject({
      measure: { id: measure.id },
      target: 90,
      required: 3,
      met: true,
      latest: [
        { period: '2026-08-01', value: 95, met: true },
        { period: '2026-09-01', value: 95, met: true },
        { period: '2026-10-01', value: 95, met: true },
      ],
    });
    // Asking for 6 periods: only 4 complete ones after the citation, so not met, and neither the admin nor the job
    // may close it.
    await s.admin.put(
      `${s.base}/findings/${f.id}/plan`,
      plan({ measure_id: measure.id, success_periods: 6, actions: doneActions }),
    );
    expect((await s.admin.post(`${s.base}/findings/${f.id}/close`, { note: 'Done' })).statusCode).toBe(400);
    expect(await unsafeCloseSustainedFindings(db(), TODAY)).toEqual([]);
    await s.admin.put(
      `${s.base}/findings/${f.id}/plan`,
      plan({ measure_id: measure.id, success_periods: 4, actions: doneActions }),
    );
    expect(await unsafeCloseSustainedFindings(db(), TODAY)).toEqual([f.id]);
    const [row] = await db().select().from(stdFindings).where(eq(stdFindings.id, f.id));
    expect(row).toMatchObject({ status: 'closed' });
    expect((await auditOf(db(), s.project.id, 'standards.finding_auto_closed')).length).toBe(1);
  });

  it('reads readiness: assessed in 12 months, compliance by chapter, the SAFER grid, due corrections, policy evidence', async () => {
    ctx.clock.set(TODAY);
    const s = await standardsSetup(ctx);
    for (const [ref, result] of [
      ['GOV.1.1', 'compliant'],
      ['GOV.1.2', 'non_compliant'],
      ['IC.1.1', 'compliant'],
    ] as const) {
      expect((await saveElement(s.admin, s.base, s.reqs[ref], { result })).statusCode).toBe(200);
    }
    await saveElement(s.admin, s.base, s.reqs['OB.1'], { result: 'not_applicable', na_justification: 'No births.' });
    await withFinding(s, { likelihood: 'high', scope: 'widespread' });
    await withFinding(s, { likelihood: 'low', scope: 'limited', immediate_threat: true, cited_on: '2026-11-01' });
    const expired = await addPolicy(db(), s.project.id, { title: 'Board bylaws', number: '1.1' });
    await db().update(policyDocuments).set({ nextReviewOn: '2026-10-01' }).where(eq(policyDocuments.id, expired.id));
    await s.admin.post(`${s.base}/links`, {
      node_id: s.nodes['GOV.1.1'],
      target_type: 'policy',
      target_id: expired.id,
      note: '',
    });
    const answer = await (await ctx.signedIn(s.people.viewer)).get(`${s.base}/assessments/${s.assessmentId}/readiness`);
    expect(answer.statusCode, answer.body).toBe(200);
    const r = answer.json() as StdReadiness;
    expect(r).toMatchObject({ applicable: 5, assessed_12m: 3, immediate_threats: 1 });
    expect(r.chapters.map((c) => [c.ref_id, c.score])).toEqual([
      ['GOV', 0.5],
      ['IC', 1],
      ['OB', null],
    ]);
    expect(r.safer.filter((c) => c.count > 0)).toEqual([
      { likelihood: 'low', scope: 'limited', count: 1 },
      { likelihood: 'high', scope: 'widespread', count: 1 },
    ]);
    // The immediate threat (due 3 days after 1 November) is overdue and comes first.
    expect(r.due_corrections.map((f) => [f.due_date, f.overdue])).toEqual([
      ['2026-11-04', true],
      ['2027-01-19', false],
    ]);
    expect(r.policy_evidence).toEqual([
      {
        policy_id: expired.id,
        number: '1.1',
        title: 'Board bylaws',
        next_review_on: '2026-10-01',
        state: 'expired',
        elements: [{ req_id: s.reqs['GOV.1.1'], ref_id: 'GOV.1.1' }],
      },
    ]);
  });

  it('exports the gap report: applicable elements short of compliant, escaped, audited', async () => {
    ctx.clock.set(TODAY);
    const s = await standardsSetup(ctx);
    await saveElement(s.admin, s.base, s.reqs['GOV.1.1'], {
      result: 'non_compliant',
      observation: '=HYPERLINK("http://evil")',
    });
    await saveElement(s.admin, s.base, s.reqs['GOV.1.2'], { result: 'compliant' });
    await saveElement(s.admin, s.base, s.reqs['OB.1'], { result: 'not_applicable', na_justification: 'No births.' });
    await withFinding(s, { text: 'Unsigned minutes' });
    const answer = await s.admin.get(`${s.base}/assessments/${s.assessmentId}/gap-report.csv`);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toContain('text/csv');
    expect(answer.headers['content-disposition']).toContain('gap-report-self-assessment-2026-2026-11-27.csv');
    const lines = answer.body.trim().split('\r\n');
    expect(lines[0]).toBe(
      'Chapter,Ref,Title,Result,Status,Owner,Due,Overdue,Observation,Facility wording,Open findings',
    );
    // Compliant (GOV.1.2) and not applicable (OB.1) elements are not gaps.
    expect(lines.slice(1).map((line) => line.split(',')[1])).toEqual(['GOV.1.1', 'GOV.2.1', 'IC.1.1', 'IC.1.2']);
    expect(answer.body).toContain(`"'=HYPERLINK(""http://evil"")"`);
    expect(answer.body).toContain('Unsigned minutes (due 2027-01-19)');
    expect((await auditOf(db(), s.project.id, 'standards.gap_report_exported'))[0]?.data).toEqual({ rows: 4 });
  });

  it('runs tracers: guarded, case codes only, findings on elements of the tracer’s assessment with source tracer', async () => {
    ctx.clock.set(TODAY);
    const s = await standardsSetup(ctx);
    const tracer = {
      kind: 'individual',
      title: 'Patient from ED to ward 3',
      traced_on: '2026-11-25',
      unit: 'Ward 3',
      lead_id: s.people.assessor.id,
      case_code: 'T-0042',
      summary: 'Followed admission, medication and discharge.',
    };
    const assessor = await ctx.signedIn(s.people.assessor);
    const created = await assessor.post(`${s.base}/assessments/${s.assessmentId}/tracers`, tracer);
    expect(created.statusCode, created.body).toBe(201);
    const t = created.json();
    expect(t).toMatchObject({
      kind: 'individual',
      lead: { id: s.people.assessor.id },
      findings: 0,
      case_code: 'T-0042',
    });
    const calls: GuardedCall[] = [
      { method: 'GET', path: `/assessments/${s.assessmentId}/tracers`, viewer: true, namesRow: true },
      { method: 'POST', path: `/assessments/${s.assessmentId}/tracers`, body: tracer, viewer: false, namesRow: true },
      { method: 'GET', path: `/tracers/${t.id}`, viewer: true, namesRow: true },
      { method: 'PUT', path: `/tracers/${t.id}`, body: tracer, viewer: false, namesRow: true },
      {
        method: 'POST',
        path: `/tracers/${t.id}/findings`,
        body: { ...finding(), source: undefined, req_id: s.reqs['OB.1'] },
        viewer: false,
        namesRow: true,
      },
    ];
    await expectGuards(ctx, s, calls);
    // A name or a record number is not a case code; owners do not run tracers.
    const named = await assessor.post(`${s.base}/assessments/${s.assessmentId}/tracers`, {
      ...tracer,
      case_code: 'Smith, John',
    });
    expect(named.statusCode).toBe(400);
    expect(named.json().errors.case_code[0]).toContain('never a name or medical record number');
    const owner = await ctx.signedIn(s.people.owner);
    expect((await owner.post(`${s.base}/assessments/${s.assessmentId}/tracers`, tracer)).statusCode).toBe(403);
    // The finding: source tracer, linked to the tracer, on the element chosen.
    const { source: _source, ...body } = finding({ text: 'Reconciliation not done at transfer.' });
    const recorded = await assessor.post(`${s.base}/tracers/${t.id}/findings`, { ...body, req_id: s.reqs['IC.1.1'] });
    expect(recorded.statusCode, recorded.body).toBe(201);
    expect(recorded.json()).toMatchObject({ source: 'tracer', tracer_id: t.id, ref_id: 'IC.1.1' });
    // An element of another assessment is refused.
    const second = await s.admin.post(`${s.base}/assessments`, {
      framework_id: s.framework.id,
      name: 'Mock survey',
      kind: 'mock',
      scope_note: '',
      survey_window_start: null,
      survey_window_end: null,
      not_applicable: [],
      owners: [],
    });
    const [otherReq] = await db()
      .select({ id: stdReqAssessments.id })
      .from(stdReqAssessments)
      .where(eq(stdReqAssessments.assessmentId, second.json().id));
    const wrong = await assessor.post(`${s.base}/tracers/${t.id}/findings`, { ...body, req_id: otherReq!.id });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors.req_id).toEqual(['Choose an element of the assessment this tracer belongs to.']);
    const read = await (await ctx.signedIn(s.people.viewer)).get(`${s.base}/tracers/${t.id}`);
    expect(read.json()).toMatchObject({ findings: 1, open_findings: 1, abilities: { edit: false } });
    expect(read.json().finding_list.map((f: { text: string }) => f.text)).toEqual([
      'Reconciliation not done at transfer.',
    ]);
  });
});
