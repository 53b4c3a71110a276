import { and, eq } from 'drizzle-orm';
import { extractText } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { policyProject, publishDraft } from '../../../test/policy-kit.js';
import { auditEvents, policyDocuments, policyWorkflowEvents } from '../../db/schema/index.js';

async function pdfWords(payload: Buffer): Promise<string> {
  const { text } = await extractText(new Uint8Array(payload), { mergePages: true });
  return text.replace(/\s+/g, ' ');
}

describe('a policy as a PDF', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;

  it('prints the current version with its dates and that printed copies are not controlled', async () => {
    const s = await policyProject(db());
    const base = `/api/projects/${s.project.id}/policy-management`;
    const admin = await ctx.signedIn(s.people.admin);
    const created = await admin.post(`${base}/documents`, {
      title: 'Hand hygiene',
      number: '3.1',
      content: '<h2>Purpose</h2><p>Clean hands before every patient contact.</p><ul><li>Use alcohol rub.</li></ul>',
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as number;

    const reader = await ctx.signedIn(s.people.reader);
    // Nothing published yet: nothing to print for anyone.
    expect((await admin.get(`${base}/documents/${id}/pdf`)).statusCode).toBe(404);
    await publishDraft(db(), id, '2026-03-01');
    const [published] = await db().select().from(policyDocuments).where(eq(policyDocuments.id, id));
    // Approved when the workflow published it (publishDraft stands in for the workflow, so the event is written here).
    await db()
      .insert(policyWorkflowEvents)
      .values({
        projectId: s.project.id,
        documentId: id,
        versionId: published!.currentVersionId!,
        actorId: s.people.admin.id,
        action: 'published',
        createdAt: new Date('2026-02-20T15:00:00Z'),
      });

    // The page says when it was approved too.
    expect((await reader.get(`${base}/documents/${id}`)).json().approved_at).toBe('2026-02-20T15:00:00.000Z');
    const answer = await reader.get(`${base}/documents/${id}/pdf?paper=a4`);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.headers['content-type']).toBe('application/pdf');
    expect(answer.headers['content-disposition']).toContain('3.1 Hand hygiene v1.pdf');
    const words = await pdfWords(answer.rawPayload);
    expect(words).toContain('3.1 Hand hygiene');
    expect(words).toContain('Clean hands before every patient contact.');
    expect(words).toContain('Effective March 1, 2026');
    expect(words).toContain('Approved February 20, 2026');
    expect(words).toContain('Printed copies are not controlled.');
    expect(words).toContain(`/p/${s.project.id}/3.1`);
    expect(words).toContain('Page 1 of 1');

    const [event] = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'policy.document_pdf_downloaded'), eq(auditEvents.subjectId, String(id))));
    expect(event?.data).toMatchObject({ version: 1, paper: 'a4' });

    // Another project's member learns nothing; a bad paper size is a 400.
    const outsider = await ctx.signedIn(s.people.outsider);
    expect((await outsider.get(`${base}/documents/${id}/pdf`)).statusCode).toBe(404);
    // Signed out: 401; a member without a policy role: 403.
    expect((await ctx.agent().get(`${base}/documents/${id}/pdf`)).statusCode).toBe(401);
    expect((await (await ctx.signedIn(s.people.noRole)).get(`${base}/documents/${id}/pdf`)).statusCode).toBe(403);
    expect((await reader.get(`${base}/documents/${id}/pdf?paper=tabloid`)).statusCode).toBe(400);
  });
});
