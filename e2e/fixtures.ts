import AxeBuilder from '@axe-core/playwright';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';

/**
 * 0 on a test's first run, then 1, 2... on a retry or a --repeat-each run. The servers outlive a try, so a test
 * that creates something with a unique name gives it another name on a retry (`attemptSuffix`).
 */
export function attempt(): number {
  return test.info().retry + test.info().repeatEachIndex;
}

/** '' on the first run, ' 2', ' 3'... after: what a retry appends to the names it creates. */
export function attemptSuffix(): string {
  return attempt() === 0 ? '' : ` ${attempt() + 1}`;
}

/** The password of every demo account (DESIGN.md section 6). */
export const DEMO_PASSWORD = 'Kx7#qPv9!mZt2$Lw';

/**
 * Fails on any serious or critical accessibility violation on the current page. It first waits for running
 * transitions (a closing dialog) to end: half-faded text would be measured as low contrast.
 */
export async function expectNoSeriousA11yViolations(page: Page): Promise<void> {
  await page
    .waitForFunction(
      () =>
        document
          .getAnimations()
          .every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Number.POSITIVE_INFINITY),
      undefined,
      { timeout: 5_000 },
    )
    .catch(() => {
      // Something still moving after five seconds is checked as it is.
    });
  // The offending HTML makes a failure readable without rerunning.
  expect(await seriousA11yViolations(page)).toEqual([]);
}

/** Axe's serious and critical violations on the page as it is, each with the HTML it found them in. */
export async function seriousA11yViolations(page: Page): Promise<string[]> {
  // Toasts are left out: sonner fades the older ones of a stack behind the newest on purpose, which axe would
  // measure as low contrast; a toast's own text is sonner's dark-on-white.
  // Legacy mode runs axe.run() in the page (and its same-origin frames: the app has no other) instead of a partial
  // run per frame finished in a new blank page; `resultTypes` details only the violations, not every passing node.
  // Same rules, same violations, a third of the time (decision record 014).
  const results = await new AxeBuilder({ page })
    .setLegacyMode()
    .options({ resultTypes: ['violations'] })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .exclude('[data-sonner-toaster]')
    .analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} ${v.nodes.map((n) => n.html.slice(0, 200)).join(' | ')}`);
}

/** A YYYY-MM-DD date (UTC) in the SPEC's long US format, e.g. December 2, 2026. */
export function longUsDate(isoDate: string): string {
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(
    new Date(`${isoDate}T00:00:00Z`),
  );
}

/**
 * The real ALTCHA widget: it starts its proof of work when the form gets focus; a person may also tick it.
 * Waits until it says Verified, ticking it if it has not started.
 */
export async function solveCaptcha(page: Page, timeoutMs = 60_000) {
  const widget = page.locator('altcha-widget');
  const verified = widget.getByText(/^verified$/i);
  const box = widget.getByRole('checkbox');
  // Poll its state: it may be verifying already (slow on a loaded machine), idle, or done.
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await verified.isVisible()) return;
    const idle = (await box.isVisible()) && (await box.isEnabled()) && !(await box.isChecked());
    // Forced: the widget draws its check mark over the box, and Playwright refuses a click the mark would receive
    // (a person's click there still ticks it). Needed when the widget loaded after the form already had focus.
    if (idle) await box.click({ force: true, timeout: 2_000 }).catch(() => {});
    await page.waitForTimeout(500);
  }
  throw new Error(`The captcha did not verify within ${timeoutMs / 1000} s`);
}

export const passwordField = (page: Page) => page.locator('input[type="password"]');

/**
 * Signs in through the login form. `acceptTerms`: true ticks the terms box (it must appear); 'if-asked' waits for the
 * form's /check-terms answer and ticks the box only when it appears.
 */
export async function signIn(
  page: Page,
  login: string,
  password: string,
  options: { acceptTerms?: boolean | 'if-asked' } = {},
) {
  // Rarely the widget never fetches its challenge on a loaded machine; a person reloads the page, and so does this.
  for (let attempt = 1; ; attempt++) {
    await page.goto('/member-login');
    const termsChecked = page
      .waitForResponse((r) => r.url().includes('/check-terms'), { timeout: 10_000 })
      .catch(() => null);
    await page.getByLabel('Username or email').fill(login);
    await passwordField(page).fill(password);
    const terms = page.getByRole('checkbox', { name: /accept the terms and conditions/i });
    if (options.acceptTerms === true) {
      await expect(terms).toBeVisible();
      await terms.check();
    } else if (options.acceptTerms === 'if-asked') {
      // Decide from the server's answer, not from what has rendered yet.
      const answer = await termsChecked;
      const status = answer ? ((await answer.json()) as { status: string }).status : 'accepted';
      if (status.startsWith('needs_')) {
        await expect(terms).toBeVisible();
        await terms.check();
      }
    }
    try {
      await solveCaptcha(page, 12_000);
      break;
    } catch (error) {
      if (attempt === 2) throw error;
    }
  }
  await page.getByRole('button', { name: 'Log in' }).click();
}

/**
 * Signs in through the API, for tests that are not about signing in (those use `signIn`, the real form): the same
 * steps the form takes, without typing and waiting for the widget. It fetches the XSRF cookie, asks /check-terms like
 * the form, solves the server's real ALTCHA challenge in Node, POSTs /login with the terms answer, stores the
 * two-factor set-up flag the login page stores, and opens the page the form lands on (/member/projects). The session
 * cookies land in the page's browser context: `page.request` shares its cookie jar. An account with two-factor on
 * needs `options.code` (its current authenticator code), sent as the form's code step sends it.
 */
export async function signInThroughApi(
  page: Page,
  login: string,
  password: string,
  options: { acceptTerms?: boolean | 'if-asked'; code?: () => Promise<string> } = {},
): Promise<void> {
  const request = page.request;
  expect((await request.get('/sanctum/csrf-cookie')).status()).toBe(204);
  let acceptTerms = false;
  if (options.acceptTerms !== undefined && options.acceptTerms !== false) {
    const { status } = (await (await request.get(`/check-terms?email=${encodeURIComponent(login)}`)).json()) as {
      status: string;
    };
    acceptTerms = status.startsWith('needs_');
    // `true` means the form must ask, as `signIn` expects the box to appear.
    if (options.acceptTerms === true) expect(status, `${login} is asked for the terms`).toMatch(/^needs_/);
  }
  const challengeAnswer = await request.get('/api/public/captcha/challenge');
  expect(challengeAnswer.status()).toBe(200);
  const challenge = await challengeAnswer.json();
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('The captcha challenge could not be solved');
  const xsrf = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value;
  expect(xsrf, 'the XSRF-TOKEN cookie').toBeTruthy();
  const answer = await request.post('/login', {
    headers: { 'X-XSRF-TOKEN': xsrf! },
    data: {
      email: login,
      password,
      'g-recaptcha-response': Buffer.from(JSON.stringify({ challenge, solution })).toString('base64'),
      ...(acceptTerms ? { accept_terms: true } : {}),
    },
  });
  let body = (await answer.json()) as { message?: string; two_factor?: true; setup_two_factor?: true };
  if (!answer.ok()) throw new Error(`${login} could not sign in: ${answer.status()} ${body.message ?? ''}`);
  if (body.two_factor) {
    if (!options.code) throw new Error(`${login} has two-factor on: pass options.code or use the form (signIn)`);
    // The code step, as the form's second step sends it: the pending login lives in the session just issued.
    const pendingXsrf = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value;
    const second = await request.post('/login', {
      headers: { 'X-XSRF-TOKEN': pendingXsrf! },
      data: { email: login, password, one_time_password: await options.code() },
    });
    body = (await second.json()) as typeof body;
    if (!second.ok())
      throw new Error(`${login} could not sign in with a code: ${second.status()} ${body.message ?? ''}`);
  }
  if (body.setup_two_factor) {
    // The login page stores this flag for the two-factor banner before it leaves (LoginPage.tsx, MFA_SETUP_FLAG).
    await page.goto('/readyz');
    await page.evaluate(() => window.localStorage.setItem('mfa_setup_required', 'true'));
  }
  await page.goto('/member/projects');
}

/**
 * On the identity providers screen (already open): maps a directory group of `provider` to `project` as a member with
 * the policy management role Reader, through the group mappings screen, and waits for the mapping's row.
 */
export async function mapDirectoryGroup(page: Page, provider: string, group: string, project: string): Promise<void> {
  await page.goto('/superadmin/identity-providers');
  await page.getByRole('link', { name: `Group mappings of ${provider}` }).click();
  await expect(page.getByRole('heading', { name: /Group mappings/, level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Add group mapping' }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Directory group' }).fill(group);
  await dialog.getByRole('combobox', { name: 'Project', exact: true }).click();
  await page.getByRole('option', { name: project }).click();
  await dialog.getByRole('combobox', { name: 'Policy management role' }).click();
  await page.getByRole('option', { name: 'Reader', exact: true }).click();
  await expectNoSeriousA11yViolations(page);
  await dialog.getByRole('button', { name: 'Add mapping' }).click();
  await expect(page.getByRole('row', { name: new RegExp(group) })).toContainText(project);
}

/** A fresh browser context on `baseURL`, as the running project's device (desktop or phone): a second person. */
export async function freshDevicePage(browser: Browser, baseURL: string) {
  const { viewport, isMobile, hasTouch, deviceScaleFactor, userAgent } = test.info().project.use;
  const context = await browser.newContext({ baseURL, viewport, isMobile, hasTouch, deviceScaleFactor, userAgent });
  return { page: await context.newPage(), close: () => context.close() };
}
