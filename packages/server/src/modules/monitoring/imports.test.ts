import type { ImportDetail, ImportDetected, ImportSettings } from '@portal/shared';
import { and, asc, count, desc, eq } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { monitoringProject } from '../../../test/monitoring-kit.js';
import { multipart } from '../../../test/policy-kit.js';
import { auditEvents, monDatasets, monImportChunks, monImports, monRows } from '../../db/schema/index.js';
import type { MonitoringActor } from '../../policies/monitoring.js';
import { CHUNK_BYTES } from './csv/store.js';
import { failInterruptedImports, INTERRUPTED_MESSAGE, waitForImport } from './imports.commit.js';
import { uploadImport } from './imports.service.js';

type Agent = Awaited<ReturnType<ReturnType<typeof useTestApp>['signedIn']>>;

const FALLS = [
  'Month,Ward,Falls,Patient days',
  '2026-01-01,North,3,"1,200"',
  '2026-01-01,South,1,900',
  '2026-02-01,North,2,"1,150"',
  '2026-02-01,South,0,880',
  '2026-03-01,North,4,"1,210"',
  '2026-03-01,South,2,905',
].join('\n');

/** Settings that take every detected column as suggested. */
function settingsFrom(detected: ImportDetected, extra: Partial<ImportSettings> = {}): ImportSettings {
  return {
    delimiter: detected.delimiter,
    encoding: detected.encoding,
    has_header: detected.has_header,
    columns: detected.columns.map((column) => ({
      source: column.source,
      skip: false,
      key: column.key,
      label: column.label,
      type: column.type,
    })),
    time_column: detected.time_column ?? 'month',
    date_format: detected.date_format ?? 'YYYY-MM-DD',
    mode: 'append',
    error_policy: 'abort',
    range_from: null,
    range_to: null,
    key_columns: [],
    ...extra,
  };
}

describe('CSV imports', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;

  async function setup() {
    const s = await monitoringProject(db());
    const base = `/api/projects/${s.project.id}/monitoring`;
    const admin = await ctx.signedIn(s.people.admin);
    const dataEntry = await ctx.signedIn(s.people.dataEntry);
    const created = await admin.post(`${base}/datasets`, { name: `Falls ${s.project.id}` });
    expect(created.statusCode, created.body).toBe(201);
    return { ...s, base, admin, dataEntry, datasetId: created.json().id as number };
  }
  type Setup = Awaited<ReturnType<typeof setup>>;

  const upload = (agent: Agent, s: Setup, content: string | Buffer, name = 'falls.csv', datasetId = s.datasetId) => {
    const form = multipart(
      {},
      { name, data: Buffer.isBuffer(content) ? content : Buffer.from(content), type: 'text/csv' },
    );
    return agent.post(`${s.base}/datasets/${datasetId}/imports`, form.payload, form.headers);
  };

  async function uploaded(s: Setup, content: string | Buffer, agent: Agent = s.dataEntry): Promise<ImportDetail> {
    const answer = await upload(agent, s, content);
    expect(answer.statusCode, answer.body).toBe(201);
    return answer.json();
  }

  async function configure(s: Setup, detail: ImportDetail, extra: Partial<ImportSettings> = {}) {
    const answer = await s.dataEntry.put(
      `${s.base}/imports/${detail.id}/settings`,
      settingsFrom(detail.detected, extra),
    );
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json() as ImportDetail;
  }

  /** Commits and waits for the background commit to end; answers the import as it then is. */
  async function commit(s: Setup, importId: number): Promise<ImportDetail> {
    const answer = await s.dataEntry.post(`${s.base}/imports/${importId}/commit`);
    expect(answer.statusCode, answer.body).toBe(202);
    expect(answer.json().status).toBe('committing');
    await waitForImport(importId);
    return (await s.dataEntry.get(`${s.base}/imports/${importId}`)).json();
  }

  async function importFile(s: Setup, content: string, extra: Partial<ImportSettings> = {}) {
    const detail = await uploaded(s, content);
    await configure(s, detail, extra);
    return commit(s, detail.id);
  }

  async function activeRows(datasetId: number) {
    const rows = await db()
      .select({ data: monRows.data, importId: monRows.importId, rowDate: monRows.rowDate })
      .from(monRows)
      .where(and(eq(monRows.datasetId, datasetId), eq(monRows.active, true)))
      .orderBy(asc(monRows.rowDate), asc(monRows.id));
    return rows.map((row) => row.data as Record<string, unknown>);
  }

  const dataset = async (id: number) => (await db().select().from(monDatasets).where(eq(monDatasets.id, id)))[0]!;

  it('guards every call: 401 signed out, 403 without the csv-import section, 404 from another project; nothing changes', async () => {
    const s = await setup();
    const pending = await uploaded(s, FALLS);
    await configure(s, pending);
    const done = await importFile(s, FALLS.replace(/2026-0/g, '2025-0'));
    expect(done.status).toBe('committed');
    const file = multipart({}, { name: 'x.csv', data: Buffer.from(FALLS), type: 'text/csv' });
    const settings = settingsFrom(pending.detected);
    const calls = (base: string) =>
      [
        ['post', `${base}/datasets/${s.datasetId}/imports`, file],
        ['get', `${base}/datasets/${s.datasetId}/imports`, undefined],
        ['get', `${base}/imports/${pending.id}`, undefined],
        ['put', `${base}/imports/${pending.id}/settings`, settings],
        ['post', `${base}/imports/${pending.id}/commit`, undefined],
        ['post', `${base}/imports/${done.id}/rollback`, undefined],
        ['delete', `${base}/imports/${pending.id}`, undefined],
        ['get', `${base}/imports/${done.id}/errors.csv`, undefined],
      ] as const;
    const agents = {
      anonymous: await ctx.anonymous(),
      ...(await ctx.signedInAll(s.people, 'noRole', 'viewer', 'outsider')),
    };
    const snapshot = async () => ({
      imports: await db().select().from(monImports).orderBy(asc(monImports.id)),
      chunks: (await db().select({ n: count() }).from(monImportChunks))[0]!.n,
      rows: await db().select().from(monRows).orderBy(asc(monRows.id)),
      datasets: await db().select().from(monDatasets).orderBy(asc(monDatasets.id)),
      audit: (await db().select({ n: count() }).from(auditEvents))[0]!.n,
    });
    const before = await snapshot();
    const otherBase = `/api/projects/${s.other.id}/monitoring`;
    const expected = [
      ['anonymous', s.base, 401],
      ['noRole', s.base, 403],
      ['viewer', s.base, 403],
      ['outsider', s.base, 404],
      // A monitoring admin of another project, naming our ids under their own project.
      ['outsider', otherBase, 404],
    ] as const;
    for (const [who, base, status] of expected) {
      for (const [method, url, body] of calls(base)) {
        const agent = agents[who];
        const answer =
          body === undefined
            ? await agent[method](url)
            : 'payload' in body
              ? await agent.post(url, body.payload, body.headers)
              : await agent.put(url, body);
        expect(answer.statusCode, `${method} ${url} as ${who}: ${answer.body}`).toBe(status);
        if (status === 404) expect(answer.body).not.toContain('falls');
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  it('uploads a file in pieces and answers what it found; the stored file has its size and SHA-256', async () => {
    const s = await setup();
    const detail = await uploaded(s, FALLS);
    expect(detail).toMatchObject({
      dataset_id: s.datasetId,
      file_name: 'falls.csv',
      size: Buffer.byteLength(FALLS),
      status: 'uploaded',
      rows_total: 6,
      settings: null,
      preview: [],
      phi_blocked: [],
      errors: [],
      created_by: { id: s.people.dataEntry.id, name: 'Dana Entry' },
      can_roll_back: false,
    });
    expect(detail.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(detail.detected).toMatchObject({
      delimiter: ',',
      encoding: 'utf-8',
      has_header: true,
      date_format: 'YYYY-MM-DD',
      time_column: 'month',
      row_count: 6,
    });
    expect(detail.detected.columns.map((column) => [column.key, column.type])).toEqual([
      ['month', 'date'],
      ['ward', 'text'],
      ['falls', 'number'],
      ['patient_days', 'number'],
    ]);
    const [event] = await db().select().from(auditEvents).orderBy(desc(auditEvents.id)).limit(1);
    expect(event).toMatchObject({ action: 'monitoring.import_uploaded', subjectType: 'mon_import' });
    expect((await s.dataEntry.get(`${s.base}/imports/${detail.id}`)).json()).toEqual(detail);
  });

  it('reads a Windows-1252 file (é) and imports it with its accents', async () => {
    const s = await setup();
    const file = Buffer.from('Unité;Mois;Chutes\nRéanimation;2026-01-01;3\nPédiatrie;2026-01-01;1\n', 'latin1');
    const detail = await uploaded(s, file);
    expect(detail.detected).toMatchObject({ encoding: 'windows-1252', delimiter: ';', time_column: 'mois' });
    expect(detail.detected.headers).toEqual(['Unité', 'Mois', 'Chutes']);
    await configure(s, detail);
    const done = await commit(s, detail.id);
    expect(done.status).toBe('committed');
    expect((await activeRows(s.datasetId)).map((row) => row.unite)).toEqual(['Réanimation', 'Pédiatrie']);
  });

  it('refuses an empty file, a file without data rows, a body without a file and a file over the limit', async () => {
    const s = await setup();
    const importsBefore = (await db().select({ n: count() }).from(monImports))[0]!.n;
    const chunksBefore = (await db().select({ n: count() }).from(monImportChunks))[0]!.n;
    const empty = await upload(s.dataEntry, s, '');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('The file is empty.');
    const headerOnly = await upload(s.dataEntry, s, 'Month,Falls\n\n');
    expect(headerOnly.statusCode).toBe(400);
    expect(headerOnly.json().message).toMatch(/no data rows/);
    const noFile = multipart({ note: 'nothing' });
    const missing = await s.dataEntry.post(`${s.base}/datasets/${s.datasetId}/imports`, noFile.payload, noFile.headers);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('Choose a CSV file.');
    const json = await s.dataEntry.post(`${s.base}/datasets/${s.datasetId}/imports`, { file: 'x' });
    expect(json.statusCode).toBe(400);
    expect((await upload(s.dataEntry, s, FALLS, 'x.csv', 999999)).statusCode).toBe(404);

    // The limit is checked while the file streams in (the route passes IMPORT_MAX_BYTES; here a small one).
    const actor: MonitoringActor = {
      userId: s.people.dataEntry.id,
      projectId: s.project.id,
      isSuperadmin: false,
      role: 'data_entry',
      rules: [],
      ip: null,
      requestId: null,
    };
    async function* pieces() {
      for (let i = 0; i < 10; i++) yield Buffer.from(`2026-01-01,${'x'.repeat(1000)}\n`);
    }
    await expect(
      uploadImport(db(), actor, s.datasetId, { fileName: 'big.csv', stream: pieces() }, ctx.clock.now(), 5_000),
    ).rejects.toMatchObject({
      status: 413,
      message: 'The file is larger than 5 KB. Split it into smaller files.',
    });
    expect((await db().select({ n: count() }).from(monImports))[0]!.n).toBe(importsBefore);
    expect((await db().select({ n: count() }).from(monImportChunks))[0]!.n).toBe(chunksBefore);
  });

  it('checks the settings and previews the first rows with their errors', async () => {
    const s = await setup();
    const file = [
      'Month,Ward,Falls',
      '2026-01-01,North,3',
      '2026-02-30,North,2',
      ',South,1',
      '2026-03-01,South,three',
      '2026-03-01,South,4',
    ].join('\n');
    const detail = await uploaded(s, file);
    const base = settingsFrom(detail.detected, {
      columns: [
        { source: 0, skip: false, key: 'month', label: 'Month', type: 'date' },
        { source: 1, skip: false, key: 'ward', label: 'Ward', type: 'text' },
        { source: 2, skip: false, key: 'falls', label: 'Falls', type: 'number' },
      ],
    });
    const put = (settings: unknown) => s.dataEntry.put(`${s.base}/imports/${detail.id}/settings`, settings);
    const cases: [Partial<ImportSettings>, string, string][] = [
      [{ time_column: 'ward' }, 'time_column', 'Choose a date column that places each row in a period.'],
      [
        { columns: [...base.columns, { source: 1, skip: false, key: 'ward', label: 'Again', type: 'text' }] },
        'columns',
        'The key "ward" is used for two columns.',
      ],
      [
        { columns: [...base.columns, { source: 7, skip: false, key: 'extra', label: 'Extra', type: 'text' }] },
        'columns',
        'The file has no column 8.',
      ],
      [{ mode: 'replace_range' }, 'range_from', 'Enter the first day of the range to replace.'],
      [
        { mode: 'replace_range', range_from: '2026-03-01', range_to: '2026-01-01' },
        'range_to',
        'The range ends before it starts.',
      ],
      [
        { mode: 'upsert', key_columns: ['ward'] },
        'key_columns',
        'The key columns must include the time column "month".',
      ],
      [{ mode: 'upsert', key_columns: ['month', 'bed'] }, 'key_columns', '"bed" is not one of the imported columns.'],
    ];
    for (const [change, field, message] of cases) {
      const answer = await put({ ...base, ...change });
      expect(answer.statusCode, JSON.stringify(change)).toBe(400);
      expect(answer.json()).toMatchObject({ message, errors: { [field]: [message] } });
    }
    const malformed = await put({ ...base, columns: [{ ...base.columns[0], key: 'Bad Key' }] });
    expect(malformed.statusCode).toBe(400);
    expect((await db().select().from(monImports).where(eq(monImports.id, detail.id)))[0]!.settings).toBeNull();

    const saved = await put(base);
    expect(saved.statusCode, saved.body).toBe(200);
    const body = saved.json() as ImportDetail;
    expect(body.settings).toEqual(base);
    expect(body.preview_errors).toBe(3);
    expect(body.preview).toEqual([
      { line: 2, values: { month: '2026-01-01', ward: 'North', falls: 3 }, errors: [] },
      {
        line: 3,
        values: { month: null, ward: 'North', falls: 2 },
        errors: [{ column: 'month', reason: 'Not a date in the format YYYY-MM-DD.' }],
      },
      {
        line: 4,
        values: { month: null, ward: 'South', falls: 1 },
        errors: [{ column: 'month', reason: 'Missing time value.' }],
      },
      {
        line: 5,
        values: { month: '2026-03-01', ward: 'South', falls: null },
        errors: [{ column: 'falls', reason: 'Not a number.' }],
      },
      { line: 6, values: { month: '2026-03-01', ward: 'South', falls: 4 }, errors: [] },
    ]);
    const [event] = await db().select().from(auditEvents).orderBy(desc(auditEvents.id)).limit(1);
    expect(event).toMatchObject({ action: 'monitoring.import_settings_saved', subjectId: String(detail.id) });

    // Another delimiter no longer finds the columns.
    const semicolon = await put({ ...base, delimiter: ';' });
    expect(semicolon.statusCode).toBe(400);
    expect(semicolon.json().errors.columns).toContain('The file has no column 2.');
  });

  it('asks for the date format when it is ambiguous and reads the dates by the one chosen', async () => {
    const s = await setup();
    const detail = await uploaded(s, 'date,falls\n03/04/2026,1\n05/06/2026,2\n');
    expect(detail.detected).toMatchObject({ date_format: null, date_format_choices: ['MM/DD/YYYY', 'DD/MM/YYYY'] });
    const us = await configure(s, detail, { date_format: 'MM/DD/YYYY' });
    expect(us.preview.map((row) => row.values.date)).toEqual(['2026-03-04', '2026-05-06']);
    const eu = await configure(s, detail, { date_format: 'DD/MM/YYYY' });
    expect(eu.preview.map((row) => row.values.date)).toEqual(['2026-04-03', '2026-06-05']);
  });

  it('refuses columns that look like patient identifiers unless an admin marks the dataset patient-level', async () => {
    const s = await setup();
    const file = 'Admission date,Patient Name,Ward,Falls\n2026-01-03,Ann Lee,North,1\n2026-01-09,Bob Roe,South,0\n';
    const detail = await uploaded(s, file);
    expect(detail.detected.columns.map((column) => column.phi)).toEqual([true, true, false, false]);
    const configured = await configure(s, detail);
    expect(configured.phi_blocked).toEqual([
      {
        column: 'admission_date',
        reason:
          'Looks like a patient identifier (admission or discharge date). Only a patient-level dataset may hold it; a monitoring admin can mark the dataset patient-level.',
      },
      {
        column: 'patient_name',
        reason:
          'Looks like a patient identifier (name). Only a patient-level dataset may hold it; a monitoring admin can mark the dataset patient-level.',
      },
    ]);
    // Renaming the column does not get it past the guard.
    const renamed = settingsFrom(detail.detected);
    renamed.columns[1] = { ...renamed.columns[1]!, key: 'who', label: 'Who' };
    const again = await s.dataEntry.put(`${s.base}/imports/${detail.id}/settings`, renamed);
    expect(again.json().phi_blocked.map((entry: { column: string }) => entry.column)).toEqual([
      'admission_date',
      'who',
    ]);
    const refused = await s.dataEntry.post(`${s.base}/imports/${detail.id}/commit`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toMatch(/^Looks like a patient identifier/);
    expect((await db().select().from(monImports).where(eq(monImports.id, detail.id)))[0]!.status).toBe('uploaded');

    // Data entry may not mark the dataset; an admin may, with a retention period.
    const url = `${s.base}/datasets/${s.datasetId}`;
    expect((await s.dataEntry.put(url, { patient_level: true, retention_months: 24 })).statusCode).toBe(403);
    const noRetention = await s.admin.put(url, { patient_level: true });
    expect(noRetention.statusCode).toBe(400);
    expect(noRetention.json().errors.retention_months).toEqual([
      'Set how many months the rows of a patient-level dataset are kept.',
    ]);
    const marked = await s.admin.put(url, { patient_level: true, retention_months: 24 });
    expect(marked.statusCode, marked.body).toBe(200);
    const unblocked = await configure(s, detail);
    expect(unblocked.phi_blocked).toEqual([]);
    expect((await commit(s, detail.id)).status).toBe('committed');
    const columns = (await dataset(s.datasetId)).columns as { key: string; phi: boolean }[];
    expect(columns.filter((column) => column.phi).map((column) => column.key)).toEqual([
      'admission_date',
      'patient_name',
    ]);
    // A dataset holding identifiers stays patient-level.
    const unmark = await s.admin.put(url, { patient_level: false });
    expect(unmark.statusCode).toBe(409);
  });

  it('appends, replaces a date range and updates by key; a roll back restores what an import replaced', async () => {
    const s = await setup();
    const first = await importFile(s, FALLS);
    expect(first).toMatchObject({ status: 'committed', rows_ok: 6, rows_err: 0, rows_replaced: 0, progress: 6 });
    expect(first.committed_by).toEqual({ id: s.people.dataEntry.id, name: 'Dana Entry' });
    expect(await dataset(s.datasetId)).toMatchObject({ version: 1, rowCount: 6, timeColumn: 'month' });
    expect((await dataset(s.datasetId)).columns).toEqual([
      { key: 'month', label: 'Month', type: 'date', phi: false },
      { key: 'ward', label: 'Ward', type: 'text', phi: false },
      { key: 'falls', label: 'Falls', type: 'number', phi: false },
      { key: 'patient_days', label: 'Patient days', type: 'number', phi: false },
    ]);

    // Replace February only: the February rows go, January and March stay; a March line is refused (skipped).
    const february = [
      'Month,Ward,Falls,Patient days',
      '2026-02-01,North,5,1100',
      '2026-02-01,East,1,400',
      '2026-03-01,East,9,400',
    ].join('\n');
    const second = await importFile(s, february, {
      mode: 'replace_range',
      range_from: '2026-02-01',
      range_to: '2026-02-28',
      error_policy: 'skip',
    });
    expect(second).toMatchObject({ status: 'committed', rows_ok: 2, rows_err: 1, rows_replaced: 2 });
    expect(second.errors).toEqual([
      {
        line: 4,
        column: 'Month',
        value: '2026-03-01',
        reason: 'Outside the range being replaced (2026-02-01 to 2026-02-28).',
      },
    ]);
    const afterReplace = await activeRows(s.datasetId);
    expect(afterReplace.map((row) => `${row.month} ${row.ward} ${row.falls}`)).toEqual([
      '2026-01-01 North 3',
      '2026-01-01 South 1',
      '2026-02-01 North 5',
      '2026-02-01 East 1',
      '2026-03-01 North 4',
      '2026-03-01 South 2',
    ]);
    const replacedRows = await db().select().from(monRows).where(eq(monRows.replacedBy, second.id));
    expect(replacedRows.map((row) => [row.importId, row.active])).toEqual([
      [first.id, false],
      [first.id, false],
    ]);

    // Update by month and ward: January North changes, April North is new (the later of its two lines wins).
    const corrections = [
      'Month,Ward,Falls,Patient days',
      '2026-01-01,North,7,1200',
      '2026-04-01,North,1,1000',
      '2026-04-01,North,2,1001',
    ].join('\n');
    const third = await importFile(s, corrections, { mode: 'upsert', key_columns: ['month', 'ward'] });
    expect(third).toMatchObject({ status: 'committed', rows_ok: 3, rows_replaced: 1 });
    const afterUpsert = await activeRows(s.datasetId);
    expect(afterUpsert.map((row) => `${row.month} ${row.ward} ${row.falls}`)).toEqual([
      '2026-01-01 South 1',
      '2026-01-01 North 7',
      '2026-02-01 North 5',
      '2026-02-01 East 1',
      '2026-03-01 North 4',
      '2026-03-01 South 2',
      '2026-04-01 North 2',
    ]);
    expect(await dataset(s.datasetId)).toMatchObject({ version: 3, rowCount: 7 });

    // Only the latest committed import may be rolled back.
    const list = (await s.dataEntry.get(`${s.base}/datasets/${s.datasetId}/imports`)).json().imports as ImportDetail[];
    expect(list.map((entry) => [entry.id, entry.can_roll_back])).toEqual([
      [third.id, true],
      [second.id, false],
      [first.id, false],
    ]);
    const early = await s.dataEntry.post(`${s.base}/imports/${first.id}/rollback`);
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe('Roll back the later imports first.');

    const undone = await s.dataEntry.post(`${s.base}/imports/${third.id}/rollback`);
    expect(undone.statusCode, undone.body).toBe(200);
    expect(undone.json()).toMatchObject({
      status: 'rolled_back',
      rolled_back_by: { id: s.people.dataEntry.id, name: 'Dana Entry' },
      can_roll_back: false,
    });
    expect((await activeRows(s.datasetId)).map((row) => `${row.month} ${row.ward} ${row.falls}`)).toEqual(
      afterReplace.map((row) => `${row.month} ${row.ward} ${row.falls}`),
    );
    expect(await dataset(s.datasetId)).toMatchObject({ version: 4, rowCount: 6 });
    const [event] = await db().select().from(auditEvents).orderBy(desc(auditEvents.id)).limit(1);
    expect(event).toMatchObject({ action: 'monitoring.import_rolled_back', subjectId: String(third.id) });
    expect((await s.dataEntry.post(`${s.base}/imports/${third.id}/rollback`)).statusCode).toBe(409);

    const undoReplace = await s.dataEntry.post(`${s.base}/imports/${second.id}/rollback`);
    expect(undoReplace.statusCode).toBe(200);
    expect((await activeRows(s.datasetId)).map((row) => `${row.month} ${row.ward} ${row.falls}`)).toEqual([
      '2026-01-01 North 3',
      '2026-01-01 South 1',
      '2026-02-01 North 2',
      '2026-02-01 South 0',
      '2026-03-01 North 4',
      '2026-03-01 South 2',
    ]);
    expect(await db().select().from(monRows).where(eq(monRows.replacedBy, second.id))).toEqual([]);
    const now = (await s.dataEntry.get(`${s.base}/datasets/${s.datasetId}/imports`)).json().imports as ImportDetail[];
    expect(now.map((entry) => [entry.status, entry.can_roll_back])).toEqual([
      ['rolled_back', false],
      ['rolled_back', false],
      ['committed', true],
    ]);
  });

  it('stops at bad rows (nothing saved, every error reported) or skips them; the report escapes its cells', async () => {
    const s = await setup();
    const file = [
      'Month,Ward,Falls',
      '2026-01-01,North,3',
      '2026-01-01,South,=1+2',
      '2026-02-01,South,@SUM(1)',
      '2026-02-01,East,+x',
      '2026-02-01,West,-x',
      '2026-02-01,North,2',
    ].join('\n');
    const columns: ImportSettings['columns'] = [
      { source: 0, skip: false, key: 'month', label: 'Month', type: 'date' },
      { source: 1, skip: false, key: 'ward', label: 'Ward', type: 'text' },
      { source: 2, skip: false, key: 'falls', label: 'Falls', type: 'number' },
    ];
    const stopped = await importFile(s, file, { columns, error_policy: 'abort' });
    expect(stopped).toMatchObject({ status: 'failed', rows_ok: 0, rows_err: 4, rows_total: 6 });
    expect(stopped.message).toBe(
      '4 rows of the file have errors; nothing was imported. Correct the file and import it again, or choose to skip bad rows.',
    );
    expect(stopped.errors).toEqual([
      { line: 3, column: 'Falls', value: '=1+2', reason: 'Not a number.' },
      { line: 4, column: 'Falls', value: '@SUM(1)', reason: 'Not a number.' },
      { line: 5, column: 'Falls', value: '+x', reason: 'Not a number.' },
      { line: 6, column: 'Falls', value: '-x', reason: 'Not a number.' },
    ]);
    expect(await activeRows(s.datasetId)).toEqual([]);
    expect(await dataset(s.datasetId)).toMatchObject({ version: 0, rowCount: 0 });
    const [event] = await db().select().from(auditEvents).orderBy(desc(auditEvents.id)).limit(1);
    expect(event).toMatchObject({ action: 'monitoring.import_failed', subjectId: String(stopped.id) });

    const skipped = await importFile(s, file, { columns, error_policy: 'skip' });
    expect(skipped).toMatchObject({ status: 'committed', rows_ok: 2, rows_err: 4, rows_total: 6 });
    expect((await activeRows(s.datasetId)).map((row) => row.falls)).toEqual([3, 2]);

    const report = await s.dataEntry.get(`${s.base}/imports/${skipped.id}/errors.csv`);
    expect(report.statusCode).toBe(200);
    expect(report.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(report.headers['content-disposition']).toBe(`attachment; filename="import-${skipped.id}-errors.csv"`);
    expect(report.body).toBe(
      'line,column,value,reason\r\n' +
        "3,Falls,'=1+2,Not a number.\r\n" +
        "4,Falls,'@SUM(1),Not a number.\r\n" +
        "5,Falls,'+x,Not a number.\r\n" +
        "6,Falls,'-x,Not a number.\r\n",
    );
    const lineError = await importFile(s, 'Month,Ward,Falls\n2026-01-01,-1+1\n', { columns, error_policy: 'skip' });
    expect(lineError.status).toBe('failed');
    expect(lineError.message).toBe('No row of the file could be imported; see the errors.');
    const lineReport = await s.dataEntry.get(`${s.base}/imports/${lineError.id}/errors.csv`);
    expect(lineReport.body).toBe(
      "line,column,value,reason\r\n2,(line),,This line has 2 values; the file's lines have 3.\r\n",
    );
  });

  it('reads a file of several 1 MB pieces in order, counting progress', async () => {
    const s = await setup();
    const lines = ['Month,Ward,Falls,Note'];
    for (let i = 0; i < 40_000; i++) {
      lines.push(`2026-${String((i % 12) + 1).padStart(2, '0')}-01,Ward ${i % 7},${i % 5},"note ${i}, é"`);
    }
    const file = lines.join('\n');
    expect(Buffer.byteLength(file)).toBeGreaterThan(CHUNK_BYTES);
    const detail = await uploaded(s, file);
    expect(detail.rows_total).toBe(40_000);
    const chunks = await db()
      .select({ seq: monImportChunks.seq })
      .from(monImportChunks)
      .where(eq(monImportChunks.importId, detail.id));
    expect(chunks.length).toBe(Math.ceil(Buffer.byteLength(file) / CHUNK_BYTES));
    await configure(s, detail);
    const done = await commit(s, detail.id);
    expect(done).toMatchObject({ status: 'committed', rows_ok: 40_000, rows_err: 0, progress: 40_000 });
    const notes = await db()
      .select({ n: count() })
      .from(monRows)
      .where(and(eq(monRows.importId, detail.id), eq(monRows.active, true)));
    expect(notes[0]!.n).toBe(40_000);
    const [last] = await db()
      .select({ data: monRows.data, rowNo: monRows.rowNo })
      .from(monRows)
      .where(eq(monRows.importId, detail.id))
      .orderBy(desc(monRows.rowNo))
      .limit(1);
    expect(last).toEqual({
      rowNo: 40_001,
      data: { month: '2026-04-01', ward: 'Ward 1', falls: 4, note: 'note 39999, é' },
    });
  });

  it('commits only an uploaded import with settings, once; discards uploaded and failed imports', async () => {
    const s = await setup();
    const bare = await uploaded(s, FALLS);
    const noSettings = await s.dataEntry.post(`${s.base}/imports/${bare.id}/commit`);
    expect(noSettings.statusCode).toBe(400);
    expect(noSettings.json().message).toBe(
      'Choose the import settings (columns, time column, mode) before committing.',
    );

    const dropped = await s.dataEntry.delete(`${s.base}/imports/${bare.id}`);
    expect(dropped.statusCode).toBe(204);
    expect(await db().select().from(monImports).where(eq(monImports.id, bare.id))).toEqual([]);
    expect(
      (await db().select({ n: count() }).from(monImportChunks).where(eq(monImportChunks.importId, bare.id)))[0]!.n,
    ).toBe(0);
    const [event] = await db().select().from(auditEvents).orderBy(desc(auditEvents.id)).limit(1);
    expect(event).toMatchObject({ action: 'monitoring.import_discarded', subjectId: String(bare.id) });
    expect((await s.dataEntry.get(`${s.base}/imports/${bare.id}`)).statusCode).toBe(404);

    const done = await importFile(s, FALLS);
    expect((await s.dataEntry.post(`${s.base}/imports/${done.id}/commit`)).statusCode).toBe(409);
    const settingsLater = await s.dataEntry.put(`${s.base}/imports/${done.id}/settings`, settingsFrom(done.detected));
    expect(settingsLater.statusCode).toBe(409);
    expect((await s.dataEntry.delete(`${s.base}/imports/${done.id}`)).statusCode).toBe(409);

    const failed = await importFile(s, 'Month,Falls\nsoon,1\n', {
      columns: [
        { source: 0, skip: false, key: 'month', label: 'Month', type: 'date' },
        { source: 1, skip: false, key: 'falls', label: 'Falls', type: 'number' },
      ],
      time_column: 'month',
    });
    expect(failed.status).toBe('failed');
    expect((await s.dataEntry.delete(`${s.base}/imports/${failed.id}`)).statusCode).toBe(204);
    expect((await db().select().from(monImports).where(eq(monImports.id, failed.id)))[0]!.status).toBe('failed');
    expect(
      (await db().select({ n: count() }).from(monImportChunks).where(eq(monImportChunks.importId, failed.id)))[0]!.n,
    ).toBe(0);

    // A second commit of the same import while the first runs: one wins.
    const twice = await uploaded(s, FALLS.replace(/2026/g, '2024'));
    await configure(s, twice);
    const [a, b] = await Promise.all([
      s.dataEntry.post(`${s.base}/imports/${twice.id}/commit`),
      s.dataEntry.post(`${s.base}/imports/${twice.id}/commit`),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([202, 409]);
    await waitForImport(twice.id);
    expect((await s.dataEntry.get(`${s.base}/imports/${twice.id}`)).json()).toMatchObject({
      status: 'committed',
      rows_ok: 6,
    });
  });

  it('checks the settings again against the dataset as it is when the commit runs', async () => {
    const s = await setup();
    const asNumber = await uploaded(s, FALLS);
    const asText = await uploaded(s, FALLS.replace(/2026/g, '2025'));
    await configure(s, asNumber);
    const textColumns = settingsFrom(asText.detected).columns.map((column) =>
      column.key === 'falls' ? { ...column, type: 'text' as const } : column,
    );
    await configure(s, asText, { columns: textColumns });
    // Both are asked for before either has run: the second to run finds "falls" already a number column.
    const answers = await Promise.all([
      s.dataEntry.post(`${s.base}/imports/${asNumber.id}/commit`),
      s.dataEntry.post(`${s.base}/imports/${asText.id}/commit`),
    ]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([202, 202]);
    const outcomes = await Promise.all([waitForImport(asNumber.id), waitForImport(asText.id)]);
    const failed = outcomes.filter((outcome) => outcome?.status === 'failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]!.message).toMatch(
      /^The dataset's column "falls" holds (numbers|text); map it as .* Nothing was imported; upload the file again\.$/,
    );
    expect(outcomes.filter((outcome) => outcome?.status === 'committed')).toHaveLength(1);
    expect((await dataset(s.datasetId)).rowCount).toBe(6);
  });

  it('marks imports cut off by a stop as failed at start-up, leaving one another server is committing', async () => {
    const s = await setup();
    const cut = await uploaded(s, FALLS);
    const running = await uploaded(s, FALLS);
    await db().update(monImports).set({ status: 'committing', progress: 20_000 }).where(eq(monImports.id, cut.id));
    await db().update(monImports).set({ status: 'committing' }).where(eq(monImports.id, running.id));
    // Another server's commit holds its import's lock for the length of its transaction.
    const other = new pg.Client({ connectionString: ctx.db.url });
    await other.connect();
    try {
      await other.query('begin');
      await other.query(`select pg_advisory_xact_lock(hashtext('mon_import_commit'), $1)`, [running.id]);
      expect(await failInterruptedImports(db())).toBe(1);
    } finally {
      await other.query('rollback');
      await other.end();
    }
    const [after] = await db().select().from(monImports).where(eq(monImports.id, cut.id));
    expect(after).toMatchObject({ status: 'failed', message: INTERRUPTED_MESSAGE });
    expect(INTERRUPTED_MESSAGE).toBe('The server stopped during the import; nothing was saved. Import the file again.');
    expect((await db().select().from(monImports).where(eq(monImports.id, running.id)))[0]!.status).toBe('committing');
  });
});
