import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { TEST_PASSWORD } from '../../../test/factories.js';
import { policyProject, publishDraft } from '../../../test/policy-kit.js';
import { postDraft, workflowProject } from '../../../test/workflow-kit.js';
import {
  auditEvents,
  policyDocuments,
  policyGuestAccess,
  policyGuestReads,
  policyReferences,
} from '../../db/schema/index.js';
import { refreshReferences } from './cross-references.service.js';

const KIOSK_IP = '10.20.1.5';

describe('stable links, QR sheets and cross-references', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;

  async function setup() {
    const s = await policyProject(db());
    const base = `/api/projects/${s.project.id}/policy-management`;
    const admin = await ctx.signedIn(s.people.admin);
    const reader = await ctx.signedIn(s.people.reader);
    const create = async (title: string, number: string | null, content = `<p>${title}.</p>`) => {
      const answer = await admin.post(`${base}/documents`, { title, number, content });
      expect(answer.statusCode, answer.body).toBe(201);
      return answer.json() as { id: number };
    };
    /** Publishes the working draft as the workflow does, links to other policies included. */
    const publish = async (documentId: number) => {
      await publishDraft(db(), documentId);
      await refreshReferences(db(), s.project.id, documentId);
    };
    /** A new version with this text, published. */
    const revise = async (documentId: number, content: string) => {
      expect((await admin.post(`${base}/documents/${documentId}/new-version`)).statusCode).toBe(200);
      const detail = (await admin.get(`${base}/documents/${documentId}`)).json();
      const saved = await admin.put(`${base}/documents/${documentId}/draft`, {
        content,
        base_revision: detail.draft_version.revision,
      });
      expect(saved.statusCode, saved.body).toBe(200);
      await publish(documentId);
    };
    const link = (agent: { get(url: string): Promise<{ statusCode: number; json(): unknown }> }, number: string) =>
      agent.get(`/api/policy-links/${s.project.id}/${encodeURIComponent(number)}`);
    const allowGuests = () =>
      db()
        .insert(policyGuestAccess)
        .values({ projectId: s.project.id, enabled: true, ipRanges: ['10.20.0.0/16'] });
    return { ...s, base, admin, reader, create, publish, revise, link, allowGuests };
  }

  it('leads members to the current version of the number, across versions and case', async () => {
    const s = await setup();
    const doc = await s.create('Falls prevention', '3.1');
    await s.publish(doc.id);
    const first = await s.link(s.reader, '3.1');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ outcome: 'member', document_id: doc.id });

    await s.revise(doc.id, '<p>Falls prevention, second edition.</p>');
    expect((await s.link(s.reader, '3.1')).json()).toEqual({ outcome: 'member', document_id: doc.id });
    const page = (await s.reader.get(`${s.base}/documents/${doc.id}`)).json();
    expect(page.current_version.version).toBe(2);

    // Numbers are matched whatever their case.
    await db().update(policyDocuments).set({ number: 'IC-3.1' }).where(eq(policyDocuments.id, doc.id));
    expect((await s.link(s.reader, 'ic-3.1')).json()).toEqual({ outcome: 'member', document_id: doc.id });
    expect((await s.link(s.reader, ' IC-3.1 ')).json()).toEqual({ outcome: 'member', document_id: doc.id });
  });

  it('never reveals drafts, and never resolves another project or a project without policy management', async () => {
    const s = await setup();
    await s.create('Secret draft', '4.1');
    for (const agent of [s.reader, s.admin]) {
      const draft = await s.link(agent, '4.1');
      expect(draft.statusCode).toBe(404);
      expect((draft.json() as { message: string }).message).toBe(
        'There is no current policy numbered 4.1 in this project.',
      );
    }
    expect((await s.link(s.reader, '9.9')).statusCode).toBe(404);

    // The other project's 4.1 is published; this project's link still finds nothing, and the reverse.
    const outsider = await ctx.signedIn(s.people.outsider);
    const theirs = await outsider.post(`/api/projects/${s.other.id}/policy-management/documents`, {
      title: 'Their policy',
      number: '4.1',
    });
    await publishDraft(db(), theirs.json().id);
    expect((await s.link(s.reader, '4.1')).statusCode).toBe(404);
    const ours = await s.create('Ours', '5.1');
    await s.publish(ours.id);
    const foreign = await outsider.get(`/api/policy-links/${s.project.id}/5.1`);
    expect(foreign.statusCode).toBe(404);
    expect(JSON.stringify(foreign.json())).not.toContain('Ours');
    // Someone signed in with no guest reading: the same 404 as an unknown number, project or not.
    expect((await outsider.get('/api/policy-links/2147483000/5.1')).statusCode).toBe(404);
    // Not signed in and no guest reading: the sign-in page, whatever the number or project.
    const anonymous = ctx.agent();
    expect((await s.link(anonymous, '5.1')).json()).toEqual({ outcome: 'sign_in' });
    expect((await anonymous.get('/api/policy-links/2147483000/5.1')).json()).toEqual({ outcome: 'sign_in' });
  });

  it('tells that a policy was retired, names a visible replacement, and follows a number given to a new policy', async () => {
    const s = await setup();
    ctx.clock.set(new Date('2026-03-10T12:00:00Z'));
    const old = await s.create('Restraints', '2.1');
    await s.publish(old.id);
    const next = await s.create('Restraint and seclusion', '2.4');
    await s.publish(next.id);
    const unpublished = await s.create('Draft replacement', '2.5');

    // The replacement must be a published policy of this project, not the policy itself.
    for (const replacedBy of [old.id, unpublished.id, 2147483000]) {
      const refused = await s.admin.post(`${s.base}/documents/${old.id}/archive`, { replaced_by_id: replacedBy });
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().errors.replaced_by_id[0]).toMatch(/another published policy/);
    }
    const archived = await s.admin.post(`${s.base}/documents/${old.id}/archive`, { replaced_by_id: next.id });
    expect(archived.statusCode, archived.body).toBe(200);
    const [event] = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'policy.document_archived'), eq(auditEvents.subjectId, String(old.id))));
    expect(event!.data).toMatchObject({
      replaced_by: { id: next.id, number: '2.4', title: 'Restraint and seclusion' },
    });

    expect((await s.link(s.reader, '2.1')).json()).toEqual({
      outcome: 'retired',
      number: '2.1',
      title: 'Restraints',
      retired_on: '2026-03-10',
      replaced_by: { document_id: next.id, number: '2.4', title: 'Restraint and seclusion' },
    });

    // Retired without replacement (archiving with no body still works).
    const lone = await s.create('Old forms', '6.1');
    await s.publish(lone.id);
    const plain = await s.admin.post(`${s.base}/documents/${lone.id}/archive`);
    expect(plain.statusCode, plain.body).toBe(200);
    expect((await s.link(s.reader, '6.1')).json()).toMatchObject({ outcome: 'retired', replaced_by: null });

    // A replacement that is itself retired later is no longer named.
    await s.admin.post(`${s.base}/documents/${next.id}/archive`);
    expect((await s.link(s.reader, '2.1')).json()).toMatchObject({ outcome: 'retired', replaced_by: null });

    // The freed number given to a new policy: the link leads there once it is published.
    const reuse = await s.create('Forms, new', '6.1');
    expect((await s.link(s.reader, '6.1')).statusCode).toBe(404);
    await s.publish(reuse.id);
    expect((await s.link(s.reader, '6.1')).json()).toEqual({ outcome: 'member', document_id: reuse.id });
  });

  it('lets guests follow links only from the allowed networks, and logs each one', async () => {
    const s = await setup();
    const doc = await s.create('Hand hygiene', '1.1');
    await s.publish(doc.id);
    await s.create('Draft only', '1.2');
    const kiosk = ctx.agent({ ip: KIOSK_IP });
    const home = ctx.agent({ ip: '192.0.2.7' });

    expect((await s.link(kiosk, '1.1')).json()).toEqual({ outcome: 'sign_in' });
    await s.allowGuests();
    expect((await s.link(kiosk, '1.1')).json()).toEqual({ outcome: 'guest', document_id: doc.id });
    expect((await s.link(kiosk, '1.2')).statusCode).toBe(404);
    expect((await s.link(home, '1.1')).json()).toEqual({ outcome: 'sign_in' });
    // Signed in without being a member: a guest too.
    const outsider = await ctx.signedIn(s.people.outsider, { ip: KIOSK_IP });
    expect((await s.link(outsider, '1.1')).json()).toEqual({ outcome: 'guest', document_id: doc.id });
    // A member at the kiosk goes to their own page.
    const reader = await ctx.signedIn(s.people.reader, { ip: KIOSK_IP });
    expect((await s.link(reader, '1.1')).json()).toEqual({ outcome: 'member', document_id: doc.id });

    const reads = await db().select().from(policyGuestReads).where(eq(policyGuestReads.projectId, s.project.id));
    expect(reads.map((r) => [r.kind, r.documentId, r.ip])).toEqual([
      ['link', doc.id, KIOSK_IP],
      ['link', null, KIOSK_IP],
      ['link', doc.id, KIOSK_IP],
    ]);
  });

  it('prints QR code sheets of published, numbered policies, audited, and 404 to non-members', async () => {
    const s = await setup();
    const nursing = (await s.admin.post(`${s.base}/departments`, { name: 'Nursing', code: 'NUR' })).json();
    const a = (
      await s.admin.post(`${s.base}/documents`, { title: 'Falls', number: '7.2', department_id: nursing.id })
    ).json();
    const b = (
      await s.admin.post(`${s.base}/documents`, { title: 'Pressure care', number: '7.3', department_id: nursing.id })
    ).json();
    await s.admin.post(`${s.base}/documents`, { title: 'Unpublished', number: '7.4', department_id: nursing.id });
    await s.publish(a.id);
    await s.publish(b.id);

    const one = await s.reader.get(`${s.base}/qr-sheet?document_id=${a.id}`);
    expect(one.statusCode, one.body).toBe(200);
    expect(one.headers['content-type']).toBe('application/pdf');
    expect(one.rawPayload.subarray(0, 4).toString()).toBe('%PDF');
    const department = await s.reader.get(`${s.base}/qr-sheet?department_id=${nursing.id}&paper=a4`);
    expect(department.statusCode).toBe(200);
    expect(department.rawPayload.subarray(0, 4).toString()).toBe('%PDF');
    const [audit] = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'policy.qr_sheet_printed'), eq(auditEvents.subjectType, 'policy_department')));
    expect(audit!.data).toMatchObject({ numbers: ['7.2', '7.3'], format: 'pdf', paper: 'a4' });

    const svg = await s.reader.get(`${s.base}/qr-sheet?document_id=${a.id}&format=svg`);
    expect(svg.statusCode).toBe(200);
    expect(svg.headers['content-type']).toContain('image/svg+xml');
    expect(svg.body).toContain('<svg');

    const unpublished = (await s.admin.get(`${s.base}/documents`)).json();
    const draftId = unpublished.find((d: { title: string }) => d.title === 'Unpublished').id;
    expect((await s.admin.get(`${s.base}/qr-sheet?document_id=${draftId}`)).statusCode).toBe(404);
    expect((await s.reader.get(`${s.base}/qr-sheet`)).statusCode).toBe(400);
    const outsider = await ctx.signedIn(s.people.outsider);
    expect((await outsider.get(`${s.base}/qr-sheet?document_id=${a.id}`)).statusCode).toBe(404);
    expect((await ctx.agent().get(`${s.base}/qr-sheet?document_id=${a.id}`)).statusCode).toBe(401);
  });

  it('records the links of a version when the workflow publishes it', async () => {
    const s = await workflowProject(db());
    const base = `/api/projects/${s.project.id}/policy-management`;
    const as = await ctx.signedInAll(s.people, 'admin', 'author', 'reviewer1', 'reviewer2', 'signer1', 'signer2');
    const doc = await postDraft(
      as.author,
      base,
      'Falls',
      s.nursing.id,
      `<p><a href="/p/${s.project.id}/9.1">9.1</a></p>`,
    );
    const act = (who: (typeof as)['admin'], step: string, body: Record<string, unknown> = {}) =>
      who.post(`${base}/documents/${doc.id}/${step}`, body);
    expect((await act(as.author, 'send-to-review')).statusCode).toBe(200);
    for (const reviewer of [as.reviewer1, as.reviewer2]) await act(reviewer, 'review', { decision: 'approve' });
    for (const signer of [as.signer1, as.signer2]) {
      const signed = await act(signer, 'sign', { version_id: doc.draft_version.id, password: TEST_PASSWORD });
      expect(signed.statusCode, signed.body).toBe(200);
    }
    expect((await as.admin.get(`${base}/documents/${doc.id}`)).json().current_version.id).toBe(doc.draft_version.id);
    expect(await db().select().from(policyReferences).where(eq(policyReferences.documentId, doc.id))).toEqual([
      { projectId: s.project.id, documentId: doc.id, targetNumber: '9.1' },
    ]);
  });

  it('lists broken cross-references on the dashboard and clears them when fixed', async () => {
    const s = await setup();
    const origin = `http://portal.example.org/p/${s.project.id}`;
    const target = await s.create('Restraints', '3.1');
    await s.publish(target.id);
    const source = await s.create(
      'Falls',
      '7.2',
      `<p>See <a href="${origin}/3.1">3.1</a>, <a href="/p/${s.project.id}/8.8">8.8</a>, ` +
        `<a href="/p/${s.other.id}/9.9">another project</a> and <a href="/p/${s.project.id}/3.1?x=1">again</a>.</p>`,
    );
    // Published before links were recorded: the dashboard reads it once (the backfill).
    await publishDraft(db(), source.id);
    const dashboard = async () => (await s.admin.get(`${s.base}/admin-dashboard`)).json().broken_references;
    expect(await dashboard()).toEqual([
      {
        source: { id: source.id, number: '7.2', title: 'Falls' },
        target_number: '8.8',
        reason: 'missing',
        target_title: null,
      },
    ]);

    await s.admin.post(`${s.base}/documents/${target.id}/archive`);
    expect(await dashboard()).toEqual([
      expect.objectContaining({ target_number: '3.1', reason: 'retired', target_title: 'Restraints' }),
      expect.objectContaining({ target_number: '8.8', reason: 'missing' }),
    ]);

    // Fixed: the new version links to a current policy only.
    const fixed = await s.create('Restraint and seclusion', '3.4');
    await s.publish(fixed.id);
    await s.revise(source.id, `<p>See <a href="/p/${s.project.id}/3.4">3.4</a>.</p>`);
    expect(await dashboard()).toEqual([]);
  });
});
