// Several instances: three servers behind nginx (loopback) on one PostgreSQL. Sessions, live notifications,
// lockouts, rate limits and jobs behave as with one; killing one instance during a load run costs under 1% of
// requests. Needs nginx (Debian: apt-get install -y nginx; installed here when missing and running as root).
import { type ChildProcess, execSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import {
  Client,
  createDatabase,
  DEMO_PASSWORD,
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

const LOAD_SECONDS = Number(process.env.MULTI_LOAD_SECONDS ?? 20);
const LOAD_CONNECTIONS = Number(process.env.MULTI_LOAD_CONNECTIONS ?? 20);
const MAX_ERROR_RATE = 0.01;

function nginxBinary(): string {
  const find = () => {
    for (const candidate of ['/usr/sbin/nginx', '/usr/bin/nginx', '/usr/local/sbin/nginx']) {
      if (fs.existsSync(candidate)) return candidate;
    }
    return undefined;
  };
  let found = find();
  if (!found && process.getuid?.() === 0 && fs.existsSync('/usr/bin/apt-get')) {
    console.log('nginx is missing: apt-get install -y nginx');
    execSync('apt-get install -y nginx', {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    found = find();
  }
  if (!found) {
    throw new Error(
      'nginx is required for the multi-instance test: install it (Debian: sudo apt-get install -y nginx)',
    );
  }
  return found;
}

/** The configuration documented in docs/deployment.md, with temp paths so it runs unprivileged in a temp dir. */
export function nginxConfig(dir: string, listenPort: number, upstreams: number[]): string {
  return `worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  log_format upstream '$request_method $request_uri $status $upstream_addr $upstream_status';
  access_log ${dir}/access.log upstream;

  upstream portal {
${upstreams.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=10s;`).join('\n')}
    keepalive 64;
  }

  server {
    listen 127.0.0.1:${listenPort};
    client_max_body_size 110m;

    proxy_http_version 1.1;
    proxy_set_header Connection "";
    proxy_set_header Host $http_host;
    # Overwrite, never append: the client cannot smuggle an address past the proxy (TRUST_PROXY trusts this hop).
    proxy_set_header X-Forwarded-For $remote_addr;
    proxy_set_header X-Forwarded-Proto $scheme;
    proxy_connect_timeout 2s;
    # A dead or stopping instance: try the next one. nginx never retries a POST/PUT/PATCH/DELETE that was sent
    # (no "non_idempotent"), so a write is never applied twice.
    proxy_next_upstream error timeout http_502 http_503;
    proxy_next_upstream_tries 3;

    location = /api/notifications/stream {
      proxy_pass http://portal;
      proxy_buffering off;
      proxy_cache off;
      proxy_read_timeout 1h;
    }

    location / {
      proxy_pass http://portal;
    }
  }
}
`;
}

/**
 * Asks `read` again until `done` holds of its answer or `ms` have passed: an instance forgets the access it keeps
 * when PostgreSQL's notice of a change reaches it (decision record 029), milliseconds after the change.
 */
async function until<T>(ms: number, read: () => Promise<T>, done: (answer: T) => boolean) {
  const started = Date.now();
  for (;;) {
    const answer = await read();
    const took = Date.now() - started;
    if (done(answer) || took > ms) return { answer, took };
    await sleep(20);
  }
}

/** Reads a server-sent events stream until `event: notification` arrives; answers the time it took. */
async function waitForNotification(
  client: Client,
  ready: () => void,
  timeoutMs: number,
): Promise<{ ok: boolean; detail: string }> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const cookie = [...client.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(`${client.baseUrl}/api/notifications/stream`, {
      headers: { cookie, accept: 'text/event-stream' },
      signal: controller.signal,
    });
    if (res.status !== 200 || !res.body) return { ok: false, detail: `stream answered ${res.status}` };
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let text = '';
    let connected = false;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return { ok: false, detail: 'stream ended' };
      text += decoder.decode(value);
      if (!connected && text.includes(': connected')) {
        connected = true;
        ready();
      }
      const match = text.match(/event: notification\ndata: (.*)\n/);
      if (match) {
        controller.abort();
        return { ok: true, detail: match[1]!.slice(0, 120) };
      }
    }
  } catch (error) {
    return { ok: false, detail: controller.signal.aborted ? 'no notification in time' : String(error) };
  } finally {
    clearTimeout(timer);
  }
}

export async function multiInstance(): Promise<Summary> {
  const nginx = nginxBinary();
  const db = await createDatabase('multi');
  const appKey = newAppKey();
  const logs = logDir();
  const failures: string[] = [];
  const figures: [string, string | number][] = [];
  const check = (name: string, ok: boolean, detail = '') => {
    figures.push([name, ok ? 'ok' : 'FAIL']);
    if (!ok) failures.push(`${name}${detail ? `: ${detail}` : ''}`);
  };
  const ports = [await freePort(), await freePort(), await freePort()];
  const proxyPort = await freePort();
  const servers: ServerProcess[] = [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-nginx-'));
  let proxy: ChildProcess | undefined;
  const start = (i: number) =>
    startServer({
      port: ports[i]!,
      databaseUrl: db.url,
      appKey,
      logFile: path.join(logs, `instance-${i + 1}.log`),
      env: { TRUST_PROXY: '127.0.0.1', APP_URL: `http://127.0.0.1:${proxyPort}` },
    });
  try {
    // The first instance migrates and seeds; the other two start together on the ready database.
    servers.push(start(0));
    await waitReady(servers[0]!);
    servers.push(start(1), start(2));
    await Promise.all(servers.slice(1).map((s) => waitReady(s)));
    const startedAt = Date.now();

    fs.writeFileSync(path.join(dir, 'nginx.conf'), nginxConfig(dir, proxyPort, ports));
    proxy = spawn(nginx, ['-p', dir, '-c', path.join(dir, 'nginx.conf')], { stdio: ['ignore', 'inherit', 'inherit'] });
    const viaProxy = `http://127.0.0.1:${proxyPort}`;
    for (let i = 0; i < 100; i++) {
      if (
        await fetch(`${viaProxy}/readyz`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      await sleep(100);
    }
    const direct = servers.map((s) => s.baseUrl);
    console.log(`multi-instance: nginx on ${viaProxy} -> ${ports.join(', ')}; database ${db.name}; logs ${logs}`);

    // Sessions: signed in on instance 1, the same cookie works on 2, 3 and through nginx; signed out on 3,
    // instance 1 no longer knows it.
    const admin = new Client(direct[0]!);
    const login = await admin.login('admin@example.com');
    const seen = await Promise.all([...direct, viaProxy].map((u) => admin.on(u).get('/api/user')));
    check(
      'session from instance 1 accepted by 2, 3 and nginx',
      login.status === 200 && seen.every((a) => a.status === 200),
      seen.map((a) => a.status).join(','),
    );
    const other = new Client(direct[0]!);
    await other.login('member@example.com');
    // Instance 1 keeps the session it read (decision record 029) until it hears of the sign-out.
    await other.get('/api/user');
    const out = await other.on(direct[2]!).post('/logout');
    const after = await until(
      1000,
      () => other.get('/api/user'),
      (a) => a.status === 401,
    );
    check(
      'sign-out on instance 3 ends the session on instance 1 within a second',
      out.status === 204 && after.answer.status === 401,
      `${out.status} then ${after.answer.status} after ${after.took} ms`,
    );

    // Page access kept between reads (decision records 028, 029): the reader reads a page on every instance, so each
    // keeps the project's page access; the admin restricts it to the reader on instance 1, then takes the grant
    // away. Each change holds on instance 1 at its next read, on instances 2 and 3 within a second.
    const mon = '/api/projects/1/monitoring';
    const reader = new Client(direct[0]!);
    await reader.login('reader@example.com');
    const readerId = ((await reader.get('/api/user')).body as { id: number }).id;
    // An open page without grants of its own, so that setting it back leaves it as it was.
    const rows = (await admin.get(`${mon}/page-permissions`)).body as {
      pages: { id: number; open: boolean; grants: unknown[] }[];
    };
    const open = rows.pages.find((p) => p.open && p.grants.length === 0)!;
    const everywhere = () =>
      Promise.all(
        direct.map((u) =>
          reader
            .on(u)
            .get(`${mon}/pages/${open.id}/charts`)
            .then((a) => a.status),
        ),
      );
    const warm = await everywhere();
    await admin.put(`${mon}/pages/${open.id}/permissions`, {
      restricted: true,
      grants: [{ user_id: readerId, level: 'view' }],
    });
    const granted = await until(1000, everywhere, (all) => all.every((s) => s === 200));
    const taken = await admin.put(`${mon}/pages/${open.id}/permissions`, { restricted: true, grants: [] });
    const onFirst = await reader.on(direct[0]!).get(`${mon}/pages/${open.id}/charts`);
    const refused = await until(1000, everywhere, (all) => all.every((s) => s === 404));
    await admin.put(`${mon}/pages/${open.id}/permissions`, { restricted: false, grants: [] });
    const back = await until(1000, everywhere, (all) => all.every((s) => s === 200));
    check(
      'a page grant taken away on instance 1 is refused there at once, on 2 and 3 within a second',
      warm.every((s) => s === 200) &&
        granted.answer.every((s) => s === 200) &&
        taken.status === 200 &&
        onFirst.status === 404 &&
        refused.answer.every((s) => s === 404) &&
        back.answer.every((s) => s === 200),
      `warm ${warm} granted ${granted.answer} taken ${taken.status} on 1 ${onFirst.status} refused ${refused.answer} in ${refused.took} ms back ${back.answer}`,
    );

    // A member removed from the project on instance 1 is refused there at once, on 2 and 3 within a second, though
    // each kept the member's access from the read before (decision record 029).
    const simple = new Client(direct[0]!);
    await simple.login('simple@example.com');
    const simpleId = ((await simple.get('/api/user')).body as { id: number }).id;
    const projectRead = () =>
      Promise.all(
        direct.map((u) =>
          simple
            .on(u)
            .get('/api/projects/1/notifications/')
            .then((a) => a.status),
        ),
      );
    const member = await projectRead();
    const superadmin = new Client(direct[0]!);
    await superadmin.login('superadmin@example.com');
    const removed = await superadmin.delete(`/super/projects/1/members/${simpleId}`);
    const removedOnFirst = await simple.on(direct[0]!).get('/api/projects/1/notifications/');
    const gone = await until(1000, projectRead, (all) => all.every((s) => s === 404));
    check(
      'a member removed on instance 1 is refused there at once, on 2 and 3 within a second',
      member.every((s) => s === 200) &&
        removed.status === 204 &&
        removedOnFirst.status === 404 &&
        gone.answer.every((s) => s === 404),
      `member ${member} removed ${removed.status} on 1 ${removedOnFirst.status} then ${gone.answer} in ${gone.took} ms`,
    );

    // Whole answers kept between reads (decision record 032): the admin reads the policy table of contents on every
    // instance, so each keeps it; a policy renamed on instance 1 shows there at once, on 2 and 3 within a second.
    const toc = '/api/projects/1/policy-management/documents';
    const tocEverywhere = () =>
      Promise.all(
        direct.map((u) =>
          admin
            .on(u)
            .get(toc)
            .then((a) => a.body as { id: number; title: string }[]),
        ),
      );
    const tocBefore = await tocEverywhere();
    const policy = tocBefore[0]![0]!;
    const newTitle = `${policy.title} (renamed)`;
    const titled = (all: { id: number; title: string }[][], title: string) =>
      all.every((rows) => rows.find((row) => row.id === policy.id)?.title === title);
    const renamed = await admin.patch(`${toc}/${policy.id}`, { title: newTitle });
    const renamedOnFirst = await admin.get(toc);
    const shown = await until(1000, tocEverywhere, (all) => titled(all, newTitle));
    const renamedBack = await admin.patch(`${toc}/${policy.id}`, { title: policy.title });
    check(
      'a policy renamed on instance 1 shows in the kept table of contents there at once, on 2 and 3 within a second',
      renamed.status === 200 &&
        titled([renamedOnFirst.body as { id: number; title: string }[]], newTitle) &&
        titled(shown.answer, newTitle) &&
        renamedBack.status === 200,
      `renamed ${renamed.status} then shown everywhere in ${shown.took} ms, back ${renamedBack.status}`,
    );

    // Live notifications: the reviewer listens on instance 2 and through nginx; the admin sends a policy to review
    // on instance 1; PostgreSQL LISTEN/NOTIFY carries it to both streams.
    const reviewer = new Client(direct[1]!);
    await reviewer.login('reviewer@example.com');
    let readyCount = 0;
    const readies: Promise<void>[] = [];
    const streams = [reviewer, reviewer.on(viaProxy)].map((c) => {
      let markReady!: () => void;
      readies.push(new Promise<void>((r) => (markReady = r)));
      return waitForNotification(
        c,
        () => {
          readyCount += 1;
          markReady();
        },
        15_000,
      );
    });
    await Promise.race([Promise.all(readies), sleep(10_000)]);
    const pol = '/api/projects/1/policy-management';
    const departments = (await admin.get(`${pol}/departments`)).body as { departments: { id: number; code: string }[] };
    const ipc = departments.departments.find((d) => d.code === 'IPC')!;
    const sentAt = Date.now();
    const doc = await admin.post(`${pol}/documents`, {
      title: 'Live notice',
      department_id: ipc.id,
      content: '<p>x</p>',
    });
    const sent = await admin.post(`${pol}/documents/${(doc.body as { id: number }).id}/send-to-review`, {});
    const [onTwo, onProxy] = await Promise.all(streams);
    const latency = Date.now() - sentAt;
    check(
      'notification from instance 1 reaches SSE on instance 2',
      sent.status === 200 && readyCount === 2 && onTwo!.ok,
      onTwo!.detail,
    );
    check('notification reaches SSE through nginx (no buffering)', onProxy!.ok, onProxy!.detail);
    figures.push(['  notification latency (ms)', latency]);

    // Lockout: 10 failed sign-ins spread over the three instances (from 5 addresses, 2 each, so no per-address
    // throttle hides them) lock the account everywhere, even for the right password from a new address.
    let failed = 0;
    for (let i = 0; i < 10; i++) {
      const c = new Client(direct[i % 3]!);
      await c.csrf();
      const a = await c.request(
        'POST',
        '/login',
        { email: 'simple@example.com', password: 'wrong password' },
        {
          headers: { 'x-forwarded-for': `10.0.0.${Math.floor(i / 2) + 1}` },
        },
      );
      if (a.status === 422 || a.status === 401) failed += 1;
    }
    const lockedOn = await Promise.all(
      direct.map(async (u, i) => {
        const c = new Client(u);
        await c.csrf();
        const a = await c.request(
          'POST',
          '/login',
          { email: 'simple@example.com', password: DEMO_PASSWORD },
          { headers: { 'x-forwarded-for': `10.0.1.${i + 1}` } },
        );
        return a.status;
      }),
    );
    check(
      'lockout after 10 failures spread over 3 instances holds on all',
      failed === 10 && lockedOn.every((s) => s === 429),
      `failures counted ${failed}, right password then answered ${lockedOn.join(',')}`,
    );

    // Throttle through nginx: 5 failures for one account from one client over round-robin instances, the 6th
    // attempt is refused; a forged X-Forwarded-For does not get around it (nginx overwrites it).
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const c = new Client(viaProxy);
      await c.csrf();
      const a = await c.request(
        'POST',
        '/login',
        { email: 'reader@example.com', password: 'wrong password' },
        { headers: { 'x-forwarded-for': `192.0.2.${i + 1}` } },
      );
      statuses.push(a.status);
    }
    check(
      'per-address throttle through nginx (5 failures, then 429; forged XFF ignored)',
      statuses.slice(0, 5).every((s) => s === 422 || s === 401) && statuses[5] === 429,
      statuses.join(','),
    );

    // Rate limit: /check-terms allows 30 a minute per address, counted in PostgreSQL across the instances.
    const rl: number[] = [];
    for (let i = 0; i < 34; i++) {
      rl.push((await fetch(`${viaProxy}/check-terms?email=admin%40example.com`)).status);
    }
    const allowed = rl.filter((s) => s === 200).length;
    check(
      'rate limit shared (30/min on /check-terms through nginx)',
      allowed <= 30 && rl.slice(-4).every((s) => s === 429),
      `${allowed} allowed, last ${rl.slice(-4).join(',')}`,
    );
    const access = fs.readFileSync(path.join(dir, 'access.log'), 'utf8');
    const upstreamsUsed = new Set(
      access
        .split('\n')
        .filter((l) => l.includes('/check-terms') || l.includes('/login'))
        .map((l) => l.split(' ')[3]),
    );
    check('those requests were spread over the 3 instances', upstreamsUsed.size === 3, [...upstreamsUsed].join(' '));

    // Load: authenticated GETs through nginx for LOAD_SECONDS; instance 3 is killed with SIGKILL halfway.
    const cookie = [...admin.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const paths = [
      '/api/user',
      `${pol}/my-tasks`,
      `${pol}/departments`,
      '/api/projects/1/monitoring/datasets',
      '/api/projects/1/notifications',
    ];
    let killedAt = 0;
    const killer = setTimeout(
      () => {
        killedAt = Date.now();
        servers[2]!.child.kill('SIGKILL');
      },
      (LOAD_SECONDS * 1000) / 2,
    );
    const result = await autocannon({
      url: viaProxy,
      connections: LOAD_CONNECTIONS,
      duration: LOAD_SECONDS,
      headers: { cookie, accept: 'application/json' },
      requests: paths.map((p) => ({ method: 'GET' as const, path: p })),
    });
    clearTimeout(killer);
    const ok = result['2xx'];
    const bad = result.non2xx + result.errors + result.timeouts;
    const total = ok + bad;
    const rate = total ? bad / total : 1;
    figures.push(
      ['load: requests through nginx', total],
      ['  2xx', ok],
      ['  non-2xx', result.non2xx],
      ['  errors + timeouts', result.errors + result.timeouts],
      ['  error rate (%)', (rate * 100).toFixed(3)],
      ['  requests/s', result.requests.average.toFixed(0)],
      ['  p99 latency (ms)', result.latency.p99],
      [
        '  instance 3 killed at (s)',
        killedAt ? ((killedAt - (Date.now() - LOAD_SECONDS * 1000)) / 1000).toFixed(1) : 'no',
      ],
    );
    check(`load with one instance killed: errors < ${MAX_ERROR_RATE * 100}%`, killedAt > 0 && rate < MAX_ERROR_RATE);
    const survivors = await Promise.all(direct.slice(0, 2).map((u) => fetch(`${u}/readyz`).then((r) => r.status)));
    check(
      'the two other instances still ready',
      survivors.every((s) => s === 200),
      survivors.join(','),
    );

    // Jobs: pg-boss runs each job once for the three instances: one start-up reminder run, one audit-chain job per
    // minute, no reminder email twice.
    const waitMs = 65_000 - (Date.now() - startedAt);
    if (waitMs > 0) await sleep(waitMs);
    const q = async <T>(text: string) => (await db.pool.query(text)).rows as T[];
    const startup = await q<{ n: string }>(
      // The key names the clock's day (jobs/index.ts): startup-YYYY-MM-DD.
      `select count(*) as n from pgboss.job where name = 'policy-review-reminders' and singleton_key like 'startup-%'`,
    );
    // pg-boss 10 schedules from one instance at a time (cron jobs carry no singleton slot): one job per minute.
    const dupMinutes = await q<{ minute: string; n: string }>(
      `select date_trunc('minute', created_on) as minute, count(*) as n from pgboss.job where name = 'audit-chain'
       group by 1 having count(*) > 1`,
    );
    const chainRuns = await q<{ n: string }>(
      `select count(*) as n from pgboss.job where name = 'audit-chain' and state = 'completed'`,
    );
    const dupMails = await q<{ to_address: string; subject: string; n: string }>(
      `select to_address, subject, count(*) as n from email_log where subject like '%olicy review%'
       group by 1, 2 having count(*) > 1`,
    );
    const reminders = await q<{ n: string }>(`select count(*) as n from email_log where subject like '%olicy review%'`);
    check('start-up reminder job created once for 3 instances', Number(startup[0]?.n) === 1, `${startup[0]?.n} jobs`);
    check('audit-chain cron: one job per minute', dupMinutes.length === 0, JSON.stringify(dupMinutes));
    check('audit-chain job ran', Number(chainRuns[0]?.n) >= 1, `${chainRuns[0]?.n} completed`);
    check('no reminder email sent twice', dupMails.length === 0, JSON.stringify(dupMails));
    figures.push(['  reminder emails sent', Number(reminders[0]?.n)], ['  audit-chain runs', Number(chainRuns[0]?.n)]);
  } finally {
    proxy?.kill('SIGTERM');
    for (const s of servers) await killHard(s);
    await db.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return { name: 'Several instances behind nginx', ok: failures.length === 0, figures, failures };
}

if (isMain(import.meta.url)) runAlone(multiInstance);
