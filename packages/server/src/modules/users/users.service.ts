import { type CreateSuperadminInput, type CurrentUser, createSuperadminSchema } from '@portal/shared';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { users } from '../../db/schema/index.js';
import { recordAudit } from '../../lib/audit.js';
import { AppError, validationFailed } from '../../lib/errors.js';
import { hashPassword } from '../../lib/passwords.js';

/** Creates a superadmin (the first one comes from `npm run create-superadmin`). Validated, audited, one transaction. */
export async function createSuperadmin(db: Database, input: CreateSuperadminInput) {
  const parsed = createSuperadminSchema.safeParse(input);
  if (!parsed.success) throw validationFailed(parsed.error.issues);
  const { email, username, firstName, lastName, password } = parsed.data;
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const taken = await tx
      .select({ email: users.email, username: users.username })
      .from(users)
      .where(sql`lower(${users.email}) = ${email} or lower(${users.username}) = lower(${username})`);
    if (taken.length) {
      const field = taken.some((u) => u.email.toLowerCase() === email) ? 'email' : 'username';
      throw new AppError('CONFLICT', `A user with this ${field} already exists.`, {
        [field]: [`A user with this ${field} already exists.`],
      });
    }
    const [user] = await tx
      .insert(users)
      .values({ email, username, firstName, lastName, role: 'superadmin', passwordHash, passwordChangedAt: new Date() })
      .returning({ id: users.id, email: users.email, username: users.username });
    await recordAudit(tx, {
      action: 'user.create_superadmin',
      subjectType: 'user',
      subjectId: user!.id,
      data: { email, username, via: 'cli' },
    });
    return user!;
  });
}

interface PresentableUser {
  id: number;
  username: string;
  email: string;
  role: string;
  firstName: string;
  lastName: string;
  twoFactorConfirmedAt: Date | null;
}

/** The current-user shape of SPEC section 3 (snake_case as the SPEC names its fields). */
export const presentUser = (user: PresentableUser): CurrentUser => ({
  id: user.id,
  username: user.username,
  email: user.email,
  role: user.role as CurrentUser['role'],
  first_name: user.firstName,
  last_name: user.lastName,
  two_factor_confirmed_at: user.twoFactorConfirmedAt?.toISOString() ?? null,
});
