import { expect, type Page, test } from '@playwright/test';
import { DEMO_PASSWORD, expectNoSeriousA11yViolations, signInThroughApi } from './fixtures';
import { MONITORING_DATA_URL } from './urls';

// Standards (issue 11) on the demo data: the CMS Conditions of Participation assessed in part. On the chart review
// tests' server (the main demo server's sign-in tests change the demo passwords); standards links and findings
// change nothing those tests read.
test.use({ baseURL: MONITORING_DATA_URL });

const APP = '/app/standards/1';

async function openElement(page: Page, ref: string) {
  await page.goto(`${APP}/compilence`);
  await expect(page.getByRole('heading', { level: 1, name: 'Compliance' })).toBeVisible({ timeout: 30_000 });
  await page.getByLabel('Search', { exact: true }).fill(ref);
  await expect(page.getByText(/elements? match/)).toBeVisible();
  await page.getByRole('row').filter({ hasText: ref }).last().click();
  const panel = page.getByRole('dialog');
  await expect(panel.getByRole('heading', { name: 'Linked policies' })).toBeVisible({ timeout: 30_000 });
  return panel;
}

async function link(page: Page, panel: ReturnType<Page['getByRole']>, type: string, search: string, option: RegExp) {
  const form = panel.getByRole('form', { name: 'Add a link' });
  await form.getByText(type, { exact: true }).click();
  const picker = form.getByRole('combobox', { name: `${type} to link` });
  // The list refreshes as the search runs: a click that lands while it does is lost, so check that it was taken.
  await expect(async () => {
    await picker.fill(search);
    await page.getByRole('option', { name: option }).click({ timeout: 5_000 });
    await expect(picker).toHaveValue(option, { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await form.getByRole('button', { name: 'Link', exact: true }).click();
  await expect(page.getByText(new RegExp(`^Linked .*${option.source}.*\\.$`))).toBeVisible();
}

/** Removes the element's links, so that a retry starts where the first try did. */
async function unlinkAll(page: Page, panel: ReturnType<Page['getByRole']>) {
  const unlink = panel.getByRole('button', { name: /^Unlink / });
  for (let left = await unlink.count(); left > 0; left--) {
    await unlink.first().click();
    await page.getByRole('dialog', { name: 'Remove this link?' }).getByRole('button', { name: 'Unlink' }).click();
    await expect(unlink).toHaveCount(left - 1);
  }
}

test('links a policy and a measure to an element, sees their live state, records a finding and downloads the binder', async ({
  page,
}) => {
  await signInThroughApi(page, 'admin@example.com', DEMO_PASSWORD, { acceptTerms: 'if-asked' });
  const panel = await openElement(page, '§482.23(b)(1)');
  await unlinkAll(page, panel);

  // A published demo policy and a measure with 36 months of data: their live state appears on the element.
  await link(page, panel, 'Policy', 'Falls', /Falls prevention/);
  const policies = panel.getByRole('region', { name: 'Linked policies' });
  await expect(policies.getByRole('link', { name: /Falls prevention/ })).toBeVisible();
  await expect(policies.getByText('Approved', { exact: true })).toBeVisible();
  await expect(policies.getByText(/^Version \d+/)).toBeVisible();

  await link(page, panel, 'Measure', 'Falls', /Falls with injury/);
  const measures = panel.getByRole('region', { name: 'Linked measures' });
  await expect(measures.getByRole('link', { name: /Falls with injury/ })).toBeVisible();
  await expect(measures.getByText(/^Latest /)).toBeVisible();
  await expect(measures.getByText(/^Variation: /)).toBeVisible();

  // The tree counts the links of the element.
  await page.keyboard.press('Escape');
  await expect(
    page
      .getByRole('row')
      .filter({ hasText: '§482.23(b)(1)' })
      .last()
      .getByRole('img', { name: '1 linked policy, 1 measure, 0 audits' }),
  ).toBeVisible();

  // A finding on the SAFER grid, from the element's panel.
  const again = await openElement(page, '§482.23(b)(1)');
  await again.getByRole('button', { name: 'Record a finding' }).click();
  const form = page.getByRole('dialog', { name: 'Record a finding' });
  await form.getByLabel('What was found').fill('Two night rosters had no RN in charge.');
  await form.getByRole('radio', { name: 'Moderate likelihood, widespread scope' }).click();
  await expect(form.getByText('High-risk cell')).toBeVisible();
  await form.getByRole('button', { name: 'Record finding' }).click();
  await expect(page.getByText('Finding recorded.')).toBeVisible();
  await expect(again.getByRole('region', { name: 'Findings' })).toContainText('Two night rosters had no RN in charge.');

  // Readiness places it on the grid; the binder of the nursing condition downloads as a PDF.
  await page.goto(`${APP}/readiness`);
  await expect(page.getByRole('heading', { level: 1, name: 'Readiness' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('cell', { name: /^Moderate likelihood, widespread scope: \d+ open$/ })).toBeVisible();
  await expect(page.getByRole('link', { name: /Two night rosters/ }).first()).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.getByRole('combobox', { name: 'Survey binder' }).fill('§482.23 Nursing');
  await page.getByRole('option', { name: /§482\.23 Nursing services/ }).click();
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download the binder (PDF)' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/\.pdf$/);
  const file = await download.path();
  const { readFile } = await import('node:fs/promises');
  const bytes = await readFile(file!);
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
  expect(bytes.length).toBeGreaterThan(5_000);
});

test('every standards screen passes the accessibility check and fits a phone @responsive', async ({ page }) => {
  await signInThroughApi(page, 'member@example.com', DEMO_PASSWORD, { acceptTerms: 'if-asked' });
  // The member leads QAPI and nursing (chapter lead): no Create or Manage users for them.
  for (const screen of ['compilence', 'readiness', 'assign-users']) {
    await page.goto(`${APP}/${screen}`);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole('status', { name: /^Loading|^Checking/ })).toHaveCount(0, { timeout: 30_000 });
    await expectNoSeriousA11yViolations(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${screen} scrolls sideways`).toBeLessThanOrEqual(1);
  }
  await page.goto('/1/standards');
  await expect(page.getByRole('heading', { level: 1, name: 'My standards' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(/§482\.2[13]/).first()).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});

test('the admin screens: create, manage users, and add-standards in policy management and monitoring', async ({
  page,
}) => {
  await signInThroughApi(page, 'admin@example.com', DEMO_PASSWORD, { acceptTerms: 'if-asked' });
  for (const path of [
    `${APP}/create`,
    `${APP}/manage-users`,
    '/app/policy_management/1/add-standards',
    '/app/monitoring/1/add-standards',
  ]) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole('status', { name: /^Loading|^Checking/ })).toHaveCount(0, { timeout: 30_000 });
    await expectNoSeriousA11yViolations(page);
  }
});
