import { asc, count, desc } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { expectStatuses } from '../../../test/guards-kit.js';
import { addBareMeasure, addDataset } from '../../../test/monitoring-data-kit.js';
import { insertPage, monitoringProject } from '../../../test/monitoring-kit.js';
import { auditEvents, monAnnotations, monBenchmarks, monPhases, monTargets } from '../../db/schema/index.js';

const benchmark = {
  source: 'NHSN',
  statistic: 'percentile',
  percentile: 50,
  value: 2.9,
  period_label: '2024',
  as_of: '2025-03-31',
  citation_url: 'https://www.cdc.gov/nhsn/',
};

describe('targets, benchmarks, phases and annotations of measures', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;

  async function setup() {
    const s = await monitoringProject(db());
    const page = await insertPage(db(), s.project.id, { title: 'Falls', number: '1', ownerId: s.people.owner.id });
    const dataset = await addDataset(db(), s.project.id);
    const measure = await addBareMeasure(db(), { projectId: s.project.id, pageId: page.id, datasetId: dataset.id });
    const base = `/api/projects/${s.project.id}/monitoring`;
    const admin = await ctx.signedIn(s.people.admin);
    return { ...s, page, measure, base, url: `${base}/measures/${measure.id}`, admin };
  }

  const snapshot = async () => ({
    targets: await db().select().from(monTargets).orderBy(asc(monTargets.id)),
    benchmarks: await db().select().from(monBenchmarks).orderBy(asc(monBenchmarks.id)),
    phases: await db().select().from(monPhases).orderBy(asc(monPhases.id)),
    annotations: await db().select().from(monAnnotations).orderBy(asc(monAnnotations.id)),
    audit: (await db().select({ n: count() }).from(auditEvents))[0]!.n,
  });

  async function lastAudit() {
    const [event] = await db().select().from(auditEvents).orderBy(desc(auditEvents.id)).limit(1);
    return event!;
  }

  it('guards every call: 401 signed out, 403 for viewers and without a role, 404 outside; nothing changes', async () => {
    const s = await setup();
    const target = (await s.admin.post(`${s.url}/targets`, { value: 2, effective_from: '2025-01-01' })).json()
      .targets[0];
    const bench = (await s.admin.post(`${s.url}/benchmarks`, benchmark)).json().benchmarks[0];
    const phase = (
      await s.admin.post(`${s.url}/phases`, { start_period: '2025-01-01', label: 'New bed alarms' })
    ).json().phases[0];
    const note = (await s.admin.post(`${s.url}/annotations`, { period_start: '2025-02-01', text: 'Audit week' })).json()
      .annotations[0];
    const calls = [
      ['post', `${s.url}/targets`, { value: 2, effective_from: '2025-01-01' }],
      ['delete', `${s.url}/targets/${target.id}`, undefined],
      ['post', `${s.url}/benchmarks`, benchmark],
      ['put', `${s.url}/benchmarks/${bench.id}`, benchmark],
      ['delete', `${s.url}/benchmarks/${bench.id}`, undefined],
      ['post', `${s.url}/phases`, { start_period: '2025-05-01', label: 'Later' }],
      ['delete', `${s.url}/phases/${phase.id}`, undefined],
      ['post', `${s.url}/annotations`, { period_start: '2025-02-01', text: 'Again' }],
      ['put', `${s.url}/annotations/${note.id}`, { period_start: '2025-02-01', text: 'Changed' }],
      ['delete', `${s.url}/annotations/${note.id}`, undefined],
    ] as const;
    const anonymous = await ctx.anonymous();
    const agents = {
      anonymous,
      noRole: await ctx.signedIn(s.people.noRole),
      viewer: await ctx.signedIn(s.people.viewer),
      outsider: await ctx.signedIn(s.people.outsider),
      // Data entry may use the formula builder but does not edit this page.
      dataEntry: await ctx.signedIn(s.people.dataEntry),
    };
    const before = await snapshot();
    await expectStatuses(agents, calls, () => [
      ['anonymous', 401],
      ['noRole', 403],
      ['viewer', 403],
      ['outsider', 404],
      ['dataEntry', 403],
    ]);
    expect(await snapshot()).toEqual(before);
  });

  it("answers 404 for another project's measure and for a part of another measure", async () => {
    const s = await setup();
    const otherPage = await insertPage(db(), s.other.id, { title: 'South', number: '1' });
    const theirs = await addBareMeasure(db(), { projectId: s.other.id, pageId: otherPage.id });
    const second = await addBareMeasure(db(), { projectId: s.project.id, pageId: s.page.id, name: 'Second' });
    const target = (await s.admin.post(`${s.url}/targets`, { value: 2, effective_from: '2025-01-01' })).json()
      .targets[0];
    const before = await snapshot();
    const foreign = await s.admin.post(`${s.base}/measures/${theirs.id}/targets`, {
      value: 1,
      effective_from: '2025-01-01',
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe('Measure not found.');
    const wrongMeasure = await s.admin.delete(`${s.base}/measures/${second.id}/targets/${target.id}`);
    expect(wrongMeasure.statusCode).toBe(404);
    expect(wrongMeasure.json().message).toBe('Target not found.');
    expect((await s.admin.put(`${s.url}/benchmarks/999999`, benchmark)).statusCode).toBe(404);
    expect((await s.admin.delete(`${s.url}/phases/999999`)).statusCode).toBe(404);
    expect(
      (await s.admin.put(`${s.url}/annotations/999999`, { period_start: '2025-01-01', text: 'x' })).statusCode,
    ).toBe(404);
    expect(await snapshot()).toEqual(before);
  });

  it('adds and removes targets on period starts, audited', async () => {
    const s = await setup();
    const owner = await ctx.signedIn(s.people.owner);
    const added = await owner.post(`${s.url}/targets`, { value: 2.5, effective_from: '2025-03-17', kind: 'stretch' });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json()).toMatchObject({
      id: s.measure.id,
      targets: [{ value: 2.5, effective_from: '2025-03-01', kind: 'stretch' }],
    });
    const targetId = added.json().targets[0].id;
    expect(await lastAudit()).toMatchObject({
      action: 'monitoring.measure_target_added',
      projectId: s.project.id,
      actorUserId: s.people.owner.id,
      subjectType: 'mon_measure',
      subjectId: String(s.measure.id),
      data: { target_id: targetId, effective_from: '2025-03-01' },
    });
    const bad = await owner.post(`${s.url}/targets`, { value: 'low', effective_from: '17/03/2025' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual({
      value: ['Enter a number for the target.'],
      effective_from: ['Use a date like 2026-03-31.'],
    });
    const removed = await owner.delete(`${s.url}/targets/${targetId}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json().targets).toEqual([]);
    expect(await lastAudit()).toMatchObject({ action: 'monitoring.measure_target_removed' });
  });

  it('adds, changes and removes benchmarks', async () => {
    const s = await setup();
    const added = await s.admin.post(`${s.url}/benchmarks`, benchmark);
    expect(added.statusCode, added.body).toBe(201);
    const [row] = added.json().benchmarks;
    expect(row).toMatchObject({ ...benchmark, spec_match: true, note: '' });
    const noPercentile = await s.admin.post(`${s.url}/benchmarks`, { ...benchmark, percentile: null });
    expect(noPercentile.statusCode).toBe(400);
    expect(noPercentile.json().message).toBe('Enter the percentile (1 to 99).');
    const badLink = await s.admin.post(`${s.url}/benchmarks`, { ...benchmark, citation_url: 'javascript:alert(1)' });
    expect(badLink.json().errors.citation_url).toEqual(['A link starts with http:// or https://.']);

    const changed = await s.admin.put(`${s.url}/benchmarks/${row.id}`, {
      ...benchmark,
      statistic: 'sir',
      percentile: 90,
      value: 1,
      spec_match: false,
      note: 'NHSN uses a risk-adjusted denominator',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().benchmarks).toEqual([
      expect.objectContaining({ id: row.id, statistic: 'sir', percentile: null, value: 1, spec_match: false }),
    ]);
    expect(await lastAudit()).toMatchObject({
      action: 'monitoring.measure_benchmark_updated',
      data: { benchmark_id: row.id },
    });
    const removed = await s.admin.delete(`${s.url}/benchmarks/${row.id}`);
    expect(removed.json().benchmarks).toEqual([]);
    expect(await lastAudit()).toMatchObject({ action: 'monitoring.measure_benchmark_removed' });
  });

  it('starts phases on the period of the date given, one per period', async () => {
    const s = await setup();
    const added = await s.admin.post(`${s.url}/phases`, {
      start_period: '2025-04-22',
      label: 'Bed alarms on every ward',
      reason: 'intervention',
    });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json().phases).toEqual([
      { id: expect.any(Number), start_period: '2025-04-01', label: 'Bed alarms on every ward', reason: 'intervention' },
    ]);
    expect(await lastAudit()).toMatchObject({ action: 'monitoring.measure_phase_added' });
    const before = await snapshot();
    const taken = await s.admin.post(`${s.url}/phases`, { start_period: '2025-04-02', label: 'Again' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe(
      'A phase already starts in Apr 2025 ("Bed alarms on every ward"). Choose another period or remove that phase first.',
    );
    const noLabel = await s.admin.post(`${s.url}/phases`, { start_period: '2025-06-01', label: ' ' });
    expect(noLabel.statusCode).toBe(400);
    expect(noLabel.json().errors.label).toEqual(['Enter a label.']);
    expect(await snapshot()).toEqual(before);

    const removed = await s.admin.delete(`${s.url}/phases/${added.json().phases[0].id}`);
    expect(removed.json().phases).toEqual([]);
    expect(await lastAudit()).toMatchObject({ action: 'monitoring.measure_phase_removed' });
  });

  it('adds, changes and removes annotations, on period starts of the measure grain', async () => {
    const s = await setup();
    const added = await s.admin.post(`${s.url}/annotations`, {
      period_start: '2025-02-14',
      kind: 'data_issue',
      text: 'Census feed missing two days',
      exclude_from_limits: true,
    });
    expect(added.statusCode, added.body).toBe(201);
    const [note] = added.json().annotations;
    expect(note).toMatchObject({ period_start: '2025-02-01', kind: 'data_issue', exclude_from_limits: true });
    const changed = await s.admin.put(`${s.url}/annotations/${note.id}`, {
      period_start: '2025-03-03',
      kind: 'pdsa',
      text: 'PDSA cycle 2',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().annotations).toEqual([
      { id: note.id, period_start: '2025-03-01', kind: 'pdsa', text: 'PDSA cycle 2', exclude_from_limits: false },
    ]);
    expect(await lastAudit()).toMatchObject({
      action: 'monitoring.measure_annotation_updated',
      data: { annotation_id: note.id, period_start: '2025-03-01' },
    });
    const empty = await s.admin.put(`${s.url}/annotations/${note.id}`, { period_start: '2025-03-03', text: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('Enter the note.');
    const removed = await s.admin.delete(`${s.url}/annotations/${note.id}`);
    expect(removed.json().annotations).toEqual([]);
    expect(await lastAudit()).toMatchObject({ action: 'monitoring.measure_annotation_removed' });
  });
});
