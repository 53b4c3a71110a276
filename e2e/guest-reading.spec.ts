import { devices, expect, type Page, test } from '@playwright/test';
import { DEMO_PASSWORD, expectNoSeriousA11yViolations, signInThroughApi } from './fixtures';
import { POLICY_URL } from './urls';

// Reading without an account (issue 28) on the demo facility's manual: the policy administrator lets this machine's
// address read, then a browser that never signed in searches and opens a policy. Guest reading is turned off again at
// the end, so the server's other tests see the project as they expect.
test.use({ baseURL: POLICY_URL });
test.setTimeout(120_000);

const SETTING = '/app/policy_management/1/guest-reading';
const SWITCH = 'Let guests read the published policies without signing in';

async function saveSetting(page: Page, on: boolean, ranges: string) {
  await page.goto(SETTING);
  await expect(page.getByRole('heading', { level: 1, name: 'Guest reading' })).toBeVisible();
  const toggle = page.getByLabel(SWITCH);
  await expect(toggle).toBeVisible();
  if (on) await toggle.check({ force: true });
  else await toggle.uncheck({ force: true });
  await page.getByLabel('Allowed networks').fill(ranges);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(on ? 'Guest reading is on.' : 'Guest reading is off.')).toBeVisible();
}

test('a kiosk without an account searches and reads a published policy', async ({ page, browser }) => {
  await signInThroughApi(page, 'admin@example.com', DEMO_PASSWORD, { acceptTerms: 'if-asked' });
  // The kiosk is a second browser that never signed in; a phone's screen, where the text must start in the first one.
  const context = await browser.newContext({ ...devices['Pixel 7'], baseURL: POLICY_URL });
  const guest = { page: await context.newPage(), close: () => context.close() };
  try {
    // Off (the default): the reader asks to sign in.
    await guest.page.goto('/read/1');
    await expect(guest.page.getByText('Reading without an account is not available here.')).toBeVisible();

    await saveSetting(page, true, '127.0.0.1/32');
    await expect(page.getByTestId('your-address')).toHaveText(/127\.0\.0\.1 \(inside the saved ranges\)/);
    await expectNoSeriousA11yViolations(page);

    await guest.page.goto('/read/1');
    await expect(guest.page.getByRole('heading', { level: 1, name: 'Demo Facility policies' })).toBeVisible();
    await expect(guest.page.getByRole('heading', { name: 'Table of contents' })).toBeVisible();
    await guest.page.getByRole('searchbox', { name: 'Search policies' }).fill('Morse');
    await guest.page.getByRole('button', { name: 'Search' }).click();
    await expect(guest.page.locator('mark', { hasText: 'Morse' }).first()).toBeVisible();
    await expectNoSeriousA11yViolations(guest.page);
    await guest.page
      .getByRole('link', { name: /Falls prevention/ })
      .first()
      .click();
    await expect(guest.page.getByRole('heading', { level: 1, name: /Falls prevention/ })).toBeVisible();
    // The text starts in the first screen, even on a phone.
    const text = guest.page.locator('.policy-content').first();
    await expect(text).toBeVisible();
    const box = await text.boundingBox();
    expect(box!.y).toBeLessThan(guest.page.viewportSize()!.height);
    await expect(guest.page.getByText('Printed copies are not controlled.')).toBeVisible();
    await expectNoSeriousA11yViolations(guest.page);

    // The administrators see what the guest did, with the address.
    await page.goto(SETTING);
    await expect(page.getByText('Searched “Morse”').first()).toBeVisible();
    await expect(page.getByText(/^Opened .*Falls prevention/).first()).toBeVisible();
  } finally {
    await saveSetting(page, false, '');
    await guest.close();
  }
});
