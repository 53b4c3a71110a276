import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { addMember, createProject, createUser } from '../../../test/factories.js';
import { contactMessages, notifications } from '../../db/schema/index.js';

describe('contact us', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;

  async function setup() {
    const project = await createProject(db(), { name: 'East Clinic' });
    const other = await createProject(db());
    const admin = await createUser(db(), { firstName: 'Ada', lastName: 'Admin' });
    const nurse = await createUser(db(), { firstName: 'Nia', lastName: 'Nurse' });
    const outsider = await createUser(db());
    await addMember(db(), project.id, admin.id, 'admin');
    await addMember(db(), project.id, nurse.id, 'simple');
    await addMember(db(), other.id, outsider.id, 'admin');
    const as = (user: { email: string }) => ctx.signedIn(user);
    return {
      project,
      other,
      admin,
      nurse,
      adminAgent: await as(admin),
      nurseAgent: await as(nurse),
      outsiderAgent: await as(outsider),
    };
  }

  it('a member writes, the admins are notified and emailed, and read it in their inbox', async () => {
    const s = await setup();
    const sent = await s.nurseAgent.post(`/api/projects/${s.project.id}/contact-us`, {
      subject: 'Broken link',
      message: 'Policy 2.1 links nowhere.',
    });
    expect(sent.statusCode).toBe(201);
    const [note] = await db().select().from(notifications).where(eq(notifications.userId, s.admin.id));
    expect(note).toMatchObject({ projectId: s.project.id, message: 'New contact message from Nia Nurse: Broken link' });
    expect(ctx.mailbox.last(s.admin.email)?.subject).toBe('[East Clinic] Broken link');

    const inbox = await s.adminAgent.get(`/api/projects/${s.project.id}/contact-us-messages`);
    expect(inbox.json()).toMatchObject({
      unread: 1,
      messages: [{ subject: 'Broken link', status: 'unread', sender: { name: 'Nia Nurse', email: s.nurse.email } }],
    });
  });

  it('validates the form', async () => {
    const s = await setup();
    const res = await s.nurseAgent.post(`/api/projects/${s.project.id}/contact-us`, {
      subject: '',
      message: 'x'.repeat(5001),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({
      subject: ['Enter a subject.'],
      message: ['Keep the message under 5,000 characters.'],
    });
  });

  it('admins mark, archive and reply; simple members 403; other projects 404 with nothing changed', async () => {
    const s = await setup();
    const { id } = (
      await s.nurseAgent.post(`/api/projects/${s.project.id}/contact-us`, { subject: 'Hello', message: 'Question' })
    ).json();
    const base = `/api/projects/${s.project.id}/contact-us-messages`;
    expect((await s.nurseAgent.get(base)).statusCode).toBe(403);
    expect(
      (await s.nurseAgent.request({ method: 'PATCH', url: `${base}/${id}`, payload: { status: 'archived' } }))
        .statusCode,
    ).toBe(403);
    expect((await s.outsiderAgent.get(base)).statusCode).toBe(404);
    expect(
      (
        await s.outsiderAgent.request({
          method: 'PATCH',
          url: `/api/projects/${s.other.id}/contact-us-messages/${id}`,
          payload: { status: 'archived' },
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await s.outsiderAgent.post(`/api/projects/${s.other.id}/contact-us-messages/${id}/reply`, { message: 'x' }))
        .statusCode,
    ).toBe(404);
    const [unchanged] = await db().select().from(contactMessages).where(eq(contactMessages.id, id));
    expect(unchanged).toMatchObject({ status: 'unread', repliedAt: null });

    expect(
      (await s.adminAgent.request({ method: 'PATCH', url: `${base}/${id}`, payload: { status: 'read' } })).json()
        .status,
    ).toBe('read');
    const reply = await s.adminAgent.post(`${base}/${id}/reply`, { message: 'Thanks, fixed.' });
    expect(reply.json().replied_at).not.toBeNull();
    expect(ctx.mailbox.last(s.nurse.email)?.subject).toBe('Re: Hello');
    expect(ctx.mailbox.last(s.nurse.email)?.text).toContain('Thanks, fixed.');
    expect(
      (await s.adminAgent.request({ method: 'PATCH', url: `${base}/${id}`, payload: { status: 'archived' } })).json()
        .status,
    ).toBe('archived');
    expect((await s.adminAgent.get(base)).json().messages).toHaveLength(0);
    expect((await s.adminAgent.get(`${base}?box=archive`)).json().messages).toHaveLength(1);
    expect(
      (await s.adminAgent.request({ method: 'PATCH', url: `${base}/${id}`, payload: { status: 'gone' } })).statusCode,
    ).toBe(400);
    expect((await ctx.agent().get(base)).statusCode).toBe(401);
  });
});
