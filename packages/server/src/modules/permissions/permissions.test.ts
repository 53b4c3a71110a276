import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { addMember, createProject, createUser, setMainRole } from '../../../test/factories.js';
import { auditEvents, permissionRules } from '../../db/schema/index.js';

describe('permission calls', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;

  async function setup() {
    const project = await createProject(db());
    const signer = await createUser(db());
    const bare = await createUser(db());
    const outsider = await createUser(db());
    const superadmin = await createUser(db(), { role: 'superadmin' });
    await addMember(db(), project.id, signer.id, 'simple');
    await addMember(db(), project.id, bare.id, 'simple');
    await setMainRole(db(), project.id, signer.id, 'policy_management', 'signer');
    await setMainRole(db(), project.id, signer.id, 'monitoring', 'viewer');
    const as = (user: { email: string }) => ctx.signedIn(user);
    return {
      project,
      signer: await as(signer),
      bare: await as(bare),
      outsider: await as(outsider),
      superadmin: await as(superadmin),
    };
  }

  it('chart review has its own me and rules; outsiders get 404', async () => {
    const s = await setup();
    const id = s.project.id;
    const reviewer = await createUser(db());
    await addMember(db(), id, reviewer.id, 'simple');
    await setMainRole(db(), id, reviewer.id, 'chart_review', 'reviewer');
    const agent = await ctx.signedIn(reviewer);
    expect((await agent.get(`/api/projects/${id}/chart-review/me`)).json()).toEqual({
      main_role: 'reviewer',
      project_role: 'simple',
      is_superadmin: false,
    });
    const rules = (await agent.get(`/api/projects/${id}/chart-review/permissions`)).json().rules;
    expect(rules).toContainEqual({ path: 'settings', allowed_roles: ['chart_review_admin'] });
    const map = (await agent.get(`/api/me/permissions?project=${id}&app=chart_review`)).json().permissions;
    expect(map).toMatchObject({ 'chart_review:my': true, 'chart_review:settings': false });
    expect((await s.outsider.get(`/api/projects/${id}/chart-review/me`)).statusCode).toBe(404);
    expect((await s.outsider.get(`/api/projects/${id}/chart-review/permissions`)).statusCode).toBe(404);
    expect((await ctx.agent().get(`/api/projects/${id}/chart-review/me`)).statusCode).toBe(401);
  });

  it('me endpoints answer the roles; anonymous 401, another project 404', async () => {
    const s = await setup();
    const id = s.project.id;
    expect((await s.signer.get(`/api/projects/${id}/policy-management/me`)).json()).toEqual({
      main_role: 'signer',
      project_role: 'simple',
      can_sign: true,
    });
    expect((await s.signer.get(`/api/projects/${id}/monitoring/me`)).json()).toEqual({
      main_role: 'viewer',
      project_role: 'simple',
      is_superadmin: false,
    });
    expect((await s.bare.get(`/api/projects/${id}/policy-management/me`)).json()).toEqual({
      main_role: null,
      project_role: 'simple',
      can_sign: false,
    });
    expect((await s.superadmin.get(`/api/projects/${id}/monitoring/me`)).json()).toEqual({
      main_role: null,
      project_role: null,
      is_superadmin: true,
    });
    for (const path of [
      'monitoring/me',
      'policy-management/me',
      'monitoring/permissions',
      'policy-management/permissions',
    ]) {
      expect((await s.outsider.get(`/api/projects/${id}/${path}`)).statusCode, path).toBe(404);
      expect((await ctx.agent().get(`/api/projects/${id}/${path}`)).statusCode, path).toBe(401);
    }
  });

  it("rules are the defaults with the project's own in their place", async () => {
    const s = await setup();
    const id = s.project.id;
    const before = (await s.signer.get(`/api/projects/${id}/monitoring/permissions`)).json().rules;
    expect(before).toContainEqual({
      path: 'csv-import',
      allowed_roles: ['monitoring_admin', 'page_owner', 'data_entry'],
    });
    await db()
      .insert(permissionRules)
      .values({ projectId: id, app: 'monitoring', path: 'csv-import', allowedRoles: [] });
    const after = (await s.signer.get(`/api/projects/${id}/monitoring/permissions`)).json().rules;
    expect(after).toContainEqual({ path: 'csv-import', allowed_roles: [] });
    expect(after).toHaveLength(before.length);
  });

  it('/api/me/permissions maps {app}:{section} for the user, superadmin everything', async () => {
    const s = await setup();
    const id = s.project.id;
    const mine = (await s.signer.get(`/api/me/permissions?project=${id}&apps=policy_management,monitoring`)).json()
      .permissions;
    expect(mine['policy_management:bulk-sign']).toBe(true);
    expect(mine['policy_management:numbering']).toBe(false);
    expect(mine['monitoring:pages']).toBe(true);
    expect(mine['monitoring:csv-import']).toBe(false);
    const onlyMonitoring = (await s.signer.get(`/api/me/permissions?project=${id}&app=monitoring`)).json().permissions;
    expect(Object.keys(onlyMonitoring).every((k) => k.startsWith('monitoring:'))).toBe(true);
    const none = (await s.bare.get(`/api/me/permissions?project=${id}`)).json().permissions;
    expect(Object.values(none).every((v) => v === false)).toBe(true);
    const all = (await s.superadmin.get(`/api/me/permissions?project=${id}`)).json().permissions;
    expect(Object.values(all).every((v) => v === true)).toBe(true);
    expect((await s.outsider.get(`/api/me/permissions?project=${id}`)).statusCode).toBe(404);
    expect((await s.signer.get('/api/me/permissions?project=abc')).statusCode).toBe(400);
  });

  it('records the monitoring dashboard visit and logout in the audit log, members only', async () => {
    const s = await setup();
    const id = s.project.id;
    expect((await s.signer.post(`/api/projects/${id}/monitoring/audit/dashboard-visit`)).statusCode).toBe(204);
    expect((await s.signer.post(`/api/projects/${id}/monitoring/audit/dashboard-logout`)).statusCode).toBe(204);
    expect((await s.outsider.post(`/api/projects/${id}/monitoring/audit/dashboard-visit`)).statusCode).toBe(404);
    const actions = (await db().select().from(auditEvents).where(eq(auditEvents.projectId, id))).map((e) => e.action);
    expect(actions).toEqual(['monitoring.dashboard_visit', 'monitoring.dashboard_logout']);
  });
});
