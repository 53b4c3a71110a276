// A real OpenID provider for the browser tests of single sign-on (the certified `oidc-provider`, on loopback).
// Usage: node e2e/oidc-idp.mjs PORT PORTAL_URL
// Its issuer is http://127.0.0.1:PORT; one client, `portal` (secret `portal-secret`), may return to
// PORTAL_URL/auth/oidc/<any short name>/callback. Its sign-in form takes any login (the account's email) and any
// password; the account's claims are the standard ones, with `groups` and `amr` (pwd and mfa): what Entra ID, Okta
// and Keycloak send. GET /healthz answers once it listens.
import http from 'node:http';
import Provider from 'oidc-provider';

const [port, portalUrl] = process.argv.slice(2);
if (!port || !portalUrl) {
  console.error('Usage: node e2e/oidc-idp.mjs PORT PORTAL_URL');
  process.exit(2);
}
const issuer = `http://127.0.0.1:${port}`;

/** An account is known by its email: names come from its local part (ana.lopez@ → Ana Lopez). */
function claimsOf(email) {
  const [first = 'Test', last = 'Person'] = email
    .split('@')[0]
    .split(/[._-]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1));
  return {
    sub: email,
    email,
    email_verified: true,
    given_name: first,
    family_name: last,
    preferred_username: email.split('@')[0],
    groups: ['ICU Nursing'],
  };
}

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: 'portal',
      client_secret: 'portal-secret',
      redirect_uris: ['hospital', 'clinic'].map((slug) => `${portalUrl}/auth/oidc/${slug}/callback`),
      grant_types: ['authorization_code'],
      response_types: ['code'],
    },
  ],
  claims: {
    openid: ['sub', 'amr'],
    email: ['email', 'email_verified'],
    profile: ['given_name', 'family_name', 'preferred_username', 'groups'],
  },
  conformIdTokenClaims: false,
  pkce: { required: () => true },
  features: { devInteractions: { enabled: true } },
  async findAccount(_ctx, id) {
    return { accountId: id, claims: async () => ({ ...claimsOf(id), amr: ['pwd', 'mfa'] }) };
  },
});
provider.proxy = false;

const server = http.createServer((req, res) => {
  if (req.url === '/healthz') {
    res.end('ok');
    return;
  }
  provider.callback()(req, res);
});
server.listen(Number(port), '127.0.0.1');
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.close(() => process.exit(0)));
