import { MESSAGES, SSO_ERRORS } from '@portal/shared';
import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import { users } from '../../db/schema/index.js';
import { recordAudit } from '../../lib/audit.js';
import { decrypt } from '../../lib/crypto.js';
import { AppError } from '../../lib/errors.js';
import { hashPassword, needsRehash, verifyPassword } from '../../lib/passwords.js';
import { looksLikeRecoveryCode, matchingRecoveryHash, matchingStep } from '../../lib/totp.js';
import { localPasswordsRefused } from '../identity/providers.service.js';
import { acceptTerms, termsStatusForUser } from '../terms/terms.service.js';
import { twoFactorPolicyFor } from '../two-factor/two-factor.service.js';
import type { Captcha } from './captcha.js';
import {
  accountKeyFor,
  justLocked,
  releaseAttempt,
  reserveAttempt,
  settleAttempt,
} from './login-attempts.repository.js';
import { findUserById, findUserByLogin, type UserRow } from './users.repository.js';

export interface LoginDeps {
  db: Database;
  config: Config;
  captcha: Captcha;
  appKey: Buffer;
}

export interface RequestFacts {
  ip: string;
  requestId: string;
  now: Date;
}

export type LoginOutcome =
  | { kind: 'signed_in'; user: UserRow; setupTwoFactor: boolean }
  | { kind: 'two_factor_needed'; userId: number };

// An unknown account costs the same as a known one: verify against a real hash of a password nobody has.
const dummyHash = hashPassword('not-a-real-password-only-for-timing');

const refuse = (message: string) => new AppError('UNPROCESSABLE', message);

function tooMany(retryAfterSeconds: number): AppError {
  const minutesLeft = Math.ceil(retryAfterSeconds / 60);
  return new AppError(
    'RATE_LIMITED',
    `Too many login attempts. Please try again in ${minutesLeft} minute${minutesLeft === 1 ? '' : 's'}.`,
    undefined,
    retryAfterSeconds,
  );
}

/** Step one: email or username, password, captcha, terms; then either signed in or a two-factor code is needed. */
export async function loginWithPassword(
  deps: LoginDeps,
  input: {
    login: string;
    password: string;
    captcha: string | undefined;
    acceptTerms: boolean;
    code: string | undefined;
  },
  facts: RequestFacts,
): Promise<LoginOutcome> {
  const { db } = deps;
  const captcha = await deps.captcha.verify(input.captcha, facts.now);
  if (captcha === 'missing') throw refuse(MESSAGES.captchaRequired);
  if (captcha === 'invalid') throw refuse('The captcha could not be verified. Please try again.');

  const user = await findUserByLogin(db, input.login);
  const accountKey = accountKeyFor(user?.id ?? null, input.login);
  // Counted before the password is checked, so simultaneous guesses cannot slip past the throttle.
  const { refusal, attemptId } = await reserveAttempt(db, {
    accountKey,
    userId: user?.id ?? null,
    ip: facts.ip,
    now: facts.now,
  });
  if (refusal) throw tooMany(refusal.retryAfterSeconds);

  const passwordOk = await verifyPassword(user?.passwordHash ?? (await dummyHash), input.password).catch(() => false);
  if (!user || !passwordOk || !user.passwordHash || user.status !== 'active') {
    const reason = !user ? 'unknown_account' : user.status !== 'active' ? `status_${user.status}` : 'bad_password';
    await fail(deps, { attemptId, accountKey, userId: user?.id ?? null, reason, login: input.login }, facts);
    throw refuse(MESSAGES.invalidCredentials);
  }

  // Checked only now, so it tells a guesser nothing: the password was right, but this domain signs in through its
  // provider (break-glass superadmins excepted, decision record 023).
  if (await localPasswordsRefused(db, user)) {
    await releaseAttempt(db, attemptId);
    await recordAudit(db, {
      action: 'auth.login_failed',
      actorUserId: user.id,
      subjectType: 'user',
      subjectId: user.id,
      data: { reason: 'sso_local_passwords_off', login: input.login.slice(0, 254) },
      ip: facts.ip,
      requestId: facts.requestId,
      at: facts.now,
    });
    throw refuse(SSO_ERRORS.local_passwords_off);
  }

  try {
    if (needsRehash(user.passwordHash)) {
      await db
        .update(users)
        .set({ passwordHash: await hashPassword(input.password) })
        .where(eq(users.id, user.id));
    }

    const terms = await termsStatusForUser(db, user.id);
    if (terms.status !== 'accepted') {
      if (!input.acceptTerms) throw refuse(MESSAGES.termsRequired);
      await acceptTerms(db, {
        userId: user.id,
        termsVersionId: terms.newestId!,
        now: facts.now,
        ip: facts.ip,
        requestId: facts.requestId,
      });
    }
  } catch (error) {
    // The password was right: a missing terms checkbox is no failed attempt.
    await releaseAttempt(db, attemptId);
    throw error;
  }

  if (user.twoFactorConfirmedAt) {
    // The code step counts (and reserves) its own attempt.
    await releaseAttempt(db, attemptId);
    if (!input.code) return { kind: 'two_factor_needed', userId: user.id };
    return completeWithCode(deps, user.id, input.code, facts);
  }
  return succeed(deps, user, facts, attemptId);
}

/** Step two: the code for a login whose password was verified (pending in the session, 5 minutes). */
export async function completeWithCode(
  deps: LoginDeps,
  userId: number,
  code: string,
  facts: RequestFacts,
): Promise<LoginOutcome> {
  const user = await findUserById(deps.db, userId);
  if (user?.status !== 'active' || !user.twoFactorSecret || !user.twoFactorConfirmedAt) {
    throw refuse(MESSAGES.loginFailed);
  }
  const accountKey = accountKeyFor(user.id, user.username);
  const { refusal, attemptId } = await reserveAttempt(deps.db, {
    accountKey,
    userId: user.id,
    ip: facts.ip,
    now: facts.now,
  });
  if (refusal) throw tooMany(refusal.retryAfterSeconds);

  const accepted =
    (await acceptTotp(deps, user, code, facts.now)) ||
    (looksLikeRecoveryCode(code) && (await useRecoveryCode(deps, user, code, facts)));
  if (!accepted) {
    await fail(
      deps,
      { attemptId, accountKey, userId: user.id, reason: 'bad_two_factor_code', login: user.username },
      facts,
    );
    throw refuse(MESSAGES.invalidCode);
  }
  return succeed(deps, user, facts, attemptId);
}

/** Accepts a TOTP code once: the step must be newer than the last one used (checked and stored atomically). */
export async function acceptTotp(
  deps: Pick<LoginDeps, 'db' | 'appKey'>,
  user: UserRow,
  code: string,
  now: Date,
): Promise<boolean> {
  if (!user.twoFactorSecret) return false;
  const step = matchingStep(decrypt(user.twoFactorSecret, deps.appKey), code.trim(), now);
  if (step === null) return false;
  const updated = await deps.db
    .update(users)
    .set({ twoFactorLastStep: step })
    .where(and(eq(users.id, user.id), or(isNull(users.twoFactorLastStep), lt(users.twoFactorLastStep, step))))
    .returning({ id: users.id });
  return updated.length === 1;
}

async function useRecoveryCode(deps: LoginDeps, user: UserRow, code: string, facts: RequestFacts): Promise<boolean> {
  // The argon2 checks run before the transaction, so the row is never locked while hashing.
  const [stored] = await deps.db
    .select({ codes: users.twoFactorRecoveryCodes })
    .from(users)
    .where(eq(users.id, user.id));
  const hash = await matchingRecoveryHash(stored?.codes ?? [], code);
  if (!hash) return false;
  return deps.db.transaction(async (tx) => {
    // Lock the row: two requests with the same code cannot both spend it (the second finds it gone).
    const [row] = await tx.select().from(users).where(eq(users.id, user.id)).for('update');
    const codes = row?.twoFactorRecoveryCodes ?? [];
    if (!codes.includes(hash)) return false;
    await tx
      .update(users)
      .set({ twoFactorRecoveryCodes: codes.filter((c) => c !== hash) })
      .where(eq(users.id, user.id));
    await recordAudit(tx, {
      action: 'two_factor.recovery_code_used',
      actorUserId: user.id,
      subjectType: 'user',
      subjectId: user.id,
      data: { remaining: codes.length - 1 },
      ip: facts.ip,
      requestId: facts.requestId,
      at: facts.now,
    });
    return true;
  });
}

async function succeed(deps: LoginDeps, user: UserRow, facts: RequestFacts, attemptId: number): Promise<LoginOutcome> {
  const policy = await twoFactorPolicyFor(deps.db, deps.config, user, facts.now);
  await deps.db.transaction(async (tx) => {
    await settleAttempt(tx, attemptId, { succeeded: true });
    await tx.update(users).set({ lastLoginAt: facts.now }).where(eq(users.id, user.id));
    await recordAudit(tx, {
      action: 'auth.login',
      actorUserId: user.id,
      subjectType: 'user',
      subjectId: user.id,
      data: { two_factor: !!user.twoFactorConfirmedAt },
      ip: facts.ip,
      requestId: facts.requestId,
      at: facts.now,
    });
  });
  return { kind: 'signed_in', user, setupTwoFactor: policy.required && !user.twoFactorConfirmedAt };
}

async function fail(
  deps: LoginDeps,
  failure: { attemptId: number; accountKey: string; userId: number | null; reason: string; login: string },
  facts: RequestFacts,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    await settleAttempt(tx, failure.attemptId, { succeeded: false, reason: failure.reason });
    await recordAudit(tx, {
      action: 'auth.login_failed',
      actorUserId: failure.userId,
      ...(failure.userId ? { subjectType: 'user', subjectId: failure.userId } : {}),
      data: { reason: failure.reason, login: failure.login.slice(0, 254) },
      ip: facts.ip,
      requestId: facts.requestId,
      at: facts.now,
    });
    if (await justLocked(tx, failure.accountKey, facts.now)) {
      await recordAudit(tx, {
        action: 'auth.lockout',
        actorUserId: failure.userId,
        data: { account: failure.accountKey },
        ip: facts.ip,
        requestId: facts.requestId,
        at: facts.now,
      });
    }
  });
}
