import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { useTestDatabase } from '../../test/database.js';
import { addMember, createProject, createUser } from '../../test/factories.js';
import { withDatabase } from '../../test/global-setup.js';
import { connectDatabase } from '../db/client.js';
import { runningEmbeddedUrl } from '../db/open.js';
import { recordAudit } from './audit.js';
import { verifyAuditChain } from './audit-chain.js';
import {
  type BackupManifest,
  type BackupResult,
  backupDatabase,
  databaseHasData,
  inspectDatabase,
  manifestPathFor,
  readManifest,
  restoreDatabase,
  verifyRestore,
} from './backup.js';
import { readFile, storeFile } from './files.js';

/**
 * The restore drill (docs/backups.md): back up a database with data in every kind of table, restore it into a fresh
 * empty database, and prove that every table's row count and checksum, every uploaded file and the audit trail's
 * head hash came back; and that a difference is found and named.
 */

const REPO = fileURLToPath(new URL('../../../../', import.meta.url));
const serverUrl = inject('databaseServerUrl');
const templatePid = inject('templateDatabase').replace('portal_template_', '');

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A fresh, empty database (from template0: no migrations, nothing), dropped after the file. */
function useEmptyDatabase(): { url: string; name: string } {
  // The run's global teardown also drops portal_test_<pid>_* databases a failed file leaves behind.
  const state = { name: `portal_test_${templatePid}_restore_${randomBytes(4).toString('hex')}`, url: '' };
  beforeAll(async () => {
    await admin(`create database ${state.name} template template0`);
    state.url = withDatabase(serverUrl, state.name);
  });
  afterAll(async () => {
    await admin(`drop database if exists ${state.name} with (force)`);
  });
  return state;
}

function run(script: string, args: string[], env: Record<string, string>, cwd: string) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(path.join(REPO, 'node_modules/.bin/tsx'), [path.join(REPO, script), ...args], {
      cwd,
      env: { PATH: process.env.PATH ?? '', HOME: os.tmpdir(), ...env },
    });
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

describe('backup and restore drill', () => {
  const source = useTestDatabase();
  const fresh = useEmptyDatabase();
  // Restored into first by each test that changes it.
  const target = useEmptyDatabase();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-backup-test-'));
  const file = path.join(dir, 'nested', 'portal.dump');
  const upload = Buffer.concat([randomBytes(300_000), Buffer.from([0, 0, 255, 0])]);
  let backup: BackupResult;
  let manifest: BackupManifest;
  let fileId: number;

  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  beforeAll(async () => {
    const db = source.handle.db;
    const project = await createProject(db, { name: 'Backup "drill"\tFacility ü €' });
    const user = await createUser(db, { firstName: 'Zoë', lastName: "O'Brien\nline two" });
    await addMember(db, project.id, user.id, 'admin');
    fileId = await storeFile(db, {
      projectId: project.id,
      contentType: 'application/pdf',
      data: upload,
      createdBy: user.id,
      fileName: 'policy.pdf',
    });
    for (let i = 0; i < 5; i++) {
      await recordAudit(db, {
        action: 'system.demo_data_created',
        projectId: project.id,
        actorUserId: user.id,
        data: { i },
      });
    }
    backup = await backupDatabase(source.url, file);
    manifest = backup.manifest;
  });

  it('backs up to the final name only when complete, with a manifest of every table', async () => {
    expect(backup.file).toBe(file);
    expect(fs.readdirSync(path.dirname(file)).sort()).toEqual(['portal.dump', 'portal.dump.manifest.json']);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(file).size).toBe(manifest.dump.bytes);
    expect(fs.readFileSync(file).subarray(0, 5).toString()).toBe('PGDMP'); // pg_dump's custom format
    expect(readManifest(file)).toEqual(manifest);

    // The manifest is the source database as it is: every table, counted and checksummed.
    const state = await inspectDatabase(source.url);
    expect(manifest.tables).toEqual(state.tables);
    expect(Object.keys(manifest.tables)).toEqual(
      expect.arrayContaining([
        'public.users',
        'public.stored_files',
        'public.audit_events',
        'drizzle.__drizzle_migrations',
      ]),
    );
    expect(manifest.tables['public.stored_files']!.rows).toBe(1);
    expect(manifest.totals.rows).toBe(Object.values(state.tables).reduce((sum, t) => sum + t.rows, 0));
    expect(manifest.files).toEqual({ count: 1, bytes: upload.length, damaged: 0 });
    expect(manifest.migrations).toBeGreaterThan(15);
    expect(manifest.app_version).toMatch(/^\d+\.\d+\.\d+/);

    // The audit events were sealed before the backup: the head hash covers them all.
    const chain = await verifyAuditChain(source.handle.db);
    expect(chain.unsealed).toBe(0);
    expect(manifest.audit_chain).toMatchObject({ ok: true, unsealed: 0, head_hash: chain.head_hash });
    expect(manifest.audit_chain.verified).toBeGreaterThanOrEqual(5);
  });

  it('restores into a fresh empty database: every row count, checksum, file and the audit head hash match', async () => {
    expect(await databaseHasData(fresh.url)).toBe(false);
    const result = await restoreDatabase(file, fresh.url);
    expect(result.mismatches).toEqual([]);
    expect(await databaseHasData(fresh.url)).toBe(true);

    // Compared with the source itself, not only with the manifest.
    const [from, to] = await Promise.all([inspectDatabase(source.url), inspectDatabase(fresh.url)]);
    expect(to.tables).toEqual(from.tables);
    expect(to.migrations).toBe(from.migrations);
    expect(to.audit_chain).toEqual(from.audit_chain);
    expect(to.files).toEqual({ count: 1, bytes: upload.length, damaged: 0 });

    // The uploaded file came back byte for byte.
    const restored = connectDatabase(fresh.url, { max: 1 });
    try {
      const stored = await readFile(restored.db, fileId);
      expect(stored?.data.equals(upload)).toBe(true);
      expect((await verifyAuditChain(restored.db)).head_hash).toBe(manifest.audit_chain.head_hash);
    } finally {
      await restored.close();
    }
  });

  it('names what differs: a changed row, a missing row, a damaged file, an extra table', async () => {
    expect((await restoreDatabase(file, target.url)).mismatches).toEqual([]);
    const restored = connectDatabase(target.url, { max: 1 });
    try {
      await restored.db.execute(sql`update users set first_name = 'Changed' where first_name = 'Zoë'`);
      expect(await verifyRestore(target.url, manifest)).toEqual([
        {
          subject: 'public.users',
          message: `has ${manifest.tables['public.users']!.rows} rows like the backup, but their content differs`,
        },
      ]);

      await restored.db.execute(sql`update stored_files set data = ${Buffer.from('tampered')}`);
      await restored.db.execute(sql`delete from audit_events where seq = (select max(seq) from audit_events)`);
      await restored.db.execute(sql`create table left_over (id int)`);
      const mismatches = await verifyRestore(target.url, manifest);
      const subjects = mismatches.map((m) => m.subject);
      expect(subjects).toEqual(
        expect.arrayContaining([
          'public.users',
          'public.stored_files',
          'public.audit_events',
          'public.left_over',
          'stored files',
          'audit trail',
        ]),
      );
      expect(mismatches.find((m) => m.subject === 'public.audit_events')?.message).toMatch(
        /^has \d+ rows, the backup \d+$/,
      );
      expect(mismatches.find((m) => m.subject === 'stored files')?.message).toBe(
        '1 uploaded files no longer match their SHA-256',
      );
      // What pg_restore --clean cannot remove: a table the backup does not know and partitioned tables like
      // pg-boss's ("cannot drop inherited constraint").
      await restored.db.execute(sql`create schema queue`);
      await restored.db.execute(
        sql`create table queue.job (id int, name text, primary key (name, id)) partition by list (name)`,
      );
      await restored.db.execute(sql`create table queue.job_a partition of queue.job for values in ('a')`);
      await restored.db.execute(sql`insert into queue.job values (1, 'a')`);
    } finally {
      await restored.close();
    }

    // Restoring again over the changed copy replaces everything: it matches the backup exactly.
    expect((await restoreDatabase(file, target.url)).mismatches).toEqual([]);
    const state = await inspectDatabase(target.url);
    expect(Object.keys(state.tables).sort()).toEqual(Object.keys(manifest.tables).sort());
  });

  it('a restore that fails part way changes nothing', async () => {
    expect((await restoreDatabase(file, target.url)).mismatches).toEqual([]);
    const client = new pg.Client({ connectionString: target.url });
    await client.connect();
    try {
      await client.query(`update projects set name = 'Before the failed restore'`);
      // Cut in its table of contents (pg_restore fails before any SQL: the emptying must not be committed), and in
      // the middle of the data (psql fails inside a COPY).
      for (const [bytes, reason] of [
        [4096, /pg_restore could not read the dump/],
        [Math.floor(manifest.dump.bytes * 0.6), /ERROR/],
      ] as const) {
        const truncated = path.join(dir, `truncated-${bytes}.dump`);
        fs.writeFileSync(truncated, fs.readFileSync(file).subarray(0, bytes));
        const failure = restoreDatabase(truncated, target.url, { manifest: null });
        await expect(failure).rejects.toThrow(/^The restore failed and changed nothing \(it runs in one transaction\)/);
        await expect(failure).rejects.toThrow(reason);
        const { rows } = await client.query<{ name: string }>('select name from projects');
        expect(rows.map((row) => row.name)).toEqual(['Before the failed restore']);
        expect((await verifyRestore(target.url, manifest)).map((m) => m.subject)).toEqual(['public.projects']);
      }
    } finally {
      await client.end();
    }
  });

  it('finds the database of a running embedded portal from its DATA_DIR', () => {
    const dataDir = fs.mkdtempSync(path.join(dir, 'data-'));
    expect(runningEmbeddedUrl(dataDir)).toBeUndefined();
    fs.mkdirSync(path.join(dataDir, 'postgres'));
    fs.writeFileSync(path.join(dataDir, 'postgres.password'), 'p@ss/word\n');
    fs.writeFileSync(
      path.join(dataDir, 'postgres', 'postmaster.pid'),
      `4242\n${dataDir}/postgres\n1700000000\n54321\n\n127.0.0.1\n  5432001         0\nready   \n`,
    );
    expect(runningEmbeddedUrl(dataDir)).toBe('postgres://postgres:p%40ss%2Fword@127.0.0.1:54321/portal');
  });

  it('refuses a damaged dump before touching the database, and says when pg_dump is missing', async () => {
    const damaged = path.join(dir, 'damaged.dump');
    const bytes = fs.readFileSync(file);
    bytes[bytes.length - 10] = (bytes[bytes.length - 10]! + 1) % 256;
    fs.writeFileSync(damaged, bytes);
    fs.copyFileSync(manifestPathFor(file), manifestPathFor(damaged));
    await expect(restoreDatabase(damaged, target.url)).rejects.toThrow(
      /does not match its manifest.*Nothing was restored/,
    );

    await expect(
      backupDatabase(source.url, path.join(dir, 'never.dump'), { pgBin: path.join(dir, 'no-bin') }),
    ).rejects.toThrow(/^pg_dump was not found in PG_BIN .*apt-get install postgresql-client/);
    expect(fs.existsSync(path.join(dir, 'never.dump'))).toBe(false);
  });

  it('npm run backup / restore: default file name, refusal without --yes, verification and exit codes', {
    timeout: 90_000,
  }, async () => {
    await restoreDatabase(file, target.url);
    const cwd = fs.mkdtempSync(path.join(dir, 'cli-'));
    const env = { DATA_DIR: path.join(cwd, 'data'), APP_KEY: `base64:${Buffer.alloc(32, 7).toString('base64')}` };

    const backup = await run('packages/server/src/cli/backup.ts', [], { ...env, DATABASE_URL: source.url }, cwd);
    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    const made = fs.readdirSync(path.join(cwd, 'backups'));
    const dump = made.find((name) => name.endsWith('.dump'))!;
    expect(dump).toMatch(/^portal-\d{8}-\d{6}\.dump$/);
    expect(made).toContain(`${dump}.manifest.json`);
    expect(backup.stdout).toContain(`Backup written: ${path.join('backups', dump)}`);
    expect(backup.stdout).toMatch(/\d+ tables, [\d,]+ rows, 1 uploaded files \(293 KB\)/);
    const dumpFile = path.join(cwd, 'backups', dump);

    // The target holds data: refused without --yes.
    const refused = await run(
      'packages/server/src/cli/restore.ts',
      [dumpFile],
      { ...env, DATABASE_URL: target.url },
      cwd,
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`This replaces every row of the database at ${new URL(target.url).hostname}`);
    expect(refused.stderr).toContain('Run again with --yes to go ahead.');

    const restored = await run(
      'packages/server/src/cli/restore.ts',
      [dumpFile, '--yes'],
      { ...env, DATABASE_URL: target.url },
      cwd,
    );
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    expect(restored.stdout).toMatch(/Verified: all \d+ tables and [\d,]+ rows match the backup/);
    expect(restored.stdout).toContain('1 uploaded files (293 KB) match their SHA-256');

    // A manifest that disagrees with the restored rows: restored, but reported, exit code 1.
    const manifestFile = manifestPathFor(dumpFile);
    const altered = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as BackupManifest;
    altered.tables['public.projects']!.checksum = '0'.repeat(32);
    fs.writeFileSync(manifestFile, JSON.stringify(altered));
    const mismatch = await run(
      'packages/server/src/cli/restore.ts',
      [dumpFile, '--yes'],
      { ...env, DATABASE_URL: target.url },
      cwd,
    );
    expect(mismatch.code).toBe(1);
    expect(mismatch.stderr).toContain('The restored database does NOT match the backup:');
    expect(mismatch.stderr).toContain('  - public.projects has');
  });
});
