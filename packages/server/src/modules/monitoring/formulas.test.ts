import { count } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { addDataset, addRows } from '../../../test/monitoring-data-kit.js';
import { monitoringProject } from '../../../test/monitoring-kit.js';
import { auditEvents, monFormulaVersions, monMeasures, monSeries } from '../../db/schema/index.js';

/** 14 months of ward data, January 2024 to February 2025, two rows a month. */
function wardRows() {
  const rows: { date: string; data: Record<string, unknown> }[] = [];
  for (let i = 0; i < 14; i++) {
    const month = `${2024 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`;
    rows.push({ date: `${month}-05`, data: { ward: 'A', falls: i % 3, patient_days: 300 } });
    rows.push({ date: `${month}-20`, data: { ward: 'B', falls: 1, patient_days: 200 } });
  }
  return rows;
}

describe('formula builder', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;

  async function setup() {
    const s = await monitoringProject(db());
    const dataset = await addDataset(db(), s.project.id, { version: 1 });
    await addRows(db(), dataset, wardRows());
    const foreign = await addDataset(db(), s.other.id, { name: 'Their census' });
    const base = `/api/projects/${s.project.id}/monitoring`;
    const admin = await ctx.signedIn(s.people.admin);
    return { ...s, dataset, foreign, base, admin };
  }

  it('guards both calls: 401 signed out, 403 for viewers and without a role, 404 outside; nothing is written', async () => {
    const s = await setup();
    const calls = [
      [`${s.base}/formulas/validate`, { dataset_id: s.dataset.id, role: 'numerator', expression: 'sum(falls)' }],
      [`${s.base}/formulas/preview`, { dataset_id: s.dataset.id, type: 'count', value_expr: 'sum(falls)' }],
    ] as const;
    const agents = {
      anonymous: await ctx.anonymous(),
      ...(await ctx.signedInAll(s.people, 'noRole', 'viewer', 'outsider')),
    };
    const counts = async () => ({
      audit: (await db().select({ n: count() }).from(auditEvents))[0]!.n,
      measures: (await db().select({ n: count() }).from(monMeasures))[0]!.n,
      versions: (await db().select({ n: count() }).from(monFormulaVersions))[0]!.n,
      series: (await db().select({ n: count() }).from(monSeries))[0]!.n,
    });
    const dataEntry = await ctx.signedIn(s.people.dataEntry);
    const before = await counts();
    for (const [url, body] of calls) {
      for (const [who, status] of [
        ['anonymous', 401],
        ['noRole', 403],
        ['viewer', 403],
        ['outsider', 404],
      ] as const) {
        expect((await agents[who].post(url, body)).statusCode, `${url} as ${who}`).toBe(status);
      }
      // Data entry uses the formula builder.
      expect((await dataEntry.post(url, body)).statusCode).toBe(200);
    }
    expect(await counts()).toEqual(before);
  });

  it('points at the characters of an error and suggests the column meant', async () => {
    const s = await setup();
    const answer = await s.admin.post(`${s.base}/formulas/validate`, {
      dataset_id: s.dataset.id,
      role: 'numerator',
      expression: 'sum(fals) / count()',
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({
      ok: false,
      errors: [{ start: 4, end: 8, message: "Unknown column 'fals'. Did you mean 'falls'?" }],
      columns: [],
      explanation: null,
      preview: [],
    });
    const attack = await s.admin.post(`${s.base}/formulas/validate`, {
      dataset_id: s.dataset.id,
      role: 'value',
      expression: 'falls.constructor.constructor("return process")()',
    });
    expect(attack.json().ok).toBe(false);
    expect(attack.json().errors[0].message).toMatch(/^Only the listed functions can be called, by name/);
    const rowLevel = await s.admin.post(`${s.base}/formulas/validate`, {
      dataset_id: s.dataset.id,
      role: 'row',
      expression: 'sum(falls)',
    });
    expect(rowLevel.json().errors[0].message).toBe('Aggregates such as sum() cannot be used in a row expression.');
  });

  it('explains a valid formula with column labels and previews the last 12 periods on current rows', async () => {
    const s = await setup();
    const answer = await s.admin.post(`${s.base}/formulas/validate`, {
      dataset_id: s.dataset.id,
      role: 'numerator',
      expression: 'sum(falls) / sum(patient_days) * 1000',
    });
    expect(answer.statusCode).toBe(200);
    const body = answer.json();
    expect(body).toMatchObject({
      ok: true,
      errors: [],
      columns: ['falls', 'patient_days'],
      explanation: 'the sum of Falls with injury, divided by the sum of Patient days, times 1000',
    });
    expect(body.preview).toHaveLength(12);
    expect(body.preview[0]).toEqual({ period: '2024-03-01', value: 6, rows: 2 });
    expect(body.preview[11]).toEqual({ period: '2025-02-01', value: 4, rows: 2 });

    const quarters = await s.admin.post(`${s.base}/formulas/validate`, {
      dataset_id: s.dataset.id,
      role: 'value',
      expression: 'count()',
      grain: 'quarter',
    });
    expect(quarters.json().preview).toEqual([
      { period: '2024-01-01', value: 6, rows: 6 },
      { period: '2024-04-01', value: 6, rows: 6 },
      { period: '2024-07-01', value: 6, rows: 6 },
      { period: '2024-10-01', value: 6, rows: 6 },
      { period: '2025-01-01', value: 4, rows: 4 },
    ]);

    const row = await s.admin.post(`${s.base}/formulas/validate`, {
      dataset_id: s.dataset.id,
      role: 'row',
      expression: 'if(falls > 0, 1, 0)',
    });
    expect(row.json()).toMatchObject({ ok: true, columns: ['falls'], preview: [] });
    expect(row.json().explanation).toBe('if Falls with injury is more than 0 then 1, otherwise 0');
  });

  it("answers 404 for another project's dataset and 400 for bad input", async () => {
    const s = await setup();
    const foreign = await s.admin.post(`${s.base}/formulas/validate`, {
      dataset_id: s.foreign.id,
      role: 'numerator',
      expression: 'count()',
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe('Dataset not found.');
    const foreignPreview = await s.admin.post(`${s.base}/formulas/preview`, {
      dataset_id: s.foreign.id,
      type: 'count',
      value_expr: 'count()',
    });
    expect(foreignPreview.statusCode).toBe(404);
    const bad = await s.admin.post(`${s.base}/formulas/validate`, {
      dataset_id: s.dataset.id,
      role: 'total',
      expression: 'x'.repeat(501),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.expression).toEqual(['A formula is at most 500 characters.']);
    expect(bad.json().errors.role).toHaveLength(1);
  });

  it('previews an unsaved measure as a series with the recommended chart', async () => {
    const s = await setup();
    const answer = await s.admin.post(`${s.base}/formulas/preview`, {
      dataset_id: s.dataset.id,
      type: 'rate',
      numerator: 'sum(falls)',
      denominator: 'sum(patient_days)',
      multiplier: 1000,
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const series = answer.json();
    expect(series).toMatchObject({
      measure_id: null,
      chart: 'u',
      rule_profile: 'anhoej',
      direction: 'neutral',
      grain: 'month',
      multiplier: 1000,
      dataset_version: 1,
      formula_version: 0,
      empty_reason: null,
    });
    expect(series.formula_hash).toMatch(/^[0-9a-f]{16}$/);
    expect(series.points).toHaveLength(14);
    expect(series.points[0]).toMatchObject({ period: '2024-01-01', rows: 2, numerator: 1, denominator: 500, value: 2 });
    expect(series.points[1]).toMatchObject({ period: '2024-02-01', numerator: 2, value: 4 });
    expect(series.points[0].cl).not.toBeNull();

    const proportion = await s.admin.post(`${s.base}/formulas/preview`, {
      dataset_id: s.dataset.id,
      type: 'proportion',
      numerator: 'countIf(falls > 0)',
      denominator: 'count()',
      grain: 'quarter',
    });
    expect(proportion.json()).toMatchObject({ chart: 'p', grain: 'quarter' });
    expect(proportion.json().points).toHaveLength(5);

    const incomplete = await s.admin.post(`${s.base}/formulas/preview`, {
      dataset_id: s.dataset.id,
      type: 'rate',
      numerator: 'sum(falls)',
    });
    expect(incomplete.json()).toMatchObject({ points: [], empty_reason: 'The formulas are not complete.' });

    const wrong = await s.admin.post(`${s.base}/formulas/preview`, {
      dataset_id: s.dataset.id,
      type: 'continuous',
      value_expr: 'mean(fals)',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().details.formulas.value_expr).toEqual([
      { start: 5, end: 9, message: "Unknown column 'fals'. Did you mean 'falls'?" },
    ]);
  });
});
