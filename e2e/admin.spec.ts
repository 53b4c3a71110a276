import { type Browser, expect, type Page, test } from '@playwright/test';
import {
  DEMO_PASSWORD,
  expectNoSeriousA11yViolations,
  passwordField,
  signIn,
  signInThroughApi,
  solveCaptcha,
} from './fixtures';
import { ADMIN_MAIL_URL, ADMIN_URL } from './urls';

// One story, in order, on a server of its own: the superadmin sets up a project, a project admin asks for a user,
// the superadmin approves, the new user sets a password from the emailed invitation, new terms must be accepted,
// and a permission matrix change locks a section.
test.describe.configure({ mode: 'serial' });
test.use({ baseURL: ADMIN_URL });
test.setTimeout(180_000);

const NEW_EMAIL = 'casey.carter@example.org';
const NEW_PASSWORD = 'q7!Vt#x9Rk2@Wm4';

/** A demo account signed in through the API; the new user's own sign-ins below go through the form. */
async function signedInPage(browser: Browser, email: string, password = DEMO_PASSWORD) {
  // The project's device (a phone for @responsive tests), with this spec's server.
  const { viewport, isMobile, hasTouch, deviceScaleFactor, userAgent } = test.info().project.use;
  const context = await browser.newContext({
    baseURL: ADMIN_URL,
    viewport,
    isMobile,
    hasTouch,
    deviceScaleFactor,
    userAgent,
  });
  const page = await context.newPage();
  await signInThroughApi(page, email, password, { acceptTerms: 'if-asked' });
  await expect(page).toHaveURL(/\/member\/projects|\/superadmin/);
  return { page, close: () => context.close() };
}

async function invitationLink(page: Page): Promise<string> {
  let link: string | undefined;
  await expect(async () => {
    const messages = (await (await page.request.get(ADMIN_MAIL_URL)).json()) as { to: string[]; text: string }[];
    link = messages.find((m) => m.to.includes(NEW_EMAIL))?.text.match(/https?:\/\/\S+\/reset-password\?\S+/)?.[0];
    expect(link).toBeTruthy();
  }).toPass({ timeout: 30_000 });
  return link!;
}

test('a superadmin creates a project and sets its apps', async ({ browser }) => {
  const { page, close } = await signedInPage(browser, 'superadmin@example.com');
  await page.goto('/superadmin/projects');
  await page.getByRole('button', { name: 'New project' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('Lakeside Clinic');
  await expect(dialog.getByRole('textbox', { name: 'Slug' })).toHaveValue('lakeside-clinic');
  await dialog.getByLabel('Policy Management').check();
  await dialog.getByLabel('Monitoring').check();
  await dialog.getByRole('button', { name: 'Create project' }).click();
  await expect(page).toHaveURL(/\/superadmin\/projects\/\d+$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Lakeside Clinic' })).toBeVisible();
  await expect(page.getByLabel('Monitoring')).toBeChecked();
  await expect(page.getByLabel('Chart Review')).not.toBeChecked();
  await expectNoSeriousA11yViolations(page);
  await close();
});

test('a project admin files a new-user request; the superadmin approves it', async ({ browser }) => {
  const admin = await signedInPage(browser, 'admin@example.com');
  await admin.page.goto('/app/admin/1/new-user-request');
  await admin.page.getByRole('textbox', { name: 'First name' }).fill('Casey');
  await admin.page.getByRole('textbox', { name: 'Last name' }).fill('Carter');
  await admin.page.getByRole('textbox', { name: 'Email' }).fill(NEW_EMAIL);
  await admin.page.getByRole('textbox', { name: 'Justification' }).fill('New charge nurse on 4 West.');
  await admin.page.getByRole('button', { name: 'Send request' }).click();
  await expect(admin.page.getByText('Request sent to the administrators')).toBeVisible();
  await expect(admin.page.getByText(NEW_EMAIL)).toBeVisible();
  await expectNoSeriousA11yViolations(admin.page);

  const superadmin = await signedInPage(browser, 'superadmin@example.com');
  await superadmin.page.goto('/superadmin/new-user-requests');
  await expect(superadmin.page.getByText(NEW_EMAIL)).toBeVisible();
  await superadmin.page.getByRole('button', { name: 'Approve' }).click();
  await superadmin.page.getByRole('button', { name: 'Approve and send invitation' }).click();
  await expect(superadmin.page.getByText(`Request approved: invitation sent to ${NEW_EMAIL}`)).toBeVisible();
  await superadmin.close();

  await admin.page.reload();
  await expect(admin.page.getByText('Approved', { exact: true }).first()).toBeVisible();
  await admin.close();
});

test('the new user sets a password from the emailed invitation and signs in', async ({ page }) => {
  await page.goto(await invitationLink(page));
  await passwordField(page).nth(0).fill(NEW_PASSWORD);
  await passwordField(page).nth(1).fill(NEW_PASSWORD);
  await solveCaptcha(page);
  await page.getByRole('button', { name: 'Update' }).click();
  await expect(page).toHaveURL(/\/member-login/, { timeout: 30_000 });
  await signIn(page, NEW_EMAIL, NEW_PASSWORD, { acceptTerms: true });
  await expect(page).toHaveURL(/\/member\/projects/);
  await expect(page.getByText('Demo Facility')).toBeVisible();
});

test('after the superadmin publishes new terms, the user must accept them at the next sign-in', async ({ browser }) => {
  const { page, close } = await signedInPage(browser, 'superadmin@example.com');
  await page.goto('/superadmin/terms_and_conditions');
  const editor = page.locator('.ProseMirror');
  await editor.click();
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.type(' Updated for the new visitor policy.');
  await page.getByRole('button', { name: 'Publish new version' }).click();
  await page
    .getByRole('dialog')
    .getByRole('button', { name: /publish/i })
    .click();
  await expect(page.getByText(/published/i).first()).toBeVisible();
  await close();

  const user = await browser.newContext({ baseURL: ADMIN_URL });
  const userPage = await user.newPage();
  await signIn(userPage, NEW_EMAIL, NEW_PASSWORD, { acceptTerms: true });
  await expect(userPage).toHaveURL(/\/member\/projects/);
  await user.close();
});

test('a permission matrix change locks a section for a role and the access-denied panel shows it', async ({
  browser,
}) => {
  const member = await signedInPage(browser, 'member@example.com');
  await member.page.goto('/app/monitoring/1/introduction');
  await expect(member.page.getByText('Access Denied !')).not.toBeVisible();

  const { page, close } = await signedInPage(browser, 'superadmin@example.com');
  await page.goto('/superadmin/monitoring-permissions?project=1');
  for (const role of ['Monitoring admin', 'Page owner', 'Data entry', 'Viewer']) {
    await page.getByRole('checkbox', { name: `${role} may open Introduction`, exact: true }).uncheck();
  }
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Save and lock' }).click();
  await expect(page.getByRole('row', { name: /introduction/ }).getByText('Locked')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await close();

  await member.page.goto('/app/monitoring/1/introduction');
  await expect(member.page.getByText('Access Denied !')).toBeVisible();
  await expect(member.page.getByText('Your role is not permitted to access this section.')).toBeVisible();
  // The role in words, never its code (page_owner).
  await expect(member.page.getByText('Your role: Page owner')).toBeVisible();
  await member.close();
});

test('every console screen loads with no serious accessibility problem', async ({ browser }) => {
  test.setTimeout(360_000);
  const superadmin = await signedInPage(browser, 'superadmin@example.com');
  for (const [path, heading] of <[string, string][]>[
    ['/superadmin', 'Administration'],
    ['/superadmin/users', 'Users'],
    ['/superadmin/users/3', 'Morgan Member'],
    ['/superadmin/new-user-requests', 'New User Requests'],
    ['/superadmin/terms_and_conditions/history', 'Terms and Conditions History'],
    ['/superadmin/email-logs', 'Email Logs'],
    ['/superadmin/audit-log', 'Audit Log'],
    ['/superadmin/chart-review-permissions', 'Chart Review Permissions'],
    ['/dev/editor', 'Editor'],
  ]) {
    await superadmin.page.goto(path);
    await expect(superadmin.page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await expect(superadmin.page.getByRole('status', { name: /loading/i })).toHaveCount(0);
    await expectNoSeriousA11yViolations(superadmin.page);
  }
  await superadmin.close();
});

test('every Admin app screen loads with no serious accessibility problem', async ({ browser }) => {
  const admin = await signedInPage(browser, 'admin@example.com');
  for (const [path, heading] of <[string, string][]>[
    ['/app/admin/1/admin-dashboard', 'Manage Users'],
    ['/app/admin/1/edit-user/3', 'Edit User'],
    ['/app/admin/1/project-details-edit', 'Project Details'],
  ]) {
    await admin.page.goto(path);
    await expect(admin.page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await expectNoSeriousA11yViolations(admin.page);
  }
  await admin.close();
});

test('the console and the Admin app fit the screen without sideways scrolling @responsive', async ({ browser }) => {
  test.setTimeout(360_000);
  const fits = async (page: Page, path: string) => {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.waitForLoadState('networkidle');
    const { scroll, view } = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      view: window.innerWidth,
    }));
    expect(scroll, `${path} is ${scroll}px wide on a ${view}px screen`).toBeLessThanOrEqual(view);
  };
  const superadmin = await signedInPage(browser, 'superadmin@example.com');
  for (const path of ['/superadmin', '/superadmin/projects/1', '/superadmin/users', '/superadmin/audit-log']) {
    await fits(superadmin.page, path);
  }
  await superadmin.close();
  const admin = await signedInPage(browser, 'admin@example.com');
  for (const path of [
    '/app/admin/1/admin-dashboard',
    '/app/admin/1/edit-user/3',
    '/member/projects/demo-facility/myaccount',
  ]) {
    await fits(admin.page, path);
  }
  await admin.close();
});
