import { expect, test } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { DEMO_PASSWORD, expectNoSeriousA11yViolations, passwordField, signIn, solveCaptcha } from './fixtures';
import { MAIL_URL } from './urls';

// Demo accounts (DESIGN.md section 6). Each test uses its own account: they run in parallel on one server.

test.describe('Sign-in', () => {
  test('the login page works on a phone and a desktop @responsive', async ({ page }) => {
    await page.goto('/member-login');
    await expect(page.getByRole('heading', { level: 1, name: 'Member Login' })).toBeVisible();
    await expect(page.getByLabel('Username or email')).toBeVisible();
    await expect(passwordField(page)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Log in' })).toBeInViewport();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    expect(overflow).toBe(false);
    await expectNoSeriousA11yViolations(page);
  });

  test('a first sign-in asks for the terms, solves the real captcha and lands on the projects', async ({ page }) => {
    await page.goto('/member-login');
    const terms = page.getByRole('checkbox', { name: /accept the terms and conditions/i });
    await page.getByLabel('Username or email').fill('not-an-email');
    await page.waitForTimeout(800);
    await expect(terms).toHaveCount(0);

    await page.getByLabel('Username or email').fill('member@example.com');
    await expect(terms).toBeVisible();
    await passwordField(page).fill(DEMO_PASSWORD);
    await solveCaptcha(page);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByText('Please accept the terms and conditions to proceed.')).toBeVisible();
    await terms.check();
    await solveCaptcha(page);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL(/\/member\/projects$/);
    await expect(page.getByText('Demo Facility')).toBeVisible();

    // Signed in, the login page offers the way on instead of a form.
    await page.goto('/member-login');
    await expect(page.getByRole('link', { name: 'Dashboard' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
  });

  test('a wrong password shows the server message', async ({ page }) => {
    await signIn(page, 'nobody-at-all@example.com', 'Wrong-password-1!');
    await expect(page.getByText('These credentials do not match our records.')).toBeVisible();
    await expect(page).toHaveURL(/\/member-login/);
  });

  test('a signed-out visit to a member page goes to the login and back after it', async ({ page }) => {
    await page.goto('/member/projects');
    await expect(page).toHaveURL(/\/member-login\?redirect=%2Fmember%2Fprojects/);
  });

  test('two-factor: set up with an authenticator, then sign in with a code', async ({ page }) => {
    await signIn(page, 'simple@example.com', DEMO_PASSWORD, { acceptTerms: true });
    await expect(page).toHaveURL(/\/member\/projects$/);
    await page.goto('/two-factor-settings');
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('button', { name: /set up/i }).click();
    const key = (await page.getByLabel('Setup key').textContent())!.replace(/\s+/g, '');
    const totp = new TOTP({ secret: Secret.fromBase32(key), digits: 6, period: 30 });
    await page.getByLabel('Authentication code').fill(totp.generate());
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByRole('heading', { name: /recovery codes/i })).toBeVisible();
    await page.getByRole('button', { name: 'I have saved my codes' }).click();

    await page.goto('/logout-confirm');
    await expect(page.getByText('Do you want to log out?')).toBeVisible();
    await page.getByRole('button', { name: 'Log out' }).click();
    await expect(page).toHaveURL(/\/member-login/);

    await signIn(page, 'simple@example.com', DEMO_PASSWORD);
    await expect(page.getByLabel('Authentication code')).toBeVisible();
    // A code of the next time step: the one used for setup is never accepted twice.
    await page.getByLabel('Authentication code').fill(totp.generate({ timestamp: Date.now() + 30_000 }));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page).toHaveURL(/\/member\/projects$/);
  });

  test('password reset by email, end to end', async ({ page, request }) => {
    await page.goto('/lost-password');
    await expectNoSeriousA11yViolations(page);
    await page.getByLabel('Email').fill('admin@example.com');
    await solveCaptcha(page);
    await page.getByRole('button', { name: 'Get New Password' }).click();
    await expect(
      page.getByText('If an account with this email exists, a password reset link has been sent to it.'),
    ).toBeVisible();

    let link: string | undefined;
    await expect(async () => {
      const messages = (await (await request.get(MAIL_URL)).json()) as {
        to: string[];
        subject: string;
        text: string;
      }[];
      const mail = messages
        .reverse()
        .find((m) => m.to.includes('admin@example.com') && m.subject === 'Reset your password');
      link = mail?.text.match(/https?:\/\/\S+\/reset-password\?\S+/)?.[0];
      expect(link).toBeDefined();
    }).toPass({ timeout: 30_000 });

    await page.goto(new URL(link!).pathname + new URL(link!).search);
    const newPassword = 'Wj4$nBc8!tRy6#Pq';
    await page.getByLabel('New password').fill(newPassword);
    await page.getByLabel('Confirm password').fill(`${newPassword}x`);
    await expect(page.getByText(/do not match/i)).toBeVisible();
    await page.getByLabel('Confirm password').fill(newPassword);
    await expect(page.getByText(/passwords match/i)).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await solveCaptcha(page);
    await page.getByRole('button', { name: 'Update' }).click();
    await expect(page.getByText('Password changed successfully. Redirecting...')).toBeVisible();
    await expect(page).toHaveURL(/\/member-login/, { timeout: 5_000 });

    await signIn(page, 'admin@example.com', newPassword, { acceptTerms: true });
    await expect(page).toHaveURL(/\/member\/projects$/);
  });

  test('an invalid reset link says so', async ({ page }) => {
    await page.goto('/reset-password?token=abc&email=x');
    await expect(page.getByText('Invalid link for password reset.')).toBeVisible();
  });

  test('inactivity warns a minute before, then signs out to the login with the reason', async ({ page }) => {
    await page.clock.install();
    await signIn(page, 'superadmin@example.com', DEMO_PASSWORD, { acceptTerms: true });
    await expect(page).toHaveURL(/\/member\/projects$/);
    // The signed-in layout (and its inactivity timer) must be mounted before the clock moves.
    await expect(page.getByText('Demo Facility').first()).toBeVisible();
    await page.clock.fastForward('14:01');
    await expect(page.getByText(/You will be signed out in \d+ seconds due to inactivity\./)).toBeVisible();
    await page.clock.fastForward('01:00');
    await expect(page).toHaveURL(/\/member-login\?reason=inactivity/);
    await expect(page.getByText('You were signed out after a period of inactivity.')).toBeVisible();
  });
});
