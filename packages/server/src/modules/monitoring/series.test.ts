import { count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import {
  addDataset,
  addMeasure,
  addMonthlyRows,
  addTarget,
  FALLS_COLUMNS,
  fallsPageWithRows,
  repeat,
} from '../../../test/monitoring-data-kit.js';
import { insertPage, monitoringProject } from '../../../test/monitoring-kit.js';
import { auditEvents, monDatasets, monMeasures, monPages, monSeries } from '../../db/schema/index.js';
import { EMPTY_REASONS } from './series.build.js';
import { CHART_NEEDS_DENOMINATOR_MESSAGE, recomputeDatasetSeries, SERIES_LIMIT_MESSAGE } from './series.service.js';

/**
 * "Today" for these tests, far ahead of the real date: session and XSRF cookies are dated by the app's clock and the
 * test agent drops cookies that expired by the real time.
 */
const TODAY = new Date('2090-06-15T12:00:00Z');

describe('measure series', () => {
  // Project admins' two-factor grace period would be long over by TODAY; these tests are not about it.
  const ctx = useTestApp({ env: { MFA_REQUIRED_ROLES: 'superadmin' } });
  const db = () => ctx.db.handle.db;

  async function setup() {
    ctx.clock.set(TODAY);
    const s = await monitoringProject(db());
    // Sep 2088 to Jun 2090: 10 months at 5 per 1,000, 11 at 2, and June (the current month) provisional.
    const { page, dataset } = await fallsPageWithRows(db(), s, '2088-09-01', [
      ...repeat(10, [5, 1000]),
      ...repeat(12, [2, 1000]),
    ]);
    const measure = await addMeasure(db(), s.project.id, page.id, dataset.id);
    const base = `/api/projects/${s.project.id}/monitoring`;
    const admin = await ctx.signedIn(s.people.admin);
    return { ...s, page, dataset, measure, base, admin };
  }

  const cacheRows = (measureId: number) => db().select().from(monSeries).where(eq(monSeries.measureId, measureId));

  it('guards the series and its CSV: 401, 403 without a role, 404 outside or hidden; viewers read', async () => {
    const s = await setup();
    const other = await monitoringProject(db());
    const otherPage = await insertPage(db(), other.project.id, { title: 'Theirs', number: '1' });
    const otherMeasure = await addMeasure(db(), other.project.id, otherPage.id, null);
    const anonymous = ctx.agent();
    const agents = {
      anonymous,
      noRole: await ctx.signedIn(s.people.noRole),
      outsider: await ctx.signedIn(s.people.outsider),
      viewer: await ctx.signedIn(s.people.viewer),
    };
    const snapshot = async () => ({
      series: await db().select().from(monSeries),
      audit: (await db().select({ n: count() }).from(auditEvents))[0]!.n,
    });
    const before = await snapshot();
    for (const suffix of ['series', 'series.csv']) {
      const url = `${s.base}/measures/${s.measure.id}/${suffix}`;
      expect((await agents.anonymous.get(url)).statusCode, `${suffix} anonymous`).toBe(401);
      expect((await agents.noRole.get(url)).statusCode, `${suffix} no role`).toBe(403);
      expect((await agents.outsider.get(url)).statusCode, `${suffix} outsider`).toBe(404);
      // Another project's measure through this project's address.
      const foreign = await s.admin.get(`${s.base}/measures/${otherMeasure.id}/${suffix}`);
      expect(foreign.statusCode, `${suffix} foreign measure`).toBe(404);
      expect(foreign.body).not.toContain('Theirs');
    }
    expect(await snapshot()).toEqual(before);

    const viewed = await agents.viewer.get(`${s.base}/measures/${s.measure.id}/series`);
    expect(viewed.statusCode).toBe(200);

    await db().update(monPages).set({ restricted: true }).where(eq(monPages.id, s.page.id));
    const hidden = await agents.viewer.get(`${s.base}/measures/${s.measure.id}/series`);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json().message).toBe('Measure not found.');
    await db().update(monMeasures).set({ deletedAt: new Date() }).where(eq(monMeasures.id, s.measure.id));
    expect((await s.admin.get(`${s.base}/measures/${s.measure.id}/series`)).statusCode).toBe(404);
  });

  it('refuses bad input with field messages', async () => {
    const s = await setup();
    const url = `${s.base}/measures/${s.measure.id}/series`;
    const bad = await s.admin.get(`${url}?chart=pie&from=2090-13&rule_profile=gut`);
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['chart', 'from', 'rule_profile']);
    expect(bad.json().errors.from).toEqual(['Use a date like 2026-03-31.']);
    expect((await s.admin.get(`${s.base}/measures/abc/series`)).statusCode).toBe(400);

    const noStrata = await s.admin.get(`${url}?stratum=North`);
    expect(noStrata.statusCode).toBe(400);
    expect(noStrata.json().errors.stratum).toEqual(['This measure has no strata.']);

    const count = await addMeasure(db(), s.project.id, s.page.id, s.dataset.id, {
      type: 'count',
      valueExpr: 'sum(falls)',
      chartDefault: 'c',
    });
    const pChart = await s.admin.get(`${s.base}/measures/${count.id}/series?chart=p`);
    expect(pChart.statusCode).toBe(400);
    expect(pChart.json()).toMatchObject({ message: CHART_NEEDS_DENOMINATOR_MESSAGE });
    expect(pChart.json().errors.chart).toEqual([CHART_NEEDS_DENOMINATOR_MESSAGE]);
  });

  it('computes the series with limits, signals, the current month provisional and the multiplier applied', async () => {
    const s = await setup();
    const answer = await s.admin.get(`${s.base}/measures/${s.measure.id}/series`);
    expect(answer.statusCode, answer.body).toBe(200);
    const series = answer.json();
    expect(series).toMatchObject({
      measure_id: s.measure.id,
      chart: 'u',
      rule_profile: 'anhoej',
      grain: 'month',
      multiplier: 1000,
      unit_label: 'per 1,000 patient days',
      direction: 'down',
      stratum: null,
      strata: [],
      formula_version: 1,
      formula_hash: s.measure.formulaHash,
      dataset_version: 1,
      empty_reason: null,
    });
    expect(series.points).toHaveLength(22);
    expect(series.points[0]).toMatchObject({
      period: '2088-09-01',
      label: 'Sep 2088',
      rows: 1,
      numerator: 5,
      denominator: 1000,
      value: 5,
      provisional: false,
    });
    expect(series.points[21]).toMatchObject({ period: '2090-06-01', provisional: true, excluded: true, signals: [] });
    // 77 events over 21,000 patient days (June left out) = 3.667 per 1,000.
    expect(series.points[0].cl).toBeCloseTo((50 + 22) / 21, 6);
    expect(series.points[20].signals).toContain('shift');
    expect(series.points[20].variation).toBe('improvement');
    expect(series.points[0].variation).toBe('concern');
    expect(series.summary.variation).toBe('improvement');

    const other = await s.admin.get(
      `${s.base}/measures/${s.measure.id}/series?chart=run&rule_profile=ihi_run&from=2089-07-20&to=2089-12-31`,
    );
    expect(other.statusCode).toBe(200);
    expect(other.json()).toMatchObject({ chart: 'run', rule_profile: 'ihi_run' });
    expect(other.json().points.map((p: { label: string }) => p.label)).toEqual([
      'Jul 2089',
      'Aug 2089',
      'Sep 2089',
      'Oct 2089',
      'Nov 2089',
      'Dec 2089',
    ]);
    expect(other.json().points[0].ucl).toBeNull();
  });

  it("applies the measure's IHI run chart options: the astronomical point and the runs test, changed by PUT", async () => {
    ctx.clock.set(TODAY);
    const s = await monitoringProject(db());
    // 22 months alternating 4 and 6 per 1,000 (median 5) with one wild month (40); June 2090 is provisional.
    const months = Array.from({ length: 23 }, (_, i) => [i === 11 ? 40 : 4 + 2 * (i % 2), 1000] as const);
    const { page, dataset } = await fallsPageWithRows(db(), s, '2088-08-01', months);
    const measure = await addMeasure(db(), s.project.id, page.id, dataset.id, {
      chartDefault: 'run',
      ruleProfile: 'ihi_run',
    });
    const base = `/api/projects/${s.project.id}/monitoring`;
    const admin = await ctx.signedIn(s.people.admin);
    const wild = async () => {
      const answer = await admin.get(`${base}/measures/${measure.id}/series`);
      expect(answer.statusCode, answer.body).toBe(200);
      return answer.json().points.map((p: { signals: string[] }) => p.signals);
    };
    // Defaults: the astronomical point flagged; 22 alternating useful points make 22 runs, too many.
    const defaults = await wild();
    expect(defaults[11]).toContain('astronomical');
    expect(defaults.flat()).toContain('too_many_runs');
    const read = await admin.get(`${base}/measures/${measure.id}`);
    expect(read.json()).toMatchObject({ ihi_runs_test: 'swed_eisenhart', astronomical_point: 'i_chart' });

    const bad = await admin.put(`${base}/measures/${measure.id}`, {
      version: read.json().version,
      ihi_runs_test: 'coin_toss',
      astronomical_point: 'sometimes',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toMatchObject({
      ihi_runs_test: ['Choose how the number of runs is judged.'],
      astronomical_point: ['Choose whether to flag an astronomical point.'],
    });

    const changed = await admin.put(`${base}/measures/${measure.id}`, {
      version: read.json().version,
      ihi_runs_test: 'anhoej_crossings',
      astronomical_point: 'off',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ ihi_runs_test: 'anhoej_crossings', astronomical_point: 'off' });
    const after = await wild();
    expect(after.flat()).not.toContain('astronomical');
    expect(after.flat()).not.toContain('too_many_runs');
    const [event] = await db().select().from(auditEvents).where(eq(auditEvents.action, 'monitoring.measure_updated'));
    expect(event!.data).toMatchObject({
      fields: ['ihi_runs_test', 'astronomical_point'],
      changes: { ihi_runs_test: { from: 'swed_eisenhart', to: 'anhoej_crossings' } },
    });
  });

  it('serves the cache while nothing changed and recomputes when the data, a target or the day changes', async () => {
    const s = await setup();
    const url = `${s.base}/measures/${s.measure.id}/series`;
    const first = (await s.admin.get(url)).json();
    const [row] = await cacheRows(s.measure.id);
    expect(row).toMatchObject({ stratum: '', chart: 'u', projectId: s.project.id });
    expect(first.computed_at).toBe(row!.computedAt.toISOString());
    // Mark the cached row so a recompute would show: the second read must return it untouched.
    await db().update(monSeries).set({ computeMs: 4321 }).where(eq(monSeries.measureId, s.measure.id));
    const second = (await s.admin.get(url)).json();
    expect(second.compute_ms).toBe(4321);
    expect(second.computed_at).toBe(first.computed_at);
    expect(second.points).toEqual(first.points);

    // New rows raise the dataset version: the cached series is stale and recomputed on read.
    await addMonthlyRows(db(), s.dataset, '2090-06-01', [[1, 1000]], 'South');
    const third = (await s.admin.get(url)).json();
    expect(third.compute_ms).not.toBe(4321);
    expect(third.dataset_version).toBe(2);
    expect(third.points[21]).toMatchObject({ numerator: 3, denominator: 2000, rows: 2 });
    const [after] = await cacheRows(s.measure.id);
    expect(after!.inputHash).not.toBe(row!.inputHash);
    expect((await cacheRows(s.measure.id)).length).toBe(1);

    await db().update(monSeries).set({ computeMs: 4321 }).where(eq(monSeries.measureId, s.measure.id));
    await addTarget(db(), s.measure, 3, '2089-01-01');
    const fourth = (await s.admin.get(url)).json();
    expect(fourth.compute_ms).not.toBe(4321);
    expect(fourth.points[4].target).toBe(3);
    expect(fourth.points[3].target).toBeNull();

    // A new month: June is complete, July (empty) would be the current one.
    await db().update(monSeries).set({ computeMs: 4321 }).where(eq(monSeries.measureId, s.measure.id));
    ctx.clock.set(new Date('2090-07-02T08:00:00Z'));
    // Weeks later the session has timed out: sign in again.
    const later = await ctx.signedIn(s.people.admin);
    const fifth = (await later.get(url)).json();
    ctx.clock.set(TODAY);
    expect(fifth.compute_ms).not.toBe(4321);
    expect(fifth.points[21].provisional).toBe(false);
  });

  it('recomputes the overall series of every live measure of a dataset after an import', async () => {
    const s = await setup();
    const second = await addMeasure(db(), s.project.id, s.page.id, s.dataset.id, {
      name: 'Falls (run chart)',
      chartDefault: 'run',
      ruleProfile: 'ihi_run',
    });
    const gone = await addMeasure(db(), s.project.id, s.page.id, s.dataset.id, { deletedAt: new Date() });
    const elsewhere = await addDataset(db(), s.project.id, { name: 'Other data' });
    const unrelated = await addMeasure(db(), s.project.id, s.page.id, elsewhere.id);
    // A measure of another project pointing at the same dataset id is never touched.
    const foreign = await monitoringProject(db());
    const foreignPage = await insertPage(db(), foreign.project.id, { title: 'Theirs', number: '1' });
    const foreignMeasure = await addMeasure(db(), foreign.project.id, foreignPage.id, s.dataset.id);

    await recomputeDatasetSeries(db(), s.project.id, s.dataset.id, TODAY);
    const rows = await db().select().from(monSeries);
    const byMeasure = new Map(rows.map((r) => [r.measureId, r]));
    expect(byMeasure.get(s.measure.id)).toMatchObject({ stratum: '', chart: 'u' });
    expect(byMeasure.get(second.id)).toMatchObject({ stratum: '', chart: 'run' });
    expect((byMeasure.get(second.id)!.result as { rule_profile: string }).rule_profile).toBe('ihi_run');
    for (const id of [gone.id, unrelated.id, foreignMeasure.id]) expect(byMeasure.has(id)).toBe(false);

    await addMonthlyRows(db(), s.dataset, '2090-07-01', [[4, 1000]]);
    await recomputeDatasetSeries(db(), s.project.id, s.dataset.id, TODAY);
    const [updated] = await cacheRows(s.measure.id);
    expect((updated!.result as { dataset_version: number; points: unknown[] }).dataset_version).toBe(2);
    expect((updated!.result as { points: unknown[] }).points).toHaveLength(23);

    // The read uses what the import computed.
    await db().update(monSeries).set({ computeMs: 4321 }).where(eq(monSeries.measureId, s.measure.id));
    expect((await s.admin.get(`${s.base}/measures/${s.measure.id}/series`)).json().compute_ms).toBe(4321);
  });

  it('refuses a dataset over 2,000,000 rows with LIMIT; the import recompute skips it', async () => {
    const s = await setup();
    await db().update(monDatasets).set({ rowCount: 2_000_001, version: 9 }).where(eq(monDatasets.id, s.dataset.id));
    const answer = await s.admin.get(`${s.base}/measures/${s.measure.id}/series`);
    expect(answer.statusCode).toBe(422);
    expect(answer.json()).toMatchObject({ code: 'LIMIT', message: SERIES_LIMIT_MESSAGE });
    await expect(recomputeDatasetSeries(db(), s.project.id, s.dataset.id, TODAY)).resolves.toBeUndefined();
    expect(await cacheRows(s.measure.id)).toEqual([]);
  });

  it('says why a series is empty: no dataset, incomplete formulas, no rows', async () => {
    const s = await setup();
    const noDataset = await addMeasure(db(), s.project.id, s.page.id, null);
    const noFormula = await addMeasure(db(), s.project.id, s.page.id, s.dataset.id, { denominator: '' });
    const badColumn = await addMeasure(db(), s.project.id, s.page.id, s.dataset.id, { numerator: 'sum(missing)' });
    const empty = await addDataset(db(), s.project.id, { name: 'Empty', columns: FALLS_COLUMNS });
    const noRows = await addMeasure(db(), s.project.id, s.page.id, empty.id);
    const cases = [
      [noDataset.id, EMPTY_REASONS.noDataset],
      [noFormula.id, EMPTY_REASONS.noFormulas],
      [badColumn.id, EMPTY_REASONS.noFormulas],
      [noRows.id, EMPTY_REASONS.noRows],
    ] as const;
    for (const [id, reason] of cases) {
      const answer = await s.admin.get(`${s.base}/measures/${id}/series`);
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toMatchObject({ points: [], empty_reason: reason });
    }
  });

  it('computes a stratum; its CSV blanks numerator and denominator under 11 rows; cells are escaped', async () => {
    const s = await setup();
    const wards = await addDataset(db(), s.project.id, { name: 'Wards' });
    await addMonthlyRows(db(), wards, '2090-01-01', repeat(3, [2, 500]), 'North');
    await addMonthlyRows(db(), wards, '2090-01-01', repeat(3, [4, 400]), 'South');
    const measure = await addMeasure(db(), s.project.id, s.page.id, wards.id, { strataKeys: ['ward'] });

    const all = (await s.admin.get(`${s.base}/measures/${measure.id}/series`)).json();
    expect(all.strata).toEqual(['North', 'South']);
    expect(all.points[0]).toMatchObject({ numerator: 6, denominator: 900, rows: 2 });
    const north = (await s.admin.get(`${s.base}/measures/${measure.id}/series?stratum=North`)).json();
    expect(north.stratum).toBe('North');
    expect(north.points[0]).toMatchObject({ numerator: 2, denominator: 500, value: 4, rows: 1 });
    expect((await cacheRows(measure.id)).map((r) => r.stratum).sort()).toEqual(['', 'North']);

    const csv = await s.admin.get(`${s.base}/measures/${measure.id}/series.csv?stratum=North`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toMatch(
      /^attachment; filename="Falls-with-injury-per-1-000-patient-days-North-u.csv"$/,
    );
    const lines = csv.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('period,label,rows,numerator,denominator,value,cl,lcl,ucl,signals,variation,target');
    expect(lines[1]).toMatch(/^2090-01-01,Jan 2090,1,,,4,4,0,/);
    // The whole-ward export keeps its counts (no stratum, nothing to protect).
    const whole = await s.admin.get(`${s.base}/measures/${measure.id}/series.csv`);
    expect(whole.body.split('\r\n')[1]).toMatch(/^2090-01-01,Jan 2090,2,6,900,/);

    // A value below zero starts with "-": spreadsheets would read it as a formula, so it is quoted.
    const delta = await addMeasure(db(), s.project.id, s.page.id, wards.id, {
      name: 'Falls minus ten',
      type: 'continuous',
      multiplier: 1,
      valueExpr: 'sum(falls) - 10',
      chartDefault: 'i',
    });
    const escaped = await s.admin.get(`${s.base}/measures/${delta.id}/series.csv`);
    expect(escaped.body.split('\r\n')[1]).toMatch(/^2090-01-01,Jan 2090,2,,,'-4,/);
  });
});
