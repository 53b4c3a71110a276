/** The two servers playwright.config.ts starts: one with demo data, one on an empty database. */
export const DEMO_URL = 'http://127.0.0.1:18081';
export const EMPTY_URL = 'http://127.0.0.1:18082';
/** The email catcher of the demo server: GET answers the messages received ({ to, subject, text }[]). */
export const MAIL_URL = 'http://127.0.0.1:18083';
/** A second demo server for the portal shell's tests (every demo account signs in there, unchanged by others). */
export const SHELL_URL = 'http://127.0.0.1:18084';
/** The administration tests' own demo server (they publish terms and change permissions) and its email catcher. */
export const ADMIN_URL = 'http://127.0.0.1:18085';
export const ADMIN_MAIL_URL = 'http://127.0.0.1:18086';
/** The policy management tests' own demo server (they import, edit and renumber policies). */
export const POLICY_URL = 'http://127.0.0.1:18087';
/** The policy workflow test's own demo server (one policy through review, signature and reading) and its mail. */
export const WORKFLOW_URL = 'http://127.0.0.1:18088';
export const WORKFLOW_MAIL_URL = 'http://127.0.0.1:18089';
/** The monitoring tests' own demo server (they add, move and edit pages and answer a data request). */
export const MONITORING_URL = 'http://127.0.0.1:18090';
/** The monitoring data test's own demo server (it imports a CSV, defines a measure and adds a chart). */
export const MONITORING_DATA_URL = 'http://127.0.0.1:18091';
/** The moved-clock suite's own server (e2e/calendar.spec.ts starts and restarts it on days 0 to 366). */
export const CLOCK_PORT = 18092;
/** Single sign-on: a real OpenID provider (e2e/oidc-idp.mjs) and the demo server that signs people in through it. */
export const IDP_URL = 'http://127.0.0.1:18093';
export const SSO_URL = 'http://127.0.0.1:18094';
/** Single sign-on: a real SAML identity provider (SimpleSAMLphp, e2e/saml-idp.ts) for the same SSO server. */
export const SAML_IDP_URL = 'http://127.0.0.1:18095';
