import { CR_DEFAULT_PRIVILEGE_LABEL, type CrProgramInput, type CrSample } from '@portal/shared';
import { expect } from 'vitest';
import { crSettings } from '../src/db/schema/index.js';
import type { Agent } from './agent.js';
import type { TestApp } from './app.js';
import { addSecondReviewer, chartReviewProject, createTool, programInput, question } from './chart-review-kit.js';
import { multipart } from './policy-kit.js';

/**
 * Fixtures of the sampling API tests (chart review part 2): a project with a published tool, a monthly programme
 * on Ward A and Ward B, a second reviewer, and helpers to upload an eligible-case list and draw it. The new reviewer
 * rule is off (`new_reviewer_match_min` 0) unless `newReviewerRule` is set: these reviewers have no second reviews
 * yet, so the rule would give every case a second review; its own test turns it on.
 */
export async function samplingSetup(
  ctx: TestApp,
  overrides: Partial<CrProgramInput> = {},
  options: { newReviewerRule?: boolean } = {},
) {
  const db = ctx.db.handle.db;
  const s = await chartReviewProject(db);
  await db
    .insert(crSettings)
    .values({
      projectId: s.project.id,
      privilegeLabel: CR_DEFAULT_PRIVILEGE_LABEL,
      newReviewerMatchMin: options.newReviewerRule ? 0.97 : 0,
    })
    .onConflictDoNothing();
  const reviewer2 = await addSecondReviewer(db, s);
  const lead = await ctx.signedIn(s.people.lead);
  const tool = await createTool(lead, s.base, 'Falls', [question('fall_risk'), question('care_plan')]);
  const created = await lead.post(
    `${s.base}/programs`,
    programInput(tool.id, { sampling: { method: 'fixed', n: 4 }, irr_rate: 0, ...overrides }),
  );
  expect(created.statusCode, created.body).toBe(201);
  const program = created.json() as { id: number };
  return { ...s, reviewer2, lead, tool, program };
}
export type SamplingSetup = Awaited<ReturnType<typeof samplingSetup>>;

/** An eligible-case list: `n` rows ENC-0001.., the units in turn, discharged in March 2026. */
export function eligibleCsv(n: number, units: (string | null)[] = ['Ward A', 'Ward B']): string {
  const lines = ['Encounter,Unit,Discharge date'];
  for (let i = 1; i <= n; i++) {
    const unit = units[(i - 1) % units.length] ?? '';
    lines.push(`ENC-${String(i).padStart(4, '0')},${unit},2026-03-${String((i % 28) + 1).padStart(2, '0')}`);
  }
  return `${lines.join('\n')}\n`;
}

/** POST .../programs/{id}/samples with a period and a CSV text. */
export function uploadList(
  agent: Agent,
  s: { base: string },
  programId: number,
  csv: string | Buffer,
  periodStart = '2026-03-01',
  fileName = 'eligible.csv',
) {
  const form = multipart(
    { period_start: periodStart },
    { name: fileName, data: Buffer.isBuffer(csv) ? csv : Buffer.from(csv), type: 'text/csv' },
  );
  return agent.request({
    method: 'POST',
    url: `${s.base}/programs/${programId}/samples`,
    payload: form.payload,
    headers: form.headers,
  });
}

/** Uploads a list and draws it with a fixed seed; answers the drawn sample. */
export async function drawnSample(
  s: SamplingSetup,
  options: { csv?: string; seed?: string; plan?: unknown } = {},
): Promise<CrSample> {
  const uploaded = await uploadList(s.lead, s, s.program.id, options.csv ?? eligibleCsv(10));
  expect(uploaded.statusCode, uploaded.body).toBe(201);
  const sample = uploaded.json() as CrSample;
  const drawn = await s.lead.post(`${s.base}/samples/${sample.id}/draw`, {
    seed: options.seed ?? 'seed-1',
    ...(options.plan ? { plan: options.plan } : {}),
  });
  expect(drawn.statusCode, drawn.body).toBe(200);
  return drawn.json() as CrSample;
}

/** Sets chart review settings of the project directly. */
export async function setSettings(
  ctx: TestApp,
  projectId: number,
  values: Partial<typeof crSettings.$inferInsert>,
): Promise<void> {
  const db = ctx.db.handle.db;
  await db
    .insert(crSettings)
    .values({ projectId, privilegeLabel: 'Privileged', ...values })
    .onConflictDoUpdate({ target: crSettings.projectId, set: values });
}
