import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { insertPage, monitoringProject } from '../../../test/monitoring-kit.js';
import { auditEvents, monDatasets, monImports, monMeasures, monRows, permissionRules } from '../../db/schema/index.js';
import { EXPORT_BATCH } from './datasets.service.js';

describe('datasets', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;

  async function setup() {
    const s = await monitoringProject(db());
    const base = `/api/projects/${s.project.id}/monitoring`;
    const admin = await ctx.signedIn(s.people.admin);
    const dataEntry = await ctx.signedIn(s.people.dataEntry);
    return { ...s, base, admin, dataEntry };
  }
  type Setup = Awaited<ReturnType<typeof setup>>;

  async function create(s: Setup, name: string, description = '') {
    const answer = await s.dataEntry.post(`${s.base}/datasets`, { name, description });
    expect(answer.statusCode, answer.body).toBe(201);
    return answer.json() as { id: number; name: string };
  }

  /** Rows as a committed import leaves them (written directly: these tests are about datasets, not imports). */
  async function withRows(s: Setup, datasetId: number, rows: { day: string; data: Record<string, unknown> }[]) {
    const [imported] = await db()
      .insert(monImports)
      .values({
        projectId: s.project.id,
        datasetId,
        fileName: 'rows.csv',
        size: 1,
        sha256: 'x',
        status: 'committed',
        committedAt: new Date(),
      })
      .returning();
    if (rows.length) {
      await db()
        .insert(monRows)
        .values(
          rows.map((row, i) => ({
            projectId: s.project.id,
            datasetId,
            importId: imported!.id,
            rowNo: i + 2,
            rowDate: row.day,
            data: row.data,
          })),
        );
    }
    await db()
      .update(monDatasets)
      .set({
        timeColumn: 'month',
        version: 1,
        rowCount: rows.length,
        columns: [
          { key: 'ward', label: 'Ward', type: 'text', phi: false },
          { key: 'month', label: 'Month', type: 'date', phi: false },
          { key: 'falls', label: 'Falls', type: 'number', phi: false },
        ],
      })
      .where(eq(monDatasets.id, datasetId));
    return imported!;
  }

  it('guards every call: 401 signed out, 403 for roles without the sections, 404 from another project; nothing changes', async () => {
    const s = await setup();
    const dataset = await create(s, 'Falls');
    const calls = (base: string) =>
      [
        ['get', `${base}/datasets`, undefined],
        ['post', `${base}/datasets`, { name: 'New one' }],
        ['get', `${base}/datasets/${dataset.id}`, undefined],
        ['put', `${base}/datasets/${dataset.id}`, { name: 'Renamed' }],
        ['delete', `${base}/datasets/${dataset.id}`, undefined],
        ['get', `${base}/datasets/${dataset.id}/rows.csv`, undefined],
      ] as const;
    const agents = {
      anonymous: await ctx.anonymous(),
      ...(await ctx.signedInAll(s.people, 'noRole', 'viewer', 'outsider')),
    };
    const snapshot = async () => ({
      datasets: await db().select().from(monDatasets).orderBy(asc(monDatasets.id)),
      audit: (await db().select({ n: count() }).from(auditEvents))[0]!.n,
    });
    const before = await snapshot();
    const otherBase = `/api/projects/${s.other.id}/monitoring`;
    for (const [who, base, status] of [
      ['anonymous', s.base, 401],
      ['noRole', s.base, 403],
      ['viewer', s.base, 403],
      ['outsider', s.base, 404],
    ] as const) {
      for (const [method, url, body] of calls(base)) {
        const answer = await agents[who][method](url, body);
        expect(answer.statusCode, `${method} ${url} as ${who}`).toBe(status);
      }
    }
    // An administrator of another project naming our dataset under their project: 404, the name never shown.
    for (const [method, url, body] of calls(otherBase).filter(([, url]) => url.includes(String(dataset.id)))) {
      const answer = await agents.outsider[method](url, body);
      expect(answer.statusCode, `${method} ${url}`).toBe(404);
      expect(answer.body).not.toContain('Falls');
    }
    expect(await snapshot()).toEqual(before);
    const theirs = await agents.outsider.get(`${otherBase}/datasets`);
    expect(theirs.json()).toEqual({ datasets: [] });
  });

  it('opens reading to the formula builder and chart sections too', async () => {
    const s = await setup();
    const dataset = await create(s, 'Falls');
    // A project whose rules give the viewer role the formula builder only.
    await db()
      .insert(permissionRules)
      .values({
        projectId: s.project.id,
        app: 'monitoring',
        path: 'formula-builder',
        allowedRoles: ['viewer'],
      });
    const viewer = await ctx.signedIn(s.people.viewer);
    expect((await viewer.get(`${s.base}/datasets`)).statusCode).toBe(200);
    const one = await viewer.get(`${s.base}/datasets/${dataset.id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json().abilities).toEqual({ import: false, manage: false });
    expect((await viewer.post(`${s.base}/datasets`, { name: 'Mine' })).statusCode).toBe(403);
  });

  it('creates datasets with unique names, lists them by name and answers each with its figures', async () => {
    const s = await setup();
    const falls = await create(s, 'Falls', 'Falls with injury by ward and month');
    const [event] = await db().select().from(auditEvents).orderBy(desc(auditEvents.id)).limit(1);
    expect(event).toMatchObject({
      action: 'monitoring.dataset_created',
      projectId: s.project.id,
      actorUserId: s.people.dataEntry.id,
      subjectType: 'mon_dataset',
      subjectId: String(falls.id),
    });
    const taken = await s.dataEntry.post(`${s.base}/datasets`, { name: ' fALLS ' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({
      message: 'A dataset named "fALLS" already exists.',
      errors: { name: ['A dataset named "fALLS" already exists.'] },
    });
    const blank = await s.dataEntry.post(`${s.base}/datasets`, { name: '  ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().errors.name).toEqual(['Enter a name.']);
    const clabsi = await create(s, 'CLABSI');
    // The same name in another project is fine.
    const outsider = await ctx.signedIn(s.people.outsider);
    expect((await outsider.post(`/api/projects/${s.other.id}/monitoring/datasets`, { name: 'Falls' })).statusCode).toBe(
      201,
    );

    await withRows(s, falls.id, [
      { day: '2026-01-01', data: { ward: 'North', month: '2026-01-01', falls: 3 } },
      { day: '2026-03-01', data: { ward: 'North', month: '2026-03-01', falls: 1 } },
    ]);
    const page = await insertPage(db(), s.project.id, { title: 'Falls', number: '1' });
    await db()
      .insert(monMeasures)
      .values({ projectId: s.project.id, pageId: page.id, datasetId: falls.id, name: 'Falls rate', type: 'rate' });

    const list = await s.dataEntry.get(`${s.base}/datasets`);
    expect(list.statusCode).toBe(200);
    expect(list.json().datasets.map((d: { id: number }) => d.id)).toEqual([clabsi.id, falls.id]);
    const one = await s.dataEntry.get(`${s.base}/datasets/${falls.id}`);
    expect(one.json()).toMatchObject({
      id: falls.id,
      name: 'Falls',
      description: 'Falls with injury by ward and month',
      time_column: 'month',
      patient_level: false,
      retention_months: null,
      version: 1,
      row_count: 2,
      first_date: '2026-01-01',
      last_date: '2026-03-01',
      measure_count: 1,
      abilities: { import: true, manage: false },
    });
    expect((await s.admin.get(`${s.base}/datasets/${falls.id}`)).json().abilities).toEqual({
      import: true,
      manage: true,
    });
    expect((await s.dataEntry.get(`${s.base}/datasets/999999`)).statusCode).toBe(404);
  });

  it('renames for csv-import users; patient-level and retention only by monitoring administrators', async () => {
    const s = await setup();
    const falls = await create(s, 'Falls');
    await create(s, 'CLABSI');
    const url = `${s.base}/datasets/${falls.id}`;
    const renamed = await s.dataEntry.put(url, { name: 'Falls with injury', description: 'By ward' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'Falls with injury', description: 'By ward' });
    const [event] = await db().select().from(auditEvents).orderBy(desc(auditEvents.id)).limit(1);
    expect(event).toMatchObject({ action: 'monitoring.dataset_updated', data: { fields: ['name', 'description'] } });
    expect((await s.dataEntry.put(url, { name: 'clabsi' })).statusCode).toBe(409);
    const tooLong = await s.dataEntry.put(url, { retention_months: 0 });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().errors.retention_months).toEqual(['Keep rows at least 1 month.']);
    const refused = await s.dataEntry.put(url, { patient_level: true, retention_months: 12 });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(
      'Only a monitoring administrator may mark a dataset patient-level or set how long its rows are kept.',
    );
    const marked = await s.admin.put(url, { patient_level: true, retention_months: 36 });
    expect(marked.statusCode).toBe(200);
    expect(marked.json()).toMatchObject({ patient_level: true, retention_months: 36 });
    const audit = await db().select().from(auditEvents).orderBy(desc(auditEvents.id)).limit(1);
    expect(audit[0]!.data).toEqual({
      fields: ['patient_level', 'retention_months'],
      patient_level: true,
      retention_months: 36,
      changes: { patient_level: { from: false, to: true }, retention_months: { from: null, to: 36 } },
    });
    const cleared = await s.admin.put(url, { retention_months: null });
    expect(cleared.statusCode).toBe(400);
    expect((await s.admin.put(url, { patient_level: false, retention_months: null })).json()).toMatchObject({
      patient_level: false,
      retention_months: null,
    });
  });

  it('deletes a dataset no measure uses (administrators only); its name is free again', async () => {
    const s = await setup();
    const falls = await create(s, 'Falls');
    const url = `${s.base}/datasets/${falls.id}`;
    expect((await s.dataEntry.delete(url)).statusCode).toBe(403);
    const page = await insertPage(db(), s.project.id, { title: 'Falls', number: '1' });
    await db()
      .insert(monMeasures)
      .values([
        { projectId: s.project.id, pageId: page.id, datasetId: falls.id, name: 'Falls rate', type: 'rate' },
        { projectId: s.project.id, pageId: page.id, datasetId: falls.id, name: 'Falls count', type: 'count' },
        {
          projectId: s.project.id,
          pageId: page.id,
          datasetId: falls.id,
          name: 'Old measure',
          type: 'count',
          deletedAt: new Date(),
        },
      ]);
    const used = await s.admin.delete(url);
    expect(used.statusCode).toBe(409);
    expect(used.json().message).toBe('Measures use this dataset: Falls count, Falls rate.');
    await db()
      .update(monMeasures)
      .set({ deletedAt: new Date() })
      .where(and(eq(monMeasures.datasetId, falls.id)));
    const gone = await s.admin.delete(url);
    expect(gone.statusCode).toBe(204);
    const [row] = await db().select().from(monDatasets).where(eq(monDatasets.id, falls.id));
    expect(row!.deletedAt).not.toBeNull();
    const [event] = await db().select().from(auditEvents).orderBy(desc(auditEvents.id)).limit(1);
    expect(event).toMatchObject({ action: 'monitoring.dataset_deleted', subjectId: String(falls.id) });
    expect((await s.admin.get(url)).statusCode).toBe(404);
    expect((await s.admin.delete(url)).statusCode).toBe(404);
    expect((await s.admin.get(`${s.base}/datasets`)).json().datasets).toEqual([]);
    await create(s, 'Falls');
  });

  it('exports the active rows as CSV: time column first, labels as headers, formula cells escaped', async () => {
    const s = await setup();
    const falls = await create(s, 'Falls / 2026');
    const imported = await withRows(s, falls.id, [
      { day: '2026-01-01', data: { ward: '=HYPERLINK("http://evil")', month: '2026-01-01', falls: 3 } },
      { day: '2026-01-01', data: { ward: '+North', month: '2026-01-01', falls: -2 } },
      { day: '2026-02-01', data: { ward: '-South', month: '2026-02-01', falls: null } },
      { day: '2026-02-01', data: { ward: '@East, wing', month: '2026-02-01', falls: 1.5 } },
      { day: '2026-03-01', data: { ward: 'Old', month: '2026-03-01', falls: 9 } },
    ]);
    await db()
      .update(monRows)
      .set({ active: false })
      .where(and(eq(monRows.importId, imported.id), sql`${monRows.data}->>'ward' = 'Old'`));
    const answer = await s.dataEntry.get(`${s.base}/datasets/${falls.id}/rows.csv`);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(answer.headers['content-disposition']).toBe('attachment; filename="Falls-2026-rows.csv"');
    expect(answer.body).toBe(
      'Month,Ward,Falls\r\n' +
        `2026-01-01,"'=HYPERLINK(""http://evil"")",3\r\n` +
        "2026-01-01,'+North,-2\r\n" +
        "2026-02-01,'-South,\r\n" +
        `2026-02-01,"'@East, wing",1.5\r\n`,
    );
    const [event] = await db().select().from(auditEvents).orderBy(desc(auditEvents.id)).limit(1);
    expect(event).toMatchObject({ action: 'monitoring.dataset_rows_exported', subjectId: String(falls.id) });
  });

  it('streams an export of many rows in batches, every active row once', async () => {
    const s = await setup();
    const big = await create(s, 'Big');
    const imported = await withRows(s, big.id, []);
    const total = EXPORT_BATCH * 2 + 17;
    await db().execute(sql`
      insert into mon_rows (project_id, dataset_id, import_id, row_no, row_date, data)
      select ${s.project.id}, ${big.id}, ${imported.id}, g + 1, date '2026-01-01' + (g % 365),
             jsonb_build_object('ward', 'W' || g, 'month', (date '2026-01-01' + (g % 365))::text, 'falls', g)
        from generate_series(1, ${total}) g`);
    const answer = await s.dataEntry.get(`${s.base}/datasets/${big.id}/rows.csv`);
    expect(answer.statusCode).toBe(200);
    const lines = answer.body.trimEnd().split('\r\n');
    expect(lines).toHaveLength(total + 1);
    expect(new Set(lines.slice(1).map((line) => line.split(',')[2])).size).toBe(total);
    expect(lines[0]).toBe('Month,Ward,Falls');
    expect(lines[1]).toBe('2026-01-02,W1,1');
    expect(lines[total]).toMatch(new RegExp(`^\\d{4}-\\d{2}-\\d{2},W${total},${total}$`));
  });
});
