import { expect, type Page, test } from '@playwright/test';
import {
  DEMO_PASSWORD,
  expectNoSeriousA11yViolations,
  freshDevicePage,
  mapDirectoryGroup,
  signInThroughApi,
} from './fixtures';
import { IDP_URL, SSO_URL } from './urls';

// Single sign-on through a real OpenID provider (e2e/oidc-idp.mjs: the certified oidc-provider on loopback), on a
// server of its own: the superadmin connects the provider in the console, then people sign in through it, a new one
// (created at the first sign-in, asked for the terms) and a demo account found by its email's domain and linked.
test.describe.configure({ mode: 'serial' });
test.use({ baseURL: SSO_URL });
test.setTimeout(180_000);

/** The provider's own sign-in and consent pages (any password: the test provider trusts the login it is given). */
async function signInAtProvider(page: Page, email: string) {
  await expect(page).toHaveURL(new RegExp(`^${IDP_URL}/interaction/`));
  await page.locator('input[name="login"]').fill(email);
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  // A fresh browser has no grant at the provider yet: it asks to share the email and profile with the portal.
  await expect(page).toHaveURL(new RegExp(`^${IDP_URL}/interaction/`));
  await page.getByRole('button', { name: 'Continue' }).click();
}

test('the superadmin connects an OpenID provider in the console', async ({ browser }) => {
  const { page, close } = await freshDevicePage(browser, SSO_URL);
  await signInThroughApi(page, 'superadmin@example.com', DEMO_PASSWORD, { acceptTerms: 'if-asked' });
  await page.goto('/superadmin/identity-providers');
  await expect(page.getByRole('heading', { name: 'Identity providers' })).toBeVisible();
  await page.getByRole('button', { name: 'Add identity provider' }).first().click();
  const dialog = page.getByRole('dialog');
  const field = (name: string) => dialog.getByRole('textbox', { name, exact: true });
  await field('Name').fill('Hospital SSO');
  await field('Short name').fill('hospital');
  await field('Issuer URL').fill(IDP_URL);
  await field('Client ID').fill('portal');
  await field('Client secret').fill('portal-secret');
  const domains = dialog.getByRole('combobox', { name: 'Email domains' });
  await domains.fill('example.com');
  await domains.press('Enter');
  await dialog.getByRole('switch', { name: /^Enabled/ }).check();
  await expectNoSeriousA11yViolations(page);
  await dialog.getByRole('button', { name: 'Add identity provider' }).click();
  await expect(dialog.getByRole('textbox', { name: 'Callback URL' })).toHaveValue(
    `${SSO_URL}/auth/oidc/hospital/callback`,
  );
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('row', { name: /Hospital SSO/ })).toBeVisible();
  await close();
});

test('a new person signs in through the provider, accepts the terms and lands in the portal', async ({ browser }) => {
  const { page, close } = await freshDevicePage(browser, SSO_URL);
  const email = `new.nurse${test.info().retry || ''}@example.com`;
  await page.goto('/member-login');
  await page.getByRole('link', { name: 'Sign in with Hospital SSO' }).click();
  await signInAtProvider(page, email);
  // Created at this first sign-in: the portal asks for the terms before anything else.
  await expect(page).toHaveURL(/\/member-login\?sso=terms/);
  await page.getByRole('checkbox', { name: /accept the terms and conditions/i }).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/member\/projects/);
  // Their own account, named as the provider's username claim says; no group maps them to a project yet.
  await expect(page.getByText(email.split('@')[0]!, { exact: true }).first()).toBeVisible();
  await expect(page.getByText('You are not a member of any project yet.')).toBeVisible();
  await close();
});

test('a demo account is offered its organisation’s sign-in by its email, and linked', async ({ browser }) => {
  const { page, close } = await freshDevicePage(browser, SSO_URL);
  await page.goto('/member-login');
  await page.getByLabel('Username or email').fill('reader@example.com');
  await expect(page.getByText('Your organisation signs in with Hospital SSO.')).toBeVisible();
  await page.getByRole('button', { name: 'Continue with Hospital SSO' }).first().click();
  await signInAtProvider(page, 'reader@example.com');
  // A fresh demo server: the reader has not accepted the terms yet, and is asked as at a password sign-in.
  await expect(page).toHaveURL(/\/member-login\?sso=terms|\/member\/projects/);
  if (page.url().includes('sso=terms')) {
    await page.getByRole('checkbox', { name: /accept the terms and conditions/i }).check();
    await page.getByRole('button', { name: 'Continue' }).click();
  }
  await expect(page).toHaveURL(/\/member\/projects/);
  // The demo reader's own projects: the account was linked, not duplicated.
  await expect(page.getByText('Demo Facility').first()).toBeVisible();
  await close();
});

test('a refused sign-in says why in words', async ({ browser }) => {
  const { page, close } = await freshDevicePage(browser, SSO_URL);
  await page.goto('/member-login');
  await page.getByRole('link', { name: 'Sign in with Hospital SSO' }).click();
  // An address on a domain the provider does not speak for: nobody is linked or created.
  await signInAtProvider(page, 'stranger@elsewhere.org');
  await expect(page).toHaveURL(/\/member-login\?sso_error=not_linked/);
  await expect(page.getByRole('alert')).toContainText('No account here matches');
  await close();
});

test('a leaver deprovisioned by the directory is signed out of the tab they have open', async ({ browser }) => {
  // The directory (SCIM) with the provider's token, as Entra ID would hold it.
  const admin = await freshDevicePage(browser, SSO_URL);
  await signInThroughApi(admin.page, 'superadmin@example.com', DEMO_PASSWORD, { acceptTerms: 'if-asked' });
  const xsrf = (await admin.page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const { providers } = (await (await admin.page.request.get('/super/identity-providers')).json()) as {
    providers: { id: number; slug: string }[];
  };
  const hospital = providers.find((p) => p.slug === 'hospital')!;
  const issued = await admin.page.request.post(`/super/identity-providers/${hospital.id}/scim-token`, {
    headers: { 'X-XSRF-TOKEN': xsrf },
  });
  expect(issued.status()).toBe(200);
  const { token } = (await issued.json()) as { token: string };
  const scim = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/scim+json' };
  const email = `leaver${test.info().retry || ''}@example.com`;
  const created = await admin.page.request.post('/scim/v2/Users', {
    headers: scim,
    data: {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName: email,
      externalId: `ext-${email}`,
      active: true,
      name: { givenName: 'Lee', familyName: 'Vere' },
      emails: [{ value: email, primary: true, type: 'work' }],
    },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };

  // The provisioned person signs in through the provider and keeps the portal open.
  const { page, close } = await freshDevicePage(browser, SSO_URL);
  await page.goto('/member-login');
  await page.getByRole('link', { name: 'Sign in with Hospital SSO' }).click();
  await signInAtProvider(page, email);
  await expect(page).toHaveURL(/\/member-login\?sso=terms/);
  await page.getByRole('checkbox', { name: /accept the terms and conditions/i }).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/member\/projects/);
  await expect(page.getByRole('heading', { name: 'Your projects' })).toBeVisible();

  // They leave the organisation: the directory deactivates them, as Entra ID sends it.
  const deactivated = await admin.page.request.patch(`/scim/v2/Users/${id}`, {
    headers: scim,
    data: {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
    },
  });
  expect(deactivated.status()).toBe(200);
  // The open tab is told at once (no waiting for a poll) and says why.
  await expect(page).toHaveURL(/\/member-login\?reason=session_ended/, { timeout: 10_000 });
  await expect(page.getByText('You were signed out: your account was turned off')).toBeVisible();
  await close();
  await admin.close();
});

test('a directory group mapped in the console brings a new person to its project with its roles', async ({
  browser,
}) => {
  const admin = await freshDevicePage(browser, SSO_URL);
  await signInThroughApi(admin.page, 'superadmin@example.com', DEMO_PASSWORD, { acceptTerms: 'if-asked' });
  const mapped = await admin.page.request.get('/super/identity-providers');
  const hospital = ((await mapped.json()) as { providers: { id: number; slug: string }[] }).providers.find(
    (p) => p.slug === 'hospital',
  )!;
  const existing = (await (
    await admin.page.request.get(`/super/identity-providers/${hospital.id}/mappings`)
  ).json()) as {
    mappings: { group: string }[];
  };
  if (!existing.mappings.some((m) => m.group === 'ICU Nursing')) {
    await mapDirectoryGroup(admin.page, 'Hospital SSO', 'ICU Nursing', 'Demo Facility');
  }

  // The test provider says every account is in "ICU Nursing".
  const { page, close } = await freshDevicePage(browser, SSO_URL);
  const email = `mapped.nurse${test.info().retry || ''}@example.com`;
  await page.goto('/member-login');
  await page.getByRole('link', { name: 'Sign in with Hospital SSO' }).click();
  await signInAtProvider(page, email);
  await expect(page).toHaveURL(/\/member-login\?sso=terms/);
  await page.getByRole('checkbox', { name: /accept the terms and conditions/i }).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/member\/projects/);
  await expect(page.getByText('Demo Facility').first()).toBeVisible();
  // With the mapped roles: a member of the project, policy management reader.
  const users = (await (await admin.page.request.get(`/super/users?q=${encodeURIComponent(email)}`)).json()) as {
    users: { id: number }[];
  };
  const detail = (await (await admin.page.request.get(`/super/users/${users.users[0]!.id}`)).json()) as {
    memberships: { project_name: string; project_role: string; main_roles: Record<string, string | null> }[];
  };
  expect(detail.memberships).toEqual([
    expect.objectContaining({
      project_name: 'Demo Facility',
      project_role: 'simple',
      main_roles: expect.objectContaining({ policy_management: 'reader' }),
    }),
  ]);
  await close();
  await admin.close();
});

test('the console and the sign-in page fit the screen, down to a phone @responsive', async ({ browser }) => {
  const { page, close } = await freshDevicePage(browser, SSO_URL);
  await signInThroughApi(page, 'superadmin@example.com', DEMO_PASSWORD, { acceptTerms: 'if-asked' });
  // A provider of its own, claiming no domain, so this test needs nothing from the story above (the phone runs only
  // this one, beside the desktop; whichever comes second finds it made).
  const xsrf = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const listed = (await (await page.request.get('/super/identity-providers')).json()) as {
    providers: { slug: string }[];
  };
  if (!listed.providers.some((p) => p.slug === 'clinic')) {
    const created = await page.request.post('/super/identity-providers', {
      headers: { 'X-XSRF-TOKEN': xsrf },
      data: {
        slug: 'clinic',
        name: 'Clinic SSO',
        kind: 'oidc',
        enabled: true,
        domains: [],
        trust_mfa: false,
        mfa_values: [],
        local_passwords_off: false,
        claims: {
          email: 'email',
          first_name: 'given_name',
          last_name: 'family_name',
          username: 'preferred_username',
          groups: 'groups',
        },
        oidc: { issuer: IDP_URL, client_id: 'portal', client_secret: 'portal-secret', scopes: 'openid email profile' },
      },
    });
    expect([201, 409]).toContain(created.status());
  }
  await page.goto('/superadmin/identity-providers');
  await expect(page.getByText('Clinic SSO').first()).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  const signedOut = await freshDevicePage(browser, SSO_URL);
  await signedOut.page.goto('/member-login');
  const button = signedOut.page.getByRole('link', { name: 'Sign in with Clinic SSO' });
  await expect(button).toBeVisible();
  await expectNoSeriousA11yViolations(signedOut.page);
  // Reachable without scrolling sideways: the button fits the phone's width.
  const box = await button.boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= (signedOut.page.viewportSize()?.width ?? 0)).toBe(true);
  await signedOut.close();
  await close();
});
