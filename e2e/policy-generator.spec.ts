import { expect, test } from '@playwright/test';
import { DEMO_PASSWORD, expectNoSeriousA11yViolations, signInThroughApi } from './fixtures';
import { MONITORING_DATA_URL } from './urls';

// The policy generator (issue 12) on the demo data: the facility profile is filled in, the library is put in on first
// use. On the chart review tests' server, like standards: a new draft in Infection Prevention and Control changes
// nothing those tests read.
test.use({ baseURL: MONITORING_DATA_URL });

test('generates a policy from a library template and sends the draft into review', async ({ page }) => {
  await signInThroughApi(page, 'admin@example.com', DEMO_PASSWORD, { acceptTerms: 'if-asked' });
  await page.goto('/app/policy_generator');
  await expect(page.getByRole('heading', { level: 1, name: 'Policy Generator' })).toBeVisible({ timeout: 30_000 });

  // The gallery: find the template by its text and open the wizard.
  await page.getByLabel('Search').fill('hand hygiene');
  const card = page.getByRole('article').filter({ hasText: 'Hand Hygiene' }).first();
  await expect(card.getByText('Fits your profile')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await card.getByRole('link', { name: /Use template/ }).click();
  await expect(page.getByRole('heading', { name: 'Generate: Hand Hygiene' })).toBeVisible();

  // 1 profile check, 2 answers (the defaults answer every required question), 3 preview.
  await expect(page.getByText('Demo Facility General Hospital').first()).toBeVisible();
  await page.getByRole('button', { name: 'Next' }).click();
  const target = page.getByLabel(/Compliance target/);
  await expect(target).toBeVisible();
  // A required answer left empty keeps the wizard on its step, says so under the field and focuses it.
  await target.fill('');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('Enter a number to go on.')).toBeVisible();
  await expect(target).toBeFocused();
  await target.fill('97');
  await expect(page.getByText('Enter a number to go on.')).toHaveCount(0);
  await page.getByRole('button', { name: 'Next' }).click();
  const preview = page.getByRole('region', { name: 'Preview of the draft' });
  await expect(preview.getByText(/compliance is 97% or better|97% or better/)).toBeVisible();
  await expect(preview.getByRole('heading', { name: 'Procedure' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.getByRole('button', { name: 'Next' }).click();

  // 4 destination: the template's department is proposed, its reviewers are shown and the next free number in its
  // chapter (Infection Prevention and Control is chapter 3 of the demo manual).
  const title = `Hand hygiene ${Date.now()}`;
  await page.getByRole('textbox', { name: 'Title' }).fill(title);
  await expect(page.getByRole('combobox', { name: 'Department' })).toHaveValue(/Infection Prevention and Control/);
  await expect(page.getByText(/Reviewers: /)).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Number' })).toHaveValue(/^3\.\d+$/);
  await page.getByRole('button', { name: 'Generate draft' }).click();

  await expect(page.getByText('Draft created')).toBeVisible();
  await page.getByRole('link', { name: 'Open the draft in Policy management' }).click();
  await expect(page.getByRole('heading', { name: new RegExp(title) })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(/Made with the Policy Generator from Hand Hygiene, template version 1/)).toBeVisible();

  // The draft enters the normal workflow.
  await page.getByRole('button', { name: 'Send for review' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Send for review' }).click();
  await expect(page.getByText('Version 1 was sent for review.')).toBeVisible();
  await expect(page.getByText('In review').first()).toBeVisible();

  // And it is listed among the generated policies with its template version.
  await page.goto('/app/policy_generator/generated');
  await expect(page.getByRole('row').filter({ hasText: title })).toContainText('Hand Hygiene');
});

test('@responsive every generator screen fits a phone and passes the accessibility check', async ({ page }) => {
  test.setTimeout(300_000);
  await signInThroughApi(page, 'admin@example.com', DEMO_PASSWORD, { acceptTerms: 'if-asked' });
  const settled = async () => {
    await expect(page.getByRole('heading', { level: 1, name: 'Policy Generator' })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole('status', { name: /^(Loading|Checking)/ })).toHaveCount(0, { timeout: 30_000 });
  };
  const check = async (what: string) => {
    await settled();
    const { scroll, view } = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      view: window.innerWidth,
    }));
    // A phone widens its layout viewport to content that does not fit, so both must stay at the device width.
    expect({ what, view }).toEqual({ what, view: page.viewportSize()!.width });
    expect(scroll, `${what} scrolls sideways`).toBeLessThanOrEqual(view);
    await expectNoSeriousA11yViolations(page);
  };

  for (const path of ['', '/generated', '/profile']) {
    await page.goto(`/app/policy_generator${path}`);
    await check(path || 'gallery');
  }

  // A library template, and each step of its wizard.
  await page.goto('/app/policy_generator');
  await settled();
  await page.getByLabel('Search').fill('obstetric');
  await page.getByRole('article').first().getByRole('link', { name: 'Open' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Obstetric Hemorrhage' })).toBeVisible();
  await check('template page');
  await page.getByRole('link', { name: 'Use template' }).click();
  for (const step of ['profile check', 'answers', 'preview', 'destination']) {
    await expect(page.getByRole('heading', { name: 'Generate: Obstetric Hemorrhage' })).toBeVisible();
    await check(`wizard: ${step}`);
    if (step === 'preview') {
      await expect(page.getByRole('region', { name: 'Standards this draft helps meet' })).toContainText('Cited');
    }
    if (step !== 'destination') await page.getByRole('button', { name: 'Next' }).click();
  }

  // The template editor, on a project template of its own.
  const xsrf = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')!.value;
  const created = await page.request.post('/api/projects/1/policy-generator/templates', {
    headers: { 'X-XSRF-TOKEN': xsrf },
    data: { title: `Phone check ${Date.now()}` },
  });
  expect(created.status()).toBe(201);
  await page.goto(`/app/policy_generator/templates/${(await created.json()).id}`);
  await settled();
  await page.getByRole('button', { name: /^(Edit|Open) draft$/ }).click();
  await expect(page.getByRole('button', { name: 'Save draft' })).toBeVisible();
  await check('template editor');
});
