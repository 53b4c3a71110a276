import { generateKeyPairSync, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { importJWK, SignJWT } from 'jose';
import Provider, { type ClientMetadata, type JWK } from 'oidc-provider';

/**
 * A real OpenID Connect provider (oidc-provider) on 127.0.0.1 for the single sign-on tests (decision record 023).
 * Its login interaction signs in the account the test chose (with the amr / acr the test chose), so a test drives
 * the whole authorization code flow with fetch. Forgeries come from changing the provider, never from mocking the
 * protocol: `jwksOverride` publishes a key set without the signing key, `idTokenTtl` shortens the ID token's life,
 * clients are added or changed by rebuilding the provider (codes survive: oidc-provider's memory adapter is shared).
 */

export interface TestAccount {
  sub: string;
  email?: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
  preferred_username?: string;
  groups?: string[];
}

export interface TestIdp {
  issuer: string;
  /** Who the next login interaction signs in, and how (amr / acr as the provider reports them). */
  signInAs(account: TestAccount, how?: { amr?: string[]; acr?: string }): void;
  addClient(client: { client_id: string; client_secret: string; redirect_uris: string[] }): void;
  state: {
    idTokenTtl: number;
    jwksOverride: { keys: JWK[] } | null;
    /** Changes the ID token the token endpoint answers, then signs it again with the provider's own key. */
    forgeIdToken: ((claims: Record<string, unknown>) => Record<string, unknown>) | null;
  };
  /** A public key set of a fresh key under the signing key's kid: what a forged (unknown) key looks like. */
  foreignJwks(): { keys: JWK[] };
  /** A browser following redirects from the portal's authorization URL until the portal's callback URL. */
  authorize(authorizationUrl: string, appUrl: string): Promise<string>;
  close(): Promise<void>;
}

function rsaJwk(kid: string): JWK {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { ...(privateKey.export({ format: 'jwk' }) as JWK), kid, use: 'sig', alg: 'RS256' };
}

const publicPart = (jwk: JWK): JWK => ({ kty: jwk.kty, n: jwk.n, e: jwk.e, kid: jwk.kid, use: 'sig', alg: 'RS256' });

export async function startTestIdp(): Promise<TestIdp> {
  const signingKey = rsaJwk(randomUUID());
  const clients: ClientMetadata[] = [];
  const state: TestIdp['state'] = { idTokenTtl: 600, jwksOverride: null, forgeIdToken: null };
  let account: TestAccount | null = null;
  let how: { amr?: string[]; acr?: string } = {};
  let provider: Provider;

  const server = http.createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      res.statusCode = 500;
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  function build() {
    provider = new Provider(issuer, {
      clients: clients.map((c) => ({ ...c })),
      jwks: { keys: [signingKey] },
      cookies: { keys: ['test-cookie-key-0123456789'] },
      claims: {
        // amr and acr: how the person signed in, in every ID token as Entra ID and Okta send them (MFA trust reads them).
        amr: null,
        acr: null,
        openid: ['sub', 'amr', 'acr'],
        email: ['email', 'email_verified'],
        profile: ['given_name', 'family_name', 'preferred_username'],
        groups: ['groups'],
      },
      scopes: ['openid', 'email', 'profile', 'groups'],
      // The claims go into the ID token itself, as Entra ID, Okta and Keycloak do.
      conformIdTokenClaims: false,
      features: { devInteractions: { enabled: false } },
      interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
      findAccount: async (_ctx, sub) => ({
        accountId: sub,
        claims: async () => (account && account.sub === sub ? { ...account } : { sub }),
      }),
      // First-party client: the grant is given without a consent screen.
      loadExistingGrant: async (ctx) => {
        const grant = new ctx.oidc.provider.Grant({
          clientId: ctx.oidc.client!.clientId,
          accountId: ctx.oidc.session!.accountId!,
        });
        grant.addOIDCScope('openid email profile groups');
        await grant.save();
        return grant;
      },
      pkce: { required: () => true },
      ttl: {
        IdToken: () => state.idTokenTtl,
        AccessToken: 600,
        AuthorizationCode: 60,
        Interaction: 600,
        Session: 600,
        Grant: 600,
      },
    });
  }
  build();

  async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? '/', issuer);
    if (url.pathname === '/jwks' && state.jwksOverride) {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(state.jwksOverride));
      return;
    }
    if (url.pathname === '/token' && state.forgeIdToken) forgeTokenAnswer(res, state.forgeIdToken);
    if (url.pathname.startsWith('/interaction/')) {
      await provider.interactionDetails(req, res);
      if (!account) throw new Error('signInAs() first');
      await provider.interactionFinished(
        req,
        res,
        {
          login: { accountId: account.sub, ...(how.amr ? { amr: how.amr } : {}), ...(how.acr ? { acr: how.acr } : {}) },
        },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    provider.callback()(req, res);
  }

  /** Holds the token endpoint's answer back, replaces its ID token with a changed one signed with the real key. */
  function forgeTokenAnswer(
    res: http.ServerResponse,
    forge: (claims: Record<string, unknown>) => Record<string, unknown>,
  ) {
    const chunks: Buffer[] = [];
    const end = res.end.bind(res);
    res.write = ((chunk: string | Uint8Array) => {
      chunks.push(Buffer.from(chunk));
      return true;
    }) as typeof res.write;
    res.end = ((chunk?: string | Uint8Array) => {
      if (chunk && typeof chunk !== 'function') chunks.push(Buffer.from(chunk));
      void (async () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id_token?: string };
        if (body.id_token) {
          const claims = JSON.parse(Buffer.from(body.id_token.split('.')[1]!, 'base64url').toString('utf8'));
          body.id_token = await new SignJWT(forge(claims))
            .setProtectedHeader({ alg: 'RS256', kid: signingKey.kid!, typ: 'JWT' })
            .sign(await importJWK(signingKey as Parameters<typeof importJWK>[0], 'RS256'));
        }
        const text = JSON.stringify(body);
        res.setHeader('content-length', Buffer.byteLength(text));
        end(text);
      })();
      return res;
    }) as typeof res.end;
  }

  return {
    issuer,
    state,
    signInAs(next, nextHow = {}) {
      account = next;
      how = nextHow;
    },
    addClient(client) {
      clients.push({
        ...client,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      });
      build();
    },
    foreignJwks: () => ({ keys: [publicPart(rsaJwk(signingKey.kid!))] }),
    async authorize(authorizationUrl, appUrl) {
      const jar = new Map<string, string>();
      let url = authorizationUrl;
      for (let hop = 0; hop < 10; hop++) {
        if (url.startsWith(`${appUrl}/`)) return url;
        const res = await fetch(url, {
          redirect: 'manual',
          headers: jar.size ? { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } : {},
        });
        for (const cookie of res.headers.getSetCookie()) {
          const [pair = '', ...attributes] = cookie.split(';');
          const name = pair.slice(0, pair.indexOf('=')).trim();
          const value = pair.slice(pair.indexOf('=') + 1);
          const expires = attributes.find((a) => /^\s*expires=/i.test(a));
          const gone = !value || (expires && new Date(expires.split('=')[1]!) <= new Date());
          if (gone) jar.delete(name);
          else jar.set(name, value);
        }
        const location = res.headers.get('location');
        if (!location) throw new Error(`The provider stopped at ${url}: ${res.status} ${await res.text()}`);
        url = new URL(location, url).href;
      }
      throw new Error('Too many redirects at the provider.');
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
