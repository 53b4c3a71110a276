import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { sessions, users } from '../../db/schema/index.js';
import { signalSessionsEnded } from '../notifications/notifications.service.js';

/**
 * What single sign-on (oidc.service.ts) and provisioning (scim.service.ts) share about the accounts a provider speaks
 * for: the username an account is created with, and how an account is cut off and let back in.
 */

/** A username from the provider's (letters, digits, . _ - only, 3 to 50), made unique with a number. */
export async function uniqueUsername(tx: DbOrTx, wanted: string): Promise<string> {
  let base = wanted.replace(/[^A-Za-z0-9._-]/g, '').slice(0, 45);
  if (base.length < 3) base = `${base}user`.slice(0, 45);
  for (let n = 1; n < 1000; n++) {
    const candidate = n === 1 ? base : `${base}${n}`;
    const [taken] = await tx
      .select({ id: users.id })
      .from(users)
      .where(sql`lower(${users.username}) = ${candidate.toLowerCase()}`);
    if (!taken) return candidate;
  }
  return `${base.slice(0, 36)}${Date.now().toString(36)}`;
}

/**
 * Disables an account and ends every one of its sessions at once, as the superadmin's "disable" does: the session
 * rows go (the next request of any of its browsers is signed out) and its open notification streams are told to end
 * (on commit, on every server instance). Returns how many sessions ended.
 */
export async function disableAccount(tx: DbOrTx, userId: number, now: Date): Promise<number> {
  await tx.update(users).set({ status: 'disabled', updatedAt: now }).where(eq(users.id, userId));
  const ended = await tx.delete(sessions).where(eq(sessions.userId, userId)).returning({ id: sessions.idHash });
  await signalSessionsEnded(tx, userId);
  return ended.length;
}

/** Lets a disabled account sign in again through its provider (active: a provisioned account has no password). */
export async function enableAccount(tx: DbOrTx, userId: number, now: Date): Promise<void> {
  await tx.update(users).set({ status: 'active', updatedAt: now }).where(eq(users.id, userId));
}
