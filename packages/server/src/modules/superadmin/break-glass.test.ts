import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createUser } from '../../../test/factories.js';
import { users } from '../../db/schema/index.js';

/**
 * Break-glass (docs/identity.md): a superadmin who signs in only through single sign-on cannot disable or demote the
 * last superadmin who has a password, so the console stays reachable when the identity provider fails.
 */
describe('superadmin: the last superadmin with a password remains', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;

  it('refuses to disable or demote the last superadmin with a password, and allows it once another has one', async () => {
    const local = await createUser(db(), { role: 'superadmin' });
    const sso = await createUser(db(), { role: 'superadmin' });
    const agent = await ctx.signedIn(sso);
    // From here on the acting superadmin has no password: they came in through single sign-on.
    await db().update(users).set({ passwordHash: null }).where(eq(users.id, sso.id));

    const disable = await agent.post(`/super/users/${local.id}/disable`);
    expect(disable.statusCode).toBe(409);
    expect(disable.json().message).toMatch(/^This is the last superadmin who can sign in with a password/);
    const demote = await agent.patch(`/super/users/${local.id}`, { role: 'user' });
    expect(demote.statusCode).toBe(409);
    const [unchanged] = await db().select().from(users).where(eq(users.id, local.id));
    expect(unchanged).toMatchObject({ role: 'superadmin', status: 'active' });

    await createUser(db(), { role: 'superadmin' });
    expect((await agent.post(`/super/users/${local.id}/disable`)).statusCode).toBe(200);
  });
});
