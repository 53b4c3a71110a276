import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createProject, createUser } from '../../../test/factories.js';
import {
  auditEvents,
  emailLog,
  policyDepartmentRoles,
  policyDepartments,
  projectMemberships,
  userImports,
  users,
} from '../../db/schema/index.js';

/** The superadmin's CSV import of people: checked first, all rows or none, invitations counted as they go out. */
describe('superadmin: importing people from a CSV file', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;
  const unique = () => randomBytes(3).toString('hex');

  async function setup() {
    const superadmin = await createUser(db(), { role: 'superadmin' });
    const project = await createProject(db(), { name: `Lakeside ${unique()}` });
    const [icu] = await db()
      .insert(policyDepartments)
      .values({ projectId: project.id, name: 'Intensive Care', code: 'ICU' })
      .returning();
    return { agent: await ctx.signedIn(superadmin), superadmin, project, icu: icu! };
  }

  const HEADER =
    'email,first_name,last_name,username,project,project_role,policy_role,monitoring_role,reader_departments';

  it('checks every row and says what is wrong with each, writing nothing', async () => {
    const { agent, project } = await setup();
    const taken = await createUser(db(), {});
    const id = unique();
    const csv = [
      HEADER,
      `ana.${id}@lakeside.org,Ana,Ruiz,,${project.name},member,reader,,ICU`,
      `not-an-email,Bo,Li,,,,,,`,
      `ana.${id}@lakeside.org,Ana,Again,,,,,,`,
      `${taken.email},Tom,Taken,,,,,,`,
      `cy.${id}@lakeside.org,,Cole,,Nowhere,boss,chief,viewer,`,
      `di.${id}@lakeside.org,Di,Dee,,,,author,,`,
      `ed.${id}@lakeside.org,Ed,Eel,,${project.name},,,viewer,Pharmacy`,
    ].join('\n');
    const before = (await db().select({ n: sql<number>`count(*)::int` }).from(users))[0]!.n;
    const res = await agent.post('/super/users/import/preview', { csv });
    expect(res.statusCode).toBe(200);
    const preview = res.json();
    expect(preview).toMatchObject({ ready: 1, with_problems: 6, file_problems: [] });
    const problems = Object.fromEntries(
      preview.rows.map((r: { line: number; problems: string[] }) => [r.line, r.problems]),
    );
    expect(problems[2]).toEqual([]);
    expect(preview.rows[0]).toMatchObject({
      username: `ana.${id}`,
      project: project.name,
      project_role: 'simple',
      main_roles: { policy_management: 'reader', monitoring: null, chart_review: null },
      reader_departments: ['ICU'],
    });
    expect(problems[3]).toEqual(['“not-an-email” is not a valid email address.']);
    expect(problems[4]).toEqual(['This email address is also on line 2.']);
    expect(problems[5]).toEqual(['An account with this email address already exists.']);
    expect(problems[6]).toEqual([
      'Enter the first name.',
      'No project is named “Nowhere”.',
      '“boss” is not a project role: admin or member.',
      '“chief” is not a policy management role: policy_admin, author, reviewer, signer, reader.',
    ]);
    expect(problems[7]).toEqual(['Roles need a project: name it, or leave the roles empty.']);
    expect(problems[8]).toEqual([
      'Reader departments need a policy role.',
      `“${project.name}” has no policy department “Pharmacy”.`,
    ]);
    expect((await db().select({ n: sql<number>`count(*)::int` }).from(users))[0]!.n).toBe(before);

    // The import refuses a file with problems, whole.
    const refused = await agent.post('/super/users/import', { csv });
    expect(refused.statusCode).toBe(422);
    expect((await db().select({ n: sql<number>`count(*)::int` }).from(users))[0]!.n).toBe(before);
  });

  it('says what is wrong with the file itself', async () => {
    const { agent } = await setup();
    const check = async (csv: string) =>
      (await agent.post('/super/users/import/preview', { csv })).json().file_problems;
    expect(await check('mail,first_name\nx@y.org,X')).toEqual([
      'Unknown column “mail”: the columns are email, first_name, last_name, username, project, project_role, policy_role, monitoring_role, chart_review_role, reader_departments.',
      'The header lacks the required columns email, last_name.',
    ]);
    expect(await check('email,first_name,last_name\n')).toEqual(['The file has a header but no one to import.']);
    expect(await check('email,first_name,last_name\n"unterminated,x,y')).toEqual([
      'The file could not be read as CSV: check its quotes and separators (commas).',
    ]);
    const empty = await agent.post('/super/users/import/preview', { csv: '' });
    expect(empty.statusCode).toBe(400);
  });

  it('imports every row: invited accounts, memberships, main roles and reader duties, audited; invitations counted', async () => {
    const { agent, project, icu, superadmin } = await setup();
    const id = unique();
    const csv = [
      HEADER,
      `ana.${id}@lakeside.org,Ana,Ruiz,,${project.name},admin,reader,viewer,Intensive Care`,
      `bo.${id}@lakeside.org,Bo,Li,bo.${id},,,,,`,
    ].join('\r\n');
    const res = await agent.post('/super/users/import', { csv });
    expect(res.statusCode).toBe(201);
    const status = res.json();
    expect(status).toMatchObject({ total: 2 });

    const [ana] = await db()
      .select()
      .from(users)
      .where(eq(users.email, `ana.${id}@lakeside.org`));
    expect(ana).toMatchObject({ status: 'invited', firstName: 'Ana', lastName: 'Ruiz', username: `ana.${id}` });
    const [membership] = await db()
      .select()
      .from(projectMemberships)
      .where(and(eq(projectMemberships.userId, ana!.id), eq(projectMemberships.projectId, project.id)));
    expect(membership?.projectRole).toBe('admin');
    const duties = await db().select().from(policyDepartmentRoles).where(eq(policyDepartmentRoles.userId, ana!.id));
    expect(duties.map((d) => [d.departmentId, d.role])).toEqual([[icu.id, 'reader']]);
    const [bo] = await db()
      .select()
      .from(users)
      .where(eq(users.email, `bo.${id}@lakeside.org`));
    expect(bo?.status).toBe('invited');

    // The import's count follows its invitations in the email log (logged here: no SMTP in the API tests).
    await expect
      .poll(async () => (await agent.get(`/super/users/imports/${status.id}`)).json(), { timeout: 5_000 })
      .toMatchObject({ total: 2, sent: 2, failed: 0, finished: true });
    expect(ctx.mailbox.last(`ana.${id}@lakeside.org`)?.text).toContain(`for ${project.name}`);
    expect(ctx.mailbox.last(`bo.${id}@lakeside.org`)?.text).toMatch(/\/reset-password\?token=/);

    const audited = await db()
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.actorUserId, superadmin.id), sql`${auditEvents.action} in ('user.create', 'user.import')`),
      );
    expect(audited.map((e) => e.action).sort()).toEqual(['user.create', 'user.create', 'user.import']);
    expect(audited.find((e) => e.action === 'user.import')?.data).toEqual({ import_id: status.id, people: 2 });

    // The same file again: every row's account exists now.
    const again = await agent.post('/super/users/import/preview', { csv });
    expect(again.json()).toMatchObject({ ready: 0, with_problems: 2 });
    // Its invitations were queued with it, in its transaction: the email log links them to the import.
    const invitations = await db().select().from(emailLog).where(eq(emailLog.userImportId, status.id));
    expect(invitations.map((m) => m.toAddress).sort()).toEqual([`ana.${id}@lakeside.org`, `bo.${id}@lakeside.org`]);
    expect((await db().select().from(userImports).where(eq(userImports.id, status.id)))[0]?.total).toBe(2);
  });

  it('is for superadmins only, before anything in the body is read', async () => {
    const member = await createUser(db(), {});
    const agent = await ctx.signedIn(member);
    expect((await agent.post('/super/users/import/preview', { nonsense: true })).statusCode).toBe(403);
    expect((await agent.post('/super/users/import', { csv: 'email\nx@y.org' })).statusCode).toBe(403);
    expect((await agent.get('/super/users/imports/1')).statusCode).toBe(403);
    expect((await ctx.agent().get('/super/users/imports/1')).statusCode).toBe(401);
  });
});
