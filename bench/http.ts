// npm run bench: requests/s and p99 latency of /healthz and the public terms call on the real server and
// database, next to a bare Fastify hello-world measured in the same run. Ratios make runs on different machines
// comparable. Loopback only; every load is bounded in time.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { waitForOutput } from './harness.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;

async function load(url: string) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION });
  if (result.non2xx || result.errors)
    throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { rps: result.requests.average, p99: result.latency.p99 };
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitReady(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error('the portal exited before it was ready');
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('the portal did not become ready');
}

const portalPort = await freePort();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-'));
fs.chmodSync(dataDir, 0o755);
const portal = spawn(process.execPath, [path.join(root, 'packages/server/dist/main.js')], {
  env: { ...process.env, PORT: String(portalPort), DATA_DIR: dataDir, LOG_LEVEL: 'warn', DEMO_DATA: 'true' },
  stdio: ['ignore', 'pipe', 'pipe'],
});
const hello = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'bench/hello-fastify.ts')], {
  stdio: ['ignore', 'pipe', 'pipe'],
});

try {
  const [, helloPort] = await waitForOutput(hello, /listening (\d+)/);
  await waitReady(`http://127.0.0.1:${portalPort}/readyz`, portal);
  const targets = [
    { name: 'bare Fastify hello-world', url: `http://127.0.0.1:${helloPort}/` },
    { name: 'portal GET /healthz', url: `http://127.0.0.1:${portalPort}/healthz` },
    {
      name: 'portal GET /api/public/terms-and-conditions',
      url: `http://127.0.0.1:${portalPort}/api/public/terms-and-conditions`,
    },
  ];
  console.log(`autocannon: ${CONNECTIONS} connections, ${DURATION} s per target, ${os.cpus().length} cores\n`);
  const results = [];
  for (const target of targets) results.push({ ...target, ...(await load(target.url)) });
  const base = results[0]!;
  console.log(
    'target'.padEnd(46),
    'req/s'.padStart(9),
    'p99 ms'.padStart(8),
    'req/s ratio'.padStart(12),
    'p99 ratio'.padStart(10),
  );
  for (const r of results) {
    console.log(
      r.name.padEnd(46),
      r.rps.toFixed(0).padStart(9),
      r.p99.toFixed(1).padStart(8),
      (r.rps / base.rps).toFixed(2).padStart(12),
      (r.p99 / Math.max(base.p99, 0.001)).toFixed(2).padStart(10),
    );
  }
} finally {
  hello.kill('SIGTERM');
  portal.kill('SIGTERM');
  await new Promise((resolve) => portal.on('exit', resolve));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
