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
    expect(res.json()).toEqual({
      projects: [{ id: mine.id, name: 'Alpha Hospital', slug: mine.slug, active_apps: [] }],
    });
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

describe('project calls', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;

  async function setup() {
    const project = await createProject(db(), { activeApps: ['policy_management', 'monitoring', 'unknown_app'] });
    const other = await createProject(db());
    const admin = await createUser(db());
    const member = await createUser(db());
    const outsider = await createUser(db());
    const superadmin = await createUser(db(), { role: 'superadmin' });
    await addMember(db(), project.id, admin.id, 'admin');
    await addMember(db(), project.id, member.id, 'simple');
    await addMember(db(), other.id, outsider.id, 'admin');
    const as = (user: { email: string }) => ctx.signedIn(user);
    return {
      project,
      other,
      admin: await as(admin),
      member: await as(member),
      outsider: await as(outsider),
      superadmin: await as(superadmin),
    };
  }

  it("GET /api/projects/{id}: members and superadmins see it; anonymous 401; another project's member 404", async () => {
    const s = await setup();
    const url = `/api/projects/${s.project.id}`;
    expect((await ctx.agent().get(url)).statusCode).toBe(401);
    expect((await s.outsider.get(url)).statusCode).toBe(404);
    expect((await s.outsider.get(url)).json()).toEqual({ message: 'Project not found.', code: 'NOT_FOUND' });
    const seen = await s.member.get(url);
    expect(seen.json()).toMatchObject({
      id: s.project.id,
      active_apps: ['monitoring', 'policy_management'],
      project_role: 'simple',
      is_active: true,
    });
    expect((await s.superadmin.get(url)).json().project_role).toBeNull();
    expect((await s.member.get('/api/projects/abc')).statusCode).toBe(400);
    expect((await s.member.get('/api/projects/9999999999')).statusCode).toBe(404);
  });

  it('active-apps and check-admin answer per role, and 404 across projects', async () => {
    const s = await setup();
    const id = s.project.id;
    expect((await s.member.get(`/api/projects/${id}/active-apps`)).json()).toEqual(['monitoring', 'policy_management']);
    expect((await s.member.get(`/api/projects/${id}/check-admin`)).json()).toEqual({ is_admin: false });
    expect((await s.admin.get(`/api/projects/${id}/check-admin`)).json()).toEqual({ is_admin: true });
    expect((await s.superadmin.get(`/api/projects/${id}/check-admin`)).json()).toEqual({ is_admin: true });
    for (const path of ['active-apps', 'check-admin']) {
      expect((await s.outsider.get(`/api/projects/${id}/${path}`)).statusCode).toBe(404);
      expect((await ctx.agent().get(`/api/projects/${id}/${path}`)).statusCode).toBe(401);
    }
  });

  it('a deactivated project disappears for members but not for superadmins', async () => {
    const s = await setup();
    await ctx.db.handle.pool.query('update projects set is_active = false where id = $1', [s.project.id]);
    expect((await s.member.get(`/api/projects/${s.project.id}`)).statusCode).toBe(404);
    expect((await s.superadmin.get(`/super/projects/${s.project.id}`)).json().is_active).toBe(false);
  });

  it('/super/projects is for superadmins only', async () => {
    const s = await setup();
    expect((await s.admin.get('/super/projects')).statusCode).toBe(403);
    expect((await s.admin.get(`/super/projects/${s.project.id}`)).statusCode).toBe(403);
    expect((await ctx.agent().get('/super/projects')).statusCode).toBe(401);
    const all = (await s.superadmin.get('/super/projects')).json().projects.map((p: { id: number }) => p.id);
    expect(all).toEqual(expect.arrayContaining([s.project.id, s.other.id]));
  });
});
