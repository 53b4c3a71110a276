import { APP_CODES, type AppCode } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { addMember, createProject, createUser, setMainRole } from '../../../test/factories.js';
import { setStandardsRole } from '../../../test/standards-kit.js';
import { statementsOf } from '../../../test/statements.js';
import { permissionRules } from '../../db/schema/index.js';

/**
 * GET /api/projects/{id}/my-apps (issue 32): the project's active apps, whether the signed-in user can open each,
 * and why not. Each answer must agree with the gate the app's own calls pass through.
 */
describe('GET /api/projects/{id}/my-apps', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;

  async function setup(activeApps: string[] = [...APP_CODES]) {
    const project = await createProject(db(), { activeApps });
    const other = await createProject(db(), { activeApps: [...APP_CODES] });
    const people = {
      admin: await createUser(db()),
      author: await createUser(db()),
      reader: await createUser(db()),
      noRole: await createUser(db()),
      outsider: await createUser(db()),
      superadmin: await createUser(db(), { role: 'superadmin' }),
    };
    await addMember(db(), project.id, people.admin.id, 'admin');
    for (const who of ['author', 'reader', 'noRole'] as const)
      await addMember(db(), project.id, people[who].id, 'simple');
    await addMember(db(), other.id, people.outsider.id, 'admin');
    await setMainRole(db(), project.id, people.author.id, 'policy_management', 'author');
    await setMainRole(db(), project.id, people.author.id, 'monitoring', 'viewer');
    await setMainRole(db(), project.id, people.reader.id, 'policy_management', 'reader');
    await setMainRole(db(), project.id, people.reader.id, 'chart_review', 'viewer');
    await setStandardsRole(db(), project.id, people.reader.id, 'viewer');
    return { project, other, people, url: `/api/projects/${project.id}/my-apps` };
  }

  type Answer = { code: AppCode; usable: boolean; reason: string | null; cause: string | null };
  const byCode = (apps: Answer[]) => Object.fromEntries(apps.map((app) => [app.code, app]));
  const usable = (apps: Answer[]) => apps.filter((app) => app.usable).map((app) => app.code);

  it('answers 401 signed out, 404 to a member of another project, for another project and for none', async () => {
    const s = await setup();
    expect((await ctx.agent().get(s.url)).statusCode).toBe(401);
    const outsider = await ctx.signedIn(s.people.outsider);
    const refused = await outsider.get(s.url);
    expect(refused.statusCode).toBe(404);
    expect(refused.json().message).toBe('Project not found.');
    expect(refused.body).not.toContain('monitoring');
    const reader = await ctx.signedIn(s.people.reader);
    expect((await reader.get(`/api/projects/${s.other.id}/my-apps`)).statusCode).toBe(404);
    expect((await reader.get('/api/projects/2147483000/my-apps')).statusCode).toBe(404);
    expect((await reader.get('/api/projects/abc/my-apps')).statusCode).toBe(400);
    // The other project's admin still sees their own project's apps.
    expect(usable((await outsider.get(`/api/projects/${s.other.id}/my-apps`)).json().apps)).toEqual([
      'standards',
      'admin',
    ]);
  });

  it('a member without any role can open nothing, and is told why for each app once', async () => {
    const s = await setup();
    const agent = await ctx.signedIn(s.people.noRole);
    const res = await agent.get(s.url);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      apps: [
        {
          code: 'monitoring',
          usable: false,
          cause: 'no_role',
          reason: 'You have no role in Monitoring yet. A project administrator can give you one in Manage Users.',
        },
        {
          code: 'policy_management',
          usable: false,
          cause: 'no_role',
          reason:
            'You have no role in Policy Management yet. A project administrator can give you one in Manage Users.',
        },
        {
          code: 'chart_review',
          usable: false,
          cause: 'no_role',
          reason: 'You have no role in Chart Review yet. A project administrator can give you one in Manage Users.',
        },
        {
          code: 'standards',
          usable: false,
          cause: 'no_standards_role',
          reason: 'You have no role in Standards yet. A project administrator can give you one in Standards Users.',
        },
        {
          code: 'admin',
          usable: false,
          cause: 'admins_only',
          reason: "Admin is only for the project's administrators.",
        },
        {
          code: 'policy_generator',
          usable: false,
          cause: 'needs_policy_role',
          reason:
            'Policy Generator needs a role in Policy Management, which you do not have yet. A project administrator can give you one in Manage Users.',
        },
      ],
    });
  });

  it('monitoring, policy management and chart review: usable with a main role in the app', async () => {
    const s = await setup();
    const author = byCode((await (await ctx.signedIn(s.people.author)).get(s.url)).json().apps);
    expect(author.monitoring?.usable).toBe(true);
    expect(author.policy_management?.usable).toBe(true);
    expect(author.chart_review).toMatchObject({ usable: false, cause: 'no_role' });
    const reader = byCode((await (await ctx.signedIn(s.people.reader)).get(s.url)).json().apps);
    expect(reader.monitoring).toMatchObject({ usable: false, cause: 'no_role' });
    expect(reader.policy_management).toEqual({ code: 'policy_management', usable: true, reason: null, cause: null });
    expect(reader.chart_review?.usable).toBe(true);
  });

  it('standards: a standards role; project admins and superadmins are standards admins', async () => {
    const s = await setup();
    for (const who of ['reader', 'admin', 'superadmin'] as const) {
      const apps = byCode((await (await ctx.signedIn(s.people[who])).get(s.url)).json().apps);
      expect(apps.standards?.usable, who).toBe(true);
    }
    const author = byCode((await (await ctx.signedIn(s.people.author)).get(s.url)).json().apps);
    expect(author.standards).toMatchObject({ usable: false, cause: 'no_standards_role' });
  });

  it('admin: project admins and superadmins only', async () => {
    const s = await setup();
    const admin = byCode((await (await ctx.signedIn(s.people.admin)).get(s.url)).json().apps);
    expect(admin.admin?.usable).toBe(true);
    // A project admin without main roles: Admin and Standards, not the apps that need a main role.
    expect(usable(Object.values(admin))).toEqual(['standards', 'admin']);
    const reader = byCode((await (await ctx.signedIn(s.people.reader)).get(s.url)).json().apps);
    expect(reader.admin).toMatchObject({ usable: false, cause: 'admins_only' });
  });

  it("policy generator: a policy role whose rules allow the generator's section, with policy management on", async () => {
    const s = await setup();
    const author = byCode((await (await ctx.signedIn(s.people.author)).get(s.url)).json().apps);
    expect(author.policy_generator?.usable).toBe(true);
    const reader = await ctx.signedIn(s.people.reader);
    expect(byCode((await reader.get(s.url)).json().apps).policy_generator).toEqual({
      code: 'policy_generator',
      usable: false,
      cause: 'policy_role_excludes',
      reason:
        'Your role in Policy Management does not include Policy Generator. A project administrator can change it in Manage Users.',
    });
    // The project's own rule (the superadmin's permission matrix) decides, not a copy of the defaults.
    await db()
      .insert(permissionRules)
      .values({
        projectId: s.project.id,
        app: 'policy_management',
        path: 'policy-generator',
        allowedRoles: ['reader'],
      });
    const after = byCode((await reader.get(s.url)).json().apps).policy_generator;
    expect(after?.usable).toBe(true);
    expect((await reader.get(`/api/projects/${s.project.id}/policy-generator/templates`)).statusCode).toBe(200);
    const author2 = byCode((await (await ctx.signedIn(s.people.author)).get(s.url)).json().apps);
    expect(author2.policy_generator).toMatchObject({ usable: false, cause: 'policy_role_excludes' });
  });

  it('policy generator without policy management: not usable, even by a superadmin', async () => {
    const s = await setup(['policy_generator', 'monitoring']);
    for (const who of ['superadmin', 'author'] as const) {
      const apps = (await (await ctx.signedIn(s.people[who])).get(s.url)).json().apps;
      expect(apps.map((app: Answer) => app.code)).toEqual(['monitoring', 'policy_generator']);
      expect(byCode(apps).policy_generator, who).toEqual({
        code: 'policy_generator',
        usable: false,
        cause: 'needs_policy_management',
        reason: 'Policy Generator needs Policy Management, which is not switched on for this project.',
      });
    }
  });

  it('lists only active apps, in the order of the app codes; a superadmin can open every one', async () => {
    const s = await setup(['standards', 'unknown_app', 'monitoring', 'admin']);
    const superadmin = await ctx.signedIn(s.people.superadmin);
    expect((await superadmin.get(s.url)).json().apps).toEqual([
      { code: 'monitoring', usable: true, reason: null, cause: null },
      { code: 'standards', usable: true, reason: null, cause: null },
      { code: 'admin', usable: true, reason: null, cause: null },
    ]);
    const all = await setup();
    expect(usable((await superadmin.get(all.url)).json().apps)).toEqual([...APP_CODES]);
  });

  it("agrees with each app's own gate: usable exactly when its first read is not refused", async () => {
    const s = await setup();
    const id = s.project.id;
    const gates: Record<AppCode, string> = {
      monitoring: `/api/projects/${id}/monitoring/pages`,
      policy_management: `/api/projects/${id}/policy-management/documents`,
      chart_review: `/api/projects/${id}/chart-review/dashboard`,
      standards: `/api/projects/${id}/standards/me`,
      admin: `/api/projects/${id}/admin/dashboard`,
      policy_generator: `/api/projects/${id}/policy-generator/templates`,
    };
    for (const who of ['admin', 'author', 'reader', 'noRole', 'superadmin'] as const) {
      const agent = await ctx.signedIn(s.people[who]);
      for (const app of (await agent.get(s.url)).json().apps as Answer[]) {
        const status = (await agent.get(gates[app.code])).statusCode;
        expect(status === 403, `${who} ${app.code}: ${status}`).toBe(!app.usable);
        expect(status, `${who} ${app.code}`).not.toBe(404);
      }
    }
  });

  it('asks PostgreSQL at most two statements: the session statement reads what every gate needs', async () => {
    const s = await setup();
    const reader = await ctx.signedIn(s.people.reader);
    let status = 0;
    const texts = await statementsOf(ctx.db.handle.pool, async () => {
      const res = await reader.get(s.url);
      status = res.statusCode;
      expect(usable(res.json().apps)).toEqual(['policy_management', 'chart_review', 'standards']);
    });
    expect(status).toBe(200);
    expect(texts.length).toBeLessThanOrEqual(2);
    // Main roles, rules and the standards role are read once, with the session.
    expect(texts.filter((text) => /"(project_member_roles|permission_rules|std_members)"/.test(text))).toHaveLength(1);
  });
});
