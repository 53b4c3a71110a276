// npm run bench:floor: the portal's authenticated reads against their floor (issue 31). The floor
// (bench/floor-server.ts) is a bare server in a process of its own that runs only the SQL the portal runs for each
// read's data, as named prepared statements, with no session, access or permission check, on the same database. The
// built portal runs on a throw-away database holding the demo facility, 40 notifications of the signed-in member and
// a project of 5,000 policies. Both are loaded from outside with autocannon, 50 connections, BENCH_SECONDS (default 5)
// per load, floor then portal for BENCH_ROUNDS rounds (default and least 2), with Chromium's Accept-Encoding (the
// portal compresses large answers, the bare floor never does; BENCH_ACCEPT_ENCODING= sends none). Each read prints requests/s, p50 and p99 of both
// (means of the rounds), portal/floor requests/s, the size of an answer as sent by each, and the PostgreSQL transactions per portal request: those of
// the bench database during the portal loads, the floor idle, once every connection has written its statistics, less
// the background jobs' rate counted idle, divided by the requests sent. Then the targets, printed, never fatal: portal
// >= 0.5 x floor requests/s, portal p99 <= 50 ms, <= 2 transactions per request. Any answer but 2xx stops the bench
// with an error. The reads: the notifications list, a policy document, the policy table of contents, the standards
// tree of the CMS framework with an assessment, a monitoring page (its calls in turn on each connection), My reviews;
// BENCH_ONLY=notifications,document,toc,standards,monitoring,reviews picks some; BENCH_SPLIT=1 measures each call of
// the monitoring page on its own; BENCH_PORTAL_NODE_ARGS go to the
// portal's Node (e.g. --cpu-prof --cpu-prof-dir=/tmp/prof). The portal keeps the answers of all six reads between
// reads (decision record 032); ANSWER_CACHE_SECONDS=0 measures what they cost
// when nothing is kept (the first read after a change). Uses BENCH_DATABASE_URL (a server
// URL, e.g. postgres://postgres@127.0.0.1:5432/postgres) or an embedded PostgreSQL in a temporary folder.
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import autocannon from 'autocannon';
import pg from 'pg';
import { DEMO_PROJECT, seedDemoData } from '../packages/server/src/seed/demo.js';
import type { FloorIds } from './floor-server.js';
import {
  type Client,
  client,
  type RunningProcess,
  seedTocProject,
  startPortal,
  startScript,
  withBenchDatabase,
} from './harness.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Math.max(2, Number(process.env.BENCH_ROUNDS ?? 2));
const CONNECTIONS = 50;
const TARGET = { ratio: 0.5, p99Ms: 50, transactions: 2 };
/** Chromium's, unless BENCH_ACCEPT_ENCODING says otherwise (empty: plain answers from both). */
const BROWSER_ACCEPT_ENCODING = process.env.BENCH_ACCEPT_ENCODING ?? 'gzip, deflate, br, zstd';
/**
 * The jobs' transactions are subtracted at their idle rate, but a burst of theirs (about 20 once a minute) may fall
 * in a load's count: a count per request is judged to within JOBS_BURST / requests sent, and at least 0.05.
 */
const JOBS_BURST = 20;
/**
 * How long a connection may hold back its statistics: PostgreSQL writes them at most once a second, and those of a
 * connection gone idle within 10 s. The portal's are read this long after its load; the floor's are flushed at once.
 */
const STATS_SETTLE_MS = 11_000;
/**
 * The portal's background jobs poll their queues in its database every 2 s, with a burst now and then: their rate is
 * the median of BACKGROUND_SAMPLES increments over 2 s, counted idle before the loads.
 */
const BACKGROUND_SAMPLES = 8;
const MEMBER = 'member@example.com';
const REVIEWER = 'reviewer@example.com';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ------------------------------------------------------------------------------------------------ load

interface Load {
  rps: number;
  p50: number;
  p99: number;
  /** Requests sent, those still in flight at the end included: the server answers them after the load. */
  sent: number;
  /** Seconds the server needs to answer those in flight, at the rate of the load. */
  drain: number;
  /** Bytes of an answer, headers included, on average: what both ends and the loopback carry per request. */
  bytes: number;
}

/**
 * autocannon on `paths` for `seconds` (each connection sends them in turn, one after the other); any answer but 2xx
 * stops the bench.
 */
async function load(origin: string, paths: string[], headers?: Record<string, string>, seconds = SECONDS) {
  const result = await autocannon({
    url: origin,
    connections: CONNECTIONS,
    duration: seconds,
    requests: paths.map((p) => ({ method: 'GET' as const, path: p })),
    // What Chromium sends: the floor (bare Fastify) answers in plain JSON whatever it is sent, the portal compresses
    // a large answer as it does for a browser (decision record 031).
    headers: { ...(BROWSER_ACCEPT_ENCODING ? { 'accept-encoding': BROWSER_ACCEPT_ENCODING } : {}), ...headers },
  });
  if (result.non2xx || result.errors || result.timeouts) {
    throw new Error(
      `${origin}${paths[0]}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  }
  const rps = result.requests.average;
  return {
    rps,
    p50: result.latency.p50,
    p99: result.latency.p99,
    sent: result.requests.sent,
    drain: (result.requests.sent - result.requests.total) / Math.max(rps, 1),
    bytes: result.throughput.total / Math.max(result.requests.total, 1),
  } satisfies Load;
}

// ------------------------------------------------------------------------------------------------ the floor process

const startFloor = (databaseUrl: string, ids: FloorIds) =>
  startScript('bench/floor-server.ts', { FLOOR_DATABASE_URL: databaseUrl, FLOOR_IDS: JSON.stringify(ids) });

// ------------------------------------------------------------------------------------------------ the data

/** 40 notifications of the member in the demo project, 30 of them unread. */
async function seedNotifications(pool: pg.Pool, userId: number) {
  await pool.query(
    `insert into notifications (user_id, project_id, message, link, created_at, read_at)
     select $1, $2::int, 'Policy ' || g || ' waits for your signature', '/app/policy_management/' || $2::int || '/documents/1',
            now() - g * interval '1 hour', case when g % 4 = 0 then now() end
       from generate_series(1, 40) g`,
    [userId, DEMO_PROJECT.id],
  );
}

interface Read {
  /** For BENCH_ONLY. */
  key: 'notifications' | 'document' | 'toc' | 'standards' | 'monitoring' | 'reviews';
  label: string;
  /** The portal's paths, sent in turn on each connection (a monitoring page view is several). */
  portal: string[];
  /** The floor's paths, one for each of the portal's. */
  floor: string[];
  as: 'member' | 'reviewer';
}

/** The records of the reads, as the signed-in member and reviewer find them, and the reads themselves. */
async function prepareReads(pool: pg.Pool, member: Client, userIds: { member: number; reviewer: number }) {
  const p = DEMO_PROJECT.id;
  const one = async (sql: string) => {
    const { rows } = await pool.query<{ id: number }>(sql, [p]);
    if (!rows[0]) throw new Error(`nothing found: ${sql}`);
    return rows[0].id;
  };
  const documentId = await one(
    `select id from policy_documents
      where project_id = $1 and current_version_id is not null and department_id is not null order by id limit 1`,
  );
  const assessmentId = await one('select id from std_assessments where project_id = $1 order by id limit 1');
  const pageId = await one(
    'select page_id as id from mon_charts where project_id = $1 group by page_id order by count(*) desc, page_id limit 1',
  );
  const M = `/api/projects/${p}/monitoring`;
  // Two more charts of the page's measure, so that the page shows three, as its owner adds them.
  const first = (await member.get(`${M}/pages/${pageId}/charts`)) as {
    charts: { measure: { id: number }; chart_type: string; options: Record<string, unknown> }[];
  };
  for (const chartType of ['run', 'uprime']) {
    await member.post(`${M}/pages/${pageId}/charts`, {
      measure_id: first.charts[0]!.measure.id,
      title: `Chart ${chartType}`,
      chart_type: chartType,
    });
  }
  const { charts } = (await member.get(`${M}/pages/${pageId}/charts`)) as typeof first;
  const seriesQuery = (chart: (typeof charts)[number]) => {
    const query = new URLSearchParams({ chart: chart.chart_type });
    const o = chart.options as { stratum: string | null; from: string | null; to: string | null; rule_profile: null };
    if (o.stratum !== null) query.set('stratum', o.stratum);
    if (o.from) query.set('from', o.from);
    if (o.to) query.set('to', o.to);
    if (o.rule_profile) query.set('rule_profile', o.rule_profile);
    return query.toString();
  };
  const { pages } = (await member.get(`${M}/pages`)) as { pages: { id: number }[] };
  const ids = {
    projectId: p,
    memberId: userIds.member,
    reviewerId: userIds.reviewer,
    documentId,
    tocProjectId: 0,
    assessmentId,
    pageId,
    charts: charts.map((c) => ({
      measureId: c.measure.id,
      chart: c.chart_type,
      stratum: (c.options.stratum as string | null) ?? '',
    })),
    visiblePageIds: pages.map((page) => page.id),
  } satisfies FloorIds;
  const reads = (tocProjectId: number): Read[] => [
    {
      key: 'notifications',
      label: 'notifications list',
      portal: [`/api/projects/${p}/notifications/`],
      floor: ['/notifications'],
      as: 'member',
    },
    {
      key: 'document',
      label: 'policy document',
      portal: [`/api/projects/${p}/policy-management/documents/${documentId}`],
      floor: ['/policy-document'],
      as: 'member',
    },
    {
      key: 'toc',
      label: 'policy TOC (5,000)',
      portal: [`/api/projects/${tocProjectId}/policy-management/documents`],
      floor: ['/policy-toc'],
      as: 'member',
    },
    {
      key: 'standards',
      label: 'standards tree (CMS)',
      portal: [`/api/projects/${p}/standards/assessments/${assessmentId}/tree`],
      floor: ['/standards-tree'],
      as: 'member',
    },
    {
      key: 'monitoring',
      label: `monitoring page (${4 + charts.length} calls)`,
      portal: [
        `${M}/pages/${pageId}`,
        `${M}/pages/${pageId}/insights`,
        `${M}/pages/${pageId}/measure-summary`,
        `${M}/pages/${pageId}/charts`,
        ...charts.map((c) => `${M}/measures/${c.measure.id}/series?${seriesQuery(c)}`),
      ],
      floor: [
        '/monitoring/page',
        '/monitoring/insights',
        '/monitoring/measure-summary',
        '/monitoring/charts',
        ...charts.map((_, i) => `/monitoring/series/${i}`),
      ],
      as: 'member',
    },
    {
      key: 'reviews',
      label: 'My reviews',
      portal: [`/api/projects/${p}/chart-review/me/assignments`],
      floor: ['/my-reviews'],
      as: 'reviewer',
    },
  ];
  return { ids, reads };
}

/** Both answer every path with 2xx, and the floor finds as many records as the portal where the counts compare. */
async function checkAnswers(read: Read, portal: Client, floor: Client) {
  const lists = (answer: unknown): Record<string, number> => {
    if (Array.isArray(answer)) return { rows: answer.length };
    const out: Record<string, number> = {};
    for (const key of ['notifications', 'versions', 'charts', 'assignments']) {
      const value = (answer as Record<string, unknown>)[key];
      if (Array.isArray(value)) out[key] = value.length;
    }
    return out;
  };
  for (let i = 0; i < read.portal.length; i++) {
    const mine = lists(await portal.get(read.portal[i]!));
    const theirs = lists(await floor.get(read.floor[i]!));
    for (const [key, n] of Object.entries(mine)) {
      if (key in theirs && theirs[key] !== n) {
        throw new Error(`${read.label}: the portal answers ${n} ${key}, the floor ${theirs[key]}`);
      }
    }
  }
}

// ------------------------------------------------------------------------------------------------ transactions

/** xact_commit + xact_rollback of the bench database, read from another database so the reading is not counted. */
async function transactionCounter(serverUrl: string, database: string) {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  return {
    async read() {
      const { rows } = await admin.query<{ n: string }>(
        'select xact_commit + xact_rollback as n from pg_stat_database where datname = $1',
        [database],
      );
      return Number(rows[0]!.n);
    },
    close: () => admin.end(),
  };
}

// ------------------------------------------------------------------------------------------------ main

interface Figures {
  floor: Load[];
  portal: Load[];
  /** Transactions per portal request, one per round. */
  perRequest: number[];
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return (sorted[Math.floor((sorted.length - 1) / 2)]! + sorted[Math.ceil((sorted.length - 1) / 2)]!) / 2;
};

async function main() {
  await withBenchDatabase(async (handle, url) => {
    const appKey = randomBytes(32);
    await seedDemoData(handle.db, appKey, new Date());
    const user = async (email: string) =>
      (await handle.pool.query<{ id: number }>('select id from users where email = $1', [email])).rows[0]!.id;
    const userIds = { member: await user(MEMBER), reviewer: await user(REVIEWER) };
    await seedNotifications(handle.pool, userIds.member);
    const tocProjectId = await seedTocProject(handle, userIds.member);
    await handle.pool.query('analyze');

    const database = new URL(url).pathname.slice(1);
    const serverUrl = new URL(url);
    serverUrl.pathname = '/postgres';
    const portal = await startPortal(
      {
        // As installed: one log line per request.
        LOG_LEVEL: 'info',
        DATABASE_URL: url,
        DEMO_DATA: 'false',
        CAPTCHA_PROVIDER: 'off',
        APP_KEY: `base64:${appKey.toString('base64')}`,
      },
      { nodeArgs: process.env.BENCH_PORTAL_NODE_ARGS?.split(' ').filter(Boolean) },
    );
    let floor: RunningProcess | undefined;
    const counter = await transactionCounter(serverUrl.toString(), database);
    try {
      const member = client(portal.origin);
      await member.login(MEMBER);
      const reviewer = client(portal.origin);
      await reviewer.login(REVIEWER);
      const signedIn = { member, reviewer };
      const { ids, reads: readsOf } = await prepareReads(handle.pool, member, userIds);
      const only = process.env.BENCH_ONLY?.split(',');
      const chosen = readsOf(tocProjectId).filter((read) => !only || only.includes(read.key));
      // BENCH_SPLIT=1: each call of a many-call read (the monitoring page) measured on its own, to find the slow one.
      const reads = process.env.BENCH_SPLIT
        ? chosen.flatMap((read) =>
            read.portal.map((path, i) => ({
              ...read,
              label: read.portal.length > 1 ? `${read.label.split(' (')[0]} ${i + 1}` : read.label,
              portal: [path],
              floor: [read.floor[i]!],
            })),
          )
        : chosen;
      floor = await startFloor(url, { ...ids, tocProjectId });
      const floorClient = client(floor.origin);
      for (const read of reads) await checkAnswers(read, signedIn[read.as], floorClient);
      /** The floor done with its requests in flight and its statistics written. */
      const floorIdle = () => floorClient.post('/flush-stats', {});
      /** The portal done with its requests in flight and its connections' statistics written. */
      const portalIdle = (last: Load) => sleep(STATS_SETTLE_MS + 1000 * last.drain * 1.5);

      // Warm both (JIT, plans, pools) on every read, then let the statistics settle and count the jobs' own rate.
      let last: Load | undefined;
      for (const read of reads) {
        await load(floor.origin, read.floor, undefined, 1);
        last = await load(portal.origin, read.portal, { cookie: signedIn[read.as].cookie() }, 1);
      }
      await floorIdle();
      await portalIdle(last!);
      const increments: number[] = [];
      for (let i = 0, at = await counter.read(); i < BACKGROUND_SAMPLES; i++) {
        await sleep(2000);
        const now = await counter.read();
        increments.push(now - at);
        at = now;
      }
      const backgroundPerMs = median(increments) / 2000;

      console.log(
        `autocannon: ${CONNECTIONS} connections, ${SECONDS} s per load, ${ROUNDS} rounds of floor then portal, ` +
          `${os.cpus().length} cores, Accept-Encoding: ${BROWSER_ACCEPT_ENCODING}. ` +
          `Signed in as ${MEMBER} (${REVIEWER} for My reviews).\n` +
          `Transactions per portal request: the bench database's, during the portal load with the floor idle, ` +
          `less the jobs' ${(backgroundPerMs * 1000).toFixed(1)}/s counted idle.\n`,
      );
      const results: { read: Read; figures: Figures }[] = [];
      for (const read of reads) {
        const figures: Figures = { floor: [], portal: [], perRequest: [] };
        const headers = { cookie: signedIn[read.as].cookie() };
        for (let round = 0; round < ROUNDS; round++) {
          figures.floor.push(await load(floor.origin, read.floor));
          await floorIdle();
          const before = await counter.read();
          const started = performance.now();
          const portalLoad = await load(portal.origin, read.portal, headers);
          figures.portal.push(portalLoad);
          await portalIdle(portalLoad);
          const transactions = (await counter.read()) - before - backgroundPerMs * (performance.now() - started);
          figures.perRequest.push(transactions / portalLoad.sent);
        }
        results.push({ read, figures });
        process.stderr.write(`  measured: ${read.label}\n`);
      }

      const f = (n: number, width: number, digits = 0) => n.toFixed(digits).padStart(width);
      console.log(
        `${'read'.padEnd(30)} ${'floor req/s'.padStart(11)} ${'p50'.padStart(6)} ${'p99'.padStart(6)}   ` +
          `${'portal req/s'.padStart(12)} ${'p50'.padStart(6)} ${'p99'.padStart(6)}   ${'portal/floor'.padStart(12)}   ` +
          `${'tx/request'.padStart(10)}   ${'KB/answer floor, portal'.padStart(23)}`,
      );
      const summary = results.map(({ read, figures }) => {
        const avg = (loads: Load[], key: keyof Load) => mean(loads.map((l) => l[key]));
        const s = {
          label: read.label,
          floorRps: avg(figures.floor, 'rps'),
          floorP50: avg(figures.floor, 'p50'),
          floorP99: avg(figures.floor, 'p99'),
          portalRps: avg(figures.portal, 'rps'),
          portalP50: avg(figures.portal, 'p50'),
          portalP99: avg(figures.portal, 'p99'),
          transactions: mean(figures.perRequest),
          floorKb: avg(figures.floor, 'bytes') / 1024,
          portalKb: avg(figures.portal, 'bytes') / 1024,
          tolerance: Math.max(0.05, JOBS_BURST / mean(figures.portal.map((l) => l.sent))),
        };
        console.log(
          `${s.label.padEnd(30)} ${f(s.floorRps, 11)} ${f(s.floorP50, 6, 1)} ${f(s.floorP99, 6, 1)}   ` +
            `${f(s.portalRps, 12)} ${f(s.portalP50, 6, 1)} ${f(s.portalP99, 6, 1)}   ` +
            `${f(s.portalRps / s.floorRps, 12, 2)}   ${f(s.transactions, 10, 2)}   ` +
            `${f(s.floorKb, 15, 1)}, ${f(s.portalKb, 6, 1)}`,
        );
        return s;
      });
      console.log('(latencies in ms; each figure the mean of the rounds)\n');

      console.log(
        `Targets: portal >= ${TARGET.ratio} x floor req/s, portal p99 <= ${TARGET.p99Ms} ms, ` +
          `<= ${TARGET.transactions} transactions per request (± what the jobs' bursts may add to a count)`,
      );
      let met = 0;
      let total = 0;
      const verdict = (ok: boolean) => {
        total += 1;
        if (ok) met += 1;
        return ok ? 'met   ' : 'MISSED';
      };
      for (const s of summary) {
        const ratio = s.portalRps / s.floorRps;
        console.log(
          `${s.label.padEnd(30)} ratio ${ratio.toFixed(2)} ${verdict(ratio >= TARGET.ratio)}   ` +
            `p99 ${s.portalP99.toFixed(1).padStart(5)} ms ${verdict(s.portalP99 <= TARGET.p99Ms)}   ` +
            `${s.transactions.toFixed(2).padStart(5)} ±${s.tolerance.toFixed(2)} tx/request ` +
            verdict(s.transactions <= TARGET.transactions + s.tolerance),
        );
      }
      console.log(`${met} of ${total} targets met`);
    } finally {
      await counter.close();
      await floor?.stop();
      await portal.stop();
    }
  });
}

await main();
