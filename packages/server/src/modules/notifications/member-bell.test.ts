import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { addMember, createProject, createUser, TEST_PASSWORD } from '../../../test/factories.js';
import { notifications, projectMemberships, projects } from '../../db/schema/index.js';
import { notify } from './notifications.service.js';

/** The bell outside a project (issue 29): GET /api/notifications/ and PATCH /api/notifications/{nid}/read. */
describe('notifications across my projects', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;
  const messages = (body: { notifications: { message: string }[] }) => body.notifications.map((n) => n.message);

  async function setup() {
    const a = await createProject(db(), { name: 'Alpha Ward' });
    const b = await createProject(db(), { name: 'Beta Clinic' });
    const c = await createProject(db(), { name: 'Gamma Lab' });
    const nurse = await createUser(db());
    const other = await createUser(db());
    await addMember(db(), a.id, nurse.id, 'simple');
    await addMember(db(), b.id, nurse.id, 'admin');
    await addMember(db(), c.id, other.id, 'simple');
    const send = async (userId: number, projectId: number | null, message: string) =>
      (
        await notify(db(), {
          userIds: [userId],
          projectId,
          message,
          link: `/app/x/${projectId}/y`,
          now: ctx.clock.now(),
        })
      )[0]!;
    const inA = await send(nurse.id, a.id, 'From A');
    const inB = await send(nurse.id, b.id, 'From B');
    // Left over from an earlier membership of C (or sent in a race with the removal): never shown.
    const inC = await send(nurse.id, c.id, 'From C');
    const general = await send(nurse.id, null, 'About no project');
    const theirs = await send(other.id, c.id, 'Theirs');
    const agent = ctx.agent();
    await agent.login(nurse.email, TEST_PASSWORD);
    return { a, b, c, nurse, other, agent, ids: { inA, inB, inC, general, theirs } };
  }

  it('lists my unread notifications of A and B (with project name and id) and none of C', async () => {
    const s = await setup();
    const res = await s.agent.get('/api/notifications/');
    expect(res.statusCode).toBe(200);
    expect(messages(res.json())).toEqual(['About no project', 'From B', 'From A']);
    expect(res.json().notifications[1]).toMatchObject({
      id: s.ids.inB,
      project_id: s.b.id,
      project_name: 'Beta Clinic',
      link: `/app/x/${s.b.id}/y`,
      read_at: null,
    });
    expect(res.json().notifications[0]).toMatchObject({ project_id: null, project_name: null });
    // Both spellings answer.
    expect(messages((await s.agent.get('/api/notifications')).json())).toHaveLength(3);
  });

  it("no longer shows B's once I am removed from B, nor a deactivated project's, and cannot mark them read", async () => {
    const s = await setup();
    await db()
      .delete(projectMemberships)
      .where(and(eq(projectMemberships.projectId, s.b.id), eq(projectMemberships.userId, s.nurse.id)));
    expect(messages((await s.agent.get('/api/notifications/')).json())).toEqual(['About no project', 'From A']);
    expect((await s.agent.patch(`/api/notifications/${s.ids.inB}/read`)).statusCode).toBe(404);
    expect((await s.agent.patch(`/api/notifications/${s.ids.inC}/read`)).statusCode).toBe(404);

    await db().update(projects).set({ isActive: false }).where(eq(projects.id, s.a.id));
    expect(messages((await s.agent.get('/api/notifications/')).json())).toEqual(['About no project']);
    const [row] = await db().select().from(notifications).where(eq(notifications.id, s.ids.inB));
    expect(row!.readAt).toBeNull();
  });

  it("marks one of mine read (204), and another user's is a 404 that changes nothing", async () => {
    const s = await setup();
    expect((await s.agent.patch(`/api/notifications/${s.ids.inA}/read`)).statusCode).toBe(204);
    expect((await s.agent.patch(`/api/notifications/${s.ids.general}/read`)).statusCode).toBe(204);
    expect(messages((await s.agent.get('/api/notifications/')).json())).toEqual(['From B']);

    expect((await s.agent.patch(`/api/notifications/${s.ids.theirs}/read`)).statusCode).toBe(404);
    expect((await s.agent.patch('/api/notifications/2147483000/read')).statusCode).toBe(404);
    expect((await s.agent.patch('/api/notifications/abc/read')).statusCode).toBe(400);
    const [row] = await db().select().from(notifications).where(eq(notifications.id, s.ids.theirs));
    expect(row!.readAt).toBeNull();
  });

  it('needs a session, and the CSRF token to mark read', async () => {
    const s = await setup();
    const anonymous = ctx.agent();
    expect((await anonymous.get('/api/notifications/')).statusCode).toBe(401);
    await anonymous.csrf();
    expect((await anonymous.patch(`/api/notifications/${s.ids.inA}/read`)).statusCode).toBe(401);
    const forged = await s.agent.request({
      method: 'PATCH',
      url: `/api/notifications/${s.ids.inA}/read`,
      headers: { 'x-xsrf-token': 'forged' },
    });
    expect(forged.statusCode).toBe(419);
    expect(messages((await s.agent.get('/api/notifications/')).json())).toContain('From A');
  });

  it('a superadmin gets every project of theirs, as at /super/notifications/', async () => {
    const s = await setup();
    const admin = await createUser(db(), { role: 'superadmin' });
    await notify(db(), { userIds: [admin.id], projectId: s.c.id, message: 'Request in C', now: ctx.clock.now() });
    const agent = ctx.agent();
    await agent.login(admin.email, TEST_PASSWORD);
    const list = (await agent.get('/api/notifications/')).json();
    expect(messages(list)).toEqual(['Request in C']);
    expect(list).toEqual((await agent.get('/super/notifications/')).json());
    expect((await agent.patch(`/api/notifications/${list.notifications[0].id}/read`)).statusCode).toBe(204);
    expect((await agent.patch(`/api/notifications/${s.ids.inA}/read`)).statusCode).toBe(404);
  });

  it('the live stream leaves out a project I am no longer a member of', async () => {
    const s = await setup();
    const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const controller = new AbortController();
    const res = await fetch(`${address}/api/notifications/stream`, {
      headers: { cookie: [...s.agent.jar].map(([k, v]) => `${k}=${v}`).join('; ') },
      signal: controller.signal,
    });
    const reader = res.body!.getReader();
    let text = '';
    const until = async (pattern: RegExp) => {
      while (!pattern.test(text)) {
        const { value, done } = await reader.read();
        if (done) break;
        text += new TextDecoder().decode(value);
      }
    };
    await until(/connected/);
    await db()
      .delete(projectMemberships)
      .where(and(eq(projectMemberships.projectId, s.b.id), eq(projectMemberships.userId, s.nurse.id)));
    await notify(db(), { userIds: [s.nurse.id], projectId: s.b.id, message: 'Late B', now: ctx.clock.now() });
    await notify(db(), { userIds: [s.nurse.id], projectId: s.a.id, message: 'Live A', now: ctx.clock.now() });
    await until(/Live A/);
    // B's was sent first: a last one after a pause shows that it was left out, not late.
    await new Promise((resolve) => setTimeout(resolve, 200));
    await notify(db(), { userIds: [s.nurse.id], projectId: null, message: 'Last one', now: ctx.clock.now() });
    await until(/Last one/);
    expect(text).toContain('Live A');
    expect(text).not.toContain('Late B');
    controller.abort();
  });
});
