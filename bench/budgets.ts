// npm run bench:budgets: the performance budgets of issue 13, each printed with its figure and PASS or MISS.
//   - server throughput: authenticated, permission-checked database GETs (the notifications list, a policy document)
//     beside a bare Fastify hello-world in the same run, 100 connections: printed, no longer judged (issue 31 judges
//     them against a server running the same SQL: npm run bench:floor);
//   - logins: >= 50 real sign-ins per second (GET /sanctum/csrf-cookie, then POST /login with X-XSRF-TOKEN);
//   - login page JavaScript: <= 170 KB gzipped, as the JS files Chromium requests for /member-login;
//   - Lighthouse performance >= 95 on the login page and on a policy document page (signed in).
// The real built server on its embedded PostgreSQL with the demo data (captcha off), loopback only.
// BENCH_SECONDS (default 10) per load; BENCH_NO_FAIL=1 exits 0 even when a budget is missed;
// BENCH_LOGIN_CONCURRENCY (default: twice the number of cores); BENCH_LIGHTHOUSE_PRESET=desktop|mobile (default desktop);
// BENCH_LIGHTHOUSE_RUNS (default 3, the median is kept); CHROME_PATH (default /usr/bin/chromium);
// BENCH_ONLY=server|web runs one half.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium } from '@playwright/test';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig } from 'lighthouse';
import {
  benchRoot,
  client,
  loadTest,
  percentile,
  type RunningProcess,
  startHelloWorld,
  startPortal,
} from './harness.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const NO_FAIL = process.env.BENCH_NO_FAIL === '1';
const CONNECTIONS = 100;
// Two sign-ins per core: each one waits on its commits (fsync) about as long as it computes (argon2id), so one per core
// leaves the cores idle half the time (measured here: 2 at a time 40/s, 4 at a time 59/s, 8 at a time 50/s).
const LOGIN_CONCURRENCY = Number(process.env.BENCH_LOGIN_CONCURRENCY ?? 2 * os.cpus().length);
const PRESET = process.env.BENCH_LIGHTHOUSE_PRESET === 'mobile' ? 'mobile' : 'desktop';
const LIGHTHOUSE_RUNS = Math.max(1, Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3));
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const ONLY = process.env.BENCH_ONLY;
const CHROME_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'];

/** Demo accounts that sign in without a two-factor step (packages/server/src/seed/demo.ts). */
const LOGIN_ACCOUNTS = ['member@example.com', 'reviewer@example.com', 'reader@example.com', 'simple@example.com'];
/** The signed-in user of the GET loads and the policy page: a project member who signs policies. */
const READER = 'member@example.com';

const BUDGET = { loginsPerSecond: 50, loginJsKb: 170, lighthouse: 95 };

const results: { label: string; pass: boolean }[] = [];
function report(label: string, figures: string, pass: boolean) {
  results.push({ label, pass });
  console.log(`${label.padEnd(28)} ${figures}  ${pass ? 'PASS' : 'MISS'}`);
}

// ------------------------------------------------------------------------------------------------ server budgets

/** The demo project and its first published policy, as the signed-in member finds them. */
async function policyIds(portal: RunningProcess) {
  const member = client(portal.origin);
  await member.login(READER);
  const { projects } = (await member.get('/api/member/projects')) as { projects: { id: number; name: string }[] };
  const projectId = projects[0]!.id;
  const documents = (await member.get(`/api/projects/${projectId}/policy-management/documents?status=published`)) as {
    id: number;
    title: string;
  }[];
  return { member, projectId, documentId: documents[0]!.id, title: documents[0]!.title };
}

async function serverBudgets(portal: RunningProcess, hello: RunningProcess) {
  const { member, projectId, documentId, title } = await policyIds(portal);

  const targets = [
    { label: 'notifications list', url: `/api/projects/${projectId}/notifications` },
    { label: 'policy document', url: `/api/projects/${projectId}/policy-management/documents/${documentId}` },
  ];
  for (const t of targets) await member.get(t.url); // answers 200 before any load

  console.log(
    `Server throughput: autocannon, ${CONNECTIONS} connections, ${SECONDS} s per target, ${os.cpus().length} cores; ` +
      `signed in as ${READER}, project ${projectId}, policy document ${documentId} ("${title}")`,
  );
  const base = await loadTest(`${hello.origin}/`, { connections: CONNECTIONS, seconds: SECONDS });
  console.log(
    `${'bare Fastify hello-world'.padEnd(28)} ${base.rps.toFixed(0).padStart(6)} req/s  p99 ${base.p99.toFixed(1)} ms`,
  );
  for (const t of targets) {
    const r = await loadTest(portal.origin + t.url, {
      connections: CONNECTIONS,
      seconds: SECONDS,
      headers: { cookie: member.cookie() },
    });
    const ratio = r.rps / base.rps;
    console.log(
      `${t.label.padEnd(28)} ${r.rps.toFixed(0).padStart(6)} req/s (${(ratio * 100).toFixed(0)}% of hello-world)  ` +
        `p99 ${r.p99.toFixed(1)} ms  p50 ${r.p50.toFixed(1)} ms  (not judged)`,
    );
  }
  console.log(
    '  Issue 13 judged these against hello-world (25 %, p99 25 ms at 100 connections). Issue 31 replaced that floor\n' +
      '  with a server running the same SQL: `npm run bench:floor` judges these reads and four heavier ones.',
  );

  // Logins: every one a fresh visitor (CSRF cookie, then the password check), accounts taken in turn.
  const warm = client(portal.origin);
  for (const email of LOGIN_ACCOUNTS) await warm.login(email);
  const latencies: number[] = [];
  let done = 0;
  const started = performance.now();
  const until = started + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: LOGIN_CONCURRENCY }, async (_, worker) => {
      for (let i = worker; performance.now() < until; i += LOGIN_CONCURRENCY) {
        const t0 = performance.now();
        await client(portal.origin).login(LOGIN_ACCOUNTS[i % LOGIN_ACCOUNTS.length]!);
        latencies.push(performance.now() - t0);
        done++;
      }
    }),
  );
  const perSecond = done / ((performance.now() - started) / 1000);
  report(
    'logins',
    `${perSecond.toFixed(1).padStart(6)} logins/s (budget ≥${BUDGET.loginsPerSecond}/s)  ${done} in ${SECONDS} s, ` +
      `${LOGIN_CONCURRENCY} at a time; p50 ${percentile(latencies, 50).toFixed(0)} ms p99 ${percentile(latencies, 99).toFixed(0)} ms ` +
      `(GET /sanctum/csrf-cookie + POST /login)`,
    perSecond >= BUDGET.loginsPerSecond,
  );
  return { projectId, documentId };
}

// ------------------------------------------------------------------------------------------------ web budgets

/** The JS files Chromium fetches for /member-login until the network is idle, gzipped (level 9) from the bytes served. */
async function loginPageJs(origin: string) {
  const browser = await chromium.launch({ executablePath: CHROME_PATH, args: ['--no-sandbox'] });
  try {
    const page = await browser.newPage();
    const scripts: { url: string; body: Promise<Buffer> }[] = [];
    page.on('response', (response) => {
      if (/\.m?js(\?|$)/.test(new URL(response.url()).pathname))
        scripts.push({ url: response.url(), body: response.body() });
    });
    await page.goto(`${origin}/member-login`, { waitUntil: 'networkidle' });
    await page
      .getByRole('button', { name: /log ?in|sign ?in/i })
      .first()
      .waitFor({ timeout: 30_000 });
    await page.waitForLoadState('networkidle');
    const files = await Promise.all(
      scripts.map(async (s) => {
        const body = await s.body;
        return { file: new URL(s.url).pathname, raw: body.length, gzip: zlib.gzipSync(body, { level: 9 }).length };
      }),
    );
    return files.sort((a, b) => b.gzip - a.gzip);
  } finally {
    await browser.close();
  }
}

interface LighthouseFigures {
  score: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  si: number;
}

async function lighthouseRun(url: string, cookie?: string): Promise<LighthouseFigures> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROME_PATH, chromeFlags: CHROME_FLAGS });
  try {
    const result = await lighthouse(
      url,
      {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance'],
        ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}),
      },
      PRESET === 'desktop' ? desktopConfig : undefined,
    );
    if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const audit = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
    return {
      score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      fcp: audit('first-contentful-paint'),
      lcp: audit('largest-contentful-paint'),
      tbt: audit('total-blocking-time'),
      cls: audit('cumulative-layout-shift'),
      si: audit('speed-index'),
    };
  } finally {
    chrome.kill();
  }
}

/** Lighthouse now and then fails to record its trace (NO_NAVSTART, NO_FCP): a run of its own fault, run again. */
async function lighthouseRunAgainOnTraceGlitch(url: string, cookie?: string): Promise<LighthouseFigures> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await lighthouseRun(url, cookie);
    } catch (error) {
      if (attempt >= 3 || !/NO_NAVSTART|NO_FCP|NO_TRACING_STARTED/.test(String(error))) throw error;
      console.log(`    (${String(error).split('\n')[0]}: run again)`);
    }
  }
}

async function lighthouseBudget(label: string, url: string, cookie?: string) {
  const runs: LighthouseFigures[] = [];
  for (let i = 0; i < LIGHTHOUSE_RUNS; i++) runs.push(await lighthouseRunAgainOnTraceGlitch(url, cookie));
  const median = [...runs].sort((a, b) => a.score - b.score)[Math.floor(runs.length / 2)]!;
  report(
    label,
    `Lighthouse ${median.score} (budget ≥${BUDGET.lighthouse}; runs ${runs.map((r) => r.score).join(', ')})  ` +
      `FCP ${median.fcp.toFixed(0)} ms  LCP ${median.lcp.toFixed(0)} ms  TBT ${median.tbt.toFixed(0)} ms  ` +
      `CLS ${median.cls.toFixed(3)}  SI ${median.si.toFixed(0)} ms`,
    median.score >= BUDGET.lighthouse,
  );
}

async function webBudgets(portal: RunningProcess, ids: { projectId: number; documentId: number }) {
  if (!fs.existsSync(CHROME_PATH)) throw new Error(`No Chromium at ${CHROME_PATH} (apt-get install -y chromium)`);
  console.log('\nWeb: the built app (packages/web/dist), served by the portal');
  const files = await loginPageJs(portal.origin);
  const total = files.reduce((sum, f) => sum + f.gzip, 0) / 1024;
  report(
    'login page JavaScript',
    `${total.toFixed(1).padStart(6)} KB gzipped (budget ≤${BUDGET.loginJsKb} KB), ${files.length} files, ` +
      `${(files.reduce((s, f) => s + f.raw, 0) / 1024).toFixed(0)} KB raw`,
    total <= BUDGET.loginJsKb,
  );
  for (const f of files) console.log(`    ${f.file.padEnd(52)} ${(f.gzip / 1024).toFixed(1).padStart(6)} KB gzipped`);
  // The bench runs with the captcha off; with CAPTCHA_PROVIDER=altcha (the default) the form also loads the widget.
  const assets = path.join(benchRoot, 'packages/web/dist/assets');
  const widget = fs.readdirSync(assets).find((f) => /^altcha-widget-.*\.js$/.test(f));
  if (widget) {
    const kb = zlib.gzipSync(fs.readFileSync(path.join(assets, widget)), { level: 9 }).length / 1024;
    console.log(
      `    (not counted: with CAPTCHA_PROVIDER=altcha the login form also loads ${widget}, ${kb.toFixed(1)} KB gzipped)`,
    );
  }

  console.log(
    `\nLighthouse ${PRESET} preset, performance only, median of ${LIGHTHOUSE_RUNS} (Chromium ${CHROME_PATH})`,
  );
  await lighthouseBudget('Lighthouse login page', `${portal.origin}/member-login`);
  const member = client(portal.origin);
  await member.login(READER);
  await lighthouseBudget(
    'Lighthouse policy document',
    `${portal.origin}/app/policy_management/${ids.projectId}/documents/${ids.documentId}`,
    member.cookie(),
  );
}

// ------------------------------------------------------------------------------------------------ main

const portal = await startPortal({ CAPTCHA_PROVIDER: 'off' });
const hello = await startHelloWorld();
let failed = false;
try {
  const ids = ONLY === 'web' ? await policyIds(portal) : await serverBudgets(portal, hello);
  await hello.stop();
  if (ONLY !== 'server') await webBudgets(portal, ids);
} catch (error) {
  console.error(error);
  failed = true;
} finally {
  await hello.stop();
  await portal.stop();
}
const missed = results.filter((r) => !r.pass);
console.log(
  `\n${results.length - missed.length} of ${results.length} budgets met` +
    (missed.length ? `; missed: ${missed.map((r) => r.label).join(', ')}` : '') +
    (failed ? '; the bench stopped on the error above before measuring the rest' : ''),
);
if (failed || (missed.length && !NO_FAIL)) process.exitCode = 1;
