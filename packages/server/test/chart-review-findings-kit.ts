import type { ScoredAnswer } from '@portal/shared';
import { and, eq, inArray } from 'drizzle-orm';
import type { Database } from '../src/db/client.js';
import { crSamples, type monMeasures, users } from '../src/db/schema/index.js';
import type { TestApp } from './app.js';
import { chartReviewProject, createTool, programInput, question } from './chart-review-kit.js';
import { insertCase, insertResult, insertSample } from './chart-review-results-kit.js';
import { addDataset, addMeasure, addMonthlyRows } from './monitoring-data-kit.js';
import { insertPage } from './monitoring-kit.js';

/**
 * Fixtures of the findings and action plan tests: reviewed cases as the review part will leave them (a sample per
 * programme period, its selected cases and their `cr_case_results`), inserted directly, so these tests do not depend
 * on the sampling and review calls.
 */

export interface KitResult {
  unit: string | null;
  answers: Record<string, ScoredAnswer>;
  /** false: waiting for adjudication, in no rate. */
  counts?: boolean;
}

let nextCase = 1;

/**
 * Reviewed cases of one programme period with their results, through the results kit (the period's sample is made
 * when missing).
 */
export async function addResults(
  db: Database,
  where: { projectId: number; programId: number; toolVersionId: number; period: string },
  results: readonly KitResult[],
): Promise<void> {
  const [found] = await db
    .select()
    .from(crSamples)
    .where(and(eq(crSamples.programId, where.programId), eq(crSamples.periodStart, where.period)));
  const sample =
    found ??
    (await insertSample(db, {
      projectId: where.projectId,
      programId: where.programId,
      periodStart: where.period,
      toolVersionId: where.toolVersionId,
    }));
  for (const result of results) {
    const kase = await insertCase(db, sample, {
      code: `CR-KIT-${String(nextCase++).padStart(5, '0')}`,
      unit: result.unit,
    });
    await insertResult(db, kase, {
      toolVersionId: where.toolVersionId,
      answers: result.answers,
      counts: result.counts ?? true,
    });
  }
}

/** `count` copies of the same result. */
export const times = (count: number, result: KitResult): KitResult[] => Array.from({ length: count }, () => result);

/** A proportion measure of the project (compliance in percent, higher is better) on the kit dataset's columns. */
export async function addComplianceMeasure(
  db: Database,
  projectId: number,
  months: readonly (readonly [number, number])[],
  from: string,
  values: Partial<typeof monMeasures.$inferInsert> = {},
) {
  const page = await insertPage(db, projectId, { title: 'Pain audit' });
  const dataset = await addDataset(db, projectId, { name: 'Pain audit results' });
  await addMonthlyRows(db, dataset, from, months);
  return addMeasure(db, projectId, page.id, dataset.id, {
    name: 'Pain reassessment compliance',
    type: 'proportion',
    multiplier: 100,
    unitLabel: '%',
    direction: 'up',
    chartDefault: 'p',
    ...values,
  });
}

/**
 * A chart review project (chartReviewProject) with the tool "Pain" (two questions, version 1 published, then a
 * version 2 that rewords the first) and a monthly programme on two wards with a 90 % target owned by the lead.
 */
export async function findingsProject(ctx: TestApp) {
  const db = ctx.db.handle.db;
  const s = await chartReviewProject(db);
  // The accounts are made "today" by the app's clock, which tests may set far ahead: their two-factor grace period
  // (counted from the account's creation) is not what these tests are about.
  await db
    .update(users)
    .set({ createdAt: ctx.clock.now() })
    .where(
      inArray(
        users.id,
        Object.values(s.people).map((p) => p.id),
      ),
    );
  const lead = await ctx.signedIn(s.people.lead);
  const tool = await createTool(lead, s.base, 'Pain', [
    question('pain_reassessed', { text: 'Pain reassessed within 1 hour' }),
    question('pain_scored', { text: 'Pain score recorded' }),
  ]);
  const draft = await lead.post(`${s.base}/tools/${tool.id}/versions`, {});
  const draftId = (draft.json() as { id: number }).id;
  const reworded = await lead.put(`${s.base}/tool-versions/${draftId}/questions`, {
    questions: [
      question('pain_reassessed', { text: 'Pain reassessed within 60 minutes' }),
      question('pain_scored', { text: 'Pain score recorded' }),
    ],
  });
  if (reworded.statusCode !== 200) throw new Error(reworded.body);
  const published = await lead.post(`${s.base}/tool-versions/${draftId}/publish`, { note: 'Minutes' });
  if (published.statusCode !== 200) throw new Error(published.body);
  const created = await lead.post(
    `${s.base}/programs`,
    programInput(tool.id, { name: 'Pain audit', units: ['Ward A', 'Ward B'], owner_id: s.people.lead.id }),
  );
  if (created.statusCode !== 201) throw new Error(created.body);
  const program = created.json() as { id: number };
  const at = { projectId: s.project.id, programId: program.id, toolVersionId: draftId };
  return { ...s, lead, tool, program, at };
}
export type FindingsSetup = Awaited<ReturnType<typeof findingsProject>>;
