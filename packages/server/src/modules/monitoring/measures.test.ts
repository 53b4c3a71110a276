import { STALE_MEASURE_MESSAGE } from '@portal/shared';
import { and, asc, count, desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { expectStatuses } from '../../../test/guards-kit.js';
import { addBareMeasure, addDataset, addRows } from '../../../test/monitoring-data-kit.js';
import { insertPage, monitoringProject } from '../../../test/monitoring-kit.js';
import {
  auditEvents,
  monCharts,
  monFormulaVersions,
  monMeasures,
  monPageLevels,
  monPhases,
} from '../../db/schema/index.js';
import { ensureLevels } from './pages.service.js';

describe('measures', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;

  async function setup() {
    const s = await monitoringProject(db());
    const page = await insertPage(db(), s.project.id, {
      title: 'Falls with injury',
      number: '1',
      depth: 3,
      ownerId: s.people.owner.id,
    });
    const dataset = await addDataset(db(), s.project.id);
    await addRows(db(), dataset, [
      { date: '2025-01-10', data: { ward: 'A', falls: 2, patient_days: 400 } },
      { date: '2025-02-10', data: { ward: 'B', falls: 1, patient_days: 500 } },
    ]);
    const foreign = await addDataset(db(), s.other.id, { name: 'Their census' });
    const base = `/api/projects/${s.project.id}/monitoring`;
    const admin = await ctx.signedIn(s.people.admin);
    const rate = {
      name: 'Falls with injury',
      type: 'rate',
      dataset_id: dataset.id,
      numerator: 'sum(falls)',
      denominator: 'sum(patient_days)',
      multiplier: 1000,
      unit_label: 'per 1,000 patient days',
      direction: 'down',
      chart_default: 'u',
    };
    return { ...s, page, dataset, foreign, base, admin, rate };
  }
  type Setup = Awaited<ReturnType<typeof setup>>;

  async function addMeasure(s: Setup, body: Record<string, unknown> = {}, pageId = s.page.id) {
    const answer = await s.admin.post(`${s.base}/pages/${pageId}/measures`, { ...s.rate, ...body });
    expect(answer.statusCode, answer.body).toBe(201);
    return answer.json() as { id: number; version: number; formula_version: number; formula_hash: string | null };
  }

  async function lastAudit() {
    const [event] = await db().select().from(auditEvents).orderBy(desc(auditEvents.id)).limit(1);
    return event!;
  }

  const snapshot = async () => ({
    measures: await db().select().from(monMeasures).orderBy(asc(monMeasures.id)),
    versions: await db().select().from(monFormulaVersions).orderBy(asc(monFormulaVersions.id)),
    phases: await db().select().from(monPhases).orderBy(asc(monPhases.id)),
    charts: await db().select().from(monCharts).orderBy(asc(monCharts.id)),
    audit: (await db().select({ n: count() }).from(auditEvents))[0]!.n,
  });

  it('guards every call: 401 signed out, 403 without a role (viewers on writes), 404 outside; nothing changes', async () => {
    const s = await setup();
    const measure = await addMeasure(s);
    const calls = [
      ['get', `${s.base}/pages/${s.page.id}/measures`, undefined, false],
      ['post', `${s.base}/pages/${s.page.id}/measures`, s.rate, true],
      ['get', `${s.base}/measures/${measure.id}`, undefined, false],
      ['put', `${s.base}/measures/${measure.id}`, { version: 1, name: 'Changed' }, true],
      ['delete', `${s.base}/measures/${measure.id}`, undefined, true],
      ['get', `${s.base}/measures/${measure.id}/formula-versions`, undefined, false],
    ] as const;
    const agents = {
      anonymous: await ctx.anonymous(),
      ...(await ctx.signedInAll(s.people, 'noRole', 'viewer', 'outsider')),
    };
    const before = await snapshot();
    await expectStatuses(agents, calls, ([, , , write]) => [
      ['anonymous', 401],
      ['noRole', 403],
      ['outsider', 404],
      ['viewer', write ? 403 : 200],
    ]);
    expect(await snapshot()).toEqual(before);
  });

  it('answers 404 for measures of another project or a hidden page, and for a foreign dataset', async () => {
    const s = await setup();
    const otherPage = await insertPage(db(), s.other.id, { title: 'South falls', number: '1' });
    const theirs = await addBareMeasure(db(), { projectId: s.other.id, pageId: otherPage.id, name: 'Their falls' });
    const before = await snapshot();
    expect((await s.admin.get(`${s.base}/measures/${theirs.id}`)).statusCode).toBe(404);
    expect((await s.admin.put(`${s.base}/measures/${theirs.id}`, { version: 1, name: 'Mine' })).statusCode).toBe(404);
    expect((await s.admin.delete(`${s.base}/measures/${theirs.id}`)).statusCode).toBe(404);
    expect((await s.admin.get(`${s.base}/pages/${otherPage.id}/measures`)).statusCode).toBe(404);
    expect((await s.admin.post(`${s.base}/pages/${otherPage.id}/measures`, s.rate)).statusCode).toBe(404);
    const foreign = await s.admin.post(`${s.base}/pages/${s.page.id}/measures`, {
      ...s.rate,
      dataset_id: s.foreign.id,
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe('Dataset not found.');
    expect(await snapshot()).toEqual(before);

    const hidden = await insertPage(db(), s.project.id, {
      title: 'Secret programme',
      number: '9',
      depth: 2,
      restricted: true,
    });
    const secret = await addMeasure(s, { name: 'Secret measure' }, hidden.id);
    const viewer = await ctx.signedIn(s.people.viewer);
    const detail = await viewer.get(`${s.base}/measures/${secret.id}`);
    expect(detail.statusCode).toBe(404);
    expect(detail.body).not.toContain('Secret');
    expect((await viewer.get(`${s.base}/pages/${hidden.id}/measures`)).statusCode).toBe(404);
    expect((await viewer.get(`${s.base}/measures/${secret.id}/formula-versions`)).statusCode).toBe(404);
  });

  it('adds measures with formula version 1, lists them by position and shows one with its page', async () => {
    const s = await setup();
    const first = await addMeasure(s);
    expect(first).toMatchObject({
      page_id: s.page.id,
      name: 'Falls with injury',
      type: 'rate',
      dataset: { id: s.dataset.id, name: 'Falls census' },
      numerator: 'sum(falls)',
      denominator: 'sum(patient_days)',
      multiplier: 1000,
      direction: 'down',
      grain: 'month',
      rule_profile: 'anhoej',
      formula_version: 1,
      version: 1,
      targets: [],
      page: { id: s.page.id, number: '1', title: 'Falls with injury' },
      abilities: { edit: true },
    });
    expect(first.formula_hash).toMatch(/^[0-9a-f]{16}$/);
    const [version] = await db().select().from(monFormulaVersions).where(eq(monFormulaVersions.measureId, first.id));
    expect(version).toMatchObject({
      projectId: s.project.id,
      version: 1,
      datasetId: s.dataset.id,
      hash: first.formula_hash,
      columns: ['falls', 'patient_days'],
      createdBy: s.people.admin.id,
    });
    expect(await lastAudit()).toMatchObject({
      action: 'monitoring.measure_created',
      projectId: s.project.id,
      actorUserId: s.people.admin.id,
      subjectType: 'mon_measure',
      subjectId: String(first.id),
    });

    // Spacing and parentheses do not change the definition's hash.
    const same = await addMeasure(s, {
      name: 'Same, spaced',
      numerator: ' ( sum( falls ) ) ',
      denominator: 'sum(patient_days)',
    });
    expect(same.formula_hash).toBe(first.formula_hash);

    // A measure without data yet: no formula version.
    const owner = await ctx.signedIn(s.people.owner);
    const draft = await owner.post(`${s.base}/pages/${s.page.id}/measures`, {
      name: 'Hand hygiene',
      type: 'proportion',
      dataset_id: null,
      chart_default: 'p',
      definition: { description: 'Observed opportunities', owner: 'Infection prevention' },
    });
    expect(draft.statusCode, draft.body).toBe(201);
    expect(draft.json()).toMatchObject({ formula_version: 0, formula_hash: null, dataset: null });
    expect(draft.json().definition).toMatchObject({ description: 'Observed opportunities', inclusions: '' });

    const viewer = await ctx.signedIn(s.people.viewer);
    const list = await viewer.get(`${s.base}/pages/${s.page.id}/measures`);
    expect(list.statusCode).toBe(200);
    expect(list.json().abilities).toEqual({ edit: false });
    expect(list.json().measures.map((m: { name: string }) => m.name)).toEqual([
      'Falls with injury',
      'Same, spaced',
      'Hand hygiene',
    ]);
    expect((await s.admin.get(`${s.base}/pages/${s.page.id}/measures`)).json().abilities).toEqual({ edit: true });
    expect((await viewer.get(`${s.base}/measures/${first.id}`)).json().abilities).toEqual({ edit: false });

    // Data entry may use the formula builder, but only on pages they may edit.
    const dataEntry = await ctx.signedIn(s.people.dataEntry);
    expect((await dataEntry.post(`${s.base}/pages/${s.page.id}/measures`, s.rate)).statusCode).toBe(403);
  });

  it('refuses a measure on a page whose level does not hold measures, until an admin allows it', async () => {
    const s = await setup();
    const domain = await insertPage(db(), s.project.id, { title: 'Patient Safety', number: '2', depth: 1 });
    const before = await snapshot();
    const refused = await s.admin.post(`${s.base}/pages/${domain.id}/measures`, s.rate);
    expect(refused.statusCode).toBe(400);
    const message = 'Pages at the level "Domain" do not hold measures. A monitoring admin can allow it in Page levels.';
    expect(refused.json()).toMatchObject({ message, errors: { page_id: [message] } });
    expect(await snapshot()).toEqual(before);

    await ensureLevels(db(), s.project.id);
    await db()
      .update(monPageLevels)
      .set({ mayHoldMeasures: true })
      .where(and(eq(monPageLevels.projectId, s.project.id), eq(monPageLevels.depth, 1)));
    await addMeasure(s, {}, domain.id);
  });

  it('refuses formulas that do not check, pointing at the characters, and other bad definitions', async () => {
    const s = await setup();
    const before = await snapshot();
    const post = (body: Record<string, unknown>) =>
      s.admin.post(`${s.base}/pages/${s.page.id}/measures`, { ...s.rate, ...body });

    const typo = await post({ numerator: 'sum(fals)' });
    expect(typo.statusCode).toBe(400);
    expect(typo.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: "The numerator has an error: Unknown column 'fals'. Did you mean 'falls'?",
      errors: { numerator: ["Unknown column 'fals'. Did you mean 'falls'?"] },
      details: {
        formulas: { numerator: [{ start: 4, end: 8, message: "Unknown column 'fals'. Did you mean 'falls'?" }] },
      },
    });

    const missing = await post({ denominator: '' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().details.formulas).toEqual({
      denominator: [{ start: 0, end: 0, message: 'Enter the denominator.' }],
    });
    const continuous = await post({ type: 'continuous', chart_default: 'i', numerator: '', denominator: '' });
    expect(continuous.json().errors).toEqual({ value_expr: ['Enter the value.'] });
    const bare = await post({ type: 'continuous', chart_default: 'i', value_expr: 'falls' });
    expect(bare.json().errors.value_expr).toEqual([
      'A column must be inside an aggregate such as sum() in a period expression.',
    ]);

    const rest = await post({
      strata_keys: ['unit'],
      chart_default: 'u',
      type: 'count',
      value_expr: 'count()',
      baseline_from: '2025-06-01',
      baseline_to: '2025-01-01',
    });
    expect(rest.statusCode).toBe(400);
    expect(rest.json().errors).toEqual({
      strata_keys: ["Strata are columns of the dataset; 'unit' is not one of its columns."],
      chart_default: [
        'P and U charts need a numerator and a denominator: choose a run, I, C, G or T chart for this type of measure.',
      ],
      baseline_to: ['The baseline ends on or after the day it starts.'],
    });
    expect(rest.json().message).toBe("Strata are columns of the dataset; 'unit' is not one of its columns.");

    const noDataset = await post({ dataset_id: null });
    expect(noDataset.json()).toMatchObject({ message: 'Choose the dataset the formulas read.' });
    const schema = await post({ name: ' ', multiplier: 0, type: 'speed' });
    expect(schema.statusCode).toBe(400);
    expect(Object.keys(schema.json().errors).sort()).toEqual(['multiplier', 'name', 'type']);

    const deleted = await addDataset(db(), s.project.id, { name: 'Old census', deleted: true });
    const gone = await post({ dataset_id: deleted.id });
    expect(gone.statusCode).toBe(404);
    expect(await snapshot()).toEqual(before);
  });

  it('changes a measure with its version: stale edits are 409, formula changes record a version and a phase', async () => {
    const s = await setup();
    const measure = await addMeasure(s);
    const url = `${s.base}/measures/${measure.id}`;

    const renamed = await s.admin.put(url, { version: 1, name: 'Falls (injury)', unit_label: 'per 1,000 days' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'Falls (injury)', version: 2, formula_version: 1 });
    expect(await lastAudit()).toMatchObject({
      action: 'monitoring.measure_updated',
      data: { fields: ['name', 'unit_label'], version: 2 },
    });

    const before = await snapshot();
    const stale = await s.admin.put(url, { version: 1, name: 'Lost' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({
      message: STALE_MEASURE_MESSAGE,
      errors: { version: ['2'] },
      details: { current_version: 2 },
    });
    const badFormula = await s.admin.put(url, { version: 2, numerator: 'sum(fals)' });
    expect(badFormula.statusCode).toBe(400);
    expect(badFormula.json().details.formulas.numerator[0]).toMatchObject({ start: 4, end: 8 });
    const phaseAlone = await s.admin.put(url, { version: 2, name: 'X', phase_start: '2025-03-01' });
    expect(phaseAlone.statusCode).toBe(400);
    expect(phaseAlone.json().errors.phase_start).toHaveLength(1);
    expect(await snapshot()).toEqual(before);

    const changed = await s.admin.put(url, {
      version: 2,
      numerator: 'countIf(falls > 0)',
      formula_note: 'Count falls with any injury',
      phase_start: '2025-03-17',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({
      version: 3,
      formula_version: 2,
      numerator: 'countIf(falls > 0)',
      phases: [{ start_period: '2025-03-01', label: 'Definition changed (version 2)', reason: 'definition_change' }],
    });
    expect(changed.json().formula_hash).not.toBe(measure.formula_hash);
    expect(await lastAudit()).toMatchObject({
      action: 'monitoring.measure_updated',
      data: { fields: ['numerator'], formula_version: 2, phase_start: '2025-03-01' },
    });

    const versions = await s.admin.get(`${url}/formula-versions`);
    expect(versions.statusCode).toBe(200);
    expect(versions.json().versions).toMatchObject([
      {
        version: 2,
        numerator: 'countIf(falls > 0)',
        note: 'Count falls with any injury',
        phase_start: '2025-03-01',
        dataset: { id: s.dataset.id, name: 'Falls census' },
        created_by: { id: s.people.admin.id, name: 'Ada Admin' },
      },
      { version: 1, numerator: 'sum(falls)', note: '', phase_start: null, hash: measure.formula_hash },
    ]);

    // A second change starting in the same period: the phase is taken, nothing changes.
    const beforeTaken = await snapshot();
    const taken = await s.admin.put(url, {
      version: 3,
      denominator: 'sum(patient_days) / 10',
      phase_start: '2025-03-31',
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe(
      'A phase already starts in Mar 2025 ("Definition changed (version 2)"). Choose another period or remove that phase first.',
    );
    expect(await snapshot()).toEqual(beforeTaken);

    // Changing the dataset is a definition change too, without a phase when none is asked for.
    const census = await addDataset(db(), s.project.id, { name: 'New census' });
    const moved = await s.admin.put(url, { version: 3, dataset_id: census.id });
    expect(moved.json()).toMatchObject({ formula_version: 3, dataset: { id: census.id, name: 'New census' } });
    expect(moved.json().phases).toHaveLength(1);
    expect(
      (await db().select().from(monFormulaVersions).where(eq(monFormulaVersions.measureId, measure.id))).length,
    ).toBe(3);

    // Nothing given that differs: no new version.
    const unchanged = await s.admin.put(url, { version: 4, name: 'Falls (injury)' });
    expect(unchanged.json().version).toBe(4);
  });

  it('deletes a measure with its charts in one go, and it is gone from the page', async () => {
    const s = await setup();
    const measure = await addMeasure(s);
    const keep = await addMeasure(s, { name: 'Kept' });
    await db()
      .insert(monCharts)
      .values([
        { projectId: s.project.id, pageId: s.page.id, measureId: measure.id, title: 'Falls', chartType: 'u' },
        { projectId: s.project.id, pageId: s.page.id, measureId: keep.id, title: 'Kept', chartType: 'u' },
      ]);
    const owner = await ctx.signedIn(s.people.owner);
    const removed = await owner.delete(`${s.base}/measures/${measure.id}`);
    expect(removed.statusCode).toBe(204);
    expect((await s.admin.get(`${s.base}/measures/${measure.id}`)).statusCode).toBe(404);
    const charts = await db().select().from(monCharts);
    expect(charts.map((c) => c.measureId)).toEqual([keep.id]);
    const [row] = await db().select().from(monMeasures).where(eq(monMeasures.id, measure.id));
    expect(row!.deletedAt).not.toBeNull();
    expect(await lastAudit()).toMatchObject({
      action: 'monitoring.measure_deleted',
      actorUserId: s.people.owner.id,
      subjectId: String(measure.id),
    });
    const list = await s.admin.get(`${s.base}/pages/${s.page.id}/measures`);
    expect(list.json().measures.map((m: { id: number }) => m.id)).toEqual([keep.id]);
    expect((await s.admin.delete(`${s.base}/measures/${measure.id}`)).statusCode).toBe(404);
  });
});
