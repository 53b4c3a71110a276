import fs from 'node:fs';
import { defineConfig, devices } from '@playwright/test';
import {
  ADMIN_URL,
  DEMO_URL,
  EMPTY_URL,
  IDP_URL,
  MONITORING_DATA_URL,
  MONITORING_URL,
  POLICY_URL,
  SAML_IDP_URL,
  SHELL_URL,
  SSO_URL,
  WORKFLOW_URL,
} from './e2e/urls';

// Debian's Chromium: Playwright never downloads a browser here.
const chromium = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (p) => p && fs.existsSync(p),
);

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  fullyParallel: true,
  workers: 2,
  // One retry: on this shared 2-CPU machine a whole flow sometimes runs out of time under load. A test that fails
  // twice fails the run, and a retried one is reported as flaky in the list.
  retries: 1,
  forbidOnly: !!process.env.CI,
  // Whole flows (sign-in with the real captcha, several screens) on a busy 2-CPU machine.
  timeout: 120_000,
  // Screens on a busy 2-CPU machine (11 servers, 2 browsers) can take more than the default 5 s to appear.
  expect: { timeout: 20_000 },
  reporter: [['list']],
  use: {
    baseURL: DEMO_URL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      ...(chromium ? { executablePath: chromium } : {}),
      // As root Chromium needs --no-sandbox; the rest keeps it off a network this machine does not have.
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [
    { name: 'desktop', use: { ...devices['Desktop Chrome'], channel: undefined } },
    { name: 'phone', use: { ...devices['Pixel 7'], channel: undefined }, grep: /@responsive/ },
  ],
  webServer: [
    {
      // Real ALTCHA (lower cost: tests solve many), real SMTP into the catcher on MAIL_URL.
      command: 'node e2e/serve.mjs 18081 true 18083',
      env: { CAPTCHA_COST: '5000' },
      url: `${DEMO_URL}/readyz`,
      timeout: 120_000,
      reuseExistingServer: false,
      gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
    },
    {
      // Administration: publishes terms and changes permission matrices, so nothing else runs against it.
      command: 'node e2e/serve.mjs 18085 true 18086',
      env: { CAPTCHA_COST: '5000' },
      url: `${ADMIN_URL}/readyz`,
      timeout: 120_000,
      reuseExistingServer: false,
      gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
    },
    {
      // The portal shell's tests sign in with every demo account: their own server, apart from the sign-in tests.
      command: 'node e2e/serve.mjs 18084 true',
      env: { CAPTCHA_COST: '5000' },
      url: `${SHELL_URL}/readyz`,
      timeout: 120_000,
      reuseExistingServer: false,
      gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
    },
    {
      // Policy management: imports, edits and renumbers the demo policies, so its own server.
      command: 'node e2e/serve.mjs 18087 true',
      env: { CAPTCHA_COST: '5000' },
      url: `${POLICY_URL}/readyz`,
      timeout: 120_000,
      reuseExistingServer: false,
      gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
    },
    {
      // The policy workflow: one policy through review, signature and reading, with the emails it sends.
      command: 'node e2e/serve.mjs 18088 true 18089',
      env: { CAPTCHA_COST: '5000' },
      url: `${WORKFLOW_URL}/readyz`,
      timeout: 120_000,
      reuseExistingServer: false,
      gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
    },
    {
      // Monitoring: pages added, moved and edited, a key insight, a data request answered by the steward.
      command: 'node e2e/serve.mjs 18090 true',
      env: { CAPTCHA_COST: '5000' },
      url: `${MONITORING_URL}/readyz`,
      timeout: 120_000,
      reuseExistingServer: false,
      gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
    },
    {
      // Monitoring data: a CSV imported, a rate defined in the formula builder, a control chart added to a page.
      command: 'node e2e/serve.mjs 18091 true',
      env: { CAPTCHA_COST: '5000' },
      url: `${MONITORING_DATA_URL}/readyz`,
      timeout: 120_000,
      reuseExistingServer: false,
      gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
    },
    {
      // Single sign-on: a real OpenID provider on loopback, and a demo server its superadmin connects to it.
      command: `node e2e/oidc-idp.mjs 18093 ${SSO_URL}`,
      url: `${IDP_URL}/healthz`,
      timeout: 60_000,
      reuseExistingServer: false,
      gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
    },
    {
      // The SAML identity provider of the same story: SimpleSAMLphp (npm test installs it from Debian).
      command: `npx tsx e2e/saml-idp.ts 18095 ${SSO_URL}`,
      url: `${SAML_IDP_URL}/saml2/idp/metadata.php`,
      timeout: 60_000,
      reuseExistingServer: false,
      gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
    },
    {
      command: 'node e2e/serve.mjs 18094 true',
      env: { CAPTCHA_COST: '5000' },
      url: `${SSO_URL}/readyz`,
      timeout: 120_000,
      reuseExistingServer: false,
      gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
    },
    {
      command: 'node e2e/serve.mjs 18082 false',
      url: `${EMPTY_URL}/readyz`,
      timeout: 120_000,
      reuseExistingServer: false,
      gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
    },
  ],
});
