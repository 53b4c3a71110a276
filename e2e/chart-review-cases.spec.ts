import { type Browser, expect, type Page, test } from '@playwright/test';
import { attempt, DEMO_PASSWORD, expectNoSeriousA11yViolations, signInThroughApi } from './fixtures';
import { MONITORING_DATA_URL } from './urls';

// Chart review, part 2 (issue 10): the programme lead uploads an eligible-case list and draws and locks a sample; the
// reviewer reviews both charts; the chart review admin does the blind second review of one and disagrees on one
// question; the dashboard shows the case waiting; the lead adjudicates and the dashboard counts it. It shares the
// monitoring data test's server (different apps) and uses a period the demo data leaves empty (testPeriod).
test.use({ baseURL: MONITORING_DATA_URL });
test.setTimeout(480_000);

const APP = '/app/chart-review/1';
const PROGRAMME = 'Pain reassessment documentation';

/**
 * The period of this try, one the demo data leaves empty: five months ago, a month earlier on each retry (the server
 * keeps the sample a failed try locked), with its own encounter numbers.
 */
function testPeriod() {
  const now = new Date();
  const date = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 5 - attempt(), 1));
  const day = date.toISOString().slice(0, 10);
  const ref = (n: number) => `E2E-7${attempt()}00${n}`;
  return {
    /** "Jun 2026": every chart review screen names a month this way. */
    label: new Intl.DateTimeFormat('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(date),
    eligible: `encounter,unit,discharge_date\n${ref(1)},4 West,${day}\n${ref(2)},4 West,${day}\n`,
  };
}

async function as(browser: Browser, login: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: MONITORING_DATA_URL });
  const page = await context.newPage();
  // Through the API: the sign-in form has its own tests (auth.spec.ts).
  await signInThroughApi(page, login, DEMO_PASSWORD, { acceptTerms: 'if-asked' });
  await expect(page).toHaveURL(/\/member\/projects/);
  return page;
}

async function choose(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Answers a question of the review form by clicking its large answer button. */
async function answer(page: Page, key: string, value: 'Yes' | 'No' | 'N/A') {
  await page.locator(`[data-question-key="${key}"]`).getByText(value, { exact: true }).click();
}

/** Reviews every case of the test's period in My reviews: all Yes, except `goals[i]` for the care plan question. */
async function reviewAll(page: Page, goals: ('Yes' | 'No')[]) {
  const expected = goals.length;
  const PERIOD_LABEL = testPeriod().label;
  await page.goto(`${APP}/my`);
  await expect(page.getByRole('heading', { name: 'My reviews', level: 1 })).toBeVisible();
  const rows = page.getByRole('table', { name: 'My reviews' }).getByRole('row').filter({ hasText: PERIOD_LABEL });
  await expect(rows).toHaveCount(expected);
  for (let i = 0; i < expected; i++) {
    await page.goto(`${APP}/my`);
    await rows.first().getByRole('link').click();
    await expect(page.getByRole('heading', { name: /^Review CR-/, level: 1 })).toBeVisible();
    // The keyboard answers the focused question: Y on the first.
    await page.locator('[data-question-key="pain_assessed"]').focus();
    await page.keyboard.press('y');
    await answer(page, 'analgesia_given', 'Yes');
    // Reassessment only shows once an analgesic was given.
    await answer(page, 'reassessed_in_time', 'Yes');
    await answer(page, 'goal_documented', goals[i]!);
    await answer(page, 'education_given', 'Yes');
    await expect(page.getByText('5 of 5 questions answered.')).toBeVisible();
    await expect(page.getByRole('status', { name: 'Save status' })).toContainText('Saved');
    if (i === 0) await expectNoSeriousA11yViolations(page);
    await page.getByRole('button', { name: 'Submit review' }).click();
    // Under load a click landing while the confirmation is still opening was once lost (no request, the dialog
    // stayed open): click again only while the dialog is still there, so a review is never submitted twice.
    const confirm = page.getByRole('dialog', { name: 'Submit this review?' });
    await expect(async () => {
      if (await confirm.isVisible()) await confirm.getByRole('button', { name: 'Submit' }).click();
      await expect(page.getByText('Review submitted.')).toBeVisible({ timeout: 5_000 });
    }).toPass({ timeout: 40_000 });
    // Submitted reviews leave the to-do list.
    await page.goto(`${APP}/my`);
    await expect(rows).toHaveCount(expected - i - 1);
  }
}

async function dashboardFigure(page: Page, label: string) {
  return page.getByRole('region', { name: label });
}

test('draw a sample, review two charts, second-review one, adjudicate the disagreement and see the dashboard change', async ({
  browser,
}) => {
  const { label: PERIOD_LABEL, eligible: ELIGIBLE } = testPeriod();
  // The programme lead uploads the eligible-case list, draws the sample and locks it.
  const lead = await as(browser, 'member@example.com');
  await lead.goto(`${APP}/sampling`);
  await lead.getByRole('table', { name: 'Programmes to sample' }).getByRole('link', { name: PROGRAMME }).click();
  await expect(lead.getByRole('heading', { name: `Sampling · ${PROGRAMME}`, level: 1 })).toBeVisible();
  await choose(lead, 'Period', PERIOD_LABEL);
  await lead
    .locator('input[type="file"]')
    .setInputFiles({ name: 'eligible.csv', mimeType: 'text/csv', buffer: Buffer.from(ELIGIBLE) });
  await lead.getByRole('button', { name: 'Upload list' }).click();
  await expect(lead.getByText('2 eligible cases uploaded. Draw the sample next.')).toBeVisible();
  await lead.getByRole('form', { name: 'Draw the sample' }).getByRole('button', { name: 'Draw' }).click();
  await expect(lead.getByText('Sample drawn: 2 of 2 cases selected.')).toBeVisible();
  await expect(lead.getByRole('table', { name: 'Cases of the sample' }).getByRole('row')).toHaveCount(3);
  await expectNoSeriousA11yViolations(lead);

  await lead.getByRole('button', { name: 'Lock and assign' }).click();
  const lock = lead.getByRole('dialog', { name: 'Lock and assign' });
  await lock.getByText('By unit', { exact: true }).click();
  await lock.getByLabel('Reviewers for other units and second reviews').click();
  await lead.getByRole('option', { name: 'Avery Admin' }).click();
  // A click beside the list closes it, as a person would.
  await lock.getByText('How to assign').click();
  await lock.getByLabel('Reviewers for 4 West').click();
  await lead.getByRole('option', { name: 'Riley Reviewer' }).click();
  await lock.getByText('How to assign').click();
  await lock.getByRole('checkbox', { name: /The selection is final/ }).check();
  await lock.getByRole('button', { name: 'Lock and assign' }).click();
  await expect(lead.getByText('Sample locked and reviews assigned. The reviewers have been notified.')).toBeVisible();

  // The reviewer reviews both charts. They are still in validation (their checked reviews match under 97 %), so
  // each case also gets a blind second review by the admin, who reads one care plan differently.
  const reviewer = await as(browser, 'reviewer@example.com');
  await reviewAll(reviewer, ['Yes', 'Yes']);
  const admin = await as(browser, 'admin@example.com');
  await reviewAll(admin, ['No', 'Yes']);

  // The dashboard: both cases reviewed twice, one waiting for adjudication and not yet in the rates.
  const dashboard = `${APP}/dashboard/`;
  await lead.goto(`${APP}/dashboard`);
  await lead.getByRole('link', { name: PROGRAMME }).first().click();
  await expect(lead).toHaveURL(new RegExp(dashboard));
  await choose(lead, 'Period', PERIOD_LABEL);
  await expect(await dashboardFigure(lead, 'Submitted')).toContainText('2');
  await expect(await dashboardFigure(lead, 'Submitted')).toContainText('1 counted in the rates');
  await expect(await dashboardFigure(lead, 'Waiting for adjudication')).toContainText('1');
  const dashboardUrl = lead.url();

  // The lead, who reviewed neither, adjudicates: the care plan goal was documented.
  await lead.goto(`${APP}/irr`);
  await choose(lead, 'Programme', PROGRAMME);
  await choose(lead, 'Period', PERIOD_LABEL);
  const pair = lead
    .getByRole('table', { name: 'Second reviews' })
    .getByRole('row')
    .filter({ hasText: 'Needs adjudication' });
  await pair.getByRole('link').click();
  await expect(lead.getByRole('heading', { name: /^Adjudicate CR-/, level: 1 })).toBeVisible();
  const item = lead.locator('[data-key="goal_documented"]');
  await expect(item).toContainText('Reviewer A: Riley Reviewer');
  await item.getByRole('radiogroup', { name: 'Final answer' }).getByText('Yes', { exact: true }).click();
  await item.getByLabel('Comment').fill('The comfort goal is in the nursing care plan.');
  await expectNoSeriousA11yViolations(lead);
  await lead.getByRole('button', { name: 'Save adjudication' }).click();
  await lead
    .getByRole('dialog', { name: 'Save the adjudication?' })
    .getByRole('button', { name: 'Save adjudication' })
    .click();
  await expect(lead.getByText('Adjudication saved. The case counts again.')).toBeVisible();

  // Both cases now count, all Yes after adjudication.
  await lead.goto(dashboardUrl);
  await expect(await dashboardFigure(lead, 'Submitted')).toContainText('2 counted in the rates');
  await expect(await dashboardFigure(lead, 'Waiting for adjudication')).toContainText('0');
  await expect(await dashboardFigure(lead, 'Overall compliance')).toContainText('100');
  await expectNoSeriousA11yViolations(lead);
});
