import { expect, test } from '@playwright/test';
import {
  DEMO_PASSWORD,
  expectNoSeriousA11yViolations,
  freshDevicePage,
  mapDirectoryGroup,
  signInThroughApi,
} from './fixtures';
import { SAML_IDP_URL, SSO_URL } from './urls';

// Single sign-on through a real SAML 2.0 identity provider (SimpleSAMLphp from Debian, e2e/saml-idp.ts) on the single
// sign-on story's server: the superadmin adds the provider from its metadata address in the console and maps the
// directory group "ICU Nursing" to the demo project; a person of that group signs in at the IdP's own page, accepts
// the terms and lands on the project with the mapped role.
test.describe.configure({ mode: 'serial' });
test.use({ baseURL: SSO_URL });
test.setTimeout(180_000);

const SLUG = 'hospital-saml';

test('the superadmin adds a SAML provider from its metadata and maps a directory group', async ({ browser }) => {
  const { page, close } = await freshDevicePage(browser, SSO_URL);
  await signInThroughApi(page, 'superadmin@example.com', DEMO_PASSWORD, { acceptTerms: 'if-asked' });
  const xsrf = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  // A retry starts over: the provider an earlier attempt added goes first.
  const before = (await (await page.request.get('/super/identity-providers')).json()) as {
    providers: { id: number; slug: string }[];
  };
  for (const earlier of before.providers.filter((p) => p.slug === SLUG)) {
    await page.request.delete(`/super/identity-providers/${earlier.id}`, { headers: { 'X-XSRF-TOKEN': xsrf } });
  }
  await page.goto('/superadmin/identity-providers');
  await page.getByRole('button', { name: 'Add identity provider' }).first().click();
  const dialog = page.getByRole('dialog');
  const field = (name: string) => dialog.getByRole('textbox', { name, exact: true });
  await field('Name').fill('Hospital SAML');
  await field('Short name').fill(SLUG);
  await dialog.getByRole('radio', { name: /SAML 2.0/ }).check();
  await field('IdP metadata URL').fill(`${SAML_IDP_URL}/saml2/idp/metadata.php`);
  const domains = dialog.getByRole('combobox', { name: 'Email domains' });
  await domains.fill('saml.example.org');
  await domains.press('Enter');
  await dialog.getByRole('switch', { name: /^Enabled/ }).check();
  await dialog.getByRole('switch', { name: /Trust the provider's email addresses/ }).check();
  await expectNoSeriousA11yViolations(page);
  await dialog.getByRole('button', { name: 'Add identity provider' }).click();
  // What the IdP's administrator enters: the assertion consumer service and the SP entity ID (its metadata address).
  await expect(dialog.getByRole('textbox', { name: 'Assertion consumer service URL' })).toHaveValue(
    `${SSO_URL}/auth/saml/${SLUG}/acs`,
  );
  await expect(dialog.getByRole('textbox', { name: 'SP entity ID' })).toHaveValue(
    `${SSO_URL}/auth/saml/${SLUG}/metadata`,
  );
  await dialog.getByRole('button', { name: 'Done' }).click();
  const row = page.getByRole('row', { name: /Hospital SAML/ });
  await expect(row).toContainText('SAML 2.0');

  // The metadata was read: editing shows the IdP's certificate.
  await row.getByRole('button', { name: /Edit/ }).click();
  await expect(page.getByRole('dialog').getByText('CN=Portal test IdP')).toBeVisible();
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

  // "ICU Nursing" → the demo project, member, policy reader: the group mappings screen.
  await mapDirectoryGroup(page, 'Hospital SAML', 'ICU Nursing', 'Demo Facility');
  await close();
});

test('a person signs in at the SAML provider and lands on the project their group maps to', async ({ browser }) => {
  const { page, close } = await freshDevicePage(browser, SSO_URL);
  await page.goto('/member-login');
  await page.getByRole('link', { name: 'Sign in with Hospital SAML' }).click();
  // SimpleSAMLphp's own sign-in page.
  await expect(page).toHaveURL(new RegExp(`^${SAML_IDP_URL}/`));
  await page.locator('input[name="username"]').fill('ana.saml');
  await page.locator('input[name="password"]').fill('portal-test-password');
  await page.locator('button[type="submit"], input[type="submit"]').first().click();
  // The IdP's page posts the signed response to the portal: created at this first sign-in, asked for the terms.
  await expect(page).toHaveURL(/\/member-login\?sso=terms|\/member\/projects/);
  if (page.url().includes('sso=terms')) {
    await page.getByRole('checkbox', { name: /accept the terms and conditions/i }).check();
    await page.getByRole('button', { name: 'Continue' }).click();
  }
  await expect(page).toHaveURL(/\/member\/projects/);
  await expect(page.getByText('Demo Facility').first()).toBeVisible();
  // The session is the provider's: My Account's sessions name it.
  const sessions = (await (await page.request.get('/api/user/sessions')).json()) as {
    sessions: { sso_provider: string | null }[];
  };
  expect(sessions.sessions.some((s) => s.sso_provider === 'Hospital SAML')).toBe(true);
  await close();
});
