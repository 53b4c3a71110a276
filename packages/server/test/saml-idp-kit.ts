import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * A real SAML 2.0 identity provider for the single sign-on tests (decision record 023): SimpleSAMLphp from Debian's
 * packages (scripts/test.mjs installs it), served by PHP's built-in server on 127.0.0.1 with its own configuration
 * in a temporary folder, a fresh signing key, and one user whose attributes the test chooses. The portal's service
 * providers are registered by entity ID; a test drives the browser's part with fetch (`authorize`).
 */

export const SIMPLESAMLPHP_WWW = '/usr/share/simplesamlphp/www';
/** The password of the test IdP's one user (its sign-in form asks for it). */
export const SAML_TEST_PASSWORD = 'portal-test-password';
export const PERSISTENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent';

export interface SamlTestUser {
  uid: string;
  email?: string;
  firstName?: string;
  lastName?: string;
  groups?: string[];
}

export interface ServiceProviderEntry {
  entityId: string;
  acsUrl: string;
  logoutUrl?: string;
  /** The AuthnContextClassRef the assertion states (SimpleSAMLphp's saml:AuthnContextClassRef filter). */
  authnContext?: string;
}

export interface SamlTestIdp {
  baseUrl: string;
  metadataUrl: string;
  entityId: string;
  ssoUrl: string;
  /** The IdP's signing certificate and key (PEM): what a test forging an assertion with the real key uses. */
  certificate: string;
  privateKey: string;
  signInAs(user: SamlTestUser): void;
  registerSp(sp: ServiceProviderEntry): void;
  /**
   * A browser: follows the IdP's redirects from `url` (an AuthnRequest, or an IdP-initiated start), signs in with
   * the chosen user's password and returns the form the IdP's page would post to the portal.
   */
  authorize(url: string): Promise<{ action: string; SAMLResponse: string; RelayState?: string }>;
  /**
   * The same browser (the IdP's session of the last `authorize`) opening `url`: follows the IdP's redirects and
   * returns the first address outside the IdP (a message to the portal), or the page it ends on.
   */
  visit(url: string): Promise<{ leftTo: string } | { html: string }>;
  close(): Promise<void>;
}

export const ATTRIBUTES = {
  email: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
  first_name: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname',
  last_name: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname',
  username: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name',
  groups: 'http://schemas.microsoft.com/ws/2008/06/identity/claims/groups',
};

export function simpleSamlPhpInstalled(): boolean {
  return fs.existsSync(SIMPLESAMLPHP_WWW) && fs.existsSync('/usr/bin/php');
}

const php = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
const phpList = (values: readonly string[]) => `[${values.map(php).join(', ')}]`;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function waitForHttp(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`SimpleSAMLphp exited with ${child.exitCode}`);
    try {
      const res = await fetch(url);
      if (res.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`SimpleSAMLphp did not answer at ${url}`);
}

export async function startSamlIdp(options: { port?: number } = {}): Promise<SamlTestIdp> {
  if (!simpleSamlPhpInstalled()) {
    throw new Error(
      'SimpleSAMLphp is not installed: apt-get install -y simplesamlphp php-cli (scripts/test.mjs does).',
    );
  }
  const port = options.port ?? (await freePort());
  const baseUrl = `http://127.0.0.1:${port}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-saml-idp-'));
  for (const sub of ['config', 'metadata', 'cert', 'log', 'data', 'tmp', 'sessions']) {
    fs.mkdirSync(path.join(dir, sub));
  }
  const key = path.join(dir, 'cert', 'idp.key');
  const crt = path.join(dir, 'cert', 'idp.crt');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '30',
      '-subj',
      '/CN=Portal test IdP',
      '-keyout',
      key,
      '-out',
      crt,
    ],
    { stdio: 'ignore' },
  );

  fs.writeFileSync(
    path.join(dir, 'config', 'config.php'),
    `<?php
require '/etc/simplesamlphp/config.php';
$config['baseurlpath'] = ${php(`${baseUrl}/`)};
$config['certdir'] = ${php(`${dir}/cert/`)};
$config['loggingdir'] = ${php(`${dir}/log/`)};
$config['datadir'] = ${php(`${dir}/data/`)};
$config['tempdir'] = ${php(`${dir}/tmp`)};
$config['metadatadir'] = ${php(`${dir}/metadata/`)};
$config['metadata.sources'] = [['type' => 'flatfile', 'directory' => ${php(`${dir}/metadata/`)}]];
$config['secretsalt'] = 'portal-test-salt-not-secret';
$config['auth.adminpassword'] = 'portal-test-admin';
$config['enable.saml20-idp'] = true;
$config['module.enable'] = ['exampleauth' => true, 'core' => true, 'saml' => true, 'admin' => true];
$config['store.type'] = 'phpsession';
$config['session.phpsession.savepath'] = ${php(`${dir}/sessions`)};
$config['session.cookie.secure'] = false;
$config['session.cookie.samesite'] = null;
$config['language.cookie.secure'] = false;
$config['logging.handler'] = 'file';
$config['logging.level'] = SimpleSAML\\Logger::WARNING;
$config['admin.checkforupdates'] = false;
$config['timezone'] = 'UTC';
`,
  );
  fs.writeFileSync(
    path.join(dir, 'metadata', 'saml20-idp-hosted.php'),
    `<?php
$metadata['__DYNAMIC:1__'] = [
  'host' => '__DEFAULT__',
  'privatekey' => 'idp.key',
  'certificate' => 'idp.crt',
  'auth' => 'example-userpass',
  'saml20.sign.assertion' => true,
  'redirect.sign' => true,
  'attributes.NameFormat' => 'urn:oasis:names:tc:SAML:2.0:attrname-format:uri',
  'authproc' => [
    90 => ['class' => 'saml:AttributeNameID', 'attribute' => 'uid', 'Format' => ${php(PERSISTENT)}],
  ],
];
`,
  );
  const sps = new Map<string, ServiceProviderEntry>();
  const writeSps = () => {
    const entries = [...sps.values()].map(
      (sp) => `$metadata[${php(sp.entityId)}] = [
  'AssertionConsumerService' => ${php(sp.acsUrl)},
  ${sp.logoutUrl ? `'SingleLogoutService' => ${php(sp.logoutUrl)},` : ''}
  'NameIDFormat' => ${php(PERSISTENT)},
  ${sp.authnContext ? `'authproc' => [95 => ['class' => 'saml:AuthnContextClassRef', 'AuthnContextClassRef' => ${php(sp.authnContext)}]],` : ''}
];`,
    );
    fs.writeFileSync(path.join(dir, 'metadata', 'saml20-sp-remote.php'), `<?php\n${entries.join('\n')}\n`);
  };
  writeSps();
  const password = SAML_TEST_PASSWORD;
  const signInAs = (user: SamlTestUser) => {
    const attributes: Record<string, string[]> = { uid: [user.uid] };
    if (user.email) attributes[ATTRIBUTES.email] = [user.email];
    if (user.firstName) attributes[ATTRIBUTES.first_name] = [user.firstName];
    if (user.lastName) attributes[ATTRIBUTES.last_name] = [user.lastName];
    attributes[ATTRIBUTES.username] = [user.uid];
    if (user.groups?.length) attributes[ATTRIBUTES.groups] = user.groups;
    const body = Object.entries(attributes)
      .map(([name, values]) => `      ${php(name)} => ${phpList(values)},`)
      .join('\n');
    fs.writeFileSync(
      path.join(dir, 'config', 'authsources.php'),
      `<?php
$config = [
  'admin' => ['core:AdminPassword'],
  'example-userpass' => [
    'exampleauth:UserPass',
    ${php(`${user.uid}:${password}`)} => [
${body}
    ],
  ],
];
`,
    );
  };
  signInAs({ uid: 'nobody' });

  const child = spawn('php', ['-S', `127.0.0.1:${port}`, '-t', SIMPLESAMLPHP_WWW], {
    env: { ...process.env, SIMPLESAMLPHP_CONFIG_DIR: path.join(dir, 'config') },
    stdio: 'ignore',
  });
  await waitForHttp(`${baseUrl}/saml2/idp/metadata.php`, child);

  let currentUid = 'nobody';
  const jar = new Map<string, string>();
  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const remember = (res: Response) => {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      jar.set(pair!.slice(0, at).trim(), pair!.slice(at + 1));
    }
  };
  return {
    baseUrl,
    metadataUrl: `${baseUrl}/saml2/idp/metadata.php`,
    entityId: `${baseUrl}/saml2/idp/metadata.php`,
    ssoUrl: `${baseUrl}/saml2/idp/SSOService.php`,
    certificate: fs.readFileSync(crt, 'utf8'),
    privateKey: fs.readFileSync(key, 'utf8'),
    signInAs(user) {
      currentUid = user.uid;
      signInAs(user);
    },
    registerSp(sp) {
      sps.set(sp.entityId, sp);
      writeSps();
    },
    async visit(url) {
      let next = url;
      for (let hop = 0; hop < 10; hop++) {
        if (!next.startsWith(baseUrl)) return { leftTo: next };
        const res = await fetch(next, { redirect: 'manual', headers: { cookie: cookieHeader() } });
        remember(res);
        const location = res.headers.get('location');
        if (res.status >= 300 && res.status < 400 && location) {
          next = new URL(location, next).href;
          continue;
        }
        return { html: await res.text() };
      }
      throw new Error('Too many redirects at the test IdP');
    },
    async authorize(url) {
      jar.clear();
      const go = async (target: string, init: RequestInit = {}): Promise<Response> => {
        let next = target;
        let request = init;
        for (let hop = 0; hop < 10; hop++) {
          const res = await fetch(next, {
            ...request,
            redirect: 'manual',
            headers: { ...(request.headers as Record<string, string>), cookie: cookieHeader() },
          });
          remember(res);
          const location = res.headers.get('location');
          if (res.status >= 300 && res.status < 400 && location) {
            next = new URL(location, next).href;
            request = {};
            continue;
          }
          return res;
        }
        throw new Error('Too many redirects at the test IdP');
      };
      let res = await go(url);
      let html = await res.text();
      const stateMatch = /name="AuthState" value="([^"]+)"/.exec(html);
      if (stateMatch) {
        res = await go(res.url || url, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            username: currentUid,
            password,
            AuthState: decodeEntities(stateMatch[1]!),
          }).toString(),
        });
        html = await res.text();
      }
      const action = /<form[^>]+action="([^"]+)"/.exec(html)?.[1];
      const samlResponse = /name="SAMLResponse" value="([^"]+)"/.exec(html)?.[1];
      if (!action || !samlResponse) throw new Error(`The test IdP answered no SAML form: ${html.slice(0, 500)}`);
      const relay = /name="RelayState" value="([^"]*)"/.exec(html)?.[1];
      return {
        action: decodeEntities(action),
        SAMLResponse: decodeEntities(samlResponse),
        ...(relay !== undefined ? { RelayState: decodeEntities(relay) } : {}),
      };
    },
    async close() {
      child.kill('SIGTERM');
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function decodeEntities(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}
