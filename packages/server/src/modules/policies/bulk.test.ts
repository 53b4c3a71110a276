import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { publishDraft } from '../../../test/policy-kit.js';
import { postDraft, ROUND_PEOPLE, workflowProject } from '../../../test/workflow-kit.js';
import {
  policyAttestations,
  policyDocuments,
  policySignatures,
  policyVersions,
  policyWorkflowEvents,
} from '../../db/schema/index.js';
import { minutes } from '../../lib/clock.js';

const PASSWORD = 'Vq9!rT4#mLp2$Xz8';
type Result = { document_id: number; outcome: string; message: string };

describe('policy bulk actions', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;

  async function setup() {
    const s = await workflowProject(db());
    const base = `/api/projects/${s.project.id}/policy-management`;
    const as = await ctx.signedInAll(s.people, ...ROUND_PEOPLE);
    const create = (title: string, departmentId: number | null = s.nursing.id) =>
      postDraft(as.author, base, title, departmentId);
    const published = async (title: string) => {
      const doc = await create(title);
      await publishDraft(db(), doc.id);
      return doc;
    };
    const outcomes = (answer: { json(): { results: Result[] } }) =>
      answer.json().results.map((r) => [r.document_id, r.outcome]);
    return { ...s, base, as, create, published, outcomes };
  }

  it('reads and attests many policies; a retry does nothing twice and one failure undoes nothing', async () => {
    const s = await setup();
    const a = await s.published('Alpha');
    const b = await s.published('Beta');
    const c = await s.published('Gamma');
    const candidates = (await s.as.reader.get(`${s.base}/bulk/read`)).json().documents;
    expect(candidates.map((d: { title: string }) => d.title)).toEqual(['Alpha', 'Beta', 'Gamma']);
    // Another project's policy is simply not found; the others are read.
    const elsewhere = 999_999;
    const first = await s.as.reader.post(`${s.base}/bulk/read`, { document_ids: [a.id, elsewhere, b.id, c.id] });
    expect(first.statusCode, first.body).toBe(200);
    expect(s.outcomes(first)).toEqual([
      [a.id, 'done'],
      [elsewhere, 'failed'],
      [b.id, 'done'],
      [c.id, 'done'],
    ]);
    expect(first.json().results[1].message).toBe('Policy not found.');
    const retry = await s.as.reader.post(`${s.base}/bulk/read`, { document_ids: [a.id, b.id, c.id] });
    expect(s.outcomes(retry)).toEqual([
      [a.id, 'already_done'],
      [b.id, 'already_done'],
      [c.id, 'already_done'],
    ]);
    expect(await db().select().from(policyAttestations)).toHaveLength(3);
    expect((await s.as.reader.get(`${s.base}/bulk/read`)).json().documents).toEqual([]);
    const tooMany = await s.as.reader.post(`${s.base}/bulk/read`, {
      document_ids: Array.from({ length: 51 }, (_, i) => i + 1),
    });
    expect(tooMany.statusCode).toBe(400);
    const twice = await s.as.reader.post(`${s.base}/bulk/read`, { document_ids: [a.id, a.id] });
    expect(twice.json().errors.document_ids).toEqual(['A policy is listed twice.']);
  });

  it('sends drafts to review, refusing the ones whose department cannot run the workflow', async () => {
    const s = await setup();
    const ok = await s.create('Ready');
    const stuck = await s.create('No reviewers', s.pharmacy.id);
    const candidates = (await s.as.author.get(`${s.base}/bulk/send-to-sign`)).json().documents;
    expect(candidates.map((d: { title: string; note: string | null }) => [d.title, d.note !== null])).toEqual([
      ['No reviewers', true],
      ['Ready', false],
    ]);
    const sent = await s.as.author.post(`${s.base}/bulk/send-to-sign`, { document_ids: [ok.id, stuck.id] });
    expect(s.outcomes(sent)).toEqual([
      [ok.id, 'done'],
      [stuck.id, 'failed'],
    ]);
    expect(sent.json().results[1].message).toMatch(/no reviewers/);
    const retry = await s.as.author.post(`${s.base}/bulk/send-to-sign`, { document_ids: [ok.id] });
    expect(s.outcomes(retry)).toEqual([[ok.id, 'already_done']]);
    const events = await db()
      .select()
      .from(policyWorkflowEvents)
      .where(and(eq(policyWorkflowEvents.documentId, ok.id), eq(policyWorkflowEvents.action, 'send_to_review')));
    expect(events).toHaveLength(1);
  });

  it('starts new versions of published policies, once each', async () => {
    const s = await setup();
    const a = await s.published('One');
    const b = await s.published('Two');
    const draft = await s.create('Never published');
    expect(
      (await s.as.author.get(`${s.base}/bulk/new-version`)).json().documents.map((d: { id: number }) => d.id),
    ).toEqual([a.id, b.id]);
    const started = await s.as.author.post(`${s.base}/bulk/new-version`, { document_ids: [a.id, b.id, draft.id] });
    expect(s.outcomes(started)).toEqual([
      [a.id, 'done'],
      [b.id, 'done'],
      [draft.id, 'failed'],
    ]);
    const again = await s.as.author.post(`${s.base}/bulk/new-version`, { document_ids: [a.id] });
    expect(s.outcomes(again)).toEqual([[a.id, 'already_done']]);
    const versions = await db().select().from(policyVersions).where(eq(policyVersions.documentId, a.id));
    expect(versions.map((v) => [v.version, v.state]).sort()).toEqual([
      [1, 'published'],
      [2, 'draft'],
    ]);
  });

  it('signs a batch with the credentials entered once, for the confirmed policies only, for ten minutes', async () => {
    const s = await setup();
    const docs = [await s.create('S1'), await s.create('S2'), await s.create('S3')];
    for (const doc of docs) {
      await s.as.author.post(`${s.base}/documents/${doc.id}/send-to-review`, {});
      await s.as.reviewer1.post(`${s.base}/documents/${doc.id}/review`, { decision: 'approve' });
      await s.as.reviewer2.post(`${s.base}/documents/${doc.id}/review`, { decision: 'approve' });
    }
    const ids = docs.map((d) => d.id);
    expect((await s.as.signer1.get(`${s.base}/bulk/sign`)).json().documents.map((d: { id: number }) => d.id)).toEqual(
      ids,
    );
    const wrong = await s.as.signer1.post(`${s.base}/bulk/sign/authorize`, { document_ids: ids, password: 'nope' });
    expect(wrong.statusCode).toBe(422);
    const noToken = await s.as.signer1.post(`${s.base}/bulk/sign`, { document_ids: [ids[0]] });
    expect(noToken.statusCode).toBe(423);

    const authorized = await s.as.signer1.post(`${s.base}/bulk/sign/authorize`, {
      document_ids: ids.slice(0, 2),
      password: PASSWORD,
    });
    expect(authorized.statusCode, authorized.body).toBe(200);
    const token = authorized.json().batch_token as string;
    const outside = await s.as.signer1.post(`${s.base}/bulk/sign`, { document_ids: [ids[2]], batch_token: token });
    expect(outside.statusCode).toBe(423);
    const chunk = await s.as.signer1.post(`${s.base}/bulk/sign`, { document_ids: ids.slice(0, 2), batch_token: token });
    expect(s.outcomes(chunk)).toEqual([
      [ids[0], 'done'],
      [ids[1], 'done'],
    ]);
    const retry = await s.as.signer1.post(`${s.base}/bulk/sign`, { document_ids: [ids[0]], batch_token: token });
    expect(s.outcomes(retry)).toEqual([[ids[0], 'already_done']]);
    // Another signer's session cannot use the token.
    const stolen = await s.as.signer2.post(`${s.base}/bulk/sign`, { document_ids: [ids[0]], batch_token: token });
    expect(stolen.statusCode).toBe(423);
    ctx.clock.advance(minutes(11));
    const expired = await s.as.signer1.post(`${s.base}/bulk/sign`, { document_ids: [ids[1]], batch_token: token });
    expect(expired.statusCode).toBe(423);
    const signatures = await db().select().from(policySignatures);
    expect(signatures.map((x) => x.documentId).sort()).toEqual(ids.slice(0, 2).sort());
    const [row] = await db().select().from(policyDocuments).where(eq(policyDocuments.id, ids[0]!));
    // Sara has not signed: the policy still waits for her.
    expect(row!.status).toBe('pending_signature');
  });
});
