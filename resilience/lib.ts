// Shared pieces of the resilience suite (npm run test:resilience): a fresh PostgreSQL database per run, the built
// server as a child process, and a browser-like HTTP client (cookies, XSRF header, request ids).
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SERVER_MAIN = path.join(ROOT, 'packages/server/dist/main.js');
/** The demo accounts' published password (packages/server/src/seed/demo.ts). */
export const DEMO_PASSWORD = 'Kx7#qPv9!mZt2$Lw';
/** A superuser connection to the machine's PostgreSQL; each run creates and drops its own database there. */
export const PG_ADMIN_URL = process.env.RESILIENCE_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const randomInt = (min: number, max: number) => min + Math.floor(Math.random() * (max - min + 1));

export interface TestDatabase {
  name: string;
  url: string;
  pool: pg.Pool;
  drop(): Promise<void>;
}

/** A fresh empty database `portal_resilience_<tag>_<timestamp>` and a small pool on it for the checks. */
export async function createDatabase(tag: string): Promise<TestDatabase> {
  const name = `portal_resilience_${tag}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 4 });
  pool.on('error', () => {});
  return {
    name,
    url: url.toString(),
    pool,
    async drop() {
      await pool.end().catch(() => {});
      const c = new pg.Client({ connectionString: PG_ADMIN_URL });
      await c.connect();
      try {
        await c.query(`drop database if exists ${name} with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export const newAppKey = () => `base64:${randomBytes(32).toString('base64')}`;

export interface ServerOptions {
  port: number;
  databaseUrl: string;
  appKey: string;
  /** Where the process writes stdout/stderr (appended): kept for a post-mortem. */
  logFile: string;
  env?: Record<string, string>;
}

export interface ServerProcess {
  child: ChildProcess;
  baseUrl: string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts the built server on an external database (demo data on first start, captcha off, MFA not enforced). */
export function startServer(options: ServerOptions): ServerProcess {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-resilience-data-'));
  const log = fs.openSync(options.logFile, 'a');
  const child = spawn(process.execPath, [SERVER_MAIN], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(options.port),
      HOST: '127.0.0.1',
      DATABASE_URL: options.databaseUrl,
      DATA_DIR: dataDir,
      APP_KEY: options.appKey,
      DEMO_DATA: 'true',
      CAPTCHA_PROVIDER: 'off',
      MFA_GRACE_DAYS: '365',
      LOG_LEVEL: 'warn',
      ...options.env,
    },
    stdio: ['ignore', log, log],
  });
  fs.closeSync(log);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => {
      fs.rmSync(dataDir, { recursive: true, force: true });
      resolve({ code, signal });
    }),
  );
  return { child, baseUrl: `http://127.0.0.1:${options.port}`, exited };
}

/** Waits for GET /readyz to answer 200. */
export async function waitReady(server: ServerProcess, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null || server.child.signalCode !== null) {
      throw new Error(`the server on ${server.baseUrl} exited before it was ready`);
    }
    const ok = await fetch(`${server.baseUrl}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await sleep(100);
  }
  throw new Error(`the server on ${server.baseUrl} did not become ready within ${timeoutMs / 1000} s`);
}

export async function killHard(server: ServerProcess): Promise<void> {
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  await server.exited;
}

export interface Answer {
  status: number;
  ok: boolean;
  requestId: string | null;
  headers: Headers;
  body: unknown;
  text: string;
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A browser-like client: keeps cookies, sends X-XSRF-TOKEN on state-changing calls. */
export class Client {
  readonly jar = new Map<string, string>();
  constructor(public baseUrl: string) {}

  /** The same session on another instance. */
  on(baseUrl: string): Client {
    const other = new Client(baseUrl);
    for (const [k, v] of this.jar) other.jar.set(k, v);
    return other;
  }

  async request(
    method: string,
    url: string,
    body?: unknown,
    extra: { headers?: Record<string, string>; signal?: AbortSignal } = {},
  ): Promise<Answer> {
    const headers: Record<string, string> = { accept: 'application/json', ...extra.headers };
    if (this.jar.size) headers.cookie = [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const xsrf = this.jar.get('XSRF-TOKEN');
    if (STATE_CHANGING.has(method) && xsrf) headers['x-xsrf-token'] = decodeURIComponent(xsrf);
    let payload: BodyInit | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const res = await fetch(`${this.baseUrl}${url}`, {
      method,
      headers,
      ...(payload === undefined ? {} : { body: payload }),
      ...(extra.signal ? { signal: extra.signal } : {}),
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const cleared = value === '' || attrs.some((a) => /max-age=0\b/i.test(a.trim()));
      if (cleared) this.jar.delete(name);
      else this.jar.set(name, value);
    }
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON
    }
    return {
      status: res.status,
      ok: res.ok,
      requestId: res.headers.get('x-request-id'),
      headers: res.headers,
      body: parsed,
      text,
    };
  }

  get = (url: string) => this.request('GET', url);
  post = (url: string, body?: unknown) => this.request('POST', url, body ?? {});
  put = (url: string, body?: unknown) => this.request('PUT', url, body ?? {});
  patch = (url: string, body?: unknown) => this.request('PATCH', url, body ?? {});
  delete = (url: string) => this.request('DELETE', url);

  async csrf(): Promise<void> {
    const answer = await this.get('/sanctum/csrf-cookie');
    if (answer.status !== 204 && answer.status !== 200) throw new Error(`csrf-cookie answered ${answer.status}`);
  }

  /** Signs in through POST /login (captcha off), accepting the terms when asked. */
  async login(email: string, password = DEMO_PASSWORD): Promise<Answer> {
    if (!this.jar.has('XSRF-TOKEN')) await this.csrf();
    let answer = await this.post('/login', { email, password });
    if (answer.status !== 200 && /terms/i.test(answer.text)) {
      answer = await this.post('/login', { email, password, accept_terms: true });
    }
    return answer;
  }
}

/** Prints rows as an aligned table. */
export function printTable(title: string, rows: [string, string | number][]): void {
  const width = Math.max(...rows.map(([k]) => k.length));
  console.log(`\n${title}`);
  console.log('-'.repeat(width + 16));
  for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${String(v).padStart(12)}`);
  console.log('-'.repeat(width + 16));
}

/** Runs the audit trail verification CLI against the database (seals first, then walks the chain). */
export async function verifyAuditChain(databaseUrl: string): Promise<{ ok: boolean; output: string }> {
  const child = spawn(process.execPath, [path.join(ROOT, 'packages/server/dist/cli/audit-verify.js')], {
    env: { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: os.tmpdir(), LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { ok: code === 0, output: output.trim() };
}

export const logDir = () => {
  const dir = path.join(os.tmpdir(), `portal-resilience-logs-${process.pid}`);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
};
