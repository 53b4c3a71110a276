import { expect, type Page, test } from '@playwright/test';
import { DEMO_PASSWORD, expectNoSeriousA11yViolations, signInThroughApi } from './fixtures';
import { MONITORING_DATA_URL } from './urls';

// Every chart review screen (issue 10) on the demo data: the accessibility check on a desktop, and no sideways
// scrolling on a phone. Read-only, on the chart review tests' server (the main demo server's sign-in tests change the
// demo passwords). The demo has a programme (id 1), its tool (id 1), three reviewed months with one adjudicated
// second review, and a finding (id 1).
test.use({ baseURL: MONITORING_DATA_URL });

const APP = '/app/chart-review/1';
const SCREENS = [
  'my',
  'dashboard',
  'dashboard/1',
  'sampling',
  'sampling/1',
  'irr?program=1',
  'irr/2',
  'findings',
  'findings/1',
  'tools',
  'tools/1',
  'programs',
  'programs/1/edit',
  'settings',
];

/** The screens in groups, each a test of its own, so the two workers share them. */
const GROUPS = Array.from({ length: Math.ceil(SCREENS.length / 5) }, (_, i) => SCREENS.slice(i * 5, i * 5 + 5));

async function open(page: Page, path: string) {
  await page.goto(`${APP}/${path}`);
  // The chart review app is a chunk of its own, fetched and parsed on each full page load.
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('status', { name: /^Loading/ })).toHaveCount(0, { timeout: 30_000 });
}

/** The admin's first review in My reviews (a second review of the demo month waiting), opened from its link. */
async function openFirstReview(page: Page) {
  await open(page, 'my');
  await page.getByRole('table', { name: 'My reviews' }).getByRole('link').first().click();
  await expect(page.getByRole('heading', { name: /^Review CR-/, level: 1 })).toBeVisible({ timeout: 30_000 });
}

async function fitsThePhone(page: Page, path: string) {
  const { scroll, view } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    view: window.innerWidth,
  }));
  expect(view).toBe(page.viewportSize()!.width);
  expect(scroll, `${path} scrolls sideways`).toBeLessThanOrEqual(view);
}

for (const [index, group] of GROUPS.entries()) {
  test(`every chart review screen passes the accessibility check (group ${index + 1} of ${GROUPS.length})`, async ({
    page,
  }) => {
    test.setTimeout(300_000);
    await signInThroughApi(page, 'admin@example.com', DEMO_PASSWORD, { acceptTerms: 'if-asked' });
    for (const path of group) {
      await open(page, path);
      await expectNoSeriousA11yViolations(page);
    }
    if (index === 0) {
      await openFirstReview(page);
      await expectNoSeriousA11yViolations(page);
    }
  });

  test(`@responsive every chart review screen fits a phone (group ${index + 1} of ${GROUPS.length})`, async ({
    page,
  }) => {
    test.setTimeout(300_000);
    await signInThroughApi(page, 'admin@example.com', DEMO_PASSWORD, { acceptTerms: 'if-asked' });
    for (const path of group) {
      await open(page, path);
      await fitsThePhone(page, path);
    }
    if (index === 0) {
      await openFirstReview(page);
      await fitsThePhone(page, 'review');
    }
  });
}
