import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../../test/database.js';
import { createUser } from '../../../test/factories.js';
import { auditEvents, users } from '../../db/schema/index.js';
import { AppError } from '../../lib/errors.js';
import { verifyPassword } from '../../lib/passwords.js';
import { createSuperadmin } from './users.service.js';

const STRONG = 'Vq9!rT4#mLp2$Xz8';

describe('createSuperadmin', () => {
  const db = useTestDatabase();

  it('creates a superadmin with a hashed password and an audit event', async () => {
    const user = await createSuperadmin(db.handle.db, {
      email: ' Chief@Example.ORG ',
      username: 'chief',
      password: STRONG,
    });
    const [row] = await db.handle.db.select().from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject({ email: 'chief@example.org', username: 'chief', role: 'superadmin', status: 'active' });
    expect(row!.passwordHash).not.toContain(STRONG);
    expect(await verifyPassword(row!.passwordHash!, STRONG)).toBe(true);
    const events = await db.handle.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.subjectId, String(user.id)));
    expect(events.map((e) => e.action)).toEqual(['user.create_superadmin']);
  });

  it('refuses a weak password with the SPEC message and stores nothing', async () => {
    const before = (await db.handle.db.select().from(users)).length;
    const error = await createSuperadmin(db.handle.db, {
      email: 'weak@example.org',
      username: 'weak',
      password: 'short',
    }).catch((e) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error.errors.password[0]).toMatch(
      /^Password does not meet security requirements: Password must be at least 12/,
    );
    expect((await db.handle.db.select().from(users)).length).toBe(before);
  });

  it('refuses a bad email or username, and a taken email or username', async () => {
    await expect(
      createSuperadmin(db.handle.db, { email: 'nope', username: 'ok_name', password: STRONG }),
    ).rejects.toMatchObject({
      errors: { email: ['Enter a valid email address.'] },
    });
    await expect(
      createSuperadmin(db.handle.db, { email: 'a@b.org', username: 'a b', password: STRONG }),
    ).rejects.toMatchObject({
      errors: { username: [expect.stringContaining('Username must be')] },
    });
    const existing = await createUser(db.handle.db);
    await expect(
      createSuperadmin(db.handle.db, { email: existing.email.toUpperCase(), username: 'fresh_name', password: STRONG }),
    ).rejects.toMatchObject({ code: 'CONFLICT', errors: { email: ['A user with this email already exists.'] } });
    await expect(
      createSuperadmin(db.handle.db, { email: 'fresh@example.org', username: existing.username, password: STRONG }),
    ).rejects.toMatchObject({ code: 'CONFLICT', errors: { username: ['A user with this username already exists.'] } });
  });

  it('works from the command line with the password on standard input', () => {
    const cli = fileURLToPath(new URL('../../cli/create-superadmin.ts', import.meta.url));
    const run = (args: string[], input: string) =>
      spawnSync(process.execPath, ['--import', 'tsx', cli, ...args], {
        input,
        encoding: 'utf8',
        env: { PATH: process.env.PATH, DATABASE_URL: db.url },
      });
    const ok = run(['--email', 'cli@example.org', '--username', 'cli_admin'], `${STRONG}\n`);
    expect(ok.stderr).toBe('');
    expect(ok.stdout).toContain('Superadmin cli_admin <cli@example.org> created');
    expect(ok.status).toBe(0);

    const weak = run(['--email', 'cli2@example.org', '--username', 'cli_admin2'], 'password\n');
    expect(weak.status).toBe(1);
    expect(weak.stderr).toContain('Password does not meet security requirements');

    const usage = run([], '');
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain('Usage: npm run create-superadmin');
  });
});
