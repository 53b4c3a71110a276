import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { addMember, createProject, createUser, TEST_PASSWORD } from '../../../test/factories.js';

describe('GET /api/member/projects', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;

  it('answers 401 when signed out', async () => {
    expect((await ctx.agent().get('/api/member/projects')).statusCode).toBe(401);
  });

  it('lists only the active projects the member belongs to, never another project', async () => {
    const mine = await createProject(db(), { name: 'Alpha Hospital' });
    const closed = await createProject(db(), { name: 'Closed Clinic', isActive: false });
    const theirs = await createProject(db(), { name: 'Other Facility' });
    const member = await createUser(db());
    const stranger = await createUser(db());
    await addMember(db(), mine.id, member.id, 'simple');
    await addMember(db(), closed.id, member.id, 'simple');
    await addMember(db(), theirs.id, stranger.id, 'admin');

    const agent = ctx.agent();
    await agent.login(member.email, TEST_PASSWORD);
    const res = await agent.get('/api/member/projects');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ projects: [{ id: mine.id, name: 'Alpha Hospital', slug: mine.slug }] });
    expect(res.body).not.toContain('Other Facility');
  });

  it('lists every active project for a superadmin', async () => {
    const a = await createProject(db(), { name: 'Zeta Care' });
    await createProject(db(), { name: 'Retired Ward', isActive: false });
    const admin = await createUser(db(), { role: 'superadmin' });
    const agent = ctx.agent();
    await agent.login(admin.email, TEST_PASSWORD);
    const names = (await agent.get('/api/member/projects')).json().projects.map((p: { name: string }) => p.name);
    expect(names).toContain(a.name);
    expect(names).not.toContain('Retired Ward');
    expect(names).toEqual([...names].sort());
  });
});
