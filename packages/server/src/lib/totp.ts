import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import { safeEqual, sha256 } from './crypto.js';
import { hashPassword, verifyPassword } from './passwords.js';

/** TOTP of RFC 6238: 30-second steps, 6 digits, SHA-1 (what every authenticator app supports), +-1 step. */
const PERIOD_S = 30;
const ISSUER = 'Healthcare Quality Portal';

export const newTotpSecret = () => new Secret({ size: 20 }).base32;

function totpFor(secret: string, label: string) {
  return new TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_S,
    secret: Secret.fromBase32(secret),
  });
}

export const otpauthUrl = (secret: string, label: string) => totpFor(secret, label).toString();

export const qrSvg = (url: string) => QRCode.toString(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 1 });

/**
 * The time step a valid code belongs to, or null. The caller stores the step and refuses any step not newer than the
 * last one accepted, so a code is never accepted twice.
 */
export function matchingStep(secret: string, code: string, now: Date): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpFor(secret, 'check').validate({ token: code, timestamp: now.getTime(), window: 1 });
  return delta === null ? null : Math.floor(now.getTime() / 1000 / PERIOD_S) + delta;
}

/** The current code (tests and the setup screen's self-check only). */
export const currentCode = (secret: string, now: Date) =>
  totpFor(secret, 'check').generate({ timestamp: now.getTime() });

const CODE_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** A recovery code as typed: case, spaces and the dash do not matter (`K7M2P Q9XRT` is `k7m2p-q9xrt`). */
export function canonicalRecoveryCode(code: string): string {
  const chars = code.toLowerCase().replace(/[\s-]+/g, '');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

/**
 * Ten single-use recovery codes like `k7m2p-q9xrt` (about 50 random bits each). Below 112 bits a lookup secret is
 * stored like a password (OWASP ASVS 6.5.2): argon2id with its own salt, so a stolen table cannot be brute-forced
 * code by code as a bare SHA-256 could.
 */
export async function newRecoveryCodes(count = 10): Promise<{ codes: string[]; hashes: string[] }> {
  const codes = Array.from({ length: count }, () => {
    const bytes = randomBytes(10);
    const chars = Array.from(bytes, (b) => CODE_ALPHABET[b % CODE_ALPHABET.length]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
  return { codes, hashes: await Promise.all(codes.map((code) => hashPassword(code))) };
}

/**
 * The stored hash a typed code matches, or null. Codes issued before argon2id were stored as bare SHA-256 (64 hex
 * characters): they still work until used or regenerated.
 */
export async function matchingRecoveryHash(stored: readonly string[], typed: string): Promise<string | null> {
  const code = canonicalRecoveryCode(typed);
  for (const hash of stored) {
    const legacy = /^[0-9a-f]{64}$/.test(hash);
    if (legacy ? safeEqual(hash, sha256(code)) : await verifyPassword(hash, code).catch(() => false)) return hash;
  }
  return null;
}

export const looksLikeRecoveryCode = (value: string) => /^[a-z0-9]{5}-?[a-z0-9]{5}$/i.test(value.trim());
