import { fileURLToPath } from 'node:url';
import { expect, type Page, test } from '@playwright/test';
import { DEMO_PASSWORD, expectNoSeriousA11yViolations, signInThroughApi } from './fixtures';
import { ADMIN_URL } from './urls';

// Editions from the eCFR (issue 30, docs/standards.md): a superadmin loads 42 CFR 482 from its XML, the demo
// assessment moves to it with "Upgrade to another edition", and the new paragraphs show their heading, source note and
// the day they come into force. On the administration tests' server: nothing there reads the standards app, and a
// loaded edition is seen by every project.
test.use({ baseURL: ADMIN_URL });

const APP = '/app/standards/1';
const FIXTURE = fileURLToPath(
  new URL('../packages/server/src/modules/standards/ecfr/fixtures/ecfr-42-482-excerpt.xml', import.meta.url),
);

async function openElement(page: Page, ref: string) {
  await page.getByLabel('Search', { exact: true }).fill(ref);
  await expect(page.getByText(/elements? match/)).toBeVisible();
  await page.getByRole('row').filter({ hasText: ref }).last().click();
  const panel = page.getByRole('dialog');
  await expect(panel.getByRole('heading', { name: 'Regulation text' })).toBeVisible({ timeout: 30_000 });
  return panel;
}

test('a superadmin loads an eCFR edition and upgrades the demo assessment to it', async ({ page }) => {
  await signInThroughApi(page, 'superadmin@example.com', DEMO_PASSWORD, { acceptTerms: 'if-asked' });
  await page.goto(`${APP}/create`);
  const form = page.getByRole('form', { name: 'Load an edition from the eCFR' });
  await expect(form).toBeVisible({ timeout: 30_000 });

  // Bad input first: no file, then a file that is not an eCFR part.
  await form.getByRole('button', { name: 'Load edition' }).click();
  await expect(form.getByText('Choose the eCFR XML file.')).toBeVisible();
  await form.locator('input[type="file"]').setInputFiles({
    name: 'notes.xml',
    mimeType: 'text/xml',
    buffer: Buffer.from('<notes><note>Not a regulation</note></notes>'),
  });
  await form.getByRole('button', { name: 'Load edition' }).click();
  await expect(form.getByText(/^This is not an eCFR part we can read: The file holds no CFR part/)).toBeVisible();

  // The eCFR XML: its date comes from the file. (A retry finds it loaded already.)
  await form.locator('input[type="file"]').setInputFiles(FIXTURE);
  await form.getByRole('button', { name: 'Load edition' }).click();
  await expect(
    page
      .getByText(
        /^Loaded CMS-482 eCFR as of 2025-01-01: 3 sections, \d+ paragraphs, with a crosswalk of \d+ mappings from edition 2024\.$/,
      )
      .or(form.getByText('CMS-482 eCFR as of 2025-01-01 is already loaded.')),
  ).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('edition eCFR as of 2025-01-01', { exact: false }).first()).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('create-with-ecfr-edition.png'), fullPage: true });

  // The demo assessment moves to it: results, owners and evidence carried through the derived crosswalk.
  await page.goto(`${APP}/compilence`);
  await page.getByRole('button', { name: 'Upgrade to another edition' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upgrade to another edition' });
  await dialog.getByLabel('Upgrade to').click();
  await page.getByRole('option', { name: /eCFR as of 2025-01-01/ }).click();
  await dialog.getByRole('button', { name: 'Upgrade', exact: true }).click();
  await expect(page).toHaveURL(/compilence\?assessment=\d+/, { timeout: 30_000 });
  await expect(page.getByRole('heading', { level: 1, name: 'Compliance' })).toBeVisible();

  // The maternal QAPI standard of the CY 2025 rule: listed, in force from 2027, not counted before.
  await page.getByLabel('Search', { exact: true }).fill('§482.21(e)(1)');
  const maternal = page.getByRole('row').filter({ hasText: '§482.21(e)(1)' }).last();
  await expect(maternal.getByText('In force from January 1, 2027')).toBeVisible();

  // Executive responsibilities moved from (e) to (f): the demo's result came with it, with the section's source.
  const exec = await openElement(page, '§482.21(f)(1)');
  await expect(exec.getByText(/Carried from.*§482\.21\(e\)\(1\) \(2024\)/)).toBeVisible();
  await expect(exec.getByText(/^That an ongoing program for quality improvement and patient safety/)).toBeVisible();
  await expect(
    exec.getByText(/^Source: \[68 FR 3454, Jan\. 24, 2003, as amended at .*89 FR 94591, Nov\. 27, 2024\]$/),
  ).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: test.info().outputPath('element-carried.png') });
  await exec.getByRole('button', { name: 'Close' }).first().click();

  // A paragraph with its own heading: the heading as printed, apart from the text.
  const trainer = await openElement(page, '§482.13(f)(3)');
  await expect(trainer.getByText('Trainer requirements.', { exact: true })).toBeVisible();
  await expect(trainer.getByText(/^Individuals providing staff training must be qualified/)).toBeVisible();

  // And at a phone's width the panel still reads.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: test.info().outputPath('element-heading-phone.png') });
});
