import { count } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { buildDocx } from '../../../test/docx-fixture.js';
import { multipart, policyProject } from '../../../test/policy-kit.js';
import {
  auditEvents,
  policyDepartments,
  policyDocuments,
  policyNumbering,
  policyVersions,
} from '../../db/schema/index.js';

/** Every policy call: anonymous 401, no main role 403, wrong main role 403, another project's member 404. */
describe('policy management access', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;

  async function setup() {
    const s = await policyProject(db());
    const admin = await ctx.signedIn(s.people.admin);
    const department = (
      await admin.post(`/api/projects/${s.project.id}/policy-management/departments`, { name: 'Nursing', code: 'NUR' })
    ).json() as { id: number };
    const doc = (
      await admin.post(`/api/projects/${s.project.id}/policy-management/documents`, {
        title: 'Hand hygiene',
        number: '1',
        content: '<p>Wash hands.</p>',
      })
    ).json() as { id: number; draft_version: { id: number } };
    return { ...s, admin, department, doc };
  }

  type Call = [method: 'get' | 'post' | 'put' | 'patch' | 'delete', url: string, body?: unknown, readerMay?: boolean];
  const calls = (p: number, doc: number, version: number, department: number): Call[] => {
    const base = `/api/projects/${p}/policy-management`;
    return [
      ['get', `${base}/departments`, undefined, true],
      ['post', `${base}/departments`, { name: 'Pharmacy', code: 'PHA' }],
      ['patch', `${base}/departments/${department}`, { name: 'Renamed' }],
      ['delete', `${base}/departments/${department}`],
      ['get', `${base}/numbering`, undefined, true],
      ['post', `${base}/numbering`, { scheme: { levels: 4, department_prefixes: false, prefix_separator: '-' } }],
      ['get', `${base}/documents/used-numbers`, undefined, true],
      ['get', `${base}/documents/unassigned`],
      ['post', `${base}/documents/move`, { document_id: doc, parent: '', index: 0, expected: [] }],
      ['get', `${base}/documents`, undefined, true],
      ['post', `${base}/documents`, { title: 'Another' }],
      ['get', `${base}/search?q=wash`, undefined, true],
      ['get', `${base}/archive`, undefined, true],
      ['patch', `${base}/documents/${doc}`, { title: 'Taken over' }],
      ['put', `${base}/documents/${doc}/draft`, { content: '<p>x</p>', base_revision: 0 }],
      ['post', `${base}/documents/${doc}/new-version`],
      ['post', `${base}/documents/${doc}/versions/${version}/restore`],
      ['post', `${base}/documents/${doc}/archive`],
      ['post', `${base}/documents/${doc}/restore`],
    ];
  };

  const send = (agent: Awaited<ReturnType<typeof ctx.signedIn>>, [method, url, body]: Call) =>
    method === 'get' ? agent.get(url) : method === 'delete' ? agent.delete(url) : agent[method](url, body);

  const snapshot = async () => ({
    audit: (await db().select({ n: count() }).from(auditEvents))[0]!.n,
    departments: await db().select().from(policyDepartments),
    documents: await db().select().from(policyDocuments),
    versions: await db().select().from(policyVersions),
    numbering: await db().select().from(policyNumbering),
  });

  it("answers 401 signed out and 404 to another project's member, and changes nothing", async () => {
    const s = await setup();
    const anonymous = await ctx.anonymous();
    const outsider = await ctx.signedIn(s.people.outsider);
    const before = await snapshot();
    for (const call of calls(s.project.id, s.doc.id, s.doc.draft_version.id, s.department.id)) {
      expect((await send(anonymous, call)).statusCode, `${call[0]} ${call[1]} signed out`).toBe(401);
      const answer = await send(outsider, call);
      expect(answer.statusCode, `${call[0]} ${call[1]} as an outsider`).toBe(404);
      expect(answer.json().message).toBe('Project not found.');
    }
    // Uploads too.
    const body = multipart({}, { name: 'a.docx', data: buildDocx({ title: 'X' }) });
    for (const path of ['upload', 'convert']) {
      const url = `/api/projects/${s.project.id}/policy-management/documents/${path}`;
      expect((await anonymous.post(url, body.payload, body.headers)).statusCode).toBe(401);
      expect((await outsider.post(url, body.payload, body.headers)).statusCode).toBe(404);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('answers 403 to a member without a policy role, and to a reader on what readers may not do', async () => {
    const s = await setup();
    const noRole = await ctx.signedIn(s.people.noRole);
    const reader = await ctx.signedIn(s.people.reader);
    const before = await snapshot();
    for (const call of calls(s.project.id, s.doc.id, s.doc.draft_version.id, s.department.id)) {
      const unconfigured = await send(noRole, call);
      expect(unconfigured.statusCode, `${call[0]} ${call[1]} without a role`).toBe(403);
      expect(unconfigured.json().message).toBe(
        'You do not have access to policy management features yet. Contact an administrator to assign you a policy management role.',
      );
      if (!call[3]) {
        const forbidden = await send(reader, call);
        expect(forbidden.statusCode, `${call[0]} ${call[1]} as a reader`).toBe(403);
        expect(forbidden.json().message).toBe('Your role is not permitted to access this section.');
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  it('answers 404 when the project has the policy app switched off', async () => {
    const s = await setup();
    await db()
      .update((await import('../../db/schema/index.js')).projects)
      .set({ activeApps: [] });
    const answer = await s.admin.get(`/api/projects/${s.project.id}/policy-management/documents`);
    expect(answer.statusCode).toBe(404);
    expect(answer.json().message).toBe('Policy management is not switched on for this project.');
  });

  it("never shows another project's document, version, file or department through ids", async () => {
    const s = await setup();
    const outsider = await ctx.signedIn(s.people.outsider);
    const base = `/api/projects/${s.other.id}/policy-management`;
    // The outsider administers the other project: the ids of this project's rows must read as unknown there.
    for (const url of [
      `${base}/documents/${s.doc.id}`,
      `${base}/documents/${s.doc.id}/versions/${s.doc.draft_version.id}`,
      `${base}/documents/${s.doc.id}/compare?from=${s.doc.draft_version.id}&to=${s.doc.draft_version.id}`,
    ]) {
      expect((await outsider.get(url)).statusCode, url).toBe(404);
    }
    const before = await snapshot();
    expect((await outsider.patch(`${base}/departments/${s.department.id}`, { name: 'Mine' })).statusCode).toBe(404);
    expect((await outsider.delete(`${base}/departments/${s.department.id}`)).statusCode).toBe(404);
    expect((await outsider.post(`${base}/documents/${s.doc.id}/archive`)).statusCode).toBe(404);
    expect(
      (await outsider.put(`${base}/documents/${s.doc.id}/draft`, { content: 'x', base_revision: 0 })).statusCode,
    ).toBe(404);
    const assign = await outsider.post(`${base}/numbering`, { assignments: [{ document_id: s.doc.id, number: '9' }] });
    expect(assign.statusCode).toBe(400);
    const create = await outsider.post(`${base}/documents`, { title: 'Sneaky', department_id: s.department.id });
    expect(create.statusCode).toBe(400);
    expect(create.json().errors.department_id).toEqual(['Choose a department of this project.']);
    expect(await snapshot()).toEqual(before);
  });
});
