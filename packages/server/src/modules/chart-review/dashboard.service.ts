import {
  type CrCompliance,
  type CrComplianceQuery,
  type CrDashboard,
  type CrDashboardList,
  type CrDashboardProgram,
  type CrGrain,
  type CrPeriod,
  type CrProgramStatus,
  type CrRangeQuery,
  type CrRate,
  periodLabel,
  periodStart,
  type ScoredAnswer,
} from '@portal/shared';
import { and, asc, count, desc, eq, gte, inArray, lte, ne, sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../db/client.js';
import { nameOf } from '../../db/person-name.js';
import {
  crAssignments,
  crCaseResults,
  crCases,
  crFindings,
  crIrrPairs,
  crPrograms,
  crQuestions,
  crSamples,
  crToolVersions,
  users,
} from '../../db/schema/index.js';
import { csvLine } from '../../lib/csv-export.js';
import { AppError } from '../../lib/errors.js';
import { type ChartReviewActor, mayUse } from '../../policies/chart-review.js';
import {
  allAnswers,
  allKeys,
  allOrNone,
  answerOf,
  belowTarget,
  complianceTrend,
  latestQuestions,
  meanScore,
  type Options,
  orderedKeys,
  overallCompliance,
  type QuestionRow,
  type ResultRow,
  rateOfAnswers,
} from './compliance.js';
import { pairsReliability } from './irr.service.js';
import { loadProgram } from './programs.service.js';
import { chartReviewAudit } from './route-kit.js';
import { loadSettings } from './settings.service.js';

/**
 * The programme dashboard, compliance figures and the de-identified export (DOMAIN.md 2.3-2.5; docs/chart-review.md
 * "Dashboard"). Everything is read from the materialised case results (`cr_case_results`) and the sample, review,
 * second-review and finding rows, always filtered on the actor's project: another project's programme answers 404.
 * The figures come from the shared engines through compliance.ts.
 */

type ProgramRow = typeof crPrograms.$inferSelect;

const NO_SAMPLE = 'This programme has no sample for this period.';

const grainOf = (program: ProgramRow) => program.grain as CrGrain;
const periodOf = (start: string, grain: CrGrain): CrPeriod => ({
  period_start: start,
  label: periodLabel(start, grain),
});
/** Today as an ISO date (UTC), from the injectable clock. */
const dayOf = (now: Date) => now.toISOString().slice(0, 10);

/** The programme's samples (period and tool version), newest first. */
async function samplesOf(db: DbOrTx, projectId: number, programId: number) {
  return db
    .select({ periodStart: crSamples.periodStart, toolVersionId: crSamples.toolVersionId })
    .from(crSamples)
    .where(and(eq(crSamples.projectId, projectId), eq(crSamples.programId, programId)))
    .orderBy(desc(crSamples.periodStart));
}

/** The programme's case results, optionally for one period or a range of periods. */
async function resultsOf(
  db: DbOrTx,
  projectId: number,
  programId: number,
  range: { from?: string; to?: string } = {},
): Promise<ResultRow[]> {
  const rows = await db
    .select({
      caseId: crCaseResults.caseId,
      periodStart: crCaseResults.periodStart,
      unit: crCaseResults.unit,
      toolVersionId: crCaseResults.toolVersionId,
      score: crCaseResults.score,
      allOrNone: crCaseResults.allOrNone,
      answers: crCaseResults.answers,
      counts: crCaseResults.counts,
    })
    .from(crCaseResults)
    .where(
      and(
        eq(crCaseResults.projectId, projectId),
        eq(crCaseResults.programId, programId),
        range.from === undefined ? undefined : gte(crCaseResults.periodStart, range.from),
        range.to === undefined ? undefined : lte(crCaseResults.periodStart, range.to),
      ),
    )
    .orderBy(asc(crCaseResults.periodStart), asc(crCaseResults.caseId));
  return rows.map((row) => ({ ...row, answers: (row.answers ?? {}) as Record<string, unknown> }));
}

/** Every question of every published or retired version of the programme's tool. */
async function questionsOf(db: DbOrTx, projectId: number, toolId: number): Promise<QuestionRow[]> {
  return db
    .select({
      key: crQuestions.key,
      text: crQuestions.text,
      position: crQuestions.position,
      critical: crQuestions.critical,
      toolVersionId: crQuestions.toolVersionId,
      version: crToolVersions.version,
    })
    .from(crQuestions)
    .innerJoin(
      crToolVersions,
      and(eq(crToolVersions.projectId, crQuestions.projectId), eq(crToolVersions.id, crQuestions.toolVersionId)),
    )
    .where(
      and(eq(crQuestions.projectId, projectId), eq(crToolVersions.toolId, toolId), ne(crToolVersions.status, 'draft')),
    );
}

/** Cases sampled, assigned, submitted, overdue and waiting for adjudication in one period. */
async function kpisOf(db: DbOrTx, projectId: number, programId: number, period: string, today: string) {
  const inPeriod = and(
    eq(crCases.projectId, projectId),
    eq(crCases.programId, programId),
    eq(crCases.periodStart, period),
    eq(crCases.status, 'selected'),
  );
  const [sampled] = await db.select({ n: count() }).from(crCases).where(inPeriod);
  const [reviews] = await db
    .select({
      assigned: count(),
      submitted: sql<number>`count(*) filter (where ${crAssignments.status} = 'submitted')::int`,
      overdue: sql<number>`count(*) filter (where ${crAssignments.status} <> 'submitted' and ${crAssignments.dueAt} < ${today})::int`,
    })
    .from(crAssignments)
    .innerJoin(crCases, and(eq(crCases.projectId, crAssignments.projectId), eq(crCases.id, crAssignments.caseId)))
    .where(and(inPeriod, eq(crAssignments.role, 'primary')));
  const [waiting] = await db
    .select({ n: count() })
    .from(crIrrPairs)
    .innerJoin(crCases, and(eq(crCases.projectId, crIrrPairs.projectId), eq(crCases.id, crIrrPairs.caseId)))
    .where(
      and(
        eq(crCases.projectId, projectId),
        eq(crCases.programId, programId),
        eq(crCases.periodStart, period),
        eq(crIrrPairs.status, 'disagreed'),
      ),
    );
  return {
    sampled: sampled?.n ?? 0,
    assigned: reviews?.assigned ?? 0,
    submitted: reviews?.submitted ?? 0,
    overdue: reviews?.overdue ?? 0,
    awaiting_adjudication: waiting?.n ?? 0,
  };
}

/** The programme's findings (every period) by status. */
async function findingCounts(db: DbOrTx, projectId: number, programId: number) {
  const rows = await db
    .select({ status: crFindings.status, n: count() })
    .from(crFindings)
    .where(and(eq(crFindings.projectId, projectId), eq(crFindings.programId, programId)))
    .groupBy(crFindings.status);
  const of = (status: string) => rows.find((r) => r.status === status)?.n ?? 0;
  return { open: of('open'), action_plan: of('action_plan'), closed: of('closed') };
}

/**
 * Reliability of one period: the second reviews compared with their primary review (agreed, disagreed or
 * adjudicated pairs), computed by the reliability screen's own function (irr.service.ts pairsReliability).
 */
async function reliabilityOf(
  db: DbOrTx,
  projectId: number,
  programId: number,
  period: string,
  settings: { irrKappaMin: number; irrAgreementMin: number },
): Promise<CrDashboard['reliability']> {
  const pairs = await db
    .select({
      primaryId: crIrrPairs.primaryAssignmentId,
      secondId: crIrrPairs.secondAssignmentId,
      toolVersionId: crAssignments.toolVersionId,
    })
    .from(crIrrPairs)
    .innerJoin(crCases, and(eq(crCases.projectId, crIrrPairs.projectId), eq(crCases.id, crIrrPairs.caseId)))
    .innerJoin(
      crAssignments,
      and(eq(crAssignments.projectId, crIrrPairs.projectId), eq(crAssignments.id, crIrrPairs.secondAssignmentId)),
    )
    .where(
      and(
        eq(crIrrPairs.projectId, projectId),
        eq(crCases.programId, programId),
        eq(crCases.periodStart, period),
        inArray(crIrrPairs.status, ['agreed', 'disagreed', 'adjudicated']),
      ),
    );
  const { questions, overall } = await pairsReliability(db, projectId, pairs, settings);
  return {
    pairs: pairs.length,
    items: overall.n,
    agreement: overall.percent,
    kappa: overall.kappa,
    pabak: overall.pabak,
    meets_thresholds: overall.meets,
    flagged: questions.filter((q) => q.flagged).map((q) => q.key),
    thresholds: { kappa_min: settings.irrKappaMin, agreement_min: settings.irrAgreementMin },
  };
}

const EMPTY_RATE: CrRate = { rate: null, n: 0, interval: null };

const noReliability = (settings: { irrKappaMin: number; irrAgreementMin: number }) => ({
  pairs: 0,
  items: 0,
  agreement: null,
  kappa: null,
  pabak: null,
  meets_thresholds: false,
  flagged: [],
  thresholds: { kappa_min: settings.irrKappaMin, agreement_min: settings.irrAgreementMin },
});

/**
 * The period a dashboard opens on: the newest with counted results (a month still being reviewed would open on
 * empty figures), else the newest sample. `samples` are newest first.
 */
function latestWithResults<T extends { periodStart: string }>(
  samples: readonly T[],
  counted: readonly { periodStart: string }[],
): T | undefined {
  const reviewed = new Set(counted.map((r) => r.periodStart));
  return samples.find((s) => reviewed.has(s.periodStart)) ?? samples[0];
}

/** GET /programs/{id}/dashboard?period= */
export async function getDashboard(
  db: DbOrTx,
  actor: ChartReviewActor,
  programId: number,
  requested: string | undefined,
  now: Date,
): Promise<CrDashboard> {
  const program = await loadProgram(db, actor.projectId, programId);
  const grain = grainOf(program);
  const settings = await loadSettings(db, actor.projectId);
  const options: Options = { partialEnabled: settings.partialEnabled };
  const samples = await samplesOf(db, actor.projectId, programId);
  const results = await resultsOf(db, actor.projectId, programId);
  const counted = results.filter((r) => r.counts);
  const sample =
    requested === undefined ? latestWithResults(samples, counted) : samples.find((s) => s.periodStart === requested);
  if (requested !== undefined && !sample) {
    throw new AppError('VALIDATION_FAILED', NO_SAMPLE, { period: [NO_SAMPLE] });
  }
  const questions = await questionsOf(db, actor.projectId, program.toolId);
  const latest = latestQuestions(questions);
  const target = program.target;
  const trend = complianceTrend(
    counted,
    samples.map((s) => s.periodStart),
    grain,
    target,
    options,
  );
  const base = {
    program: {
      id: program.id,
      name: program.name,
      grain,
      status: program.status as CrProgramStatus,
      units: program.units,
      target,
    },
    periods: samples.map((s) => periodOf(s.periodStart, grain)),
    privilege_label: settings.privilegeLabel,
    partial_enabled: settings.partialEnabled,
    trend,
    findings: await findingCounts(db, actor.projectId, programId),
    abilities: { findings: mayUse(actor, 'findings'), irr: mayUse(actor, 'irr') },
  };
  if (!sample) {
    return {
      ...base,
      period: null,
      kpis: { sampled: 0, assigned: 0, submitted: 0, overdue: 0, awaiting_adjudication: 0, counted: 0 },
      compliance: EMPTY_RATE,
      meets_target: null,
      all_or_none: EMPTY_RATE,
      mean_score: { mean: null, n: 0 },
      questions: [],
      units: [...program.units],
      heat_map: [],
      reliability: noReliability(settings),
    };
  }
  const period = sample.periodStart;
  const inPeriod = counted.filter((r) => r.periodStart === period);
  const versionId =
    sample.toolVersionId ??
    results.find((r) => r.periodStart === period)?.toolVersionId ??
    [...latest.values()].sort((a, b) => b.version - a.version)[0]?.toolVersionId ??
    null;
  const keys = orderedKeys(
    questions,
    versionId,
    results.filter((r) => r.periodStart === period),
  );
  const compliance = overallCompliance(inPeriod, options);
  const units = [...program.units];
  const known = new Set(units.map((u) => u.toLowerCase()));
  for (const r of inPeriod) {
    if (r.unit !== null && !known.has(r.unit.toLowerCase())) {
      known.add(r.unit.toLowerCase());
      units.push(r.unit);
    }
  }
  const sameUnit = (a: string | null, b: string) => a !== null && a.toLowerCase() === b.toLowerCase();
  const textOf = (key: string) => latest.get(key)?.text ?? key;
  return {
    ...base,
    period: periodOf(period, grain),
    kpis: { ...(await kpisOf(db, actor.projectId, programId, period, dayOf(now))), counted: inPeriod.length },
    compliance,
    meets_target: compliance.rate === null ? null : compliance.rate >= target,
    all_or_none: allOrNone(inPeriod),
    mean_score: meanScore(inPeriod),
    questions: keys.map((key) => {
      const { rate, n, interval } = rateOfAnswers(
        inPeriod.map((r) => answerOf(r, key)),
        options,
      );
      return {
        key,
        text: textOf(key),
        critical: latest.get(key)?.critical ?? false,
        rate,
        n,
        interval,
        below_target: belowTarget(rate, target),
      };
    }),
    units,
    heat_map: keys.map((key) => ({
      key,
      text: textOf(key),
      cells: units.map((unit) => {
        const { rate, n } = rateOfAnswers(
          inPeriod.filter((r) => sameUnit(r.unit, unit)).map((r) => answerOf(r, key)),
          options,
        );
        return { unit, rate, n };
      }),
    })),
    reliability: await reliabilityOf(db, actor.projectId, programId, period, settings),
  };
}

/** The range of periods a query names, as period starts of the programme's grain. */
function periodsOf(range: CrRangeQuery, grain: CrGrain): { from?: string; to?: string } {
  return {
    ...(range.from === undefined ? {} : { from: periodStart(range.from, grain) }),
    ...(range.to === undefined ? {} : { to: periodStart(range.to, grain) }),
  };
}

const NO_UNIT = 'No unit';

/** GET /programs/{id}/compliance?by=question|unit|reviewer&from=&to= */
export async function getCompliance(
  db: DbOrTx,
  actor: ChartReviewActor,
  programId: number,
  query: CrComplianceQuery,
): Promise<CrCompliance> {
  const program = await loadProgram(db, actor.projectId, programId);
  const settings = await loadSettings(db, actor.projectId);
  const options: Options = { partialEnabled: settings.partialEnabled };
  const counted = (await resultsOf(db, actor.projectId, programId, periodsOf(query, grainOf(program)))).filter(
    (r) => r.counts,
  );
  const group = (key: string, label: string, results: ResultRow[], values = allAnswers(results)) => {
    const { rate, n, interval } = rateOfAnswers(values, options);
    return { key, label, rate, n, interval, cases: results.length };
  };
  let groups: CrCompliance['groups'];
  if (query.by === 'question') {
    const questions = await questionsOf(db, actor.projectId, program.toolId);
    const latest = latestQuestions(questions);
    const keys = orderedKeys(
      questions,
      [...latest.values()].sort((a, b) => b.version - a.version)[0]?.toolVersionId ?? null,
      counted,
    );
    groups = keys.map((key) => {
      const applied = counted.filter((r) => answerOf(r, key) !== null);
      return group(
        key,
        latest.get(key)?.text ?? key,
        applied,
        applied.map((r) => answerOf(r, key)),
      );
    });
  } else if (query.by === 'unit') {
    const byUnit = new Map<string, { label: string; results: ResultRow[] }>();
    for (const unit of program.units) byUnit.set(unit.toLowerCase(), { label: unit, results: [] });
    for (const r of counted) {
      const key = (r.unit ?? '').toLowerCase();
      const entry = byUnit.get(key) ?? { label: r.unit ?? '', results: [] };
      entry.results.push(r);
      byUnit.set(key, entry);
    }
    groups = [...byUnit.values()].map(({ label, results }) => group(label, label || NO_UNIT, results));
  } else {
    const caseIds = counted.map((r) => r.caseId);
    const reviewers = caseIds.length
      ? await db
          .select({ caseId: crAssignments.caseId, reviewerId: crAssignments.reviewerId, name: nameOf(users) })
          .from(crAssignments)
          .innerJoin(users, eq(users.id, crAssignments.reviewerId))
          .where(
            and(
              eq(crAssignments.projectId, actor.projectId),
              eq(crAssignments.role, 'primary'),
              inArray(crAssignments.caseId, caseIds),
            ),
          )
      : [];
    const reviewerOf = new Map(reviewers.map((r) => [r.caseId, r]));
    const byReviewer = new Map<number, { label: string; results: ResultRow[] }>();
    for (const r of counted) {
      const reviewer = reviewerOf.get(r.caseId);
      if (!reviewer) continue;
      const entry = byReviewer.get(reviewer.reviewerId) ?? { label: reviewer.name, results: [] };
      entry.results.push(r);
      byReviewer.set(reviewer.reviewerId, entry);
    }
    groups = [...byReviewer]
      .sort(([, a], [, b]) => a.label.localeCompare(b.label))
      .map(([reviewerId, { label, results }]) => group(String(reviewerId), label, results));
  }
  const periods = counted.map((r) => r.periodStart).sort();
  return { by: query.by, from: periods[0] ?? null, to: periods[periods.length - 1] ?? null, groups };
}

/** The headline figures of one programme's latest reviewed period (latestWithResults), for the dashboard landing. */
async function headline(
  db: DbOrTx,
  projectId: number,
  program: ProgramRow,
  options: Options,
  today: string,
  openFindings: number,
): Promise<CrDashboardProgram> {
  const grain = grainOf(program);
  const counted = (await resultsOf(db, projectId, program.id)).filter((r) => r.counts);
  const latestSample = latestWithResults(await samplesOf(db, projectId, program.id), counted);
  const common = {
    id: program.id,
    name: program.name,
    status: program.status as CrProgramStatus,
    grain,
    target: program.target,
    open_findings: openFindings,
  };
  if (!latestSample) {
    return {
      ...common,
      period: null,
      compliance: EMPTY_RATE,
      meets_target: null,
      all_or_none: EMPTY_RATE,
      sampled: 0,
      submitted: 0,
      overdue: 0,
    };
  }
  const period = latestSample.periodStart;
  const inPeriod = counted.filter((r) => r.periodStart === period);
  const compliance = overallCompliance(inPeriod, options);
  const kpis = await kpisOf(db, projectId, program.id, period, today);
  return {
    ...common,
    period: periodOf(period, grain),
    compliance,
    meets_target: compliance.rate === null ? null : compliance.rate >= program.target,
    all_or_none: allOrNone(inPeriod),
    sampled: kpis.sampled,
    submitted: kpis.submitted,
    overdue: kpis.overdue,
  };
}

/** GET /dashboard: every programme, by name, with its latest period's figures. */
export async function getDashboardList(db: DbOrTx, actor: ChartReviewActor, now: Date): Promise<CrDashboardList> {
  const settings = await loadSettings(db, actor.projectId);
  const programs = await db
    .select()
    .from(crPrograms)
    .where(eq(crPrograms.projectId, actor.projectId))
    .orderBy(sql`lower(${crPrograms.name})`, asc(crPrograms.id));
  const open = await db
    .select({ programId: crFindings.programId, n: count() })
    .from(crFindings)
    .where(and(eq(crFindings.projectId, actor.projectId), ne(crFindings.status, 'closed')))
    .groupBy(crFindings.programId);
  const openOf = new Map(open.map((row) => [row.programId, row.n]));
  const today = dayOf(now);
  const options = { partialEnabled: settings.partialEnabled };
  const list: CrDashboardProgram[] = [];
  for (const program of programs) {
    list.push(await headline(db, actor.projectId, program, options, today, openOf.get(program.id) ?? 0));
  }
  return { programs: list };
}

/**
 * The latest-period headline of some programmes of a project (the standards element panel shows each linked
 * audit's compliance the way the dashboard does). Programmes of other projects are not found, so not listed.
 */
export async function programHeadlines(
  db: DbOrTx,
  projectId: number,
  programIds: readonly number[],
  now: Date,
): Promise<Map<number, CrDashboardProgram>> {
  if (programIds.length === 0) return new Map();
  const settings = await loadSettings(db, projectId);
  const programs = await db
    .select()
    .from(crPrograms)
    .where(and(eq(crPrograms.projectId, projectId), inArray(crPrograms.id, [...programIds])));
  const options = { partialEnabled: settings.partialEnabled };
  const found = new Map<number, CrDashboardProgram>();
  for (const program of programs) found.set(program.id, await headline(db, projectId, program, options, dayOf(now), 0));
  return found;
}

/**
 * Each programme's newest period with counted results, and those results' answers to a question (the standards
 * element panel shows a linked question's latest compliance). A programme without counted results is left out.
 */
export async function latestCountedAnswers(
  db: DbOrTx,
  projectId: number,
  programIds: readonly number[],
): Promise<Map<number, { period: string; answersOf: (key: string) => ScoredAnswer[] }>> {
  const latest = new Map<number, { period: string; answersOf: (key: string) => ScoredAnswer[] }>();
  for (const programId of programIds) {
    const [newest] = await db
      .select({ period: sql<string>`max(${crCaseResults.periodStart})` })
      .from(crCaseResults)
      .where(
        and(
          eq(crCaseResults.projectId, projectId),
          eq(crCaseResults.programId, programId),
          eq(crCaseResults.counts, true),
        ),
      );
    if (!newest?.period) continue;
    const rows = await db
      .select({ answers: crCaseResults.answers })
      .from(crCaseResults)
      .where(
        and(
          eq(crCaseResults.projectId, projectId),
          eq(crCaseResults.programId, programId),
          eq(crCaseResults.counts, true),
          eq(crCaseResults.periodStart, newest.period),
        ),
      );
    const results = rows.map((row) => ({ answers: row.answers as Record<string, unknown> }));
    latest.set(programId, {
      period: newest.period,
      answersOf: (key) => results.map((result) => answerOf(result, key)),
    });
  }
  return latest;
}

const month = (date: string | null) => (date === null ? '' : date.slice(0, 7));
const slug = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60) || 'programme';

/**
 * GET /programs/{id}/export.csv?from=&to=: one line per reviewed case of the range (counted or not): case code,
 * unit, period and discharge month (YYYY-MM), the final answer of each question key, score, all-or-none and whether
 * it counts. De-identified: no encounter reference, no names, no days. The first line is a comment with the
 * privilege label. Every cell is written by lib/csv-export.ts (formula-escaped). Audited with the range.
 */
export async function exportResults(
  db: Database,
  actor: ChartReviewActor,
  programId: number,
  query: CrRangeQuery,
  now: Date,
): Promise<{ fileName: string; body: string }> {
  return db.transaction(async (tx) => {
    const program = await loadProgram(tx, actor.projectId, programId);
    const grain = grainOf(program);
    const range = periodsOf(query, grain);
    const settings = await loadSettings(tx, actor.projectId);
    const rows = await tx
      .select({
        caseCode: crCases.caseCode,
        unit: crCaseResults.unit,
        periodStart: crCaseResults.periodStart,
        dischargeMonth: crCases.dischargeMonth,
        score: crCaseResults.score,
        allOrNone: crCaseResults.allOrNone,
        answers: crCaseResults.answers,
        counts: crCaseResults.counts,
      })
      .from(crCaseResults)
      .innerJoin(crCases, and(eq(crCases.projectId, crCaseResults.projectId), eq(crCases.id, crCaseResults.caseId)))
      .where(
        and(
          eq(crCaseResults.projectId, actor.projectId),
          eq(crCaseResults.programId, programId),
          range.from === undefined ? undefined : gte(crCaseResults.periodStart, range.from),
          range.to === undefined ? undefined : lte(crCaseResults.periodStart, range.to),
        ),
      )
      // Byte order: the same on every database, whatever its collation.
      .orderBy(asc(crCaseResults.periodStart), sql`${crCases.caseCode} collate "C"`);
    const questions = await questionsOf(tx, actor.projectId, program.toolId);
    const keys = allKeys(questions);
    const known = new Set(keys);
    for (const row of rows) {
      for (const key of Object.keys((row.answers ?? {}) as object)) {
        if (!known.has(key)) {
          known.add(key);
          keys.push(key);
        }
      }
    }
    const header = ['case_code', 'unit', 'period', 'discharge_month', ...keys, 'score', 'all_or_none', 'counted'];
    let body = csvLine([`# ${settings.privilegeLabel}`]) + csvLine(header);
    for (const row of rows) {
      const answers = (row.answers ?? {}) as Record<string, unknown>;
      body += csvLine([
        row.caseCode,
        row.unit ?? '',
        month(row.periodStart),
        month(row.dischargeMonth),
        ...keys.map((key) => (typeof answers[key] === 'string' ? answers[key] : '')),
        row.score ?? '',
        row.allOrNone === null ? '' : row.allOrNone ? 'yes' : 'no',
        row.counts,
      ]);
    }
    await chartReviewAudit(
      tx,
      actor,
      'results_exported',
      { type: 'cr_program', id: programId },
      { from: range.from ?? null, to: range.to ?? null, rows: rows.length },
      now,
    );
    const span = `${range.from ? month(range.from) : 'start'}-to-${range.to ? month(range.to) : 'latest'}`;
    return { fileName: `chart-review-${slug(program.name)}-${span}.csv`, body };
  });
}
