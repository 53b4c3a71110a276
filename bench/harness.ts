// Shared pieces of the server benchmarks: a throw-away database on BENCH_DATABASE_URL (or an embedded PostgreSQL in
// a temporary folder), the real app on it driven through fastify.inject, and percentiles of repeated calls.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp } from '../packages/server/src/app.js';
import { loadConfig } from '../packages/server/src/config.js';
import { connectDatabase, type DatabaseHandle } from '../packages/server/src/db/client.js';
import { startEmbeddedPostgres } from '../packages/server/src/db/embedded-postgres.js';
import { runMigrations } from '../packages/server/src/db/migrate.js';
import { createAgent } from '../packages/server/test/agent.js';
import { TEST_PASSWORD } from '../packages/server/test/factories.js';
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
  const app = await buildApp({ config, database: handle, appKey: Buffer.alloc(32, 7), mailer: createMailbox() });
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
