import { expect, test } from '@playwright/test';
import { attemptSuffix, DEMO_PASSWORD, expectNoSeriousA11yViolations, signInThroughApi } from './fixtures';
import { MONITORING_DATA_URL } from './urls';

// Chart review, part 1 (issue 10): the chart review admin builds an audit tool with a conditional question,
// previews it as a reviewer would see it, publishes it and starts a monthly programme with it. It shares the
// monitoring data test's server: the two touch different apps.
test.use({ baseURL: MONITORING_DATA_URL });
test.setTimeout(240_000);

const APP = '/app/chart-review/1';

test('build an audit tool with a conditional question, preview and publish it, and start a programme', async ({
  page,
}) => {
  await signInThroughApi(page, 'admin@example.com', DEMO_PASSWORD, { acceptTerms: 'if-asked' });
  await expect(page).toHaveURL(/\/member\/projects/);

  const tool = `Restraint documentation${attemptSuffix()}`;
  await page.goto(`${APP}/tools`);
  await expect(page.getByRole('heading', { name: 'Audit tools', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Pain reassessment documentation' })).toBeVisible();
  await page.getByRole('button', { name: 'New tool' }).click();
  const create = page.getByRole('dialog', { name: 'New audit tool' });
  await create.getByLabel('Name').fill(tool);
  await create.getByLabel('Purpose').fill('Restraints are ordered, monitored and released as the policy requires.');
  await create.getByRole('button', { name: 'Create tool' }).click();
  await expect(page.getByRole('heading', { name: tool, level: 1 })).toBeVisible();

  await page.getByRole('button', { name: 'Add question' }).click();
  const first = page.getByRole('group', { name: 'Question 1' });
  await first.getByRole('textbox', { name: 'Question' }).fill('Was a restraint used during the stay?');
  await first.getByRole('textbox', { name: 'Key' }).fill('restraint_used');
  await page.getByRole('button', { name: 'Add question' }).click();
  const second = page.getByRole('group', { name: 'Question 2' });
  await second
    .getByRole('textbox', { name: 'Question' })
    .fill('Is there a physician order for each restraint episode?');
  await second.getByRole('textbox', { name: 'Key' }).fill('order_present');
  await second.getByLabel('Show only if').fill("restraint_used == 'yes'");
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(page.getByText('Draft saved.')).toBeVisible();

  // The preview shows the conditional question only once its condition holds.
  await page.getByRole('tab', { name: 'Preview' }).click();
  const preview = page.getByRole('region', { name: 'Preview of the review form' });
  await expect(preview.getByText('1 of 2 questions shown.')).toBeVisible();
  await expect(preview.getByText('Is there a physician order')).toHaveCount(0);
  await preview.getByText('Yes', { exact: true }).first().click();
  await expect(preview.getByText('2. Is there a physician order for each restraint episode?')).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await page
    .getByRole('dialog', { name: 'Publish version 1' })
    .getByRole('button', { name: 'Publish version 1' })
    .click();
  await expect(page.getByText('Version 1 published. New reviews use it from now on.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Start a new version' })).toBeVisible();

  await page.goto(`${APP}/programs/new`);
  await page.getByLabel('Name').fill(`${tool}, medical wards`);
  await page.getByRole('combobox', { name: 'Audit tool' }).click();
  await page.getByRole('option', { name: tool, exact: true }).click();
  await page.getByRole('combobox', { name: 'Units' }).fill('4 West');
  await page.getByRole('combobox', { name: 'Units' }).press('Enter');
  await page.getByRole('button', { name: 'Create programme' }).click();
  await expect(page).toHaveURL(new RegExp(`${APP}/programs$`));
  const row = page.getByRole('row').filter({ hasText: `${tool}, medical wards` });
  await expect(row).toContainText(`${tool} · v1`);
  await expect(row).toContainText('Joint Commission table');
  await expectNoSeriousA11yViolations(page);
});
