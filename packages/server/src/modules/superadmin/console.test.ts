import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { addMember, createProject, createUser, setMainRole } from '../../../test/factories.js';
import {
  auditEvents,
  emailLog,
  passwordResetTokens,
  permissionRules,
  projectMemberships,
  users,
} from '../../db/schema/index.js';
import { sha256 } from '../../lib/crypto.js';

describe('superadmin console', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;
  const superAgent = async () => ctx.signedIn(await createUser(db(), { role: 'superadmin' }));

  it('creates, searches, edits and deactivates projects (never deletes them)', async () => {
    const agent = await superAgent();
    const created = await agent.post('/super/projects', {
      name: 'Riverside Hospital',
      slug: 'riverside',
      facility_name: 'Riverside General',
      email: 'Quality@Riverside.example',
      active_apps: ['policy_management', 'monitoring', 'monitoring'],
    });
    expect(created.statusCode).toBe(201);
    const project = created.json();
    expect(project).toMatchObject({
      name: 'Riverside Hospital',
      slug: 'riverside',
      email: 'quality@riverside.example',
      active_apps: ['monitoring', 'policy_management'],
      is_active: true,
      member_count: 0,
      logo_url: null,
    });
    const taken = await agent.post('/super/projects', { name: 'Other', slug: 'RIVERSIDE' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().errors).toEqual({ slug: ['This slug is already used by another project.'] });
    const bad = await agent.post('/super/projects', { name: '', slug: 'has space', active_apps: ['payroll'] });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['active_apps.0', 'name', 'slug']);

    const found = (await agent.get('/super/projects?q=riversi')).json();
    expect(found).toMatchObject({ total: 1, projects: [{ id: project.id }] });

    const nurse = await createUser(db());
    await addMember(db(), project.id, nurse.id, 'simple');
    const nurseAgent = await ctx.signedIn(nurse);
    expect((await nurseAgent.get(`/api/projects/${project.id}`)).statusCode).toBe(200);

    const off = await agent.patch(`/super/projects/${project.id}`, { is_active: false, active_apps: ['admin'] });
    expect(off.json()).toMatchObject({ is_active: false, active_apps: ['admin'], member_count: 1 });
    expect((await nurseAgent.get(`/api/projects/${project.id}`)).statusCode).toBe(404);
    expect((await agent.get('/super/projects?status=inactive&q=riverside')).json().total).toBe(1);
    expect((await agent.patch(`/super/projects/${project.id}`, {})).statusCode).toBe(400);
    expect((await agent.patch('/super/projects/999999', { name: 'Ghost' })).statusCode).toBe(404);

    await agent.patch(`/super/projects/${project.id}`, { is_active: true });
    const actions = (await db().select().from(auditEvents).where(eq(auditEvents.projectId, project.id))).map(
      (e) => e.action,
    );
    expect(actions).toEqual(['project.create', 'project.deactivate', 'project.reactivate']);
  });

  it('adds, changes and removes members of a project', async () => {
    const agent = await superAgent();
    const project = await createProject(db());
    const nurse = await createUser(db(), { firstName: 'Nia' });
    const base = `/super/projects/${project.id}/members`;
    const added = await agent.post(base, {
      user_id: nurse.id,
      project_role: 'admin',
      main_roles: { monitoring: 'monitoring_admin' },
    });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({ user_id: nurse.id, project_role: 'admin' });
    expect((await agent.post(base, { user_id: nurse.id })).statusCode).toBe(409);
    expect((await agent.post(base, { user_id: 99999999 })).statusCode).toBe(400);
    expect((await agent.get(base)).json().members).toHaveLength(1);
    expect((await agent.delete(`${base}/${nurse.id}`)).statusCode).toBe(409);
    const second = await createUser(db());
    await agent.post(base, { user_id: second.id, project_role: 'admin' });
    expect((await agent.patch(`${base}/${nurse.id}`, { project_role: 'simple' })).json().project_role).toBe('simple');
    expect((await agent.delete(`${base}/${nurse.id}`)).statusCode).toBe(204);
    expect(
      await db()
        .select()
        .from(projectMemberships)
        .where(and(eq(projectMemberships.projectId, project.id), eq(projectMemberships.userId, nurse.id))),
    ).toEqual([]);
    expect((await agent.get('/super/projects/999999/members')).statusCode).toBe(404);
  });

  it('approves a request: the account is created, joins the project and is invited; a decided request stays decided', async () => {
    const agent = await superAgent();
    const project = await createProject(db(), { name: 'Hill Clinic' });
    const admin = await createUser(db(), { firstName: 'Ada' });
    await addMember(db(), project.id, admin.id, 'admin');
    const adminAgent = await ctx.signedIn(admin);
    const filed = await adminAgent.post(`/api/projects/${project.id}/admin/user-requests`, {
      first_name: 'Rita',
      last_name: 'Reviewer',
      email: 'rita.reviewer@example.org',
      main_roles: { policy_management: 'reviewer' },
      justification: 'New committee member',
    });
    const id = filed.json().id;
    expect((await agent.get('/super/user-requests')).json().requests.map((r: { id: number }) => r.id)).toContain(id);

    const approved = await agent.post(`/super/user-requests/${id}/approve`, {});
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toMatchObject({ status: 'approved', decided_by: { id: expect.any(Number) } });
    const [rita] = await db().select().from(users).where(eq(users.email, 'rita.reviewer@example.org'));
    expect(rita).toMatchObject({ username: 'rita.reviewer', status: 'invited' });
    expect(approved.json().user_id).toBe(rita!.id);
    const member = await adminAgent.get(`/api/projects/${project.id}/admin/members/${rita!.id}`);
    expect(member.json().main_roles.policy_management).toBe('reviewer');
    expect(ctx.mailbox.last('rita.reviewer@example.org')?.text).toContain('for Hill Clinic');

    const again = await agent.post(`/super/user-requests/${id}/approve`, {});
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This request was already approved.');
    expect((await agent.post(`/super/user-requests/${id}/reject`, { reason: 'Too late' })).statusCode).toBe(409);
  });

  it('rejects a request with a reason emailed to the admin who asked', async () => {
    const agent = await superAgent();
    const project = await createProject(db());
    const admin = await createUser(db());
    await addMember(db(), project.id, admin.id, 'admin');
    const adminAgent = await ctx.signedIn(admin);
    const id = (
      await adminAgent.post(`/api/projects/${project.id}/admin/user-requests`, {
        first_name: 'Sam',
        last_name: 'Temp',
        email: 'sam.temp@example.org',
        justification: 'Agency nurse',
      })
    ).json().id;
    expect((await agent.post(`/super/user-requests/${id}/reject`, { reason: '' })).statusCode).toBe(400);
    const rejected = await agent.post(`/super/user-requests/${id}/reject`, {
      reason: 'Agency staff use the shared login.',
    });
    expect(rejected.json()).toMatchObject({
      status: 'rejected',
      rejection_reason: 'Agency staff use the shared login.',
    });
    expect(ctx.mailbox.last(admin.email)?.text).toContain('Reason: Agency staff use the shared login.');
    expect(await db().select().from(users).where(eq(users.email, 'sam.temp@example.org'))).toEqual([]);
    expect((await agent.get('/super/user-requests?status=rejected')).json().requests[0].id).toBe(id);
  });

  it('lists the email log, shows a body, and resends only a failed email', async () => {
    const agent = await superAgent();
    const project = await createProject(db(), { name: 'Mail Clinic' });
    const [failed] = await db()
      .insert(emailLog)
      .values({
        toAddress: 'x@example.org',
        subject: 'Welcome aboard',
        template: 't',
        bodyText: 'Hi <b>there</b>',
        status: 'failed',
        error: 'Connection refused',
        projectId: project.id,
      })
      .returning();
    const [sent] = await db()
      .insert(emailLog)
      .values({ toAddress: 'y@example.org', subject: 'Other', template: 't', status: 'sent' })
      .returning();
    const list = (await agent.get('/super/email-logs?status=failed&q=welcome')).json();
    expect(list.emails).toEqual([
      expect.objectContaining({
        id: failed!.id,
        error: 'Connection refused',
        project: { id: project.id, name: 'Mail Clinic' },
      }),
    ]);
    expect((await agent.get(`/super/email-logs/${failed!.id}`)).json().body).toBe('Hi <b>there</b>');
    expect((await agent.post(`/super/email-logs/${sent!.id}/resend`)).statusCode).toBe(409);
    expect((await agent.post(`/super/email-logs/${failed!.id}/resend`)).statusCode).toBe(200);
    expect(ctx.mailbox.resent).toEqual([failed!.id]);
    expect((await agent.get('/super/email-logs/99999999')).statusCode).toBe(404);
  });

  it('shows no set-password link, says what became of it, audits each opening, and will not resend a lost one', async () => {
    const agent = await superAgent();
    const person = await createUser(db());
    const token = 'ab'.repeat(32);
    const hash = sha256(token);
    const now = ctx.clock.now();
    await db()
      .insert(passwordResetTokens)
      .values({ userId: person.id, tokenHash: hash, createdAt: now, expiresAt: new Date(now.getTime() + 3_600_000) });
    // Written through the outbox like every message: the log keeps a marker and the token's hash.
    await ctx.app.mailer.send({
      to: person.email,
      subject: 'Reset your password',
      template: 'password_reset',
      text: `Open https://portal.test/reset-password?token=${token}&email=x to choose one.`,
    });
    const [row] = await db().select().from(emailLog).where(eq(emailLog.linkTokenHash, hash));
    const opened = (await agent.get(`/super/email-logs/${row!.id}`)).json();
    expect(opened.body).toBe('Open [set-password link removed] to choose one.');
    expect(opened.body).not.toContain(token);
    expect(opened.link).toEqual({ state: 'unused', at: new Date(now.getTime() + 3_600_000).toISOString() });
    await db().update(passwordResetTokens).set({ usedAt: now }).where(eq(passwordResetTokens.tokenHash, hash));
    expect((await agent.get(`/super/email-logs/${row!.id}`)).json().link).toEqual({
      state: 'used',
      at: now.toISOString(),
    });
    const views = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'email.body_viewed'), eq(auditEvents.subjectId, String(row!.id))));
    expect(views).toHaveLength(2);

    // Failed after its sealed copy went: sending the marker would help nobody.
    await db().update(emailLog).set({ status: 'failed', sealedBody: null }).where(eq(emailLog.id, row!.id));
    const refused = await agent.post(`/super/email-logs/${row!.id}/resend`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/no longer kept/);
  });

  it('a matrix change locks a section for a role, the engine reads it, copy and reset work', async () => {
    const agent = await superAgent();
    const project = await createProject(db());
    const source = await createProject(db());
    const member = await createUser(db());
    await addMember(db(), project.id, member.id, 'simple');
    await setMainRole(db(), project.id, member.id, 'monitoring', 'viewer');
    const memberAgent = await ctx.signedIn(member);
    const permissions = async () =>
      (await memberAgent.get(`/api/me/permissions?project=${project.id}&app=monitoring`)).json().permissions;
    expect((await permissions())['monitoring:pages']).toBe(true);

    const matrix = (await agent.get(`/super/permissions/monitoring?project=${project.id}`)).json();
    expect(matrix.roles).toEqual(['monitoring_admin', 'page_owner', 'data_entry', 'viewer']);
    expect(matrix.sections.find((s: { path: string }) => s.path === 'pages')).toMatchObject({
      is_default: true,
      locked: false,
    });

    const saved = await agent.put('/super/permissions/monitoring', {
      project_id: project.id,
      sections: [
        { path: 'pages', allowed_roles: [] },
        { path: 'introduction', allowed_roles: ['monitoring_admin'] },
      ],
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().sections.find((s: { path: string }) => s.path === 'pages')).toMatchObject({
      locked: true,
      is_default: false,
    });
    expect(await permissions()).toMatchObject({ 'monitoring:pages': false, 'monitoring:introduction': false });
    expect(await db().select().from(permissionRules).where(eq(permissionRules.projectId, project.id))).toHaveLength(2);

    const invalid = await agent.put('/super/permissions/monitoring', {
      project_id: project.id,
      sections: [{ path: 'nowhere', allowed_roles: ['wizard'] }],
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().errors).toEqual({
      'sections.0.path': ['"nowhere" is not a section of this app.'],
      'sections.0.allowed_roles': ['Unknown role: wizard.'],
    });

    const copied = await agent.post('/super/permissions/monitoring/copy', {
      project_id: project.id,
      from_project_id: source.id,
    });
    expect(copied.json().sections.every((s: { is_default: boolean }) => s.is_default)).toBe(true);
    expect((await permissions())['monitoring:pages']).toBe(true);
    await agent.put('/super/permissions/monitoring', {
      project_id: project.id,
      sections: [{ path: 'pages', allowed_roles: [] }],
    });
    await agent.post('/super/permissions/monitoring/reset', { project_id: project.id });
    expect((await permissions())['monitoring:pages']).toBe(true);
    expect((await agent.get('/super/permissions/payroll?project=1')).statusCode).toBe(400);
    expect((await agent.get('/super/permissions/monitoring?project=99999999')).statusCode).toBe(404);
    const actions = (await db().select().from(auditEvents).where(eq(auditEvents.projectId, project.id))).map(
      (e) => e.action,
    );
    expect(actions).toEqual(['permissions.update', 'permissions.copy', 'permissions.update', 'permissions.reset']);
  });

  it('filters the audit log and exports it as CSV safe for spreadsheets; the dashboard counts', async () => {
    const agent = await superAgent();
    const project = await createProject(db(), { name: 'Audit "Clinic"' });
    await db()
      .insert(auditEvents)
      .values([
        { action: 'demo.first', projectId: project.id, data: { note: '=HYPERLINK("x")' } },
        { action: 'demo.second', projectId: project.id },
        { action: 'other.thing' },
      ]);
    const list = (await agent.get(`/super/audit-events?project=${project.id}&action=demo.`)).json();
    expect(list.events.map((e: { action: string }) => e.action)).toEqual(['demo.second', 'demo.first']);
    expect((await agent.get('/super/audit-events?action=DROP TABLE')).statusCode).toBe(400);
    expect((await agent.get('/super/audit-events?from=yesterday')).statusCode).toBe(400);
    const future = (await agent.get(`/super/audit-events?project=${project.id}&from=2999-01-01T00:00:00Z`)).json();
    expect(future.total).toBe(0);

    const csv = await agent.get(`/super/audit-events.csv?project=${project.id}`);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="audit-log-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe('id,time,actor_id,actor,action,project_id,project,subject_type,subject_id,ip,data');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toContain('"Audit ""Clinic"""');
    expect(lines[2]).toContain('"{""note"":""=HYPERLINK(\\""x\\"")""}"');

    const dashboard = (await agent.get('/super/dashboard')).json();
    expect(dashboard.counts.projects).toBeGreaterThanOrEqual(1);
    expect(dashboard.latest_audit_events.length).toBeGreaterThan(0);
    expect(
      (await agent.post('/super/sanitize', { html: '<a href="javascript:alert(1)">x</a><img src=x onerror=y>' })).json()
        .html,
    ).toBe('<a>x</a><img src="x">');
  });
});
