/**
 * What the sign-in page knows of single sign-on without a validation library (decision record 030): the kinds of
 * identity provider, where their sign-ins start and return, which provider claims an email address, and why a
 * sign-on did not finish. The console's schemas are in schemas/identity.ts.
 */

export const IDP_KINDS = ['oidc', 'saml'] as const;
export type IdpKind = (typeof IDP_KINDS)[number];
export const IDP_KIND_LABELS: Record<IdpKind, string> = { oidc: 'OpenID Connect', saml: 'SAML 2.0' };

/** Where a provider's sign-in starts and returns (the callback is what the provider's administrator registers). */
export const oidcLoginPath = (slug: string) => `/auth/oidc/${slug}/login`;
export const oidcCallbackPath = (slug: string) => `/auth/oidc/${slug}/callback`;
/** SAML 2.0: the SP-initiated start, the assertion consumer service (HTTP-POST) and the portal's SP metadata. */
export const samlLoginPath = (slug: string) => `/auth/saml/${slug}/login`;
export const samlAcsPath = (slug: string) => `/auth/saml/${slug}/acs`;
export const samlMetadataPath = (slug: string) => `/auth/saml/${slug}/metadata`;
/** Single logout (HTTP-Redirect): the identity provider's LogoutRequest and LogoutResponse come here. */
export const samlLogoutPath = (slug: string) => `/auth/saml/${slug}/slo`;
export const loginPathFor = (kind: IdpKind, slug: string) => (kind === 'saml' ? samlLoginPath : oidcLoginPath)(slug);

/** The provider that claims an email address's domain, if any (sign-in's email-domain discovery). */
export function providerForEmail<P extends { domains: readonly string[] }>(
  providers: readonly P[],
  email: string,
): P | undefined {
  const at = email.lastIndexOf('@');
  if (at < 1) return undefined;
  const domain = email
    .slice(at + 1)
    .trim()
    .toLowerCase();
  return providers.find((provider) => provider.domains.includes(domain));
}

/** Why a single sign-on did not finish, as the sign-in page says it (`/member-login?sso_error=<key>`). */
export const SSO_ERRORS = {
  failed: 'Single sign-on did not finish. Please try again, or contact your administrator.',
  expired: 'The sign-in took too long. Please try again.',
  unknown_provider: 'That sign-in option is not available.',
  no_email: 'Your identity provider did not send a verified email address, so we could not sign you in.',
  not_linked:
    'No account here matches your identity provider’s sign-in, and this provider may not create one. Contact your administrator.',
  disabled: 'Your account is disabled. Contact your administrator.',
  local_passwords_off: 'Sign in with your organisation’s single sign-on for this email address.',
} as const;
export type SsoErrorKey = keyof typeof SSO_ERRORS;
