import { type Browser, expect, type Page, test } from '@playwright/test';
import { DEMO_PASSWORD, expectNoSeriousA11yViolations, signInThroughApi } from './fixtures';
import { SHELL_URL } from './urls';

test.use({ baseURL: SHELL_URL });

/**
 * Signs a demo account in (accepting the terms the first time) and opens Demo Facility's apps. Through the API: the
 * sign-in form has its own tests (auth.spec.ts).
 */
async function openDemoFacility(page: Page, email: string) {
  await signInThroughApi(page, email, DEMO_PASSWORD, { acceptTerms: 'if-asked' });
  await expect(page).toHaveURL(/\/member\/projects$/);
  await page
    .getByRole('link', { name: /Demo Facility/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/member\/projects\/1\/apps$/);
}

async function signedInPage(browser: Browser, email: string) {
  const context = await browser.newContext({ baseURL: SHELL_URL });
  const page = await context.newPage();
  await openDemoFacility(page, email);
  return { page, close: () => context.close() };
}

const nav = (page: Page) => page.getByRole('navigation');

test.describe('Portal shell', () => {
  // Several sign-ins with a real proof of work per test: more time than the default under a loaded CI machine.
  test.describe.configure({ mode: 'serial', timeout: 180_000 });

  const navExpectations: Record<string, { visible: string[]; hidden: string[] }> = {
    'superadmin@example.com': {
      visible: ['Home', 'Dashboard', 'Projects', 'Users', 'Policy', 'Analytics', 'My Account', 'Log out'],
      hidden: ['Contact Us', 'Member Login'],
    },
    'admin@example.com': {
      visible: [
        'Dashboard',
        'Policy',
        'Analytics',
        'Chart Review',
        'Request Data',
        'Contact Us',
        'My Account',
        'Log out',
      ],
      hidden: ['Home', 'Users', 'Member Login'],
    },
    'member@example.com': {
      visible: ['Dashboard', 'Policy', 'Analytics', 'Chart Review', 'Request Data', 'Contact Us', 'My Account'],
      hidden: ['Home', 'Users', 'Admin', 'Navigator'],
    },
    // No role in any app (issue 32): no app link, only what every member has.
    'simple@example.com': {
      visible: ['Dashboard', 'Contact Us', 'My Account', 'Log out'],
      hidden: ['Home', 'Users', 'Admin', 'Policy', 'Analytics', 'Chart Review', 'Standards', 'Request Data'],
    },
  };
  for (const [email, { visible, hidden }] of Object.entries(navExpectations)) {
    test(`${email} sees the nav items of its role`, async ({ page }) => {
      await openDemoFacility(page, email);
      // The page's heading comes with the answer the navigation filters its app links by (my-apps).
      await expect(page.getByRole('heading', { level: 1, name: 'Demo Facility' })).toBeVisible();
      for (const label of visible)
        await expect(nav(page).getByText(label, { exact: true }).first(), label).toBeVisible();
      for (const label of hidden)
        await expect(nav(page).getByText(label, { exact: true }), `no ${label}`).toHaveCount(0);
      if (email === 'admin@example.com')
        await expect(
          nav(page)
            .getByText(/^(Admin|Navigator)$/)
            .first(),
        ).toBeVisible();
      await expectNoSeriousA11yViolations(page);
    });
  }

  test("simple@example.com's project page shows only the apps it can open, and why not the others, once", async ({
    page,
  }) => {
    await openDemoFacility(page, 'simple@example.com');
    await expect(page.getByRole('heading', { level: 1, name: 'Demo Facility' })).toBeVisible();
    await expect(page.getByText('No app is available to you in this project yet.')).toBeVisible();
    await expect(page.locator('li[data-app]')).toHaveCount(0);
    const note = page.getByRole('region', { name: 'Not available to you' });
    await expect(note).toBeVisible();
    await expect(note.locator('p')).toHaveText([
      'You have no role in Monitoring, Policy Management and Chart Review yet. A project administrator can give you one in Manage Users.',
      'You have no role in Standards yet. A project administrator can give you one in Standards Users.',
      "Admin is only for the project's administrators.",
      'Policy Generator needs a role in Policy Management, which you do not have yet. A project administrator can give you one in Manage Users.',
    ]);
    await expect(page.getByText('Access Denied !')).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
  });

  test('the access-denied reasons: unconfigured, forbidden and role unavailable', async ({ browser }) => {
    const simple = await signedInPage(browser, 'simple@example.com');
    await simple.page.goto('/app/monitoring/1/pages');
    await expect(simple.page.getByText('Access Denied !')).toBeVisible();
    await expect(
      simple.page.getByText(
        'You do not have access to monitoring features yet. Contact an administrator to assign you a monitoring role.',
      ),
    ).toBeVisible();
    await expect(simple.page.getByRole('link', { name: 'Back to Dashboard' })).toBeVisible();
    await expectNoSeriousA11yViolations(simple.page);
    await simple.close();

    const member = await signedInPage(browser, 'member@example.com');
    await member.page.goto('/app/policy_management/1/numbering');
    await expect(member.page.getByText('Your role is not permitted to access this section.')).toBeVisible();
    await member.page.route('**/api/projects/1/policy-management/me', (route) =>
      route.fulfill({ status: 500, json: { message: 'Server Error' } }),
    );
    await member.page.goto('/app/policy_management/1/toc');
    await expect(
      member.page.getByText('We could not determine your policy management role. Please refresh or contact support.'),
    ).toBeVisible();
    await member.close();
  });

  test('a non-superadmin on a superadmin page is sent to /not-superadmin', async ({ browser }) => {
    const member = await signedInPage(browser, 'member@example.com');
    await member.page.goto('/superadmin/users');
    await expect(member.page).toHaveURL(/\/not-superadmin$/);
    await expectNoSeriousA11yViolations(member.page);
    await member.close();
  });

  test('a contact message reaches the admins live in the bell, on the projects page too, and is dismissed', async ({
    browser,
  }) => {
    const admin = await signedInPage(browser, 'admin@example.com');
    const bell = admin.page.getByRole('button', { name: /^Notifications/ });
    await expect(bell).toBeEnabled();

    const member = await signedInPage(browser, 'member@example.com');
    await member.page.goto('/member/projects/1/contact-us');
    await member.page.getByLabel('Subject').fill('Fire drill policy');
    await member.page.getByLabel('Message').fill('Where is the current fire drill policy?');
    await member.page.getByRole('button', { name: 'Send' }).click();
    await expect(member.page.getByText('Your message was sent to the project administrators.')).toBeVisible();
    await member.close();

    // No reload: the stream brings it. (The demo's daily review reminders may already wait in the bell, so the
    // test follows its own message, not the total.)
    await expect(bell).toHaveAccessibleName(/^Notifications \(\d+ unread\)$/, { timeout: 30_000 });

    // On the projects page, outside any project, the bell lists the notices of every project, each naming its own.
    await admin.page.goto('/member/projects');
    const landingBell = admin.page.getByRole('button', { name: /^Notifications/ });
    await expect(landingBell).toBeEnabled();
    await landingBell.click();
    const everywhere = admin.page
      .getByRole('dialog', { name: 'Notifications' })
      .getByRole('listitem')
      .filter({ hasText: /New contact message from Morgan Member: Fire drill policy/ });
    await expect(everywhere).toBeVisible({ timeout: 30_000 });
    await expect(everywhere).toContainText('Demo Facility');
    await expectNoSeriousA11yViolations(admin.page);
    await admin.page.keyboard.press('Escape');
    await admin.page.goto('/member/projects/1/apps');

    await bell.click();
    const dropdown = admin.page.getByRole('dialog', { name: 'Notifications' });
    const message = dropdown
      .getByRole('listitem')
      .filter({ hasText: /New contact message from Morgan Member: Fire drill policy/ });
    await expect(message).toBeVisible({ timeout: 30_000 });
    await message.getByRole('button', { name: 'Dismiss', exact: true }).click();
    await expect(message).toHaveCount(0);

    await admin.page.goto('/member/projects/1/contact-us-messages');
    await expect(admin.page.getByText('Fire drill policy').first()).toBeVisible();
    await expectNoSeriousA11yViolations(admin.page);
    await admin.close();
  });

  test('My Account: change my name, see my sessions', async ({ browser }) => {
    const first = await signedInPage(browser, 'simple@example.com');
    const second = await signedInPage(browser, 'simple@example.com');
    const page = first.page;
    await page.getByRole('navigation').getByText('My Account', { exact: true }).click();
    await expect(page).toHaveURL(/\/member\/projects\/demo-facility\/myaccount$/);
    await page.getByLabel('First name').fill('Sidney');
    await page.getByLabel('Last name').fill('Simpleton');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Your profile was saved.')).toBeVisible();
    await expect(page.getByText('This device')).toBeVisible();
    await page.getByRole('button', { name: 'Sign out other sessions' }).click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /sign out/i })
      .click();
    await expect(page.getByText('Your other sessions were signed out.')).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    // The other browser is signed out.
    await second.page.reload();
    await expect(second.page).toHaveURL(/\/member-login/);
    await first.close();
    await second.close();
  });

  test('phone layout: the navigation opens from the menu button @responsive', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await openDemoFacility(page, 'member@example.com');
    const burger = page.getByRole('button', { name: 'Open navigation' });
    await expect(burger).toBeVisible();
    await burger.click();
    await expect(nav(page).getByText('My Account', { exact: true })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    expect(overflow).toBe(false);
    await expectNoSeriousA11yViolations(page);
  });
});
