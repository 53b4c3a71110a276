// A real SAML identity provider for the browser tests of single sign-on: SimpleSAMLphp from Debian's packages
// (packages/server/test/saml-idp-kit.ts), on loopback. Usage: npx tsx e2e/saml-idp.ts PORT PORTAL_URL
// It trusts the portal's service provider `hospital-saml` (PORTAL_URL/auth/saml/hospital-saml/...) and signs in one
// person, ana.saml (password SAML_TEST_PASSWORD), of the directory group "ICU Nursing". Stops on SIGTERM.
import { startSamlIdp } from '../packages/server/test/saml-idp-kit';

const [port, portalUrl] = process.argv.slice(2);
if (!port || !portalUrl) {
  console.error('Usage: npx tsx e2e/saml-idp.ts PORT PORTAL_URL');
  process.exit(2);
}

const slug = 'hospital-saml';
const idp = await startSamlIdp({ port: Number(port) });
idp.registerSp({
  entityId: `${portalUrl}/auth/saml/${slug}/metadata`,
  acsUrl: `${portalUrl}/auth/saml/${slug}/acs`,
  logoutUrl: `${portalUrl}/auth/saml/${slug}/slo`,
});
idp.signInAs({
  uid: 'ana.saml',
  email: 'ana.saml@saml.example.org',
  firstName: 'Ana',
  lastName: 'Saml',
  groups: ['ICU Nursing'],
});
console.log(`SimpleSAMLphp listening at ${idp.baseUrl}`);
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    void idp.close().then(() => process.exit(0));
  });
}
