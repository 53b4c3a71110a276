// npm run bench:screens (after npm run build): the heavy screens as a user sees them, in Chromium (desktop viewport
// 1440x900), against the built portal (packages/server/dist/main.js, which serves the built web app) on a throw-away
// database holding the demo facility and a project of 5,000 policies. Signed in through the real login page as
// member@example.com: policy admin of the 5,000-policy project, chapter lead in standards, editor of the monitoring
// page. The screens:
//   - the policy table of contents of the 5,000 policies (/app/policy_management/{p}/toc);
//   - the standards compliance tree of the whole CMS framework with the demo assessment
//     (/app/standards/{p}/compilence);
//   - a monitoring page with ten charts: the demo page with the most charts, given more through the API until it has
//     ten, each its own series (another measure or chart type, else another start date) (/app/monitoring/{p}/pages/
//     page/{id});
//   - the survey binder of the whole framework, from the readiness screen (/app/standards/{p}/readiness).
// Each of the first three is loaded once to warm up, then BENCH_RUNS times (default 5), every load a full navigation
// from about:blank with the browser's cache warm. Two figures per load, both from the navigation start (the page's
// performance.timeOrigin): "first useful paint", the first animation frame in which the screen's main content (one
// element, see USEFUL below) has a box; "last byte of data", the responseEnd of the last fetch the screen makes
// (resource timing, the notification stream left out), read once no request (but the stream) has been in flight for
// QUIET_MS. Also printed: how many fetches, and when the first starts (the app booted). The binder is a download: the
// time from the click on "Download the binder (PDF)" until the file is complete (and until it starts: the server
// sends nothing before the PDF is drawn), and whether any progress indicator (a progressbar, a status, a busy or
// loading element, text about the binder being built) appeared on the page while it was built. The framework has no
// node above its chapters and the binder takes one node, so the whole framework is its chapters downloaded in turn,
// as a user would: the figure is their sum (warm-up, then BENCH_RUNS times too). Median and worst of the runs are
// printed; the targets, printed, never fatal, are judged on the median: first useful paint < 1 s, last byte < 2 s,
// the binder < 10 s with progress shown while it builds. Uses BENCH_DATABASE_URL (a server URL, e.g.
// postgres://postgres@127.0.0.1:5432/postgres) or an embedded PostgreSQL in a temporary folder; CHROME_PATH (default
// /usr/bin/chromium); BENCH_ONLY=toc,compliance,monitoring,binder picks some; BENCH_TRACE=1 prints each load's
// fetches (start, responseEnd) and the binder's indicators already on the page to stderr.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import { type Browser, chromium, type Locator, type Page, type Request } from '@playwright/test';
import type pg from 'pg';
import { DEMO_PASSWORD, DEMO_PROJECT, seedDemoData } from '../packages/server/src/seed/demo.js';
import { type Client, client, seedTocProject, startPortal, withBenchDatabase } from './harness.js';

const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 5));
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const ONLY = process.env.BENCH_ONLY?.split(',');
const TRACE = process.env.BENCH_TRACE === '1';
const VIEWPORT = { width: 1440, height: 900 };
const TARGET = { paintMs: 1000, lastByteMs: 2000, binderMs: 10_000 };
/** A screen has made its last request once nothing (but the notification stream) has been in flight this long. */
const QUIET_MS = 750;
const MEMBER = 'member@example.com';
const CHARTS = 10;
const STREAM_PATH = '/api/notifications/stream';

type ScreenKey = 'toc' | 'compliance' | 'monitoring';

/**
 * The element whose first frame is the first useful paint of each screen: a role-based locator the bench waits for,
 * and its CSS twin, watched inside the page from the navigation start so that the time is the page's own.
 */
const USEFUL: Record<ScreenKey, { describe: string; css: string; locator: (page: Page) => Locator }> = {
  toc: {
    describe:
      "the first row of the list 'Table of contents' (getByRole('list', { name: 'Table of contents' }) > listitem)",
    css: 'ul[aria-label="Table of contents"] > li',
    locator: (page) => page.getByRole('list', { name: 'Table of contents' }).getByRole('listitem').first(),
  },
  compliance: {
    describe:
      "the first body row of the table 'Compliance tree' (getByRole('table', { name: 'Compliance tree' }) row 2)",
    css: 'table[aria-label="Compliance tree"] > tbody > tr',
    locator: (page) => page.getByRole('table', { name: 'Compliance tree' }).getByRole('row').nth(1),
  },
  monitoring: {
    describe: "the first chart's canvas in the region 'Charts' (getByRole('region', { name: 'Charts' }) canvas)",
    css: 'section[data-section="charts"] [data-chart="spc"] canvas',
    locator: (page) =>
      page.getByRole('region', { name: 'Charts', exact: true }).locator('[data-chart="spc"] canvas').first(),
  },
};

/**
 * In every document: the first frame in which each CSS twin of USEFUL has a box, in ms from the navigation start
 * (window.__benchPaint[css]). A string, so the page runs it as written.
 */
const PAINT_WATCHER = `(() => {
  const selectors = ${JSON.stringify(Object.values(USEFUL).map((u) => u.css))};
  const found = {};
  window.__benchPaint = found;
  let scheduled = false;
  const check = () => {
    scheduled = false;
    for (const selector of selectors) {
      if (found[selector] !== undefined) continue;
      const element = document.querySelector(selector);
      if (!element) continue;
      const box = element.getBoundingClientRect();
      if (box.width > 0 && box.height > 0) found[selector] = performance.now();
    }
  };
  new MutationObserver(() => {
    if (!scheduled) {
      scheduled = true;
      requestAnimationFrame(check);
    }
  }).observe(document, { childList: true, subtree: true, attributes: true });
})();`;

/** The page's fetches so far (the stream left out): url, and responseEnd from the navigation start. */
const DATA_FETCHES = `JSON.stringify(performance.getEntriesByType('resource')
  .filter((e) => (e.initiatorType === 'fetch' || e.initiatorType === 'xmlhttprequest')
    && new URL(e.name).pathname !== ${JSON.stringify(STREAM_PATH)})
  .map((e) => ({ url: e.name, start: e.startTime, end: e.responseEnd })))`;

const NAVIGATION = "JSON.stringify(performance.getEntriesByType('navigation')[0])";

/** Visible progress indicators: each as role or tag and its name or first words. */
const PROGRESS_INDICATORS = `(() => {
  const shown = (element) => {
    const box = element.getBoundingClientRect();
    const style = getComputedStyle(element);
    return box.width > 0 && box.height > 0 && style.visibility !== 'hidden' && Number(style.opacity) > 0;
  };
  const name = (element) =>
    (element.getAttribute('aria-label') || element.textContent || '').replace(/\\s+/g, ' ').trim().slice(0, 60);
  const found = [...document.querySelectorAll(
    '[role="progressbar"], [role="status"], [aria-busy="true"], [data-loading], .mantine-Loader-root, progress',
  )]
    .filter(shown)
    .map((element) => (element.getAttribute('role') || element.tagName.toLowerCase()) + ': ' + name(element));
  const text = document.body.innerText.match(
    /[^\\n]{0,40}\\b(building|preparing|generating|drawing|rendering|assembling)\\b[^\\n]{0,40}binder[^\\n]{0,40}|[^\\n]{0,40}binder[^\\n]{0,40}\\b(building|preparing|generating|drawing|rendering|assembling|in progress|\\d+ ?%)[^\\n]{0,40}/gi,
  ) || [];
  return JSON.stringify([...found, ...text.map((t) => 'text: ' + t.trim())]);
})()`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return (sorted[Math.floor((sorted.length - 1) / 2)]! + sorted[Math.ceil((sorted.length - 1) / 2)]!) / 2;
};
const worst = (values: number[]) => Math.max(...values);

// ------------------------------------------------------------------------------------------------ the data

/**
 * The demo page with the most charts, given more by its editor (the member) through the API until it shows CHARTS:
 * each of a measure of the page and a chart type it has not yet, the types the server refuses for a measure skipped;
 * should those run out, run charts from another start date.
 */
async function tenChartPage(pool: pg.Pool, member: Client) {
  const { rows } = await pool.query<{ id: number }>(
    'select page_id as id from mon_charts where project_id = $1 group by page_id order by count(*) desc, page_id limit 1',
    [DEMO_PROJECT.id],
  );
  if (!rows[0]) throw new Error('the demo facility has no monitoring page with charts');
  const pageId = rows[0].id;
  const M = `/api/projects/${DEMO_PROJECT.id}/monitoring`;
  type ChartList = { charts: { measure: { id: number }; chart_type: string }[] };
  const { charts } = (await member.get(`${M}/pages/${pageId}/charts`)) as ChartList;
  const { measures } = (await member.get(`${M}/pages/${pageId}/measure-summary`)) as {
    measures: { measure_id: number }[];
  };
  const have = new Set(charts.map((c) => `${c.measure.id}:${c.chart_type}`));
  const measureIds = [...new Set([...measures.map((m) => m.measure_id), ...charts.map((c) => c.measure.id)])];
  let count = charts.length;
  for (const chartType of ['run', 'i', 'uprime', 'u', 'pprime', 'p', 'c', 'g', 't']) {
    for (const measureId of measureIds) {
      if (count >= CHARTS) break;
      if (have.has(`${measureId}:${chartType}`)) continue;
      try {
        await member.post(`${M}/pages/${pageId}/charts`, {
          measure_id: measureId,
          title: `Bench ${chartType} chart of measure ${measureId}`,
          chart_type: chartType,
        });
        have.add(`${measureId}:${chartType}`);
        count += 1;
      } catch {
        // A chart type this measure cannot have: the next one.
      }
    }
  }
  // Too few pairs: run charts of the last 12, 18, 24... months (each series a request of its own).
  for (let months = 12; count < CHARTS && months <= 120; months += 6) {
    const from = new Date();
    from.setUTCMonth(from.getUTCMonth() - months, 1);
    for (const measureId of measureIds) {
      if (count >= CHARTS) break;
      await member.post(`${M}/pages/${pageId}/charts`, {
        measure_id: measureId,
        title: `Bench run chart of measure ${measureId}, last ${months} months`,
        chart_type: 'run',
        options: { from: from.toISOString().slice(0, 10) },
      });
      count += 1;
    }
  }
  const after = (await member.get(`${M}/pages/${pageId}/charts`)) as ChartList;
  if (after.charts.length < CHARTS) throw new Error(`page ${pageId} has ${after.charts.length} charts, not ${CHARTS}`);
  return { pageId, charts: after.charts.length, measures: new Set(after.charts.map((c) => c.measure.id)).size };
}

// ------------------------------------------------------------------------------------------------ the browser

/** Through the real login page, as a person: email, password, the terms box if the form asks, Log in. */
async function signIn(page: Page, origin: string, email: string) {
  await page.goto(`${origin}/member-login`);
  const termsAnswer = page
    .waitForResponse((r) => r.url().includes('/check-terms'), { timeout: 10_000 })
    .catch(() => null);
  await page.getByLabel('Username or email').fill(email);
  await page.locator('input[type="password"]').fill(DEMO_PASSWORD);
  const answer = await termsAnswer;
  const status = answer ? ((await answer.json()) as { status: string }).status : 'accepted';
  if (status.startsWith('needs_'))
    await page.getByRole('checkbox', { name: /accept the terms and conditions/i }).check();
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/member-login'), { timeout: 30_000 });
}

/** The page's requests in flight (the notification stream and web sockets left out), to tell when it is quiet. */
function watchRequests(page: Page) {
  const inFlight = new Set<Request>();
  let lastChange = performance.now();
  const counts = (request: Request) => !['eventsource', 'websocket'].includes(request.resourceType());
  const onRequest = (request: Request) => {
    if (!counts(request)) return;
    inFlight.add(request);
    lastChange = performance.now();
  };
  const onDone = (request: Request) => {
    if (inFlight.delete(request)) lastChange = performance.now();
  };
  page.on('request', onRequest);
  page.on('requestfinished', onDone);
  page.on('requestfailed', onDone);
  return {
    async quiet(timeoutMs = 60_000) {
      const deadline = performance.now() + timeoutMs;
      while (inFlight.size > 0 || performance.now() - lastChange < QUIET_MS) {
        if (performance.now() > deadline) {
          throw new Error(`still in flight after ${timeoutMs} ms: ${[...inFlight].map((r) => r.url()).join(', ')}`);
        }
        await sleep(25);
      }
    },
    stop() {
      page.off('request', onRequest);
      page.off('requestfinished', onDone);
      page.off('requestfailed', onDone);
    },
  };
}

interface Load {
  paint: number;
  lastByte: number;
  /** When the app, started, asks for its first data. */
  firstFetch: number;
  fetches: number;
  lastUrl: string;
}

/** One full load of a screen from about:blank: its first useful paint and the last byte of its data. */
async function loadScreen(page: Page, url: string, key: ScreenKey): Promise<Load> {
  await page.goto('about:blank');
  const requests = watchRequests(page);
  try {
    await page.goto(url, { waitUntil: 'commit' });
    await USEFUL[key].locator(page).waitFor({ state: 'visible', timeout: 60_000 });
    const seen = (await page.evaluate('performance.now()')) as number;
    await requests.quiet();
    const painted = (await page.evaluate(`window.__benchPaint[${JSON.stringify(USEFUL[key].css)}]`)) as
      | number
      | undefined;
    const fetches = JSON.parse((await page.evaluate(DATA_FETCHES)) as string) as {
      url: string;
      start: number;
      end: number;
    }[];
    if (fetches.length === 0) throw new Error(`${url}: no data fetched`);
    const last = fetches.reduce((a, b) => (b.end > a.end ? b : a));
    // The watcher's frame; the moment Playwright saw it, should the watcher have missed it.
    const paint = painted ?? seen;
    if (TRACE) {
      const n = JSON.parse((await page.evaluate(NAVIGATION)) as string) as Record<string, number>;
      const ms = (value: number) => value.toFixed(0).padStart(6);
      console.error(
        `  ${key}: document ${ms(n.responseEnd!)}  DOMContentLoaded ${ms(n.domContentLoadedEventEnd!)}  ` +
          `useful paint ${ms(paint)}  (ms; each fetch: start, responseEnd)`,
      );
      for (const f of fetches) console.error(`    ${ms(f.start)} ${ms(f.end)}  ${new URL(f.url).pathname}`);
    }
    return {
      paint,
      lastByte: last.end,
      firstFetch: Math.min(...fetches.map((f) => f.start)),
      fetches: fetches.length,
      lastUrl: new URL(last.url).pathname + new URL(last.url).search,
    };
  } finally {
    requests.stop();
  }
}

interface ScreenResult {
  key: ScreenKey;
  label: string;
  loads: Load[];
}

async function measureScreen(page: Page, key: ScreenKey, label: string, url: string): Promise<ScreenResult> {
  await loadScreen(page, url, key); // warm-up: code, caches, plans
  const loads: Load[] = [];
  for (let i = 0; i < RUNS; i++) loads.push(await loadScreen(page, url, key));
  process.stderr.write(`  measured: ${label}\n`);
  return { key, label, loads };
}

// ------------------------------------------------------------------------------------------------ the binder

interface BinderPart {
  refId: string;
  label: string;
  elements: number;
}

interface BinderDownload {
  /** From the click to the download starting (the server sends nothing before the PDF is drawn). */
  firstByte: number;
  /** From the click to the file complete. */
  complete: number;
  bytes: number;
  /** Progress indicators that appeared on the page between the click and the file complete. */
  progress: string[];
}

/** The parts of the framework whose binders make the whole: its top node if it has one, else its chapters. */
async function binderParts(member: Client, assessmentId: number): Promise<BinderPart[]> {
  const tree = (await member.get(`/api/projects/${DEMO_PROJECT.id}/standards/assessments/${assessmentId}/tree`)) as {
    rows: { node_id: number; parent_id: number | null; ref_id: string; title: string; req: unknown }[];
  };
  const children = new Map<number | null, number[]>();
  for (const row of tree.rows) children.set(row.parent_id, [...(children.get(row.parent_id) ?? []), row.node_id]);
  const byId = new Map(tree.rows.map((row) => [row.node_id, row]));
  const elementsUnder = (id: number): number =>
    (byId.get(id)!.req ? 1 : 0) + (children.get(id) ?? []).reduce((sum, child) => sum + elementsUnder(child), 0);
  return (children.get(null) ?? []).map((id) => {
    const row = byId.get(id)!;
    return { refId: row.ref_id, label: `${row.ref_id} ${row.title}`, elements: elementsUnder(id) };
  });
}

async function progressNow(page: Page): Promise<string[]> {
  return JSON.parse((await page.evaluate(PROGRESS_INDICATORS)) as string) as string[];
}

/** Picks a part in the Survey binder select, clicks Download, waits for the whole file; watches for progress. */
async function downloadBinder(page: Page, part: BinderPart): Promise<BinderDownload> {
  const picker = page.getByRole('combobox', { name: 'Survey binder' });
  await picker.fill(part.label);
  await page.getByRole('option', { name: part.label, exact: true }).click();
  const link = page.getByRole('button', { name: 'Download the binder (PDF)' });
  await link.waitFor({ state: 'visible' });
  const before = new Set(await progressNow(page));
  if (TRACE)
    console.error(`  binder ${part.refId}: indicators on the page before the click: ${[...before].join(' | ')}`);
  const progress = new Set<string>();
  let done = false;
  const watching = (async () => {
    while (!done) {
      for (const indicator of await progressNow(page).catch(() => []))
        if (!before.has(indicator)) progress.add(indicator);
      await sleep(50);
    }
  })();
  try {
    const downloading = page.waitForEvent('download', { timeout: 120_000 });
    const start = performance.now();
    await link.click();
    const download = await downloading;
    const firstByte = performance.now() - start;
    const file = await download.path();
    const complete = performance.now() - start;
    const failure = await download.failure();
    if (failure) throw new Error(`binder of ${part.refId}: the download failed: ${failure}`);
    const bytes = fs.readFileSync(file);
    if (bytes.subarray(0, 5).toString() !== '%PDF-') throw new Error(`binder of ${part.refId}: not a PDF`);
    await download.delete();
    return { firstByte, complete, bytes: bytes.length, progress: [...progress] };
  } finally {
    done = true;
    await watching;
  }
}

interface BinderRun {
  total: number;
  parts: BinderDownload[];
}

async function measureBinder(page: Page, url: string, parts: BinderPart[]) {
  await page.goto(url);
  await page.getByRole('combobox', { name: 'Survey binder' }).waitFor({ state: 'visible', timeout: 60_000 });
  const requests = watchRequests(page);
  await requests.quiet();
  requests.stop();
  const once = async (): Promise<BinderRun> => {
    const downloads: BinderDownload[] = [];
    for (const part of parts) downloads.push(await downloadBinder(page, part));
    return { total: downloads.reduce((sum, d) => sum + d.complete, 0), parts: downloads };
  };
  await once(); // warm-up
  const runs: BinderRun[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await once());
  process.stderr.write('  measured: binder\n');
  return runs;
}

// ------------------------------------------------------------------------------------------------ main

async function main() {
  if (!fs.existsSync(CHROME_PATH)) throw new Error(`No Chromium at ${CHROME_PATH} (apt-get install -y chromium)`);
  await withBenchDatabase(async (handle, url) => {
    const appKey = randomBytes(32);
    await seedDemoData(handle.db, appKey, new Date());
    const memberId = (await handle.pool.query<{ id: number }>('select id from users where email = $1', [MEMBER]))
      .rows[0]!.id;
    const tocProjectId = await seedTocProject(handle, memberId);
    const assessment = await handle.pool.query<{ id: number }>(
      'select id from std_assessments where project_id = $1 order by id limit 1',
      [DEMO_PROJECT.id],
    );
    if (!assessment.rows[0]) throw new Error('the demo facility has no standards assessment');
    const assessmentId = assessment.rows[0].id;
    await handle.pool.query('analyze');

    const portal = await startPortal({
      LOG_LEVEL: 'warn',
      DATABASE_URL: url,
      DEMO_DATA: 'false',
      CAPTCHA_PROVIDER: 'off',
      APP_KEY: `base64:${appKey.toString('base64')}`,
    });
    let browser: Browser | undefined;
    try {
      const member = client(portal.origin);
      await member.login(MEMBER);
      const monitoring = await tenChartPage(handle.pool, member);
      const parts = await binderParts(member, assessmentId);

      browser = await chromium.launch({ executablePath: CHROME_PATH, args: ['--no-sandbox'] });
      const context = await browser.newContext({ viewport: VIEWPORT, acceptDownloads: true });
      await context.addInitScript({ content: PAINT_WATCHER });
      const page = await context.newPage();
      await signIn(page, portal.origin, MEMBER);

      const p = DEMO_PROJECT.id;
      const screens: { key: ScreenKey; label: string; path: string }[] = [
        { key: 'toc', label: 'policy TOC (5,000 policies)', path: `/app/policy_management/${tocProjectId}/toc` },
        {
          key: 'compliance',
          label: 'compliance tree (CMS, whole)',
          path: `/app/standards/${p}/compilence?assessment=${assessmentId}`,
        },
        {
          key: 'monitoring',
          label: `monitoring page (${monitoring.charts} charts)`,
          path: `/app/monitoring/${p}/pages/page/${monitoring.pageId}`,
        },
      ];
      const binderPath = `/app/standards/${p}/readiness?assessment=${assessmentId}`;
      const chosen = screens.filter((s) => !ONLY || ONLY.includes(s.key));
      const withBinder = !ONLY || ONLY.includes('binder');

      console.log(
        `Chromium ${browser.version()} (${CHROME_PATH}), viewport ${VIEWPORT.width}x${VIEWPORT.height}, ` +
          `${os.cpus().length} cores (load average ${os.loadavg()[0]!.toFixed(1)} at the start); the built portal on ` +
          `${portal.origin}, signed in through the login page as ${MEMBER}.\n` +
          `Each screen: 1 warm-up load, then ${RUNS} full loads from about:blank (browser cache warm); ` +
          `times from the navigation start. Last byte: the last fetch's responseEnd once nothing has been in flight ` +
          `for ${QUIET_MS} ms.\n`,
      );
      const results: ScreenResult[] = [];
      for (const screen of chosen) {
        results.push(await measureScreen(page, screen.key, screen.label, portal.origin + screen.path));
      }
      const binderRuns = withBinder ? await measureBinder(page, portal.origin + binderPath, parts) : [];

      const f = (n: number, width: number) => n.toFixed(0).padStart(width);
      if (results.length) {
        console.log(
          `${'screen'.padEnd(32)} ${'first useful paint (ms)'.padStart(23)}   ${'last byte of data (ms)'.padStart(22)}   ` +
            `${'fetches'.padStart(7)}   ${'first fetch'.padStart(11)}`,
        );
        console.log(
          `${''.padEnd(32)} ${'median'.padStart(11)} ${'worst'.padStart(11)}   ${'median'.padStart(10)} ` +
            `${'worst'.padStart(11)}   ${''.padStart(7)}   ${'median (ms)'.padStart(11)}`,
        );
        for (const r of results) {
          const paints = r.loads.map((l) => l.paint);
          const bytes = r.loads.map((l) => l.lastByte);
          console.log(
            `${r.label.padEnd(32)} ${f(median(paints), 11)} ${f(worst(paints), 11)}   ${f(median(bytes), 10)} ` +
              `${f(worst(bytes), 11)}   ${f(median(r.loads.map((l) => l.fetches)), 7)}   ` +
              f(median(r.loads.map((l) => l.firstFetch)), 11),
          );
        }
        console.log('\nUseful paint: the first frame showing');
        for (const r of results) console.log(`  ${r.label.padEnd(32)} ${USEFUL[r.key].describe}`);
        if (chosen.some((s) => s.key === 'monitoring')) {
          console.log(
            `The monitoring page: page ${monitoring.pageId} of the demo facility, ${monitoring.charts} charts of ` +
              `${monitoring.measures} ${monitoring.measures === 1 ? 'measure' : 'measures'}, each its own series.`,
          );
        }
        console.log('Last fetch to finish (last run):');
        for (const r of results) console.log(`  ${r.label.padEnd(32)} ${r.loads.at(-1)!.lastUrl}`);
      }

      let binderSummary: { total: number[]; progress: string[] } | undefined;
      if (binderRuns.length) {
        const elements = parts.reduce((sum, part) => sum + part.elements, 0);
        const whole =
          parts.length === 1
            ? 'its top node'
            : `its ${parts.length} chapters in turn: the framework has no node above them`;
        console.log(
          `\nSurvey binder of the whole framework (${whole}, ${elements} elements), ` +
            'from the readiness screen: click on "Download the binder (PDF)" to the file complete',
        );
        console.log(
          `${'part'.padEnd(40)} ${'elements'.padStart(8)} ${'KB'.padStart(7)}   ${'first byte med'.padStart(14)} ` +
            `${'complete med'.padStart(12)} ${'worst'.padStart(7)}  (ms)`,
        );
        parts.forEach((part, i) => {
          const downloads = binderRuns.map((run) => run.parts[i]!);
          console.log(
            `${part.label.slice(0, 40).padEnd(40)} ${f(part.elements, 8)} ${f(downloads[0]!.bytes / 1024, 7)}   ` +
              `${f(median(downloads.map((d) => d.firstByte)), 14)} ${f(median(downloads.map((d) => d.complete)), 12)} ` +
              `${f(worst(downloads.map((d) => d.complete)), 7)}`,
          );
        });
        const total = binderRuns.map((run) => run.total);
        console.log(
          `${'whole framework (sum of the parts)'.padEnd(40)} ${f(elements, 8)} ${''.padStart(7)}   ${''.padStart(14)} ` +
            `${f(median(total), 12)} ${f(worst(total), 7)}`,
        );
        const progress = [...new Set(binderRuns.flatMap((run) => run.parts.flatMap((d) => d.progress)))];
        console.log(
          progress.length
            ? `Progress shown while it builds: ${progress.join(' | ')}`
            : 'Progress shown while it builds: none (no progressbar, status, busy or loading element, no text about ' +
                'the binder appeared between the click and the file complete)',
        );
        binderSummary = { total, progress };
      }

      console.log(
        `\nTargets (on the median of ${RUNS} runs): first useful paint < ${TARGET.paintMs} ms, last byte of data < ` +
          `${TARGET.lastByteMs} ms; the binder of the whole framework < ${TARGET.binderMs} ms with progress shown`,
      );
      let met = 0;
      let total = 0;
      const verdict = (ok: boolean) => {
        total += 1;
        if (ok) met += 1;
        return ok ? 'PASS' : 'MISS';
      };
      for (const r of results) {
        const paint = median(r.loads.map((l) => l.paint));
        const bytes = median(r.loads.map((l) => l.lastByte));
        console.log(
          `${r.label.padEnd(32)} paint ${f(paint, 6)} ms ${verdict(paint < TARGET.paintMs)}   ` +
            `last byte ${f(bytes, 6)} ms ${verdict(bytes < TARGET.lastByteMs)}`,
        );
      }
      if (binderSummary) {
        const time = median(binderSummary.total);
        console.log(
          `${'binder (whole framework)'.padEnd(32)} complete ${f(time, 6)} ms ${verdict(time < TARGET.binderMs)}   ` +
            `progress shown: ${binderSummary.progress.length ? 'yes' : 'no'} ${verdict(binderSummary.progress.length > 0)}`,
        );
      }
      console.log(`${met} of ${total} targets met`);
    } finally {
      await browser?.close();
      await portal.stop();
    }
  });
}

await main();
