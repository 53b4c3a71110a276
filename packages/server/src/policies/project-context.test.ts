import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app.js';
import { insertPage, monitoringProject } from '../../test/monitoring-kit.js';
import { standardsProject } from '../../test/standards-kit.js';
import { statementsOf as statementsOfPool } from '../../test/statements.js';
import { projectMemberRoles, projectMemberships, stdMembers } from '../db/schema/index.js';
import { notify } from '../modules/notifications/notifications.service.js';

/**
 * A read of a project's address asks PostgreSQL for the session, the project, the membership, the main roles and the
 * permission rules in one statement (plugins/session.ts ProjectContext): its guards add no round trip of their own.
 * Writes still read access inside their own work. Issue 31.
 */
describe('the project read with the session', () => {
  const ctx = useTestApp({ env: { MFA_REQUIRED_ROLES: 'superadmin' } });
  const db = () => ctx.db.handle.db;
  const GUARD_TABLES = /"(sessions|projects|project_memberships|project_member_roles|permission_rules)"/;

  const statementsOf = (run: () => Promise<unknown>) => statementsOfPool(ctx.db.handle.pool, run);

  it('answers the notifications list in two statements: the session with its project, and the list', async () => {
    const s = await monitoringProject(db());
    await notify(db(), {
      userIds: [s.people.viewer.id],
      projectId: s.project.id,
      message: 'Hello',
      now: ctx.clock.now(),
    });
    const viewer = await ctx.signedIn(s.people.viewer);
    let status = 0;
    const texts = await statementsOf(async () => {
      const answer = await viewer.get(`/api/projects/${s.project.id}/notifications/`);
      status = answer.statusCode;
      expect(answer.json().notifications.map((n: { message: string }) => n.message)).toEqual(['Hello']);
    });
    expect(status).toBe(200);
    const own = texts.filter((text) => GUARD_TABLES.test(text) || /"notifications"/.test(text));
    expect(own).toHaveLength(2);
    expect(own[0]).toMatch(/"permission_rules"/);
    expect(own[1]).toMatch(/from "notifications"/);
  });

  it('guards a monitoring read with what the session read: no statement of its own', async () => {
    const s = await monitoringProject(db());
    await insertPage(db(), s.project.id, { title: 'Falls', number: '1' });
    const viewer = await ctx.signedIn(s.people.viewer);
    const texts = await statementsOf(async () => {
      const answer = await viewer.get(`/api/projects/${s.project.id}/monitoring/pages`);
      expect(answer.statusCode).toBe(200);
      expect(answer.json().pages.map((p: { title: string }) => p.title)).toEqual(['Falls']);
    });
    const guards = texts.filter((text) => GUARD_TABLES.test(text));
    expect(guards).toHaveLength(1);
  });

  it('reads the standards role with the session: /standards/me asks nothing more, and a role removed is refused', async () => {
    const s = await standardsProject(db());
    const viewer = await ctx.signedIn(s.people.viewer);
    const texts = await statementsOf(async () => {
      const answer = await viewer.get(`${s.base}/me`);
      expect(answer.statusCode).toBe(200);
      expect(answer.json().role).toBe('viewer');
    });
    expect(texts.filter((text) => /"std_members"/.test(text))).toHaveLength(1);
    expect(texts.filter((text) => GUARD_TABLES.test(text) || /"std_members"/.test(text))).toHaveLength(1);
    const admin = await ctx.signedIn(s.people.admin);
    expect((await admin.get(`${s.base}/me`)).json().role).toBe('standards_admin');
    await db().delete(stdMembers).where(eq(stdMembers.userId, s.people.viewer.id));
    expect((await viewer.get(`${s.base}/me`)).statusCode).toBe(403);
  });

  it('still refuses what the context refuses: no role, another project, a membership removed a moment ago', async () => {
    const s = await monitoringProject(db());
    const noRole = await ctx.signedIn(s.people.noRole);
    expect((await noRole.get(`/api/projects/${s.project.id}/monitoring/pages`)).statusCode).toBe(403);
    const viewer = await ctx.signedIn(s.people.viewer);
    expect((await viewer.get(`/api/projects/${s.other.id}/monitoring/pages`)).statusCode).toBe(404);
    expect((await viewer.get(`/api/projects/${s.project.id}/monitoring/pages`)).statusCode).toBe(200);
    await db().delete(projectMemberRoles).where(eq(projectMemberRoles.userId, s.people.viewer.id));
    expect((await viewer.get(`/api/projects/${s.project.id}/monitoring/pages`)).statusCode).toBe(403);
    await db().delete(projectMemberships).where(eq(projectMemberships.userId, s.people.viewer.id));
    expect((await viewer.get(`/api/projects/${s.project.id}/notifications/`)).statusCode).toBe(404);
  });

  it('reads access again inside a write, not from the session', async () => {
    const s = await monitoringProject(db());
    const [id] = await notify(db(), {
      userIds: [s.people.viewer.id],
      projectId: s.project.id,
      message: 'Read me',
      now: ctx.clock.now(),
    });
    const viewer = await ctx.signedIn(s.people.viewer);
    const texts = await statementsOf(async () => {
      const answer = await viewer.request({
        method: 'PATCH',
        url: `/api/projects/${s.project.id}/notifications/${id}/read`,
      });
      expect(answer.statusCode).toBe(204);
    });
    expect(texts.some((text) => /from "projects"/.test(text) && !/"sessions"/.test(text))).toBe(true);
  });
});
