// Crash loop: SIGKILL the server at a random moment while writers run (policy signatures and approvals, a CSV
// import, a bulk action, simple writes), restart it, and check through SQL that every write the server acknowledged
// (2xx) is there and that no operation is half done. CRASH_ITERATIONS (default 50) sets the number of kills.
import path from 'node:path';
import {
  type Answer,
  Client,
  createDatabase,
  DEMO_PASSWORD,
  freePort,
  killHard,
  logDir,
  newAppKey,
  randomInt,
  type ServerProcess,
  sleep,
  startServer,
  type TestDatabase,
  verifyAuditChain,
  waitReady,
} from './lib.js';
import { isMain, runAlone, type Summary } from './summary.js';

const ITERATIONS = Number(process.env.CRASH_ITERATIONS ?? 50);
const KILL_MIN_MS = 50;
const KILL_MAX_MS = 1500;
const CSV_ROWS = Number(process.env.CRASH_CSV_ROWS ?? 4000);
const PROJECT = 1;
const POL = `/api/projects/${PROJECT}/policy-management`;
const MON = `/api/projects/${PROJECT}/monitoring`;

/** A write the server acknowledged, with what it must have left in the database. */
type Ack =
  | { kind: 'create-doc'; requestId: string; docId: number; title: string }
  | { kind: 'send-to-review'; requestId: string; docId: number; versionId: number }
  | { kind: 'approve'; requestId: string; docId: number; versionId: number; reviewerId: number }
  | { kind: 'sign'; requestId: string; docId: number; versionId: number; signerId: number }
  | {
      kind: 'bulk-read';
      requestId: string;
      items: { docId: number; versionId: number }[];
      readerId: number;
      /** Items this call attested (the others were attested before: no audit event). */
      done: number;
    }
  | { kind: 'create-dataset'; requestId: string; datasetId: number; name: string }
  | { kind: 'csv-upload'; requestId: string; importId: number }
  | { kind: 'csv-settings'; requestId: string; importId: number }
  | { kind: 'csv-commit'; requestId: string; importId: number; rows: number };

interface Actors {
  admin: Client;
  member: Client;
  reader: Client;
  ids: { admin: number; member: number; reader: number };
  admDepartment: number;
}

/** Thrown by a writer when the connection died: the server was killed, the writer stops. */
class Gone extends Error {}

async function call(promise: Promise<Answer>): Promise<Answer> {
  try {
    return await promise;
  } catch {
    throw new Gone();
  }
}

function expect2xx(answer: Answer, what: string): void {
  if (!answer.ok) throw new Error(`${what}: ${answer.status} ${answer.text.slice(0, 300)}`);
}

const uniq = () => `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

function csvFile(rows: number): Blob {
  const lines = ['Day,Ward,Falls,Patient days'];
  const start = Date.UTC(2020, 0, 1);
  for (let i = 0; i < rows; i++) {
    const day = new Date(start + (i % 2000) * 86_400_000).toISOString().slice(0, 10);
    lines.push(`${day},Ward ${i % 7},${i % 5},${100 + (i % 50)}`);
  }
  return new Blob([lines.join('\n')], { type: 'text/csv' });
}

/** Signs the demo people in (once: sessions live in PostgreSQL and survive the kills). */
async function signIn(baseUrl: string): Promise<Actors> {
  const clients = { admin: new Client(baseUrl), member: new Client(baseUrl), reader: new Client(baseUrl) };
  const ids = { admin: 0, member: 0, reader: 0 };
  for (const who of ['admin', 'member', 'reader'] as const) {
    const answer = await clients[who].login(`${who}@example.com`);
    expect2xx(answer, `sign-in of ${who}`);
    ids[who] = (answer.body as { user: { id: number } }).user.id;
  }
  const departments = await clients.admin.get(`${POL}/departments`);
  expect2xx(departments, 'departments');
  const adm = (departments.body as { departments: { id: number; code: string }[] }).departments.find(
    (d) => d.code === 'ADM',
  );
  if (!adm) throw new Error('the demo department ADM is missing');
  return { ...clients, ids, admDepartment: adm.id };
}

/** The writers of one iteration. Each records what the server acknowledged, and stops when the server is gone. */
class Writers {
  readonly acks: Ack[] = [];
  private stopped = false;
  constructor(private readonly a: Actors) {}

  stop() {
    this.stopped = true;
  }

  private get live() {
    return !this.stopped;
  }

  /** Create, send to review, approve: a policy waiting for the member's signature. */
  async toSignature(): Promise<{ docId: number; versionId: number } | undefined> {
    const { admin } = this.a;
    const title = `Resilience ${uniq()}`;
    const created = await call(
      admin.post(`${POL}/documents`, {
        title,
        department_id: this.a.admDepartment,
        content: `<p>${title}: what to do.</p>`,
      }),
    );
    expect2xx(created, 'create policy');
    const docId = (created.body as { id: number }).id;
    this.acks.push({ kind: 'create-doc', requestId: created.requestId!, docId, title });
    if (!this.live) return undefined;
    const sent = await call(admin.post(`${POL}/documents/${docId}/send-to-review`, { comment: 'Crash test' }));
    expect2xx(sent, 'send to review');
    const versionId = (sent.body as { working_version: { id: number } }).working_version.id;
    this.acks.push({ kind: 'send-to-review', requestId: sent.requestId!, docId, versionId });
    if (!this.live) return undefined;
    const approved = await call(admin.post(`${POL}/documents/${docId}/review`, { decision: 'approve' }));
    expect2xx(approved, 'approve');
    this.acks.push({ kind: 'approve', requestId: approved.requestId!, docId, versionId, reviewerId: this.a.ids.admin });
    return { docId, versionId };
  }

  async sign(docId: number, versionId: number): Promise<void> {
    const signed = await call(
      this.a.member.post(`${POL}/documents/${docId}/sign`, { version_id: versionId, password: DEMO_PASSWORD }),
    );
    expect2xx(signed, 'sign');
    this.acks.push({ kind: 'sign', requestId: signed.requestId!, docId, versionId, signerId: this.a.ids.member });
  }

  /** Policies: signs what was prepared, then keeps walking new ones through the workflow. */
  async policies(prepared: { docId: number; versionId: number }[]): Promise<void> {
    for (const p of prepared) {
      if (!this.live) return;
      await this.sign(p.docId, p.versionId);
    }
    while (this.live) {
      const p = await this.toSignature();
      if (!p || !this.live) return;
      await this.sign(p.docId, p.versionId);
    }
  }

  /** Bulk action: the reader confirms reading every published policy not read yet, in one call. */
  async bulkRead(): Promise<void> {
    while (this.live) {
      const candidates = await call(this.a.reader.get(`${POL}/bulk/read`));
      expect2xx(candidates, 'bulk read candidates');
      const docs = (candidates.body as { documents: { id: number; version_id: number }[] }).documents;
      if (!docs.length) {
        await sleep(50);
        continue;
      }
      const versionOf = new Map(docs.map((d) => [d.id, d.version_id]));
      const answer = await call(this.a.reader.post(`${POL}/bulk/read`, { document_ids: docs.map((d) => d.id) }));
      expect2xx(answer, 'bulk read');
      const results = (answer.body as { results: { document_id: number; outcome: string }[] }).results;
      this.acks.push({
        kind: 'bulk-read',
        requestId: answer.requestId!,
        readerId: this.a.ids.reader,
        done: results.filter((r) => r.outcome === 'done').length,
        items: results
          .filter((r) => r.outcome === 'done' || r.outcome === 'already_done')
          .map((r) => ({ docId: r.document_id, versionId: versionOf.get(r.document_id)! })),
      });
    }
  }

  /** Uploads a CSV and saves its settings (before the kill window, and again inside it). */
  async prepareImport(datasetId: number): Promise<{ importId: number; rows: number }> {
    const form = new FormData();
    form.append('file', csvFile(CSV_ROWS), 'falls.csv');
    const uploaded = await call(this.a.admin.request('POST', `${MON}/datasets/${datasetId}/imports`, form));
    expect2xx(uploaded, 'csv upload');
    const detail = uploaded.body as {
      id: number;
      detected: {
        delimiter: string;
        encoding: string;
        has_header: boolean;
        columns: { source: string; key: string; label: string; type: string }[];
        time_column: string | null;
        date_format: string | null;
        row_count: number;
      };
    };
    this.acks.push({ kind: 'csv-upload', requestId: uploaded.requestId!, importId: detail.id });
    const d = detail.detected;
    const settings = await call(
      this.a.admin.put(`${MON}/imports/${detail.id}/settings`, {
        delimiter: d.delimiter,
        encoding: d.encoding,
        has_header: d.has_header,
        columns: d.columns.map((c) => ({ source: c.source, skip: false, key: c.key, label: c.label, type: c.type })),
        time_column: d.time_column ?? 'day',
        date_format: d.date_format ?? 'YYYY-MM-DD',
        mode: 'append',
        error_policy: 'abort',
        range_from: null,
        range_to: null,
        key_columns: [],
      }),
    );
    expect2xx(settings, 'csv settings');
    this.acks.push({ kind: 'csv-settings', requestId: settings.requestId!, importId: detail.id });
    return { importId: detail.id, rows: d.row_count };
  }

  async commitImport(importId: number, rows: number): Promise<void> {
    const answer = await call(this.a.admin.post(`${MON}/imports/${importId}/commit`));
    expect2xx(answer, 'csv commit');
    this.acks.push({ kind: 'csv-commit', requestId: answer.requestId!, importId, rows });
  }

  /** CSV import: commits the prepared import, then uploads, configures and commits more. */
  async imports(datasetId: number, prepared: { importId: number; rows: number }): Promise<void> {
    await this.commitImport(prepared.importId, prepared.rows);
    while (this.live) {
      await sleep(100);
      const next = await this.prepareImport(datasetId);
      if (!this.live) return;
      await this.commitImport(next.importId, next.rows);
    }
  }

  /** Simple writes: new monitoring datasets. */
  async datasets(): Promise<void> {
    while (this.live) {
      const name = `Crash dataset ${uniq()}`;
      const answer = await call(this.a.admin.post(`${MON}/datasets`, { name }));
      expect2xx(answer, 'create dataset');
      this.acks.push({
        kind: 'create-dataset',
        requestId: answer.requestId!,
        datasetId: (answer.body as { id: number }).id,
        name,
      });
      await sleep(20);
    }
  }
}

/** Checks every acknowledged write, then the invariants that say no operation is half done. */
async function verify(db: TestDatabase, acks: Ack[], ids: Actors['ids']): Promise<string[]> {
  const failures: string[] = [];
  const q = async <T>(text: string, values: unknown[] = []) => (await db.pool.query(text, values)).rows as T[];
  const one = async (text: string, values: unknown[]) => Number((await q<{ n: string }>(text, values))[0]?.n ?? 0);
  const audited = (requestId: string) =>
    one('select count(*) as n from audit_events where request_id = $1', [requestId]);

  for (const ack of acks) {
    const fail = (what: string) => failures.push(`${ack.kind} ${JSON.stringify(ack)}: ${what}`);
    if ((await audited(ack.requestId)) === 0 && !(ack.kind === 'bulk-read' && ack.done === 0)) {
      fail('no audit event with its request id');
    }
    switch (ack.kind) {
      case 'create-doc':
        if (
          !(await one('select count(*) as n from policy_documents where id = $1 and title = $2', [
            ack.docId,
            ack.title,
          ]))
        )
          fail('the policy is missing');
        break;
      case 'send-to-review':
        if (
          !(await one(`select count(*) as n from policy_versions where id = $1 and state <> 'draft'`, [ack.versionId]))
        )
          fail('the version is still a draft');
        break;
      case 'approve':
        if (
          !(await one(
            `select count(*) as n from policy_workflow_requests
             where version_id = $1 and kind = 'review' and user_id = $2 and status = 'approved'`,
            [ack.versionId, ack.reviewerId],
          ))
        )
          fail('the approval is missing');
        break;
      case 'sign': {
        const sig = await one(
          `select count(*) as n from policy_signatures
           where version_id = $1 and signer_id = $2 and voided_at is null`,
          [ack.versionId, ack.signerId],
        );
        const published = await one(
          `select count(*) as n from policy_documents where id = $1 and status = 'published' and current_version_id = $2`,
          [ack.docId, ack.versionId],
        );
        const event = await one(
          `select count(*) as n from audit_events where request_id = $1 and action = 'policy.document_signed'`,
          [ack.requestId],
        );
        if (!sig) fail('the signature row is missing');
        if (!published) fail('the policy is not published with the signed version');
        if (!event) fail('the audit event policy.document_signed is missing');
        break;
      }
      case 'bulk-read':
        for (const item of ack.items) {
          if (
            !(await one('select count(*) as n from policy_attestations where version_id = $1 and user_id = $2', [
              item.versionId,
              ack.readerId,
            ]))
          )
            fail(`the attestation of policy ${item.docId} is missing`);
        }
        break;
      case 'create-dataset':
        if (
          !(await one('select count(*) as n from mon_datasets where id = $1 and name = $2', [ack.datasetId, ack.name]))
        )
          fail('the dataset is missing');
        break;
      case 'csv-upload':
        if (!(await one('select count(*) as n from mon_imports where id = $1', [ack.importId])))
          fail('the upload is missing');
        break;
      case 'csv-settings':
        if (
          !(await one('select count(*) as n from mon_imports where id = $1 and settings is not null', [ack.importId]))
        )
          fail('the settings are missing');
        break;
      case 'csv-commit': {
        // 202 acknowledges the start: the import ends committed (every row) or failed (none), never in between.
        const [row] = await q<{ status: string; rows_ok: number }>(
          'select status, rows_ok from mon_imports where id = $1',
          [ack.importId],
        );
        if (!row) fail('the import is missing');
        else if (row.status !== 'committed' && row.status !== 'failed' && row.status !== 'committing')
          fail(`status ${row.status} after an acknowledged commit`);
        else if (row.status === 'committed' && row.rows_ok !== ack.rows)
          fail(`committed with ${row.rows_ok} rows of ${ack.rows}`);
        break;
      }
    }
  }

  // Invariants over everything, acknowledged or not.
  const committing = await q<{ id: number }>(`select id from mon_imports where status = 'committing'`);
  if (committing.length) failures.push(`imports left committing after the restart: ${committing.map((r) => r.id)}`);
  const badImports = await q<{ id: number; status: string; rows_ok: number; n: string }>(
    `select i.id, i.status, i.rows_ok, (select count(*) from mon_rows r where r.import_id = i.id) as n
     from mon_imports i
     where (i.status = 'committed' and (select count(*) from mon_rows r where r.import_id = i.id) <> i.rows_ok)
        or (i.status <> 'committed' and i.status <> 'rolled_back'
            and exists (select 1 from mon_rows r where r.import_id = i.id))`,
  );
  for (const b of badImports)
    failures.push(`import ${b.id} is half done: ${b.status}, rows_ok ${b.rows_ok}, ${b.n} rows`);
  const badChunks = await q<{ id: number }>(
    `select i.id from mon_imports i
     where i.size <> coalesce((select sum(octet_length(c.data)) from mon_import_chunks c where c.import_id = i.id), 0)
       and exists (select 1 from mon_import_chunks c where c.import_id = i.id)`,
  );
  for (const b of badChunks) failures.push(`import ${b.id}: its stored file is incomplete`);
  // A signature has its audit event and its answered request; a published policy of this run has its signature.
  const unsignedEvents = await q<{ id: number }>(
    `select s.id from policy_signatures s
     where s.round > 0 and not exists (
       select 1 from audit_events e where e.action = 'policy.document_signed' and e.data->>'signature_id' = s.id::text)`,
  );
  for (const s of unsignedEvents) failures.push(`signature ${s.id} has no audit event`);
  const openRequests = await q<{ id: number }>(
    `select s.id from policy_signatures s
     where s.round > 0 and s.voided_at is null and not exists (
       select 1 from policy_workflow_requests r where r.version_id = s.version_id and r.round = s.round
       and r.kind = 'signature' and r.user_id = s.signer_id and r.status = 'signed')`,
  );
  for (const s of openRequests) failures.push(`signature ${s.id}: its signature request is not marked signed`);
  const publishedUnsigned = await q<{ id: number }>(
    `select d.id from policy_documents d
     where d.title like 'Resilience %' and d.status = 'published' and not exists (
       select 1 from policy_signatures s where s.version_id = d.current_version_id and s.voided_at is null)`,
  );
  for (const d of publishedUnsigned) failures.push(`policy ${d.id} is published without a signature`);
  const signedUnpublished = await q<{ id: number }>(
    `select d.id from policy_documents d join policy_signatures s on s.document_id = d.id and s.voided_at is null
     where d.title like 'Resilience %' and (d.status <> 'published' or d.current_version_id <> s.version_id)`,
  );
  for (const d of signedUnpublished) failures.push(`policy ${d.id} is signed by its only signer but not published`);
  const attestations = await one(
    `select count(*) as n from policy_attestations a where a.user_id = $1 and a.user_agent is distinct from 'Demo data'
     and not exists (select 1 from audit_events e where e.action = 'policy.document_attested'
       and e.actor_user_id = a.user_id and e.subject_id = a.document_id::text)`,
    [ids.reader],
  );
  if (attestations) failures.push(`${attestations} attestation(s) without their audit event`);
  return failures;
}

export async function crashLoop(): Promise<Summary> {
  const db = await createDatabase('crash');
  const logs = path.join(logDir(), 'crash-server.log');
  const appKey = newAppKey();
  const port = await freePort();
  const failures: string[] = [];
  const counts = new Map<string, number>();
  let iterations = 0;
  const importStates: [string, number][] = [];
  let restartMs = 0;
  let server: ServerProcess | undefined;
  const start = async () => {
    const t = Date.now();
    server = startServer({ port, databaseUrl: db.url, appKey, logFile: logs });
    await waitReady(server);
    return Date.now() - t;
  };
  console.log(`crash loop: ${ITERATIONS} SIGKILLs, database ${db.name}, server log ${logs}`);
  try {
    await start();
    const actors = await signIn(server!.baseUrl);
    const dataset = await actors.admin.post(`${MON}/datasets`, { name: 'Crash imports' });
    expect2xx(dataset, 'create the import dataset');
    const datasetId = (dataset.body as { id: number }).id;

    for (let i = 1; i <= ITERATIONS; i++) {
      // The signing rate limit (10 per user in 15 minutes) would stop the loop after five iterations: clearing it
      // is what waiting the 15 minutes would do.
      await db.pool.query(`delete from rate_limit_hits where key like 'policy-sign:%'`);
      const writers = new Writers(actors);
      // Before the kill window: two policies waiting for a signature and a CSV file ready to commit.
      const prepared = [(await writers.toSignature())!, (await writers.toSignature())!];
      const csv = await writers.prepareImport(datasetId);

      const killAfter = randomInt(KILL_MIN_MS, KILL_MAX_MS);
      const errors: unknown[] = [];
      const guard = (p: Promise<void>) =>
        p.catch((error) => {
          if (!(error instanceof Gone)) errors.push(error);
        });
      const running = [
        guard(writers.policies(prepared)),
        guard(writers.bulkRead()),
        guard(writers.imports(datasetId, csv)),
        guard(writers.datasets()),
      ];
      await sleep(killAfter);
      await killHard(server!);
      writers.stop();
      await Promise.all(running);
      for (const error of errors) failures.push(`iteration ${i}: a writer failed before the kill: ${String(error)}`);

      restartMs = Math.max(restartMs, await start());
      const found = await verify(db, writers.acks, actors.ids);
      for (const f of found) failures.push(`iteration ${i}: ${f}`);
      for (const ack of writers.acks) counts.set(ack.kind, (counts.get(ack.kind) ?? 0) + 1);
      const chain = await verifyAuditChain(db.url);
      if (!chain.ok) failures.push(`iteration ${i}: the audit chain does not verify: ${chain.output}`);
      iterations = i;
      // Sessions are rows in PostgreSQL: they must survive the kill (a sign-in again would hide a lost session).
      for (const who of ['admin', 'member', 'reader'] as const) {
        const me = await actors[who].get('/api/user');
        if (me.status !== 200) failures.push(`iteration ${i}: the ${who} session did not survive (${me.status})`);
      }
      const acked = writers.acks.length;
      console.log(
        `  #${String(i).padStart(2)} killed after ${String(killAfter).padStart(4)} ms: ${acked} acknowledged writes ` +
          `checked, ${found.length} problem(s), chain ${chain.ok ? 'ok' : 'BROKEN'}`,
      );
    }
    const { rows } = await db.pool.query<{ status: string; n: string }>(
      'select status, count(*) as n from mon_imports group by status order by status',
    );
    for (const r of rows) importStates.push([`  imports ${r.status}`, Number(r.n)]);
  } finally {
    if (server) await killHard(server);
    await db.drop();
  }
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  return {
    name: 'Crash loop (SIGKILL during writes)',
    ok: failures.length === 0 && iterations === ITERATIONS,
    figures: [
      ['iterations (SIGKILLs)', iterations],
      ['acknowledged writes checked', total],
      ...[...counts].map(([k, n]) => [`  ${k}`, n] as [string, number]),
      ['CSV imports at the end (failed = cut by a kill, nothing saved)', ''],
      ...importStates,
      ['slowest restart to ready (ms)', restartMs],
      ['failures', failures.length],
    ],
    failures,
  };
}

if (isMain(import.meta.url)) runAlone(crashLoop);
