import { and, desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app.js';
import { drawnSample, samplingSetup } from '../../test/chart-review-sampling-kit.js';
import { insertPage, monitoringProject } from '../../test/monitoring-kit.js';
import { workflowProject } from '../../test/workflow-kit.js';
import {
  auditEvents,
  crPrograms,
  crSamples,
  emailLog,
  monPages,
  notifications,
  policyDocuments,
  policySignatures,
  policyVersions,
  policyWorkflowEvents,
} from '../db/schema/index.js';
import { sealAuditChain, verifyAuditChain } from '../lib/audit-chain.js';
import { minutes } from '../lib/clock.js';

/**
 * DESIGN "Time is an input like any other": what a request writes is stamped with the app's clock, not the wall
 * clock, so a server started at a clock offset lives through day 366 consistently. The clock here is a year ahead.
 */
describe('the app clock stamps what requests write', () => {
  // A year on, the project admins of the kits would be past their two-factor grace period.
  const ctx = useTestApp({ env: { MFA_REQUIRED_ROLES: 'superadmin' } });
  const db = () => ctx.db.handle.db;
  /** A year ahead of the wall clock, to the second. */
  const aYearAhead = () => new Date(Math.floor(Date.now() / 1000) * 1000 + 366 * 86_400_000);
  const lastAudit = async (action: string) =>
    (await db().select().from(auditEvents).where(eq(auditEvents.action, action)).orderBy(desc(auditEvents.id)))[0]!;

  it('a policy published a year on: its version, signatures, history, audit, bell and email carry that time', async () => {
    const created = aYearAhead();
    ctx.clock.set(created);
    const s = await workflowProject(db());
    const base = `/api/projects/${s.project.id}/policy-management`;
    const [author, reviewer1, reviewer2, signer1, signer2] = await Promise.all(
      [s.people.author, s.people.reviewer1, s.people.reviewer2, s.people.signer1, s.people.signer2].map((person) =>
        ctx.signedIn(person),
      ),
    );
    const draft = await author!.post(`${base}/documents`, {
      title: 'Hand hygiene',
      department_id: s.nursing.id,
      content: '<p>Wash, then gloves.</p>',
    });
    expect(draft.statusCode, draft.body).toBe(201);
    const { id, draft_version: version } = draft.json() as { id: number; draft_version: { id: number } };
    expect((await author!.post(`${base}/documents/${id}/send-to-review`, {})).statusCode).toBe(200);
    for (const reviewer of [reviewer1!, reviewer2!]) {
      const approved = await reviewer.post(`${base}/documents/${id}/review`, { decision: 'approve' });
      expect(approved.statusCode, approved.body).toBe(200);
    }
    // Signed 20 minutes later (within the session's idle time): the publication stamps the time of the signature
    // that completed it.
    ctx.clock.advance(minutes(20));
    const published = ctx.clock.now();
    for (const signer of [signer1!, signer2!]) {
      const signed = await signer.post(`${base}/documents/${id}/sign`, {
        version_id: version.id,
        password: 'Vq9!rT4#mLp2$Xz8',
      });
      expect(signed.statusCode, signed.body).toBe(200);
    }

    const [doc] = await db().select().from(policyDocuments).where(eq(policyDocuments.id, id));
    expect(doc).toMatchObject({ status: 'published', createdAt: created, updatedAt: published });
    expect(doc!.effectiveOn).toBe(published.toISOString().slice(0, 10));
    const [row] = await db().select().from(policyVersions).where(eq(policyVersions.id, version.id));
    expect(row).toMatchObject({ state: 'published', createdAt: created, updatedAt: published });
    const signatures = await db().select().from(policySignatures).where(eq(policySignatures.documentId, id));
    expect(signatures.map((signature) => signature.signedAt)).toEqual([published, published]);
    const events = await db()
      .select({ action: policyWorkflowEvents.action, at: policyWorkflowEvents.createdAt })
      .from(policyWorkflowEvents)
      .where(eq(policyWorkflowEvents.documentId, id));
    expect(events.find((event) => event.action === 'send_to_review')?.at).toEqual(created);
    expect(events.find((event) => event.action === 'published')?.at).toEqual(published);
    expect((await lastAudit('policy.document_published')).createdAt).toEqual(published);

    // The readers hear of it by bell and email, both at the clock's time.
    const [bell] = await db()
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, s.people.reader.id), eq(notifications.projectId, s.project.id)));
    expect(bell).toMatchObject({ message: expect.stringContaining('Hand hygiene'), createdAt: published });
    const mail = ctx.mailbox.last(s.people.reader.email)!;
    expect(mail).toMatchObject({ subject: 'Policy to read: Hand hygiene', at: published });
    // The outbox logged it at that time too (not the wall clock's).
    const [logged] = await db()
      .select()
      .from(emailLog)
      .where(eq(emailLog.toAddress, s.people.reader.email))
      .orderBy(desc(emailLog.id))
      .limit(1);
    expect(logged).toMatchObject({ subject: 'Policy to read: Hand hygiene', status: 'logged', createdAt: published });

    // Events stamped by the clock seal into the hash chain and verify like any other.
    await sealAuditChain(db());
    expect(await verifyAuditChain(db())).toMatchObject({ ok: true, unsealed: 0 });
  });

  it('a monitoring page created and updated, and a chart review sample drawn, a year on carry that time', async () => {
    const at = aYearAhead();
    ctx.clock.set(at);
    const m = await monitoringProject(db());
    const monitoring = `/api/projects/${m.project.id}/monitoring`;
    const admin = await ctx.signedIn(m.people.admin);
    // A page written before (the database's time), edited now.
    const page = await insertPage(db(), m.project.id, { title: 'Falls', number: '1' });
    const edited = await admin.put(`${monitoring}/pages/${page.id}`, { version: 1, title: 'Falls with injury' });
    expect(edited.statusCode, edited.body).toBe(200);
    const [updated] = await db().select().from(monPages).where(eq(monPages.id, page.id));
    expect(updated!.updatedAt).toEqual(at);
    expect(updated!.createdAt).not.toEqual(at);
    expect((await lastAudit('monitoring.page_updated')).createdAt).toEqual(at);
    const added = await admin.post(`${monitoring}/pages`, { title: 'Pressure injuries', parent_id: null });
    expect(added.statusCode, added.body).toBe(201);
    const [fresh] = await db()
      .select()
      .from(monPages)
      .where(eq(monPages.id, (added.json() as { id: number }).id));
    expect(fresh).toMatchObject({ createdAt: at, updatedAt: at });

    const s = await samplingSetup(ctx);
    const [program] = await db().select().from(crPrograms).where(eq(crPrograms.id, s.program.id));
    expect(program).toMatchObject({ createdAt: at, updatedAt: at });
    ctx.clock.advance(minutes(20));
    const sample = await drawnSample(s);
    const [row] = await db().select().from(crSamples).where(eq(crSamples.id, sample.id));
    expect(row).toMatchObject({ status: 'drawn', uploadedAt: ctx.clock.now(), drawnAt: ctx.clock.now() });
    expect(sample.drawn_at).toBe(ctx.clock.now().toISOString());
    expect((await lastAudit('chart_review.sample_drawn')).createdAt).toEqual(ctx.clock.now());
  });
});
