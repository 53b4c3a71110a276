import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { publishDraft } from '../../../test/policy-kit.js';
import { workflowProject } from '../../../test/workflow-kit.js';
import { policyAttestations, policyDocuments } from '../../db/schema/index.js';

describe('policy dashboard, reviews due and tasks', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;

  it('answers the dashboard: by status, revisions, reviews due, attestation per department, activity', async () => {
    const s = await workflowProject(db());
    const day = (offset: number) =>
      new Date(ctx.clock.now().getTime() + offset * 86_400_000).toISOString().slice(0, 10);
    const base = `/api/projects/${s.project.id}/policy-management`;
    const admin = await ctx.signedIn(s.people.admin);
    const author = await ctx.signedIn(s.people.author);
    const reader = await ctx.signedIn(s.people.reader);
    const create = async (title: string) =>
      (await author.post(`${base}/documents`, { title, department_id: s.nursing.id })).json() as {
        id: number;
      };
    const a = await create('Alpha');
    const b = await create('Beta');
    await create('Gamma draft');
    await publishDraft(db(), a.id);
    await publishDraft(db(), b.id);
    await db()
      .update(policyDocuments)
      .set({ nextReviewOn: day(-9), ownerId: s.people.author.id })
      .where(eq(policyDocuments.id, a.id));
    await db()
      .update(policyDocuments)
      .set({ nextReviewOn: day(15) })
      .where(eq(policyDocuments.id, b.id));
    await author.post(`${base}/documents/${b.id}/new-version`);
    await author.post(`${base}/documents/${b.id}/send-to-review`, {});
    // Rita reads Alpha; Sam (signer and reader) reads nothing yet.
    const [alpha] = await db().select().from(policyDocuments).where(eq(policyDocuments.id, a.id));
    expect(
      (await reader.post(`${base}/documents/${a.id}/attest`, { version_id: alpha!.currentVersionId })).statusCode,
    ).toBe(200);

    const answer = await admin.get(`${base}/admin-dashboard`);
    expect(answer.statusCode, answer.body).toBe(200);
    const dashboard = answer.json();
    expect(dashboard.by_status).toEqual({ draft: 1, in_review: 0, pending_signature: 0, published: 2, archived: 0 });
    expect(dashboard.revisions).toEqual({ draft: 0, in_review: 1, pending_signature: 0 });
    expect(dashboard.overdue_reviews).toMatchObject([{ id: a.id, days: -9, owner: { name: 'Otto Author' } }]);
    expect(dashboard.due_soon_reviews).toMatchObject([{ id: b.id, days: 15 }]);
    expect([dashboard.overdue_count, dashboard.due_soon_count]).toEqual([1, 1]);
    // Two published policies x two readers, one attestation.
    expect(dashboard.attestation).toEqual([
      { department: { id: s.nursing.id, name: 'Nursing', code: 'NUR' }, attested: 1, required: 4, rate: 0.25 },
    ]);
    expect(dashboard.recent_activity[0]).toMatchObject({
      actor: 'Rita Reader',
      summary: 'Read and attested',
      document: { id: a.id, title: 'Alpha' },
    });
    expect(dashboard.recent_activity.map((x: { summary: string }) => x.summary)).toContain(
      'Sent for review (version 2)',
    );

    const due = (await reader.get(`${base}/reviews/due`)).json();
    expect([due.overdue.map((r: { id: number }) => r.id), due.due_soon.map((r: { id: number }) => r.id)]).toEqual([
      [a.id],
      [b.id],
    ]);
    const tasks = (await author.get(`${base}/my-tasks`)).json();
    expect(tasks.reviews_due.map((r: { id: number }) => r.id)).toEqual([a.id, b.id]);
    const sam = await ctx.signedIn(s.people.signer1);
    expect(
      (await sam.get(`${base}/my-tasks`))
        .json()
        .to_read.map((t: { id: number }) => t.id)
        .sort(),
    ).toEqual([a.id, b.id].sort());
    expect(await db().select().from(policyAttestations)).toHaveLength(1);
  });
});
