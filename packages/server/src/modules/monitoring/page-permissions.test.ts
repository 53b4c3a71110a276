import { and, count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { insertPage, monitoringProject } from '../../../test/monitoring-kit.js';
import { auditEvents, monPagePermissions, monPages, monRoleMembers, monRoles } from '../../db/schema/index.js';
import type { MonitoringActor } from '../../policies/monitoring.js';
import { loadPageAccess } from './page-access.js';

describe('page permissions', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;

  /**
   * Domain A (open) > Programme A1 > Indicator A1a; Domain B (restricted) > Programme B1 > Indicator B1a (restricted
   * again) ; the "Infection control" role holds the owner and the viewer.
   */
  async function setup() {
    const s = await monitoringProject(db());
    const p = s.project.id;
    const a = await insertPage(db(), p, { title: 'Domain A', number: '1', position: 0 });
    const a1 = await insertPage(db(), p, { title: 'Programme A1', number: '1.1', parentId: a.id, depth: 2 });
    const a1a = await insertPage(db(), p, { title: 'Indicator A1a', number: '1.1.1', parentId: a1.id, depth: 3 });
    const b = await insertPage(db(), p, { title: 'Secret domain', number: '2', position: 1, restricted: true });
    const b1 = await insertPage(db(), p, { title: 'Programme B1', number: '2.1', parentId: b.id, depth: 2 });
    const b1a = await insertPage(db(), p, {
      title: 'Indicator B1a',
      number: '2.1.1',
      parentId: b1.id,
      depth: 3,
      restricted: true,
    });
    const foreignPage = await insertPage(db(), s.other.id, { title: 'Foreign page' });
    const [role] = await db().insert(monRoles).values({ projectId: p, name: 'Infection control' }).returning();
    const [foreignRole] = await db().insert(monRoles).values({ projectId: s.other.id, name: 'Foreign' }).returning();
    await db()
      .insert(monRoleMembers)
      .values([
        { projectId: p, roleId: role!.id, userId: s.people.owner.id },
        { projectId: p, roleId: role!.id, userId: s.people.viewer.id },
      ]);
    return {
      ...s,
      pages: { a, a1, a1a, b, b1, b1a },
      foreignPage,
      role: role!,
      foreignRole: foreignRole!,
      base: `/api/projects/${p}/monitoring`,
      admin: await ctx.signedIn(s.people.admin),
    };
  }

  const actorOf = (projectId: number, userId: number, role: string): MonitoringActor => ({
    userId,
    projectId,
    isSuperadmin: false,
    role,
    rules: [],
    ip: null,
    requestId: null,
  });
  const snapshot = async () => ({
    pages: await db().select().from(monPages),
    grants: await db().select().from(monPagePermissions),
    audit: (await db().select({ n: count() }).from(auditEvents))[0]!.n,
  });

  it('guards both calls: 401 signed out, 403 without a role or a non-admin role, 404 outside; nothing changes', async () => {
    const s = await setup();
    const body = { restricted: false, grants: [{ role_id: s.role.id, level: 'view' }] };
    const agents = {
      anonymous: await ctx.anonymous(),
      ...(await ctx.signedInAll(s.people, 'noRole', 'viewer', 'owner', 'dataEntry', 'outsider')),
    };
    const before = await snapshot();
    for (const [who, status] of [
      ['anonymous', 401],
      ['noRole', 403],
      ['viewer', 403],
      ['owner', 403],
      ['dataEntry', 403],
      ['outsider', 404],
    ] as const) {
      const agent = agents[who];
      const list = await agent.get(`${s.base}/page-permissions`);
      expect(list.statusCode, `GET as ${who}`).toBe(status);
      expect(list.body).not.toContain('Secret domain');
      const put = await agent.put(`${s.base}/pages/${s.pages.b.id}/permissions`, body);
      expect(put.statusCode, `PUT as ${who}`).toBe(status);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('lists every page in tree order with its grants and the grants inherited down to a restricted page', async () => {
    const s = await setup();
    await db()
      .insert(monPagePermissions)
      .values([
        { projectId: s.project.id, pageId: s.pages.b.id, roleId: s.role.id, level: 'view' },
        { projectId: s.project.id, pageId: s.pages.b1.id, roleId: s.role.id, level: 'edit' },
        { projectId: s.project.id, pageId: s.pages.b.id, userId: s.people.dataEntry.id, level: 'manage' },
        { projectId: s.project.id, pageId: s.pages.a.id, userId: s.people.dataEntry.id, level: 'edit' },
      ]);
    const answer = await s.admin.get(`${s.base}/page-permissions`);
    expect(answer.statusCode, answer.body).toBe(200);
    const { pages, roles, people } = answer.json();
    expect(pages.map((p: { number: string; open: boolean }) => [p.number, p.open])).toEqual([
      ['1', true],
      ['1.1', true],
      ['1.1.1', true],
      ['2', false],
      ['2.1', false],
      ['2.1.1', false],
    ]);
    expect(roles).toEqual([{ id: s.role.id, name: 'Infection control' }]);
    expect(people.map((p: { name: string }) => p.name)).toEqual([
      'Ada Admin',
      'Dana Entry',
      'Owen Owner',
      'Vera Viewer',
    ]);
    const row = (number: string) => pages.find((p: { number: string }) => p.number === number);
    expect(row('2').grants).toEqual([
      expect.objectContaining({ role: { id: s.role.id, name: 'Infection control' }, user: null, level: 'view' }),
      expect.objectContaining({ role: null, user: { id: s.people.dataEntry.id, name: 'Dana Entry' }, level: 'manage' }),
    ]);
    const from = { id: s.pages.b.id, number: '2', title: 'Secret domain' };
    expect(row('2.1').effective).toEqual(
      expect.arrayContaining([
        { role: { id: s.role.id, name: 'Infection control' }, user: null, level: 'edit', inherited_from: null },
        {
          role: null,
          user: { id: s.people.dataEntry.id, name: 'Dana Entry' },
          level: 'manage',
          inherited_from: from,
        },
      ]),
    );
    expect(row('2.1').grants).toHaveLength(1);
    // The restricted indicator starts afresh: nothing is inherited.
    expect(row('2.1.1').effective).toEqual([]);
    expect(row('1.1.1').effective).toEqual([
      {
        role: null,
        user: { id: s.people.dataEntry.id, name: 'Dana Entry' },
        level: 'edit',
        inherited_from: { id: s.pages.a.id, number: '1', title: 'Domain A' },
      },
    ]);
  });

  it('a restricted page hides its branch from a viewer until their role gets a grant', async () => {
    const s = await setup();
    const viewer = actorOf(s.project.id, s.people.viewer.id, 'viewer');
    const before = await loadPageAccess(db(), viewer);
    expect([before.get(s.pages.a1a.id), before.get(s.pages.b.id), before.get(s.pages.b1.id)]).toEqual([
      'view',
      'none',
      'none',
    ]);
    const denied = await (await ctx.signedIn(s.people.viewer)).get(`${s.base}/page-permissions`);
    expect(denied.statusCode).toBe(403);
    expect(denied.body).not.toContain('Secret domain');

    const saved = await s.admin.put(`${s.base}/pages/${s.pages.b.id}/permissions`, {
      restricted: true,
      grants: [{ role_id: s.role.id, level: 'view' }],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({
      id: s.pages.b.id,
      restricted: true,
      grants: [{ role: { id: s.role.id, name: 'Infection control' }, user: null, level: 'view' }],
      effective: [{ role: { id: s.role.id, name: 'Infection control' }, level: 'view', inherited_from: null }],
    });
    const after = await loadPageAccess(db(), viewer);
    expect([after.get(s.pages.b.id), after.get(s.pages.b1.id), after.get(s.pages.b1a.id)]).toEqual([
      'view',
      'view',
      'none',
    ]);
    // Someone outside the role still sees nothing of the branch.
    const dataEntry = await loadPageAccess(db(), actorOf(s.project.id, s.people.dataEntry.id, 'data_entry'));
    expect(dataEntry.get(s.pages.b.id)).toBe('none');
  });

  it('reads every person’s access from the one grant matrix: inheritance, restricted branches, roles, owners', async () => {
    const s = await setup();
    const p = s.project.id;
    // The owner owns B1a (restricted, no grant): owning still opens it only when B1 is visible.
    await db().update(monPages).set({ ownerId: s.people.owner.id }).where(eq(monPages.id, s.pages.b1a.id));
    await db().update(monPages).set({ ownerId: s.people.dataEntry.id }).where(eq(monPages.id, s.pages.b1.id));
    await db()
      .insert(monPagePermissions)
      .values([
        { projectId: p, pageId: s.pages.b.id, roleId: s.role.id, level: 'view' },
        { projectId: p, pageId: s.pages.b1.id, userId: s.people.viewer.id, level: 'manage' },
        { projectId: p, pageId: s.pages.b1a.id, userId: s.people.dataEntry.id, level: 'edit' },
        { projectId: p, pageId: s.pages.a1.id, roleId: s.role.id, level: 'edit' },
        { projectId: p, pageId: s.pages.a.id, userId: s.people.viewer.id, level: 'view' },
      ]);
    const levels: Record<string, Record<string, string>> = {};
    for (const who of ['owner', 'viewer', 'dataEntry'] as const) {
      const actor = actorOf(p, s.people[who].id, who === 'dataEntry' ? 'data_entry' : who);
      const access = await loadPageAccess(db(), actor);
      levels[who] = Object.fromEntries(
        Object.values(s.pages).map((page) => [page.title, access.get(page.id) ?? 'none']),
      );
    }
    expect(levels).toEqual({
      // In the role: the role's grants flow down to the next restricted page; their own grant on B1 raises it.
      viewer: {
        'Domain A': 'view',
        'Programme A1': 'edit',
        'Indicator A1a': 'edit',
        'Secret domain': 'view',
        'Programme B1': 'manage',
        'Indicator B1a': 'none',
      },
      // In the role too, and the owner of the restricted B1a below a page they see.
      owner: {
        'Domain A': 'view',
        'Programme A1': 'edit',
        'Indicator A1a': 'edit',
        'Secret domain': 'view',
        'Programme B1': 'view',
        'Indicator B1a': 'edit',
      },
      // Outside the role: the open branch only; owning B1 and a grant on B1a do not open a hidden branch.
      dataEntry: {
        'Domain A': 'view',
        'Programme A1': 'view',
        'Indicator A1a': 'view',
        'Secret domain': 'none',
        'Programme B1': 'none',
        'Indicator B1a': 'none',
      },
    });
  });

  it('replaces the grants and the restricted flag, bumps the page version and audits the change', async () => {
    const s = await setup();
    await db()
      .insert(monPagePermissions)
      .values({ projectId: s.project.id, pageId: s.pages.a1.id, roleId: s.role.id, level: 'view' });
    const saved = await s.admin.put(`${s.base}/pages/${s.pages.a1.id}/permissions`, {
      restricted: true,
      grants: [
        { user_id: s.people.dataEntry.id, level: 'manage' },
        { role_id: s.role.id, level: 'edit' },
      ],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().grants.map((g: { level: string }) => g.level)).toEqual(['manage', 'edit']);
    const [page] = await db().select().from(monPages).where(eq(monPages.id, s.pages.a1.id));
    expect(page).toMatchObject({ restricted: true, version: 2, updatedBy: s.people.admin.id });
    const [audit] = await db()
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.projectId, s.project.id), eq(auditEvents.action, 'monitoring.page_permissions_changed')),
      );
    expect(audit).toMatchObject({
      subjectType: 'mon_page',
      subjectId: String(s.pages.a1.id),
      actorUserId: s.people.admin.id,
    });
    const grants = {
      from: [{ role_id: s.role.id, user_id: null, level: 'view' }],
      to: [
        { role_id: null, user_id: s.people.dataEntry.id, level: 'manage' },
        { role_id: s.role.id, user_id: null, level: 'edit' },
      ],
    };
    expect(audit!.data).toEqual({
      restricted: { from: false, to: true },
      grants,
      changes: { restricted: { from: false, to: true }, grants },
    });
    // Clearing every grant leaves the page restricted to admins and owners.
    const cleared = await s.admin.put(`${s.base}/pages/${s.pages.a1.id}/permissions`, { restricted: true, grants: [] });
    expect(cleared.json()).toMatchObject({ grants: [], effective: [], restricted: true, open: false });
    const [same] = await db().select().from(monPages).where(eq(monPages.id, s.pages.a1.id));
    expect(same!.version).toBe(2);
  });

  it('refuses bad input per field and index, other projects and unknown pages; nothing changes', async () => {
    const s = await setup();
    const url = `${s.base}/pages/${s.pages.b.id}/permissions`;
    const before = await snapshot();
    const foreign = await s.admin.put(url, {
      restricted: true,
      grants: [
        { role_id: s.foreignRole.id, level: 'view' },
        { user_id: s.people.noRole.id, level: 'view' },
        { user_id: s.people.outsider.id, level: 'edit' },
        { role_id: s.role.id, level: 'view' },
      ],
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().errors).toEqual({
      'grants.0.role_id': ['This role is not a monitoring role of this project.'],
      'grants.1.user_id': ['This person does not take part in monitoring.'],
      'grants.2.user_id': ['This person does not take part in monitoring.'],
    });
    const shape = await s.admin.put(url, {
      grants: [
        { role_id: s.role.id, user_id: s.people.viewer.id, level: 'view' },
        { level: 'view' },
        { role_id: s.role.id, level: 'owner' },
      ],
    });
    expect(shape.statusCode).toBe(400);
    expect(shape.json().errors).toMatchObject({
      restricted: ['Say whether the page is restricted.'],
      'grants.2.level': ['Choose view, edit or manage.'],
    });
    const subjects = await s.admin.put(url, {
      restricted: false,
      grants: [
        { role_id: s.role.id, user_id: s.people.viewer.id, level: 'view' },
        { level: 'view' },
        { role_id: s.role.id, level: 'view' },
        { role_id: s.role.id, level: 'edit' },
      ],
    });
    expect(subjects.json().errors).toEqual({
      'grants.0': ['Choose a role or a person.'],
      'grants.1': ['Choose a role or a person.'],
      'grants.3': ['This role or person already has a grant on the page.'],
    });
    const ok = { restricted: false, grants: [] };
    expect((await s.admin.put(`${s.base}/pages/${s.foreignPage.id}/permissions`, ok)).statusCode).toBe(404);
    expect((await s.admin.put(`${s.base}/pages/999999/permissions`, ok)).statusCode).toBe(404);
    expect((await s.admin.put(`${s.base}/pages/x/permissions`, ok)).statusCode).toBe(400);
    await db().update(monPages).set({ deletedAt: new Date() }).where(eq(monPages.id, s.pages.a1a.id));
    const afterDelete = await snapshot();
    expect((await s.admin.put(`${s.base}/pages/${s.pages.a1a.id}/permissions`, ok)).statusCode).toBe(404);
    expect(await snapshot()).toEqual(afterDelete);
    expect({ ...afterDelete, pages: before.pages }).toEqual(before);
  });
});
