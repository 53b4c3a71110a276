// Shared pieces of the server benchmarks: a throw-away database on BENCH_DATABASE_URL (or an embedded PostgreSQL in
// a temporary folder), the real app on it driven through fastify.inject, and percentiles of repeated calls; and the
// built server and a bare Fastify hello-world as processes, loaded from outside.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { buildApp } from '../packages/server/src/app.js';
import { loadConfig } from '../packages/server/src/config.js';
import { connectDatabase, type DatabaseHandle } from '../packages/server/src/db/client.js';
import { startEmbeddedPostgres } from '../packages/server/src/db/embedded-postgres.js';
import { runMigrations } from '../packages/server/src/db/migrate.js';
import { systemClock } from '../packages/server/src/lib/clock.js';
import { DEMO_PASSWORD } from '../packages/server/src/seed/demo.js';
import { createAgent } from '../packages/server/test/agent.js';
import { addMember, createProject, setMainRole, TEST_PASSWORD } from '../packages/server/test/factories.js';
import { createMailbox } from '../packages/server/test/mailbox.js';

export const RUNS = Number(process.env.BENCH_RUNS ?? 200);

export function percentile(values: number[], p: number) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Runs `body` on a migrated database of its own, dropped afterwards. */
export async function withBenchDatabase(body: (handle: DatabaseHandle, url: string) => Promise<void>) {
  let serverUrl = process.env.BENCH_DATABASE_URL;
  let stopEmbedded: (() => Promise<void>) | undefined;
  if (!serverUrl) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-pg-'));
    fs.chmodSync(dataDir, 0o755);
    const embedded = await startEmbeddedPostgres({ dataDir, database: 'postgres' });
    serverUrl = embedded.urlFor('postgres');
    stopEmbedded = async () => {
      await embedded.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    };
  }
  const name = `portal_bench_${process.pid}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = connectDatabase(url.toString(), { max: 10 });
  try {
    await runMigrations(handle.pool);
    await body(handle, url.toString());
  } finally {
    await handle.close();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
    await stopEmbedded?.();
  }
}

/** The real app on the bench database, and a way to sign people in to it. */
export async function benchApp(handle: DatabaseHandle, url: string) {
  const config = loadConfig({
    DATABASE_URL: url,
    DATA_DIR: path.join(os.tmpdir(), 'portal-bench-data'),
    LOG_LEVEL: 'silent',
    CAPTCHA_PROVIDER: 'off',
  });
  const appKey = Buffer.alloc(32, 7);
  const mailer = createMailbox(() => handle.db, systemClock, appKey);
  const app = await buildApp({ config, database: handle, appKey, mailer });
  await app.ready();
  const signIn = async (email: string) => {
    const agent = createAgent(app);
    const login = await agent.login(email, TEST_PASSWORD);
    if (login.statusCode !== 200) throw new Error(`sign-in failed: ${login.body}`);
    return agent;
  };
  return { app, signIn };
}

/** p50 and p95 of RUNS calls (after ten that warm caches and plans); any answer but 200 stops the bench. */
export async function measure(
  agent: Awaited<ReturnType<Awaited<ReturnType<typeof benchApp>>['signIn']>>,
  urlFor: (i: number) => string,
) {
  const times: number[] = [];
  for (let i = 0; i < RUNS + 10; i++) {
    const start = performance.now();
    const answer = await agent.get(urlFor(i));
    const elapsed = performance.now() - start;
    if (answer.statusCode !== 200) throw new Error(`${urlFor(i)}: ${answer.statusCode} ${answer.body}`);
    if (i >= 10) times.push(elapsed);
  }
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

/** One line of figures against a p95 target, as a ratio of it. */
export function line(label: string, t: { p50: number; p95: number }, target: number) {
  return (
    `${label.padEnd(44)} p50 ${t.p50.toFixed(1).padStart(6)} ms  p95 ${t.p95.toFixed(1).padStart(6)} ms  ` +
    `(target p95 < ${target} ms: ${(t.p95 / target).toFixed(2)} of it) ${t.p95 < target ? 'OK' : 'OVER'}`
  );
}

// ------------------------------------------------------------------------------------------------------------------
// The built server and a bare Fastify hello-world as processes of their own, for load from outside (autocannon,
// a browser). Used by bench/budgets.ts.

export const benchRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Resolves with the first match of `pattern` in the child's output; rejects if it exits first. */
export function waitForOutput(child: ChildProcess, pattern: RegExp): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk;
      const match = output.match(pattern);
      if (match) resolve(match);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => reject(new Error(`exited with ${code} before ready:\n${output}`)));
  });
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitReady(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the portal exited before it was ready:\n${output()}`);
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the portal did not become ready:\n${output()}`);
}

export interface RunningProcess {
  origin: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * The built portal (packages/server/dist/main.js) on its embedded PostgreSQL in a fresh temporary DATA_DIR, with the
 * demo data; `env` adds or overrides settings (CAPTCHA_PROVIDER=off for load), `nodeArgs` go to Node (--cpu-prof).
 * The folder is removed at stop.
 */
export async function startPortal(
  env: Record<string, string> = {},
  options: { nodeArgs?: string[] } = {},
): Promise<RunningProcess> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-'));
  fs.chmodSync(dataDir, 0o755); // the postgres user must reach the cluster inside
  const child = spawn(
    process.execPath,
    [...(options.nodeArgs ?? []), path.join(benchRoot, 'packages/server/dist/main.js')],
    {
      env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn', DEMO_DATA: 'true', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const origin = `http://127.0.0.1:${port}`;
  try {
    await waitReady(`${origin}/readyz`, child, () => output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { origin, child, stop };
}

/** A bench script run with tsx in a process of its own, ready once it prints `listening <port>`. */
export async function startScript(script: string, env: Record<string, string> = {}): Promise<RunningProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(benchRoot, script)], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const [, port] = await waitForOutput(child, /listening (\d+)/);
  return {
    origin: `http://127.0.0.1:${port}`,
    child,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** bench/hello-fastify.ts in a process of its own: the baseline of the throughput ratios. */
export const startHelloWorld = () => startScript('bench/hello-fastify.ts');

/** autocannon for `seconds` on `connections` connections: mean requests/s and latency percentiles (ms). */
export async function loadTest(
  url: string,
  options: { connections: number; seconds: number; headers?: Record<string, string> },
) {
  const result = await autocannon({
    url,
    connections: options.connections,
    duration: options.seconds,
    ...(options.headers ? { headers: options.headers } : {}),
  });
  if (result.non2xx || result.errors || result.timeouts)
    throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts`);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
  };
}

/** 5,000 numbered published documents in a project: 50 chapters x 10 sections x (1 + 9 subsections). */
export async function insertTocDocuments(pool: pg.Pool, projectId: number): Promise<void> {
  await pool.query(
    `insert into policy_documents (project_id, number, title, status, search_text)
     select $1, c || case when s = 0 then '' else '.' || s end || case when t = 0 then '' else '.' || t end,
            'Policy ' || c || '.' || s || '.' || t, 'published', ''
       from generate_series(1, 55) c, generate_series(0, 9) s, generate_series(0, 9) t
      where not (s = 0 and t > 0)
      limit 5000`,
    [projectId],
  );
}

/** A project of 5,000 numbered policies (insertTocDocuments) where `userId` is a policy admin; its id. */
export async function seedTocProject(handle: Pick<DatabaseHandle, 'db' | 'pool'>, userId: number): Promise<number> {
  const toc = await createProject(handle.db, { name: 'TOC', activeApps: ['policy_management'] });
  await addMember(handle.db, toc.id, userId, 'simple');
  await setMainRole(handle.db, toc.id, userId, 'policy_management', 'policy_admin');
  await insertTocDocuments(handle.pool, toc.id);
  await handle.pool.query('analyze policy_documents');
  return toc.id;
}

/** A cookie jar over fetch, as the web's API client behaves (X-XSRF-TOKEN from the XSRF-TOKEN cookie). */
export function client(origin: string) {
  const jar = new Map<string, string>();
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  async function call(method: string, url: string, body?: unknown): Promise<unknown> {
    const headers: Record<string, string> = {};
    if (jar.size) headers.cookie = cookie();
    if (method !== 'GET' && jar.has('XSRF-TOKEN')) headers['x-xsrf-token'] = decodeURIComponent(jar.get('XSRF-TOKEN')!);
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(origin + url, {
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    for (const set of response.headers.getSetCookie()) {
      const [pair] = set.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(set)) jar.delete(name);
      else jar.set(name, value);
    }
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${origin}${url}: ${response.status} ${text.slice(0, 300)}`);
    return text ? (JSON.parse(text) as unknown) : null;
  }
  return {
    cookie,
    get: (url: string) => call('GET', url),
    post: (url: string, body: unknown) => call('POST', url, body),
    async login(email: string) {
      await call('GET', '/sanctum/csrf-cookie');
      return call('POST', '/login', { email, password: DEMO_PASSWORD, accept_terms: true });
    },
  };
}
export type Client = ReturnType<typeof client>;
