import { X509Certificate } from 'node:crypto';
import { samlAcsPath, samlLogoutPath, samlMetadataPath } from '@portal/shared';
import { DOMParser } from '@xmldom/xmldom';
import { AppError } from '../../lib/errors.js';

/*
 * A SAML provider's settings: the portal's own side (entity ID, ACS, logout), the identity provider's metadata and
 * its certificates.
 */

/** What the provider's administrator enters for the portal: its entity ID is the address of its metadata. */
export function serviceProvider(appUrl: string, slug: string) {
  return {
    entityId: `${appUrl}${samlMetadataPath(slug)}`,
    acsUrl: `${appUrl}${samlAcsPath(slug)}`,
    logoutUrl: `${appUrl}${samlLogoutPath(slug)}`,
  };
}

/** Plain http only for a provider on this machine (the tests' oidc-provider); anything else must be https. */
export function isLoopbackHttp(issuer: string): boolean {
  try {
    const url = new URL(issuer);
    return url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  } catch {
    return false;
  }
}

/**
 * An identity provider's SAML metadata (an EntityDescriptor with an IDPSSODescriptor), read for what the portal
 * needs: its entity ID, where AuthnRequests and LogoutRequests go (HTTP-Redirect binding) and its signing
 * certificates. Only read, never trusted for a signature: the certificates sign the assertions the library checks.
 */

const MD = 'urn:oasis:names:tc:SAML:2.0:metadata';
const DS = 'http://www.w3.org/2000/09/xmldsig#';
const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const METADATA_MAX_BYTES = 500_000;

export interface IdpMetadata {
  entityId: string;
  ssoUrl: string;
  sloUrl: string | null;
  /** Base64 bodies of the signing certificates. */
  certificates: string[];
}

const invalid = (field: 'metadata_xml' | 'metadata_url', message: string) =>
  new AppError('UNPROCESSABLE', message, { [`saml.${field}`]: [message] });

export function parseIdpMetadata(xml: string, field: 'metadata_xml' | 'metadata_url' = 'metadata_xml'): IdpMetadata {
  const problems: string[] = [];
  const doc = new DOMParser({
    errorHandler: { error: (message) => problems.push(message), fatalError: (message) => problems.push(message) },
  }).parseFromString(xml, 'text/xml');
  // A document type could define entities: metadata never needs one.
  if (problems.length || !doc?.documentElement || doc.doctype) {
    throw invalid(field, 'This is not SAML metadata: the file is not well-formed XML.');
  }
  const root = doc.documentElement;
  const entity =
    root.localName === 'EntityDescriptor'
      ? root
      : Array.from(root.getElementsByTagNameNS(MD, 'EntityDescriptor')).find(
          (e) => e.getElementsByTagNameNS(MD, 'IDPSSODescriptor').length > 0,
        );
  const idp = entity?.getElementsByTagNameNS(MD, 'IDPSSODescriptor')[0];
  if (!entity || !idp) {
    throw invalid(field, 'This is not an identity provider’s SAML metadata: it has no IDPSSODescriptor.');
  }
  const endpoint = (name: string) => {
    const all = Array.from(idp.getElementsByTagNameNS(MD, name));
    const chosen = all.find((e) => e.getAttribute('Binding') === REDIRECT);
    return chosen?.getAttribute('Location')?.trim() || null;
  };
  const certificates = Array.from(idp.getElementsByTagNameNS(MD, 'KeyDescriptor'))
    .filter((key) => (key.getAttribute('use') ?? 'signing') === 'signing')
    .flatMap((key) => Array.from(key.getElementsByTagNameNS(DS, 'X509Certificate')))
    .map((cert) => (cert.textContent ?? '').replace(/\s+/g, ''))
    .filter(Boolean);
  const entityId = entity.getAttribute('entityID')?.trim() ?? '';
  const ssoUrl = endpoint('SingleSignOnService');
  if (!entityId || !ssoUrl || !certificates.length) {
    throw invalid(
      field,
      'The metadata lacks what sign-in needs: an entity ID, a single sign-on address with the HTTP-Redirect binding and a signing certificate.',
    );
  }
  return { entityId, ssoUrl, sloUrl: endpoint('SingleLogoutService'), certificates: [...new Set(certificates)] };
}

/** Metadata published at an address (https, or http on this machine), read when the provider is saved. */
export async function fetchIdpMetadata(url: string): Promise<IdpMetadata> {
  if (!url.startsWith('https://') && !isLoopbackHttp(url)) {
    throw invalid('metadata_url', 'Enter an address starting with https://.');
  }
  let text: string;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(10_000), redirect: 'follow' });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    text = await response.text();
  } catch {
    throw invalid('metadata_url', 'The metadata could not be fetched from this address. Check it, or upload the file.');
  }
  if (text.length > METADATA_MAX_BYTES) throw invalid('metadata_url', 'The metadata is larger than 500 KB.');
  return parseIdpMetadata(text, 'metadata_url');
}

/** A certificate as the console lists it: subject, expiry, SHA-256 fingerprint; null for text that is none. */
export function describeCertificate(pem: string): { subject: string; expires_at: string; fingerprint: string } | null {
  try {
    const cert = new X509Certificate(pem);
    return {
      subject: cert.subject.replace(/\n/g, ', '),
      expires_at: new Date(cert.validTo).toISOString(),
      fingerprint: cert.fingerprint256,
    };
  } catch {
    return null;
  }
}

/** A certificate as PEM, from PEM or its base64 body (as metadata and some consoles give it). */
export function toPem(text: string): string {
  const body = text
    .replace(/-----(BEGIN|END) CERTIFICATE-----/g, '')
    .replace(/\s+/g, '')
    .trim();
  const lines = body.match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
}
