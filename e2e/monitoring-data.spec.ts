import { expect, type Page, test } from '@playwright/test';
import { attemptSuffix, DEMO_PASSWORD, expectNoSeriousA11yViolations, signInThroughApi } from './fixtures';
import { MONITORING_DATA_URL } from './urls';

// Monitoring data (issue 9) on a demo server of its own: the monitoring admin imports a CSV file of catheter days and
// CAUTIs, defines the rate in the formula builder, adds a control chart to the CAUTI page and sees the special-cause
// signal the data holds (a sustained drop after month 12). The steps build on each other, so they run in order.
test.describe.configure({ mode: 'serial' });
test.use({ baseURL: MONITORING_DATA_URL });
test.setTimeout(360_000);

const APP = '/app/monitoring/1';
const CAUTI = [5, 6, 4, 5, 7, 5, 6, 4, 5, 6, 5, 6, 1, 2, 1, 0, 1, 2, 1, 1, 0, 2, 1, 1];
const CSV = [
  'Month,Unit,CAUTI,Catheter days',
  ...CAUTI.map((count, i) => {
    const month = `${2024 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}-01`;
    return `${month},Whole hospital,${count},"2,000"`;
  }),
].join('\n');
const SHIFT = 'A run of points on one side of the centre line';

/** Through the API: the sign-in form has its own tests (auth.spec.ts). */
async function signedIn(page: Page) {
  await signInThroughApi(page, 'admin@example.com', DEMO_PASSWORD, { acceptTerms: 'if-asked' });
  await expect(page).toHaveURL(/\/member\/projects/);
}

/** The CAUTI page's id, from the page tree the screens read. */
async function cautiPageId(page: Page): Promise<number> {
  const answer = await page.request.get('/api/projects/1/monitoring/pages');
  expect(answer.status()).toBe(200);
  const { pages } = (await answer.json()) as { pages: { id: number; title: string }[] };
  const cauti = pages.find((p) => p.title === 'CAUTI');
  if (!cauti) throw new Error('the demo CAUTI page is missing');
  return cauti.id;
}

test('import a CSV, define a rate, add a control chart and see the signal', async ({ page }) => {
  await signedIn(page);
  const pageId = await cautiPageId(page);

  // A retry creates them under other names: the server keeps the first try's.
  const dataset = `Catheter days and CAUTI${attemptSuffix()}`;
  const measure = `CAUTI per 1,000 catheter days${attemptSuffix()}`;

  // 1. A new dataset and a CSV file through the import wizard.
  await page.goto(`${APP}/csv-import`);
  await page.getByRole('button', { name: 'New dataset' }).click();
  await page.getByRole('button', { name: 'Create dataset' }).click();
  await expect(page.getByText('Enter a name.')).toBeVisible();
  await page.getByRole('dialog').getByLabel('Name').fill(dataset);
  await page.getByRole('button', { name: 'Create dataset' }).click();
  await expect(page).toHaveURL(/csv-import\?dataset=\d+/);
  await page
    .locator('input[type=file]')
    .setInputFiles({ name: 'cauti.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) });
  await expect(page.getByRole('combobox', { name: 'Column separator' })).toHaveValue('Comma ( , )');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('table', { name: 'Column mapping' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Key of Catheter days' })).toHaveValue('catheter_days');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('table', { name: 'Preview of the first rows' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Import 24 rows' }).click();
  await expect(page.getByTestId('commit-result')).toContainText('Import complete');
  await expect(page.getByRole('row').filter({ hasText: 'cauti.csv' })).toContainText('Imported');

  // 2. The rate in the formula builder: a typo is pointed at, then the measure is created.
  await page.goto(`${APP}/formula-builder?page=${pageId}&measure=new`);
  await page.getByLabel('Name').fill(measure);
  await page.getByRole('combobox', { name: 'Type' }).click();
  await page.getByRole('option', { name: /^Rate/ }).click();
  await page.getByRole('combobox', { name: 'Dataset' }).click();
  await page.getByRole('option', { name: dataset, exact: true }).click();
  const numerator = page.getByRole('textbox', { name: 'Numerator' });
  await numerator.fill('sum(cauty)');
  await expect(page.getByText(/Did you mean 'cauti'\?/).first()).toBeVisible();
  await numerator.fill('sum(cauti)');
  await page.getByRole('textbox', { name: 'Denominator' }).fill('sum(catheter_days)');
  await expect(page.getByText('In words:').first()).toBeVisible();
  await page.getByRole('textbox', { name: 'Multiplier' }).fill('1000');
  await page.getByRole('button', { name: 'Create measure' }).click();
  await expect(page).toHaveURL(/measure=\d+/);

  // 3. A control chart on the page: the U chart is recommended for a rate.
  await page.goto(`${APP}/add-page-chart?page=${pageId}`);
  await page.getByRole('combobox', { name: /^Measure/ }).click();
  await page.getByRole('option', { name: measure, exact: true }).click();
  await expect(page.getByRole('textbox', { name: 'Title' })).toHaveValue(measure);
  await expect(page.getByText('Recommended for a rate measure')).toBeVisible();
  await page.getByRole('button', { name: 'Add chart' }).click();
  await expect(page).toHaveURL(new RegExp(`page-charts\\?page=${pageId}`));
  await expect(page.getByRole('heading', { name: measure, exact: true })).toBeVisible();

  // 4. The signal, named in the data table, and the page view's reading of it.
  await page.getByLabel('Show data table').first().check();
  await expect(page.getByRole('table').getByText(SHIFT).first()).toBeVisible();
  await page.goto(`${APP}/pages/page/${pageId}`);
  await expect(page.getByRole('table').filter({ hasText: measure })).toContainText('Improvement');
  await expect(page.locator('canvas').first()).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});
