import type { AuditActionIn } from '@portal/shared';
import {
  type annotationInputSchema,
  type benchmarkInputSchema,
  type MeasureDetail,
  type PeriodGrain,
  periodStart,
  type phaseCreateSchema,
  type targetCreateSchema,
} from '@portal/shared';
import { and, eq } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { Database, DbOrTx } from '../../db/client.js';
import { monAnnotations, monBenchmarks, monPhases, monTargets } from '../../db/schema/index.js';
import { changes } from '../../lib/audit-diff.js';
import { notFound } from '../../lib/errors.js';
import type { MonitoringActor } from '../../policies/monitoring.js';
import { auditMeasure, getMeasure, type MeasureRow, measureAccess, refuseTakenPhase } from './measures.service.js';

/**
 * Targets, benchmarks, phases and annotations of a measure (issue 9; DOMAIN.md 1.1, 1.7). Changed by those who may
 * change the measure; each change is audited in its transaction and answers the whole measure. Period dates are
 * stored as the first day of the measure's period, like every other period key.
 */

type TargetInput = z.output<typeof targetCreateSchema>;
type BenchmarkInput = z.output<typeof benchmarkInputSchema>;
type PhaseInput = z.output<typeof phaseCreateSchema>;
type AnnotationInput = z.output<typeof annotationInputSchema>;

/** Runs a change of a measure's parts: the measure locked, edit access checked, the change audited. */
async function changeParts(
  db: Database,
  actor: MonitoringActor,
  measureId: number,
  now: Date,
  change: (
    tx: DbOrTx,
    measure: MeasureRow,
  ) => Promise<{ action: AuditActionIn<'monitoring'>; data: Record<string, unknown> }>,
): Promise<MeasureDetail> {
  await db.transaction(async (tx) => {
    const { row } = await measureAccess(tx, actor, measureId, { edit: true, lock: true });
    const { action, data } = await change(tx, row);
    await auditMeasure(tx, actor, action, measureId, { page_id: row.pageId, ...data }, now);
  });
  return getMeasure(db, actor, measureId);
}

const grainOf = (measure: MeasureRow) => measure.grain as PeriodGrain;

/** The audit's changes of a part: the columns written, compared with the row before, by their API names. */
function partChanges(before: object, values: object) {
  const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  const rename = (row: object, keys: string[]) =>
    Object.fromEntries(keys.map((key) => [snake(key), (row as Record<string, unknown>)[key]]));
  const keys = Object.keys(values);
  return changes(rename(before, keys), rename(values, keys));
}

type PartTable = PgTable & { id: PgColumn; projectId: PgColumn; measureId: PgColumn };

/** Deletes one part of the measure (404 when it is not one of this measure's, in this project). */
async function removePart(
  tx: DbOrTx,
  actor: MonitoringActor,
  table: PartTable,
  measureId: number,
  partId: number,
  message: string,
): Promise<void> {
  const removed = await tx
    .delete(table)
    .where(and(eq(table.projectId, actor.projectId), eq(table.measureId, measureId), eq(table.id, partId)))
    .returning({ id: table.id });
  if (removed.length === 0) throw notFound(message);
}

export function addTarget(db: Database, actor: MonitoringActor, measureId: number, input: TargetInput, now: Date) {
  return changeParts(db, actor, measureId, now, async (tx, measure) => {
    const [row] = await tx
      .insert(monTargets)
      .values({
        projectId: actor.projectId,
        measureId,
        value: input.value,
        effectiveFrom: periodStart(input.effective_from, grainOf(measure)),
        kind: input.kind,
        createdBy: actor.userId,
        createdAt: now,
      })
      .returning();
    return {
      action: 'measure_target_added',
      data: { target_id: row!.id, value: row!.value, effective_from: row!.effectiveFrom, kind: row!.kind },
    };
  });
}

export function removeTarget(db: Database, actor: MonitoringActor, measureId: number, targetId: number, now: Date) {
  return changeParts(db, actor, measureId, now, async (tx) => {
    await removePart(tx, actor, monTargets, measureId, targetId, 'Target not found.');
    return { action: 'measure_target_removed', data: { target_id: targetId } };
  });
}

const benchmarkValues = (input: BenchmarkInput) => ({
  source: input.source,
  statistic: input.statistic,
  percentile: input.statistic === 'percentile' ? input.percentile : null,
  value: input.value,
  periodLabel: input.period_label,
  asOf: input.as_of,
  specMatch: input.spec_match,
  citationUrl: input.citation_url,
  note: input.note,
});

export function addBenchmark(
  db: Database,
  actor: MonitoringActor,
  measureId: number,
  input: BenchmarkInput,
  now: Date,
) {
  return changeParts(db, actor, measureId, now, async (tx) => {
    const [row] = await tx
      .insert(monBenchmarks)
      .values({
        projectId: actor.projectId,
        measureId,
        ...benchmarkValues(input),
        createdBy: actor.userId,
        createdAt: now,
      })
      .returning();
    return {
      action: 'measure_benchmark_added',
      data: { benchmark_id: row!.id, source: row!.source, statistic: row!.statistic, value: row!.value },
    };
  });
}

export function updateBenchmark(
  db: Database,
  actor: MonitoringActor,
  measureId: number,
  benchmarkId: number,
  input: BenchmarkInput,
  now: Date,
) {
  return changeParts(db, actor, measureId, now, async (tx) => {
    const which = and(
      eq(monBenchmarks.projectId, actor.projectId),
      eq(monBenchmarks.measureId, measureId),
      eq(monBenchmarks.id, benchmarkId),
    );
    const [before] = await tx.select().from(monBenchmarks).where(which);
    const values = benchmarkValues(input);
    const updated = await tx.update(monBenchmarks).set(values).where(which).returning({ id: monBenchmarks.id });
    if (!before || updated.length === 0) throw notFound('Benchmark not found.');
    return {
      action: 'measure_benchmark_updated',
      data: {
        benchmark_id: benchmarkId,
        source: input.source,
        statistic: input.statistic,
        value: input.value,
        changes: partChanges(before, values),
      },
    };
  });
}

export function removeBenchmark(
  db: Database,
  actor: MonitoringActor,
  measureId: number,
  benchmarkId: number,
  now: Date,
) {
  return changeParts(db, actor, measureId, now, async (tx) => {
    await removePart(tx, actor, monBenchmarks, measureId, benchmarkId, 'Benchmark not found.');
    return { action: 'measure_benchmark_removed', data: { benchmark_id: benchmarkId } };
  });
}

/** A phase starts a new centre line and limits; one per period (409 when the period already has one). */
export function addPhase(db: Database, actor: MonitoringActor, measureId: number, input: PhaseInput, now: Date) {
  return changeParts(db, actor, measureId, now, async (tx, measure) => {
    const start = periodStart(input.start_period, grainOf(measure));
    await refuseTakenPhase(tx, actor, measureId, start, grainOf(measure));
    const [row] = await tx
      .insert(monPhases)
      .values({
        projectId: actor.projectId,
        measureId,
        startPeriod: start,
        label: input.label,
        reason: input.reason,
        createdBy: actor.userId,
        createdAt: now,
      })
      .returning();
    return {
      action: 'measure_phase_added',
      data: { phase_id: row!.id, start_period: start, label: row!.label, reason: row!.reason },
    };
  });
}

export function removePhase(db: Database, actor: MonitoringActor, measureId: number, phaseId: number, now: Date) {
  return changeParts(db, actor, measureId, now, async (tx) => {
    await removePart(tx, actor, monPhases, measureId, phaseId, 'Phase not found.');
    return { action: 'measure_phase_removed', data: { phase_id: phaseId } };
  });
}

const annotationValues = (input: AnnotationInput, grain: PeriodGrain) => ({
  periodStart: periodStart(input.period_start, grain),
  kind: input.kind,
  text: input.text,
  excludeFromLimits: input.exclude_from_limits,
});

export function addAnnotation(
  db: Database,
  actor: MonitoringActor,
  measureId: number,
  input: AnnotationInput,
  now: Date,
) {
  return changeParts(db, actor, measureId, now, async (tx, measure) => {
    const [row] = await tx
      .insert(monAnnotations)
      .values({
        projectId: actor.projectId,
        measureId,
        ...annotationValues(input, grainOf(measure)),
        createdBy: actor.userId,
        createdAt: now,
      })
      .returning();
    return {
      action: 'measure_annotation_added',
      data: {
        annotation_id: row!.id,
        period_start: row!.periodStart,
        kind: row!.kind,
        excluded: row!.excludeFromLimits,
      },
    };
  });
}

export function updateAnnotation(
  db: Database,
  actor: MonitoringActor,
  measureId: number,
  annotationId: number,
  input: AnnotationInput,
  now: Date,
) {
  return changeParts(db, actor, measureId, now, async (tx, measure) => {
    const values = annotationValues(input, grainOf(measure));
    const which = and(
      eq(monAnnotations.projectId, actor.projectId),
      eq(monAnnotations.measureId, measureId),
      eq(monAnnotations.id, annotationId),
    );
    const [before] = await tx.select().from(monAnnotations).where(which);
    const updated = await tx.update(monAnnotations).set(values).where(which).returning({ id: monAnnotations.id });
    if (!before || updated.length === 0) throw notFound('Annotation not found.');
    return {
      action: 'measure_annotation_updated',
      data: {
        annotation_id: annotationId,
        period_start: values.periodStart,
        kind: values.kind,
        excluded: values.excludeFromLimits,
        changes: partChanges(before, values),
      },
    };
  });
}

export function removeAnnotation(
  db: Database,
  actor: MonitoringActor,
  measureId: number,
  annotationId: number,
  now: Date,
) {
  return changeParts(db, actor, measureId, now, async (tx) => {
    await removePart(tx, actor, monAnnotations, measureId, annotationId, 'Annotation not found.');
    return { action: 'measure_annotation_removed', data: { annotation_id: annotationId } };
  });
}
