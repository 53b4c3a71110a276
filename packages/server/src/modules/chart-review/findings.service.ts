import {
  CR_FINDING_SMALL_N,
  type CrAction,
  type CrActionInput,
  type CrActionPlanInput,
  type CrFinding,
  type CrFindingInput,
  type CrFindingList,
  type CrFindingMeasures,
  type CrFindingStatus,
  type CrFindingSuggestion,
  type CrFindingSuggestions,
  type CrFindingSummary,
  type CrPlanSummary,
  type CrSuccessState,
  formatPercent,
  type ImprovementDirection,
  nextPeriod,
  type PeriodGrain,
  periodStart,
  type ScoredAnswer,
  type SpcChart,
  type SpcRuleSet,
} from '@portal/shared';
import { and, asc, desc, eq, inArray, isNull, ne, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database, DbOrTx } from '../../db/client.js';
import { nameOf } from '../../db/person-name.js';
import { loadProjectRow } from '../../db/project-row.js';
import {
  crActionPlans,
  crCaseResults,
  crFindings,
  crPrograms,
  crQuestions,
  crToolVersions,
  monMeasures,
  monPages,
  users,
} from '../../db/schema/index.js';
import { AppError, addFieldError, notFound } from '../../lib/errors.js';
import { type ChartReviewActor, mayUse } from '../../policies/chart-review.js';
import { findingRules } from '../../policies/chart-review-records.js';
import { serialize } from '../../policies/rules.js';
import { seriesOfMeasure } from '../monitoring/series.service.js';
import { visibleMeasures } from '../monitoring/visibility.js';
import { notify } from '../notifications/notifications.service.js';
import { answerOf, overallCompliance, rateOfAnswers } from './compliance.js';
import { chartReviewPeopleAmong } from './people.service.js';
import { loadProgram } from './programs.service.js';
import { chartReviewAudit, personOrNull } from './route-kit.js';
import { loadSettings } from './settings.service.js';

/**
 * Findings and corrective action plans (DOMAIN.md 2.2 `cr_finding`, `cr_action_plan`; 2.6 "go beyond" 1;
 * docs/chart-review.md "Findings and action plans"). A finding records a result below the programme's target in one
 * period: the whole programme, one question (by its stable key), one unit, or a question in a unit. Its rate and n
 * are computed here from the counted case results (`cr_case_results.counts`), with the shared scoring engine
 * (questionCompliance: N/A excluded, Partial 0.5 when the settings enable it), never taken from the client.
 * The plan's success rule: the linked monitoring measure (or, without one, the finding's own compliance) at or
 * beyond the programme's target for `success_periods` complete periods in a row after the finding's period.
 */

type FindingRow = typeof crFindings.$inferSelect;
type PlanRow = typeof crActionPlans.$inferSelect;

export const FINDING_NOT_FOUND = 'Finding not found.';
const NOT_A_PERIOD = 'Choose the first day of one of the programme’s periods.';
const NO_RESULTS = 'There are no counted reviews in this period yet.';
const NO_UNIT_RESULTS = 'This unit has no counted reviews in this period.';
const NO_QUESTION_RESULTS = 'This question has no applicable answers in this period.';
const DUPLICATE = 'This finding is already recorded and not closed.';
const CLOSED = 'A closed finding cannot change. Reopen it first.';
const ALREADY_CLOSED = 'This finding is already closed.';
const NOT_CLOSED = 'Only a closed finding can be reopened.';
const OWNER_UNKNOWN = 'Choose an owner from the chart review people of this project.';
const MEASURE_UNKNOWN = 'Choose a measure of this project.';
export const AUTO_CLOSE_NOTE = 'Closed automatically: every action is done and the success rule is met.';

/** Where a finding points in the web app (notifications carry this link only, never case content). */
export const findingLink = (projectId: number, findingId: number) =>
  `/app/chart-review/${projectId}/findings/${findingId}`;

// ------------------------------------------------------------------------------------------------ compliance

interface ResultRow {
  periodStart: string;
  unit: string | null;
  answers: Record<string, ScoredAnswer>;
}

interface Scope {
  unit: string | null;
  questionKey: string | null;
}

/** A rate with its n (applicable answers), computed as the dashboard computes it (compliance.ts). */
interface Compliance {
  rate: number | null;
  n: number;
}

/**
 * The compliance of a scope over results (already narrowed to one period): a question's compliance, or, without a
 * question, the overall compliance of the cases (applicable items met / applicable items), as on the dashboard.
 */
export function scopeCompliance(results: readonly ResultRow[], scope: Scope, partialEnabled: boolean): Compliance {
  const inUnit = scope.unit === null ? results : results.filter((r) => r.unit === scope.unit);
  const key = scope.questionKey;
  const { rate, n } =
    key === null
      ? overallCompliance(inUnit, { partialEnabled })
      : rateOfAnswers(
          inUnit.map((r) => answerOf(r, key)),
          { partialEnabled },
        );
  return { rate, n };
}

/** Counted results of a programme, in one period or a range of periods (`from` inclusive, `to` exclusive). */
async function countedResults(
  db: DbOrTx,
  projectId: number,
  programId: number,
  period: { at: string } | { from: string; to: string },
): Promise<ResultRow[]> {
  const when =
    'at' in period
      ? eq(crCaseResults.periodStart, period.at)
      : and(sql`${crCaseResults.periodStart} >= ${period.from}`, sql`${crCaseResults.periodStart} < ${period.to}`);
  const rows = await db
    .select({ periodStart: crCaseResults.periodStart, unit: crCaseResults.unit, answers: crCaseResults.answers })
    .from(crCaseResults)
    .where(
      and(
        eq(crCaseResults.projectId, projectId),
        eq(crCaseResults.programId, programId),
        eq(crCaseResults.counts, true),
        when,
      ),
    );
  return rows.map((row) => ({ ...row, answers: (row.answers ?? {}) as Record<string, ScoredAnswer> }));
}

/** The question texts of a tool by key, from its latest version holding the key (published or retired first). */
async function questionTexts(db: DbOrTx, projectId: number, toolId: number): Promise<Map<string, string>> {
  const rows = await db
    .select({ key: crQuestions.key, text: crQuestions.text })
    .from(crQuestions)
    .innerJoin(
      crToolVersions,
      and(eq(crToolVersions.projectId, crQuestions.projectId), eq(crToolVersions.id, crQuestions.toolVersionId)),
    )
    .where(and(eq(crQuestions.projectId, projectId), eq(crToolVersions.toolId, toolId)))
    .orderBy(sql`${crToolVersions.status} = 'draft'`, desc(crToolVersions.version));
  const texts = new Map<string, string>();
  for (const row of rows) if (!texts.has(row.key)) texts.set(row.key, row.text);
  return texts;
}

/**
 * "Pain reassessed within 60 minutes: 72% (n = 18) against 90%", with the unit when there is one: the rate and the
 * target in the shared percent format (the target, a configured value, as precisely as it was set).
 */
export function findingTitle(
  scope: Scope,
  questionText: string | null,
  compliance: { rate: number | null; n: number },
  target: number,
): string {
  const subject =
    scope.questionKey !== null
      ? `${questionText ?? 'A question no longer in the tool'}${scope.unit === null ? '' : ` (${scope.unit})`}`
      : scope.unit === null
        ? 'Overall compliance'
        : `${scope.unit}: overall compliance`;
  const rate = formatPercent(compliance.rate, { empty: 'no rate' });
  return `${subject}: ${rate} (n = ${compliance.n}) against ${formatPercent(target, { digits: 2 })}`;
}

// ------------------------------------------------------------------------------------------------ loading

async function loadFinding(db: DbOrTx, projectId: number, findingId: number, lock = false): Promise<FindingRow> {
  return loadProjectRow(db, crFindings, projectId, findingId, FINDING_NOT_FOUND, lock);
}

async function loadPlan(db: DbOrTx, projectId: number, findingId: number): Promise<PlanRow | undefined> {
  const [row] = await db
    .select()
    .from(crActionPlans)
    .where(and(eq(crActionPlans.projectId, projectId), eq(crActionPlans.findingId, findingId)));
  return row;
}

/** Whether the programme period starts on `day` (the first day of a month, or of a quarter). */
const isPeriodStart = (day: string, grain: PeriodGrain) => periodStart(day, grain) === day;

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** The plan's actions, each with its fields in one order (jsonb does not keep the order they were written in). */
function actionsOf(plan: PlanRow | undefined): CrActionInput[] {
  return ((plan?.actions as CrActionInput[] | undefined) ?? []).map((a) => ({
    what: a.what,
    owner_id: a.owner_id,
    due: a.due,
    done_at: a.done_at,
  }));
}

// ------------------------------------------------------------------------------------------------ success rule

interface SuccessInput {
  projectId: number;
  program: { id: number; grain: PeriodGrain; target: number };
  finding: { periodStart: string; unit: string | null; questionKey: string | null };
  measureId: number | null;
  required: number;
}

/** Memoised series and results within one request or job run (a list evaluates many findings). */
export type SuccessCache = Map<string, Promise<unknown>>;

function memo<T>(cache: SuccessCache, key: string, load: () => Promise<T>): Promise<T> {
  if (!cache.has(key)) cache.set(key, load());
  return cache.get(key) as Promise<T>;
}

/** The complete periods (before the one holding `today`) from `first` on, the latest `count` of them. */
function completePeriods(first: string, grain: PeriodGrain, today: Date, count: number): string[] {
  const current = periodStart(isoDay(today), grain);
  const periods: string[] = [];
  for (let p = first; p < current && periods.length < 10_000; p = nextPeriod(p, grain)) periods.push(p);
  return periods.slice(-count);
}

/** The first period of `grain` that starts on or after `day`. */
function firstPeriodFrom(day: string, grain: PeriodGrain): string {
  const start = periodStart(day, grain);
  return start === day ? start : nextPeriod(start, grain);
}

const meets = (value: number | null, target: number, direction: ImprovementDirection) =>
  value !== null && (direction === 'down' ? value <= target : value >= target);

/**
 * The success rule's state. With a live measure: its monitoring series (the measure's own chart; the current,
 * provisional period left out), values as shares (the shown value over the multiplier), compared with the
 * programme's target in the measure's direction (down: at or below; up and neutral: at or above). Without one: the
 * finding's own compliance (its unit and question) per complete programme period from the counted results.
 * Only periods after the finding's period count; met when the latest `required` of them all meet the target.
 */
export async function successState(
  db: DbOrTx,
  input: SuccessInput,
  today: Date,
  cache: SuccessCache = new Map(),
): Promise<CrSuccessState> {
  const { program, required } = input;
  const target = program.target;
  // The finding's period ends where the next programme period starts: measure periods from there count.
  const after = nextPeriod(input.finding.periodStart, program.grain);
  const measure =
    input.measureId === null
      ? undefined
      : await memo(cache, `measure:${input.measureId}`, async () => {
          const [row] = await db
            .select()
            .from(monMeasures)
            .where(
              and(
                eq(monMeasures.projectId, input.projectId),
                eq(monMeasures.id, input.measureId!),
                isNull(monMeasures.deletedAt),
              ),
            );
          return row;
        });
  if (measure) {
    const grain = measure.grain as PeriodGrain;
    const series = await memo(cache, `series:${measure.id}`, () =>
      seriesOfMeasure(
        db,
        measure,
        { chart: measure.chartDefault as SpcChart, stratum: '', ruleProfile: measure.ruleProfile as SpcRuleSet },
        today,
      ).catch(() => null),
    );
    const values = new Map<string, number | null>();
    for (const point of series?.points ?? []) {
      if (point.provisional) continue;
      // Back on the target's scale; rounded, so 90 % of a multiplier of 100 reads 0.9 and not 0.9000000000000001.
      const share = point.value === null ? null : point.value / (series!.multiplier || 1);
      values.set(point.period, share === null ? null : Math.round(share * 1e9) / 1e9);
    }
    const direction = measure.direction as ImprovementDirection;
    const window = completePeriods(firstPeriodFrom(after, grain), grain, today, required);
    const latest = window.map((period) => {
      const value = values.get(period) ?? null;
      return { period, value, met: meets(value, target, direction) };
    });
    return {
      met: latest.length === required && latest.every((p) => p.met),
      source: 'measure',
      required,
      periods_checked: latest.length,
      target,
      latest,
    };
  }
  const current = periodStart(isoDay(today), program.grain);
  const periods = completePeriods(after, program.grain, today, required);
  const results =
    periods.length === 0
      ? []
      : await memo(cache, `results:${program.id}:${periods[0]}:${current}`, () =>
          countedResults(db, input.projectId, program.id, { from: periods[0]!, to: current }),
        );
  const { partialEnabled } = await memo(cache, `settings:${input.projectId}`, () => loadSettings(db, input.projectId));
  const latest = periods.map((period) => {
    const { rate } = scopeCompliance(
      results.filter((r) => r.periodStart === period),
      { unit: input.finding.unit, questionKey: input.finding.questionKey },
      partialEnabled,
    );
    return { period, value: rate, met: meets(rate, target, 'up') };
  });
  return {
    met: latest.length === required && latest.every((p) => p.met),
    source: 'program',
    required,
    periods_checked: latest.length,
    target,
    latest,
  };
}

function planSummary(actions: readonly CrActionInput[], today: string, success: CrSuccessState): CrPlanSummary {
  const open = actions.filter((a) => a.done_at === null);
  const nextDue = open.map((a) => a.due).sort()[0] ?? null;
  return {
    actions_done: actions.length - open.length,
    actions_total: actions.length,
    next_due: nextDue,
    overdue: open.filter((a) => a.due < today).length,
    success,
  };
}

// ------------------------------------------------------------------------------------------------ presenting

const creators = alias(users, 'creator');
const closers = alias(users, 'closer');
const planEditors = alias(users, 'plan_editor');

async function selectFindings(
  db: DbOrTx,
  actor: ChartReviewActor,
  where: SQL | undefined,
  today: Date,
): Promise<(CrFindingSummary & { extra: DetailExtra })[]> {
  const rows = await db
    .select({
      finding: crFindings,
      plan: crActionPlans,
      program: { id: crPrograms.id, name: crPrograms.name, grain: crPrograms.grain, toolId: crPrograms.toolId },
      creatorName: nameOf(creators),
      closerName: nameOf(closers),
      planEditorName: nameOf(planEditors),
    })
    .from(crFindings)
    .innerJoin(crPrograms, and(eq(crPrograms.projectId, crFindings.projectId), eq(crPrograms.id, crFindings.programId)))
    .leftJoin(
      crActionPlans,
      and(eq(crActionPlans.projectId, crFindings.projectId), eq(crActionPlans.findingId, crFindings.id)),
    )
    .leftJoin(creators, eq(creators.id, crFindings.createdBy))
    .leftJoin(closers, eq(closers.id, crFindings.closedBy))
    .leftJoin(planEditors, eq(planEditors.id, crActionPlans.updatedBy))
    .where(and(eq(crFindings.projectId, actor.projectId), where))
    .orderBy(desc(crFindings.periodStart), desc(crFindings.id));
  const cache: SuccessCache = new Map();
  const seen = await visibleMeasureIds(
    db,
    actor,
    rows.flatMap((row) => (row.plan?.measureId ? [row.plan.measureId] : [])),
  );
  const texts = new Map<number, Map<string, string>>();
  const day = isoDay(today);
  const out: (CrFindingSummary & { extra: DetailExtra })[] = [];
  for (const { finding, plan, program, ...names } of rows) {
    if (!texts.has(program.toolId)) texts.set(program.toolId, await questionTexts(db, actor.projectId, program.toolId));
    const actions = actionsOf(plan ?? undefined);
    const success = await successState(
      db,
      {
        projectId: actor.projectId,
        program: { id: program.id, grain: program.grain as PeriodGrain, target: finding.target },
        finding,
        measureId: plan?.measureId ?? null,
        required: plan?.successPeriods ?? 3,
      },
      today,
      cache,
    );
    // A measure monitoring hides from the actor: whether the rule is met, without its values.
    if (success.source === 'measure' && !seen.has(plan!.measureId!)) {
      success.latest = success.latest.map((point) => ({ ...point, value: null }));
    }
    out.push({
      id: finding.id,
      program: { id: program.id, name: program.name, grain: program.grain as 'month' | 'quarter' },
      period_start: finding.periodStart,
      unit: finding.unit,
      question_key: finding.questionKey,
      question_text:
        finding.questionKey === null ? null : (texts.get(program.toolId)!.get(finding.questionKey) ?? null),
      title: finding.title,
      rate: finding.rate,
      n: finding.n,
      target: finding.target,
      small_n: finding.n < CR_FINDING_SMALL_N,
      status: finding.status as CrFindingStatus,
      created_at: finding.createdAt.toISOString(),
      closed_at: finding.closedAt?.toISOString() ?? null,
      plan: planSummary(actions, day, success),
      extra: { finding, plan: plan ?? undefined, ...names },
    });
  }
  return out;
}

/** Which of these measures the actor may see. */
async function visibleMeasureIds(db: DbOrTx, actor: ChartReviewActor, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: monMeasures.id })
    .from(monMeasures)
    .where(
      and(
        eq(monMeasures.projectId, actor.projectId),
        inArray(monMeasures.id, [...new Set(ids)]),
        await visibleMeasures(db, actor),
      ),
    );
  return new Set(rows.map((row) => row.id));
}

interface DetailExtra {
  finding: FindingRow;
  plan: PlanRow | undefined;
  creatorName: string | null;
  closerName: string | null;
  planEditorName: string | null;
}

/** GET /findings: every finding of the project, newest period first, narrowed by status and programme. */
export async function listFindings(
  db: DbOrTx,
  actor: ChartReviewActor,
  query: { status?: CrFindingStatus | undefined; program?: number | undefined },
  today: Date,
): Promise<CrFindingList> {
  const rows = await selectFindings(
    db,
    actor,
    and(
      query.status === undefined ? undefined : eq(crFindings.status, query.status),
      query.program === undefined ? undefined : eq(crFindings.programId, query.program),
    ),
    today,
  );
  return { findings: rows.map(({ extra: _extra, ...row }) => row), abilities: { create: mayUse(actor, 'findings') } };
}

/** GET /findings/{id}: the finding, its plan (empty until first saved), the measure and the success state. */
export async function getFinding(
  db: DbOrTx,
  actor: ChartReviewActor,
  findingId: number,
  today: Date,
): Promise<CrFinding> {
  const [row] = await selectFindings(db, actor, eq(crFindings.id, findingId), today);
  if (!row) throw notFound(FINDING_NOT_FOUND);
  const { extra, ...summary } = row;
  const actions = actionsOf(extra.plan);
  const ownerIds = [...new Set(actions.map((a) => a.owner_id))];
  const owners =
    ownerIds.length === 0
      ? []
      : await db
          .select({ id: users.id, name: nameOf(users) })
          .from(users)
          .where(inArray(users.id, ownerIds));
  const ownerName = new Map(owners.map((o) => [o.id, o.name]));
  const [measure] =
    extra.plan?.measureId == null
      ? []
      : await db
          .select({
            id: monMeasures.id,
            name: monMeasures.name,
            visible: sql<boolean>`${await visibleMeasures(db, actor)}`,
          })
          .from(monMeasures)
          .where(
            and(
              eq(monMeasures.projectId, actor.projectId),
              eq(monMeasures.id, extra.plan.measureId),
              isNull(monMeasures.deletedAt),
            ),
          );
  return {
    ...summary,
    close_note: extra.finding.closeNote,
    closed_by: personOrNull(extra.finding.closedBy, extra.closerName),
    created_by: personOrNull(extra.finding.createdBy, extra.creatorName),
    action_plan: {
      root_cause: extra.plan?.rootCause ?? '',
      actions: actions.map(
        (a): CrAction => ({ ...a, owner: personOrNull(a.owner_id, ownerName.get(a.owner_id) ?? null) }),
      ),
      // A deleted measure shows as no link (saving the plan then clears it).
      measure_id: measure?.id ?? null,
      success_periods: extra.plan?.successPeriods ?? 3,
      updated_at: extra.plan?.updatedAt.toISOString() ?? null,
      updated_by: personOrNull(extra.plan?.updatedBy ?? null, extra.planEditorName),
    },
    // Named only to those monitoring shows the measure to (the plan keeps the link either way).
    measure: measure?.visible ? { id: measure.id, name: measure.name } : null,
    abilities: serialize(findingRules, actor, extra.finding),
  };
}

/** GET /programs/{id}/finding-suggestions?period=: what falls short in the period and has no finding yet. */
export async function findingSuggestions(
  db: DbOrTx,
  actor: ChartReviewActor,
  programId: number,
  period: string,
): Promise<CrFindingSuggestions> {
  const program = await loadProgram(db, actor.projectId, programId);
  const grain = program.grain as PeriodGrain;
  if (!isPeriodStart(period, grain)) {
    throw new AppError('VALIDATION_FAILED', NOT_A_PERIOD, { period: [NOT_A_PERIOD] });
  }
  const [results, settings, texts, existing] = await Promise.all([
    countedResults(db, actor.projectId, programId, { at: period }),
    loadSettings(db, actor.projectId),
    questionTexts(db, actor.projectId, program.toolId),
    db
      .select({ unit: crFindings.unit, questionKey: crFindings.questionKey })
      .from(crFindings)
      .where(
        and(
          eq(crFindings.projectId, actor.projectId),
          eq(crFindings.programId, programId),
          eq(crFindings.periodStart, period),
        ),
      ),
  ]);
  const recorded = new Set(existing.map((f) => `${f.unit ?? ''}\u0000${f.questionKey ?? ''}`));
  const keys = [...new Set(results.flatMap((r) => Object.keys(r.answers)))];
  // Questions in the tool's order of their latest text, then keys no version holds any more.
  const known = [...texts.keys()];
  keys.sort((a, b) => {
    const ia = known.indexOf(a);
    const ib = known.indexOf(b);
    return (ia < 0 ? Infinity : ia) - (ib < 0 ? Infinity : ib) || a.localeCompare(b);
  });
  const units = [...new Set(results.map((r) => r.unit).filter((u): u is string => u !== null))].sort((a, b) =>
    a.localeCompare(b),
  );
  const scopes: Scope[] = [
    { unit: null, questionKey: null },
    ...keys.map((questionKey) => ({ unit: null, questionKey })),
    ...units.map((unit) => ({ unit, questionKey: null })),
  ];
  const suggestions: CrFindingSuggestion[] = [];
  for (const scope of scopes) {
    if (recorded.has(`${scope.unit ?? ''}\u0000${scope.questionKey ?? ''}`)) continue;
    const compliance = scopeCompliance(results, scope, settings.partialEnabled);
    if (compliance.rate === null || compliance.rate >= program.target) continue;
    const questionText = scope.questionKey === null ? null : (texts.get(scope.questionKey) ?? null);
    suggestions.push({
      unit: scope.unit,
      question_key: scope.questionKey,
      question_text: questionText,
      title: findingTitle(scope, questionText, compliance, program.target),
      rate: compliance.rate,
      n: compliance.n,
      target: program.target,
      small_n: compliance.n < CR_FINDING_SMALL_N,
    });
  }
  return {
    program: { id: program.id, name: program.name, grain: grain as 'month' | 'quarter', target: program.target },
    period,
    cases: results.length,
    suggestions,
    abilities: { create: mayUse(actor, 'findings') },
  };
}

/** GET /findings/measures: the live monitoring measures the actor may see, by name (the plan's measure picker). */
export async function findingMeasures(db: DbOrTx, actor: ChartReviewActor): Promise<CrFindingMeasures> {
  const rows = await db
    .select({ id: monMeasures.id, name: monMeasures.name, page: monPages.title })
    .from(monMeasures)
    .innerJoin(monPages, and(eq(monPages.projectId, monMeasures.projectId), eq(monPages.id, monMeasures.pageId)))
    .where(
      and(
        eq(monMeasures.projectId, actor.projectId),
        isNull(monMeasures.deletedAt),
        isNull(monPages.deletedAt),
        await visibleMeasures(db, actor),
      ),
    )
    .orderBy(sql`lower(${monMeasures.name})`, asc(monMeasures.id));
  return { measures: rows };
}

// ------------------------------------------------------------------------------------------------ changes

/** A finding of the same scope and period that is not closed (409 on create and reopen). */
async function refuseDuplicate(tx: DbOrTx, projectId: number, finding: Omit<FindingRow, 'id'> & { id?: number }) {
  const [open] = await tx
    .select({ id: crFindings.id })
    .from(crFindings)
    .where(
      and(
        eq(crFindings.projectId, projectId),
        eq(crFindings.programId, finding.programId),
        eq(crFindings.periodStart, finding.periodStart),
        finding.unit === null ? isNull(crFindings.unit) : eq(crFindings.unit, finding.unit),
        finding.questionKey === null ? isNull(crFindings.questionKey) : eq(crFindings.questionKey, finding.questionKey),
        ne(crFindings.status, 'closed'),
        finding.id === undefined ? undefined : ne(crFindings.id, finding.id),
      ),
    );
  if (open) throw new AppError('CONFLICT', DUPLICATE);
}

/** POST /programs/{id}/findings: rate and n from the counted results of the period; 409 on an open duplicate. */
export async function createFinding(
  db: Database,
  actor: ChartReviewActor,
  programId: number,
  input: CrFindingInput,
  now: Date,
): Promise<CrFinding> {
  const findingId = await db.transaction(async (tx) => {
    // Locking the programme makes two identical requests wait for each other: the second meets the first's row.
    const program = await loadProgram(tx, actor.projectId, programId, true);
    const grain = program.grain as PeriodGrain;
    if (!isPeriodStart(input.period_start, grain)) {
      throw new AppError('VALIDATION_FAILED', NOT_A_PERIOD, { period_start: [NOT_A_PERIOD] });
    }
    const scope: Scope = { unit: input.unit, questionKey: input.question_key };
    const results = await countedResults(tx, actor.projectId, programId, { at: input.period_start });
    const settings = await loadSettings(tx, actor.projectId);
    const compliance = scopeCompliance(results, scope, settings.partialEnabled);
    if (compliance.n === 0) {
      const errors: Record<string, string[]> = {};
      if (results.length === 0) addFieldError(errors, 'period_start', NO_RESULTS);
      else if (scope.unit !== null && !results.some((r) => r.unit === scope.unit)) {
        addFieldError(errors, 'unit', NO_UNIT_RESULTS);
      } else if (scope.questionKey !== null) addFieldError(errors, 'question_key', NO_QUESTION_RESULTS);
      else addFieldError(errors, 'period_start', NO_RESULTS);
      throw new AppError('VALIDATION_FAILED', Object.values(errors)[0]![0]!, errors);
    }
    const values = {
      projectId: actor.projectId,
      programId,
      periodStart: input.period_start,
      unit: scope.unit,
      questionKey: scope.questionKey,
      rate: compliance.rate,
      n: compliance.n,
      target: program.target,
    };
    await refuseDuplicate(tx, actor.projectId, { ...values } as FindingRow);
    const texts = scope.questionKey === null ? null : await questionTexts(tx, actor.projectId, program.toolId);
    const title =
      input.title && input.title !== ''
        ? input.title
        : findingTitle(scope, texts?.get(scope.questionKey!) ?? null, compliance, program.target);
    const [row] = await tx
      .insert(crFindings)
      .values({ ...values, title, createdBy: actor.userId, updatedBy: actor.userId, createdAt: now, updatedAt: now })
      .returning({ id: crFindings.id });
    await chartReviewAudit(
      tx,
      actor,
      'finding_created',
      { type: 'cr_finding', id: row!.id },
      {
        program_id: programId,
        period_start: input.period_start,
        unit: scope.unit,
        question_key: scope.questionKey,
        rate: compliance.rate,
        n: compliance.n,
        target: program.target,
      },
      now,
    );
    return row!.id;
  });
  return getFinding(db, actor, findingId, now);
}

/** Active members of the project with a chart review main role, among `ids` (the people GET /people lists). */
async function chartReviewPeopleIn(tx: DbOrTx, projectId: number, ids: number[]): Promise<Set<number>> {
  return new Set((await chartReviewPeopleAmong(tx, projectId, ids)).map((person) => person.id));
}

const canonical = (value: unknown) => JSON.stringify(value);

/**
 * PUT /findings/{id}/plan: replaces the plan. Owners must be chart review people of the project, the measure a live
 * measure of the project (all refused at once, as `actions.{i}.owner_id` and `measure_id`). The finding is
 * `action_plan` while the plan has an action, else `open`. Newly named owners are notified (a link only) in the
 * plan's transaction.
 */
export async function savePlan(
  db: Database,
  actor: ChartReviewActor,
  findingId: number,
  input: CrActionPlanInput,
  now: Date,
): Promise<CrFinding> {
  await db.transaction(async (tx) => {
    const finding = await loadFinding(tx, actor.projectId, findingId, true);
    if (finding.status === 'closed') throw new AppError('CONFLICT', CLOSED);
    const errors: Record<string, string[]> = {};
    const people = await chartReviewPeopleIn(tx, actor.projectId, [...new Set(input.actions.map((a) => a.owner_id))]);
    input.actions.forEach((action, index) => {
      if (!people.has(action.owner_id)) addFieldError(errors, `actions.${index}.owner_id`, OWNER_UNKNOWN);
    });
    if (input.measure_id !== null) {
      const kept = (await loadPlan(tx, actor.projectId, findingId))?.measureId === input.measure_id;
      const [measure] = await tx
        .select({ id: monMeasures.id })
        .from(monMeasures)
        .where(
          and(
            eq(monMeasures.projectId, actor.projectId),
            eq(monMeasures.id, input.measure_id),
            isNull(monMeasures.deletedAt),
            // A link someone else made to a measure this editor may not see is kept as it is, never named.
            kept ? undefined : await visibleMeasures(tx, actor),
          ),
        );
      if (!measure) addFieldError(errors, 'measure_id', MEASURE_UNKNOWN);
    }
    const first = Object.values(errors).flat()[0];
    if (first) throw new AppError('VALIDATION_FAILED', first, errors);

    const current = await loadPlan(tx, actor.projectId, findingId);
    const before = {
      root_cause: current?.rootCause ?? '',
      actions: actionsOf(current),
      measure_id: current?.measureId ?? null,
      success_periods: current?.successPeriods ?? 3,
    };
    const after = {
      root_cause: input.root_cause,
      actions: input.actions.map((a) => ({ what: a.what, owner_id: a.owner_id, due: a.due, done_at: a.done_at })),
      measure_id: input.measure_id,
      success_periods: input.success_periods,
    };
    const changes = Object.fromEntries(
      (Object.keys(after) as (keyof typeof after)[])
        .filter((field) => canonical(before[field]) !== canonical(after[field]))
        .map((field) => [field, { from: before[field], to: after[field] }]),
    );
    const status: CrFindingStatus = after.actions.length > 0 ? 'action_plan' : 'open';
    if (Object.keys(changes).length === 0 && current && status === finding.status) return;
    const columns = {
      rootCause: after.root_cause,
      actions: after.actions,
      measureId: after.measure_id,
      successPeriods: after.success_periods,
      updatedAt: now,
      updatedBy: actor.userId,
    };
    await tx
      .insert(crActionPlans)
      .values({ findingId, projectId: actor.projectId, ...columns, createdBy: actor.userId, createdAt: now })
      .onConflictDoUpdate({ target: crActionPlans.findingId, set: columns });
    await tx
      .update(crFindings)
      .set({ status, updatedAt: now, updatedBy: actor.userId })
      .where(and(eq(crFindings.projectId, actor.projectId), eq(crFindings.id, findingId)));
    await chartReviewAudit(
      tx,
      actor,
      'finding_plan_saved',
      { type: 'cr_finding', id: findingId },
      { changes, ...(status === finding.status ? {} : { status: { from: finding.status, to: status } }) },
      now,
    );
    const earlier = new Set(before.actions.map((a) => a.owner_id));
    const newOwners = [...new Set(after.actions.map((a) => a.owner_id))].filter(
      (id) => !earlier.has(id) && id !== actor.userId,
    );
    if (newOwners.length > 0) {
      await notify(tx, {
        userIds: newOwners,
        projectId: actor.projectId,
        message: 'You were named the owner of an action in a chart review action plan.',
        link: findingLink(actor.projectId, findingId),
        now,
      });
    }
  });
  return getFinding(db, actor, findingId, now);
}

/** POST /findings/{id}/close: with a note; 409 when already closed. */
export async function closeFinding(
  db: Database,
  actor: ChartReviewActor,
  findingId: number,
  note: string,
  now: Date,
): Promise<CrFinding> {
  await db.transaction(async (tx) => {
    const finding = await loadFinding(tx, actor.projectId, findingId, true);
    if (finding.status === 'closed') throw new AppError('CONFLICT', ALREADY_CLOSED);
    await tx
      .update(crFindings)
      .set({
        status: 'closed',
        closedAt: now,
        closedBy: actor.userId,
        closeNote: note,
        updatedAt: now,
        updatedBy: actor.userId,
      })
      .where(and(eq(crFindings.projectId, actor.projectId), eq(crFindings.id, findingId)));
    await chartReviewAudit(
      tx,
      actor,
      'finding_closed',
      { type: 'cr_finding', id: findingId },
      { note, status: { from: finding.status, to: 'closed' } },
      now,
    );
  });
  return getFinding(db, actor, findingId, now);
}

/** POST /findings/{id}/reopen: with a note; back to action_plan (or open without actions); 409 on a duplicate. */
export async function reopenFinding(
  db: Database,
  actor: ChartReviewActor,
  findingId: number,
  note: string,
  now: Date,
): Promise<CrFinding> {
  await db.transaction(async (tx) => {
    const finding = await loadFinding(tx, actor.projectId, findingId, true);
    if (finding.status !== 'closed') throw new AppError('CONFLICT', NOT_CLOSED);
    await loadProgram(tx, actor.projectId, finding.programId, true);
    await refuseDuplicate(tx, actor.projectId, finding);
    const status: CrFindingStatus =
      actionsOf(await loadPlan(tx, actor.projectId, findingId)).length > 0 ? 'action_plan' : 'open';
    await tx
      .update(crFindings)
      .set({ status, closedAt: null, closedBy: null, closeNote: '', updatedAt: now, updatedBy: actor.userId })
      .where(and(eq(crFindings.projectId, actor.projectId), eq(crFindings.id, findingId)));
    await chartReviewAudit(
      tx,
      actor,
      'finding_reopened',
      { type: 'cr_finding', id: findingId },
      { note, status: { from: 'closed', to: status }, close_note: finding.closeNote },
      now,
    );
  });
  return getFinding(db, actor, findingId, now);
}
