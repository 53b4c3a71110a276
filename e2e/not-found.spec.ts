import { expect, test } from '@playwright/test';
import { DEMO_PASSWORD, expectNoSeriousA11yViolations, signInThroughApi } from './fixtures';

test.describe('Not-found page', () => {
  test('shows for any unknown path, also after a reload @responsive', async ({ page }) => {
    await page.goto('/no/such/page');
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
    await expect(page.getByText('/no/such/page')).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
    // Home sends a signed-out visitor on to the login.
    await page.getByRole('link', { name: 'Go to the home page' }).click();
    await expect(page).toHaveURL(/\/member-login$/);
  });

  test('a route parameter out of its pattern is not a route, in every app, even for a superadmin', async ({ page }) => {
    await signInThroughApi(page, 'superadmin@example.com', DEMO_PASSWORD, { acceptTerms: 'if-asked' });
    for (const path of [
      '/app/policy_management/12345678901/toc',
      '/app/policy_management/1/documents/abc',
      '/app/policy_management/1/edit-department/abc',
      '/app/policy_management/1/department-reviewers/abc',
      '/app/monitoring/1/pages/page/abc',
      '/app/monitoring/1/page-levels/edit/x',
      '/app/monitoring/1/key-insights/edit/x',
      '/app/chart-review/1/dashboard/abc',
      '/app/chart-review/1/findings/x',
      '/app/chart-review/1/programs/x/edit',
      '/app/standards/abc/compilence',
      '/app/admin/1/edit-user/abc',
      '/app/policy_generator/templates/abc',
      '/member/projects/bad!slug/myaccount',
    ]) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: 'Page not found' }), path).toBeVisible();
    }
  });

  test('an unknown API path answers JSON, not the app', async ({ request }) => {
    const res = await request.get('/api/no-such-call');
    expect(res.status()).toBe(404);
    expect(await res.json()).toEqual({ message: 'Not found.', code: 'NOT_FOUND' });
  });
});

test.describe('Home and API documentation', () => {
  test('home sends a signed-out visitor to the login, which links to the terms', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/member-login$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Member Login' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('link', { name: 'Terms and Conditions' }).click();
    await expect(page.getByRole('heading', { level: 1, name: /Terms and Conditions/ })).toBeVisible();
  });

  test('the API reference is browsable at /api/docs', async ({ page }) => {
    // The reference renders the whole specification (a few hundred calls, 1.9 MB) in the browser: 20 s on a quiet
    // machine, and more than a minute while the other suites run beside it.
    test.setTimeout(240_000);
    await page.goto('/api/docs');
    await expect(page.getByText('Healthcare Quality Portal API').first()).toBeVisible({ timeout: 180_000 });
    await expect(page.getByText('/api/public/terms-and-conditions').first()).toBeVisible();
  });
});
