import { type CrSample, drawSample } from '@portal/shared';
import { and, asc, desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { chartReviewSnapshot } from '../../../test/chart-review-kit.js';
import {
  drawnSample,
  eligibleCsv,
  samplingSetup,
  setSettings,
  uploadList,
} from '../../../test/chart-review-sampling-kit.js';
import {
  auditEvents,
  crAccessLog,
  crAssignments,
  crCases,
  crIrrPairs,
  crPrograms,
  crReviewerUnits,
  notifications,
} from '../../db/schema/index.js';

describe('chart review sampling: lock and assign, pull list, reveal, reviewer units', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;

  const assignmentsOf = async (sampleId: number) =>
    db()
      .select({
        caseId: crAssignments.caseId,
        code: crCases.caseCode,
        unit: crCases.unit,
        reviewerId: crAssignments.reviewerId,
        role: crAssignments.role,
        blind: crAssignments.blind,
        dueAt: crAssignments.dueAt,
        toolVersionId: crAssignments.toolVersionId,
      })
      .from(crAssignments)
      .innerJoin(crCases, eq(crCases.id, crAssignments.caseId))
      .where(eq(crCases.sampleId, sampleId))
      .orderBy(asc(crAssignments.role), asc(crCases.caseCode));

  it('gives every case of a reviewer still in validation a second review until their answers match enough items', async () => {
    const s = await samplingSetup(ctx, { irr_rate: 0 }, { newReviewerRule: true });
    const sample = await drawnSample(s, { csv: eligibleCsv(10) });
    const lock = (ids: number[], sampleId = sample.id) =>
      s.lead.post(`${s.base}/samples/${sampleId}/lock`, { mode: 'round_robin', reviewer_ids: ids });
    // A new reviewer alone: nobody to do the second reviews.
    const alone = await lock([s.people.reviewer.id]);
    expect(alone.statusCode, alone.body).toBe(400);
    expect(alone.json().errors.reviewer_ids).toEqual([
      'A reviewer chosen is new: each of their reviews gets a second review until their answers match 97% of items. Choose a second reviewer too.',
    ]);
    // Two new reviewers: each case gets a second review by the other, though the programme's share is 0.
    expect((await lock([s.people.reviewer.id, s.reviewer2.id])).statusCode).toBe(200);
    const first = await assignmentsOf(sample.id);
    expect(first.filter((row) => row.role === 'second')).toHaveLength(4);
    for (const row of first.filter((r) => r.role === 'second')) {
      const primary = first.find((r) => r.role === 'primary' && r.caseId === row.caseId)!;
      expect(row.reviewerId).not.toBe(primary.reviewerId);
      expect(row.blind).toBe(true);
    }

    // The first reviewer's reviews checked so far: 10 items compared, all agreed (97 % or more): validated. The
    // other's: 10 items with 2 disagreements (80 %): still in validation.
    const pairs = await db().select().from(crAssignments).where(eq(crAssignments.role, 'second'));
    for (const second of pairs) {
      const primary = first.find((r) => r.role === 'primary' && r.caseId === second.caseId)!;
      const [primaryRow] = await db()
        .select({ id: crAssignments.id })
        .from(crAssignments)
        .where(and(eq(crAssignments.caseId, second.caseId), eq(crAssignments.role, 'primary')));
      const validated = primary.reviewerId === s.people.reviewer.id;
      await db()
        .insert(crIrrPairs)
        .values({
          projectId: s.project.id,
          caseId: second.caseId,
          primaryAssignmentId: primaryRow!.id,
          secondAssignmentId: second.id,
          status: validated ? 'agreed' : 'disagreed',
          itemsCompared: 5,
          itemsAgreed: validated ? 5 : 4,
        });
    }
    const next = await uploadList(s.lead, s, s.program.id, eligibleCsv(10), '2026-04-01');
    expect(next.statusCode, next.body).toBe(201);
    const nextId = (next.json() as CrSample).id;
    expect((await s.lead.post(`${s.base}/samples/${nextId}/draw`, { seed: 'seed-2' })).statusCode).toBe(200);
    expect((await lock([s.people.reviewer.id, s.reviewer2.id], nextId)).statusCode).toBe(200);
    const second = await assignmentsOf(nextId);
    const secondOf = (reviewerId: number) =>
      second.filter(
        (row) =>
          row.role === 'second' &&
          second.some((p) => p.role === 'primary' && p.caseId === row.caseId && p.reviewerId === reviewerId),
      );
    expect(secondOf(s.people.reviewer.id)).toHaveLength(0);
    expect(secondOf(s.reviewer2.id)).toHaveLength(2);
  });

  it('assigns round robin in case-code order, a reproducible blind second share, notifies once and purges references', async () => {
    const s = await samplingSetup(ctx, { irr_rate: 0.5, due_days: 10 });
    // The lead may read references here, so the purge below is what takes the pull list away.
    await setSettings(ctx, s.project.id, { revealRoles: ['chart_review_admin', 'program_lead'] });
    const sample = await drawnSample(s, { csv: eligibleCsv(10) });
    const ids = [s.people.reviewer.id, s.reviewer2.id];
    // Due dates count from the clock's day (moved forward; a new sign-in at that time).
    const realNow = ctx.clock.now();
    const moved = new Date(Date.UTC(realNow.getUTCFullYear(), realNow.getUTCMonth(), realNow.getUTCDate() + 3, 10));
    ctx.clock.set(moved);
    const lead = await ctx.signedIn(s.people.lead);
    const answer = await lead.post(`${s.base}/samples/${sample.id}/lock`, { mode: 'round_robin', reviewer_ids: ids });
    // Today (the clock's day) + due_days 10.
    const due = new Date(moved.getTime() + 10 * 86_400_000).toISOString().slice(0, 10);
    expect(answer.statusCode, answer.body).toBe(200);
    const locked = answer.json() as CrSample;
    expect(locked).toMatchObject({
      status: 'locked',
      tool_version: { id: s.tool.versionId, version: 1 },
      locked_by: { id: s.people.lead.id, name: 'Leo Lead' },
      counts: { selected: 4, assigned: 4, submitted: 0 },
      keeps_refs: false,
      refs_stored: false,
      abilities: { upload: false, draw: false, exclude: true, lock: false, pull_list: false },
    });
    const rows = await assignmentsOf(sample.id);
    const primary = rows.filter((row) => row.role === 'primary');
    expect(primary.map((row) => row.reviewerId)).toEqual([ids[0], ids[1], ids[0], ids[1]]);
    expect(rows.every((row) => row.dueAt === due && row.toolVersionId === s.tool.versionId)).toBe(true);
    // ceil(4 x 0.5) = 2 second reviews, picked with seededRandom(seed + '|second'), by another reviewer, blind.
    const second = rows.filter((row) => row.role === 'second');
    const expected = drawSample({
      cases: primary.map((row) => ({ ref: row.code, unit: null })),
      plan: { method: 'fixed', n: 2 },
      seed: 'seed-1|second',
    })
      .ranked.filter((c) => c.selected)
      .map((c) => c.ref)
      .sort();
    expect(second.map((row) => row.code)).toEqual(expected);
    for (const row of second) {
      expect(row.blind).toBe(true);
      expect(row.reviewerId).not.toBe(primary.find((p) => p.caseId === row.caseId)!.reviewerId);
    }
    expect(locked.cases[0]!.assignments.map((a) => a.reviewer.name)).toEqual(
      expect.arrayContaining([expect.stringMatching(/Rita Reviewer|Rob Second/)]),
    );
    // Every reference is gone: the project does not keep them.
    const cases = await db().select().from(crCases).where(eq(crCases.sampleId, sample.id));
    expect(cases.every((c) => c.encounterRefEnc === null && c.refPurgedAt !== null)).toBe(true);
    // One notification per reviewer, a link only.
    const sent = await db()
      .select()
      .from(notifications)
      .where(eq(notifications.projectId, s.project.id))
      .orderBy(asc(notifications.userId));
    expect(sent.map((n) => [n.userId, n.message, n.link])).toEqual([
      [ids[0], 'You have 3 chart reviews to do in Falls prevention audit.', `/app/chart-review/${s.project.id}/my`],
      [ids[1], 'You have 3 chart reviews to do in Falls prevention audit.', `/app/chart-review/${s.project.id}/my`],
    ]);
    const [event] = await db().select().from(auditEvents).orderBy(desc(auditEvents.id)).limit(1);
    expect(event).toMatchObject({ action: 'chart_review.sample_locked', subjectId: String(sample.id) });
    expect(event!.data).toMatchObject({ mode: 'round_robin', primary: 4, second: 2, refs_purged: true });

    // Locked: no new draw, no new list, no second lock; the pull list is gone.
    const before = await chartReviewSnapshot(db());
    for (const call of [
      lead.post(`${s.base}/samples/${sample.id}/draw`, {}),
      lead.post(`${s.base}/samples/${sample.id}/lock`, { mode: 'round_robin', reviewer_ids: ids }),
    ]) {
      const refused = await call;
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toBe('This sample is locked: its cases and selection no longer change.');
    }
    const pull = await lead.get(`${s.base}/samples/${sample.id}/pull-list.csv?reason=Records%20team`);
    expect(pull.statusCode).toBe(404);
    expect(pull.json().message).toBe('The encounter references of this sample are no longer stored.');
    expect(await chartReviewSnapshot(db())).toEqual(before);
    ctx.clock.set(realNow);
  });

  it('refuses people who may not review, a single reviewer when a second share is due, and a missing tool version', async () => {
    const s = await samplingSetup(ctx, { irr_rate: 0.05 });
    const sample = await drawnSample(s);
    const before = await chartReviewSnapshot(db());
    const lock = (body: unknown) => s.lead.post(`${s.base}/samples/${sample.id}/lock`, body);
    const viewer = await lock({ mode: 'round_robin', reviewer_ids: [s.people.viewer.id] });
    expect(viewer.statusCode).toBe(400);
    expect(viewer.json().errors).toEqual({ reviewer_ids: ['Choose people who may review charts in this project.'] });
    const outsider = await lock({ mode: 'round_robin', reviewer_ids: [s.people.outsider.id] });
    expect(outsider.statusCode).toBe(400);
    const one = await lock({ mode: 'round_robin', reviewer_ids: [s.people.reviewer.id] });
    expect(one.statusCode).toBe(400);
    expect(one.json().errors).toEqual({ reviewer_ids: ['A second review needs at least two reviewers.'] });
    const none = await lock({ mode: 'round_robin', reviewer_ids: [] });
    expect(none.statusCode).toBe(400);
    expect(none.json().errors.reviewer_ids).toEqual(['Choose at least one reviewer.']);
    const mode = await lock({ mode: 'alphabetical', reviewer_ids: [s.people.reviewer.id] });
    expect(mode.statusCode).toBe(400);
    expect(await chartReviewSnapshot(db())).toEqual(before);
    // Uploaded but not drawn.
    const april = await uploadList(s.lead, s, s.program.id, eligibleCsv(3), '2026-04-01');
    const early = await s.lead.post(`${s.base}/samples/${april.json().id}/lock`, {
      mode: 'round_robin',
      reviewer_ids: [s.people.reviewer.id, s.reviewer2.id],
    });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe('Draw the sample before locking it.');
    // A programme whose tool has no published version cannot be locked.
    const bare = await s.lead.post(`${s.base}/tools`, { name: 'Empty', purpose: '' });
    await db().update(crPrograms).set({ toolId: bare.json().id }).where(eq(crPrograms.id, s.program.id));
    const noVersion = await lock({ mode: 'round_robin', reviewer_ids: [s.people.reviewer.id, s.reviewer2.id] });
    expect(noVersion.statusCode).toBe(409);
    expect(noVersion.json().message).toBe(
      "The programme's tool has no published version yet: publish one before assigning reviews.",
    );
  });

  it('keeps reviewers off their own units, assigns by unit, and names the unit when nobody is left', async () => {
    const s = await samplingSetup(ctx, { irr_rate: 0 });
    const admin = await ctx.signedIn(s.people.admin);
    const units = await admin.put(`${s.base}/reviewer-units`, {
      reviewers: [
        { user_id: s.people.reviewer.id, units: ['Ward A', 'ward a'] },
        { user_id: s.reviewer2.id, units: ['Ward B'] },
      ],
    });
    expect(units.statusCode, units.body).toBe(200);
    expect(units.json().reviewers.find((r: { user_id: number }) => r.user_id === s.people.reviewer.id).units).toEqual([
      'Ward A',
    ]);
    expect(units.json().units).toEqual(['Ward A', 'Ward B']);
    const [event] = await db().select().from(auditEvents).orderBy(desc(auditEvents.id)).limit(1);
    expect(event).toMatchObject({ action: 'chart_review.reviewer_units_updated' });

    const sample = await drawnSample(s, {
      csv: eligibleCsv(8),
      plan: { method: 'fixed', n: 4, stratify_by_unit: true },
    });
    // Only Rita for Ward A cases: she works on Ward A.
    const refused = await s.lead.post(`${s.base}/samples/${sample.id}/lock`, {
      mode: 'by_unit',
      reviewer_ids: [s.people.lead.id],
      unit_reviewers: { 'Ward A': [s.people.reviewer.id] },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toEqual({
      'unit_reviewers.Ward A': [
        'Every reviewer chosen for the cases of Ward A works on Ward A: add a reviewer from another unit.',
      ],
    });
    const answer = await s.lead.post(`${s.base}/samples/${sample.id}/lock`, {
      mode: 'round_robin',
      reviewer_ids: [s.people.reviewer.id, s.reviewer2.id],
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const rows = await assignmentsOf(sample.id);
    expect(rows).toHaveLength(4);
    for (const row of rows) {
      expect(row.reviewerId).toBe(row.unit === 'Ward A' ? s.reviewer2.id : s.people.reviewer.id);
    }
  });

  it('assigns by the unit map, the other units going to the general list', async () => {
    const s = await samplingSetup(ctx, { irr_rate: 0 });
    await setSettings(ctx, s.project.id, { coiOwnUnit: false });
    const sample = await drawnSample(s, {
      csv: eligibleCsv(8),
      plan: { method: 'fixed', n: 4, stratify_by_unit: true },
    });
    const answer = await s.lead.post(`${s.base}/samples/${sample.id}/lock`, {
      mode: 'by_unit',
      reviewer_ids: [s.people.lead.id],
      unit_reviewers: { 'ward b': [s.reviewer2.id] },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    for (const row of await assignmentsOf(sample.id)) {
      expect(row.reviewerId).toBe(row.unit === 'Ward B' ? s.reviewer2.id : s.people.lead.id);
    }
  });

  it('after the lock, an exclusion moves the reviews to the replacement; 409 when none is left or one was submitted', async () => {
    const s = await samplingSetup(ctx, { irr_rate: 0 });
    await setSettings(ctx, s.project.id, { storeEncounterRef: true });
    const sample = await drawnSample(s, {
      csv: eligibleCsv(6),
      plan: { method: 'fixed', n: 4, stratify_by_unit: true },
    });
    await s.lead.post(`${s.base}/samples/${sample.id}/lock`, {
      mode: 'round_robin',
      reviewer_ids: [s.people.reviewer.id, s.reviewer2.id],
    });
    const wardA = (await db().select().from(crCases).where(eq(crCases.sampleId, sample.id))).filter(
      (c) => c.unit === 'Ward A' && c.status === 'selected',
    );
    const target = wardA[0]!;
    const [before] = await db().select().from(crAssignments).where(eq(crAssignments.caseId, target.id));
    const moved = await s.lead.post(`${s.base}/cases/${target.id}/exclude`, { reason: 'Chart missing' });
    expect(moved.statusCode, moved.body).toBe(200);
    const replacement = (
      await db().select().from(crCases).where(eq(crCases.caseCode, moved.json().replacement_case_code))
    )[0]!;
    const [after] = await db().select().from(crAssignments).where(eq(crAssignments.id, before!.id));
    expect(after).toMatchObject({ caseId: replacement.id, reviewerId: before!.reviewerId, dueAt: before!.dueAt });

    // Ward A had three cases: two selected, one replacement; nothing is left now.
    const second = wardA[1]!;
    const none = await s.lead.post(`${s.base}/cases/${second.id}/exclude`, { reason: 'Chart missing' });
    expect(none.statusCode).toBe(409);
    expect(none.json().message).toBe('No eligible case is left in Ward A to replace it.');

    await db().update(crAssignments).set({ status: 'submitted' }).where(eq(crAssignments.caseId, replacement.id));
    const submitted = await s.lead.post(`${s.base}/cases/${replacement.id}/exclude`, { reason: 'Chart missing' });
    expect(submitted.statusCode).toBe(409);
    expect(submitted.json().message).toBe(
      'A review of this case has been submitted: the case can no longer be excluded.',
    );
  });

  it('downloads the pull list with a reason, logged, for the reveal roles only; keeps references when the project keeps them; reveals them to reveal roles', async () => {
    const s = await samplingSetup(ctx, { irr_rate: 0 });
    await setSettings(ctx, s.project.id, { storeEncounterRef: true, revealRoles: ['chart_review_admin'] });
    const csv = 'encounter,unit,discharge\n"=HYPERLINK(""x"")",Ward A,2026-03-02\nE-2,Ward B,2026-03-04\n';
    const sample = await drawnSample(s, { csv, plan: { method: 'all' } });
    const noReason = await s.lead.get(`${s.base}/samples/${sample.id}/pull-list.csv`);
    expect(noReason.statusCode).toBe(400);
    // The pull list holds every reference of the sample: the roles that may reveal one may download it, no others.
    const pullUrl = `${s.base}/samples/${sample.id}/pull-list.csv?reason=Records%20team%20pull`;
    expect((await s.lead.get(`${s.base}/samples/${sample.id}`)).json().abilities.pull_list).toBe(false);
    const refused = await s.lead.get(pullUrl);
    expect(refused.statusCode).toBe(403);
    expect(refused.body).not.toContain('E-2');
    expect(await db().select().from(crAccessLog)).toEqual([]);
    await setSettings(ctx, s.project.id, { revealRoles: ['chart_review_admin', 'program_lead'] });
    expect((await s.lead.get(`${s.base}/samples/${sample.id}`)).json().abilities.pull_list).toBe(true);
    const pull = await s.lead.get(pullUrl);
    expect(pull.statusCode).toBe(200);
    const lines = pull.body.split('\r\n');
    expect(lines).toContain('case_code,unit,discharge_month,encounter_reference');
    expect(pull.body).toContain(`,Ward A,2026-03,"'=HYPERLINK(""x"")"`);
    expect(pull.body).toContain(',Ward B,2026-03,E-2');
    const [log] = await db().select().from(crAccessLog);
    expect(log).toMatchObject({
      action: 'pull_list',
      sampleId: sample.id,
      userId: s.people.lead.id,
      reason: 'Records team pull',
      ip: '127.0.0.1',
    });
    const [event] = await db().select().from(auditEvents).orderBy(desc(auditEvents.id)).limit(1);
    expect(event).toMatchObject({ action: 'chart_review.pull_list_downloaded' });

    await s.lead.post(`${s.base}/samples/${sample.id}/lock`, {
      mode: 'round_robin',
      reviewer_ids: [s.people.reviewer.id],
    });
    const kept = await db().select().from(crCases).where(eq(crCases.sampleId, sample.id));
    expect(kept.every((c) => c.encounterRefEnc !== null)).toBe(true);
    const caseId = kept.find((c) => c.unit === 'Ward B')!.id;

    // Reveal: section review; the reveal roles only.
    const admin = await ctx.signedIn(s.people.admin);
    const shown = await admin.post(`${s.base}/cases/${caseId}/reveal`, { reason: 'Chart not found by code' });
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.json()).toEqual({ encounter_ref: 'E-2' });
    const logged = await db()
      .select()
      .from(crAccessLog)
      .where(and(eq(crAccessLog.action, 'reveal'), eq(crAccessLog.caseId, caseId)));
    expect(logged).toMatchObject([{ userId: s.people.admin.id, reason: 'Chart not found by code' }]);
    const reviewer = await ctx.signedIn(s.people.reviewer);
    const denied = await reviewer.post(`${s.base}/cases/${caseId}/reveal`, { reason: 'Curious about it' });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe('Your chart review role may not reveal encounter references.');
    const viewer = await ctx.signedIn(s.people.viewer);
    expect((await viewer.post(`${s.base}/cases/${caseId}/reveal`, { reason: 'Curious about it' })).statusCode).toBe(
      403,
    );
    const superadmin = await ctx.signedIn(s.people.superadmin);
    expect((await superadmin.post(`${s.base}/cases/${caseId}/reveal`, { reason: 'Audit check' })).statusCode).toBe(200);
    const outsider = await ctx.signedIn(s.people.outsider);
    expect((await outsider.post(`${s.otherBase}/cases/${caseId}/reveal`, { reason: 'Audit check' })).statusCode).toBe(
      404,
    );
    expect((await admin.post(`${s.base}/cases/${caseId}/reveal`, { reason: 'x' })).statusCode).toBe(400);

    await db().update(crCases).set({ encounterRefEnc: null }).where(eq(crCases.id, caseId));
    const gone = await admin.post(`${s.base}/cases/${caseId}/reveal`, { reason: 'Chart not found by code' });
    expect(gone.statusCode).toBe(404);
    await setSettings(ctx, s.project.id, { storeEncounterRef: false });
    const off = await admin.post(`${s.base}/cases/${caseId}/reveal`, { reason: 'Chart not found by code' });
    expect(off.statusCode).toBe(403);
    expect(off.json().message).toBe('This project does not keep encounter references, so none can be revealed.');
  });

  it('refuses reviewer units for people outside chart review and repeats; nothing is written when nothing changed', async () => {
    const s = await samplingSetup(ctx);
    const admin = await ctx.signedIn(s.people.admin);
    const before = await chartReviewSnapshot(db());
    const outsider = await admin.put(`${s.base}/reviewer-units`, {
      reviewers: [{ user_id: s.people.outsider.id, units: ['Ward A'] }],
    });
    expect(outsider.statusCode).toBe(400);
    expect(outsider.json().errors).toEqual({ 'reviewers.0.user_id': ['Choose a person of this chart review.'] });
    const twice = await admin.put(`${s.base}/reviewer-units`, {
      reviewers: [
        { user_id: s.people.reviewer.id, units: ['Ward A'] },
        { user_id: s.people.reviewer.id, units: ['Ward B'] },
      ],
    });
    expect(twice.statusCode).toBe(400);
    const empty = await admin.put(`${s.base}/reviewer-units`, { reviewers: [] });
    expect(empty.statusCode).toBe(200);
    expect(await chartReviewSnapshot(db())).toEqual(before);
    const list = await (await ctx.signedIn(s.people.viewer)).get(`${s.base}/reviewer-units`);
    expect(list.statusCode).toBe(200);
    expect(list.json().abilities).toEqual({ edit: false });
    expect(list.json().reviewers.map((r: { name: string }) => r.name)).toEqual([
      'Ada Admin',
      'Leo Lead',
      'Rita Reviewer',
      'Rob Second',
    ]);
    expect(await db().select().from(crReviewerUnits).where(eq(crReviewerUnits.projectId, s.project.id))).toEqual([]);
  });
});
