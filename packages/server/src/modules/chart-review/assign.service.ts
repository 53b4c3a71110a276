import {
  type CrLockInput,
  type CrReviewerUnits,
  type CrReviewerUnitsInput,
  type CrSample,
  drawSample,
  formatPercent,
  isAllowed,
} from '@portal/shared';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../db/client.js';
import {
  crAssignments,
  crCases,
  crIrrPairs,
  crPrograms,
  crReviewerUnits,
  crSamples,
  crToolVersions,
} from '../../db/schema/index.js';
import { AppError } from '../../lib/errors.js';
import { type ChartReviewActor, mayUse } from '../../policies/chart-review.js';
import { DRAW_BEFORE_LOCKING, SAMPLE_LOCKED } from '../../policies/chart-review-records.js';
import { notify } from '../notifications/notifications.service.js';
import { listPeople } from './people.service.js';
import { loadProgram, uniqueUnits } from './programs.service.js';
import { chartReviewAudit } from './route-kit.js';
import { getSample, loadSample } from './sampling.service.js';
import { loadSettings } from './settings.service.js';

/**
 * Lock and assign (docs/chart-review.md "Sampling"): a drawn sample is fixed, its selected cases get a primary
 * review each (round robin in case-code order, or by the unit map), a reproducible share gets a blind second review
 * by another reviewer, nobody reviews a unit they work on while the conflict-of-interest rule is on, and the
 * encounter references are purged when the project does not keep them. Also the units each reviewer works on.
 */

const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The people of the project who may review charts: an active chart review member whose role may use `review`. */
async function reviewersOf(db: DbOrTx, actor: ChartReviewActor) {
  const people = await listPeople(db, actor.projectId);
  return people.people.filter((person) => isAllowed(actor.rules, 'review', person.role));
}

/** reviewer id -> the units they work on, lower-case. */
async function unitsByReviewer(db: DbOrTx, projectId: number): Promise<Map<number, Set<string>>> {
  const rows = await db
    .select({ userId: crReviewerUnits.userId, unit: crReviewerUnits.unit })
    .from(crReviewerUnits)
    .where(eq(crReviewerUnits.projectId, projectId));
  const map = new Map<number, Set<string>>();
  for (const row of rows) {
    const set = map.get(row.userId) ?? new Set<string>();
    set.add(row.unit.toLowerCase());
    map.set(row.userId, set);
  }
  return map;
}

/** The version the reviews use: the pinned one, else the tool's published one; null when there is none. */
async function versionInUse(db: DbOrTx, program: typeof crPrograms.$inferSelect): Promise<number | null> {
  if (program.pinnedVersionId !== null) return program.pinnedVersionId;
  const [published] = await db
    .select({ id: crToolVersions.id })
    .from(crToolVersions)
    .where(
      and(
        eq(crToolVersions.projectId, program.projectId),
        eq(crToolVersions.toolId, program.toolId),
        eq(crToolVersions.status, 'published'),
      ),
    );
  return published?.id ?? null;
}

/** A reviewer leaves validation after at least this many items compared in second reviews (DOMAIN.md 2.5; ours). */
export const NEW_REVIEWER_MIN_ITEMS = 10;

/**
 * The reviewers still in validation (DOMAIN.md 2.5, after Q-Centrix): their own reviews checked by a second review
 * (they were the primary reviewer) compare fewer than NEW_REVIEWER_MIN_ITEMS items in this project, or match below
 * `matchMin`. Every review they do as primary gets a second review. `matchMin` 0 turns the rule off.
 */
export async function reviewersInValidation(
  db: DbOrTx,
  projectId: number,
  reviewerIds: readonly number[],
  matchMin: number,
): Promise<Set<number>> {
  if (matchMin <= 0 || reviewerIds.length === 0) return new Set();
  const rows = await db
    .select({
      reviewerId: crAssignments.reviewerId,
      compared: sql<number>`coalesce(sum(${crIrrPairs.itemsCompared}), 0)::int`,
      agreed: sql<number>`coalesce(sum(${crIrrPairs.itemsAgreed}), 0)::int`,
    })
    .from(crIrrPairs)
    .innerJoin(
      crAssignments,
      and(eq(crAssignments.projectId, crIrrPairs.projectId), eq(crAssignments.id, crIrrPairs.primaryAssignmentId)),
    )
    .where(
      and(
        eq(crIrrPairs.projectId, projectId),
        inArray(crIrrPairs.status, ['agreed', 'disagreed', 'adjudicated']),
        inArray(crAssignments.reviewerId, [...reviewerIds]),
      ),
    )
    .groupBy(crAssignments.reviewerId);
  const validated = new Set(
    rows
      .filter((row) => row.compared >= NEW_REVIEWER_MIN_ITEMS && row.agreed / row.compared >= matchMin)
      .map((row) => row.reviewerId),
  );
  return new Set(reviewerIds.filter((id) => !validated.has(id)));
}

const invalid = (field: string, message: string) => new AppError('VALIDATION_FAILED', message, { [field]: [message] });

/** A date `days` after `now`, as YYYY-MM-DD (UTC). */
export function dueDate(now: Date, days: number): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + days))
    .toISOString()
    .slice(0, 10);
}

/** Round robin that skips reviewers a case may not go to; the turn passes to the one after the chosen reviewer. */
class Turns {
  private next = new Map<string, number>();
  pick(key: string, pool: readonly number[], allowed: (id: number) => boolean): number | null {
    const start = this.next.get(key) ?? 0;
    for (let step = 0; step < pool.length; step++) {
      const at = (start + step) % pool.length;
      const id = pool[at]!;
      if (allowed(id)) {
        this.next.set(key, (at + 1) % pool.length);
        return id;
      }
    }
    return null;
  }
}

/**
 * POST /samples/{id}/lock: assigns the selected cases and locks the sample. Reviewers are notified once each, in the
 * transaction of the change, with a link only.
 */
export async function lockSample(
  db: Database,
  actor: ChartReviewActor,
  sampleId: number,
  input: CrLockInput,
  now: Date,
): Promise<CrSample> {
  await db.transaction(async (tx) => {
    const sample = await loadSample(tx, actor.projectId, sampleId, true);
    if (sample.status === 'locked') throw new AppError('CONFLICT', SAMPLE_LOCKED);
    if (sample.status !== 'drawn') throw new AppError('CONFLICT', DRAW_BEFORE_LOCKING);
    const program = await loadProgram(tx, actor.projectId, sample.programId);
    const toolVersionId = await versionInUse(tx, program);
    if (toolVersionId === null) {
      throw new AppError(
        'CONFLICT',
        "The programme's tool has no published version yet: publish one before assigning reviews.",
      );
    }
    const settings = await loadSettings(tx, actor.projectId);

    // Who may be chosen.
    const eligible = new Set((await reviewersOf(tx, actor)).map((person) => person.id));
    const notReviewer = 'Choose people who may review charts in this project.';
    if (input.reviewer_ids.some((id) => !eligible.has(id))) throw invalid('reviewer_ids', notReviewer);
    const unitMap = new Map<string, { unit: string; ids: number[] }>();
    if (input.mode === 'by_unit') {
      for (const [unit, ids] of Object.entries(input.unit_reviewers ?? {})) {
        if (ids.some((id) => !eligible.has(id))) throw invalid(`unit_reviewers.${unit}`, notReviewer);
        if (ids.length) unitMap.set(unit.trim().toLowerCase(), { unit, ids: [...new Set(ids)] });
      }
    }
    const conflicts = settings.coiOwnUnit ? await unitsByReviewer(tx, actor.projectId) : new Map();
    const worksOn = (id: number, unit: string | null) =>
      unit !== null && (conflicts.get(id)?.has(unit.toLowerCase()) ?? false);

    const cases = (
      await tx
        .select({ id: crCases.id, code: crCases.caseCode, unit: crCases.unit })
        .from(crCases)
        .where(
          and(eq(crCases.projectId, actor.projectId), eq(crCases.sampleId, sampleId), eq(crCases.status, 'selected')),
        )
    ).sort((a, b) => byCodeUnits(a.code, b.code));
    if (cases.length === 0) throw new AppError('CONFLICT', 'The draw selected no case: there is nothing to assign.');

    // Primary reviews.
    const turns = new Turns();
    const primaryOf = new Map<number, number>();
    for (const c of cases) {
      const mapped = input.mode === 'by_unit' && c.unit !== null ? unitMap.get(c.unit.toLowerCase()) : undefined;
      const pool = mapped?.ids ?? input.reviewer_ids;
      const key = mapped ? `unit:${mapped.unit}` : 'all';
      const reviewer = turns.pick(key, pool, (id) => !worksOn(id, c.unit));
      if (reviewer === null) {
        const field = mapped ? `unit_reviewers.${mapped.unit}` : 'reviewer_ids';
        throw invalid(
          field,
          `Every reviewer chosen for the cases of ${c.unit} works on ${c.unit}: add a reviewer from another unit.`,
        );
      }
      primaryOf.set(c.id, reviewer);
    }

    // The second-review share, picked reproducibly from the sample's seed, and every case of a reviewer still in
    // validation.
    const share = program.irrRate <= 0 ? 0 : Math.min(cases.length, Math.ceil(cases.length * program.irrRate - 1e-9));
    const chosen = new Set<string>();
    if (share > 0) {
      const picked = drawSample({
        cases: cases.map((c) => ({ ref: c.code, unit: null })),
        plan: { method: 'fixed', n: share },
        seed: `${sample.seed ?? ''}|second`,
      }).ranked.filter((c) => c.selected);
      for (const c of picked) chosen.add(c.ref);
    }
    const inValidation = await reviewersInValidation(
      tx,
      actor.projectId,
      [...new Set(primaryOf.values())],
      settings.newReviewerMatchMin,
    );
    for (const c of cases) if (inValidation.has(primaryOf.get(c.id)!)) chosen.add(c.code);
    const seconds = new Map<number, number>();
    if (chosen.size > 0) {
      const pool = [...new Set([...input.reviewer_ids, ...[...unitMap.values()].flatMap((entry) => entry.ids)])];
      if (pool.length < 2) {
        throw invalid(
          'reviewer_ids',
          share > 0
            ? 'A second review needs at least two reviewers.'
            : `A reviewer chosen is new: each of their reviews gets a second review until their answers match ${formatPercent(settings.newReviewerMatchMin, { digits: 2 })} of items. Choose a second reviewer too.`,
        );
      }
      for (const c of cases.filter((x) => chosen.has(x.code))) {
        const primary = primaryOf.get(c.id)!;
        const reviewer = turns.pick('second', pool, (id) => id !== primary && !worksOn(id, c.unit));
        if (reviewer === null) {
          throw invalid(
            'reviewer_ids',
            `No second reviewer is left for a case of ${c.unit ?? 'no unit'}: add a reviewer who does not work there.`,
          );
        }
        seconds.set(c.id, reviewer);
      }
    }

    const dueAt = dueDate(now, program.dueDays);
    const rows = [
      ...cases.map((c) => ({ caseId: c.id, reviewerId: primaryOf.get(c.id)!, role: 'primary', blind: false })),
      ...[...seconds].map(([caseId, reviewerId]) => ({ caseId, reviewerId, role: 'second', blind: true })),
    ];
    for (let at = 0; at < rows.length; at += 2000) {
      await tx.insert(crAssignments).values(
        rows.slice(at, at + 2000).map((row) => ({
          projectId: actor.projectId,
          programId: program.id,
          toolVersionId,
          dueAt,
          status: 'assigned',
          createdAt: now,
          updatedAt: now,
          ...row,
        })),
      );
    }
    await tx
      .update(crSamples)
      .set({ status: 'locked', toolVersionId, lockedAt: now, lockedBy: actor.userId })
      .where(and(eq(crSamples.projectId, actor.projectId), eq(crSamples.id, sampleId)));
    const purge = !settings.storeEncounterRef;
    if (purge) {
      await tx
        .update(crCases)
        .set({ encounterRefEnc: null, refPurgedAt: now })
        .where(
          and(
            eq(crCases.projectId, actor.projectId),
            eq(crCases.sampleId, sampleId),
            sql`${crCases.encounterRefEnc} is not null`,
          ),
        );
    }
    await chartReviewAudit(
      tx,
      actor,
      'sample_locked',
      { type: 'cr_sample', id: sampleId },
      {
        mode: input.mode,
        reviewer_ids: input.reviewer_ids,
        unit_reviewers: input.mode === 'by_unit' ? (input.unit_reviewers ?? {}) : undefined,
        tool_version_id: toolVersionId,
        primary: cases.length,
        second: seconds.size,
        reviewers_in_validation: [...inValidation],
        due_at: dueAt,
        refs_purged: purge,
      },
      now,
    );
    const perReviewer = new Map<number, number>();
    for (const row of rows) perReviewer.set(row.reviewerId, (perReviewer.get(row.reviewerId) ?? 0) + 1);
    for (const [reviewerId, n] of perReviewer) {
      await notify(tx, {
        userIds: [reviewerId],
        projectId: actor.projectId,
        message: `You have ${n} chart review${n === 1 ? '' : 's'} to do in ${program.name}.`,
        link: `/app/chart-review/${actor.projectId}/my`,
        now,
      });
    }
  });
  return getSample(db, actor, sampleId);
}

// ------------------------------------------------------------------------------------------------ reviewer units

/** GET /reviewer-units: everyone who may review, with their units, and the units the programmes name. */
export async function getReviewerUnits(db: DbOrTx, actor: ChartReviewActor): Promise<CrReviewerUnits> {
  const reviewers = await reviewersOf(db, actor);
  const rows = await db
    .select({ userId: crReviewerUnits.userId, unit: crReviewerUnits.unit })
    .from(crReviewerUnits)
    .where(eq(crReviewerUnits.projectId, actor.projectId))
    .orderBy(asc(crReviewerUnits.unit));
  const programUnits = await db
    .select({ units: crPrograms.units })
    .from(crPrograms)
    .where(eq(crPrograms.projectId, actor.projectId));
  const units = uniqueUnits([...programUnits.flatMap((p) => p.units), ...rows.map((row) => row.unit)]).sort((a, b) =>
    a.localeCompare(b, 'en'),
  );
  return {
    reviewers: reviewers.map((person) => ({
      user_id: person.id,
      name: person.name,
      role: person.role,
      units: rows.filter((row) => row.userId === person.id).map((row) => row.unit),
    })),
    units,
    abilities: { edit: mayUse(actor, 'settings') },
  };
}

/** PUT /reviewer-units: replaces every reviewer's units; a reviewer left out works on none. */
export async function putReviewerUnits(
  db: Database,
  actor: ChartReviewActor,
  input: CrReviewerUnitsInput,
  now: Date,
): Promise<CrReviewerUnits> {
  await db.transaction(async (tx) => {
    const people = new Set((await listPeople(tx, actor.projectId)).people.map((person) => person.id));
    const errors: Record<string, string[]> = {};
    const seen = new Set<number>();
    input.reviewers.forEach((entry, i) => {
      if (!people.has(entry.user_id)) errors[`reviewers.${i}.user_id`] = ['Choose a person of this chart review.'];
      else if (seen.has(entry.user_id)) errors[`reviewers.${i}.user_id`] = ['List each reviewer once.'];
      seen.add(entry.user_id);
    });
    const first = Object.values(errors).flat()[0];
    if (first) throw new AppError('VALIDATION_FAILED', first, errors);

    const before = await tx
      .select({ userId: crReviewerUnits.userId, unit: crReviewerUnits.unit })
      .from(crReviewerUnits)
      .where(eq(crReviewerUnits.projectId, actor.projectId))
      .for('update');
    const key = (list: readonly string[]) => JSON.stringify([...list].sort());
    const old = new Map<number, string[]>();
    for (const row of before) old.set(row.userId, [...(old.get(row.userId) ?? []), row.unit]);
    const next = new Map(input.reviewers.map((entry) => [entry.user_id, uniqueUnits(entry.units)]));
    const changed = [...new Set([...old.keys(), ...next.keys()])]
      .filter((id) => key(old.get(id) ?? []) !== key(next.get(id) ?? []))
      .sort((a, b) => a - b);
    if (changed.length === 0) return;
    await tx
      .delete(crReviewerUnits)
      .where(and(eq(crReviewerUnits.projectId, actor.projectId), inArray(crReviewerUnits.userId, changed)));
    const values = changed.flatMap((userId) =>
      (next.get(userId) ?? []).map((unit) => ({
        projectId: actor.projectId,
        userId,
        unit,
        createdBy: actor.userId,
        createdAt: now,
      })),
    );
    if (values.length) await tx.insert(crReviewerUnits).values(values);
    await chartReviewAudit(
      tx,
      actor,
      'reviewer_units_updated',
      { type: 'cr_settings', id: actor.projectId },
      {
        changes: changed.map((userId) => ({
          user_id: userId,
          from: old.get(userId) ?? [],
          to: next.get(userId) ?? [],
        })),
      },
      now,
    );
  });
  return getReviewerUnits(db, actor);
}
