import { createHmac } from 'node:crypto';
import { type Challenge, createChallenge, type Payload, randomInt, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { Database } from '../../db/client.js';
import { captchaSolutions } from '../../db/schema/index.js';
import { minutes } from '../../lib/clock.js';

/**
 * ALTCHA: a self-hosted proof of work instead of a third-party captcha (DESIGN section 1). Challenges are signed
 * with a key derived from APP_KEY, so any instance can verify any other's; a solution is accepted once, recorded in
 * PostgreSQL. The widget's payload arrives in the SPEC field `g-recaptcha-response` (or `captcha`).
 */
const CHALLENGE_TTL_MS = minutes(10);

export type CaptchaResult = 'ok' | 'missing' | 'invalid';

export interface Captcha {
  enabled: boolean;
  createChallenge(now: Date): Promise<Challenge>;
  verify(payload: string | undefined, now: Date): Promise<CaptchaResult>;
}

export function createCaptcha(options: {
  provider: 'altcha' | 'off';
  cost: number;
  appKey: Buffer;
  db: Database;
}): Captcha {
  const secret = (purpose: string) => createHmac('sha256', options.appKey).update(`altcha:${purpose}`).digest('hex');
  const hmacSignatureSecret = secret('signature');
  const hmacKeySignatureSecret = secret('key-signature');

  return {
    enabled: options.provider === 'altcha',

    createChallenge(now) {
      return createChallenge({
        algorithm: 'SHA-256',
        cost: 1,
        // The browser counts up to this number: the cost is the work a person's browser does (about a second).
        counter: randomInt(options.cost, Math.max(1, Math.floor(options.cost / 2))),
        deriveKey,
        hmacSignatureSecret,
        hmacKeySignatureSecret,
        expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS),
      });
    },

    async verify(raw, now) {
      if (options.provider === 'off') return 'ok';
      if (!raw) return 'missing';
      let payload: Payload;
      try {
        payload = JSON.parse(Buffer.from(raw, 'base64').toString('utf8')) as Payload;
      } catch {
        return 'invalid';
      }
      if (!payload?.challenge?.signature || !payload.solution) return 'invalid';
      const expiresAt = payload.challenge.parameters?.expiresAt;
      if (typeof expiresAt === 'number' && expiresAt * 1000 <= now.getTime()) return 'invalid';
      const result = await verifySolution({
        challenge: payload.challenge,
        solution: payload.solution,
        deriveKey,
        hmacSignatureSecret,
        hmacKeySignatureSecret,
      }).catch(() => undefined);
      if (!result?.verified) return 'invalid';
      // One use per solution, across instances: the first insert wins.
      const used = await options.db
        .insert(captchaSolutions)
        .values({
          signature: payload.challenge.signature,
          expiresAt: new Date(typeof expiresAt === 'number' ? expiresAt * 1000 : now.getTime() + CHALLENGE_TTL_MS),
        })
        .onConflictDoNothing()
        .returning({ signature: captchaSolutions.signature });
      if (!used.length) return 'invalid';
      return 'ok';
    },
  };
}
