import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import { sha256 } from '../../lib/crypto.js';

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

/** Ten single-use recovery codes like `k7m2p-q9xrt`; only their SHA-256 is stored (50 random bits each). */
export function newRecoveryCodes(count = 10): { codes: string[]; hashes: string[] } {
  const codes = Array.from({ length: count }, () => {
    const bytes = randomBytes(10);
    const chars = Array.from(bytes, (b) => CODE_ALPHABET[b % CODE_ALPHABET.length]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
  return { codes, hashes: codes.map(hashRecoveryCode) };
}

export const hashRecoveryCode = (code: string) => sha256(code.trim().toLowerCase().replace(/\s+/g, ''));

export const looksLikeRecoveryCode = (value: string) => /^[a-z0-9]{5}-?[a-z0-9]{5}$/i.test(value.trim());
