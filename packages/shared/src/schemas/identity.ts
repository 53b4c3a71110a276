import { z } from 'zod';
import { IDP_KINDS } from '../identity-providers.js';
import { PROJECT_ROLES } from '../roles.js';
import { MAIN_ROLES, PERMISSION_APPS } from './permissions.js';

/**
 * Single sign-on (issue 27; decision record 023): the identity providers a superadmin configures in the console
 * (/superadmin/identity-providers), what the sign-in page may know of them, and how their claims become a person.
 * A provider's client secret is written, never read back: responses say only whether one is stored.
 */

export const IDP_SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;
/** A domain a provider claims: name@domain is offered (or sent straight to) that provider at sign-in. */
export const DOMAIN_PATTERN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** The claims read from an ID token or userinfo, by default the OpenID Connect standard ones. */
export const DEFAULT_CLAIMS = {
  email: 'email',
  first_name: 'given_name',
  last_name: 'family_name',
  username: 'preferred_username',
  groups: 'groups',
} as const;
export type ClaimKey = keyof typeof DEFAULT_CLAIMS;

/** The attribute names Entra ID and AD FS send by default (Okta, Google and Keycloak let the administrator name them). */
export const DEFAULT_SAML_ATTRIBUTES = {
  email: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
  first_name: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname',
  last_name: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname',
  username: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name',
  groups: 'http://schemas.microsoft.com/ws/2008/06/identity/claims/groups',
} as const satisfies Record<ClaimKey, string>;

/** The AuthnContextClassRef values that mean multi-factor when a SAML provider lists none of its own. */
export const DEFAULT_SAML_MFA_VALUES = [
  'http://schemas.microsoft.com/claims/multipleauthn',
  'urn:oasis:names:tc:SAML:2.0:ac:classes:MobileTwoFactorContract',
  'https://refeds.org/profile/mfa',
] as const;
export const CLAIM_LABELS: Record<ClaimKey, string> = {
  email: 'Email',
  first_name: 'First name',
  last_name: 'Last name',
  username: 'Username',
  groups: 'Groups',
};

const claimName = z
  .string()
  .trim()
  .min(1, 'Enter the claim name.')
  .max(100, 'A claim name is at most 100 characters.')
  .regex(/^[\w:./-]+$/, 'A claim name is letters, digits and : . / _ - only.');

export const claimMapSchema = z.object({
  email: claimName,
  first_name: claimName,
  last_name: claimName,
  username: claimName,
  groups: claimName,
});
export type ClaimMap = z.infer<typeof claimMapSchema>;

const httpsUrl = z
  .string()
  .trim()
  .max(500, 'The address is at most 500 characters.')
  .refine((value) => /^https?:\/\/[^\s/]+(\/[^\s]*)?$/i.test(value), 'Enter an address starting with https://.');

const oidcSettingsInput = z.object({
  /** The issuer; its discovery document is at {issuer}/.well-known/openid-configuration. */
  issuer: httpsUrl,
  client_id: z.string().trim().min(1, 'Enter the client ID.').max(300, 'The client ID is at most 300 characters.'),
  /** Written only: omitted (or empty) on an update keeps the stored one. */
  client_secret: z.string().max(1000, 'The client secret is at most 1,000 characters.').optional(),
  scopes: z
    .string()
    .trim()
    .max(300, 'The scopes are at most 300 characters.')
    .refine((value) => value.split(/\s+/).includes('openid'), 'The scopes must include openid.'),
});

const optionalUrl = z.union([z.literal(''), httpsUrl]).default('');

/**
 * A SAML identity provider, described by its metadata (an uploaded file, or an address fetched when saved) or by
 * hand; what the metadata says wins over the fields typed. Assertions must be signed with one of its certificates.
 */
const samlSettingsInput = z.object({
  metadata_url: optionalUrl,
  /** An uploaded metadata file: read when saved, never stored as such. */
  metadata_xml: z.string().max(500_000, 'The metadata file is at most 500 KB.').default(''),
  entity_id: z.string().trim().max(500, 'The entity ID is at most 500 characters.').default(''),
  sso_url: optionalUrl,
  slo_url: optionalUrl,
  /** The signing certificate (PEM, or its base64 body); empty on an update keeps the stored ones. */
  certificate: z.string().trim().max(20_000, 'The certificate is at most 20,000 characters.').default(''),
});
export type SamlSettingsInput = z.input<typeof samlSettingsInput>;

export const identityProviderInputSchema = z
  .object({
    slug: z
      .string()
      .trim()
      .toLowerCase()
      .regex(
        IDP_SLUG_PATTERN,
        'The short name is 1 to 40 lowercase letters, digits or hyphens, starting with a letter or digit.',
      ),
    name: z.string().trim().min(1, 'Enter a name.').max(100, 'The name is at most 100 characters.'),
    kind: z.enum(IDP_KINDS, 'Pick OpenID Connect or SAML 2.0.'),
    enabled: z.boolean(),
    domains: z
      .array(
        z.string().trim().toLowerCase().regex(DOMAIN_PATTERN, 'Enter domains such as hospital.org, without the @.'),
      )
      .max(20, 'A provider claims at most 20 domains.')
      .transform((domains) => [...new Set(domains)]),
    /** The provider's own multi-factor sign-in satisfies the portal's two-factor requirement when it says so. */
    trust_mfa: z.boolean(),
    /** The amr or acr values that mean multi-factor (OIDC); empty means the standard `mfa`. */
    mfa_values: z
      .array(z.string().trim().min(1).max(200, 'A value is at most 200 characters.'))
      .max(20, 'At most 20 values.'),
    /** Local passwords refused for the provider's domains (break-glass superadmins excepted). */
    local_passwords_off: z.boolean(),
    /**
     * The provider's email claim counts as verified unless it sends email_verified false: for directories that own
     * their domains but send no email_verified (Entra ID, AD FS).
     */
    trust_email: z.boolean().default(false),
    claims: claimMapSchema,
    /** The settings of the provider's kind; the other kind's may be left out. */
    oidc: oidcSettingsInput.nullable().default(null),
    saml: samlSettingsInput.nullable().default(null),
  })
  .superRefine((value, ctx) => {
    if (value.kind === 'oidc' && !value.oidc) {
      ctx.addIssue({ code: 'custom', path: ['oidc'], message: 'Enter the OpenID Connect settings.' });
    }
    if (value.kind === 'saml' && !value.saml) {
      ctx.addIssue({ code: 'custom', path: ['saml'], message: 'Enter the SAML settings or its metadata.' });
    }
  });
export type IdentityProviderInput = z.input<typeof identityProviderInputSchema>;

// ------------------------------------------------------------------------------------------ SCIM 2.0 provisioning
/**
 * Provisioning (SCIM 2.0, RFC 7643/7644): one base address for every provider; the provider's bearer token says
 * which provider calls. The token is shown once when made (POST .../scim-token) and kept as its SHA-256 only.
 */
export const SCIM_BASE_PATH = '/scim/v2';
export const scimBaseUrl = (appUrl: string) => `${appUrl}${SCIM_BASE_PATH}`;
export const scimTokenPath = (providerId: number) => `/super/identity-providers/${providerId}/scim-token`;

/** Whether a provider's directory may provision people, since when, and the address its administrator enters. */
export const identityProviderScimSchema = z.object({
  enabled: z.boolean(),
  created_at: z.string().nullable(),
  base_url: z.string(),
});
export type IdentityProviderScim = z.infer<typeof identityProviderScimSchema>;

/** A new SCIM token: the only time it is shown. */
export const scimTokenSchema = z.object({ token: z.string(), created_at: z.string(), base_url: z.string() });
export type ScimToken = z.infer<typeof scimTokenSchema>;
// ------------------------------------------------------------------------------------------ end of SCIM

export const identityProviderSchema = z.object({
  id: z.number(),
  slug: z.string(),
  name: z.string(),
  kind: z.enum(IDP_KINDS),
  enabled: z.boolean(),
  domains: z.array(z.string()),
  trust_mfa: z.boolean(),
  mfa_values: z.array(z.string()),
  local_passwords_off: z.boolean(),
  trust_email: z.boolean(),
  claims: claimMapSchema,
  oidc: z.object({ issuer: z.string(), client_id: z.string(), scopes: z.string(), has_secret: z.boolean() }).nullable(),
  saml: z
    .object({
      metadata_url: z.string(),
      entity_id: z.string(),
      sso_url: z.string(),
      slo_url: z.string(),
      certificates: z.array(z.object({ subject: z.string(), expires_at: z.string(), fingerprint: z.string() })),
      /** What the provider's administrator enters for the portal (or reads from `sp_metadata_url`). */
      sp_entity_id: z.string(),
      sp_metadata_url: z.string(),
    })
    .nullable(),
  /** What the provider's administrator registers: the redirect (callback) address, or SAML's assertion consumer. */
  callback_url: z.string(),
  /** People who have signed in through it. */
  linked_users: z.number(),
  /** SCIM provisioning: on while a token exists. */
  scim: identityProviderScimSchema,
  created_at: z.string(),
  updated_at: z.string(),
});
export type IdentityProvider = z.infer<typeof identityProviderSchema>;
export const identityProviderListSchema = z.object({ providers: z.array(identityProviderSchema) });

/** What the sign-in page knows of the enabled providers: a button each, and the domains each claims. */
export const publicIdentityProviderSchema = z.object({
  slug: z.string(),
  name: z.string(),
  kind: z.enum(IDP_KINDS),
  domains: z.array(z.string()),
  login_url: z.string(),
  /** Local passwords are refused for these domains: typing such an address goes straight to the provider. */
  local_passwords_off: z.boolean(),
});
export type PublicIdentityProvider = z.infer<typeof publicIdentityProviderSchema>;
export const publicIdentityProviderListSchema = z.object({ providers: z.array(publicIdentityProviderSchema) });

/** The terms step of a single sign-on (POST /auth/sso/accept-terms, after `/member-login?sso=terms`). */
export const ssoAcceptTermsSchema = z.object({ accept_terms: z.boolean() });
export type SsoAcceptTerms = z.infer<typeof ssoAcceptTermsSchema>;

/** Where a single sign-on goes once the terms are accepted: signed in (go to `redirect`) or the two-factor code step. */
export const ssoFinishSchema = z.union([z.object({ redirect: z.string() }), z.object({ two_factor: z.literal(true) })]);
export type SsoFinish = z.infer<typeof ssoFinishSchema>;

/**
 * Group mappings (issue 27, docs/identity.md "Group mappings"): the members of a directory group are members of a
 * project with a project role, a main role per app (null: none) and the reader duty of policy departments. `group` is
 * the group's display name or its directory id (Entra ID sends object ids, Okta and Keycloak names), compared
 * without regard to case.
 */
const mappedMainRole = <A extends (typeof PERMISSION_APPS)[number]>(app: A, label: string) =>
  z.enum(MAIN_ROLES[app], `Pick a ${label} role from the list, or no role.`).nullable().default(null);

export const groupMappingMainRolesSchema = z.object({
  monitoring: mappedMainRole('monitoring', 'monitoring'),
  policy_management: mappedMainRole('policy_management', 'policy management'),
  chart_review: mappedMainRole('chart_review', 'chart review'),
});
export type GroupMappingMainRoles = z.output<typeof groupMappingMainRolesSchema>;

export const groupMappingInputSchema = z
  .object({
    group: z
      .string('Enter the group’s name or ID as the directory sends it.')
      .trim()
      .min(1, 'Enter the group’s name or ID as the directory sends it.')
      .max(300, 'A group name or ID is at most 300 characters.'),
    project_id: z.number('Pick a project.').int('Pick a project.').positive('Pick a project.').max(2_147_483_647),
    project_role: z.enum(PROJECT_ROLES, 'Pick a project role: project admin or member.'),
    main_roles: groupMappingMainRolesSchema.default({
      monitoring: null,
      policy_management: null,
      chart_review: null,
    }),
    /** Policy departments whose reader duty the group's members hold (needs a policy management main role). */
    reader_department_ids: z
      .array(z.number().int().positive().max(2_147_483_647), 'Pick departments from the list.')
      .max(200, 'At most 200 departments.')
      .default([])
      .transform((ids) => [...new Set(ids)].sort((a, b) => a - b)),
  })
  .superRefine((value, ctx) => {
    if (value.reader_department_ids.length && value.main_roles.policy_management === null) {
      ctx.addIssue({
        code: 'custom',
        path: ['reader_department_ids'],
        message: 'Reader duties need a policy management main role: pick one, or no departments.',
      });
    }
  });
export type GroupMappingInput = z.input<typeof groupMappingInputSchema>;
export type GroupMappingBody = z.output<typeof groupMappingInputSchema>;

export const groupMappingSchema = z.object({
  id: z.number(),
  provider_id: z.number(),
  group: z.string(),
  project_id: z.number(),
  project_name: z.string(),
  project_role: z.enum(PROJECT_ROLES),
  main_roles: z.object({
    monitoring: z.string().nullable(),
    policy_management: z.string().nullable(),
    chart_review: z.string().nullable(),
  }),
  reader_departments: z.array(z.object({ id: z.number(), name: z.string() })),
  created_at: z.string(),
  updated_at: z.string(),
});
export type GroupMapping = z.infer<typeof groupMappingSchema>;
export const groupMappingListSchema = z.object({ mappings: z.array(groupMappingSchema) });

/** What the mapping form may offer: the active projects, their active apps with main roles, their departments. */
export const groupMappingOptionsSchema = z.object({
  projects: z.array(
    z.object({
      id: z.number(),
      name: z.string(),
      apps: z.array(z.enum(PERMISSION_APPS)),
      departments: z.array(z.object({ id: z.number(), name: z.string(), code: z.string() })),
    }),
  ),
  main_roles: z.object({
    monitoring: z.array(z.string()),
    policy_management: z.array(z.string()),
    chart_review: z.array(z.string()),
  }),
});
export type GroupMappingOptions = z.infer<typeof groupMappingOptionsSchema>;
