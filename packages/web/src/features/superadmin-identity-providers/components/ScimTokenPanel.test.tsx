import { DEFAULT_CLAIMS, type IdentityProvider } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, render, text, waitFor } from '../../../test/render';
import { dialog, field, labelled, seriousViolations, toasts } from '../../../test/ui';
import { ScimTokenPanel } from './ScimTokenPanel';

const TOKEN_PATH = '/super/identity-providers/5/scim-token';
const BASE_URL = 'https://portal.example.org/scim/v2';

const provider = (scim: IdentityProvider['scim']): IdentityProvider => ({
  id: 5,
  slug: 'northwind',
  name: 'Northwind Health',
  kind: 'oidc',
  enabled: true,
  domains: ['northwind.org'],
  trust_mfa: false,
  mfa_values: [],
  local_passwords_off: false,
  trust_email: false,
  claims: { ...DEFAULT_CLAIMS },
  saml: null,
  oidc: { issuer: 'https://login.northwind.org', client_id: 'portal', scopes: 'openid', has_secret: true },
  callback_url: 'https://portal.example.org/auth/oidc/northwind/callback',
  linked_users: 0,
  scim,
  created_at: '2026-03-01T10:00:00Z',
  updated_at: '2026-03-01T10:00:00Z',
});
const OFF = provider({ enabled: false, created_at: null, base_url: BASE_URL });
const ON = provider({ enabled: true, created_at: '2026-03-02T09:30:00Z', base_url: BASE_URL });
const NEW_TOKEN = { token: 'a1b2c3d4e5f6'.repeat(5), created_at: '2026-03-03T08:00:00Z', base_url: BASE_URL };

describe('ScimTokenPanel', () => {
  it('shows provisioning off with the base URL, and makes a token shown once with a warning', async () => {
    const api = stubApi({ [`POST ${TOKEN_PATH}`]: jsonResponse(NEW_TOKEN) });
    await render(<ScimTokenPanel provider={OFF} />);
    expect(text()).toContain('Provisioning (SCIM 2.0)');
    expect(text()).toContain('Off');
    expect(field('SCIM base URL').value).toBe(BASE_URL);
    expect(labelled('Copy the SCIM base URL')).toBeTruthy();
    expect(() => getControl('Rotate token')).toThrow();
    expect(await seriousViolations()).toEqual([]);

    await click(getControl('Create token'));
    await waitFor(() => expect(text(dialog())).toContain('It will not be shown again.'));
    expect(api.calls(`POST ${TOKEN_PATH}`)).toHaveLength(1);
    expect(field('Secret token', dialog()).value).toBe(NEW_TOKEN.token);
    expect(labelled('Copy the token', dialog())).toBeTruthy();
    await click(getControl('Done', dialog()));
    await waitFor(() => expect(document.querySelector('[role="dialog"]')).toBeNull());
    expect(text()).not.toContain(NEW_TOKEN.token);
  });

  it('asks before rotating: the old token stops at once; Cancel changes nothing', async () => {
    const api = stubApi({ [`POST ${TOKEN_PATH}`]: jsonResponse(NEW_TOKEN) });
    await render(<ScimTokenPanel provider={ON} />);
    expect(text()).toContain('On');
    expect(() => getControl('Create token')).toThrow();

    await click(getControl('Rotate token'));
    await waitFor(() => expect(text(dialog())).toContain('The current token stops working at once'));
    await click(getControl('Cancel', dialog()));
    await waitFor(() => expect(document.querySelector('[role="dialog"]')).toBeNull());
    expect(api.calls(`POST ${TOKEN_PATH}`)).toHaveLength(0);

    await click(getControl('Rotate token'));
    await waitFor(() => getControl('Rotate token', dialog()));
    await click(getControl('Rotate token', dialog()));
    await waitFor(() => expect(field('Secret token', dialog()).value).toBe(NEW_TOKEN.token));
    expect(api.calls(`POST ${TOKEN_PATH}`)).toHaveLength(1);
  });

  it('turns provisioning off after confirmation, and says why when it fails', async () => {
    const api = stubApi({
      [`DELETE ${TOKEN_PATH}`]: [
        jsonResponse({ message: 'Identity provider not found.', code: 'NOT_FOUND' }, 404),
        new Response(null, { status: 204 }),
      ],
    });
    await render(<ScimTokenPanel provider={ON} />);
    const turnOff = async () => {
      await click(getControl('Turn off provisioning'));
      await waitFor(() => expect(text(dialog())).toContain('The people it provisioned keep their accounts'));
      await click(getControl('Turn off provisioning', dialog()));
    };
    await turnOff();
    await waitFor(() => expect(toasts()).toContain('Identity provider not found.'));
    await turnOff();
    await waitFor(() => expect(toasts()).toContain('Provisioning for Northwind Health is off.'));
    expect(api.calls(`DELETE ${TOKEN_PATH}`)).toHaveLength(2);
  });
});
