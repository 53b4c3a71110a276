import { createHash } from 'node:crypto';
import type { Database } from '../src/db/client.js';
import { crAssignments, crCases, crSamples } from '../src/db/schema/index.js';
import type { ChartReviewSetup } from './chart-review-kit.js';

/**
 * A locked sample with cases and review assignments, inserted directly (as the sampling part leaves them after the
 * lock), for the tests of what comes after: reviews, results, reliability, dashboards and findings. Each case gets a
 * primary review and, with `secondReviewerId`, a blind second review, both on `toolVersionId`, due `dueAt`
 * (default: 14 days after the period start).
 */
export interface LockedCaseInput {
  unit: string | null;
  reviewerId: number;
  secondReviewerId?: number;
  /** YYYY-MM-01; default: the period start. */
  dischargeMonth?: string;
  /** A stored (encrypted) encounter reference; any text stands in for the cipher here. Default: none. */
  encounterRefEnc?: string;
  dueAt?: string;
}

export interface LockedCase {
  id: number;
  caseCode: string;
  unit: string | null;
  primaryId: number;
  secondId: number | null;
}

let caseNumber = 0;

export async function lockedSample(
  db: Database,
  setup: Pick<ChartReviewSetup, 'project'>,
  input: { toolVersionId: number; programId: number; cases: LockedCaseInput[]; periodStart: string },
): Promise<{ sampleId: number; cases: LockedCase[] }> {
  const projectId = setup.project.id;
  const due = new Date(`${input.periodStart}T00:00:00Z`);
  due.setUTCDate(due.getUTCDate() + 14);
  const [sample] = await db
    .insert(crSamples)
    .values({
      projectId,
      programId: input.programId,
      periodStart: input.periodStart,
      fileName: 'eligible.csv',
      fileSha256: createHash('sha256').update(`${input.programId}:${input.periodStart}`).digest('hex'),
      rowCount: input.cases.length,
      status: 'locked',
      plan: { method: 'all' },
      seed: 'test-seed',
      algorithm: 'sfc32-cyrb128-fisher-yates-v1',
      size: input.cases.length,
      byStratum: [],
      toolVersionId: input.toolVersionId,
      drawnAt: new Date(),
      lockedAt: new Date(),
    })
    .returning({ id: crSamples.id });
  const cases: LockedCase[] = [];
  for (const [index, c] of input.cases.entries()) {
    caseNumber++;
    const caseCode = `CR-${input.periodStart.slice(0, 7)}-${String(caseNumber).padStart(4, '0')}`;
    const [row] = await db
      .insert(crCases)
      .values({
        projectId,
        sampleId: sample!.id,
        programId: input.programId,
        periodStart: input.periodStart,
        caseCode,
        unit: c.unit,
        dischargeMonth: c.dischargeMonth ?? input.periodStart,
        encounterRefEnc: c.encounterRefEnc ?? null,
        refHash: createHash('sha256').update(`${sample!.id}:${index}:${caseCode}`).digest('hex'),
        stratum: c.unit,
        sampleRank: index + 1,
        status: 'selected',
      })
      .returning({ id: crCases.id });
    const assignment = (reviewerId: number, role: 'primary' | 'second') => ({
      projectId,
      caseId: row!.id,
      programId: input.programId,
      toolVersionId: input.toolVersionId,
      reviewerId,
      role,
      blind: role === 'second',
      dueAt: c.dueAt ?? due.toISOString().slice(0, 10),
    });
    const [primary] = await db
      .insert(crAssignments)
      .values(assignment(c.reviewerId, 'primary'))
      .returning({ id: crAssignments.id });
    const [second] =
      c.secondReviewerId === undefined
        ? []
        : await db
            .insert(crAssignments)
            .values(assignment(c.secondReviewerId, 'second'))
            .returning({ id: crAssignments.id });
    cases.push({ id: row!.id, caseCode, unit: c.unit, primaryId: primary!.id, secondId: second?.id ?? null });
  }
  return { sampleId: sample!.id, cases };
}
