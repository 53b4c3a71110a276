// Graceful shutdown: with requests in flight (authenticated GETs and a CSV upload whose body is still arriving),
// SIGTERM must let every one of them finish with 2xx, refuse new connections (or answer 503), and the process must
// exit within 10 s.
import http from 'node:http';
import path from 'node:path';
import {
  Client,
  createDatabase,
  freePort,
  killHard,
  logDir,
  newAppKey,
  type ServerProcess,
  sleep,
  startServer,
  waitReady,
} from './lib.js';
import { isMain, runAlone, type Summary } from './summary.js';

const DRAIN_LIMIT_MS = 10_000;
const GETS_IN_FLIGHT = Number(process.env.GRACEFUL_GETS ?? 40);
const UPLOAD_MS = 3_000;
const UPLOADS = 5;

const GET_PATHS = [
  '/api/projects/1/policy-management/admin-dashboard',
  '/api/projects/1/policy-management/my-tasks',
  '/api/projects/1/monitoring/datasets',
  '/api/user',
];

interface Outcome {
  status: number | 'error';
  detail?: string;
}

/** One GET, on its own new connection or on a kept-alive one of `agent`; answered or failed. */
function rawGet(baseUrl: string, url: string, cookie: string, agent: http.Agent | false = false): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = http.request(`${baseUrl}${url}`, { method: 'GET', agent, headers: { cookie } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
      res.on('error', (e) => resolve({ status: 'error', detail: e.message }));
    });
    req.on('error', (e) => resolve({ status: 'error', detail: (e as NodeJS.ErrnoException).code ?? e.message }));
    req.end();
  });
}

/** A CSV upload whose multipart body trickles in over `ms`: in flight for that long. */
function slowUpload(baseUrl: string, url: string, cookie: string, xsrf: string, ms: number): Promise<Outcome> {
  const boundary = `----resilience${Date.now()}`;
  const rows = ['Day,Ward,Falls'];
  for (let i = 0; i < 3000; i++) rows.push(`2024-01-${String((i % 28) + 1).padStart(2, '0')},W${i % 5},${i % 4}`);
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.csv"\r\nContent-Type: text/csv\r\n\r\n`;
  const body = Buffer.from(rows.join('\n'));
  const tail = `\r\n--${boundary}--\r\n`;
  const pieces = 20;
  return new Promise((resolve) => {
    const req = http.request(
      `${baseUrl}${url}`,
      {
        method: 'POST',
        agent: false,
        headers: {
          cookie,
          'x-xsrf-token': xsrf,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': Buffer.byteLength(head) + body.length + Buffer.byteLength(tail),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, detail: text }));
      },
    );
    req.on('error', (e) => resolve({ status: 'error', detail: (e as NodeJS.ErrnoException).code ?? e.message }));
    req.write(head);
    let i = 0;
    const size = Math.ceil(body.length / pieces);
    const timer = setInterval(() => {
      req.write(body.subarray(i * size, (i + 1) * size));
      i += 1;
      if (i === pieces) {
        clearInterval(timer);
        req.end(tail);
      }
    }, ms / pieces);
  });
}

export async function graceful(): Promise<Summary> {
  const db = await createDatabase('graceful');
  const port = await freePort();
  const failures: string[] = [];
  const figures: [string, string | number][] = [];
  let server: ServerProcess | undefined;
  try {
    server = startServer({
      port,
      databaseUrl: db.url,
      appKey: newAppKey(),
      logFile: path.join(logDir(), 'graceful-server.log'),
    });
    await waitReady(server);
    const admin = new Client(server.baseUrl);
    const login = await admin.login('admin@example.com');
    if (login.status !== 200) throw new Error(`sign-in failed: ${login.status} ${login.text}`);
    const dataset = await admin.post('/api/projects/1/monitoring/datasets', { name: 'Graceful upload' });
    const datasetId = (dataset.body as { id: number }).id;
    const cookie = [...admin.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const xsrf = decodeURIComponent(admin.jar.get('XSRF-TOKEN') ?? '');
    const base = server.baseUrl;

    // In flight: a slow upload (3 s of body) and a wave of GETs on their own connections, then SIGTERM.
    const uploads = Array.from({ length: UPLOADS }, () =>
      slowUpload(base, `/api/projects/1/monitoring/datasets/${datasetId}/imports`, cookie, xsrf, UPLOAD_MS),
    );
    await sleep(500);
    // The GETs go on connections the server has accepted already (kept alive from a first round), as behind a proxy.
    const agent = new http.Agent({ keepAlive: true, maxSockets: GETS_IN_FLIGHT });
    await Promise.all(Array.from({ length: GETS_IN_FLIGHT }, () => rawGet(base, '/healthz', cookie, agent)));
    const gets = Array.from({ length: GETS_IN_FLIGHT }, (_, i) =>
      rawGet(base, GET_PATHS[i % GET_PATHS.length]!, cookie, agent),
    );
    // Let the GETs reach the server before the signal.
    await sleep(50);
    const termAt = Date.now();
    server.child.kill('SIGTERM');
    // New work after the signal: a fresh connection must be refused or answered 503.
    await sleep(300);
    const late = await Promise.all(Array.from({ length: 5 }, () => rawGet(base, '/healthz', cookie)));
    const exit = await Promise.race([server.exited, sleep(DRAIN_LIMIT_MS + 5_000).then(() => undefined)]);
    const drainMs = Date.now() - termAt;
    const uploaded = await Promise.all(uploads);
    const answered = await Promise.all(gets);
    agent.destroy();

    // A GET the server had not started when the signal came is answered 503 (Connection: close) and a proxy retries
    // it elsewhere; none may be dropped without an answer.
    const okGets = answered.filter((o) => typeof o.status === 'number' && o.status >= 200 && o.status < 300).length;
    const refusedGets = answered.filter((o) => o.status === 503).length;
    const dropped = answered.filter((o) => !(typeof o.status === 'number' && (o.status < 300 || o.status === 503)));
    if (dropped.length) {
      failures.push(`${dropped.length} GET(s) cut without a proper answer: ${JSON.stringify(dropped.slice(0, 5))}`);
    }
    const okUploads = uploaded.filter((u) => u.status === 201);
    for (const u of uploaded.filter((x) => x.status !== 201)) {
      failures.push(`an in-flight upload answered ${u.status} ${u.detail?.slice(0, 200)}`);
    }
    const refused = late.filter(
      (o) => o.status === 503 || (o.status === 'error' && /ECONNREFUSED|ECONNRESET/.test(o.detail ?? '')),
    ).length;
    if (refused !== late.length) failures.push(`requests after SIGTERM were served: ${JSON.stringify(late)}`);
    if (!exit) failures.push(`the process did not exit within ${(DRAIN_LIMIT_MS + 5_000) / 1000} s`);
    else if (exit.code !== 0) failures.push(`the process exited with ${exit.code ?? exit.signal}`);
    if (drainMs > DRAIN_LIMIT_MS) failures.push(`shutdown took ${drainMs} ms (limit ${DRAIN_LIMIT_MS} ms)`);
    // The acknowledged uploads are in the database.
    for (const u of okUploads) {
      const id = (JSON.parse(u.detail ?? '{}') as { id?: number }).id ?? -1;
      const { rows } = await db.pool.query(`select id from mon_imports where id = $1 and status = 'uploaded'`, [id]);
      if (rows.length !== 1) failures.push(`the acknowledged upload ${id} is missing`);
    }
    figures.push(
      ['slow uploads in flight (3 s of body each)', uploaded.length],
      ['  completed 201 and stored', okUploads.length],
      ['GET wave sent just before SIGTERM', answered.length],
      ['  completed 2xx', okGets],
      ['  not started, answered 503 (proxy retries)', refusedGets],
      ['  cut without an answer', dropped.length],
      ['new requests after SIGTERM refused/503', `${refused}/${late.length}`],
      ['SIGTERM to exit (ms)', drainMs],
      ['exit code', String(exit?.code ?? exit?.signal ?? 'none')],
    );
  } finally {
    if (server) await killHard(server);
    await db.drop();
  }
  return { name: 'Graceful shutdown (SIGTERM with requests in flight)', ok: failures.length === 0, figures, failures };
}

if (isMain(import.meta.url)) runAlone(graceful);
