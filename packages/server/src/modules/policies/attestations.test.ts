import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { publishDraft } from '../../../test/policy-kit.js';
import { postDraft, workflowProject } from '../../../test/workflow-kit.js';
import { policyDocuments, users } from '../../db/schema/index.js';
import { csvField } from '../../lib/csv.js';

describe('department health and attestation reports', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;

  async function setup() {
    const s = await workflowProject(db());
    const base = `/api/projects/${s.project.id}/policy-management`;
    const as = await ctx.signedInAll(s.people, 'admin', 'author', 'reader', 'signer1');
    const create = (title: string, departmentId = s.nursing.id) => postDraft(as.author, base, title, departmentId);
    /** A published policy of the department, its next review `reviewInDays` from the test clock's today. */
    const published = async (title: string, reviewInDays: number) => {
      const doc = await create(title);
      await publishDraft(db(), doc.id);
      const next = new Date(ctx.clock.now().getTime() + reviewInDays * 86_400_000).toISOString().slice(0, 10);
      await db().update(policyDocuments).set({ nextReviewOn: next }).where(eq(policyDocuments.id, doc.id));
      const [row] = await db().select().from(policyDocuments).where(eq(policyDocuments.id, doc.id));
      return { id: doc.id, versionId: row!.currentVersionId! };
    };
    return { ...s, base, as, create, published };
  }

  it('shows what each department lacks: people, overdue reviews, reading', async () => {
    const s = await setup();
    const late = await s.published('Late review', -3);
    await s.published('Review soon', 10);
    await s.published('Review later', 200);
    expect(
      (await s.as.reader.post(`${s.base}/documents/${late.id}/attest`, { version_id: late.versionId })).statusCode,
    ).toBe(200);
    // Every main role may look (a reader too).
    const answer = await s.as.reader.get(`${s.base}/healthy-departments`);
    expect(answer.statusCode, answer.body).toBe(200);
    const [nursing, pharmacy] = answer.json().departments;
    expect(nursing).toEqual({
      id: s.nursing.id,
      name: 'Nursing',
      code: 'NUR',
      parent_id: null,
      reviewers: 2,
      signers: 2,
      readers: 2,
      documents: 3,
      overdue_reviews: 1,
      due_soon_reviews: 1,
      attested: 1,
      required: 6,
      attestation_rate: 1 / 6,
      gaps: ['1 overdue review', 'Attestation 16%'],
    });
    expect(pharmacy).toMatchObject({
      code: 'PHA',
      documents: 0,
      attestation_rate: null,
      gaps: ['No reviewers', 'No signer', 'No readers'],
    });
  });

  it("reports a policy's attestations by reader, as JSON and as escaped CSV", async () => {
    const s = await setup();
    await db().update(users).set({ firstName: '=1+2' }).where(eq(users.id, s.people.reader.id));
    const doc = await s.published('Hand hygiene', 100);
    await s.as.reader.post(`${s.base}/documents/${doc.id}/attest`, { version_id: doc.versionId });
    // An admin who is not a reader of Nursing attests too: listed apart.
    await s.as.admin.post(`${s.base}/documents/${doc.id}/attest`, { version_id: doc.versionId });

    const report = await s.as.signer1.get(`${s.base}/documents/${doc.id}/attestations`);
    expect(report.statusCode, report.body).toBe(200);
    const body = report.json();
    expect(body.document).toMatchObject({ id: doc.id, title: 'Hand hygiene', department: { code: 'NUR' } });
    expect(body.version).toMatchObject({ id: doc.versionId, version: 1 });
    expect(
      body.readers.map((r: { person: { name: string }; last_attested_version: number | null }) => [
        r.person.name,
        r.last_attested_version,
      ]),
    ).toEqual([
      ['=1+2 Reader', 1],
      ['Sam Signer', null],
    ]);
    expect(body.readers[0].attested_at).toEqual(expect.any(String));
    expect(body.readers[1].attested_at).toBeNull();
    expect(body.others.map((o: { person: { name: string } }) => o.person.name)).toEqual(['Ada Admin']);
    expect(body).toMatchObject({ attested: 1, required: 2, rate: 0.5 });

    const csv = await s.as.signer1.get(`${s.base}/documents/${doc.id}/attestations.csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="attestations-policy-${doc.id}-v1.csv"`);
    const lines = csv.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('Name,Email,Version,Attested at,Status');
    expect(lines[1]).toBe(`'=1+2 Reader,${s.people.reader.email},1,${body.readers[0].attested_at},attested`);
    expect(lines[2]).toBe(`Sam Signer,${s.people.signer1.email},1,,pending`);
    expect(lines).toHaveLength(3);
  });

  it('answers 404 for a policy the actor cannot see, and nothing required before publication', async () => {
    const s = await setup();
    const draft = await s.create('Draft only');
    expect((await s.as.signer1.get(`${s.base}/documents/${draft.id}/attestations`)).statusCode).toBe(404);
    expect((await s.as.signer1.get(`${s.base}/documents/${draft.id}/attestations.csv`)).statusCode).toBe(404);
    expect((await s.as.admin.get(`${s.base}/documents/999999/attestations`)).statusCode).toBe(404);
    const mine = (await s.as.admin.get(`${s.base}/documents/${draft.id}/attestations`)).json();
    expect(mine).toMatchObject({ version: null, attested: 0, required: 0, rate: null });
    const bad = await s.as.admin.get(`${s.base}/documents/abc/attestations`);
    expect(bad.statusCode).toBe(400);
  });

  it("reports a department's published policies by reader, as JSON and CSV", async () => {
    const s = await setup();
    const first = await s.published('Alpha', 100);
    const second = await s.published('Beta', 100);
    await s.create('Unpublished');
    await s.as.reader.post(`${s.base}/documents/${first.id}/attest`, { version_id: first.versionId });
    await s.as.signer1.post(`${s.base}/documents/${first.id}/attest`, { version_id: first.versionId });

    const answer = await s.as.admin.get(`${s.base}/departments/${s.nursing.id}/attestations`);
    expect(answer.statusCode, answer.body).toBe(200);
    const body = answer.json();
    expect(body.department).toEqual({ id: s.nursing.id, name: 'Nursing', code: 'NUR' });
    expect(body.readers.map((r: { name: string }) => r.name)).toEqual(['Rita Reader', 'Sam Signer']);
    expect(
      body.documents.map((d: { id: number; attested: number; required: number; pending: { name: string }[] }) => [
        d.id,
        d.attested,
        d.required,
        d.pending.map((p) => p.name),
      ]),
    ).toEqual([
      [first.id, 2, 2, []],
      [second.id, 0, 2, ['Rita Reader', 'Sam Signer']],
    ]);
    expect(body).toMatchObject({ attested: 2, required: 4, rate: 0.5 });

    const csv = await s.as.admin.get(`${s.base}/departments/${s.nursing.id}/attestations.csv`);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toMatch(
      /^attachment; filename="attestations-NUR-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const lines = csv.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('Number,Title,Version,Name,Email,Attested at,Status');
    expect(lines.slice(1).map((l) => l.split(',').filter((_, i) => [1, 3, 6].includes(i)))).toEqual([
      ['Alpha', 'Rita Reader', 'attested'],
      ['Alpha', 'Sam Signer', 'attested'],
      ['Beta', 'Rita Reader', 'pending'],
      ['Beta', 'Sam Signer', 'pending'],
    ]);
    // An empty department answers an empty report.
    const empty = (await s.as.admin.get(`${s.base}/departments/${s.pharmacy.id}/attestations`)).json();
    expect(empty).toMatchObject({ readers: [], documents: [], attested: 0, required: 0, rate: null });
  });

  it('escapes cells a spreadsheet would run as a formula', () => {
    expect(['=SUM(A1)', '+1', '-1', '@x', '\tx', 'plain', 'a,b', 'say "hi"', null].map(csvField)).toEqual([
      "'=SUM(A1)",
      "'+1",
      "'-1",
      "'@x",
      "'\tx",
      'plain',
      '"a,b"',
      '"say ""hi"""',
      '',
    ]);
  });
});
