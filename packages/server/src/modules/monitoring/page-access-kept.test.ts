import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { insertPage, monitoringProject } from '../../../test/monitoring-kit.js';
import { statementsOf } from '../../../test/statements.js';
import { monPagePermissions, monPages, monRoleMembers, monRoles, projects } from '../../db/schema/index.js';

/**
 * The page access an instance keeps between reads (decision record 028): used only while the project's
 * mon_access_version, read with the session, is the one it was read for. Every change below is made in the database
 * directly, as another instance (or a script) would make it: the next read of this instance sees it.
 */
describe('the page access kept between reads', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;
  const version = async (projectId: number) =>
    (await db().select({ v: projects.monAccessVersion }).from(projects).where(eq(projects.id, projectId)))[0]!.v;

  it('follows a grant given and taken away, a page restricted, hidden and added, at the next read', async () => {
    const s = await monitoringProject(db());
    const open = await insertPage(db(), s.project.id, { title: 'Falls', number: '1' });
    const restricted = await insertPage(db(), s.project.id, { title: 'Sepsis', number: '2', restricted: true });
    const viewer = await ctx.signedIn(s.people.viewer);
    const titles = async () => {
      const answer = await viewer.get(`/api/projects/${s.project.id}/monitoring/pages`);
      expect(answer.statusCode).toBe(200);
      return answer.json().pages.map((p: { title: string }) => p.title);
    };
    const charts = async (pageId: number) =>
      (await viewer.get(`/api/projects/${s.project.id}/monitoring/pages/${pageId}/charts`)).statusCode;

    expect(await titles()).toEqual(['Falls']);
    expect(await charts(restricted.id)).toBe(404);
    // Kept: a second read asks PostgreSQL for the session and its own data only.
    const texts = await statementsOf(ctx.db.handle.pool, () => charts(open.id));
    expect(texts.filter((text) => /"mon_page_permissions"/.test(text))).toEqual([]);

    // A grant to the viewer: the restricted page opens at once.
    const before = await version(s.project.id);
    const [grant] = await db()
      .insert(monPagePermissions)
      .values({ projectId: s.project.id, pageId: restricted.id, userId: s.people.viewer.id, level: 'view' })
      .returning();
    expect(await version(s.project.id)).toBe(before + 1);
    expect(await charts(restricted.id)).toBe(200);
    expect(await titles()).toEqual(['Falls', 'Sepsis']);

    // Taken away: refused at once.
    await db().delete(monPagePermissions).where(eq(monPagePermissions.id, grant!.id));
    expect(await charts(restricted.id)).toBe(404);

    // A grant to a role, then the viewer joins the role (membership is read with the session), then leaves it.
    const [role] = await db().insert(monRoles).values({ projectId: s.project.id, name: 'Sepsis team' }).returning();
    await db()
      .insert(monPagePermissions)
      .values({ projectId: s.project.id, pageId: restricted.id, roleId: role!.id, level: 'view' });
    expect(await charts(restricted.id)).toBe(404);
    await db().insert(monRoleMembers).values({ projectId: s.project.id, roleId: role!.id, userId: s.people.viewer.id });
    expect(await charts(restricted.id)).toBe(200);
    await db().delete(monRoleMembers).where(eq(monRoleMembers.userId, s.people.viewer.id));
    expect(await charts(restricted.id)).toBe(404);

    // The open page restricted, then back to draft: hidden from the viewer either way; a new page shows at once.
    await db().update(monPages).set({ restricted: true }).where(eq(monPages.id, open.id));
    expect(await titles()).toEqual([]);
    await db().update(monPages).set({ restricted: false, status: 'draft' }).where(eq(monPages.id, open.id));
    expect(await charts(open.id)).toBe(404);
    await insertPage(db(), s.project.id, { title: 'Pressure injuries', number: '3' });
    expect(await titles()).toEqual(['Pressure injuries']);
  });

  it('moves the version on once per statement, for every project it touched, and not for another', async () => {
    const s = await monitoringProject(db());
    for (const n of ['1', '2', '3']) await insertPage(db(), s.project.id, { title: `Page ${n}`, number: n });
    await insertPage(db(), s.other.id, { title: 'Elsewhere', number: '1' });
    const [mine, theirs] = [await version(s.project.id), await version(s.other.id)];
    await db()
      .update(monPages)
      .set({ title: sql`${monPages.title} || ' (renamed)'` })
      .where(eq(monPages.projectId, s.project.id));
    expect(await version(s.project.id)).toBe(mine + 1);
    expect(await version(s.other.id)).toBe(theirs);
    // A statement that changes nothing moves nothing.
    await db().update(monPages).set({ title: 'x' }).where(eq(monPages.id, -1));
    expect(await version(s.project.id)).toBe(mine + 1);
  });
});
