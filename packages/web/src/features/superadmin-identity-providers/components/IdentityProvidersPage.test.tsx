import { DEFAULT_CLAIMS, type IdentityProvider } from '@portal/shared';
import { act } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { type StubHandler, type StubRequest, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, render, text, typeInto, waitFor } from '../../../test/render';
import { dialog, errorOf, field, labelled, rows, seriousViolations, toasts } from '../../../test/ui';
import { IdentityProvidersPage } from './IdentityProvidersPage';

const PATH = '/super/identity-providers';

const NORTHWIND: IdentityProvider = {
  id: 5,
  slug: 'northwind',
  name: 'Northwind Health',
  kind: 'oidc',
  enabled: true,
  domains: ['northwind.org', 'nw-health.org'],
  trust_mfa: true,
  mfa_values: ['mfa'],
  local_passwords_off: false,
  trust_email: false,
  claims: { ...DEFAULT_CLAIMS },
  saml: null,
  oidc: {
    issuer: 'https://login.northwind.org',
    client_id: 'portal',
    scopes: 'openid email profile',
    has_secret: true,
  },
  callback_url: 'https://portal.example.org/auth/oidc/northwind/callback',
  linked_users: 12,
  scim: { enabled: false, created_at: null, base_url: 'https://portal.example.org/scim/v2' },
  created_at: '2026-03-01T10:00:00Z',
  updated_at: '2026-03-01T10:00:00Z',
};
const LAKESIDE: IdentityProvider = {
  ...NORTHWIND,
  id: 6,
  slug: 'lakeside',
  name: 'Lakeside',
  enabled: false,
  domains: [],
  trust_mfa: false,
  mfa_values: [],
  callback_url: 'https://portal.example.org/auth/oidc/lakeside/callback',
  linked_users: 0,
};

function server(providers: IdentityProvider[], routes: Record<string, StubHandler | StubHandler[]> = {}) {
  return stubApi({ [`GET ${PATH}`]: jsonResponse({ providers }), ...routes });
}

async function open() {
  const router = createMemoryRouter(
    [
      { path: '/superadmin/identity-providers', element: <IdentityProvidersPage /> },
      { path: '/superadmin', element: <p>Home</p> },
    ],
    { initialEntries: ['/superadmin/identity-providers'] },
  );
  await render(<RouterProvider router={router} />);
  await waitFor(() => expect(document.querySelector('h1')?.textContent).toBe('Identity providers'));
  return router;
}

async function addTag(label: string, tag: string, root: ParentNode) {
  const input = field(label, root);
  await act(async () => input.focus());
  await typeInto(input, tag);
  await act(async () => {
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
  });
}

const created = (request: StubRequest, extra: Partial<IdentityProvider> = {}) => {
  const body = request.body as Record<string, unknown> & { oidc: Record<string, unknown> };
  const { client_secret: _secret, ...oidc } = body.oidc;
  return jsonResponse(
    {
      ...NORTHWIND,
      ...body,
      id: 9,
      oidc: { ...oidc, has_secret: Boolean(_secret) },
      callback_url: `https://portal.example.org/auth/oidc/${body.slug as string}/callback`,
      linked_users: 0,
      ...extra,
    },
    201,
  );
};

describe('IdentityProvidersPage: the list', () => {
  it('lists each provider with its type, domains, status, multi-factor trust and linked users', async () => {
    server([NORTHWIND, LAKESIDE]);
    await open();
    await waitFor(() => expect(rows('[data-testid="identity-providers"]')).toHaveLength(2));
    expect(rows('[data-testid="identity-providers"]')).toEqual([
      [
        'Northwind Healthnorthwind',
        'OpenID Connect',
        'northwind.org, nw-health.org',
        'Enabled',
        'Yes',
        '12',
        'Group mappingsProvisioningEditDelete',
      ],
      ['Lakesidelakeside', 'OpenID Connect', 'None', 'Disabled', 'No', '0', 'Group mappingsProvisioningEditDelete'],
    ]);
    expect(document.title).toBe('Identity providers | Healthcare Quality Portal');
    expect(getControl('Administration').getAttribute('href')).toBe('/superadmin');
    expect(labelled('Group mappings of Northwind Health').getAttribute('href')).toBe(
      '/superadmin/identity-providers/5/mappings',
    );
    expect(getControl('Add identity provider')).toBeTruthy();
  });

  it('opens a provider’s provisioning from its row, with its SCIM address and a way to make a token', async () => {
    server([NORTHWIND]);
    await open();
    await waitFor(() => labelled('Provisioning of Northwind Health'));
    await click(labelled('Provisioning of Northwind Health'));
    await waitFor(() => expect(text(dialog())).toContain('Provisioning (SCIM 2.0)'));
    expect(field('SCIM base URL', dialog()).value).toBe('https://portal.example.org/scim/v2');
    expect(getControl('Create token', dialog())).toBeTruthy();
  });

  it('explains single sign-on and offers to add a provider when there is none', async () => {
    server([]);
    await open();
    await waitFor(() => expect(text()).toContain('No identity providers yet'));
    expect(text()).toContain('sign in with the account their organisation already gives them');
    expect(document.querySelector('[data-testid="identity-providers"]')).toBeNull();
    await click(getControl('Add identity provider'));
    await waitFor(() =>
      expect(dialog().querySelector('form')?.getAttribute('aria-label')).toBe('Add identity provider'),
    );
  });

  it('shows the reason and Retry when the list cannot be loaded', async () => {
    const api = server([], {
      [`GET ${PATH}`]: [
        jsonResponse({ message: 'The server is busy.' }, 503),
        jsonResponse({ providers: [NORTHWIND] }),
      ],
    });
    await open();
    await waitFor(() => expect(text(document.querySelector('[role="alert"]')!)).toBe('The server is busy.'));
    await click(getControl('Retry'));
    await waitFor(() => expect(rows('[data-testid="identity-providers"]')).toHaveLength(1));
    expect(api.calls(`GET ${PATH}`)).toHaveLength(2);
  });
});

describe('IdentityProvidersPage: adding a provider', () => {
  it("checks the form with the contract's sentences, sends the provider, and shows the callback URL", async () => {
    const api = server([], { [`POST ${PATH}`]: (request) => created(request) });
    await open();
    await waitFor(() => getControl('Add identity provider'));
    await click(getControl('Add identity provider'));
    const form = () => dialog();
    await waitFor(() => field('Name', form()));
    // The defaults: OpenID Connect with the standard scopes and claims; SAML 2.0 may be chosen instead.
    expect(field('Scopes', form()).value).toBe('openid email profile');
    expect(form().querySelector<HTMLInputElement>('input[value="oidc"]')!.checked).toBe(true);
    expect(form().querySelector<HTMLInputElement>('input[value="saml"]')!.disabled).toBe(false);

    await typeInto(field('Scopes', form()), 'email profile');
    await click(getControl('Add identity provider', form()));
    expect(errorOf('Name', form())).toBe('Enter a name.');
    expect(errorOf('Client ID', form())).toBe('Enter the client ID.');
    expect(errorOf('Issuer URL', form())).toBe('Enter an address starting with https://.');
    expect(errorOf('Scopes', form())).toBe('The scopes must include openid.');
    expect(api.calls(`POST ${PATH}`)).toHaveLength(0);

    await typeInto(field('Name', form()), 'Northwind Health');
    // The short name follows the name until it is edited.
    expect(field('Short name', form()).value).toBe('northwind-health');
    await typeInto(field('Issuer URL', form()), 'https://login.northwind.org');
    await typeInto(field('Client ID', form()), 'portal');
    await typeInto(field('Client secret', form()), 's3cret');
    await typeInto(field('Scopes', form()), 'openid email profile');
    await addTag('Email domains', '@northwind.org', form());
    await click(getControl('Add identity provider', form()));
    expect(errorOf('Email domains', form())).toBe('Enter domains such as hospital.org, without the @.');

    // Backspace in the empty box removes the last domain.
    const domains = field('Email domains', form());
    await typeInto(domains, '');
    await act(async () => {
      domains.dispatchEvent(new KeyboardEvent('keydown', { key: 'Backspace', bubbles: true }));
    });
    await addTag('Email domains', 'NorthWind.org', form());
    await click(field('Enabled', form()));
    await click(field("Trust the provider's email addresses", form()));
    await click(getControl('Add identity provider', form()));

    await waitFor(() => expect(api.calls(`POST ${PATH}`)).toHaveLength(1));
    expect(api.calls(`POST ${PATH}`)[0]!.body).toEqual({
      slug: 'northwind-health',
      name: 'Northwind Health',
      kind: 'oidc',
      enabled: true,
      domains: ['northwind.org'],
      trust_mfa: false,
      mfa_values: [],
      local_passwords_off: false,
      trust_email: true,
      claims: DEFAULT_CLAIMS,
      saml: null,
      oidc: {
        issuer: 'https://login.northwind.org',
        client_id: 'portal',
        client_secret: 's3cret',
        scopes: 'openid email profile',
      },
    });
    await waitFor(() =>
      expect(field('Callback URL').value).toBe('https://portal.example.org/auth/oidc/northwind-health/callback'),
    );
    expect(labelled('Copy: Callback URL')).toBeTruthy();
    await waitFor(() => expect(toasts()).toContain('Northwind Health added.'));
    await click(getControl('Done'));
    await waitFor(() => expect(document.querySelector('[role="dialog"]')).toBeNull());
    // The list loads again with the new provider.
    expect(api.calls(`GET ${PATH}`).length).toBeGreaterThanOrEqual(2);
  });

  it('adds a SAML provider from its metadata address: its attribute names, the server’s field error, then what the IdP needs', async () => {
    const missing = 'Enter the identity provider’s entity ID, or its metadata.';
    const api = server([], {
      [`POST ${PATH}`]: [
        jsonResponse({ message: missing, errors: { 'saml.entity_id': [missing] } }, 422),
        (request) => {
          const body = request.body as Record<string, unknown>;
          return jsonResponse(
            {
              ...NORTHWIND,
              ...body,
              id: 10,
              oidc: null,
              saml: {
                metadata_url: 'https://login.lakeside.org/metadata.xml',
                entity_id: 'https://login.lakeside.org',
                sso_url: 'https://login.lakeside.org/sso',
                slo_url: '',
                certificates: [],
                sp_entity_id: 'https://portal.example.org/auth/saml/lakeside/metadata',
                sp_metadata_url: 'https://portal.example.org/auth/saml/lakeside/metadata',
              },
              callback_url: 'https://portal.example.org/auth/saml/lakeside/acs',
              linked_users: 0,
            },
            201,
          );
        },
      ],
    });
    await open();
    await waitFor(() => getControl('Add identity provider'));
    await click(getControl('Add identity provider'));
    const form = () => dialog();
    await waitFor(() => field('Name', form()));
    await typeInto(field('Name', form()), 'Lakeside');
    await click(form().querySelector<HTMLInputElement>('input[value="saml"]')!);
    // SAML's own fields replace the OpenID Connect ones, and the attribute names start at Entra ID's.
    expect(form().querySelector('input[value="saml"]:checked')).toBeTruthy();
    expect(text(form())).not.toContain('Issuer URL');
    expect(field('Email', form()).value).toBe('http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress');
    await click(getControl('Add identity provider', form()));
    await waitFor(() => expect(errorOf('IdP entity ID', form())).toBe(missing));

    await typeInto(field('IdP metadata URL', form()), 'https://login.lakeside.org/metadata.xml');
    await click(getControl('Add identity provider', form()));
    await waitFor(() => expect(api.calls(`POST ${PATH}`)).toHaveLength(2));
    expect(api.calls(`POST ${PATH}`)[1]!.body).toMatchObject({
      kind: 'saml',
      oidc: null,
      mfa_values: [],
      saml: { metadata_url: 'https://login.lakeside.org/metadata.xml', metadata_xml: '', certificate: '' },
    });
    await waitFor(() =>
      expect(field('Assertion consumer service URL').value).toBe('https://portal.example.org/auth/saml/lakeside/acs'),
    );
    expect(field('SP entity ID').value).toBe('https://portal.example.org/auth/saml/lakeside/metadata');
  });

  const taken = 'That short name is already used by another provider.';
  it.each([
    ['with field errors', { message: taken, errors: { slug: [taken] } }],
    ['with only a message', { message: taken }],
  ])("shows the server's 409 (%s) on the short name under the field", async (_case, answer) => {
    server([NORTHWIND], { [`POST ${PATH}`]: jsonResponse(answer, 409) });
    await open();
    await waitFor(() => getControl('Add identity provider'));
    await click(getControl('Add identity provider'));
    await waitFor(() => field('Name', dialog()));
    await typeInto(field('Name', dialog()), 'Northwind');
    await typeInto(field('Issuer URL', dialog()), 'https://login.northwind.org');
    await typeInto(field('Client ID', dialog()), 'portal');
    await click(getControl('Add identity provider', dialog()));

    await waitFor(() => expect(errorOf('Short name', dialog())).toBe(taken));
    // Still the form: nothing was added.
    expect(() => field('Callback URL', dialog())).toThrow();
  });

  it('puts nested server field errors (claims) under their fields and opens the claim names', async () => {
    server([], {
      [`POST ${PATH}`]: jsonResponse(
        { message: 'Check the claims.', errors: { 'claims.email': ['The provider does not send this claim.'] } },
        422,
      ),
    });
    await open();
    await waitFor(() => getControl('Add identity provider'));
    await click(getControl('Add identity provider'));
    await waitFor(() => field('Name', dialog()));
    await typeInto(field('Name', dialog()), 'Northwind');
    await typeInto(field('Issuer URL', dialog()), 'https://login.northwind.org');
    await typeInto(field('Client ID', dialog()), 'portal');
    await click(getControl('Add identity provider', dialog()));
    await waitFor(() => expect(errorOf('Email', dialog())).toBe('The provider does not send this claim.'));
    expect(getControl('Advanced: claim names', dialog()).getAttribute('aria-expanded')).toBe('true');
  });
});

describe('IdentityProvidersPage: accessibility', () => {
  it('has no serious axe violation in the list or the form', async () => {
    server([NORTHWIND]);
    await open();
    await waitFor(() => labelled('Edit Northwind Health'));
    expect(await seriousViolations()).toEqual([]);
    await click(labelled('Edit Northwind Health'));
    await waitFor(() => field('Name', dialog()));
    expect(await seriousViolations()).toEqual([]);
  });
});

describe('IdentityProvidersPage: editing a provider', () => {
  it('keeps the stored secret when the field is left blank, and says one is stored', async () => {
    const api = server([NORTHWIND], {
      [`PUT ${PATH}/5`]: (request) => jsonResponse({ ...NORTHWIND, name: (request.body as { name: string }).name }),
    });
    await open();
    await waitFor(() => labelled('Edit Northwind Health'));
    await click(labelled('Edit Northwind Health'));
    await waitFor(() => field('Name', dialog()));
    expect(field('Callback URL', dialog()).value).toBe(NORTHWIND.callback_url);
    expect(text(dialog())).toContain('A secret is stored');
    expect(text(dialog())).toContain('Leave blank to keep the stored secret');
    expect(field('Client secret', dialog()).value).toBe('');
    expect(field('Short name', dialog()).value).toBe('northwind');
    // Trusted multi-factor shows its values.
    expect(field('Values that mean multi-factor', dialog())).toBeTruthy();

    await typeInto(field('Name', dialog()), 'Northwind');
    // Editing the name does not move the short name of an existing provider.
    expect(field('Short name', dialog()).value).toBe('northwind');
    await click(getControl('Save changes', dialog()));

    await waitFor(() => expect(api.calls(`PUT ${PATH}/5`)).toHaveLength(1));
    const body = api.calls(`PUT ${PATH}/5`)[0]!.body as { oidc: Record<string, unknown>; mfa_values: string[] };
    expect(body.oidc).toEqual({
      issuer: 'https://login.northwind.org',
      client_id: 'portal',
      scopes: 'openid email profile',
    });
    expect(body.oidc).not.toHaveProperty('client_secret');
    expect(body.mfa_values).toEqual(['mfa']);
    await waitFor(() => expect(document.querySelector('[role="dialog"]')).toBeNull());
    await waitFor(() => expect(toasts()).toContain('Northwind saved.'));
  });

  it('sends a new secret when one is typed', async () => {
    const api = server([NORTHWIND], { [`PUT ${PATH}/5`]: jsonResponse(NORTHWIND) });
    await open();
    await waitFor(() => labelled('Edit Northwind Health'));
    await click(labelled('Edit Northwind Health'));
    await waitFor(() => field('Client secret', dialog()));
    await typeInto(field('Client secret', dialog()), 'rotated');
    await click(getControl('Save changes', dialog()));
    await waitFor(() => expect(api.calls(`PUT ${PATH}/5`)).toHaveLength(1));
    expect((api.calls(`PUT ${PATH}/5`)[0]!.body as { oidc: object }).oidc).toMatchObject({ client_secret: 'rotated' });
  });
});

describe('IdentityProvidersPage: deleting a provider', () => {
  it('asks first, naming the provider and the people who lose this way of signing in', async () => {
    let providers = [NORTHWIND, LAKESIDE];
    const api = stubApi({
      [`GET ${PATH}`]: () => jsonResponse({ providers }),
      [`DELETE ${PATH}/5`]: () => {
        providers = [LAKESIDE];
        return new Response(null, { status: 204 });
      },
    });
    await open();
    await waitFor(() => labelled('Delete Northwind Health'));
    await click(labelled('Delete Northwind Health'));
    await waitFor(() => expect(text(dialog())).toContain('Delete Northwind Health?'));
    expect(text(dialog())).toContain('12 people linked to it will lose this way of signing in');

    // Cancel sends nothing.
    await click(getControl('Cancel', dialog()));
    await waitFor(() => expect(document.querySelector('[role="dialog"]')).toBeNull());
    expect(api.calls(`DELETE ${PATH}/5`)).toHaveLength(0);

    await click(labelled('Delete Northwind Health'));
    await waitFor(() => getControl('Delete identity provider', dialog()));
    await click(getControl('Delete identity provider', dialog()));
    await waitFor(() => expect(api.calls(`DELETE ${PATH}/5`)).toHaveLength(1));
    await waitFor(() => expect(rows('[data-testid="identity-providers"]')).toHaveLength(1));
    await waitFor(() => expect(toasts()).toContain('Northwind Health deleted.'));
  });

  it('says when no one is linked yet', async () => {
    server([LAKESIDE]);
    await open();
    await waitFor(() => labelled('Delete Lakeside'));
    await click(labelled('Delete Lakeside'));
    await waitFor(() => expect(text(dialog())).toContain('No one has signed in with it yet.'));
  });
});
