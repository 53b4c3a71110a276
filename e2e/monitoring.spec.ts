import { type Browser, expect, type Page, test } from '@playwright/test';
import { DEMO_PASSWORD, expectNoSeriousA11yViolations, signInThroughApi } from './fixtures';
import { MONITORING_URL } from './urls';

// Monitoring (issue 8) on the demo facility's quality programme, on a server of its own: the tests run in order
// because they change the same tree (a new page, a move, an insight, a data request).
test.describe.configure({ mode: 'serial' });
test.use({ baseURL: MONITORING_URL });
test.setTimeout(240_000);

const APP = '/app/monitoring/1';

/** Through the API: the sign-in form has its own tests (auth.spec.ts). */
async function signedIn(page: Page, email: string) {
  await signInThroughApi(page, email, DEMO_PASSWORD, { acceptTerms: 'if-asked' });
  await expect(page).toHaveURL(/\/member\/projects/);
}

async function signedInPage(browser: Browser, email: string) {
  const context = await browser.newContext({ baseURL: MONITORING_URL });
  const page = await context.newPage();
  await signedIn(page, email);
  return { page, close: () => context.close() };
}

/** A row of the drag-and-drop tree by its title. */
const dndRow = (page: Page, title: string) => page.locator('li[data-page-id]').filter({ hasText: title }).first();

test('add a page under another, move it elsewhere and see the numbers follow', async ({ page }) => {
  await signedIn(page, 'admin@example.com');
  await page.goto(`${APP}/pages`);
  await expect(page.getByRole('heading', { level: 1, name: 'Pages' })).toBeVisible();
  await page.getByRole('button', { name: 'Actions for 2 Infection Prevention' }).click();
  await page.getByRole('menuitem', { name: /Add sub-page/ }).click();
  await expect(page).toHaveURL(/create-page\?parent=\d+/);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Enter a title.')).toBeVisible();
  await page.getByLabel('Title').fill('Surgical site infections');
  await page.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'Published' }).click();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/pages\/page\/\d+$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('2.4');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Surgical site infections');

  // Keyboard path of the reorder screen: move it up past CAUTI, then out to the top level.
  await page.goto(`${APP}/drag-and-drop`);
  const row = dndRow(page, 'Surgical site infections');
  await expect(row).toContainText('2.4');
  await row.getByRole('button', { name: /^Move / }).click();
  await page.getByRole('menuitem', { name: 'Move up' }).click();
  await expect(dndRow(page, 'Surgical site infections')).toContainText('2.3');
  await expect(dndRow(page, 'CAUTI')).toContainText('2.4');
  await dndRow(page, 'Surgical site infections')
    .getByRole('button', { name: /^Move / })
    .click();
  await page.getByRole('menuitem', { name: /^Outdent/ }).click();
  await expect(dndRow(page, 'Surgical site infections')).toHaveText(/^3\D/);
  await expect(dndRow(page, 'Medication Safety')).toHaveText(/^4\D/);
  await expect(dndRow(page, 'CAUTI')).toContainText('2.3');
  await expectNoSeriousA11yViolations(page);
});

test('edit the programme introduction and publish a key insight', async ({ page }) => {
  await signedIn(page, 'admin@example.com');
  await page.goto(`${APP}/introduction`);
  await page.getByRole('button', { name: 'Edit introduction' }).click();
  const editor = page.locator('.ProseMirror').first();
  await editor.click();
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.type(' The board sees this programme every quarter.');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('The board sees this programme every quarter.')).toBeVisible();
  await page.reload();
  await expect(page.getByText('The board sees this programme every quarter.')).toBeVisible();

  await page.goto(`${APP}/pages`);
  await page.getByRole('link', { name: 'Infection Prevention' }).first().click();
  await page.getByRole('link', { name: /Hand hygiene compliance/ }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Hand hygiene compliance');
  await page.getByRole('button', { name: 'Add key insight' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Title').fill('Aseptic-task compliance improving');
  await dialog.locator('.ProseMirror').click();
  await page.keyboard.type('Compliance before aseptic tasks rose to 88% after the ward campaign.');
  await dialog.getByRole('button', { name: 'Publish' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText('Aseptic-task compliance improving')).toBeVisible();
  await page.reload();
  await expect(page.getByText('Aseptic-task compliance improving')).toBeVisible();
  await expect(page.getByText('Compliance before aseptic tasks rose to 88% after the ward campaign.')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});

test('a viewer never sees the restricted page; files a data request the steward answers', async ({ browser }) => {
  const reader = await signedInPage(browser, 'reader@example.com');
  await reader.page.goto(`${APP}/pages`);
  await reader.page.getByRole('button', { name: 'Expand all' }).click();
  await expect(reader.page.getByRole('link', { name: /Falls prevention/ })).toBeVisible();
  await expect(reader.page.getByText('Peer review outcomes')).toHaveCount(0);

  await reader.page.goto(`${APP}/request-form`);
  await reader.page.getByRole('button', { name: 'Send request' }).click();
  await expect(reader.page.getByText('Enter a title.').first()).toBeVisible();
  await reader.page.getByLabel('Title').fill('Hand hygiene by ward');
  await reader.page.getByLabel('Purpose').fill('The infection committee compares wards.');
  await reader.page.getByRole('combobox', { name: 'Pages' }).click();
  await reader.page.getByRole('option', { name: /Hand hygiene compliance/ }).click();
  await reader.page.keyboard.press('Escape');
  await reader.page.getByLabel('Period from').fill('2026-01-01');
  await reader.page.getByLabel('Period to').fill('2026-10-31');
  await reader.page.getByRole('combobox', { name: 'Format' }).click();
  await reader.page.getByRole('option', { name: 'Table' }).click();
  await reader.page.getByRole('switch', { name: 'Patient-level data' }).check();
  await reader.page.getByRole('button', { name: 'Send request' }).click();
  await expect(reader.page.getByText(/Explain why patient-level data is needed/)).toBeVisible();
  await reader.page.getByRole('switch', { name: 'Patient-level data' }).uncheck();
  await reader.page.getByRole('button', { name: 'Send request' }).click();
  await expect(reader.page.getByText('Your data request was sent to the data stewards.')).toBeVisible();

  // The data steward (data entry) takes it, answers and delivers it.
  const steward = await signedInPage(browser, 'reviewer@example.com');
  await steward.page.goto(`${APP}/request-form`);
  await steward.page.getByRole('tab', { name: 'Queue' }).click();
  await steward.page.getByRole('button', { name: 'Open Hand hygiene by ward' }).click();
  const drawer = steward.page.getByRole('dialog');
  await drawer.getByRole('button', { name: 'Start work' }).click();
  await expect(drawer.getByRole('button', { name: 'Mark delivered' })).toBeVisible();
  await drawer.getByLabel('Response').fill('Attached: compliance by ward, January to October.');
  await drawer.getByRole('button', { name: 'Mark delivered' }).click();
  await expect(drawer.getByRole('button', { name: 'Close' }).first()).toBeVisible();
  await steward.close();

  await reader.page.reload();
  await reader.page.getByRole('tab', { name: 'My requests' }).click();
  const mine = reader.page.getByRole('row', { name: /Hand hygiene by ward/ });
  await expect(mine).toContainText('Delivered');
  await reader.close();
});

const SCREENS = [
  '',
  'introduction',
  'pages',
  'create-page',
  'page-levels',
  'page-levels/add',
  'numbering',
  'page-numbering',
  'drag-and-drop',
  'update-page-list-tables',
  'page-permissions',
  'page-role-manager',
  'manage-users',
  'assign-users',
  'assign-main-role',
  'main-role-dashboard',
  'create-user',
  'request-form',
  'csv-import?dataset=1',
  'formula-builder?page=3&measure=1',
  'page-charts?page=3',
  'add-page-chart?page=3',
];

/** Opens a screen and waits until its heading shows and nothing is loading any more. */
async function openScreen(page: Page, path: string) {
  await page.goto(`${APP}/${path}`);
  // The monitoring app is a chunk of its own, fetched and parsed on each full page load.
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('status', { name: /^Loading/ })).toHaveCount(0, { timeout: 30_000 });
}

/** The screens in groups of six: each group is a test of its own, so the two workers share them. */
const GROUPS = Array.from({ length: Math.ceil(SCREENS.length / 6) }, (_, i) => SCREENS.slice(i * 6, i * 6 + 6));

for (const [index, group] of GROUPS.entries()) {
  test(`every monitoring screen passes the accessibility check (group ${index + 1} of ${GROUPS.length})`, async ({
    page,
  }) => {
    test.setTimeout(300_000);
    await signedIn(page, 'admin@example.com');
    for (const path of group) {
      await openScreen(page, path);
      await expectNoSeriousA11yViolations(page);
    }
  });
}

for (const [index, group] of [...GROUPS.slice(0, -1), [...GROUPS.at(-1)!, 'pages/page/2']].entries()) {
  test(`@responsive every monitoring screen fits a phone (group ${index + 1} of ${GROUPS.length})`, async ({
    page,
  }) => {
    test.setTimeout(300_000);
    await signedIn(page, 'admin@example.com');
    for (const path of group) {
      await openScreen(page, path);
      const { scroll, view } = await page.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        view: window.innerWidth,
      }));
      expect({ path, view }).toEqual({ path, view: page.viewportSize()!.width });
      expect(scroll, `${path} scrolls sideways`).toBeLessThanOrEqual(view);
    }
  });
}
