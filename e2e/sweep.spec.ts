import fs from 'node:fs';
import path from 'node:path';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { SECTION_LABELS } from '@portal/shared';
import { DEMO_PASSWORD, seriousA11yViolations, signInThroughApi } from './fixtures';
import { SHELL_URL } from './urls';

/**
 * The screenshot review (issue 32, docs/ui.md): every route of the portal, as the account that uses it, at 1440 and
 * 390 px. Each screen is saved to screenshots/{width}/{account}/ (kept by CI as an artifact) and checked for what a
 * reviewer would see: text that overflows or is clipped in its box, a page wider than the screen, a word broken
 * inside the word in the navigation, a raw code on screen (snake_case, or a section's kebab-case address outside a
 * code element), a script error, and axe's serious or critical violations. A test lists every problem of its
 * account and width at once. Read-only: it opens screens and never submits, so it shares the shell's demo server.
 */

const SCREENSHOTS = path.resolve('screenshots');
const WIDTHS = [
  { name: 'desktop', viewport: { width: 1440, height: 900 }, isMobile: false },
  { name: 'phone', viewport: { width: 390, height: 844 }, isMobile: true },
] as const;

/** A route as a path, or as the first link matching `link` on the screen at `from` (a record of the demo data). */
type Visit = string | { from: string; link: RegExp; append?: string };

const P = '/app/policy_management/1';
const M = '/app/monitoring/1';
const C = '/app/chart-review/1';
const S = '/app/standards/1';
const G = '/app/policy_generator';
const A = '/app/admin/1';

const ROUTES: Record<string, Visit[]> = {
  'signed-out': [
    '/member-login',
    '/lost-password',
    `/reset-password?token=${'a'.repeat(64)}&email=someone%40example.com`,
    '/terms-and-conditions',
    '/read/1',
    '/no/such/page',
  ],
  'member@example.com': [
    '/member/projects',
    '/member/projects/1/apps',
    '/member/projects/1/contact-us',
    '/member/projects/demo-facility/myaccount',
    '/two-factor-settings',
    '/logout-confirm',
    '/not-superadmin',
    '/p/1/1',
    `${P}/toc`,
    `${P}/documents`,
    `${P}/documents/status/published`,
    { from: `${P}/toc`, link: /\/documents\/\d+$/ },
    { from: `${P}/toc`, link: /\/documents\/\d+$/, append: '/print' },
    `${P}/navigator`,
    `${P}/archive-navigator`,
    `${P}/search`,
    `${P}/quick-reference-guide`,
    M,
    `${M}/introduction`,
    `${M}/pages`,
    { from: `${M}/pages`, link: /\/pages\/page\/\d+$/ },
    `${M}/request-form`,
    `${C}/dashboard`,
    { from: `${C}/dashboard`, link: /\/dashboard\/\d+$/ },
    `${C}/findings`,
    `${C}/irr`,
    '/1/standards',
    `${S}/compilence`,
    `${S}/readiness`,
    G,
  ],
  'admin@example.com': [
    `${A}/admin-dashboard`,
    { from: `${A}/admin-dashboard`, link: /\/edit-user\/\d+$/ },
    `${A}/new-user-request`,
    `${A}/project-details-edit`,
    '/member/projects/1/contact-us-messages',
    `${P}/admin-dashboard`,
    `${P}/documents/status/draft`,
    `${P}/healthy-departments`,
    { from: `${P}/healthy-departments`, link: /\/attestation-reports\/\d+$/ },
    `${P}/department-reviewers`,
    `${P}/department-signers`,
    `${P}/department-readers`,
    `${P}/bulk-sign`,
    `${P}/bulk-send-to-sign`,
    `${P}/bulk-read`,
    `${P}/bulk-new-version`,
    { from: `${P}/toc`, link: /\/documents\/\d+$/, append: '/edit' },
    `${P}/convert`,
    `${P}/numbering`,
    `${P}/guest-reading`,
    `${P}/search-synonyms`,
    `${P}/insert-department`,
    `${P}/edit-department`,
    `${P}/dnd`,
    `${P}/add-standards`,
    `${P}/policy-users`,
    `${P}/assign-main-role`,
    `${P}/edit-main-role`,
    `${P}/create-project-user`,
    `${M}/create-page`,
    { from: `${M}/pages/page/1`, link: /\/edit-page\/\d+$/ },
    `${M}/page-levels`,
    `${M}/page-levels/add`,
    { from: `${M}/page-levels`, link: /\/page-levels\/edit\/\d+$/ },
    `${M}/numbering`,
    `${M}/page-numbering`,
    `${M}/drag-and-drop`,
    `${M}/update-page-list-tables`,
    `${M}/page-permissions`,
    `${M}/page-role-manager`,
    `${M}/main-role-dashboard`,
    `${M}/csv-import`,
    `${M}/formula-builder`,
    `${M}/page-charts`,
    `${M}/add-page-chart`,
    // Pages 2 and 3 of the demo data have a key insight and a chart.
    { from: `${M}/pages/page/2`, link: /\/key-insights\/edit\/\d+$/ },
    { from: `${M}/page-charts?page=3`, link: /\/edit-page-chart\/\d+$/ },
    `${M}/manage-users`,
    `${M}/assign-main-role`,
    `${M}/create-user`,
    `${C}/settings`,
    `${C}/tools`,
    { from: `${C}/tools`, link: /\/tools\/\d+$/ },
    `${C}/programs`,
    `${C}/programs/new`,
    { from: `${C}/programs`, link: /\/programs\/\d+\/edit$/ },
    `${C}/sampling`,
    { from: `${C}/sampling`, link: /\/sampling\/\d+$/ },
    `${G}/generated`,
    `${G}/profile`,
    { from: G, link: /\/templates\/\d+$/ },
    { from: G, link: /\/templates\/\d+\/generate$/ },
    `${S}/create`,
    `${S}/assign-users`,
    `${S}/manage-users`,
  ],
  'reviewer@example.com': [`${C}/my`, { from: `${C}/my`, link: /\/review\/\d+$/ }],
  'simple@example.com': ['/member/projects/1/apps', `${P}/toc`],
  'superadmin@example.com': [
    '/superadmin',
    '/superadmin/terms_and_conditions',
    '/superadmin/terms_and_conditions/history',
    '/superadmin/email-logs',
    '/superadmin/audit-log',
    '/superadmin/projects',
    '/superadmin/projects/1',
    '/superadmin/users',
    '/superadmin/users/import',
    { from: '/superadmin/users', link: /\/superadmin\/users\/\d+$/ },
    '/superadmin/new-user-requests',
    '/superadmin/identity-providers',
    '/dev/editor',
    '/superadmin/monitoring-permissions',
    '/superadmin/chart-review-permissions',
    '/superadmin/policy-management-permissions',
  ],
};

/** Section addresses with a hyphen (`bulk-sign`): codes, where a person should read the section's name. */
const SECTION_CODES = [...new Set(Object.values(SECTION_LABELS).flatMap((sections) => Object.keys(sections)))].filter(
  (code) => code.includes('-'),
);

/** What the page shows that a reviewer would flag; runs in the page. */
function screenProblems(sectionCodes: string[]): string[] {
  const problems: string[] = [];
  const nameOf = (el: Element) =>
    `<${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? ` class="${el.className.split(' ').slice(0, 2).join(' ')}"` : ''}> "${(el.textContent ?? '').trim().slice(0, 60)}"`;
  const shown = (el: Element) => {
    if (el.closest('[aria-hidden="true"], [hidden], [inert]')) return false;
    const style = getComputedStyle(el);
    const box = el.getBoundingClientRect();
    return style.visibility !== 'hidden' && style.display !== 'none' && box.width > 1 && box.height > 1;
  };
  const ownText = (el: Element) =>
    [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? '').trim() !== '');

  const root = document.documentElement;
  if (root.scrollWidth > window.innerWidth + 1) {
    problems.push(`the page is ${root.scrollWidth} px wide in a ${window.innerWidth} px window`);
  }

  for (const el of document.body.querySelectorAll('*')) {
    if (!ownText(el) || !shown(el)) continue;
    const style = getComputedStyle(el);
    if (style.display.startsWith('inline') && style.display !== 'inline-block' && style.display !== 'inline-flex') {
      continue;
    }
    if (['auto', 'scroll'].includes(style.overflowX)) continue;
    if (el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0) {
      problems.push(
        `text does not fit its box (${style.textOverflow === 'ellipsis' ? 'cut with …' : 'overflows'}): ${nameOf(el)}`,
      );
    }
  }

  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const snake = /(?<![\w@./:#-])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![\w@/-]|\.\w)/;
  const kebab = new RegExp(`(?<![\\w@./:#-])(?:${sectionCodes.join('|')})(?![\\w@/-]|\\.\\w)`);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent ?? '';
    const parent = node.parentElement;
    if (
      !text.trim() ||
      !parent ||
      parent.closest('code, pre, kbd, samp, script, style, noscript, textarea, [contenteditable]')
    )
      continue;
    if (!shown(parent)) continue;
    const code = text.match(snake)?.[0] ?? text.match(kebab)?.[0];
    if (code) problems.push(`a code on screen: "${code}" in ${nameOf(parent)}`);
    if (parent.closest('nav, [role="navigation"]')) {
      for (const word of text.matchAll(/[^\s\-–—/]+/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (lines.size > 1) problems.push(`a word broken across lines in the navigation: "${word[0]}"`);
      }
    }
  }
  return problems;
}

/**
 * Opens a route in the running app as a link would (the router reads the new address on popstate), so the sweep pays
 * for the screen and its data, not for loading the app again; the first visit loads the page.
 */
async function open(page: Page, route: string) {
  if (page.url() === 'about:blank') {
    await page.goto(route);
    return;
  }
  const heading = await page.evaluate((to) => {
    const before = document.querySelector('h1')?.textContent ?? '';
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
    return before;
  }, route);
  // The new screen has come when its heading replaces the last one's (a screen of the same title waits 3 s).
  await page
    .waitForFunction((before) => (document.querySelector('h1')?.textContent ?? '') !== before, heading, {
      timeout: 3000,
    })
    .catch(() => {});
}

/** The requests in flight of a page, so that a screen counts as settled when its data has come. */
function trackRequests(page: Page) {
  const inFlight = new Set<unknown>();
  let lastChange = Date.now();
  const change = () => {
    lastChange = Date.now();
  };
  page.on('request', (r) => {
    // The notification stream stays open for as long as the page.
    if (r.resourceType() === 'eventsource') return;
    inFlight.add(r);
    change();
  });
  const done = (r: unknown) => {
    inFlight.delete(r);
    change();
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  /**
   * Waits until no request has been in flight for 300 ms since the navigation (a screen's code and data are asked for
   * a moment after the address changes) and no loader shows (15 s at most).
   */
  return async function settle() {
    const started = Date.now();
    const deadline = started + 15_000;
    const quiet = () => inFlight.size === 0 && Date.now() - Math.max(lastChange, started) >= 300;
    while (Date.now() < deadline && !quiet()) await page.waitForTimeout(50);
    await expect(page.locator('.mantine-Loader-root:visible, [aria-busy="true"]:visible'))
      .toHaveCount(0, { timeout: Math.max(0, deadline - Date.now()) })
      .catch(() => {});
  };
}

async function resolve(page: Page, settle: () => Promise<void>, visit: Visit): Promise<string | null> {
  if (typeof visit === 'string') return visit;
  await open(page, visit.from);
  await settle();
  const hrefs = await page.locator('a[href]').evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
  const href = hrefs.map((h) => h.split(/[?#]/)[0]!).find((h) => visit.link.test(h));
  return href ? href + (visit.append ?? '') : null;
}

const fileName = (route: string) => route.replace(/^\//, '').replace(/[^\w-]+/g, '_') || 'home';

async function sweep(browser: Browser, account: string, width: (typeof WIDTHS)[number]) {
  const context = await browser.newContext({
    baseURL: process.env.SWEEP_URL ?? SHELL_URL,
    viewport: width.viewport,
    isMobile: width.isMobile,
    hasTouch: width.isMobile,
  });
  const page = await context.newPage();
  const scriptErrors: string[] = [];
  page.on('pageerror', (error) => scriptErrors.push(error.message));
  const settle = trackRequests(page);
  if (account !== 'signed-out') await signInThroughApi(page, account, DEMO_PASSWORD, { acceptTerms: 'if-asked' });
  const folder = path.join(SCREENSHOTS, width.name, account.replace(/@.*/, ''));
  fs.mkdirSync(folder, { recursive: true });
  const problems: string[] = [];
  for (const visit of ROUTES[account]!) {
    const t0 = Date.now();
    const route = await resolve(page, settle, visit);
    if (route === null) {
      const { from, link } = visit as Exclude<Visit, string>;
      problems.push(`${from}: no link matching ${link}, the record this sweep opens`);
      continue;
    }
    await open(page, route);
    const t1 = Date.now();
    await settle();
    const t2 = Date.now();
    await page.screenshot({ path: path.join(folder, `${fileName(route)}.png`) });
    const t3 = Date.now();
    const inPage = await page.evaluate(screenProblems, SECTION_CODES);
    const t4 = Date.now();
    // Axe's rules read names, roles and colours, which do not change with the width: once, at desktop width.
    const axe = width.isMobile ? [] : (await seriousA11yViolations(page)).map((v) => `accessibility: ${v}`);
    if (process.env.SWEEP_TIMING) console.log(route, t1 - t0, t2 - t1, t3 - t2, t4 - t3, Date.now() - t4);
    const found = [...inPage, ...axe, ...scriptErrors.splice(0).map((message) => `script error: ${message}`)];
    problems.push(...found.map((problem) => `${route}: ${problem}`));
  }
  await context.close();
  expect(problems, `${account} at ${width.viewport.width} px`).toEqual([]);
}

test.describe('Screenshot review', () => {
  // Each test opens dozens of screens, with axe on each.
  test.describe.configure({ timeout: 600_000 });
  for (const width of WIDTHS) {
    for (const account of Object.keys(ROUTES)) {
      test(`${account} at ${width.viewport.width} px`, async ({ browser }) => {
        await sweep(browser, account, width);
      });
    }
  }
});
