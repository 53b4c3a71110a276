import { and, count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { send } from '../../../test/agent.js';
import { useTestApp } from '../../../test/app.js';
import { addMember, createUser } from '../../../test/factories.js';
import { expectStatuses } from '../../../test/guards-kit.js';
import { workflowProject } from '../../../test/workflow-kit.js';
import { auditEvents, policyDepartmentRoles, policyDepartments } from '../../db/schema/index.js';

describe('department reviewers, signers and readers', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;

  async function setup() {
    const s = await workflowProject(db());
    const base = `/api/projects/${s.project.id}/policy-management`;
    const as = await ctx.signedInAll(s.people, 'admin', 'author', 'reviewer1', 'reviewer2');
    const [foreign] = await db()
      .insert(policyDepartments)
      .values({ projectId: s.other.id, name: 'Elsewhere', code: 'ELS' })
      .returning();
    const dep = (id: number) => `${base}/departments/${id}`;
    /** A draft of Nursing sent to review, approved by Rob; Ruth's review still pending. */
    const halfReviewed = async (title: string) => {
      const created = await as.author.post(`${base}/documents`, {
        title,
        department_id: s.nursing.id,
        content: `<p>${title}</p>`,
      });
      const id = created.json().id as number;
      expect((await as.author.post(`${base}/documents/${id}/send-to-review`, {})).statusCode).toBe(200);
      expect((await as.reviewer1.post(`${base}/documents/${id}/review`, { decision: 'approve' })).statusCode).toBe(200);
      return id;
    };
    const workflow = async (id: number) => (await as.admin.get(`${base}/documents/${id}/workflow`)).json();
    return { ...s, base, as, foreign: foreign!, dep, halfReviewed, workflow };
  }

  const snapshot = async () => ({
    roles: await db()
      .select()
      .from(policyDepartmentRoles)
      .orderBy(policyDepartmentRoles.departmentId, policyDepartmentRoles.role, policyDepartmentRoles.userId),
    audit: (await db().select({ n: count() }).from(auditEvents))[0]!.n,
  });
  const names = (people: { name: string }[]) => people.map((p) => p.name);

  it('guards every call: 401 signed out, 403 without a role or the right one, 404 outside; nothing changes', async () => {
    const s = await setup();
    const d = s.dep(s.nursing.id);
    const doc = await s.halfReviewed('Guarded');
    // [method, url, body, who besides admins may call it]
    const calls: ['get' | 'post' | 'delete', string, unknown, 'admin' | 'all' | 'signer'][] = [
      ['get', `${s.base}/department-assignment-data`, undefined, 'admin'],
      ['get', `${s.base}/department-edit-lists`, undefined, 'admin'],
      ['get', `${s.base}/department-reader-data`, undefined, 'admin'],
      ['get', `${s.base}/department-reader-edit-lists`, undefined, 'admin'],
      ['get', `${s.base}/department-reviewer-data`, undefined, 'admin'],
      ['get', `${s.base}/department-reviewer-management-data`, undefined, 'admin'],
      ['get', `${d}/edit-assignment-data`, undefined, 'admin'],
      ['get', `${d}/reader-edit-data`, undefined, 'admin'],
      ['get', `${d}/reviewer-edit-data`, undefined, 'admin'],
      ['post', `${d}/assign-roles`, { signer_ids: [s.people.admin.id] }, 'admin'],
      ['post', `${d}/assign-readers`, { user_ids: [s.people.author.id] }, 'admin'],
      ['post', `${d}/assign-reviewers`, { user_ids: [s.people.author.id] }, 'admin'],
      ['post', `${d}/update-reviewers`, { user_ids: [s.people.author.id] }, 'admin'],
      ['delete', `${d}/clear-assignments`, undefined, 'admin'],
      ['delete', `${d}/clear-readers`, undefined, 'admin'],
      ['delete', `${d}/remove-all-reviewers`, undefined, 'admin'],
      ['get', `${s.base}/healthy-departments`, undefined, 'all'],
      ['get', `${s.base}/documents/${doc}/attestations`, undefined, 'signer'],
      ['get', `${s.base}/documents/${doc}/attestations.csv`, undefined, 'signer'],
      ['get', `${d}/attestations`, undefined, 'signer'],
      ['get', `${d}/attestations.csv`, undefined, 'signer'],
    ];
    const anonymous = await ctx.anonymous();
    const agents = {
      anonymous,
      noRole: await ctx.signedIn(s.people.noRole),
      reader: await ctx.signedIn(s.people.reader),
      author: s.as.author,
      outsider: await ctx.signedIn(s.people.outsider),
    };
    const before = await snapshot();
    await expectStatuses(agents, calls, ([, , , allowed]) => [
      ['anonymous', 401],
      ['noRole', 403],
      ['reader', allowed === 'all' ? 200 : 403],
      ['author', allowed === 'all' ? 200 : 403],
      ['outsider', 404],
    ]);
    expect(await snapshot()).toEqual(before);
    // A signer may read the attestation reports, not change departments.
    const signer = await ctx.signedIn(s.people.signer1);
    expect((await signer.get(`${d}/attestations`)).statusCode).toBe(200);
    expect((await signer.get(`${s.base}/department-assignment-data`)).statusCode).toBe(403);
  });

  it("answers 404 for another project's department and changes nothing", async () => {
    const s = await setup();
    const d = s.dep(s.foreign.id);
    const before = await snapshot();
    const calls: ['get' | 'post' | 'delete', string, unknown][] = [
      ['get', `${d}/edit-assignment-data`, undefined],
      ['get', `${d}/reader-edit-data`, undefined],
      ['get', `${d}/reviewer-edit-data`, undefined],
      ['post', `${d}/assign-roles`, { signer_ids: [s.people.admin.id] }],
      ['post', `${d}/assign-readers`, { user_ids: [s.people.author.id] }],
      ['post', `${d}/assign-reviewers`, { user_ids: [s.people.author.id] }],
      ['post', `${d}/update-reviewers`, { user_ids: [] }],
      ['delete', `${d}/clear-assignments`, undefined],
      ['delete', `${d}/clear-readers`, undefined],
      ['delete', `${d}/remove-all-reviewers`, undefined],
      ['get', `${d}/attestations`, undefined],
      ['get', `${d}/attestations.csv`, undefined],
    ];
    for (const [method, url, body] of calls) {
      const answer = await send(s.as.admin, method, url, body);
      expect(answer.statusCode, `${method} ${url}`).toBe(404);
      expect(answer.json().message).toBe('Department not found.');
    }
    expect(await snapshot()).toEqual(before);
  });

  it('refuses people who may not hold the role, strangers, duplicates and an empty body, by field', async () => {
    const s = await setup();
    const d = s.dep(s.nursing.id);
    const before = await snapshot();
    const member = await createUser(db(), { firstName: 'Mia', lastName: 'Member' });
    await addMember(db(), s.project.id, member.id, 'simple');

    const ineligible = await s.as.admin.post(`${d}/assign-roles`, {
      signer_ids: [s.people.signer1.id, s.people.reader.id],
      reviewer_ids: [s.people.reader.id],
    });
    expect(ineligible.statusCode).toBe(400);
    expect(ineligible.json().errors).toEqual({
      'reviewer_ids.0': ["This person's main role (reader) may not review for a department."],
      'signer_ids.1': ["This person's main role (reader) may not sign for a department."],
    });
    const author = await s.as.admin.post(`${d}/assign-roles`, { signer_ids: [s.people.author.id] });
    expect(author.json().errors['signer_ids.0']).toEqual([
      "This person's main role (author) may not sign for a department.",
    ]);
    const stranger = await s.as.admin.post(`${d}/assign-readers`, {
      user_ids: [s.people.reader.id, s.people.outsider.id],
    });
    expect(stranger.statusCode).toBe(400);
    expect(stranger.json().errors).toEqual({ 'user_ids.1': ['This person is not a member of the project.'] });
    const notPolicy = await s.as.admin.post(`${d}/assign-reviewers`, { user_ids: [member.id] });
    expect(notPolicy.json().errors).toEqual({
      'user_ids.0': ['This person does not take part in policy management.'],
    });
    const noRole = await s.as.admin.post(`${d}/update-reviewers`, { user_ids: [s.people.noRole.id] });
    expect(noRole.statusCode).toBe(400);
    const twice = await s.as.admin.post(`${d}/update-reviewers`, {
      user_ids: [s.people.author.id, s.people.author.id],
    });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().errors.user_ids).toEqual(['A person is listed twice.']);
    const empty = await s.as.admin.post(`${d}/assign-roles`, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('Send reviewer_ids, signer_ids or reader_ids.');
    const none = await s.as.admin.post(`${d}/assign-reviewers`, { user_ids: [] });
    expect(none.json().errors.user_ids).toEqual(['Choose at least one person.']);
    const extra = await s.as.admin.post(`${d}/assign-readers`, { user_ids: [], role: 'x' });
    expect(extra.statusCode).toBe(400);
    expect(await snapshot()).toEqual(before);
  });

  it('lists the departments, their people and the candidates', async () => {
    const s = await setup();
    const data = (await s.as.admin.get(`${s.base}/department-assignment-data`)).json();
    expect(data.departments.map((d: { code: string }) => d.code)).toEqual(['NUR', 'PHA']);
    const nursing = data.departments[0];
    expect(names(nursing.reviewers)).toEqual(['Rob Reviewer', 'Ruth Reviewer']);
    expect(names(nursing.signers)).toEqual(['Sam Signer', 'Sara Signer']);
    expect(names(nursing.readers)).toEqual(['Rita Reader', 'Sam Signer']);
    expect(nursing.readers[0]).toMatchObject({ main_role: 'reader', username: s.people.reader.username });

    const lists = (await s.as.admin.get(`${s.base}/department-edit-lists`)).json();
    expect(names(lists.signers)).toEqual(['Ada Admin', 'Sam Signer', 'Sara Signer']);
    expect(names(lists.reviewers)).toEqual([
      'Ada Admin',
      'Otto Author',
      'Rob Reviewer',
      'Ruth Reviewer',
      'Sam Signer',
      'Sara Signer',
    ]);
    expect(lists.readers).toHaveLength(7);

    const edit = (await s.as.admin.get(`${s.dep(s.nursing.id)}/edit-assignment-data`)).json();
    expect(edit.department.code).toBe('NUR');
    expect(names(edit.candidates.signers)).toEqual(names(lists.signers));
    const readerEdit = (await s.as.admin.get(`${s.dep(s.pharmacy.id)}/reader-edit-data`)).json();
    expect(readerEdit.department).toMatchObject({ code: 'PHA', readers: [] });
    expect(readerEdit.candidates).toHaveLength(7);
    const reviewerEdit = (await s.as.admin.get(`${s.dep(s.nursing.id)}/reviewer-edit-data`)).json();
    expect(names(reviewerEdit.department.reviewers)).toEqual(['Rob Reviewer', 'Ruth Reviewer']);
    expect(reviewerEdit.candidates).toHaveLength(6);
    expect((await s.as.admin.get(`${s.base}/department-reader-edit-lists`)).json().readers).toHaveLength(7);

    await s.halfReviewed('In review');
    const reviewerData = (await s.as.admin.get(`${s.base}/department-reviewer-data`)).json();
    expect(reviewerData.departments[0]).toMatchObject({ code: 'NUR', open_reviews: 1, document_count: 1 });
    expect(reviewerData.departments[1]).toMatchObject({ code: 'PHA', open_reviews: 0, reviewers: [] });
    const management = (await s.as.admin.get(`${s.base}/department-reviewer-management-data`)).json();
    expect(
      management.reviewers.map((r: { name: string; open_reviews: number; departments: { code: string }[] }) => [
        r.name,
        r.open_reviews,
        r.departments.map((d) => d.code),
      ]),
    ).toEqual([
      ['Rob Reviewer', 0, ['NUR']],
      ['Ruth Reviewer', 1, ['NUR']],
    ]);
    expect(names(management.unassigned)).toEqual(['Ada Admin', 'Otto Author', 'Sam Signer', 'Sara Signer']);
    const readerData = (await s.as.admin.get(`${s.base}/department-reader-data`)).json();
    expect(readerData.departments[0]).toMatchObject({ code: 'NUR', attested: 0, required: 0, attestation_rate: null });
    expect(names(readerData.departments[0].readers)).toEqual(['Rita Reader', 'Sam Signer']);
  });

  it('assigns, adds, replaces and clears; audits each change; answers the three lists', async () => {
    const s = await setup();
    const d = s.dep(s.pharmacy.id);
    const assigned = await s.as.admin.post(`${d}/assign-roles`, {
      reviewer_ids: [s.people.author.id],
      signer_ids: [s.people.admin.id, s.people.signer2.id],
    });
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect(assigned.json()).toMatchObject({ id: s.pharmacy.id, code: 'PHA', document_count: 0, readers: [] });
    expect(names(assigned.json().reviewers)).toEqual(['Otto Author']);
    expect(names(assigned.json().signers)).toEqual(['Ada Admin', 'Sara Signer']);
    const [event] = await db()
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'policy.department_roles_changed'));
    expect(event).toMatchObject({ subjectType: 'policy_department', subjectId: String(s.pharmacy.id) });
    expect(event!.data).toEqual({
      reviewer: { added: [s.people.author.id], removed: [] },
      signer: { added: [s.people.admin.id, s.people.signer2.id], removed: [] },
    });

    const added = await s.as.admin.post(`${d}/assign-reviewers`, { user_ids: [s.people.reviewer1.id] });
    expect(names(added.json().reviewers)).toEqual(['Otto Author', 'Rob Reviewer']);
    const replaced = await s.as.admin.post(`${d}/update-reviewers`, { user_ids: [s.people.reviewer2.id] });
    expect(names(replaced.json().reviewers)).toEqual(['Ruth Reviewer']);
    const readers = await s.as.admin.post(`${d}/assign-readers`, {
      user_ids: [s.people.reader.id, s.people.author.id],
    });
    expect(names(readers.json().readers)).toEqual(['Otto Author', 'Rita Reader']);
    // The same lists again change nothing and are not audited.
    const auditsBefore = (await snapshot()).audit;
    await s.as.admin.post(`${d}/assign-readers`, { user_ids: [s.people.author.id, s.people.reader.id] });
    expect((await snapshot()).audit).toBe(auditsBefore);

    expect((await s.as.admin.delete(`${d}/clear-readers`)).json().readers).toEqual([]);
    const noReviewers = (await s.as.admin.delete(`${d}/remove-all-reviewers`)).json();
    expect(noReviewers.reviewers).toEqual([]);
    expect(names(noReviewers.signers)).toEqual(['Ada Admin', 'Sara Signer']);
    const cleared = (await s.as.admin.delete(`${d}/clear-assignments`)).json();
    expect([cleared.reviewers, cleared.signers, cleared.readers]).toEqual([[], [], []]);
    // Nursing kept its people.
    const nursing = await db()
      .select()
      .from(policyDepartmentRoles)
      .where(eq(policyDepartmentRoles.departmentId, s.nursing.id));
    expect(nursing).toHaveLength(6);
  });

  it('lets open rounds follow a change of reviewers: the round moves on and the signers are asked', async () => {
    const s = await setup();
    const id = await s.halfReviewed('Falls');
    const answer = await s.as.admin.post(`${s.dep(s.nursing.id)}/update-reviewers`, {
      user_ids: [s.people.reviewer1.id],
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const flow = await s.workflow(id);
    expect(flow.working_version.state).toBe('pending_signature');
    expect(flow.reviews.map((r: { status: string }) => r.status)).toEqual(['approved', 'withdrawn']);
    expect(ctx.mailbox.last(s.people.signer1.email)?.subject).toBe('Policy to sign: Falls');
  });

  it('prunes department roles when a main role changes: an approve-pending reviewer made reader lets the round go on', async () => {
    const s = await setup();
    const id = await s.halfReviewed('Sharps');
    const changed = await s.as.admin.put(`${s.base}/pol-man-users/${s.people.reviewer2.id}/main-role`, {
      main_role: 'reader',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const held = await db()
      .select({ role: policyDepartmentRoles.role })
      .from(policyDepartmentRoles)
      .where(eq(policyDepartmentRoles.userId, s.people.reviewer2.id));
    expect(held).toEqual([]);
    const flow = await s.workflow(id);
    expect(flow.working_version.state).toBe('pending_signature');
    expect(flow.reviews.map((r: { person: { name: string }; status: string }) => [r.person.name, r.status])).toEqual([
      ['Rob Reviewer', 'approved'],
      ['Ruth Reviewer', 'withdrawn'],
    ]);
    expect(ctx.mailbox.last(s.people.signer2.email)?.subject).toBe('Policy to sign: Sharps');
    const [pruned] = await db()
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'policy.department_roles_pruned'));
    expect(pruned!.data).toEqual({ main_role: 'reader', removed: [{ department_id: s.nursing.id, role: 'reviewer' }] });
  });

  it('prunes in the project Admin app too: a signer made reader stops signing but keeps reading', async () => {
    const s = await setup();
    const answer = await s.as.admin.patch(`/api/projects/${s.project.id}/admin/members/${s.people.signer1.id}`, {
      main_roles: { policy_management: 'reader' },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const held = await db()
      .select({ role: policyDepartmentRoles.role })
      .from(policyDepartmentRoles)
      .where(eq(policyDepartmentRoles.userId, s.people.signer1.id));
    expect(held).toEqual([{ role: 'reader' }]);
  });

  it('drops every department role of someone who leaves policy management or the project', async () => {
    const s = await setup();
    const everyoneBut = async (userId: number) =>
      (await s.as.admin.get(`${s.base}/eligible-users/assigned`))
        .json()
        .users.map((u: { id: number }) => u.id)
        .filter((id: number) => id !== userId);
    const left = await s.as.admin.post(`${s.base}/policy-users/update`, {
      user_ids: await everyoneBut(s.people.signer1.id),
    });
    expect(left.statusCode, left.body).toBe(200);
    const roles = async (userId: number) =>
      db()
        .select()
        .from(policyDepartmentRoles)
        .where(and(eq(policyDepartmentRoles.projectId, s.project.id), eq(policyDepartmentRoles.userId, userId)));
    expect(await roles(s.people.signer1.id)).toEqual([]);
    const removed = await s.as.admin.delete(`/api/projects/${s.project.id}/admin/members/${s.people.reader.id}`);
    expect(removed.statusCode, removed.body).toBe(204);
    expect(await roles(s.people.reader.id)).toEqual([]);
  });
});
