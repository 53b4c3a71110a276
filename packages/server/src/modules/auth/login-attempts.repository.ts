import { and, desc, eq, gte, sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../db/client.js';
import { loginAttempts } from '../../db/schema/index.js';
import { minutes } from '../../lib/clock.js';

/** Issue 3: 5 failures per account and address in 15 minutes, then wait; 10 in a row lock the account 15 minutes. */
export const THROTTLE_WINDOW_MS = minutes(15);
export const MAX_FAILURES_PER_ADDRESS = 5;
export const LOCKOUT_FAILURES = 10;
export const LOCKOUT_MS = minutes(15);

export type Refusal = { kind: 'throttled' | 'locked'; retryAfterSeconds: number } | null;

/** Whether this account (from this address) may try again now. Known and unknown accounts answer alike. */
export async function attemptRefusal(db: DbOrTx, accountKey: string, ip: string, now: Date): Promise<Refusal> {
  // Locked: the last 10 attempts on the account all failed, the newest less than 15 minutes ago.
  const recent = await db
    .select({ succeeded: loginAttempts.succeeded, createdAt: loginAttempts.createdAt })
    .from(loginAttempts)
    .where(eq(loginAttempts.accountKey, accountKey))
    .orderBy(desc(loginAttempts.createdAt), desc(loginAttempts.id))
    .limit(LOCKOUT_FAILURES);
  if (recent.length === LOCKOUT_FAILURES && recent.every((a) => !a.succeeded)) {
    const until = recent[0]!.createdAt.getTime() + LOCKOUT_MS;
    if (until > now.getTime()) return { kind: 'locked', retryAfterSeconds: Math.ceil((until - now.getTime()) / 1000) };
  }
  const since = new Date(now.getTime() - THROTTLE_WINDOW_MS);
  const failures = await db
    .select({ createdAt: loginAttempts.createdAt })
    .from(loginAttempts)
    .where(
      and(
        eq(loginAttempts.accountKey, accountKey),
        sql`${loginAttempts.ip} is not distinct from ${ip}::inet`,
        eq(loginAttempts.succeeded, false),
        gte(loginAttempts.createdAt, since),
      ),
    )
    .orderBy(loginAttempts.createdAt);
  if (failures.length >= MAX_FAILURES_PER_ADDRESS) {
    // Free again when the oldest failure that still counts leaves the window.
    const oldest = failures[failures.length - MAX_FAILURES_PER_ADDRESS]!.createdAt.getTime();
    return {
      kind: 'throttled',
      retryAfterSeconds: Math.max(1, Math.ceil((oldest + THROTTLE_WINDOW_MS - now.getTime()) / 1000)),
    };
  }
  return null;
}

export async function recordAttempt(
  db: DbOrTx,
  attempt: { accountKey: string; userId: number | null; ip: string; succeeded: boolean; reason?: string; now: Date },
): Promise<void> {
  await db.insert(loginAttempts).values({
    accountKey: attempt.accountKey,
    userId: attempt.userId,
    ip: attempt.ip,
    succeeded: attempt.succeeded,
    reason: attempt.reason ?? null,
    createdAt: attempt.now,
  });
}

/**
 * Checks the throttle and the lockout and, when the attempt may go on, records it at once as a failure, before the
 * password or code is verified; `settleAttempt` then writes the verdict. Checking and recording under one lock per
 * account (held for these two statements only, never during the argon2 verification) counts simultaneous attempts,
 * on one instance or several, before any of them is verified: a burst of parallel guesses gets no more tries than
 * the same guesses one after another.
 */
export async function reserveAttempt(
  db: Database,
  attempt: { accountKey: string; userId: number | null; ip: string; now: Date },
): Promise<{ refusal: Refusal; attemptId: number }> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('login_attempts'), hashtext(${attempt.accountKey}))`);
    const refusal = await attemptRefusal(tx, attempt.accountKey, attempt.ip, attempt.now);
    if (refusal) return { refusal, attemptId: 0 };
    const [row] = await tx
      .insert(loginAttempts)
      .values({
        accountKey: attempt.accountKey,
        userId: attempt.userId,
        ip: attempt.ip,
        succeeded: false,
        reason: 'pending',
        createdAt: attempt.now,
      })
      .returning({ id: loginAttempts.id });
    return { refusal: null, attemptId: row!.id };
  });
}

/** The verdict of a reserved attempt. */
export async function settleAttempt(
  db: DbOrTx,
  attemptId: number,
  outcome: { succeeded: boolean; reason?: string },
): Promise<void> {
  await db
    .update(loginAttempts)
    .set({ succeeded: outcome.succeeded, reason: outcome.reason ?? null })
    .where(eq(loginAttempts.id, attemptId));
}

/** Forgets a reserved attempt that ended without a verdict (password right, terms or two-factor code still due). */
export async function releaseAttempt(db: DbOrTx, attemptId: number): Promise<void> {
  await db.delete(loginAttempts).where(eq(loginAttempts.id, attemptId));
}

/** True when this failure was the one that locked the account (for the audit trail). */
export async function justLocked(db: DbOrTx, accountKey: string, now: Date): Promise<boolean> {
  const refusal = await attemptRefusal(db, accountKey, '0.0.0.0', now);
  return refusal?.kind === 'locked' && refusal.retryAfterSeconds * 1000 >= LOCKOUT_MS - 1000;
}

export const accountKeyFor = (userId: number | null, typed: string) =>
  userId === null ? `name:${typed.trim().toLowerCase()}` : `user:${userId}`;

/**
 * When the account's lockout ends, or null: the rule of attemptRefusal (the last ten sign-in attempts all failed and
 * the newest is recent) in SQL over the `users` row of the query, so lists can show and filter it.
 */
export const lockedUntilSql = (now: Date) => sql<Date | null>`(
  select case
    when count(*) = ${LOCKOUT_FAILURES} and bool_and(not recent.succeeded)
      and max(recent.created_at) + make_interval(secs => ${LOCKOUT_MS / 1000}) > ${now.toISOString()}::timestamptz
    then max(recent.created_at) + make_interval(secs => ${LOCKOUT_MS / 1000})
  end
  from (
    select la.succeeded, la.created_at
    from login_attempts la
    where la.account_key = 'user:' || "users"."id"
    order by la.created_at desc, la.id desc
    limit ${LOCKOUT_FAILURES}
  ) recent
)`;

/** Unlocks an account: forgets its failed attempts (the lockout is read from them). Returns how many were cleared. */
export async function clearFailedAttempts(db: DbOrTx, userId: number): Promise<number> {
  const cleared = await db
    .delete(loginAttempts)
    .where(and(eq(loginAttempts.accountKey, accountKeyFor(userId, '')), eq(loginAttempts.succeeded, false)))
    .returning({ id: loginAttempts.id });
  return cleared.length;
}
