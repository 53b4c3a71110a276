import { createHash, createHmac, randomInt } from 'node:crypto';
import {
  type CrDrawInput,
  type CrSample,
  type CrSampleCase,
  type CrSampleList,
  type CrSampleStatus,
  type CrSampleSummary,
  type CrStratumSize,
  drawSample,
  newSeed,
  type SamplingPlan,
} from '@portal/shared';
import { and, asc, desc, eq, inArray, like, sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../db/client.js';
import { nameOf } from '../../db/person-name.js';
import { loadProjectRow } from '../../db/project-row.js';
import { crAccessLog, crAssignments, crCases, crSamples, crToolVersions, users } from '../../db/schema/index.js';
import { decrypt, encrypt } from '../../lib/crypto.js';
import { csvField, safeFileName } from '../../lib/csv.js';
import { AppError, notFound } from '../../lib/errors.js';
import { type ChartReviewActor, mayUse } from '../../policies/chart-review.js';
import {
  DRAW_FIRST,
  LIST_LOCKED,
  PULL_LIST_DRAW_FIRST,
  REFS_GONE,
  SAMPLE_LOCKED,
  type SampleFacts,
  sampleRules,
} from '../../policies/chart-review-records.js';
import { authorize, serialize } from '../../policies/rules.js';
import { loadProgram } from './programs.service.js';
import { chartReviewAudit, isUniqueViolation } from './route-kit.js';
import { readEligibleList } from './sampling.csv.js';
import { loadSettings } from './settings.service.js';

/**
 * Samples (docs/chart-review.md "Sampling"; decision record 012): the eligible-case list of one programme period,
 * uploaded from the EHR, becomes `cr_cases` with random case codes, the unit and the discharge month; the encounter
 * reference is kept only encrypted (AES-256-GCM with the app key) with an HMAC to find repeats. The draw ranks every
 * case with the shared engine (`drawSample`, sorted by the reference, so a surveyor with the list and the seed can
 * recompute it); the ranked list downloads with the seed, the algorithm and the file's SHA-256. Every query filters
 * on the actor's project.
 */

export const SAMPLE_NOT_FOUND = 'Sample not found.';

type SampleRow = typeof crSamples.$inferSelect;

/** The facts the sample rules read (policies/chart-review-records.ts). */
const sampleFacts = (
  row: SampleRow,
  refsStored: boolean,
  settings: { revealRoles: readonly string[] },
): SampleFacts => ({
  projectId: row.projectId,
  status: row.status as CrSampleStatus,
  refsStored,
  revealRoles: settings.revealRoles,
});

/** HMAC-SHA-256 of an encounter reference with the app key: finds repeats without reading the reference. */
export const refHash = (ref: string, appKey: Buffer) => createHmac('sha256', appKey).update(ref).digest('hex');

export async function loadSample(db: DbOrTx, projectId: number, sampleId: number, lock = false): Promise<SampleRow> {
  return loadProjectRow(db, crSamples, projectId, sampleId, SAMPLE_NOT_FOUND, lock);
}

// ------------------------------------------------------------------------------------------------ presenting

const countsOf = {
  eligible: sql<number>`(select count(*)::int from cr_cases c where c.sample_id = cr_samples.id)`,
  selected: sql<number>`(select count(*)::int from cr_cases c where c.sample_id = cr_samples.id and c.status = 'selected')`,
  excluded: sql<number>`(select count(*)::int from cr_cases c where c.sample_id = cr_samples.id and c.status = 'excluded')`,
  assigned: sql<number>`(select count(*)::int from cr_assignments a join cr_cases c on c.id = a.case_id
    where c.sample_id = cr_samples.id and a.role = 'primary')`,
  submitted: sql<number>`(select count(*)::int from cr_assignments a join cr_cases c on c.id = a.case_id
    where c.sample_id = cr_samples.id and a.role = 'primary' and a.status = 'submitted')`,
};

async function selectSummaries(
  db: DbOrTx,
  projectId: number,
  where: { programId?: number; sampleId?: number },
): Promise<{ row: SampleRow; summary: CrSampleSummary }[]> {
  const rows = await db
    .select({ sample: crSamples, ...countsOf })
    .from(crSamples)
    .where(
      and(
        eq(crSamples.projectId, projectId),
        where.programId === undefined ? undefined : eq(crSamples.programId, where.programId),
        where.sampleId === undefined ? undefined : eq(crSamples.id, where.sampleId),
      ),
    )
    .orderBy(desc(crSamples.periodStart));
  return rows.map(({ sample, ...counts }) => ({
    row: sample,
    summary: {
      id: sample.id,
      program_id: sample.programId,
      period_start: sample.periodStart,
      status: sample.status as CrSampleSummary['status'],
      file_name: sample.fileName,
      row_count: sample.rowCount,
      size: sample.size,
      counts,
      uploaded_at: sample.uploadedAt.toISOString(),
      drawn_at: sample.drawnAt?.toISOString() ?? null,
      locked_at: sample.lockedAt?.toISOString() ?? null,
    },
  }));
}

/** GET /programs/{id}/samples: newest period first. */
export async function listSamples(db: DbOrTx, actor: ChartReviewActor, programId: number): Promise<CrSampleList> {
  await loadProgram(db, actor.projectId, programId);
  const rows = await selectSummaries(db, actor.projectId, { programId });
  return { samples: rows.map((r) => r.summary), abilities: { upload: mayUse(actor, 'sampling') } };
}

async function namesOf(db: DbOrTx, ids: (number | null)[]): Promise<Map<number, string>> {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
  if (!wanted.length) return new Map();
  const rows = await db
    .select({ id: users.id, name: nameOf(users) })
    .from(users)
    .where(inArray(users.id, wanted));
  return new Map(rows.map((row) => [row.id, row.name]));
}

const monthOnly = (date: string | null) => (date === null ? null : date.slice(0, 7));

/** GET /samples/{id}: the sample with its selected and excluded cases (never the eligible rest, never a reference). */
export async function getSample(db: DbOrTx, actor: ChartReviewActor, sampleId: number): Promise<CrSample> {
  const [found] = await selectSummaries(db, actor.projectId, { sampleId });
  if (!found) throw notFound(SAMPLE_NOT_FOUND);
  const { row, summary } = found;
  const program = await loadProgram(db, actor.projectId, row.programId);
  const settings = await loadSettings(db, actor.projectId);
  const cases = await db
    .select({
      id: crCases.id,
      caseCode: crCases.caseCode,
      unit: crCases.unit,
      dischargeMonth: crCases.dischargeMonth,
      stratum: crCases.stratum,
      rank: crCases.sampleRank,
      status: crCases.status,
      reason: crCases.exclusionReason,
      replacedBy: crCases.replacedByCaseId,
      stored: sql<boolean>`${crCases.encounterRefEnc} is not null`,
    })
    .from(crCases)
    .where(
      and(
        eq(crCases.projectId, actor.projectId),
        eq(crCases.sampleId, row.id),
        inArray(crCases.status, ['selected', 'excluded']),
      ),
    )
    .orderBy(asc(crCases.stratum), asc(crCases.sampleRank), asc(crCases.caseCode));
  const codes = new Map(cases.map((c) => [c.id, c.caseCode]));
  const assignments = cases.length
    ? await db
        .select({
          id: crAssignments.id,
          caseId: crAssignments.caseId,
          reviewerId: crAssignments.reviewerId,
          reviewerName: nameOf(users),
          role: crAssignments.role,
          blind: crAssignments.blind,
          status: crAssignments.status,
          dueAt: crAssignments.dueAt,
        })
        .from(crAssignments)
        .innerJoin(users, eq(users.id, crAssignments.reviewerId))
        .innerJoin(crCases, eq(crCases.id, crAssignments.caseId))
        .where(and(eq(crAssignments.projectId, actor.projectId), eq(crCases.sampleId, row.id)))
        .orderBy(asc(crAssignments.role), asc(crAssignments.id))
    : [];
  const byCase = new Map<number, CrSampleCase['assignments']>();
  for (const a of assignments) {
    const list = byCase.get(a.caseId) ?? [];
    list.push({
      id: a.id,
      reviewer: { id: a.reviewerId, name: a.reviewerName },
      role: a.role as 'primary' | 'second',
      blind: a.blind,
      status: a.status as CrSampleCase['assignments'][number]['status'],
      due_at: a.dueAt,
    });
    byCase.set(a.caseId, list);
  }
  const names = await namesOf(db, [row.uploadedBy, row.drawnBy, row.lockedBy]);
  const person = (id: number | null) => (id === null || !names.has(id) ? null : { id, name: names.get(id)! });
  const [version] =
    row.toolVersionId === null
      ? []
      : await db
          .select({ id: crToolVersions.id, version: crToolVersions.version })
          .from(crToolVersions)
          .where(and(eq(crToolVersions.projectId, actor.projectId), eq(crToolVersions.id, row.toolVersionId)));
  const selected = cases.filter((c) => c.status === 'selected');
  const refsStored = selected.length > 0 && selected.every((c) => c.stored);
  return {
    ...summary,
    program: {
      id: program.id,
      name: program.name,
      grain: program.grain as 'month' | 'quarter',
      units: program.units,
    },
    file_sha256: row.fileSha256,
    plan: (row.plan as SamplingPlan | null) ?? null,
    seed: row.seed,
    algorithm: row.algorithm,
    by_stratum: (row.byStratum as CrStratumSize[] | null) ?? [],
    tool_version: version ?? null,
    uploaded_by: person(row.uploadedBy),
    drawn_by: person(row.drawnBy),
    locked_by: person(row.lockedBy),
    keeps_refs: settings.storeEncounterRef,
    refs_stored: refsStored,
    cases: cases.map((c) => ({
      id: c.id,
      case_code: c.caseCode,
      unit: c.unit,
      discharge_month: monthOnly(c.dischargeMonth),
      stratum: c.stratum,
      rank: c.rank,
      status: c.status as CrSampleCase['status'],
      exclusion_reason: c.reason,
      replacement_case_code: c.replacedBy === null ? null : (codes.get(c.replacedBy) ?? null),
      ref_stored: c.stored,
      assignments: byCase.get(c.id) ?? [],
    })),
    abilities: serialize(sampleRules, actor, sampleFacts(row, refsStored, settings)),
  };
}

// ------------------------------------------------------------------------------------------------ upload

/** The first day of a period of the grain: any month, or a quarter starting in January, April, July or October. */
export function checkPeriodStart(value: string, grain: string): string {
  const message =
    grain === 'quarter'
      ? 'Choose the first day of a quarter (1 January, April, July or October), as YYYY-MM-DD.'
      : 'Choose the first day of a month, as YYYY-MM-DD.';
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim());
  const month = m ? Number(m[2]) : 0;
  const ok = m !== null && m[3] === '01' && month >= 1 && month <= 12 && (grain !== 'quarter' || month % 3 === 1);
  if (!ok) throw new AppError('VALIDATION_FAILED', message, { period_start: [message] });
  return value.trim();
}

/** Random case codes CR-YYYY-MM-NNNN not yet used in the project; more digits when four would crowd. */
async function newCaseCodes(tx: DbOrTx, projectId: number, periodStart: string, n: number): Promise<string[]> {
  const prefix = `CR-${periodStart.slice(0, 7)}-`;
  // One upload at a time draws codes of this prefix in the project: no two can pick the same code.
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`cr_case_codes:${projectId}:${prefix}`}))`);
  const taken = new Set(
    (
      await tx
        .select({ code: crCases.caseCode })
        .from(crCases)
        .where(and(eq(crCases.projectId, projectId), like(crCases.caseCode, `${prefix}%`)))
    ).map((row) => row.code),
  );
  let width = 4;
  // At most half of the codes of a width in use, so a random pick rarely collides.
  while ((taken.size + n) * 2 > 10 ** width) width++;
  const codes: string[] = [];
  while (codes.length < n) {
    const code = `${prefix}${String(randomInt(0, 10 ** width)).padStart(width, '0')}`;
    if (taken.has(code)) continue;
    taken.add(code);
    codes.push(code);
  }
  return codes;
}

const BATCH = 2000;

/**
 * POST /programs/{id}/samples: the eligible-case list of a period. A period's list that is not locked is replaced
 * (with any draw); a locked one answers 409.
 */
export async function uploadSample(
  db: Database,
  actor: ChartReviewActor,
  appKey: Buffer,
  programId: number,
  upload: { periodStart: string; fileName: string; data: Buffer },
  now: Date,
): Promise<CrSample> {
  const program = await loadProgram(db, actor.projectId, programId);
  const periodStart = checkPeriodStart(upload.periodStart, program.grain);
  const rows = readEligibleList(upload.data, program.units);
  const fileName = (upload.fileName.trim() || 'eligible-cases.csv').slice(0, 255);
  const fileSha256 = sha256Bytes(upload.data);
  const sampleId = await db
    .transaction(async (tx) => {
      const [existing] = await tx
        .select()
        .from(crSamples)
        .where(
          and(
            eq(crSamples.projectId, actor.projectId),
            eq(crSamples.programId, programId),
            eq(crSamples.periodStart, periodStart),
          ),
        )
        .for('update');
      if (existing?.status === 'locked') {
        throw new AppError('CONFLICT', LIST_LOCKED);
      }
      const columns = {
        fileName,
        fileSha256,
        rowCount: rows.length,
        status: 'uploaded',
        plan: null,
        seed: null,
        algorithm: null,
        size: null,
        byStratum: null,
        toolVersionId: null,
        uploadedAt: now,
        uploadedBy: actor.userId,
        drawnAt: null,
        drawnBy: null,
      };
      let id: number;
      if (existing) {
        await tx.delete(crCases).where(and(eq(crCases.projectId, actor.projectId), eq(crCases.sampleId, existing.id)));
        await tx
          .update(crSamples)
          .set(columns)
          .where(and(eq(crSamples.projectId, actor.projectId), eq(crSamples.id, existing.id)));
        id = existing.id;
      } else {
        const [created] = await tx
          .insert(crSamples)
          .values({ projectId: actor.projectId, programId, periodStart, ...columns })
          .returning({ id: crSamples.id });
        id = created!.id;
      }
      const codes = await newCaseCodes(tx, actor.projectId, periodStart, rows.length);
      for (let at = 0; at < rows.length; at += BATCH) {
        await tx.insert(crCases).values(
          rows.slice(at, at + BATCH).map((row, i) => ({
            projectId: actor.projectId,
            sampleId: id,
            programId,
            periodStart,
            caseCode: codes[at + i]!,
            unit: row.unit,
            dischargeMonth: row.dischargeMonth,
            encounterRefEnc: encrypt(row.ref, appKey),
            refHash: refHash(row.ref, appKey),
            createdAt: now,
          })),
        );
      }
      await chartReviewAudit(
        tx,
        actor,
        'sample_uploaded',
        { type: 'cr_sample', id },
        {
          program_id: programId,
          period_start: periodStart,
          file_name: fileName,
          file_sha256: fileSha256,
          rows: rows.length,
          replaced: existing !== undefined,
        },
        now,
      );
      return id;
    })
    .catch((error: unknown) => {
      if (isUniqueViolation(error, 'cr_samples_period_unique')) {
        throw new AppError('CONFLICT', 'Another list for this period was saved at the same moment. Please reload.');
      }
      throw error;
    });
  return getSample(db, actor, sampleId);
}

/** SHA-256 of the file's own bytes (what a surveyor re-hashes). */
const sha256Bytes = (data: Buffer) => createHash('sha256').update(data).digest('hex');

// ------------------------------------------------------------------------------------------------ draw

/** The stored cases of a sample with their decrypted references (in memory only). */
async function casesWithRefs(tx: DbOrTx, projectId: number, sampleId: number, appKey: Buffer) {
  const rows = await tx
    .select({ id: crCases.id, enc: crCases.encounterRefEnc, unit: crCases.unit, caseCode: crCases.caseCode })
    .from(crCases)
    .where(and(eq(crCases.projectId, projectId), eq(crCases.sampleId, sampleId)));
  if (rows.some((row) => row.enc === null)) {
    throw new AppError('CONFLICT', `${REFS_GONE} Upload the list again to draw a new sample.`);
  }
  return rows.map((row) => ({ id: row.id, unit: row.unit, caseCode: row.caseCode, ref: decrypt(row.enc!, appKey) }));
}

/** POST /samples/{id}/draw: ranks every case, selects the plan's share, clears earlier exclusions. */
export async function drawSampleCases(
  db: Database,
  actor: ChartReviewActor,
  appKey: Buffer,
  sampleId: number,
  input: CrDrawInput,
  now: Date,
): Promise<CrSample> {
  await db.transaction(async (tx) => {
    const sample = await loadSample(tx, actor.projectId, sampleId, true);
    if (sample.status === 'locked') throw new AppError('CONFLICT', SAMPLE_LOCKED);
    const program = await loadProgram(tx, actor.projectId, sample.programId);
    const plan = input.plan ?? (program.sampling as SamplingPlan);
    const seed = input.seed ?? newSeed();
    const cases = await casesWithRefs(tx, actor.projectId, sampleId, appKey);
    const idOf = new Map(cases.map((c) => [c.ref, c.id]));
    const drawn = drawSample({ cases: cases.map(({ ref, unit }) => ({ ref, unit })), plan, seed });
    const updates = drawn.ranked.map((c) => ({
      id: idOf.get(c.ref)!,
      stratum: c.stratum,
      rank: c.rank,
      status: c.selected ? 'selected' : 'eligible',
    }));
    for (let at = 0; at < updates.length; at += 5000) {
      const batch = JSON.stringify(updates.slice(at, at + 5000));
      await tx.execute(sql`
        update cr_cases c
           set stratum = v.stratum, sample_rank = v.rank, status = v.status, exclusion_reason = null,
               excluded_at = null, excluded_by = null, replaced_by_case_id = null
          from jsonb_to_recordset(${batch}::jsonb) as v(id int, stratum text, rank int, status text)
         where c.id = v.id and c.project_id = ${actor.projectId} and c.sample_id = ${sampleId}`);
    }
    await tx
      .update(crSamples)
      .set({
        plan,
        seed,
        algorithm: drawn.algorithm,
        size: drawn.size,
        byStratum: drawn.byStratum,
        status: 'drawn',
        drawnAt: now,
        drawnBy: actor.userId,
      })
      .where(and(eq(crSamples.projectId, actor.projectId), eq(crSamples.id, sampleId)));
    await chartReviewAudit(
      tx,
      actor,
      'sample_drawn',
      { type: 'cr_sample', id: sampleId },
      { seed, plan, algorithm: drawn.algorithm, size: drawn.size, by_stratum: drawn.byStratum },
      now,
    );
  });
  return getSample(db, actor, sampleId);
}

// ------------------------------------------------------------------------------------------------ files

/** One CSV line, every cell escaped (a leading = + - @ TAB or CR gets an apostrophe), CRLF end. */
const line = (cells: readonly unknown[]) => `${cells.map((cell) => csvField(cell)).join(',')}\r\n`;

async function fileBase(db: DbOrTx, projectId: number, sample: SampleRow, what: string): Promise<string> {
  const program = await loadProgram(db, projectId, sample.programId);
  return safeFileName(`${what}-${program.name}-${sample.periodStart.slice(0, 7)}.csv`);
}

/** GET /samples/{id}/ranked.csv: every case by stratum and rank, under a block giving the seed and the file. */
export async function rankedCsv(
  db: DbOrTx,
  actor: ChartReviewActor,
  sampleId: number,
): Promise<{ fileName: string; text: string }> {
  const sample = await loadSample(db, actor.projectId, sampleId);
  if (sample.status === 'uploaded')
    throw new AppError('CONFLICT', `${DRAW_FIRST} The ranked list comes from the draw.`);
  const program = await loadProgram(db, actor.projectId, sample.programId);
  const settings = await loadSettings(db, actor.projectId);
  const cases = await db
    .select({
      stratum: crCases.stratum,
      rank: crCases.sampleRank,
      caseCode: crCases.caseCode,
      status: crCases.status,
      refHash: crCases.refHash,
    })
    .from(crCases)
    .where(and(eq(crCases.projectId, actor.projectId), eq(crCases.sampleId, sampleId)))
    .orderBy(asc(crCases.stratum), asc(crCases.sampleRank), asc(crCases.caseCode));
  let text = '';
  text += line(['Privilege', settings.privilegeLabel]);
  text += line(['Programme', program.name]);
  text += line(['Period start', sample.periodStart]);
  text += line(['File', sample.fileName]);
  text += line(['File SHA-256', sample.fileSha256]);
  text += line(['Rows', String(sample.rowCount)]);
  text += line(['Seed', sample.seed]);
  text += line(['Algorithm', sample.algorithm]);
  text += line(['Plan', JSON.stringify(sample.plan)]);
  text += '\r\n';
  text += line(['stratum', 'rank', 'case_code', 'selected', 'status', 'ref_hash']);
  for (const c of cases) {
    text += line([
      c.stratum,
      c.rank === null ? '' : String(c.rank),
      c.caseCode,
      c.status === 'selected' ? 'yes' : 'no',
      c.status,
      c.refHash,
    ]);
  }
  return { fileName: await fileBase(db, actor.projectId, sample, 'ranked-list'), text };
}

/**
 * GET /samples/{id}/pull-list.csv: the selected cases with their encounter references, for the records team. Every
 * download is logged (cr_access_log pull_list, with the reason) and audited. The roles that may reveal encounter
 * references (settings reveal_roles) are the ones that may download it (`sampleRules` pull_list).
 */
export async function pullListCsv(
  db: Database,
  actor: ChartReviewActor,
  appKey: Buffer,
  sampleId: number,
  reason: string,
  now: Date,
): Promise<{ fileName: string; text: string }> {
  return db.transaction(async (tx) => {
    const sample = await loadSample(tx, actor.projectId, sampleId);
    if (sample.status === 'uploaded') throw new AppError('CONFLICT', PULL_LIST_DRAW_FIRST);
    const settings = await loadSettings(tx, actor.projectId);
    const cases = await tx
      .select({
        caseCode: crCases.caseCode,
        unit: crCases.unit,
        dischargeMonth: crCases.dischargeMonth,
        enc: crCases.encounterRefEnc,
      })
      .from(crCases)
      .where(
        and(eq(crCases.projectId, actor.projectId), eq(crCases.sampleId, sampleId), eq(crCases.status, 'selected')),
      )
      .orderBy(asc(crCases.caseCode));
    const refsStored = cases.length > 0 && cases.every((c) => c.enc !== null);
    if (!refsStored) throw notFound(REFS_GONE);
    authorize(sampleRules, 'pull_list', actor, sampleFacts(sample, refsStored, settings));
    await tx.insert(crAccessLog).values({
      projectId: actor.projectId,
      userId: actor.userId,
      action: 'pull_list',
      sampleId,
      reason,
      ip: actor.ip,
      createdAt: now,
    });
    await chartReviewAudit(
      tx,
      actor,
      'pull_list_downloaded',
      { type: 'cr_sample', id: sampleId },
      { reason, cases: cases.length },
      now,
    );
    let text = line(['Privilege', settings.privilegeLabel]);
    text += '\r\n';
    text += line(['case_code', 'unit', 'discharge_month', 'encounter_reference']);
    for (const c of cases) {
      text += line([c.caseCode, c.unit, monthOnly(c.dischargeMonth), decrypt(c.enc!, appKey)]);
    }
    return { fileName: await fileBase(tx, actor.projectId, sample, 'pull-list'), text };
  });
}
