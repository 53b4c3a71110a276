import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The server as an operator runs it: a real process on the embedded database in its own DATA_DIR.
 * Started from source with tsx so the test needs no build.
 */
const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-process-'));
fs.chmodSync(dataDir, 0o755);

interface Running {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function startServer(): Running {
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: { PATH: process.env.PATH, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function waitForUrl(server: Running): Promise<string> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    const match = server.output().match(/Server listening at (http:\/\/127\.0\.0\.1:\d+)/);
    if (match) return match[1]!;
    if (server.child.exitCode !== null) throw new Error(`server exited early:\n${server.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server did not start:\n${server.output()}`);
}

function postgresRunning(): boolean {
  try {
    const out = execFileSync('pgrep', ['-f', '--', `-D ${path.join(dataDir, 'postgres')}`], { encoding: 'utf8' });
    return out.trim().length > 0;
  } catch {
    return false;
  }
}

async function clusterQuery(sql: string): Promise<pg.QueryResult> {
  const pid = fs.readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n');
  const password = fs.readFileSync(path.join(dataDir, 'postgres.password'), 'utf8').trim();
  const client = new pg.Client({
    host: '127.0.0.1',
    port: Number(pid[3]),
    user: 'postgres',
    password,
    database: 'portal',
  });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

const started: Running[] = [];
afterAll(async () => {
  for (const server of started) if (server.child.exitCode === null) server.child.kill('SIGKILL');
  // Stop whatever a failed test left behind, then remove the folder.
  const pidFile = path.join(dataDir, 'postgres', 'postmaster.pid');
  if (fs.existsSync(pidFile)) {
    try {
      process.kill(Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]), 'SIGINT');
    } catch {}
  }
  await new Promise((r) => setTimeout(r, 1000));
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('the server process on the embedded database', () => {
  it('starts with demo data, refuses a second server on the same DATA_DIR, and stops cleanly on SIGTERM', async () => {
    const first = startServer();
    started.push(first);
    const url = await waitForUrl(first);
    const terms = (await (await fetch(`${url}/api/public/terms-and-conditions`)).json()) as { content: string };
    expect(terms.content).toContain('System use notification');
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    expect(first.output()).toContain('Demo accounts with a published password exist');

    const second = startServer();
    started.push(second);
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain('Another portal server');
    expect(second.output()).toContain(`is already running on the data directory ${dataDir}`);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);

    expect(postgresRunning()).toBe(true);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(postgresRunning()).toBe(false);
    expect(fs.existsSync(path.join(dataDir, 'server.lock'))).toBe(false);

    // Secrets never reach the log.
    const secrets = [
      fs.readFileSync(path.join(dataDir, 'postgres.password'), 'utf8').trim(),
      fs.readFileSync(path.join(dataDir, 'app.key'), 'utf8').trim().replace('base64:', ''),
    ];
    for (const secret of secrets) expect(first.output()).not.toContain(secret);
  }, 180_000);

  it('keeps its data through kill -9 and a restart, without creating demo data twice', async () => {
    const first = startServer();
    started.push(first);
    await waitForUrl(first);
    await clusterQuery("insert into audit_events (action) values ('test.durability_marker')");
    first.child.kill('SIGKILL');
    await first.exited;
    // The orphaned PostgreSQL keeps running after its parent dies.
    expect(postgresRunning()).toBe(true);

    const second = startServer();
    started.push(second);
    const url = await waitForUrl(second);
    expect(second.output()).toContain('Stopping the PostgreSQL left running by a previous server');
    const marker = await clusterQuery(
      "select count(*)::int as n from audit_events where action = 'test.durability_marker'",
    );
    expect(marker.rows[0].n).toBe(1);
    const users = await clusterQuery('select count(*)::int as n from users');
    expect(users.rows[0].n).toBe(6);
    expect((await fetch(`${url}/readyz`)).status).toBe(200);

    second.child.kill('SIGINT');
    expect(await second.exited).toBe(0);
    expect(postgresRunning()).toBe(false);
  }, 180_000);
});
