import { STALE_CHART_MESSAGE } from '@portal/shared';
import { asc, count, desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { expectStatuses } from '../../../test/guards-kit.js';
import {
  addBenchmark,
  addDataset,
  addMeasure,
  addMonthlyRows,
  addPhase,
  addTarget,
  fallsPageWithRows,
  repeat,
} from '../../../test/monitoring-data-kit.js';
import { insertPage, monitoringProject } from '../../../test/monitoring-kit.js';
import { auditEvents, monCharts, monInsights, monPages } from '../../db/schema/index.js';
import { CHART_NEEDS_DENOMINATOR_MESSAGE } from './series.service.js';

/** Far ahead of the real date: cookies are dated by the app's clock (see series.test.ts). */
const TODAY = new Date('2090-06-15T12:00:00Z');

describe('charts of pages, measure summary and insight drafts', () => {
  // Project admins' two-factor grace period would be long over by TODAY; these tests are not about it.
  const ctx = useTestApp({ env: { MFA_REQUIRED_ROLES: 'superadmin' } });
  const db = () => ctx.db.handle.db;

  async function setup() {
    ctx.clock.set(TODAY);
    const s = await monitoringProject(db());
    // Aug 2088 to Mar 2090: 10 months at 5 falls per 1,000 patient days, then 10 at 2 (a real shift).
    const { page, dataset } = await fallsPageWithRows(db(), s, '2088-08-01', [
      ...repeat(10, [5, 1000]),
      ...repeat(10, [2, 1000]),
    ]);
    const measure = await addMeasure(db(), s.project.id, page.id, dataset.id, {
      definition: { description: 'Falls that injure a patient', inclusions: 'All inpatients' },
    });
    const base = `/api/projects/${s.project.id}/monitoring`;
    const admin = await ctx.signedIn(s.people.admin);
    return { ...s, page, dataset, measure, base, admin };
  }

  const snapshot = async () => ({
    charts: await db().select().from(monCharts).orderBy(asc(monCharts.id)),
    insights: (await db().select({ n: count() }).from(monInsights))[0]!.n,
    audit: (await db().select({ n: count() }).from(auditEvents))[0]!.n,
  });

  async function lastAudit() {
    const [event] = await db().select().from(auditEvents).orderBy(desc(auditEvents.id)).limit(1);
    return event!;
  }

  async function addChart(s: Awaited<ReturnType<typeof setup>>, title: string) {
    const answer = await s.admin.post(`${s.base}/pages/${s.page.id}/charts`, {
      measure_id: s.measure.id,
      title,
      chart_type: 'u',
    });
    expect(answer.statusCode, answer.body).toBe(201);
    return answer.json() as { id: number; version: number; position: number };
  }

  it('guards every call: 401 signed out, 403 by role or page, 404 outside; nothing changes', async () => {
    const s = await setup();
    const chart = await addChart(s, 'Falls rate');
    const agents = {
      anonymous: await ctx.anonymous(),
      ...(await ctx.signedInAll(s.people, 'noRole', 'viewer', 'dataEntry', 'outsider')),
    };
    const create = { measure_id: s.measure.id, title: 'Another', chart_type: 'run' };
    // [method, url, body, refused for a viewer (section), refused for data entry (page edit access)]
    const calls = [
      ['get', `${s.base}/pages/${s.page.id}/measure-summary`, undefined, false, false],
      ['get', `${s.base}/pages/${s.page.id}/charts`, undefined, false, false],
      ['post', `${s.base}/pages/${s.page.id}/charts`, create, true, true],
      ['get', `${s.base}/charts/${chart.id}`, undefined, false, false],
      ['put', `${s.base}/charts/${chart.id}`, { version: chart.version, title: 'Changed' }, true, true],
      ['delete', `${s.base}/charts/${chart.id}`, undefined, true, true],
      ['post', `${s.base}/pages/${s.page.id}/insights/draft`, undefined, true, true],
    ] as const;
    const before = await snapshot();
    await expectStatuses(agents, calls, ([, , , viewerRefused, dataEntryRefused]) => [
      ['anonymous', 401],
      ['noRole', 403],
      ['outsider', 404],
      ['viewer', viewerRefused ? 403 : 200],
      ['dataEntry', dataEntryRefused ? 403 : 200],
    ]);
    expect(await snapshot()).toEqual(before);

    // Another project's page and chart through this project's address: 404, nothing changes.
    const other = await monitoringProject(db());
    const theirPage = await insertPage(db(), other.project.id, { title: 'Their falls', number: '1' });
    const [theirChart] = await db()
      .insert(monCharts)
      .values({
        projectId: other.project.id,
        pageId: theirPage.id,
        measureId: s.measure.id,
        title: 'T',
        chartType: 'u',
      })
      .returning();
    const foreignBefore = await snapshot();
    const foreign = [
      await s.admin.get(`${s.base}/pages/${theirPage.id}/measure-summary`),
      await s.admin.get(`${s.base}/pages/${theirPage.id}/charts`),
      await s.admin.post(`${s.base}/pages/${theirPage.id}/charts`, create),
      await s.admin.get(`${s.base}/charts/${theirChart!.id}`),
      await s.admin.put(`${s.base}/charts/${theirChart!.id}`, { version: 1, title: 'Mine now' }),
      await s.admin.delete(`${s.base}/charts/${theirChart!.id}`),
      await s.admin.post(`${s.base}/pages/${theirPage.id}/insights/draft`),
    ];
    expect(foreign.map((a) => a.statusCode)).toEqual([404, 404, 404, 404, 404, 404, 404]);
    for (const answer of foreign) expect(answer.body).not.toContain('Their falls');
    expect(await snapshot()).toEqual(foreignBefore);

    // A hidden page hides its charts and summary like a missing one.
    await db().update(monPages).set({ restricted: true }).where(eq(monPages.id, s.page.id));
    expect((await agents.viewer.get(`${s.base}/pages/${s.page.id}/charts`)).statusCode).toBe(404);
    expect((await agents.viewer.get(`${s.base}/charts/${chart.id}`)).statusCode).toBe(404);
    expect((await agents.viewer.get(`${s.base}/pages/${s.page.id}/measure-summary`)).statusCode).toBe(404);
  });

  it('refuses bad input with field messages', async () => {
    const s = await setup();
    const url = `${s.base}/pages/${s.page.id}/charts`;
    const empty = await s.admin.post(url, { measure_id: s.measure.id, title: ' ', chart_type: 'pie' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors.title).toEqual(['Enter a title.']);
    expect(empty.json().errors.chart_type).toBeDefined();

    const elsewhere = await insertPage(db(), s.project.id, { title: 'CLABSI', number: '2' });
    const otherMeasure = await addMeasure(db(), s.project.id, elsewhere.id, s.dataset.id);
    const wrongPage = await s.admin.post(url, { measure_id: otherMeasure.id, title: 'X', chart_type: 'u' });
    expect(wrongPage.statusCode).toBe(400);
    expect(wrongPage.json().errors.measure_id).toEqual(['Choose a measure of this page.']);

    const counted = await addMeasure(db(), s.project.id, s.page.id, s.dataset.id, {
      name: 'Falls count',
      type: 'count',
      valueExpr: 'sum(falls)',
      chartDefault: 'c',
    });
    const pChart = await s.admin.post(url, { measure_id: counted.id, title: 'X', chart_type: 'p' });
    expect(pChart.statusCode).toBe(400);
    expect(pChart.json().errors.chart_type).toEqual([CHART_NEEDS_DENOMINATOR_MESSAGE]);

    const range = await s.admin.post(url, {
      measure_id: s.measure.id,
      title: 'X',
      chart_type: 'u',
      options: { from: '2090-05-01', to: '2089-01-01' },
    });
    expect(range.statusCode).toBe(400);
    expect(range.json().errors['options.to']).toEqual(['The end of the range is before its start.']);
    const stratum = await s.admin.post(url, {
      measure_id: s.measure.id,
      title: 'X',
      chart_type: 'u',
      options: { stratum: 'North' },
    });
    expect(stratum.json().errors['options.stratum']).toEqual(['This measure has no strata.']);

    const chart = await addChart(s, 'Falls');
    const noVersion = await s.admin.put(`${s.base}/charts/${chart.id}`, { title: 'Changed' });
    expect(noVersion.statusCode).toBe(400);
    expect(noVersion.json().errors.version).toBeDefined();
    const badPosition = await s.admin.put(`${s.base}/charts/${chart.id}`, { version: 1, position: -1 });
    expect(badPosition.statusCode).toBe(400);
    expect((await s.admin.post(`${s.base}/pages/abc/insights/draft`)).statusCode).toBe(400);
    expect((await s.admin.get(`${s.base}/pages/abc/measure-summary`)).statusCode).toBe(400);
  });

  it('adds charts last, moves them renumbering the page, answers a stale edit with 409, deletes; all audited', async () => {
    const s = await setup();
    const owner = await ctx.signedIn(s.people.owner);
    const a = await addChart(s, 'A');
    const b = await addChart(s, 'B');
    const created = await owner.post(`${s.base}/pages/${s.page.id}/charts`, {
      measure_id: s.measure.id,
      title: 'C',
      chart_type: 'run',
      options: { sigma_lines: [2], rule_profile: 'ihi_run' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const c = created.json();
    expect(c).toMatchObject({
      page_id: s.page.id,
      measure: { id: s.measure.id, name: s.measure.name, type: 'rate' },
      title: 'C',
      chart_type: 'run',
      position: 2,
      version: 1,
      options: {
        stratum: null,
        from: null,
        to: null,
        sigma_lines: [2],
        show_target: true,
        show_benchmark: true,
        show_annotations: true,
        rule_profile: 'ihi_run',
      },
    });
    expect(await lastAudit()).toMatchObject({
      action: 'monitoring.chart_created',
      projectId: s.project.id,
      actorUserId: s.people.owner.id,
      subjectType: 'mon_chart',
      subjectId: String(c.id),
    });

    const list = await owner.get(`${s.base}/pages/${s.page.id}/charts`);
    expect(list.json().charts.map((x: { title: string; position: number }) => [x.title, x.position])).toEqual([
      ['A', 0],
      ['B', 1],
      ['C', 2],
    ]);
    expect(list.json().abilities).toEqual({ edit: true });
    const viewer = await ctx.signedIn(s.people.viewer);
    expect((await viewer.get(`${s.base}/pages/${s.page.id}/charts`)).json().abilities).toEqual({ edit: false });
    expect((await viewer.get(`${s.base}/charts/${c.id}`)).json()).toMatchObject({ id: c.id, title: 'C' });

    const moved = await owner.put(`${s.base}/charts/${c.id}`, { version: 1, position: 0, title: 'C first' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ title: 'C first', position: 0, version: 2 });
    expect((await lastAudit()).data).toMatchObject({ fields: ['title', 'position'], position: { from: 2, to: 0 } });
    const order = async () =>
      (await db().select().from(monCharts).where(eq(monCharts.pageId, s.page.id)).orderBy(asc(monCharts.position))).map(
        (x) => [x.id, x.position],
      );
    expect(await order()).toEqual([
      [c.id, 0],
      [a.id, 1],
      [b.id, 2],
    ]);

    const stale = await s.admin.put(`${s.base}/charts/${c.id}`, { version: 1, title: 'Late' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toBe(STALE_CHART_MESSAGE);
    expect(stale.json().errors.version).toEqual(['2']);

    const retyped = await s.admin.put(`${s.base}/charts/${a.id}`, { version: 1, chart_type: 'uprime', position: 99 });
    expect(retyped.json()).toMatchObject({ chart_type: 'uprime', position: 2, version: 2 });

    expect((await s.admin.delete(`${s.base}/charts/${c.id}`)).statusCode).toBe(204);
    expect(await lastAudit()).toMatchObject({ action: 'monitoring.chart_deleted', subjectId: String(c.id) });
    expect(await order()).toEqual([
      [b.id, 0],
      [a.id, 1],
    ]);
    expect((await s.admin.get(`${s.base}/charts/${c.id}`)).statusCode).toBe(404);
  });

  it('summarises each measure: latest value with n, target, benchmark, variation, signals, sparkline, formulas', async () => {
    const s = await setup();
    await addTarget(db(), s.measure, 4, '2088-01-01');
    await addTarget(db(), s.measure, 10, '2089-06-01');
    await addTarget(db(), s.measure, 1, '2089-06-01', 'stretch');
    const matching = await addBenchmark(db(), s.measure, { source: 'NDNQI', value: 3.1, asOf: '2088-12-31' });
    await addBenchmark(db(), s.measure, { source: 'Other', value: 2.2, asOf: '2089-12-31', specMatch: false });
    const empty = await addMeasure(db(), s.project.id, s.page.id, null, { name: 'CLABSI', position: 5 });

    const answer = await s.admin.get(`${s.base}/pages/${s.page.id}/measure-summary`);
    expect(answer.statusCode, answer.body).toBe(200);
    const [falls, clabsi] = answer.json().measures;
    expect(falls).toMatchObject({
      measure_id: s.measure.id,
      name: 'Falls with injury per 1,000 patient days',
      type: 'rate',
      unit_label: 'per 1,000 patient days',
      direction: 'down',
      latest: { period: '2090-03-01', label: 'Mar 2090', value: 2, numerator: 2, denominator: 1000, rows: 1 },
      target: { value: 10, kind: 'target' },
      benchmark: { id: matching.id, source: 'NDNQI', value: 3.1, spec_match: true },
      variation: 'improvement',
      assurance: 'pass',
      trial: false,
      signals: ['shift', 'runs'],
      definition: { description: 'Falls that injure a patient', inclusions: 'All inpatients', exclusions: '' },
      explanation: 'The sum of Falls with injury, divided by the sum of Patient days, times 1,000.',
    });
    expect(falls.sparkline).toEqual([...Array(10).fill(5), ...Array(10).fill(2)]);
    expect(clabsi).toMatchObject({
      measure_id: empty.id,
      latest: null,
      target: null,
      benchmark: null,
      variation: null,
      signals: [],
      sparkline: [],
      explanation: 'No dataset is chosen for this measure.',
    });

    // A phase after the shift: the latest phase has no signal any more.
    await addPhase(db(), s.measure, '2089-06-01');
    const phased = (await s.admin.get(`${s.base}/pages/${s.page.id}/measure-summary`)).json().measures[0];
    expect(phased.signals).toEqual([]);
    expect(phased.variation).toBe('common');
  });

  it('drafts a key insight from the signals, without saving it', async () => {
    const s = await setup();
    await addTarget(db(), s.measure, 10, '2088-01-01');
    const hygiene = await addDataset(db(), s.project.id, { name: 'Hand hygiene audits' });
    await addMonthlyRows(
      db(),
      hygiene,
      '2089-04-01',
      Array.from({ length: 12 }, (_, i) => [i % 2 ? 92 : 88, 100] as const),
    );
    await addMeasure(db(), s.project.id, s.page.id, hygiene.id, {
      name: 'Hand hygiene & <gel> compliance',
      type: 'proportion',
      multiplier: 100,
      unitLabel: '%',
      direction: 'up',
      chartDefault: 'p',
      position: 1,
    });
    await addMeasure(db(), s.project.id, s.page.id, null, { name: 'CLABSI', position: 2 });
    const before = await snapshot();

    const answer = await s.admin.post(`${s.base}/pages/${s.page.id}/insights/draft`);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({
      title: 'Signals on Falls, Mar 2090',
      body:
        '<p>Falls with injury per 1,000 patient days: special-cause improvement since Jun 2089 (10 points below the ' +
        'centre line, rules: A run of points on one side of the centre line; Too few crossings of the centre line); ' +
        'target met consistently.</p>' +
        '<p>Common-cause variation only (no signal in the latest phase): Hand hygiene &amp; &lt;gel&gt; compliance.</p>' +
        '<p>No data to read yet: CLABSI.</p>',
    });
    expect(await snapshot()).toEqual(before);

    const owner = await ctx.signedIn(s.people.owner);
    expect((await owner.post(`${s.base}/pages/${s.page.id}/insights/draft`)).statusCode).toBe(200);
  });
});
