import { expect, type Page, test } from '@playwright/test';
import { buildDocx } from '../packages/server/test/docx-fixture';
import { attempt, DEMO_PASSWORD, expectNoSeriousA11yViolations, signInThroughApi } from './fixtures';
import { POLICY_URL } from './urls';

// Policy management on the demo facility's manual (project 1), on a server of its own: the tests run in order
// because they change the same manual (a new draft, a new version, a renumbering).
test.describe.configure({ mode: 'serial' });
test.use({ baseURL: POLICY_URL });
test.setTimeout(120_000);

const APP = '/app/policy_management/1';

/** Through the API: the sign-in form has its own tests (auth.spec.ts). */
async function signInAsAdmin(page: Page) {
  await signInThroughApi(page, 'admin@example.com', DEMO_PASSWORD, { acceptTerms: 'if-asked' });
  await expect(page).toHaveURL(/\/member\/projects/);
}

/** The tree row link of a policy in the table of contents (number and title). */
const tocLink = (page: Page, number: string, title: string) =>
  page.getByRole('link', { name: new RegExp(`^${number.replaceAll('.', '\\.')}\\s+${title}`) });

test('search finds a word inside a policy', async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto(`${APP}/toc`);
  await page.getByRole('searchbox', { name: 'Search policies' }).fill('Morse');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/search\?q=Morse/);
  const result = page.getByRole('link', { name: /Falls prevention/ });
  await expect(result).toBeVisible();
  await expect(page.locator('mark', { hasText: 'Morse' }).first()).toBeVisible();
  await result.click();
  await expect(page.getByRole('heading', { level: 1, name: /Falls prevention/ })).toBeVisible();
});

test('import a Word file: the draft keeps its structure and appears in the table of contents', async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto(`${APP}/convert`);
  const docx = buildDocx({
    title: 'Sharps disposal',
    headings: [{ level: 2, text: 'Purpose' }],
    paragraphs: ['Used needles go straight into a sharps container at the point of use.'],
    table: [
      ['Container', 'Replace when'],
      ['Yellow', 'Three quarters full'],
    ],
  });
  await page.locator('input[type="file"]').setInputFiles({
    name: 'sharps-disposal.docx',
    mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    buffer: docx,
  });
  const preview = page.getByLabel('Converted text');
  await expect(preview.getByRole('heading', { name: 'Purpose' })).toBeVisible();
  await expect(preview.getByRole('table')).toContainText('Three quarters full');
  await expect(page.getByLabel('Title')).toHaveValue('Sharps disposal');
  // Numbers are unique: a retry files the draft under another one.
  const number = attempt() === 0 ? '3.4' : `3.4${attempt()}`;
  await page.getByLabel('Number').fill(number);
  await page.getByRole('button', { name: 'Save as draft' }).click();
  await expect(page).toHaveURL(/\/documents\/\d+$/);
  await expect(page.getByRole('heading', { level: 1, name: /Sharps disposal/ })).toBeVisible();

  await page.goto(`${APP}/toc`);
  await page.getByLabel('Filter by number or title').fill('Sharps');
  await expect(tocLink(page, number, 'Sharps disposal')).toBeVisible();
});

test('edit a policy and see the redline between the two versions', async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto(`${APP}/toc`);
  await page.getByLabel('Filter by number or title').fill('Hand hygiene');
  await tocLink(page, '3.1', 'Hand hygiene').click();
  await expect(page.getByRole('heading', { level: 1, name: /Hand hygiene/ })).toBeVisible();
  await page.getByRole('button', { name: 'Start new version' }).click();
  await expect(page).toHaveURL(/\/documents\/\d+\/edit$/);

  const editor = page.locator('.ProseMirror');
  await editor.getByText('Before touching a patient.').click();
  await page.keyboard.press('End');
  await page.keyboard.type(' Gloves never replace hand hygiene.');
  await page.getByLabel('Change summary').fill('Gloves are not a substitute.');
  await expect(page.getByText(/All changes saved at/)).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page).toHaveURL(/\/documents\/\d+$/);

  await page.getByRole('tab', { name: 'Compare' }).click();
  await expect(page.locator('ins', { hasText: 'Gloves never replace hand hygiene' })).toBeVisible();
  // The demo's patient identification policy has an earlier version: words removed are struck through.
  await page.goto(`${APP}/toc`);
  await page.getByLabel('Filter by number or title').fill('Patient identification');
  await tocLink(page, '2.1', 'Patient identification').click();
  await page.getByRole('tab', { name: 'Compare' }).click();
  await expect(page.locator('del', { hasText: 'cannot answer' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});

test('drag a branch to renumber it, after a preview and a confirmation', async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto(`${APP}/dnd`);
  const handle = page.getByRole('button', { name: 'Reorder 5 Patient safety and incident reporting' });
  await expect(handle).toBeVisible({ timeout: 30_000 });
  // Keyboard drag (dnd-kit): pick up, move up one place, drop.
  // dnd-kit measures the rows after the pick-up, so each key waits for the previous step's announcement.
  await handle.focus();
  await page.keyboard.press('Space');
  await expect(page.getByText(/(Picked up|was moved into position 5 of 5)/).first()).toBeAttached();
  await page.keyboard.press('ArrowUp');
  await expect(page.getByText(/was moved into position 4/).first()).toBeAttached();
  await page.keyboard.press('Space');
  const preview = page.getByRole('region', { name: /Preview of new numbers/ });
  await expect(preview).toContainText('5.1');
  await expect(preview).toContainText('4.1');
  await page.getByRole('button', { name: 'Apply renumbering' }).first().click();
  await page.getByRole('dialog').getByRole('button', { name: 'Apply renumbering' }).click();
  await expect(page.getByRole('button', { name: 'Reorder 4 Patient safety and incident reporting' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Reorder 5 Medication management' })).toBeVisible();

  // The number history of the moved chapter's child shows the change.
  await page.goto(`${APP}/toc`);
  await page.getByLabel('Filter by number or title').fill('Rapid response');
  await tocLink(page, '4.1', 'Rapid response team').click();
  await page.getByRole('tab', { name: 'History' }).click();
  await expect(page.getByText(/5\.1.*4\.1/)).toBeVisible();
});

test('people: add a member to policy management and give them a main role', async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto(`${APP}/policy-users`);
  await expect(page.getByRole('heading', { level: 1, name: 'Policy users' })).toBeVisible();
  await page.getByRole('checkbox', { name: 'Choose Sidney Simple' }).check();
  await page.getByRole('button', { name: 'Add to policy management' }).click();
  await expect(page.getByRole('button', { name: 'Remove Sidney Simple' })).toBeVisible();

  await page.goto(`${APP}/assign-main-role`);
  await page.getByRole('combobox', { name: 'Main role of Sidney Simple' }).click();
  await page.getByRole('option', { name: 'Reader' }).click();
  await page.getByRole('button', { name: 'Save 1 change' }).click();
  await expect(page.getByText('Every policy user has a main role.')).toBeVisible();
  await page.goto(`${APP}/edit-main-role`);
  await expect(page.getByRole('combobox', { name: 'Main role of Sidney Simple' })).toHaveValue('Reader');
});

test('departments: give Patient Safety a reviewer from Department health, and it is ready', async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto(`${APP}/healthy-departments`);
  const row = page.getByRole('row', { name: /Patient Safety/ });
  await expect(row).toContainText('No reviewers');
  await row.getByRole('link', { name: 'Add reviewers to Patient Safety' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Edit department reviewers' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Reviewers' }).click();
  await page.getByRole('option', { name: /Riley Reviewer/ }).click();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Save reviewers' }).click();
  await expect(page.getByText(/saved|updated/i).first()).toBeVisible();

  await page.goto(`${APP}/healthy-departments`);
  await expect(page.getByRole('row', { name: /Patient Safety/ })).not.toContainText('No reviewers');
  // Its attestation report opens from the department's name and offers the CSV.
  await page.getByRole('link', { name: /^Patient Safety/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Attestation report' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Download CSV' })).toHaveAttribute('href', /attestations\.csv$/);
});

test('people: ask the superadmins for a new account', async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto(`${APP}/create-project-user`);
  await page.getByRole('button', { name: 'Send request' }).click();
  await expect(page.getByText('Enter the first name.')).toBeVisible();
  await expect(page.getByText('Choose a main role.')).toBeVisible();
  await page.getByLabel('First name').fill('Nora');
  await page.getByLabel('Last name').fill('Nurse');
  await page.getByLabel('Email').fill('nora.nurse@example.org');
  await page.getByRole('combobox', { name: 'Main role' }).click();
  await page.getByRole('option', { name: /^Reader/ }).click();
  await page.getByLabel('Justification').fill('Joins the night shift in December.');
  await page.getByRole('button', { name: 'Send request' }).click();
  await expect(page.getByRole('table', { name: /Requests/ })).toContainText('nora.nurse@example.org');
});

/** A screen has loaded: its heading shows and nothing is loading any more. */
async function screenLoaded(page: Page) {
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  await expect(page.getByRole('status', { name: /^Loading/ })).toHaveCount(0, { timeout: 30_000 });
}

/** The policy screens the page-wide checks visit; `search` is the query the search screen opens with. */
const policyScreens = (search: string) => [
  'toc',
  'documents',
  'navigator',
  'archive-navigator',
  `search?q=${search}`,
  'convert',
  'numbering',
  'search-synonyms',
  'guest-reading',
  'insert-department',
  'dnd',
  'quick-reference-guide',
  'policy-users',
  'edit-main-role',
  'healthy-departments',
  'department-reviewers',
  'department-signers',
  'department-readers',
  'department-readers/1',
  'attestation-reports/1',
  'admin-dashboard',
  'bulk-sign',
  'bulk-read',
  'create-project-user',
  '',
];
const A11Y_SCREENS = [...policyScreens('hygiene'), 'documents/status/draft', 'assign-main-role'];
/** The screens in groups of seven: each group is a test of its own, so the two workers share them. */
const A11Y_GROUPS = Array.from({ length: Math.ceil(A11Y_SCREENS.length / 7) }, (_, i) =>
  A11Y_SCREENS.slice(i * 7, i * 7 + 7),
);

for (const [index, group] of A11Y_GROUPS.entries()) {
  test(`every policy screen passes the accessibility check (group ${index + 1} of ${A11Y_GROUPS.length})`, async ({
    page,
  }) => {
    test.setTimeout(300_000);
    await signInAsAdmin(page);
    for (const path of group) {
      await page.goto(`${APP}/${path}`);
      await screenLoaded(page);
      await expectNoSeriousA11yViolations(page);
    }
  });
}

test('@responsive every policy screen fits a phone', async ({ page }) => {
  test.setTimeout(480_000);
  await signInAsAdmin(page);
  const fits = async (what: string) => {
    await screenLoaded(page);
    const { scroll, view } = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      view: window.innerWidth,
    }));
    // A phone widens its layout viewport to content that does not fit, so both must stay at the device width.
    expect({ what, view }).toEqual({ what, view: page.viewportSize()!.width });
    expect(scroll, `${what} scrolls sideways`).toBeLessThanOrEqual(view);
  };
  for (const path of policyScreens('hand')) {
    await page.goto(`${APP}/${path}`);
    await fits(path);
  }
  await page.goto(`${APP}/toc`);
  await page.getByLabel('Filter by number or title').fill('Patient identification');
  await tocLink(page, '2.1', 'Patient identification').click();
  await fits('policy');
  const policy = page.url();
  for (const tab of ['history', 'compare']) {
    await page.goto(`${policy}?tab=${tab}`);
    await fits(`policy ${tab}`);
  }
  await page.goto(`${policy}/print`);
  await fits('print');
  await page.goto(`${policy}/edit`);
  await expect(page.getByRole('button', { name: 'Start new version' })).toBeVisible();
  await fits('editor');
});
