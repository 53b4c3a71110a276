import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

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
  // Toasts are left out: sonner fades the older ones of a stack behind the newest on purpose, which axe would
  // measure as low contrast; a toast's own text is sonner's dark-on-white.
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .exclude('[data-sonner-toaster]')
    .analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  // The offending HTML makes a failure readable without rerunning.
  expect(serious.map((v) => `${v.id}: ${v.help} ${v.nodes.map((n) => n.html.slice(0, 200)).join(' | ')}`)).toEqual([]);
}

/** The date the demo terms were published (today, UTC) in the SPEC's long US format. */
export function todayLongUs(): string {
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date());
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
    if (idle) await box.click({ timeout: 2_000 }).catch(() => {});
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
