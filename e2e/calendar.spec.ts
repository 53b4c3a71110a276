import fs from 'node:fs';
import path from 'node:path';
import { type Browser, type BrowserContext, expect, type Page, test } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { ClockServer } from './clock-server';
import { DEMO_PASSWORD, expectNoSeriousA11yViolations, signIn, signInThroughApi, solveCaptcha } from './fixtures';
import { CLOCK_PORT } from './urls';

/**
 * An installation as it lives through time: the built server on one data folder, started on day 0 (demo data made
 * then), and again on later days with its clock moved (TEST_CLOCK_OFFSET_DAYS); the browser's clock moves with it.
 * Each step checks what a user sees, with a screenshot (test-results/time/) and an axe check. One journey in order:
 * a failure stops the days after it, and a retry starts again from day 0 on a fresh folder.
 */
test.describe.configure({ mode: 'serial', timeout: 300_000 });

const server = new ClockServer(CLOCK_PORT);
const SHOTS = path.join('test-results', 'time');
const MODAL_TITLE = 'Two-Factor Authentication Required';
/** What each account set up on day 15, for the sign-ins of the later days. */
const secrets = new Map<string, string>();
/** The last TOTP step used per account: a code is accepted once, so the next sign-in takes a later step. */
const usedSteps = new Map<string, number>();

test.use({ baseURL: server.url });

test.beforeAll(async () => {
  await server.fresh();
  fs.mkdirSync(SHOTS, { recursive: true });
});

test.afterAll(async () => {
  await server.dispose();
});

/** A browser on the server's day: its Date runs from the server's "now". */
async function onServerDay(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: server.url });
  const page = await context.newPage();
  await page.clock.setSystemTime(server.now());
  return { context, page };
}

/** Screenshot and axe check of what the user sees now. */
async function look(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(SHOTS, `day-${server.offsetDays}-${name}.png`), fullPage: true });
  await expectNoSeriousA11yViolations(page);
}

/** The current TOTP code of an account, on the server's clock, never one already used. */
async function nextCode(login: string): Promise<string> {
  const secret = secrets.get(login);
  if (!secret) throw new Error(`${login} has no two-factor secret`);
  const totp = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });
  for (;;) {
    const step = Math.floor(server.now().getTime() / 30_000);
    if (step > (usedSteps.get(login) ?? -1)) {
      usedSteps.set(login, step);
      return totp.generate({ timestamp: step * 30_000 });
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

/** Signs in with the form: password, captcha, then the authentication code step when two-factor is on. */
async function signInWithCode(page: Page, login: string): Promise<void> {
  await signIn(page, login, DEMO_PASSWORD);
  const code = page.getByLabel('Authentication code');
  await expect(code).toBeVisible();
  await code.fill(await nextCode(login));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/member\/projects|\/superadmin/);
}

/** Signs in an account with two-factor on through the API (password, captcha, then its current code). */
async function signInWithCodeThroughApi(page: Page, login: string): Promise<void> {
  await signInThroughApi(page, login, DEMO_PASSWORD, { code: () => nextCode(login) });
}

/** From the modal or the gate to a working authenticator: the setup key read off the screen, a code confirmed. */
async function setUpTwoFactor(page: Page, login: string): Promise<void> {
  await expect(page).toHaveURL(/\/two-factor-settings\?continue=/);
  await expect(page.getByRole('dialog', { name: MODAL_TITLE })).toHaveCount(0);
  await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
  const key = ((await page.getByLabel('Setup key').textContent()) ?? '').replace(/\s+/g, '');
  secrets.set(login, key);
  await page.getByLabel('Authentication code').fill(await nextCode(login));
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('heading', { name: 'Your recovery codes' })).toBeVisible();
  await look(page, `${login.split('@')[0]}-recovery-codes`);
  await page.getByRole('button', { name: 'I have saved my codes' }).click();
}

/**
 * The set-password link of the newest email to `to` whose subject is `subject`, as the person receives it (the email
 * log keeps no live link: it shows a marker in its place).
 */
async function linkFromInbox(to: string, subject: string): Promise<string> {
  let mail: { text: string } | undefined;
  await expect
    .poll(
      () => {
        mail = [...server.inbox].reverse().find((m) => m.to.includes(to) && m.subject === subject);
        return Boolean(mail);
      },
      { message: `an email "${subject}" to ${to}`, timeout: 15_000 },
    )
    .toBe(true);
  const link = mail!.text.match(/https?:\/\/\S+\/reset-password\?\S+/)?.[0];
  expect(link, 'a set-password link in the email').toBeTruthy();
  return link!;
}

/** Links and sessions made on day 0, used again on later days. */
const dayZero = {
  invitation: '',
  reset: '',
  readerSession: undefined as Awaited<ReturnType<BrowserContext['storageState']>> | undefined,
};

test('day 0: a new installation warns its administrators that two-factor is due in 14 days', async ({ browser }) => {
  await server.start(0);

  // The reader asks for a reset link (valid for 60 minutes), and keeps a signed-in browser.
  {
    const { context, page } = await onServerDay(browser);
    await page.goto('/lost-password');
    await page.getByLabel('Email').fill('reader@example.com');
    await solveCaptcha(page);
    await page.getByRole('button', { name: 'Get New Password' }).click();
    await expect(
      page.getByText('If an account with this email exists, a password reset link has been sent to it.'),
    ).toBeVisible();
    await signInThroughApi(page, 'reader@example.com', DEMO_PASSWORD, { acceptTerms: 'if-asked' });
    await expect(page.getByRole('heading', { name: 'Your projects' })).toBeVisible();
    dayZero.readerSession = await context.storageState();
    await page.goto('/app/policy_management/1');
    const toRead = page.getByRole('list', { name: 'To read' });
    await expect(toRead.getByText(/Read by /).first()).toBeVisible();
    await expect(toRead.getByText('Overdue', { exact: true })).toHaveCount(0);
    await context.close();
  }

  // The superadmin sees the countdown and invites a new colleague (a link valid for 7 days).
  {
    const { context, page } = await onServerDay(browser);
    await signInThroughApi(page, 'superadmin@example.com', DEMO_PASSWORD, { acceptTerms: 'if-asked' });
    const banner = page.getByRole('status').filter({ hasText: 'Two-factor authentication will be required' });
    await expect(banner).toContainText('in 14 days');
    await expect(banner).toContainText('Days remaining: 14');
    // SPEC: a yellow warning (red and green high, blue low), not an orange one.
    const [red, green, blue] = (await banner.evaluate((el) => getComputedStyle(el).backgroundColor))
      .match(/\d+/g)!
      .map(Number);
    expect(red! > 220 && green! > 190 && blue! < 140, `yellow, not rgb(${red}, ${green}, ${blue})`).toBe(true);
    await look(page, 'superadmin-banner');
    await page.goto('/superadmin/users');
    await page.getByRole('button', { name: 'New user' }).click();
    const dialog = page.getByRole('dialog', { name: 'New user' });
    await dialog.getByLabel('Email').fill('new.nurse@example.com');
    await dialog.getByLabel('Username').fill('newnurse');
    await dialog.getByLabel('First name').fill('Nia');
    await dialog.getByLabel('Last name').fill('Nurse');
    await dialog.getByRole('button', { name: 'Create and send invitation' }).click();
    await expect(page.getByText('Invitation sent to new.nurse@example.com')).toBeVisible();
    dayZero.invitation = await linkFromInbox('new.nurse@example.com', 'Your Healthcare Quality Portal account');
    dayZero.reset = await linkFromInbox('reader@example.com', 'Reset your password');
    await context.close();
  }

  // The project admin sees the countdown, keeps encounter references for a month only, and has one to reveal.
  {
    const { context, page } = await onServerDay(browser);
    await signInThroughApi(page, 'admin@example.com', DEMO_PASSWORD, { acceptTerms: 'if-asked' });
    await expect(page.getByRole('status').filter({ hasText: 'Days remaining: 14' })).toBeVisible();
    await look(page, 'admin-banner');
    await page.goto('/app/chart-review/1/settings');
    const retention = page.getByLabel('Keep encounter references for (months)');
    await retention.fill('1');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByText('Settings saved.')).toBeVisible();
    await page.goto('/app/chart-review/1/my');
    await page.getByRole('link', { name: 'Start next' }).click();
    await expect(page.getByText('Encounter reference', { exact: true })).toBeVisible();
    await context.close();
  }

  // A member whose role needs no two-factor is not bothered.
  const { context, page } = await onServerDay(browser);
  await signInThroughApi(page, 'member@example.com', DEMO_PASSWORD, { acceptTerms: 'if-asked' });
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByText(/two-factor authentication/i)).toHaveCount(0);
  await context.close();
});

test('day 14: on the last day of the grace period the banner says so', async ({ browser }) => {
  await server.start(13.5);
  const { context, page } = await onServerDay(browser);
  await signInThroughApi(page, 'admin@example.com', DEMO_PASSWORD, { acceptTerms: 'if-asked' });
  const banner = page.getByRole('status').filter({ hasText: 'Two-factor authentication will be required' });
  await expect(banner).toContainText('within a day');
  await expect(banner).toContainText('Days remaining: 1');
  await expect(page.getByRole('dialog', { name: MODAL_TITLE })).toHaveCount(0);
  await look(page, 'admin-last-day');
  await context.close();
});

test('day 15: administrators without two-factor are stopped by the modal, set it up from it and carry on', async ({
  browser,
}) => {
  await server.start(15);

  // The superadmin: straight from the sign-in to the modal; its own files still load.
  {
    const { context, page } = await onServerDay(browser);
    await signInThroughApi(page, 'superadmin@example.com', DEMO_PASSWORD, { acceptTerms: 'if-asked' });
    await page.goto('/superadmin/users');
    const modal = page.getByRole('dialog', { name: MODAL_TITLE });
    await expect(modal).toBeVisible();
    await expect(modal).toContainText('Two-factor authentication is required for your account.');
    await look(page, 'superadmin-modal');
    const script = await page.locator('script[src*="/assets/"]').first().getAttribute('src');
    expect((await page.request.get(script!)).status()).toBe(200);
    expect((await page.request.get('/super/users')).status()).toBe(403);
    await modal.getByRole('button', { name: 'Set Up Now' }).click();
    await setUpTwoFactor(page, 'superadmin@example.com');
    // Carried on to where the modal stopped them, still signed in.
    await expect(page).toHaveURL(/\/superadmin\/users$/);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('dialog', { name: MODAL_TITLE })).toHaveCount(0);
    await expect(page.getByRole('cell', { name: 'admin@example.com', exact: true })).toBeVisible();
    await look(page, 'superadmin-carried-on');
    await context.close();
  }

  // The project admin: Cancel leaves the gate in place of the screen; Set Up Now there works the same.
  {
    const { context, page } = await onServerDay(browser);
    await signInThroughApi(page, 'admin@example.com', DEMO_PASSWORD, { acceptTerms: 'if-asked' });
    await page.goto('/app/admin/1/admin-dashboard');
    const modal = page.getByRole('dialog', { name: MODAL_TITLE });
    await expect(modal).toBeVisible();
    await modal.getByRole('button', { name: 'Cancel' }).click();
    await expect(modal).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Set up two-factor authentication to continue' })).toBeVisible();
    await look(page, 'admin-gate');
    await page.getByRole('link', { name: 'Set Up Now' }).click();
    await setUpTwoFactor(page, 'admin@example.com');
    await expect(page).toHaveURL(/\/app\/admin\/1\/admin-dashboard$/);
    await expect(page.getByRole('heading', { name: 'Set up two-factor authentication to continue' })).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Manage Users', level: 1 })).toBeVisible();
    await expect(page.getByRole('cell', { name: 'reader@example.com', exact: true })).toBeVisible();
    await look(page, 'admin-carried-on');
    await context.close();
  }

  // A member whose role needs no two-factor sees neither banner nor modal.
  {
    const { context, page } = await onServerDay(browser);
    await signInThroughApi(page, 'member@example.com', DEMO_PASSWORD, { acceptTerms: 'if-asked' });
    await page.goto('/app/policy_management/1');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('dialog', { name: MODAL_TITLE })).toHaveCount(0);
    await expect(page.getByRole('status').filter({ hasText: /two-factor/i })).toHaveCount(0);
    await look(page, 'member-nothing');
    await context.close();
  }

  // The next sign-in asks for the code.
  {
    const { context, page } = await onServerDay(browser);
    await page.goto('/member-login');
    await signInWithCode(page, 'admin@example.com');
    await context.close();
  }
});

/** Opens a set-password link and submits a good password: the answer for a link past its time. */
async function expectExpiredLink(page: Page, link: string, name: string): Promise<void> {
  await page.goto(link.replace(/^https?:\/\/[^/]+/, ''));
  await expect(page.getByRole('heading', { name: 'Reset password' })).toBeVisible();
  await page.getByLabel('New password').fill('Lq8#Vt2!pRz6@Wn4');
  await page.getByLabel('Confirm password').fill('Lq8#Vt2!pRz6@Wn4');
  await solveCaptcha(page);
  await page.getByRole('button', { name: 'Update' }).click();
  await expect(page.getByRole('alert')).toContainText(
    'This password reset link is invalid or has expired. Please request a new one.',
  );
  await look(page, name);
}

/** Reloads until `check` passes: a job that runs at start-up finishes a few seconds after the server is ready. */
async function afterStartupJobs(page: Page, url: string, check: () => Promise<void>): Promise<void> {
  await expect(async () => {
    await page.goto(url);
    await check();
  }).toPass({ timeout: 90_000, intervals: [1_000, 2_000, 5_000] });
}

test('day 31: links have expired, the day-0 session is over, and policy reviews that came due are everywhere', async ({
  browser,
}) => {
  await server.start(31);

  // Links from day 0: the invitation (7 days) and the reset (60 minutes) say they have expired.
  {
    const { context, page } = await onServerDay(browser);
    await expectExpiredLink(page, dayZero.invitation, 'invitation-expired');
    await expectExpiredLink(page, dayZero.reset, 'reset-expired');
    await context.close();
  }

  // The reader's browser from day 0 is signed out to the login, and comes back after signing in.
  {
    const context = await browser.newContext({ baseURL: server.url, storageState: dayZero.readerSession });
    const page = await context.newPage();
    await page.clock.setSystemTime(server.now());
    await page.goto('/app/policy_management/1');
    await expect(page).toHaveURL(/\/member-login\?redirect=%2Fapp%2Fpolicy_management%2F1/);
    await expect(page.getByRole('heading', { name: 'Member Login' })).toBeVisible();
    await look(page, 'reader-signed-out');
    await context.close();
  }

  // The reader, signed in again: every policy published on day 0 was to be read within 30 days.
  {
    const { context, page } = await onServerDay(browser);
    await signInThroughApi(page, 'reader@example.com', DEMO_PASSWORD);
    await page.goto('/app/policy_management/1');
    const toRead = page.getByRole('list', { name: 'To read' });
    await expect(toRead.getByText('Overdue', { exact: true }).first()).toBeVisible();
    expect(await toRead.getByText('Overdue', { exact: true }).count()).toBe(await toRead.getByRole('listitem').count());
    await expect(toRead.getByText(/Was due /).first()).toBeVisible();
    await look(page, 'reader-overdue-reading');
    await context.close();
  }

  // The policy administrator: both reviews overdue on the dashboard and in the bell.
  {
    const { context, page } = await onServerDay(browser);
    await signInWithCodeThroughApi(page, 'admin@example.com');
    await afterStartupJobs(page, '/app/policy_management/1/admin-dashboard', async () => {
      const overdue = page.getByRole('table', { name: 'Overdue reviews' });
      await expect(overdue).toContainText('Document retention', { timeout: 10_000 });
      await expect(overdue).toContainText('High-alert medications', { timeout: 10_000 });
      await expect(page.getByRole('button', { name: /Notifications \(\d+ unread\)/ })).toBeVisible({ timeout: 10_000 });
    });
    await expect(page.getByRole('table', { name: 'Overdue reviews' })).toContainText(/Overdue by \d+ days/);
    await look(page, 'policy-dashboard');
    await page.getByRole('button', { name: /Notifications \(\d+ unread\)/ }).click();
    await expect(
      page.getByText('The periodic review of "4.1 High-alert medications" is overdue', { exact: false }).first(),
    ).toBeVisible();
    await look(page, 'admin-bell');
    await context.close();
  }

  // The superadmin finds the reminder emails in the email log.
  {
    const { context, page } = await onServerDay(browser);
    await signInWithCodeThroughApi(page, 'superadmin@example.com');
    await page.goto('/superadmin/email-logs');
    await page.getByLabel('Search').fill('Overdue policy review');
    await expect(
      page.getByRole('cell', { name: 'Overdue policy review: 4.1 High-alert medications' }).first(),
    ).toBeVisible();
    await expect(
      page.getByRole('cell', { name: 'Overdue policy review: 1.2 Document retention' }).first(),
    ).toBeVisible();
    await look(page, 'email-log');
    await context.close();
  }
});

test('day 91: reviews and standards past due, encounter references purged', async ({ browser }) => {
  await server.start(91);

  // The chart reviewer: every review of the month locked on day 0 is overdue (due after 14 days).
  {
    const { context, page } = await onServerDay(browser);
    await signInThroughApi(page, 'reviewer@example.com', DEMO_PASSWORD, { acceptTerms: 'if-asked' });
    await page.goto('/app/chart-review/1/my');
    const table = page.getByRole('table', { name: 'My reviews' });
    await expect(table.getByText('Overdue', { exact: true })).toHaveCount(7);
    await look(page, 'reviewer-my-reviews');
    await context.close();
  }

  // The chart review admin: the references were kept a month, and the purge at start-up erased them.
  {
    const { context, page } = await onServerDay(browser);
    await signInWithCodeThroughApi(page, 'admin@example.com');
    await afterStartupJobs(page, '/app/chart-review/1/my', async () => {
      await page.getByRole('link', { name: 'Start next' }).click({ timeout: 10_000 });
      await expect(page.getByText('Due', { exact: true })).toBeVisible({ timeout: 10_000 });
      await expect(page.getByText('Encounter reference', { exact: true })).toHaveCount(0, { timeout: 2_000 });
    });
    await expect(page.getByText('Overdue', { exact: true }).first()).toBeVisible();
    await look(page, 'admin-review-purged');

    // Standards: everything owned with a 90-day due date is now overdue.
    await page.goto('/app/standards/1/readiness');
    await expect(page.getByRole('heading', { name: 'Readiness', level: 1 })).toBeVisible();
    await expect(page.getByText('Elements overdue')).toBeVisible();
    await look(page, 'standards-readiness');
    await page.goto('/app/standards/1/compilence');
    await expect(page.getByRole('heading', { name: 'Compliance', level: 1 })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Summary' })).toContainText(
      /Overdue\s*65\s*Elements past their due date/,
    );
    await page.getByRole('radiogroup', { name: 'Show' }).getByText('Overdue', { exact: true }).click();
    await expect(page.getByText('65 elements match.')).toBeVisible();
    await look(page, 'standards-overdue');
    await context.close();
  }
});

test('day 366: a year on, the demo data still opens every app', async ({ browser }) => {
  await server.start(366);
  const screens: [string, string | RegExp][] = [
    ['/member/projects', 'Your projects'],
    ['/member/projects/1/apps', 'Demo Facility'],
    ['/app/policy_management/1', 'My tasks'],
    ['/app/policy_management/1/admin-dashboard', 'Policy dashboard'],
    ['/app/monitoring/1', 'Analytics'],
    ['/app/monitoring/1/pages/page/3', /Falls with injury/],
    ['/app/chart-review/1/dashboard', 'Dashboard'],
    ['/app/chart-review/1/my', 'My reviews'],
    ['/app/standards/1/compilence', 'Compliance'],
    ['/app/standards/1/readiness', 'Readiness'],
    ['/app/admin/1/admin-dashboard', 'Manage Users'],
    ['/app/policy_generator', 'Policy Generator'],
  ];
  const { context, page } = await onServerDay(browser);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await signInWithCodeThroughApi(page, 'admin@example.com');
  for (const [url, heading] of screens) {
    await page.goto(url);
    await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
    await expect(page.getByText(/Something went wrong|could not be loaded/i)).toHaveCount(0);
    await look(page, url.replace(/^\//, '').replace(/\//g, '-'));
  }
  expect(errors).toEqual([]);
  await context.close();

  // The superadmin console.
  const superadmin = await onServerDay(browser);
  await signInWithCodeThroughApi(superadmin.page, 'superadmin@example.com');
  for (const [url, heading] of [
    ['/superadmin', 'Administration'],
    ['/superadmin/email-logs', 'Email Logs'],
  ] as const) {
    await superadmin.page.goto(url);
    await expect(superadmin.page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
    await look(superadmin.page, url.replace(/^\//, '').replace(/\//g, '-'));
  }
  await superadmin.context.close();
});
