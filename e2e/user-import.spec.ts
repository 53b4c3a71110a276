import { expect, test } from '@playwright/test';
import { DEMO_PASSWORD, expectNoSeriousA11yViolations, signInThroughApi } from './fixtures';
import { SSO_URL } from './urls';

// The CSV import of people, on the single sign-on story's server (it adds accounts of its own domain only): a file
// with a problem is refused row by row, the corrected one is imported and its invitations followed to the end.
test.use({ baseURL: SSO_URL });
test.setTimeout(180_000);

const HEADER = 'email,first_name,last_name,project,project_role,policy_role';
const csv = (lines: string[]) => ({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from(lines.join('\n')) });

test('a superadmin imports people from a CSV file, row problems first, then the invitations', async ({ page }) => {
  const run = `${Date.now().toString(36)}${test.info().retry}`;
  await signInThroughApi(page, 'superadmin@example.com', DEMO_PASSWORD, { acceptTerms: 'if-asked' });
  await page.goto('/superadmin/users');
  await page.getByRole('link', { name: 'Import from CSV' }).click();
  await expect(page.getByRole('heading', { name: 'Import people', level: 1 })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  const fileInput = page.locator('input[type="file"]');
  await fileInput.setInputFiles(
    csv([
      HEADER,
      `ana.${run}@import.example.org,Ana,Ruiz,Demo Facility,member,reader`,
      `bo.${run}@import.example.org,,Li,Nowhere,member,chief`,
    ]),
  );
  await expect(page.getByText('Checked: 1 person ready, 1 with problems')).toBeVisible();
  const rows = page.getByTestId('import-rows');
  await expect(rows).toContainText('Enter the first name.');
  await expect(rows).toContainText('No project is named “Nowhere”.');
  await expect(page.getByRole('button', { name: /^Import/ })).toBeDisabled();
  await expectNoSeriousA11yViolations(page);

  await fileInput.setInputFiles(
    csv([
      HEADER,
      `ana.${run}@import.example.org,Ana,Ruiz,Demo Facility,member,reader`,
      `bo.${run}@import.example.org,Bo,Li,,,`,
    ]),
  );
  await expect(page.getByText('Checked: 2 people ready')).toBeVisible();
  await page.getByRole('button', { name: 'Import 2 people' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Import and send invitations' }).click();
  await expect(page.getByRole('heading', { name: 'Imported' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(/2 people imported; \d of 2 invitations sent/)).toBeVisible();

  await page.getByRole('link', { name: 'Back to users' }).click();
  await page.getByRole('searchbox', { name: 'Search' }).fill(`ana.${run}`);
  await expect(page.getByText(`ana.${run}@import.example.org`)).toBeVisible();
});
