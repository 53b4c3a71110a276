import { count } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { addMember, createProject, createUser } from '../../../test/factories.js';
import { auditEvents } from '../../db/schema/index.js';

/**
 * Every superadmin call: 401 signed out, 403 for a project admin and for a simple member, and nothing changes.
 * The behaviour of each call is tested beside its routes.
 */
const CALLS: [method: 'get' | 'post' | 'patch' | 'put' | 'delete', url: string, body?: unknown][] = [
  ['get', '/super/dashboard'],
  ['get', '/super/projects'],
  ['post', '/super/projects', { name: 'Sneaky', slug: 'sneaky' }],
  ['get', '/super/projects/{p}'],
  ['patch', '/super/projects/{p}', { is_active: false }],
  ['put', '/super/projects/{p}/logo', { content_type: 'image/png', data: 'iVBORw0KGgo=' }],
  ['delete', '/super/projects/{p}/logo'],
  ['get', '/super/projects/{p}/members'],
  ['post', '/super/projects/{p}/members', { user_id: 1 }],
  ['patch', '/super/projects/{p}/members/{u}', { project_role: 'admin' }],
  ['delete', '/super/projects/{p}/members/{u}'],
  ['get', '/super/users'],
  ['post', '/super/users', { email: 'x@example.org', username: 'sneaky', first_name: 'S', last_name: 'N' }],
  ['get', '/super/users/{u}'],
  ['patch', '/super/users/{u}', { role: 'superadmin' }],
  ['put', '/super/users/{u}/memberships', { memberships: [] }],
  ['post', '/super/users/{u}/disable'],
  ['post', '/super/users/{u}/reset-two-factor'],
  ['post', '/super/users/{u}/unlock'],
  ['get', '/super/user-requests'],
  ['post', '/super/user-requests/1/approve', {}],
  ['post', '/super/user-requests/1/reject', { reason: 'no' }],
  ['get', '/super/terms'],
  ['get', '/super/terms/editor'],
  ['put', '/super/terms/draft', { content: '<p>Mine now</p>' }],
  ['post', '/super/terms/publish', { content: '<p>Mine now</p>' }],
  ['get', '/super/email-logs'],
  ['post', '/super/email-logs/1/resend'],
  ['get', '/super/permissions/monitoring?project={p}'],
  ['put', '/super/permissions/monitoring', { project_id: 0, sections: [] }],
  ['post', '/super/permissions/monitoring/copy', { project_id: 0, from_project_id: 0 }],
  ['post', '/super/permissions/monitoring/reset', { project_id: 0 }],
  ['get', '/super/audit-events'],
  ['get', '/super/audit-events.csv'],
  ['post', '/super/sanitize', { html: '<p>x</p>' }],
];

describe('superadmin calls refuse everyone else', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;

  it('401 signed out, 403 for a project admin and a simple member, and nothing changes', async () => {
    const project = await createProject(db());
    const admin = await createUser(db());
    const member = await createUser(db());
    await addMember(db(), project.id, admin.id, 'admin');
    await addMember(db(), project.id, member.id, 'simple');
    const anonymous = await ctx.anonymous();
    const agents = { admin: await ctx.signedIn(admin), member: await ctx.signedIn(member) };
    const [before] = await db().select({ n: count() }).from(auditEvents);

    for (const [method, template, body] of CALLS) {
      const url = template
        .replace('{p}', String(project.id))
        .replace('{u}', String(member.id))
        .replace(/\b0\b/g, String(project.id));
      const send = (agent: typeof anonymous) =>
        method === 'get' ? agent.get(url) : method === 'delete' ? agent.delete(url) : agent[method](url, body ?? {});
      expect((await send(anonymous)).statusCode, `${method} ${url} signed out`).toBe(401);
      for (const [who, agent] of Object.entries(agents)) {
        const res = await send(agent);
        expect(res.statusCode, `${method} ${url} as ${who}`).toBe(403);
        expect(res.json().message).toBe('This is for superadmins only.');
      }
    }
    const [after] = await db().select({ n: count() }).from(auditEvents);
    expect(after!.n).toBe(before!.n);
  });
});
