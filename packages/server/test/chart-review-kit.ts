import { ACCESS_DENIED, type CrProgramInput, type CrQuestionInput } from '@portal/shared';
import { asc, count, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Database } from '../src/db/client.js';
import {
  auditEvents,
  crAccessLog,
  crActionPlans,
  crAnswers,
  crAssignments,
  crCaseResults,
  crCases,
  crFindings,
  crIrrPairs,
  crPrograms,
  crQuestions,
  crReviewerUnits,
  crSamples,
  crSettings,
  crTools,
  crToolVersions,
  projects,
} from '../src/db/schema/index.js';
import type { Agent } from './agent.js';
import type { TestApp } from './app.js';
import { addMember, createProject, createUser, setMainRole } from './factories.js';
import { expectAppGuards, type GuardedCall, sendCall } from './guards-kit.js';

/**
 * Fixtures shared by the chart review API tests (issue 10): a project with chart review on (and monitoring, for
 * measure links), its people by chart review main role, a superadmin, and an outsider who administers chart review
 * in another project.
 */
export async function chartReviewProject(db: Database) {
  const project = await createProject(db, { name: 'North Clinic', activeApps: ['chart_review', 'monitoring'] });
  const other = await createProject(db, { name: 'South Clinic', activeApps: ['chart_review', 'monitoring'] });
  const people = {
    admin: await createUser(db, { firstName: 'Ada', lastName: 'Admin' }),
    lead: await createUser(db, { firstName: 'Leo', lastName: 'Lead' }),
    reviewer: await createUser(db, { firstName: 'Rita', lastName: 'Reviewer' }),
    viewer: await createUser(db, { firstName: 'Vera', lastName: 'Viewer' }),
    noRole: await createUser(db, { firstName: 'Nora', lastName: 'None' }),
    outsider: await createUser(db, { firstName: 'Olga', lastName: 'Outside' }),
    superadmin: await createUser(db, { firstName: 'Sam', lastName: 'Super', role: 'superadmin' }),
  };
  await addMember(db, project.id, people.admin.id, 'admin');
  for (const who of ['lead', 'reviewer', 'viewer', 'noRole'] as const) {
    await addMember(db, project.id, people[who].id, 'simple');
  }
  await addMember(db, other.id, people.outsider.id, 'admin');
  await setMainRole(db, project.id, people.admin.id, 'chart_review', 'chart_review_admin');
  await setMainRole(db, project.id, people.lead.id, 'chart_review', 'program_lead');
  await setMainRole(db, project.id, people.reviewer.id, 'chart_review', 'reviewer');
  await setMainRole(db, project.id, people.viewer.id, 'chart_review', 'viewer');
  await setMainRole(db, other.id, people.outsider.id, 'chart_review', 'chart_review_admin');
  const base = `/api/projects/${project.id}/chart-review`;
  const otherBase = `/api/projects/${other.id}/chart-review`;
  return { project, other, people, base, otherBase };
}
export type ChartReviewSetup = Awaited<ReturnType<typeof chartReviewProject>>;

/** Rob Second, a second reviewer of the project (for the reliability share and adjudication). */
export async function addSecondReviewer(db: Database, s: Pick<ChartReviewSetup, 'project'>) {
  const rob = await createUser(db, { firstName: 'Rob', lastName: 'Second' });
  await addMember(db, s.project.id, rob.id, 'simple');
  await setMainRole(db, s.project.id, rob.id, 'chart_review', 'reviewer');
  return rob;
}

/** A valid question input; `overrides` changes what a test is about. */
export const question = (key: string, overrides: Partial<CrQuestionInput> = {}): CrQuestionInput => ({
  key,
  section: '',
  text: `Is ${key.replaceAll('_', ' ')} documented?`,
  help: '',
  answer_type: 'yes_no_na',
  weight: 1,
  critical: false,
  na_allowed: true,
  na_reason_required: false,
  show_if: '',
  ...overrides,
});

/** A valid programme input for a tool. */
export const programInput = (toolId: number, overrides: Partial<CrProgramInput> = {}): CrProgramInput => ({
  name: 'Falls prevention audit',
  tool_id: toolId,
  pinned_version_id: null,
  units: ['Ward A', 'Ward B'],
  grain: 'month',
  sampling: { method: 'jc_table' },
  due_days: 14,
  irr_rate: 0.05,
  target: 0.9,
  owner_id: null,
  status: 'active',
  mon_measure_id: null,
  ...overrides,
});

/** Creates a tool through the API; with questions, saves them on version 1 and publishes it. */
export async function createTool(
  agent: Agent,
  base: string,
  name: string,
  questions: CrQuestionInput[] = [],
): Promise<{ id: number; versionId: number }> {
  const created = await agent.post(`${base}/tools`, { name, purpose: `Audit of ${name}` });
  expect(created.statusCode, created.body).toBe(201);
  const tool = created.json() as { id: number; draft: { id: number } };
  if (questions.length > 0) {
    const saved = await agent.put(`${base}/tool-versions/${tool.draft.id}/questions`, { questions });
    expect(saved.statusCode, saved.body).toBe(200);
    const published = await agent.post(`${base}/tool-versions/${tool.draft.id}/publish`, { note: '' });
    expect(published.statusCode, published.body).toBe(200);
  }
  return { id: tool.id, versionId: tool.draft.id };
}

/** Every chart review row of every project and the number of audit events: "nothing changed" compares two. */
export async function chartReviewSnapshot(db: Database) {
  return {
    settings: await db.select().from(crSettings).orderBy(asc(crSettings.projectId)),
    tools: await db.select().from(crTools).orderBy(asc(crTools.id)),
    versions: await db.select().from(crToolVersions).orderBy(asc(crToolVersions.id)),
    questions: await db.select().from(crQuestions).orderBy(asc(crQuestions.id)),
    programs: await db.select().from(crPrograms).orderBy(asc(crPrograms.id)),
    samples: await db.select().from(crSamples).orderBy(asc(crSamples.id)),
    cases: await db.select().from(crCases).orderBy(asc(crCases.id)),
    assignments: await db.select().from(crAssignments).orderBy(asc(crAssignments.id)),
    answers: await db.select().from(crAnswers).orderBy(asc(crAnswers.assignmentId), asc(crAnswers.questionId)),
    pairs: await db.select().from(crIrrPairs).orderBy(asc(crIrrPairs.id)),
    results: await db.select().from(crCaseResults).orderBy(asc(crCaseResults.caseId)),
    findings: await db.select().from(crFindings).orderBy(asc(crFindings.id)),
    plans: await db.select().from(crActionPlans).orderBy(asc(crActionPlans.findingId)),
    reviewerUnits: await db
      .select()
      .from(crReviewerUnits)
      .orderBy(asc(crReviewerUnits.userId), asc(crReviewerUnits.unit)),
    accessLog: await db.select().from(crAccessLog).orderBy(asc(crAccessLog.id)),
    audit: (await db.select({ n: count() }).from(auditEvents))[0]!.n,
  };
}

export type { GuardedCall } from './guards-kit.js';

/** The guards of chart review's calls (expectAppGuards), with its refusal messages and tables. */
export function expectGuards(ctx: TestApp, s: ChartReviewSetup, calls: GuardedCall[]): Promise<void> {
  return expectAppGuards(ctx, s, calls, {
    unconfigured: ACCESS_DENIED.unconfigured.chart_review,
    forbidden: ACCESS_DENIED.forbidden,
    snapshot: chartReviewSnapshot,
  });
}

/** Asserts every call answers 404 once the project has chart review switched off, and nothing changes. */
export async function expectSwitchedOff(ctx: TestApp, s: ChartReviewSetup, calls: GuardedCall[]): Promise<void> {
  const db = ctx.db.handle.db;
  await db
    .update(projects)
    .set({ activeApps: ['monitoring'] })
    .where(eq(projects.id, s.project.id));
  const admin = await ctx.signedIn(s.people.admin);
  const before = await chartReviewSnapshot(db);
  for (const call of calls) {
    const answer = await sendCall(admin, call, s.base);
    expect(answer.statusCode, `${call.method} ${call.path}`).toBe(404);
    expect(answer.json().message).toBe('Chart review is not switched on for this project.');
  }
  expect(await chartReviewSnapshot(db)).toEqual(before);
}
