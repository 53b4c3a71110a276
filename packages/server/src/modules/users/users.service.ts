import { type CreateSuperadminInput, createSuperadminSchema } from '@portal/shared';
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
