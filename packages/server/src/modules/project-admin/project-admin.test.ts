import { and, count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { addMember, createProject, createUser, setMainRole } from '../../../test/factories.js';
import {
  auditEvents,
  notifications,
  projectMemberRoles,
  projectMemberships,
  projects,
  userRequests,
} from '../../db/schema/index.js';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(24, 1)]);

describe('project Admin app', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;

  async function setup() {
    const project = await createProject(db(), { name: 'North Clinic' });
    const other = await createProject(db(), { name: 'South Clinic' });
    const admin = await createUser(db(), { firstName: 'Ada', lastName: 'Admin' });
    const nurse = await createUser(db(), { firstName: 'Nia', lastName: 'Nurse' });
    const otherAdmin = await createUser(db());
    const superadmin = await createUser(db(), { role: 'superadmin' });
    await addMember(db(), project.id, admin.id, 'admin');
    await addMember(db(), project.id, nurse.id, 'simple');
    await addMember(db(), other.id, otherAdmin.id, 'admin');
    await setMainRole(db(), project.id, nurse.id, 'monitoring', 'viewer');
    return {
      project,
      other,
      admin,
      nurse,
      superadmin,
      adminAgent: await ctx.signedIn(admin),
      nurseAgent: await ctx.signedIn(nurse),
      otherAgent: await ctx.signedIn(otherAdmin),
      superAgent: await ctx.signedIn(superadmin),
    };
  }

  const calls = (p: number, u: number) =>
    [
      ['get', `/api/projects/${p}/admin/dashboard`],
      ['get', `/api/projects/${p}/admin/members/${u}`],
      ['patch', `/api/projects/${p}/admin/members/${u}`, { project_role: 'admin' }],
      ['delete', `/api/projects/${p}/admin/members/${u}`],
      ['get', `/api/projects/${p}/admin/user-requests`],
      [
        'post',
        `/api/projects/${p}/admin/user-requests`,
        { first_name: 'A', last_name: 'B', email: 'ab@example.org', justification: 'Needs access' },
      ],
      ['get', `/api/projects/${p}/admin/details`],
      ['patch', `/api/projects/${p}/admin/details`, { name: 'Taken over' }],
      ['put', `/api/projects/${p}/admin/logo`, { content_type: 'image/png', data: PNG.toString('base64') }],
      ['delete', `/api/projects/${p}/admin/logo`],
    ] as const;

  it("401 signed out, 403 for a simple member, 404 for another project's admin; nothing changes", async () => {
    const s = await setup();
    const anonymous = await ctx.anonymous();
    const snapshot = async () => ({
      audit: (await db().select({ n: count() }).from(auditEvents))[0]!.n,
      members: await db().select().from(projectMemberships).where(eq(projectMemberships.projectId, s.project.id)),
      project: (await db().select().from(projects).where(eq(projects.id, s.project.id)))[0],
      requests: (await db().select({ n: count() }).from(userRequests))[0]!.n,
    });
    const before = await snapshot();
    for (const [method, url, body] of calls(s.project.id, s.nurse.id)) {
      const send = (agent: typeof anonymous) =>
        method === 'get' ? agent.get(url) : method === 'delete' ? agent.delete(url) : agent[method](url, body);
      expect((await send(anonymous)).statusCode, `${method} ${url} signed out`).toBe(401);
      expect((await send(s.nurseAgent)).statusCode, `${method} ${url} as a simple member`).toBe(403);
      const outsider = await send(s.otherAgent);
      expect(outsider.statusCode, `${method} ${url} as another project's admin`).toBe(404);
      expect(outsider.json().message).toBe('Project not found.');
    }
    expect(await snapshot()).toEqual(before);
  });

  it('shows members with roles, pending requests and unread messages', async () => {
    const s = await setup();
    const res = await s.adminAgent.get(`/api/projects/${s.project.id}/admin/dashboard`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.members.map((m: { first_name: string }) => m.first_name)).toEqual(['Ada', 'Nia']);
    expect(body.members[1]).toMatchObject({
      project_role: 'simple',
      main_roles: { monitoring: 'viewer', policy_management: null, chart_review: null },
      two_factor_enabled: false,
    });
    expect(body).toMatchObject({ pending_requests: [], unread_contact_messages: 0 });
  });

  it('changes roles, keeps the last admin, removes a member, and audits each', async () => {
    const s = await setup();
    const base = `/api/projects/${s.project.id}/admin/members`;
    const changed = await s.adminAgent.patch(`${base}/${s.nurse.id}`, {
      main_roles: { policy_management: 'signer', monitoring: null },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().main_roles).toEqual({ monitoring: null, policy_management: 'signer', chart_review: null });

    const badRole = await s.adminAgent.patch(`${base}/${s.nurse.id}`, { main_roles: { monitoring: 'superadmin' } });
    expect(badRole.statusCode).toBe(400);
    const grantSuper = await s.adminAgent.patch(`${base}/${s.nurse.id}`, { project_role: 'superadmin' });
    expect(grantSuper.statusCode).toBe(400);

    const lastAdmin = await s.adminAgent.patch(`${base}/${s.admin.id}`, { project_role: 'simple' });
    expect(lastAdmin.statusCode).toBe(409);
    expect(lastAdmin.json().message).toMatch(/at least one project admin/);

    const removed = await s.adminAgent.delete(`${base}/${s.nurse.id}`);
    expect(removed.statusCode).toBe(204);
    expect(
      await db()
        .select()
        .from(projectMemberRoles)
        .where(and(eq(projectMemberRoles.projectId, s.project.id), eq(projectMemberRoles.userId, s.nurse.id))),
    ).toEqual([]);
    expect((await s.nurseAgent.get(`/api/projects/${s.project.id}`)).statusCode).toBe(404);
    expect((await s.adminAgent.get(`${base}/${s.nurse.id}`)).statusCode).toBe(404);
    const actions = (await db().select().from(auditEvents).where(eq(auditEvents.projectId, s.project.id))).map(
      (e) => e.action,
    );
    expect(actions).toEqual(expect.arrayContaining(['member.update', 'member.remove']));
  });

  it('files a new-user request, notifies the superadmins, and lists it with its status', async () => {
    const s = await setup();
    const url = `/api/projects/${s.project.id}/admin/user-requests`;
    const invalid = await s.adminAgent.post(url, { first_name: '', last_name: 'X', email: 'nope', justification: '' });
    expect(invalid.statusCode).toBe(400);
    expect(Object.keys(invalid.json().errors).sort()).toEqual(['email', 'first_name', 'justification']);

    const filed = await s.adminAgent.post(url, {
      first_name: 'Rita',
      last_name: 'Reviewer',
      email: 'Rita@Example.org',
      project_role: 'simple',
      main_roles: { policy_management: 'reviewer' },
      justification: 'Joins the quality committee.',
    });
    expect(filed.statusCode).toBe(201);
    expect(filed.json()).toMatchObject({
      email: 'rita@example.org',
      status: 'pending',
      project: { id: s.project.id, name: 'North Clinic' },
      requested_by: { id: s.admin.id, name: 'Ada Admin' },
      main_roles: { policy_management: 'reviewer', monitoring: null },
    });
    const [note] = await db().select().from(notifications).where(eq(notifications.userId, s.superadmin.id));
    expect(note).toMatchObject({
      message: 'North Clinic asks for a new user: Rita Reviewer',
      link: '/superadmin/new-user-requests',
    });
    const list = await s.adminAgent.get(url);
    expect(list.json().requests).toHaveLength(1);
    expect((await s.otherAgent.get(`/api/projects/${s.other.id}/admin/user-requests`)).json().requests).toEqual([]);
  });

  it('edits the details and logo but not the active apps', async () => {
    const s = await setup();
    const base = `/api/projects/${s.project.id}/admin`;
    const edited = await s.adminAgent.patch(`${base}/details`, {
      name: 'North Clinic East',
      email: 'quality@north.example',
      active_apps: ['monitoring'],
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ name: 'North Clinic East', email: 'quality@north.example', active_apps: [] });
    expect((await s.adminAgent.patch(`${base}/details`, { email: 'not an email' })).json().errors.email).toEqual([
      'Enter a valid email address.',
    ]);

    const fake = await s.adminAgent.put(`${base}/logo`, {
      content_type: 'image/png',
      data: Buffer.from('<svg onload="alert(1)"/>').toString('base64'),
    });
    expect(fake.statusCode).toBe(400);
    expect(fake.json().errors.data).toEqual(['The file is not a PNG, JPEG or WebP image.']);
    const svg = await s.adminAgent.put(`${base}/logo`, { content_type: 'image/svg+xml', data: 'PHN2Zy8+' });
    expect(svg.statusCode).toBe(400);

    const uploaded = await s.adminAgent.put(`${base}/logo`, {
      content_type: 'image/png',
      data: PNG.toString('base64'),
    });
    expect(uploaded.statusCode).toBe(200);
    const logoUrl = uploaded.json().logo_url as string;
    expect(logoUrl).toMatch(new RegExp(`^/api/projects/${s.project.id}/logo\\?v=\\d+$`));
    const image = await s.nurseAgent.get(logoUrl);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['x-content-type-options']).toBe('nosniff');
    expect(image.rawPayload.equals(PNG)).toBe(true);
    expect((await s.otherAgent.get(logoUrl)).statusCode).toBe(404);

    expect((await s.adminAgent.delete(`${base}/logo`)).json().logo_url).toBeNull();
    expect((await s.nurseAgent.get(logoUrl)).statusCode).toBe(404);
  });
});
