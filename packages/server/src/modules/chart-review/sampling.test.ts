import { createHash, createHmac } from 'node:crypto';
import { type CrSample, drawSample, SAMPLING_ALGORITHM } from '@portal/shared';
import { and, asc, desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { TEST_APP_KEY, useTestApp } from '../../../test/app.js';
import {
  chartReviewSnapshot,
  expectGuards,
  expectSwitchedOff,
  type GuardedCall,
} from '../../../test/chart-review-kit.js';
import { drawnSample, eligibleCsv, samplingSetup, uploadList } from '../../../test/chart-review-sampling-kit.js';
import { auditEvents, crCases, crSamples } from '../../db/schema/index.js';
import { decrypt } from '../../lib/crypto.js';
import { dischargeMonthOf, isForbiddenHeader } from './sampling.csv.js';

describe('chart review sampling: lists, draw, ranked list, exclusions', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;

  const casesOf = (sampleId: number) =>
    db().select().from(crCases).where(eq(crCases.sampleId, sampleId)).orderBy(asc(crCases.id));

  function calls(programId: number, sample: CrSample): GuardedCall[] {
    const selected = sample.cases.find((c) => c.status === 'selected')!;
    return [
      { method: 'GET', path: `/programs/${programId}/samples`, viewer: true, namesRow: true },
      { method: 'POST', path: `/programs/${programId}/samples`, viewer: false, namesRow: true },
      { method: 'GET', path: `/samples/${sample.id}`, viewer: true, namesRow: true },
      { method: 'GET', path: `/samples/${sample.id}/ranked.csv`, viewer: true, namesRow: true },
      { method: 'POST', path: `/samples/${sample.id}/draw`, body: { seed: 'x' }, viewer: false, namesRow: true },
      {
        method: 'POST',
        path: `/cases/${selected.id}/exclude`,
        body: { reason: 'Transferred out' },
        viewer: false,
        namesRow: true,
      },
      {
        method: 'POST',
        path: `/samples/${sample.id}/lock`,
        body: { mode: 'round_robin', reviewer_ids: [1] },
        viewer: false,
        namesRow: true,
      },
      {
        method: 'GET',
        path: `/samples/${sample.id}/pull-list.csv?reason=Pull%20charts`,
        viewer: false,
        namesRow: true,
      },
      {
        method: 'POST',
        path: `/cases/${selected.id}/reveal`,
        body: { reason: 'Chart not found by code' },
        viewer: false,
        namesRow: true,
      },
      { method: 'GET', path: '/reviewer-units', viewer: true, namesRow: false },
      { method: 'PUT', path: '/reviewer-units', body: { reviewers: [] }, viewer: false, namesRow: false },
    ];
  }

  it('guards every call: 401, 403 without a role, 403 for the viewer on changes, 404 from elsewhere, 419', async () => {
    const s = await samplingSetup(ctx);
    const sample = await drawnSample(s);
    // The pull list is the sampling section's: the GET guard below runs it as lead, admin and superadmin.
    const list = calls(s.program.id, sample);
    await expectGuards(
      ctx,
      s,
      list.filter((c) => !c.path.includes('pull-list')),
    );
    // The pull list: anonymous 401, no role 403, viewer 403, elsewhere 404 (its downloads are logged, so apart).
    const agents = await ctx.signedInAll(s.people, 'noRole', 'viewer', 'reviewer', 'outsider');
    const before = await chartReviewSnapshot(db());
    const pull = `${s.base}/samples/${sample.id}/pull-list.csv?reason=Pull%20charts`;
    expect((await ctx.agent().get(pull)).statusCode).toBe(401);
    expect((await agents.noRole.get(pull)).statusCode).toBe(403);
    expect((await agents.viewer.get(pull)).statusCode).toBe(403);
    expect((await agents.reviewer.get(pull)).statusCode).toBe(403);
    expect((await agents.outsider.get(pull)).statusCode).toBe(404);
    expect(
      (await agents.outsider.get(`${s.otherBase}/samples/${sample.id}/pull-list.csv?reason=Pull%20charts`)).statusCode,
    ).toBe(404);
    expect(await chartReviewSnapshot(db())).toEqual(before);
  });

  it('answers 404 to every call when chart review is switched off for the project', async () => {
    const s = await samplingSetup(ctx);
    const sample = await drawnSample(s);
    await expectSwitchedOff(ctx, s, calls(s.program.id, sample));
  });

  it('stores an uploaded list as cases with random codes, units, months, encrypted references and hashes', async () => {
    const s = await samplingSetup(ctx);
    const csv = '\uFEFFAccount;Ward;Discharged;Notes\nA-7;ward a;2026-03-14;x\n\nB-9;Ward B;3/2/2026;y\nC-1;;;\n';
    const answer = await uploadList(s.lead, s, s.program.id, csv, '2026-03-01', 'march.csv');
    expect(answer.statusCode, answer.body).toBe(201);
    const sample = answer.json() as CrSample;
    expect(sample).toMatchObject({
      program_id: s.program.id,
      period_start: '2026-03-01',
      status: 'uploaded',
      file_name: 'march.csv',
      file_sha256: createHash('sha256').update(Buffer.from(csv)).digest('hex'),
      row_count: 3,
      plan: null,
      seed: null,
      counts: { eligible: 3, selected: 0, excluded: 0, assigned: 0, submitted: 0 },
      uploaded_by: { id: s.people.lead.id, name: 'Leo Lead' },
      cases: [],
      abilities: { upload: true, draw: true, exclude: false, lock: false, pull_list: false },
    });
    const rows = await casesOf(sample.id);
    expect(rows.map((row) => row.caseCode)).toEqual(rows.map(() => expect.stringMatching(/^CR-2026-03-\d{4}$/)));
    expect(new Set(rows.map((row) => row.caseCode)).size).toBe(3);
    expect(rows.map((row) => [row.unit, row.dischargeMonth, row.status])).toEqual([
      ['Ward A', '2026-03-01', 'eligible'],
      ['Ward B', '2026-03-01', 'eligible'],
      [null, null, 'eligible'],
    ]);
    expect(rows.map((row) => decrypt(row.encounterRefEnc!, TEST_APP_KEY))).toEqual(['A-7', 'B-9', 'C-1']);
    expect(rows[0]!.encounterRefEnc).not.toContain('A-7');
    expect(rows[0]!.refHash).toBe(createHmac('sha256', TEST_APP_KEY).update('A-7').digest('hex'));
    const [event] = await db().select().from(auditEvents).orderBy(desc(auditEvents.id)).limit(1);
    expect(event).toMatchObject({ action: 'chart_review.sample_uploaded', subjectId: String(sample.id) });
    expect(JSON.stringify(event!.data)).not.toMatch(/A-7|B-9|C-1/);

    // The programme's samples, newest period first.
    const april = await uploadList(s.lead, s, s.program.id, eligibleCsv(2), '2026-04-01');
    expect(april.statusCode).toBe(201);
    const list = await (await ctx.signedIn(s.people.viewer)).get(`${s.base}/programs/${s.program.id}/samples`);
    expect(list.statusCode).toBe(200);
    expect(list.json().samples.map((x: CrSample) => [x.period_start, x.row_count])).toEqual([
      ['2026-04-01', 2],
      ['2026-03-01', 3],
    ]);
    expect(list.json().abilities).toEqual({ upload: false });
  });

  it('refuses names and birth dates, a missing reference column, empty files, repeats, unknown units and bad periods', async () => {
    const s = await samplingSetup(ctx);
    const before = await chartReviewSnapshot(db());
    const refused = async (csv: string, period = '2026-03-01') => {
      const answer = await uploadList(s.lead, s, s.program.id, csv, period);
      expect(answer.statusCode, answer.body).toBe(400);
      return answer.json() as { message: string; errors: Record<string, string[]> };
    };
    expect((await refused('encounter,Patient name\nE1,x\n')).errors).toEqual({
      file: ["Remove the column 'Patient name': chart review never stores names or birth dates."],
    });
    expect((await refused('encounter,DOB\nE1,x\n')).message).toBe(
      "Remove the column 'DOB': chart review never stores names or birth dates.",
    );
    expect((await refused('encounter,Date of birth\nE1,x\n')).message).toContain("'Date of birth'");
    expect((await refused('Unit,Discharge\nWard A,2026-03-01\n')).message).toBe(
      'The file has no encounter reference column. Name it encounter, encounter_ref, account, visit or mrn.',
    );
    expect((await refused('')).message).toBe('The file is empty.');
    expect((await refused('encounter,unit\n')).message).toBe(
      'The file has no cases: put one row per eligible case under the header.',
    );
    expect((await refused('mrn\nA\nB\nA\nC\nB\nA\nA\nA\nA\n')).message).toBe(
      'The encounter reference on rows 4, 6, 7, 8 and 9 (and 1 more) is already on an earlier row. Each case may appear only once.',
    );
    expect((await refused('visit,unit\nV1,Ward A\nV2,ICU\nV3,Ward C\n')).message).toBe(
      "The unit on rows 3 and 4 is not one of this programme's units (ICU, Ward C). The programme covers Ward A, Ward B.",
    );
    expect((await refused('visit,discharge_date\nV1,2026-02-30\n')).message).toBe(
      'The discharge date on row 2 is not a date (use YYYY-MM-DD).',
    );
    expect((await refused(eligibleCsv(2), '2026-03-15')).errors).toEqual({
      period_start: ['Choose the first day of a month, as YYYY-MM-DD.'],
    });
    expect(
      (await refused(`encounter\n${Array.from({ length: 50_001 }, (_, i) => `E${i}`).join('\n')}\n`)).message,
    ).toBe('The file has 50,001 cases; at most 50,000 fit in one sample. Split the list by period.');
    const big = await uploadList(s.lead, s, s.program.id, Buffer.alloc(10 * 1024 * 1024 + 10, 'a'));
    expect(big.statusCode).toBe(413);
    expect(big.json().message).toBe('The file is larger than 10 MB.');
    expect(await chartReviewSnapshot(db())).toEqual(before);
  });

  it('takes quarters only from their first day in a quarterly programme', async () => {
    const s = await samplingSetup(ctx, { grain: 'quarter' });
    const wrong = await uploadList(s.lead, s, s.program.id, eligibleCsv(2), '2026-02-01');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors.period_start).toEqual([
      'Choose the first day of a quarter (1 January, April, July or October), as YYYY-MM-DD.',
    ]);
    const right = await uploadList(s.lead, s, s.program.id, eligibleCsv(2), '2026-04-01');
    expect(right.statusCode).toBe(201);
    expect(right.json().cases).toEqual([]);
    expect((await casesOf(right.json().id))[0]!.caseCode).toMatch(/^CR-2026-04-\d{4}$/);
  });

  it('draws reproducibly with the shared engine and stores the seed, plan, algorithm and strata', async () => {
    const s = await samplingSetup(ctx);
    const csv = eligibleCsv(12);
    const sample = await drawnSample(s, {
      csv,
      seed: 'fixed-seed',
      plan: { method: 'fixed', n: 4, stratify_by_unit: true },
    });
    expect(sample).toMatchObject({
      status: 'drawn',
      seed: 'fixed-seed',
      algorithm: SAMPLING_ALGORITHM,
      plan: { method: 'fixed', n: 4, stratify_by_unit: true },
      size: 4,
      by_stratum: [
        { stratum: 'Ward A', population: 6, size: 2 },
        { stratum: 'Ward B', population: 6, size: 2 },
      ],
      counts: { eligible: 12, selected: 4 },
      drawn_by: { id: s.people.lead.id, name: 'Leo Lead' },
      // The lead's role is not among the project's reveal roles (the default: administrators only).
      abilities: { draw: true, exclude: true, lock: true, pull_list: false },
    });
    // What a surveyor recomputes from the list and the seed.
    const expected = drawSample({
      cases: Array.from({ length: 12 }, (_, i) => ({
        ref: `ENC-${String(i + 1).padStart(4, '0')}`,
        unit: i % 2 === 0 ? 'Ward A' : 'Ward B',
      })),
      plan: { method: 'fixed', n: 4, stratify_by_unit: true },
      seed: 'fixed-seed',
    });
    const rows = await casesOf(sample.id);
    const byRef = new Map(rows.map((row) => [decrypt(row.encounterRefEnc!, TEST_APP_KEY), row]));
    for (const ranked of expected.ranked) {
      const row = byRef.get(ranked.ref)!;
      expect([row.stratum, row.sampleRank, row.status]).toEqual([
        ranked.stratum,
        ranked.rank,
        ranked.selected ? 'selected' : 'eligible',
      ]);
    }
    expect(sample.cases.map((c) => c.status)).toEqual(['selected', 'selected', 'selected', 'selected']);
    expect(sample.cases[0]).toMatchObject({ discharge_month: '2026-03', stratum: 'Ward A', rank: 1 });
    expect(JSON.stringify(sample)).not.toMatch(/ENC-/);

    // Without a plan and seed: the programme's plan and a new random seed.
    const again = await s.lead.post(`${s.base}/samples/${sample.id}/draw`, {});
    expect(again.statusCode).toBe(200);
    expect(again.json().plan).toEqual({ method: 'fixed', n: 4 });
    expect(again.json().seed).toMatch(/^[0-9a-f]{32}$/);
    expect(again.json().by_stratum).toEqual([{ stratum: 'All cases', population: 12, size: 4 }]);
    const [event] = await db().select().from(auditEvents).orderBy(desc(auditEvents.id)).limit(1);
    expect(event).toMatchObject({ action: 'chart_review.sample_drawn' });
    expect(event!.data).toMatchObject({ seed: again.json().seed, plan: { method: 'fixed', n: 4 }, size: 4 });

    // A bad plan is refused at its field.
    const bad = await s.lead.post(`${s.base}/samples/${sample.id}/draw`, { plan: { method: 'fixed', n: 0 } });
    expect(bad.statusCode).toBe(400);
  });

  it('excludes a selected case with a reason and selects the next ranked case of its stratum; a redraw clears it', async () => {
    const s = await samplingSetup(ctx);
    const sample = await drawnSample(s, {
      csv: eligibleCsv(6),
      plan: { method: 'fixed', n: 2, stratify_by_unit: true },
    });
    const first = sample.cases.find((c) => c.stratum === 'Ward B')!;
    const short = await s.lead.post(`${s.base}/cases/${first.id}/exclude`, { reason: 'no' });
    expect(short.statusCode).toBe(400);
    expect(short.json().errors.reason).toEqual(['Give a reason of at least 3 characters.']);

    const answer = await s.lead.post(`${s.base}/cases/${first.id}/exclude`, {
      reason: 'Transferred to another hospital',
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const rows = await casesOf(sample.id);
    const next = rows.find((row) => row.stratum === 'Ward B' && row.sampleRank === 2)!;
    expect(answer.json().replacement_case_code).toBe(next.caseCode);
    const after = answer.json().sample as CrSample;
    expect(after.cases.find((c) => c.id === first.id)).toMatchObject({
      status: 'excluded',
      exclusion_reason: 'Transferred to another hospital',
      replacement_case_code: next.caseCode,
    });
    expect(after.counts).toMatchObject({ selected: 2, excluded: 1 });
    const [event] = await db().select().from(auditEvents).orderBy(desc(auditEvents.id)).limit(1);
    expect(event).toMatchObject({ action: 'chart_review.case_excluded', subjectId: String(first.id) });

    // Only a selected case can be excluded.
    const twice = await s.lead.post(`${s.base}/cases/${first.id}/exclude`, { reason: 'Again please' });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe('Only a selected case can be excluded.');

    // Before the lock, a stratum with nothing left just loses the case.
    await s.lead.post(`${s.base}/cases/${next.id}/exclude`, { reason: 'Wrong unit' });
    const last = (await casesOf(sample.id)).find((row) => row.stratum === 'Ward B' && row.status === 'selected')!;
    const none = await s.lead.post(`${s.base}/cases/${last.id}/exclude`, { reason: 'Wrong unit' });
    expect(none.statusCode).toBe(200);
    expect(none.json().replacement_case_code).toBeNull();

    // A redraw clears every exclusion.
    const redraw = await s.lead.post(`${s.base}/samples/${sample.id}/draw`, { seed: 'another' });
    expect(redraw.json().counts).toMatchObject({ selected: 4, excluded: 0 });
    expect(
      (await casesOf(sample.id)).every((row) => row.exclusionReason === null && row.replacedByCaseId === null),
    ).toBe(true);
  });

  it('replaces the list of a period that is not locked, with its draw', async () => {
    const s = await samplingSetup(ctx);
    const sample = await drawnSample(s);
    const again = await uploadList(s.lead, s, s.program.id, eligibleCsv(5), '2026-03-01', 'corrected.csv');
    expect(again.statusCode).toBe(201);
    expect(again.json()).toMatchObject({
      id: sample.id,
      status: 'uploaded',
      file_name: 'corrected.csv',
      row_count: 5,
      seed: null,
      plan: null,
    });
    expect(await casesOf(sample.id)).toHaveLength(5);
    expect(await db().select().from(crSamples).where(eq(crSamples.programId, s.program.id))).toHaveLength(1);
  });

  it('downloads the ranked list with the seed, algorithm and file hash, every cell escaped', async () => {
    const s = await samplingSetup(ctx);
    const uploaded = await uploadList(s.lead, s, s.program.id, eligibleCsv(3));
    const early = await s.lead.get(`${s.base}/samples/${uploaded.json().id}/ranked.csv`);
    expect(early.statusCode).toBe(409);
    const sample = await drawnSample(s, { csv: eligibleCsv(3), seed: '=cmd|seed' });
    const answer = await (await ctx.signedIn(s.people.viewer)).get(`${s.base}/samples/${sample.id}/ranked.csv`);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toContain('text/csv');
    expect(answer.headers['content-disposition']).toMatch(/ranked-list-Falls-prevention-audit-2026-03\.csv/);
    const lines = answer.body.split('\r\n');
    expect(lines).toContain("Seed,'=cmd|seed");
    expect(lines).toContain(`Algorithm,${SAMPLING_ALGORITHM}`);
    expect(lines).toContain(`File SHA-256,${sample.file_sha256}`);
    const header = lines.indexOf('stratum,rank,case_code,selected,status,ref_hash');
    expect(header).toBeGreaterThan(0);
    const body = lines.slice(header + 1).filter(Boolean);
    expect(body).toHaveLength(3);
    const rows = await db()
      .select()
      .from(crCases)
      .where(and(eq(crCases.sampleId, sample.id)))
      .orderBy(asc(crCases.sampleRank));
    expect(body[0]).toBe(`All cases,1,${rows[0]!.caseCode},yes,selected,${rows[0]!.refHash}`);
    expect(answer.body).not.toMatch(/ENC-/);
  });

  it('reads discharge dates as months and spots name and birth-date headers', () => {
    expect(dischargeMonthOf('2026-03-14')).toBe('2026-03-01');
    expect(dischargeMonthOf('2026-03-14T10:00')).toBe('2026-03-01');
    expect(dischargeMonthOf('12/31/2025')).toBe('2025-12-01');
    expect(dischargeMonthOf('31.12.2025')).toBe('2025-12-01');
    expect(dischargeMonthOf('14-Mar-2026')).toBe('2026-03-01');
    expect(dischargeMonthOf('2026-13-01')).toBeNull();
    expect(dischargeMonthOf('soon')).toBeNull();
    for (const header of ['Patient name', 'patient_name', 'FirstName', 'last name', 'DOB', 'Birth date', 'birthdate']) {
      expect(isForbiddenHeader(header), header).toBe(true);
    }
    for (const header of ['Unit', 'Ward name', 'Encounter', 'Discharge date', 'MRN']) {
      expect(isForbiddenHeader(header), header).toBe(false);
    }
  });
});
