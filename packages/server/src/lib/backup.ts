import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { resolveAppKey } from './app-key.js';
import { sealAuditChain, verifyAuditChain } from './audit-chain.js';

/**
 * Backups (`npm run backup` / `npm run restore`, docs/backups.md). A backup is a `pg_dump --format=custom` file of
 * the whole database (uploaded files included: they live in the `stored_files` table) and a manifest beside it,
 * `<file>.manifest.json`, describing what the dump holds: every table's row count and checksum, the uploaded files,
 * the audit trail's head hash, the schema migrations applied, and the SHA-256 of the dump file itself.
 *
 * The manifest is computed in the very snapshot pg_dump reads (`pg_export_snapshot` + `pg_dump --snapshot`), so a
 * backup of a running portal is exact: a restore is verified against it row for row, and any difference is named.
 */

export const MANIFEST_FORMAT = 'healthcare-portal-backup/1';

export interface TableFingerprint {
  rows: number;
  /** md5 over the md5 of each row's text, in sorted order: independent of physical order (ctid) and of the dump. */
  checksum: string;
}

/** Keyed by "schema.table". */
export type Fingerprints = Record<string, TableFingerprint>;

export interface AuditChainState {
  ok: boolean;
  verified: number;
  unsealed: number;
  head_hash: string | null;
}

export interface BackupManifest {
  format: typeof MANIFEST_FORMAT;
  created_at: string;
  app_version: string;
  /** The PostgreSQL server the backup was taken from, and the pg_dump that took it. */
  postgres_version: string;
  pg_dump_version: string;
  database: string;
  /** Schema migrations applied in the backed-up database (drizzle.__drizzle_migrations). */
  migrations: number;
  dump: { file: string; bytes: number; sha256: string };
  tables: Fingerprints;
  totals: { tables: number; rows: number };
  /** Uploaded files (stored_files): how many, their bytes, and how many no longer match their own SHA-256. */
  files: { count: number; bytes: number; damaged: number };
  audit_chain: AuditChainState;
  /** A short fingerprint of the app key (never the key): a restore warns when the portal's key differs. */
  app_key_id: string | null;
}

export interface Mismatch {
  /** "schema.table", or "audit trail" / "stored files" for the checks beyond tables. */
  subject: string;
  message: string;
}

export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}

// ---------------------------------------------------------------------------------------------------------------
// pg_dump and pg_restore

type PgTool = 'pg_dump' | 'pg_restore' | 'psql';

interface ToolRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runTool(bin: string, args: string[], env?: NodeJS.ProcessEnv): Promise<ToolRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'], ...(env ? { env } : {}) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const missingTool = (tool: PgTool, pgBin?: string) =>
  new BackupError(
    `${tool} was not found${pgBin ? ` in PG_BIN (${pgBin})` : ''}: install the PostgreSQL client ` +
      '(Debian: apt-get install postgresql-client; version 15 or newer) or set PG_BIN to the folder that holds it.',
  );

/** Finds pg_dump, pg_restore or psql (in `pgBin`, else on PATH) and returns its path and version line. */
export async function findPgTool(tool: PgTool, pgBin?: string): Promise<{ bin: string; version: string }> {
  const bin = pgBin ? path.join(pgBin, tool) : tool;
  if (pgBin && !fs.existsSync(bin)) throw missingTool(tool, pgBin);
  try {
    const run = await runTool(bin, ['--version']);
    if (run.code !== 0) throw missingTool(tool, pgBin);
    return { bin, version: run.stdout.trim() };
  } catch (error) {
    if (error instanceof BackupError) throw error;
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw missingTool(tool, pgBin);
    throw error;
  }
}

/** libpq arguments for a URL, with the password moved to PGPASSWORD so it never shows in the process list. */
function libpqTarget(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return {
    dbname: parsed.toString(),
    env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}), PGCONNECT_TIMEOUT: '10' },
  };
}

/** "host:port/database" of a connection string: what messages name, never with credentials. */
export function describeDatabase(url: string): string {
  const parsed = new URL(url);
  return `${decodeURIComponent(parsed.hostname) || 'localhost'}:${parsed.port || '5432'}${decodeURIComponent(parsed.pathname)}`;
}

// ---------------------------------------------------------------------------------------------------------------
// What a database holds

/**
 * Rendering settings that make a row's text the same on every server and session (time zone, date and interval
 * styles, float digits, bytea as hex). `set local`: call inside a transaction.
 */
async function stableRendering(client: pg.ClientBase): Promise<void> {
  await client.query(`set local timezone to 'UTC'; set local datestyle to 'ISO, YMD';
    set local intervalstyle to 'postgres'; set local extra_float_digits to 1; set local bytea_output to 'hex'`);
}

interface TableColumns {
  schema: string;
  name: string;
  /** Its stored columns in order; generated ones left out (see tableFingerprints). */
  columns: string[];
}

/** The ordinary tables of every non-system schema (portal, drizzle's migration journal, pg-boss), extensions' own aside. */
async function listTables(client: pg.ClientBase): Promise<TableColumns[]> {
  const { rows } = await client.query<TableColumns>(`
    select n.nspname as schema, c.relname as name,
      coalesce(array(select a.attname::text from pg_attribute a
                     where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
                     order by a.attnum), '{}') as columns
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where c.relkind = 'r'
      and n.nspname not in ('pg_catalog', 'information_schema')
      and n.nspname not like 'pg\\_toast%' and n.nspname not like 'pg\\_temp%'
      and not exists (select 1 from pg_depend d where d.classid = 'pg_class'::regclass and d.objid = c.oid
                      and d.deptype = 'e')
    order by 1, 2`);
  return rows;
}

/**
 * Every table's row count and checksum: md5 of the sorted md5s of its rows' text. The order of rows on disk does not
 * matter, each stored column of each row does. Generated columns are left out: pg_dump does not carry them, the
 * restore computes them again, and a full-text search vector computed by a server with another locale differs
 * (policy_documents' search vectors between a C and a C.UTF-8 cluster). Call inside a transaction (it sets rendering
 * options locally); in a REPEATABLE READ one all tables come from one snapshot.
 */
export async function tableFingerprints(client: pg.ClientBase): Promise<Fingerprints> {
  await stableRendering(client);
  const result: Fingerprints = {};
  for (const table of await listTables(client)) {
    const name = `${client.escapeIdentifier(table.schema)}.${client.escapeIdentifier(table.name)}`;
    const row = `row(${table.columns.map((column) => `t.${client.escapeIdentifier(column)}`).join(', ')})::text`;
    const { rows } = await client.query<{ rows: string; checksum: string }>(
      `select count(*)::bigint as rows, md5(coalesce(string_agg(h, '' order by h collate "C"), '')) as checksum
       from (select md5(${row}) as h from ${name} t) x`,
    );
    result[`${table.schema}.${table.name}`] = { rows: Number(rows[0]!.rows), checksum: rows[0]!.checksum };
  }
  return result;
}

/** Uploaded files: count, bytes, and how many no longer match the SHA-256 recorded when they were stored. */
async function storedFilesState(client: pg.ClientBase): Promise<BackupManifest['files']> {
  const { rows } = await client.query<{ present: boolean }>(
    `select to_regclass('public.stored_files') is not null as present`,
  );
  if (!rows[0]?.present) return { count: 0, bytes: 0, damaged: 0 };
  const state = await client.query<{ count: string; bytes: string; damaged: string }>(`
    select count(*)::bigint as count, coalesce(sum(octet_length(data)), 0)::bigint as bytes,
           count(*) filter (where encode(sha256(data), 'hex') <> sha256)::bigint as damaged
    from public.stored_files`);
  const row = state.rows[0]!;
  return { count: Number(row.count), bytes: Number(row.bytes), damaged: Number(row.damaged) };
}

async function migrationCount(client: pg.ClientBase): Promise<number> {
  const { rows } = await client.query<{ applied: string | null }>(
    `select case when to_regclass('drizzle.__drizzle_migrations') is null then null
       else (select count(*)::text from drizzle.__drizzle_migrations) end as applied`,
  );
  return Number(rows[0]?.applied ?? 0);
}

async function auditChainState(client: pg.Client): Promise<AuditChainState> {
  const { rows } = await client.query<{ present: boolean }>(
    `select to_regclass('public.audit_events') is not null as present`,
  );
  if (!rows[0]?.present) return { ok: true, verified: 0, unsealed: 0, head_hash: null };
  const report = await verifyAuditChain(drizzle(client));
  return { ok: report.ok, verified: report.verified, unsealed: report.unsealed, head_hash: report.head_hash };
}

export interface DatabaseState {
  tables: Fingerprints;
  files: BackupManifest['files'];
  audit_chain: AuditChainState;
  migrations: number;
}

async function readState(client: pg.Client): Promise<DatabaseState> {
  return {
    tables: await tableFingerprints(client),
    files: await storedFilesState(client),
    audit_chain: await auditChainState(client),
    migrations: await migrationCount(client),
  };
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, application_name: 'healthcare-portal-backup' });
  client.on('error', () => {});
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => {});
  }
}

/** Everything a manifest records about a database, read in one snapshot. */
export async function inspectDatabase(url: string): Promise<DatabaseState> {
  return withClient(url, async (client) => {
    await client.query('begin isolation level repeatable read read only');
    try {
      return await readState(client);
    } finally {
      await client.query('rollback');
    }
  });
}

/** True when any table outside the migration journal and the job queue holds a row: a restore would replace data. */
export async function databaseHasData(url: string): Promise<boolean> {
  return withClient(url, async (client) => {
    for (const table of await listTables(client)) {
      if (table.schema === 'drizzle' || table.schema === 'pgboss') continue;
      const name = `${client.escapeIdentifier(table.schema)}.${client.escapeIdentifier(table.name)}`;
      const { rowCount } = await client.query(`select 1 from ${name} limit 1`);
      if (rowCount) return true;
    }
    return false;
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Backup

export const manifestPathFor = (file: string) => `${file}.manifest.json`;

function appVersion(): string {
  try {
    // Same place from src/lib and dist/lib: two levels below the package.
    const file = new URL('../../package.json', import.meta.url);
    return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version?: string }).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** A short, one-way fingerprint of the app key, so a restore can tell whether the portal's key is the backup's. */
export const appKeyId = (key: Buffer) => createHash('sha256').update(key).digest('hex').slice(0, 16);

/** The fingerprint of the key the portal in this configuration uses; null when it has none yet (never creates one). */
export function configuredAppKeyId(appKey: string | undefined, dataDir: string): string | null {
  if (!appKey && !fs.existsSync(path.join(dataDir, 'app.key'))) return null;
  try {
    return appKeyId(resolveAppKey(appKey, dataDir));
  } catch {
    return null;
  }
}

/** 1.2 MB, 512 KB, 80 B. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 * 1024) return `${(bytes / 1024 / 1024 / 1024).toFixed(1)} GB`;
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} B`;
}

async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Writes `content` beside `file` under a temporary name (mode 0600) and returns that name, to rename later. */
function writePartial(file: string, content: string): string {
  const partial = `${file}.partial-${process.pid}`;
  fs.writeFileSync(partial, content, { mode: 0o600 });
  return partial;
}

export interface BackupOptions {
  /** Folder of pg_dump (PG_BIN); unset: PATH. */
  pgBin?: string;
  appKeyId?: string | null;
}

export interface BackupResult {
  file: string;
  manifestFile: string;
  manifest: BackupManifest;
  durationMs: number;
}

/**
 * Backs up the database at `url` into `file` (pg_dump custom format) and `file`.manifest.json. Both are written
 * under temporary names and renamed at the end, manifest first: a file under the final name is always complete.
 * Seals the audit events not yet chained first, so the recorded head hash covers every event in the backup.
 */
export async function backupDatabase(url: string, file: string, options: BackupOptions = {}): Promise<BackupResult> {
  const started = performance.now();
  const pgDump = await findPgTool('pg_dump', options.pgBin);
  const target = path.resolve(file);
  fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
  const partial = `${target}.partial-${process.pid}`;
  const manifestFile = manifestPathFor(target);
  let partialManifest: string | undefined;

  try {
    const manifest = await withClient(url, async (client) => {
      // Sealing writes; a read-only server (a replica) simply keeps its events unsealed in the manifest.
      await sealAuditChain(drizzle(client)).catch(() => 0);
      await client.query('begin isolation level repeatable read read only');
      try {
        const { rows } = await client.query<{ snapshot: string; version: string; database: string }>(
          `select pg_export_snapshot() as snapshot, current_setting('server_version') as version,
                  current_database() as database`,
        );
        const { snapshot, version, database } = rows[0]!;
        const state = await readState(client);
        const { dbname, env } = libpqTarget(url);
        // The exporting transaction stays open while pg_dump reads its snapshot: both see the same rows.
        const run = await runTool(
          pgDump.bin,
          ['--format=custom', `--snapshot=${snapshot}`, '--no-password', `--file=${partial}`, `--dbname=${dbname}`],
          env,
        );
        if (run.code !== 0) throw new BackupError(`pg_dump failed: ${run.stderr.trim() || `exit code ${run.code}`}`);
        return { state, version, database };
      } finally {
        await client.query('rollback').catch(() => {});
      }
    });
    fs.chmodSync(partial, 0o600);
    const { state } = manifest;
    const rows = Object.values(state.tables).reduce((sum, table) => sum + table.rows, 0);
    const result: BackupManifest = {
      format: MANIFEST_FORMAT,
      created_at: new Date().toISOString(),
      app_version: appVersion(),
      postgres_version: manifest.version,
      pg_dump_version: pgDump.version,
      database: manifest.database,
      migrations: state.migrations,
      dump: { file: path.basename(target), bytes: fs.statSync(partial).size, sha256: await sha256OfFile(partial) },
      tables: state.tables,
      totals: { tables: Object.keys(state.tables).length, rows },
      files: state.files,
      audit_chain: state.audit_chain,
      app_key_id: options.appKeyId ?? null,
    };
    partialManifest = writePartial(manifestFile, `${JSON.stringify(result, null, 2)}\n`);
    fs.renameSync(partialManifest, manifestFile);
    fs.renameSync(partial, target);
    return { file: target, manifestFile, manifest: result, durationMs: performance.now() - started };
  } catch (error) {
    fs.rmSync(partial, { force: true });
    if (partialManifest) fs.rmSync(partialManifest, { force: true });
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Restore and verification

/** The manifest beside a backup file; null when there is none. */
export function readManifest(file: string): BackupManifest | null {
  const manifestFile = manifestPathFor(file);
  if (!fs.existsSync(manifestFile)) return null;
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as BackupManifest;
  } catch (error) {
    throw new BackupError(`The manifest ${manifestFile} cannot be read: ${(error as Error).message}`);
  }
  if (manifest.format !== MANIFEST_FORMAT) {
    throw new BackupError(`${manifestFile} is not a manifest this portal knows (format ${String(manifest.format)}).`);
  }
  return manifest;
}

/** Compares a database's state with a backup's manifest. Empty: every table, file and the audit trail match. */
export function compareWithManifest(state: DatabaseState, manifest: BackupManifest): Mismatch[] {
  const mismatches: Mismatch[] = [];
  for (const [table, expected] of Object.entries(manifest.tables)) {
    const actual = state.tables[table];
    if (!actual) {
      mismatches.push({ subject: table, message: 'is missing from the restored database' });
    } else if (actual.rows !== expected.rows) {
      mismatches.push({ subject: table, message: `has ${actual.rows} rows, the backup ${expected.rows}` });
    } else if (actual.checksum !== expected.checksum) {
      mismatches.push({
        subject: table,
        message: `has ${actual.rows} rows like the backup, but their content differs`,
      });
    }
  }
  for (const table of Object.keys(state.tables)) {
    if (!(table in manifest.tables)) {
      mismatches.push({
        subject: table,
        message: 'is not in the backup (left from the database before; restore into an empty database instead)',
      });
    }
  }
  if (state.files.damaged > manifest.files.damaged) {
    mismatches.push({
      subject: 'stored files',
      message: `${state.files.damaged} uploaded files no longer match their SHA-256`,
    });
  }
  const chain = manifest.audit_chain;
  if (!state.audit_chain.ok && chain.ok) {
    mismatches.push({ subject: 'audit trail', message: 'does not verify (npm run audit:verify names the break)' });
  } else if (chain.head_hash && state.audit_chain.head_hash !== chain.head_hash) {
    mismatches.push({
      subject: 'audit trail',
      message: `head hash ${state.audit_chain.head_hash ?? '(none)'} differs from the backup's ${chain.head_hash}`,
    });
  }
  return mismatches;
}

export interface RestoreOptions {
  /** Folder of pg_restore and psql (PG_BIN); unset: PATH. */
  pgBin?: string;
  /** The backup's manifest; by default read from beside the file. null: restore without verifying. */
  manifest?: BackupManifest | null;
}

export interface RestoreResult {
  manifest: BackupManifest | null;
  /** The restored database as read back; null when there was no manifest to verify against. */
  state: DatabaseState | null;
  mismatches: Mismatch[];
  durationMs: number;
}

/** Reads the restored database back and compares it with the manifest. */
export async function verifyRestore(url: string, manifest: BackupManifest): Promise<Mismatch[]> {
  return compareWithManifest(await inspectDatabase(url), manifest);
}

/**
 * Empties the database before the dump is replayed, in the same transaction: every schema but `public` and the
 * system ones is dropped whole (pgboss, drizzle), and public's tables, views, sequences, routines and types (not the
 * schema itself, nor what an extension owns). pg_restore --clean cannot do this: it drops only what the dump holds
 * (tables of a newer schema would stay) and fails on pg-boss's partitioned tables ("cannot drop inherited
 * constraint"), measured on PostgreSQL 15.
 */
const EMPTY_DATABASE = `
do $empty$
declare
  statements text[];
  statement text;
begin
  -- Every statement is written before the first drop: the names stay right whatever a cascade removes on the way.
  select array(select drop_statement from (
    select 1 as step, format('drop schema %I cascade', n.nspname) as drop_statement
    from pg_namespace n
    where n.nspname not in ('public', 'information_schema') and n.nspname not like 'pg\\_%'
      and not exists (select 1 from pg_depend d where d.deptype = 'e'
                      and d.classid = 'pg_namespace'::regclass and d.objid = n.oid)
    union all
    select case when c.relkind in ('r', 'p', 'f') then 2 else 3 end,
      format('drop %s if exists public.%I cascade',
        case c.relkind when 'v' then 'view' when 'm' then 'materialized view' when 'S' then 'sequence'
                       when 'f' then 'foreign table' else 'table' end, c.relname)
    from pg_class c
    where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p', 'v', 'm', 'S', 'f')
      and not exists (select 1 from pg_depend d where d.deptype = 'e'
                      and d.classid = 'pg_class'::regclass and d.objid = c.oid)
      -- identity and serial sequences go with their tables
      and not (c.relkind = 'S' and exists (select 1 from pg_depend d where d.deptype in ('a', 'i')
                                           and d.classid = 'pg_class'::regclass and d.objid = c.oid))
    union all
    select 4, format('drop routine if exists %s cascade', p.oid::regprocedure)
    from pg_proc p
    where p.pronamespace = 'public'::regnamespace
      and not exists (select 1 from pg_depend d where d.deptype = 'e'
                      and d.classid = 'pg_proc'::regclass and d.objid = p.oid)
    union all
    select 5, format('drop %s if exists %s cascade', case t.typtype when 'd' then 'domain' else 'type' end,
                     t.oid::regtype)
    from pg_type t
    where t.typnamespace = 'public'::regnamespace and t.typtype in ('e', 'd', 'r', 'c')
      and (t.typrelid = 0 or (select c.relkind from pg_class c where c.oid = t.typrelid) = 'c')
      and not exists (select 1 from pg_depend d where d.deptype = 'e'
                      and d.classid = 'pg_type'::regclass and d.objid = t.oid)
  ) planned order by step) into statements;
  foreach statement in array statements loop
    execute statement;
  end loop;
end
$empty$;
`;

/**
 * pg_restore's SQL replayed by psql in one transaction that first empties the database: COMMIT is sent only when
 * pg_restore read the whole dump and psql met no error, so a failed restore changes nothing.
 */
function replayDump(
  pgRestore: string,
  psql: string,
  file: string,
  url: string,
): Promise<{ ok: boolean; message: string }> {
  const { dbname, env } = libpqTarget(url);
  return new Promise((resolve, reject) => {
    const restore = spawn(pgRestore, ['--no-owner', '--no-privileges', '--file=-', file], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env,
    });
    const replay = spawn(psql, ['--no-psqlrc', '--quiet', '--set=ON_ERROR_STOP=1', '--file=-', `--dbname=${dbname}`], {
      stdio: ['pipe', 'ignore', 'pipe'],
      env: { ...env, PGOPTIONS: '-c client_min_messages=warning' },
    });
    let restoreErrors = '';
    let replayErrors = '';
    restore.stderr.on('data', (chunk: Buffer) => {
      restoreErrors += chunk.toString();
    });
    replay.stderr.on('data', (chunk: Buffer) => {
      replayErrors += chunk.toString();
    });
    // psql stops at the first error: the rest of the dump has nowhere to go.
    replay.stdin.on('error', () => {});
    restore.on('error', reject);
    replay.on('error', reject);

    let restoreCode: number | null | undefined;
    let replayCode: number | null | undefined;
    const settle = () => {
      if (restoreCode === undefined || replayCode === undefined) return;
      // psql first: when it stops on an error, pg_restore is stopped too and only psql knows why.
      if (replayCode !== 0) {
        resolve({ ok: false, message: replayErrors.trim() || `psql exit code ${replayCode}` });
      } else if (restoreCode !== 0) {
        resolve({ ok: false, message: `pg_restore could not read the dump: ${restoreErrors.trim() || restoreCode}` });
      } else {
        resolve({ ok: true, message: '' });
      }
    };
    restore.on('close', (code) => {
      restoreCode = code;
      if (code === 0) replay.stdin.end('\ncommit;\n');
      else replay.stdin.end(); // no commit: the transaction is rolled back when psql disconnects
      settle();
    });
    replay.on('close', (code) => {
      replayCode = code;
      if (restoreCode === undefined) restore.kill();
      settle();
    });
    replay.stdin.write(`begin;\ncreate schema if not exists public;\n${EMPTY_DATABASE}\n`);
    restore.stdout.pipe(replay.stdin, { end: false });
  });
}

/**
 * Replaces the whole database at `url` with the backup `file`, in one transaction (a restore that fails part way
 * changes nothing): the dump is first checked against the SHA-256 in its manifest, the database emptied and the dump
 * replayed (pg_restore --no-owner --no-privileges into psql), then the restored database is read back and compared
 * with the manifest, table by table.
 */
export async function restoreDatabase(file: string, url: string, options: RestoreOptions = {}): Promise<RestoreResult> {
  const started = performance.now();
  const pgRestore = await findPgTool('pg_restore', options.pgBin);
  const psql = await findPgTool('psql', options.pgBin);
  if (!fs.existsSync(file)) throw new BackupError(`There is no backup file ${file}.`);
  const manifest = options.manifest === undefined ? readManifest(file) : options.manifest;
  if (manifest) {
    const sha256 = await sha256OfFile(file);
    if (sha256 !== manifest.dump.sha256) {
      throw new BackupError(
        `${file} does not match its manifest (SHA-256 ${sha256}, the manifest says ${manifest.dump.sha256}): ` +
          'it is damaged or not the file the manifest describes. Nothing was restored.',
      );
    }
  }
  const replayed = await replayDump(pgRestore.bin, psql.bin, file, url);
  if (!replayed.ok) {
    throw new BackupError(`The restore failed and changed nothing (it runs in one transaction): ${replayed.message}`);
  }
  if (!manifest) return { manifest: null, state: null, mismatches: [], durationMs: performance.now() - started };
  const state = await inspectDatabase(url);
  return {
    manifest,
    state,
    mismatches: compareWithManifest(state, manifest),
    durationMs: performance.now() - started,
  };
}
