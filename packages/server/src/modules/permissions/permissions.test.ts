import { APP_CODES, MAIN_ROLES, PERMISSION_APPS, PERMISSION_SECTIONS, type PermissionSection } from '@portal/shared';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { addMember, createProject, createUser, setMainRole } from '../../../test/factories.js';
import { auditEvents, permissionRules } from '../../db/schema/index.js';
import type { SessionUser } from '../../plugins/session.js';
import { appAccess } from '../../policies/app-access.js';
import { DEFAULT_RULES } from '../../policies/permission-defaults.js';
import { rulesFor } from './permissions.service.js';

const rulesOf = (app: (typeof PERMISSION_APPS)[number]) => DEFAULT_RULES[app];

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

  it('a project whose stored rules predate a section still has the default rule for it', async () => {
    const s = await setup();
    const id = s.project.id;
    // Rows for two sections only, as a project saved before the others existed would have.
    await db()
      .insert(permissionRules)
      .values([
        { projectId: id, app: 'policy_management', path: 'toc', allowedRoles: ['policy_admin'] },
        { projectId: id, app: 'policy_management', path: 'numbering', allowedRoles: ['policy_admin', 'signer'] },
      ]);
    const rules = await rulesFor(db(), id, 'policy_management');
    expect(rules.map((rule) => rule.path).sort()).toEqual([...PERMISSION_SECTIONS.policy_management].sort());
    expect(rules).toContainEqual({ path: 'toc', allowed_roles: ['policy_admin'] });
    expect(rules).toContainEqual({ path: 'bulk-sign', allowed_roles: ['policy_admin', 'signer'] });
    const map = (await s.signer.get(`/api/me/permissions?project=${id}&app=policy_management`)).json().permissions;
    expect(Object.keys(map).sort()).toEqual(
      PERMISSION_SECTIONS.policy_management.map((p) => `policy_management:${p}`).sort(),
    );
    expect(map).toMatchObject({
      'policy_management:toc': false,
      'policy_management:numbering': true,
      'policy_management:bulk-sign': true,
      'policy_management:generator-templates': false,
    });
  });

  it.each(PERMISSION_APPS)(
    '%s: a section with no rule anywhere is denied to every main role, not to superadmins',
    async (app) => {
      const project = await createProject(db(), { activeApps: [...APP_CODES] });
      const superadmin = (await createUser(db(), { role: 'superadmin' })) as SessionUser;
      const request = { ip: '127.0.0.1', id: 'test' };
      const unknown = 'no-such-section' as PermissionSection<typeof app>;
      for (const role of MAIN_ROLES[app]) {
        const user = (await createUser(db())) as SessionUser;
        await addMember(db(), project.id, user.id, 'admin');
        await setMainRole(db(), project.id, user.id, app, role);
        await expect(appAccess(db(), app, user, request, project.id, unknown), role).rejects.toMatchObject({
          status: 403,
          message: 'Your role is not permitted to access this section.',
        });
        // The same member passes a real section of the app that the default rule gives its role.
        const open = PERMISSION_SECTIONS[app].find((section) =>
          rulesOf(app).some((rule) => rule.path === section && rule.allowed_roles.includes(role)),
        )!;
        await expect(appAccess(db(), app, user, request, project.id, open)).resolves.toMatchObject({ role });
      }
      await expect(appAccess(db(), app, superadmin, request, project.id, unknown)).resolves.toMatchObject({
        isSuperadmin: true,
      });
    },
  );

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
