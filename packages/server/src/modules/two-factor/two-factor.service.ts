import type { Config } from '../../config.js';
import type { DbOrTx } from '../../db/client.js';
import { projectRolesOf } from '../auth/users.repository.js';

const DAY_MS = 86_400_000;

export interface TwoFactorPolicy {
  required: boolean;
  /** Days left to set it up (null when not required or already on). */
  graceDaysRemaining: number | null;
  /** Required, not set up, and the grace period is over: only sign-in, sign-out and setup remain open. */
  overdue: boolean;
}

/** MFA_REQUIRED_ROLES (superadmin, admin = project admin anywhere, simple) and MFA_GRACE_DAYS from account creation. */
export async function twoFactorPolicyFor(
  db: DbOrTx,
  config: Pick<Config, 'MFA_REQUIRED_ROLES' | 'MFA_GRACE_DAYS'>,
  user: {
    id: number;
    role: string;
    createdAt: Date;
    twoFactorConfirmedAt: Date | null;
    /** Already known (the session loads them): no query. */
    projectRoles?: readonly string[];
  },
  now: Date,
): Promise<TwoFactorPolicy> {
  const roles = new Set<string>(user.role === 'superadmin' ? ['superadmin'] : []);
  if (!roles.has('superadmin')) {
    for (const role of user.projectRoles ?? (await projectRolesOf(db, user.id))) roles.add(role);
  }
  const required = config.MFA_REQUIRED_ROLES.some((role) => roles.has(role));
  if (!required || user.twoFactorConfirmedAt) return { required, graceDaysRemaining: null, overdue: false };
  const deadline = user.createdAt.getTime() + config.MFA_GRACE_DAYS * DAY_MS;
  const remaining = Math.max(0, Math.ceil((deadline - now.getTime()) / DAY_MS));
  return { required, graceDaysRemaining: remaining, overdue: remaining === 0 };
}
