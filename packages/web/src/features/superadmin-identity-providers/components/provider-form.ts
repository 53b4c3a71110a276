import {
  type ClaimMap,
  DEFAULT_CLAIMS,
  DEFAULT_SAML_ATTRIBUTES,
  type IdentityProvider,
  type IdentityProviderInput,
  type IdpKind,
  identityProviderInputSchema,
} from '@portal/shared';
import type { z } from 'zod';
import { ApiError } from '../../../lib/api';
import type { IdentityProviderBody } from '../api/save-identity-provider';

export const DEFAULT_SCOPES = 'openid email profile';
export const DEFAULT_MFA_VALUES = ['mfa'];

/** The claim (OIDC) or attribute (SAML) names a new provider of each kind starts with. */
export const DEFAULT_NAMES: Record<IdpKind, ClaimMap> = { oidc: DEFAULT_CLAIMS, saml: DEFAULT_SAML_ATTRIBUTES };

/** What the form edits: the input schema's fields, flat where the form shows them flat. */
export interface ProviderDraft {
  name: string;
  slug: string;
  kind: IdpKind;
  issuer: string;
  client_id: string;
  /** Blank on an edit: the stored secret is kept. */
  client_secret: string;
  scopes: string;
  domains: string[];
  enabled: boolean;
  trust_mfa: boolean;
  mfa_values: string[];
  local_passwords_off: boolean;
  trust_email: boolean;
  claims: ClaimMap;
  /** SAML: the IdP's metadata by address or as an uploaded file (its text, and its name to show), or typed. */
  metadata_url: string;
  metadata_xml: string;
  metadata_file: string;
  entity_id: string;
  sso_url: string;
  slo_url: string;
  /** Blank on an edit: the stored certificates are kept. */
  certificate: string;
}

const NO_SAML = {
  metadata_url: '',
  metadata_xml: '',
  metadata_file: '',
  entity_id: '',
  sso_url: '',
  slo_url: '',
  certificate: '',
};

export function emptyDraft(): ProviderDraft {
  return {
    name: '',
    slug: '',
    kind: 'oidc',
    issuer: '',
    client_id: '',
    client_secret: '',
    scopes: DEFAULT_SCOPES,
    domains: [],
    enabled: false,
    trust_mfa: false,
    mfa_values: [...DEFAULT_MFA_VALUES],
    local_passwords_off: false,
    trust_email: false,
    claims: { ...DEFAULT_CLAIMS },
    ...NO_SAML,
  };
}

/**
 * The draft moved to another kind: claim names still at the old kind's defaults (and the MFA values at OIDC's
 * default) follow the new kind's, what was typed stays.
 */
export function withKind(draft: ProviderDraft, kind: IdpKind): ProviderDraft {
  const atDefaults = JSON.stringify(draft.claims) === JSON.stringify(DEFAULT_NAMES[draft.kind]);
  const mfaAtDefault = JSON.stringify(draft.mfa_values) === JSON.stringify(kind === 'saml' ? DEFAULT_MFA_VALUES : []);
  return {
    ...draft,
    kind,
    claims: atDefaults ? { ...DEFAULT_NAMES[kind] } : draft.claims,
    mfa_values: mfaAtDefault ? (kind === 'saml' ? [] : [...DEFAULT_MFA_VALUES]) : draft.mfa_values,
  };
}

export function draftOf(provider: IdentityProvider): ProviderDraft {
  return {
    name: provider.name,
    slug: provider.slug,
    kind: provider.kind,
    issuer: provider.oidc?.issuer ?? '',
    client_id: provider.oidc?.client_id ?? '',
    client_secret: '',
    scopes: provider.oidc?.scopes ?? DEFAULT_SCOPES,
    domains: [...provider.domains],
    enabled: provider.enabled,
    trust_mfa: provider.trust_mfa,
    mfa_values:
      provider.mfa_values.length > 0 || provider.kind === 'saml' ? [...provider.mfa_values] : [...DEFAULT_MFA_VALUES],
    local_passwords_off: provider.local_passwords_off,
    trust_email: provider.trust_email,
    claims: { ...provider.claims },
    ...NO_SAML,
    metadata_url: provider.saml?.metadata_url ?? '',
    entity_id: provider.saml?.entity_id ?? '',
    sso_url: provider.saml?.sso_url ?? '',
    slo_url: provider.saml?.slo_url ?? '',
  };
}

/** The request body; a blank secret is left out (on an edit: keep the stored one). */
export function inputOf(draft: ProviderDraft): IdentityProviderInput {
  const secret = draft.client_secret.trim() ? draft.client_secret : undefined;
  const common = {
    slug: draft.slug,
    name: draft.name,
    enabled: draft.enabled,
    domains: draft.domains,
    trust_mfa: draft.trust_mfa,
    mfa_values: draft.trust_mfa ? draft.mfa_values : [],
    local_passwords_off: draft.local_passwords_off,
    trust_email: draft.trust_email,
    claims: draft.claims,
  };
  if (draft.kind === 'saml') {
    return {
      ...common,
      kind: 'saml',
      oidc: null,
      saml: {
        metadata_url: draft.metadata_url.trim(),
        metadata_xml: draft.metadata_xml,
        entity_id: draft.entity_id,
        sso_url: draft.sso_url.trim(),
        slo_url: draft.slo_url.trim(),
        certificate: draft.certificate,
      },
    };
  }
  return {
    ...common,
    kind: 'oidc',
    saml: null,
    oidc: {
      issuer: draft.issuer,
      client_id: draft.client_id,
      scopes: draft.scopes,
      ...(secret === undefined ? {} : { client_secret: secret }),
    },
  };
}

/** A field's key as the form names it: the path without list indexes (`domains.2` is `domains`). */
export type ErrorMap = Record<string, string>;
const fieldKey = (path: readonly PropertyKey[]) =>
  path.filter((segment) => typeof segment === 'string').join('.') || 'form';

export type ParseResult = { ok: true; body: IdentityProviderBody } | { ok: false; errors: ErrorMap };

/** Checks the draft with the shared schema: the schema's own sentences, the first per field. */
export function parseDraft(draft: ProviderDraft): ParseResult {
  const parsed = identityProviderInputSchema.safeParse(inputOf(draft));
  if (parsed.success) return { ok: true, body: parsed.data };
  return { ok: false, errors: zodErrors(parsed.error) };
}

function zodErrors(error: z.ZodError): ErrorMap {
  const found: ErrorMap = {};
  for (const issue of error.issues) {
    const key = fieldKey(issue.path);
    if (!(key in found)) found[key] = issue.message;
  }
  return found;
}

/**
 * The first message per field of a 400, 409 or 422 answer ({ message, errors: { 'oidc.issuer': [...] } }). A 409
 * without field errors is the taken short name.
 */
export function serverErrors(error: unknown): ErrorMap {
  if (!(error instanceof ApiError) || error.status < 400 || error.status >= 500) return {};
  const found: ErrorMap = {};
  const errors = (error.body as { errors?: unknown } | null)?.errors;
  if (errors && typeof errors === 'object') {
    for (const [raw, value] of Object.entries(errors as Record<string, unknown>)) {
      const key = fieldKey(raw.split('.').map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment)));
      const first = Array.isArray(value) ? value[0] : value;
      if (typeof first === 'string' && first.trim() && !(key in found)) found[key] = first;
    }
  }
  if (Object.keys(found).length === 0 && error.status === 409 && error.message) found.slug = error.message;
  return found;
}

/** The fields the form shows an error under; anything else goes to the form's alert. */
export const FORM_FIELDS = [
  'name',
  'slug',
  'kind',
  'enabled',
  'domains',
  'trust_mfa',
  'mfa_values',
  'local_passwords_off',
  'oidc.issuer',
  'oidc.client_id',
  'oidc.client_secret',
  'oidc.scopes',
  'saml.metadata_url',
  'saml.metadata_xml',
  'saml.entity_id',
  'saml.sso_url',
  'saml.slo_url',
  'saml.certificate',
  ...Object.keys(DEFAULT_CLAIMS).map((key) => `claims.${key}`),
] as const;

/** A name made into a short name: lowercase letters, digits and single hyphens, at most 40. */
export function slugFrom(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
}
