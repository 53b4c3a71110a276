import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations, longUsDate } from './fixtures';
import { EMPTY_URL } from './urls';

const TITLE = 'Terms and Conditions (System Use Notification)';

test.describe('Terms and conditions page', () => {
  test('shows the published terms with their date, in a scrolling box, and goes back to login @responsive', async ({
    page,
  }) => {
    // The demo terms carry the day the server was seeded, which a run that crosses midnight does not share with today.
    const published = await (await page.request.get('/api/public/terms-and-conditions')).json();
    expect(published.lastUpdated).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await page.goto('/terms-and-conditions');
    await expect(page.getByRole('heading', { level: 1, name: TITLE })).toBeVisible();
    await expect(page.getByText(`Last Updated: ${longUsDate(published.lastUpdated)}`)).toBeVisible();
    const content = page.getByRole('region', { name: /terms and conditions/i });
    await expect(content.getByRole('heading', { name: '1. System use notification' })).toBeVisible();
    // About 24rem high, and scrolls rather than growing.
    const box = await content.boundingBox();
    expect(box!.height).toBeGreaterThan(300);
    expect(box!.height).toBeLessThanOrEqual(24 * 16 + 2);
    await expect(page).toHaveTitle(/Terms and Conditions/);
    await expectNoSeriousA11yViolations(page);

    await page.getByRole('link', { name: 'Back to Login' }).click();
    await expect(page).toHaveURL(/\/member-login$/);
  });

  test('survives a reload on the deep link', async ({ page }) => {
    await page.goto('/terms-and-conditions');
    await expect(page.getByRole('heading', { level: 1, name: TITLE })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: TITLE })).toBeVisible();
    await expect(page.getByText('1. System use notification')).toBeVisible();
  });

  test('shows the empty state when no terms are published (real server, no demo data)', async ({ page }) => {
    await page.goto(`${EMPTY_URL}/terms-and-conditions`);
    await expect(page.getByText('No terms and conditions have been published yet.')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: TITLE })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });

  test('shows the error state when the terms cannot be loaded, and recovers on retry', async ({ page }) => {
    let fail = true;
    await page.route('**/api/public/terms-and-conditions', (route) =>
      fail ? route.fulfill({ status: 500, json: { message: 'Server Error' } }) : route.continue(),
    );
    await page.goto('/terms-and-conditions');
    await expect(
      page.getByText('The terms and conditions could not be loaded at this time. Please try again later.'),
    ).toBeVisible({ timeout: 30_000 });
    await expectNoSeriousA11yViolations(page);
    fail = false;
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect(page.getByText('1. System use notification')).toBeVisible();
  });

  test('shows a loading state while the terms are on their way', async ({ page }) => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/public/terms-and-conditions', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/terms-and-conditions');
    await expect(page.getByRole('status', { name: /loading/i })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    release();
    await expect(page.getByText('1. System use notification')).toBeVisible();
    await expect(page.getByRole('status', { name: /loading/i })).toHaveCount(0);
  });

  test('never runs script from stored terms', async ({ page }) => {
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.route('**/api/public/terms-and-conditions', (route) =>
      route.fulfill({
        json: {
          content: '<p>Safe text</p><img src="x" onerror="alert(1)"><a href="javascript:alert(2)">link</a>',
          lastUpdated: '2026-11-21',
        },
      }),
    );
    await page.goto('/terms-and-conditions');
    await expect(page.getByText('Safe text')).toBeVisible();
    await expect(page.getByText('Last Updated: November 21, 2026')).toBeVisible();
    await page.getByText('link').click();
    expect(dialogs).toEqual([]);
  });
});
