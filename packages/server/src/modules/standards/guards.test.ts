import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import {
  addPolicy,
  assessmentInput,
  expectGuards,
  expectSwitchedOff,
  type GuardedCall,
  importInput,
  type StandardsSetup,
  standardsSetup,
} from '../../../test/standards-kit.js';

/**
 * Every call of standards.routes.ts behind its guards: anonymous 401, a member without a standards role 403
 * "unconfigured", the standards viewer 403 on changes, another project's admin 404 (also under their own project's
 * id), no XSRF header 419, nothing changed by any refusal; and 404 for every call once standards is switched off.
 */
describe('standards guards', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;

  /** Every route, with valid input naming the setup's rows. */
  async function everyCall(s: StandardsSetup): Promise<GuardedCall[]> {
    const policy = await addPolicy(db(), s.project.id, { title: 'Board governance', number: '1.1' });
    const linked = await s.admin.post(`${s.base}/links`, {
      node_id: s.nodes['GOV.1.1'],
      target_type: 'policy',
      target_id: policy.id,
      note: '',
    });
    expect(linked.statusCode, linked.body).toBe(201);
    const linkId = linked.json().id as number;
    const req = s.reqs['GOV.1.1'];
    const element = {
      version: 0,
      result: 'compliant',
      status: 'done',
      na_justification: '',
      owner_id: s.people.owner.id,
      due_date: null,
      observation: 'Seen the minutes.',
    };
    return [
      { method: 'GET', path: '/me', viewer: true, namesRow: false },
      { method: 'GET', path: '/frameworks', viewer: true, namesRow: false },
      {
        method: 'POST',
        path: '/frameworks/import',
        body: importInput({ code: 'STATE-NY', edition: '2027' }),
        viewer: false,
        namesRow: false,
      },
      { method: 'GET', path: '/assessments', viewer: true, namesRow: false },
      {
        method: 'POST',
        path: '/assessments',
        body: assessmentInput(s.framework.id, { name: 'Mock survey' }),
        viewer: false,
        namesRow: true,
      },
      { method: 'GET', path: `/assessments/${s.assessmentId}/tree`, viewer: true, namesRow: true },
      {
        method: 'GET',
        path: `/assessments/${s.assessmentId}/tree?filter=gaps&search=gov`,
        viewer: true,
        namesRow: true,
      },
      { method: 'GET', path: `/assessments/${s.assessmentId}/assignments`, viewer: false, namesRow: true },
      {
        method: 'PUT',
        path: `/assessments/${s.assessmentId}/assignments`,
        body: { node_id: s.nodes.OB, owner_id: s.people.owner2.id },
        viewer: false,
        namesRow: true,
      },
      { method: 'GET', path: `/req-assessments/${req}`, viewer: true, namesRow: true },
      { method: 'PUT', path: `/req-assessments/${req}`, body: element, viewer: false, namesRow: true },
      {
        method: 'PUT',
        path: `/req-assessments/${req}/wording`,
        body: { wording: 'Our board meets in March, June, September and December.', guidance: '', public_url: '' },
        viewer: false,
        namesRow: true,
      },
      {
        method: 'POST',
        path: `/req-assessments/${req}/comments`,
        body: { body: 'Where are the March minutes?' },
        viewer: false,
        namesRow: true,
      },
      {
        method: 'POST',
        path: '/req-assessments/bulk',
        body: { ids: [s.reqs['IC.1.1'], s.reqs['OB.1']], due_date: '2027-03-01' },
        viewer: false,
        namesRow: true,
      },
      { method: 'GET', path: '/members', viewer: true, namesRow: false },
      {
        method: 'PUT',
        path: `/members/${s.people.owner2.id}`,
        body: { role: 'contributor' },
        viewer: false,
        namesRow: true,
      },
      { method: 'GET', path: '/my', viewer: true, namesRow: false },
      { method: 'GET', path: '/link-targets?type=policy', viewer: false, namesRow: false },
      { method: 'GET', path: '/link-targets?type=measure&search=falls', viewer: false, namesRow: false },
      { method: 'GET', path: '/elements?for=policy', viewer: true, namesRow: false },
      { method: 'GET', path: '/elements?for=measure&search=board', viewer: true, namesRow: false },
      { method: 'GET', path: `/links?target_type=policy&target_id=${policy.id}`, viewer: true, namesRow: true },
      {
        method: 'POST',
        path: '/links',
        body: { node_id: s.nodes['GOV.1.2'], target_type: 'policy', target_id: policy.id, note: 'Minutes policy' },
        viewer: false,
        namesRow: true,
      },
      { method: 'DELETE', path: `/links/${linkId}`, viewer: false, namesRow: true },
    ];
  }

  it('guards every call: 401, 403 without a role, 403 for the viewer on changes, 404 elsewhere, 419 without XSRF', async () => {
    const s = await standardsSetup(ctx);
    await expectGuards(ctx, s, await everyCall(s));
  });

  it('answers 404 to every call when standards is switched off for the project', async () => {
    const s = await standardsSetup(ctx);
    await expectSwitchedOff(ctx, s, await everyCall(s));
  });

  it('tells each role what it may do (GET /me)', async () => {
    const s = await standardsSetup(ctx);
    const expected = [
      [
        'admin',
        'standards_admin',
        { create: true, manage_users: true, assign: true, import_frameworks: true, load_editions: false },
      ],
      [
        'superadmin',
        'standards_admin',
        { create: true, manage_users: true, assign: true, import_frameworks: true, load_editions: true },
      ],
      [
        'stdAdmin',
        'standards_admin',
        { create: true, manage_users: true, assign: true, import_frameworks: true, load_editions: false },
      ],
      [
        'lead',
        'chapter_lead',
        { create: false, manage_users: false, assign: true, import_frameworks: false, load_editions: false },
      ],
      [
        'owner',
        'owner',
        { create: false, manage_users: false, assign: false, import_frameworks: false, load_editions: false },
      ],
      [
        'contributor',
        'contributor',
        { create: false, manage_users: false, assign: false, import_frameworks: false, load_editions: false },
      ],
      [
        'assessor',
        'mock_assessor',
        { create: false, manage_users: false, assign: false, import_frameworks: false, load_editions: false },
      ],
      [
        'viewer',
        'viewer',
        { create: false, manage_users: false, assign: false, import_frameworks: false, load_editions: false },
      ],
    ] as const;
    for (const [who, role, abilities] of expected) {
      const answer = await (await ctx.signedIn(s.people[who])).get(`${s.base}/me`);
      expect(answer.statusCode, `${who}: ${answer.body}`).toBe(200);
      expect(answer.json(), who).toEqual({ role, abilities });
    }
  });

  it('answers 400 to ids that are not numbers and 404 to ids of nothing', async () => {
    const s = await standardsSetup(ctx);
    const bad = await s.admin.get(`${s.base}/req-assessments/abc`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.id).toEqual(['The element id is 1 to 10 digits.']);
    expect((await s.admin.get(`${s.base}/req-assessments/999999`)).statusCode).toBe(404);
    expect((await s.admin.get(`${s.base}/assessments/999999/tree`)).statusCode).toBe(404);
    expect((await s.admin.delete(`${s.base}/links/999999`)).statusCode).toBe(404);
  });
});
