import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { addMember, createProject, createUser, TEST_PASSWORD } from '../../../test/factories.js';
import { notify } from './notifications.service.js';

describe('notifications', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;

  async function setup() {
    const project = await createProject(db(), { name: 'North Ward' });
    const other = await createProject(db());
    const nurse = await createUser(db());
    const outsider = await createUser(db());
    await addMember(db(), project.id, nurse.id, 'simple');
    await addMember(db(), other.id, outsider.id, 'simple');
    const agent = ctx.agent();
    await agent.login(nurse.email, TEST_PASSWORD);
    const outsiderAgent = ctx.agent();
    await outsiderAgent.login(outsider.email, TEST_PASSWORD);
    return { project, other, nurse, outsider, agent, outsiderAgent };
  }

  it('lists my unread notifications of the project and marks one read', async () => {
    const s = await setup();
    const [first, second] = await notify(db(), {
      userIds: [s.nurse.id],
      projectId: s.project.id,
      message: 'Policy 1.2 needs your signature',
      link: '/app/policy_management/1/toc',
      now: ctx.clock.now(),
    });
    await notify(db(), { userIds: [s.nurse.id], projectId: s.project.id, message: 'Second', now: ctx.clock.now() });
    await notify(db(), { userIds: [s.nurse.id], projectId: s.other.id, message: 'Elsewhere', now: ctx.clock.now() });
    const list = await s.agent.get(`/api/projects/${s.project.id}/notifications/`);
    expect(list.statusCode).toBe(200);
    const items = list.json().notifications;
    expect(items.map((n: { message: string }) => n.message)).toEqual(['Second', 'Policy 1.2 needs your signature']);
    expect(items[1]).toMatchObject({
      id: first,
      link: '/app/policy_management/1/toc',
      read_at: null,
      project_name: 'North Ward',
    });
    expect(second).toBeUndefined();

    expect(
      (await s.agent.request({ method: 'PATCH', url: `/api/projects/${s.project.id}/notifications/${first}/read` }))
        .statusCode,
    ).toBe(204);
    const after = (await s.agent.get(`/api/projects/${s.project.id}/notifications`)).json().notifications;
    expect(after.map((n: { message: string }) => n.message)).toEqual(['Second']);
  });

  it("never shows or changes another user's or another project's notifications", async () => {
    const s = await setup();
    const [id] = await notify(db(), {
      userIds: [s.nurse.id],
      projectId: s.project.id,
      message: 'Private',
      now: ctx.clock.now(),
    });
    expect((await s.outsiderAgent.get(`/api/projects/${s.project.id}/notifications/`)).statusCode).toBe(404);
    const patch = (agent: typeof s.agent, projectId: number) =>
      agent.request({ method: 'PATCH', url: `/api/projects/${projectId}/notifications/${id}/read` });
    expect((await patch(s.outsiderAgent, s.other.id)).statusCode).toBe(404);
    expect((await patch(s.outsiderAgent, s.project.id)).statusCode).toBe(404);
    // The right user in the wrong project: 404 too, and nothing changed.
    await addMember(db(), s.other.id, s.nurse.id, 'simple');
    expect((await patch(s.agent, s.other.id)).statusCode).toBe(404);
    expect((await s.agent.get(`/api/projects/${s.project.id}/notifications/`)).json().notifications).toHaveLength(1);
    expect((await ctx.agent().get(`/api/projects/${s.project.id}/notifications/`)).statusCode).toBe(401);
    expect(
      (await s.agent.request({ method: 'PATCH', url: `/api/projects/${s.project.id}/notifications/abc/read` }))
        .statusCode,
    ).toBe(400);
  });

  it('superadmins read theirs across projects at /super/notifications', async () => {
    const s = await setup();
    const admin = await createUser(db(), { role: 'superadmin' });
    const [id] = await notify(db(), {
      userIds: [admin.id],
      projectId: s.project.id,
      message: 'New user request',
      now: ctx.clock.now(),
    });
    await notify(db(), { userIds: [admin.id], projectId: null, message: 'System notice', now: ctx.clock.now() });
    const agent = ctx.agent();
    await agent.login(admin.email, TEST_PASSWORD);
    const list = (await agent.get('/super/notifications/')).json().notifications;
    expect(list.map((n: { project_name: string | null }) => n.project_name)).toEqual([null, 'North Ward']);
    expect((await agent.request({ method: 'PATCH', url: `/super/notifications/${id}/read` })).statusCode).toBe(204);
    expect((await s.agent.get('/super/notifications/')).statusCode).toBe(403);
    expect((await s.agent.request({ method: 'PATCH', url: `/super/notifications/${id}/read` })).statusCode).toBe(403);
  });

  it("pushes a new notification to the user's open stream, and only to theirs", async () => {
    const s = await setup();
    const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const cookie = (agent: typeof s.agent) => [...agent.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const open = async (agent: typeof s.agent) => {
      const controller = new AbortController();
      const res = await fetch(`${address}/api/notifications/stream`, {
        headers: { cookie: cookie(agent) },
        signal: controller.signal,
      });
      expect(res.headers.get('content-type')).toContain('text/event-stream');
      const reader = res.body!.getReader();
      let text = '';
      const until = async (pattern: RegExp) => {
        while (!pattern.test(text)) {
          const { value, done } = await reader.read();
          if (done) break;
          text += new TextDecoder().decode(value);
        }
        return text;
      };
      return { until, read: () => text, close: () => controller.abort() };
    };
    const mine = await open(s.agent);
    const theirs = await open(s.outsiderAgent);
    await mine.until(/connected/);
    await notify(db(), {
      userIds: [s.nurse.id],
      projectId: s.project.id,
      message: 'Live one',
      link: '/x',
      now: ctx.clock.now(),
    });
    const received = await mine.until(/event: notification\ndata: .*\n\n/);
    const data = JSON.parse(received.match(/event: notification\ndata: (.*)\n/)![1]!);
    expect(data).toMatchObject({ message: 'Live one', project_name: 'North Ward', read_at: null });
    await new Promise((r) => setTimeout(r, 200));
    expect(theirs.read()).not.toContain('Live one');
    mine.close();
    theirs.close();
    const anonymous = await fetch(`${address}/api/notifications/stream`);
    expect(anonymous.status).toBe(401);
  });
});
