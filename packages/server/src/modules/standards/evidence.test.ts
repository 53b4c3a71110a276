import type { StdElement, StdReadiness, StdTree } from '@portal/shared';
import { and, count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Agent } from '../../../test/agent.js';
import { useTestApp } from '../../../test/app.js';
import { setMainRole } from '../../../test/factories.js';
import { multipart } from '../../../test/policy-kit.js';
import {
  addPolicy,
  auditOf,
  createAssessment,
  expectGuards,
  expectSwitchedOff,
  type GuardedCall,
  importFramework,
  readElement,
  type StandardsSetup,
  saveElement,
  standardsSetup,
  standardsSnapshot,
} from '../../../test/standards-kit.js';
import { policyDocuments, projects, stdEvidence, stdReqAssessments, storedFiles } from '../../db/schema/index.js';
import { STANDARDS_FORBIDDEN } from '../../policies/standards.js';
import { unsafeReopenExpiredEvidence } from './evidence.service.js';

/**
 * Evidence on standard elements: links, files and notes with status and expiry, who may add, approve and remove
 * them, the file round trip, the `no_evidence` and `expiring` filters, readiness, and the daily job that sends done
 * elements with expired evidence back to review (docs/standards.md "Evidence").
 */
describe('standards evidence', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;
  const TODAY = new Date('2026-11-27T12:00:00Z');
  const REVIEW_ONLY = 'Only those who may change this element approve or reject evidence; yours waits in review.';

  const PDF = Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n');
  const PNG = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    Buffer.from('0000000dIHDR fake image body'),
  ]);
  const CSV = Buffer.from('date,room,checked\n2026-11-01,4B,yes\n2026-11-02,4C,caf\xe9\n', 'latin1');

  const link = (overrides: Record<string, unknown> = {}) => ({
    kind: 'link',
    title: 'Board minutes 2026',
    url: 'https://intranet.example.org/board/minutes-2026',
    note: '',
    expires_on: null,
    ...overrides,
  });
  const addLink = async (agent: Agent, s: StandardsSetup, reqId: number, overrides: Record<string, unknown> = {}) => {
    const answer = await agent.post(`${s.base}/req-assessments/${reqId}/evidence`, link(overrides));
    expect(answer.statusCode, answer.body).toBe(201);
    return (answer.json() as StdElement).evidence.at(-1)!;
  };
  const upload = (
    agent: Agent,
    base: string,
    reqId: number,
    file: { name: string; data: Buffer; type?: string },
    fields: Record<string, string> = {},
  ) => {
    const form = multipart(fields, file);
    return agent.post(`${base}/req-assessments/${reqId}/evidence/file`, form.payload, form.headers);
  };
  const storedCount = async () => (await db().select({ n: count() }).from(storedFiles))[0]!.n;

  // ---------------------------------------------------------------------------------------------- guards

  async function everyCall(s: StandardsSetup): Promise<GuardedCall[]> {
    const req = s.reqs['GOV.1.1'];
    const item = await addLink(s.admin, s, req);
    const uploaded = await upload(s.admin, s.base, req, { name: 'minutes.pdf', data: PDF });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const file = (uploaded.json() as StdElement).evidence.at(-1)!;
    return [
      {
        method: 'POST',
        path: `/req-assessments/${req}/evidence`,
        body: link({ title: 'Another link' }),
        viewer: false,
        namesRow: true,
      },
      // Refused before the body is read, whatever it holds.
      { method: 'POST', path: `/req-assessments/${req}/evidence/file`, body: {}, viewer: false, namesRow: true },
      { method: 'PUT', path: `/evidence/${item.id}`, body: { status: 'rejected' }, viewer: false, namesRow: true },
      { method: 'DELETE', path: `/evidence/${item.id}`, viewer: false, namesRow: true },
      { method: 'GET', path: `/evidence/${file.id}/file`, viewer: true, namesRow: true },
    ];
  }

  it('guards every call: 401, 403 without a role, 403 for the viewer on changes, 404 elsewhere, 419 without XSRF', async () => {
    const s = await standardsSetup(ctx);
    await expectGuards(ctx, s, await everyCall(s));
    // A real upload by the viewer stores nothing either.
    const viewer = await ctx.signedIn(s.people.viewer);
    const files = await storedCount();
    const refused = await upload(viewer, s.base, s.reqs['GOV.1.1'], { name: 'minutes.pdf', data: PDF });
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json().message).toBe(STANDARDS_FORBIDDEN);
    expect(await storedCount()).toBe(files);
  });

  it('answers 404 to every call when standards is switched off for the project', async () => {
    const s = await standardsSetup(ctx);
    await expectSwitchedOff(ctx, s, await everyCall(s));
  });

  // ---------------------------------------------------------------------------------------------- adding

  it('adds links, notes and files; the file comes back byte for byte as an attachment', async () => {
    ctx.clock.set(TODAY);
    const s = await standardsSetup(ctx);
    const owner = await ctx.signedIn(s.people.owner);
    const req = s.reqs['GOV.1.1'];

    const added = await s.admin.post(
      `${s.base}/req-assessments/${req}/evidence`,
      link({ status: 'approved', expires_on: '2027-06-30', note: 'Signed by the chair.' }),
    );
    expect(added.statusCode, added.body).toBe(201);
    const panel = added.json() as StdElement;
    expect(panel.id).toBe(req);
    expect(panel.evidence).toEqual([
      {
        id: expect.any(Number),
        kind: 'link',
        title: 'Board minutes 2026',
        url: 'https://intranet.example.org/board/minutes-2026',
        file: null,
        note: 'Signed by the chair.',
        status: 'approved',
        expires_on: '2027-06-30',
        expired: false,
        expiring: false,
        created_by: { id: s.people.admin.id, name: 'Ada Admin' },
        created_at: expect.any(String),
      },
    ]);
    expect(panel.history[0]).toMatchObject({
      action: 'evidence_added',
      actor: 'Ada Admin',
      summary: 'Evidence added: Board minutes 2026 (Link, Approved, expires 2027-06-30)',
    });

    // The owner's note: in review unless said otherwise.
    const note = await owner.post(`${s.base}/req-assessments/${req}/evidence`, {
      kind: 'note',
      title: 'Quarterly meetings',
      note: 'The board met on 12 March, 11 June, 10 September and 10 December.',
    });
    expect(note.statusCode, note.body).toBe(201);
    expect((note.json() as StdElement).evidence[1]).toMatchObject({
      kind: 'note',
      url: null,
      file: null,
      status: 'in_review',
      expires_on: null,
      created_by: { id: s.people.owner.id, name: 'Owen Owner' },
    });

    // A file, with its fields before it; the owner approves their own element's evidence.
    const uploaded = await upload(
      owner,
      s.base,
      req,
      { name: 'board minutes.pdf', data: PDF, type: 'application/pdf' },
      { title: 'Signed minutes', note: 'Scanned.', status: 'approved', expires_on: '2027-01-10' },
    );
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const file = (uploaded.json() as StdElement).evidence[2]!;
    expect(file).toMatchObject({
      kind: 'file',
      title: 'Signed minutes',
      url: null,
      file: { name: 'board minutes.pdf', size: PDF.length, content_type: 'application/pdf' },
      note: 'Scanned.',
      status: 'approved',
      expires_on: '2027-01-10',
      expired: false,
      expiring: true,
    });
    const download = await (await ctx.signedIn(s.people.viewer)).get(`${s.base}/evidence/${file.id}/file`);
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(PDF)).toBe(true);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="board minutes.pdf"; filename*=UTF-8''board%20minutes.pdf`,
    );
    expect(download.headers['x-content-type-options']).toBe('nosniff');
    expect(download.headers['cache-control']).toBe('private, no-store');
    expect(download.headers['content-security-policy']).toBe("default-src 'none'; sandbox");

    // The type comes from the bytes and the name, never from what the browser declared; the title from the name.
    const csv = await upload(owner, s.base, req, {
      name: '../reports/Rounds <Nov>\u202e.csv',
      data: CSV,
      type: 'text/html',
    });
    expect(csv.statusCode, csv.body).toBe(201);
    const csvItem = (csv.json() as StdElement).evidence[3]!;
    expect(csvItem.title).toBe('Rounds _Nov_.csv');
    expect(csvItem.file).toMatchObject({ name: 'Rounds _Nov_.csv', content_type: 'text/csv' });
    const csvDownload = await owner.get(`${s.base}/evidence/${csvItem.id}/file`);
    expect(csvDownload.rawPayload.equals(CSV)).toBe(true);
    expect(csvDownload.headers['content-type']).toBe('text/csv');

    const png = await upload(owner, s.base, req, { name: 'Hand gel station.PNG', data: PNG });
    expect(png.statusCode, png.body).toBe(201);
    expect((png.json() as StdElement).evidence[4]!.file).toMatchObject({
      name: 'Hand gel station.png',
      content_type: 'image/png',
    });
    const audits = await auditOf(db(), s.project.id, 'standards.evidence_added');
    expect(audits.map((a) => a.subjectId)).toEqual(Array(5).fill(String(req)));
    expect(audits[2]!.data).toMatchObject({ kind: 'file', file_name: 'board minutes.pdf', size: PDF.length });
    // GET /req-assessments/{id} reads them the same way.
    expect((await readElement(s.admin, s.base, req)).evidence.map((e) => e.title)).toEqual([
      'Board minutes 2026',
      'Quarterly meetings',
      'Signed minutes',
      'Rounds _Nov_.csv',
      'Hand gel station.png',
    ]);
  });

  it('refuses links that are not http or https, and notes without words; nothing changes', async () => {
    const s = await standardsSetup(ctx);
    const url = `${s.base}/req-assessments/${s.reqs['GOV.1.1']}/evidence`;
    const before = await standardsSnapshot(db());
    for (const bad of [
      'javascript:alert(document.cookie)',
      'JavaScript://%0aalert(1)',
      'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
      'vbscript:msgbox(1)',
      'file:///etc/passwd',
      'ftp://files.example.org/minutes.pdf',
      'https://',
      '//evil.example.org/x',
      'intranet/minutes',
      '',
    ]) {
      const answer = await s.admin.post(url, link({ url: bad }));
      expect(answer.statusCode, bad).toBe(400);
      expect(answer.json().errors.url, bad).toEqual(['Enter a link starting with https:// or http://.']);
    }
    const empty = await s.admin.post(url, { kind: 'note', title: 'Note', note: '   ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors.note).toEqual(['Write the note.']);
    const untitled = await s.admin.post(url, link({ title: '' }));
    expect(untitled.json().errors.title).toEqual(['Give the evidence a title.']);
    // Files are uploaded as files, not described in JSON.
    expect((await s.admin.post(url, { kind: 'file', title: 'x', file_id: 1 })).statusCode).toBe(400);
    const badDay = await s.admin.post(url, link({ expires_on: '2027-02-30' }));
    expect(badDay.json().errors.expires_on).toEqual(['Enter the expiry date like 2027-03-01, or leave it empty.']);
    expect(await standardsSnapshot(db())).toEqual(before);
  });

  it('refuses files that are too large, empty, of another kind or not what their name says; nothing is stored', async () => {
    const s = await standardsSetup(ctx);
    const req = s.reqs['GOV.1.1'];
    const before = await standardsSnapshot(db());
    const files = await storedCount();

    const big = await upload(s.admin, s.base, req, {
      name: 'scan.pdf',
      data: Buffer.concat([PDF, Buffer.alloc(10 * 1024 * 1024 + 1 - PDF.length, 0x20)]),
    });
    expect(big.statusCode).toBe(413);
    expect(big.json().message).toBe('The file is larger than 10 MB. Compress it or split it.');

    const cases: [string, Buffer, string][] = [
      ['empty.pdf', Buffer.alloc(0), 'The file is empty.'],
      [
        'setup.exe',
        Buffer.from('MZ\x90\x00', 'latin1'),
        'Choose a file of a kind kept as evidence: PDF, Word, Excel, PNG, JPEG, GIF, WebP, CSV or text; at most 10 MB.',
      ],
      [
        'logo.svg',
        Buffer.from('<svg onload="alert(1)"/>'),
        'Choose a file of a kind kept as evidence: PDF, Word, Excel, PNG, JPEG, GIF, WebP, CSV or text; at most 10 MB.',
      ],
      [
        'page.html',
        Buffer.from('<script>alert(1)</script>'),
        'Choose a file of a kind kept as evidence: PDF, Word, Excel, PNG, JPEG, GIF, WebP, CSV or text; at most 10 MB.',
      ],
      [
        'minutes.pdf',
        Buffer.from('<html><script>alert(1)</script></html>'),
        'The file is not the PDF file its name says. Save it again as PDF, or rename it to what it is.',
      ],
      [
        'photo.jpg',
        PNG,
        'The file is not the JPEG image file its name says. Save it again as JPEG image, or rename it to what it is.',
      ],
      [
        'report.docx',
        PDF,
        'The file is not the Word file its name says. Save it again as Word, or rename it to what it is.',
      ],
      [
        'data.csv',
        Buffer.from([0x00, 0x01, 0x02, 0x03]),
        'The file is not the CSV file its name says. Save it again as CSV, or rename it to what it is.',
      ],
    ];
    for (const [name, data, message] of cases) {
      const answer = await upload(s.admin, s.base, req, { name, data });
      expect(answer.statusCode, name).toBe(400);
      expect(answer.json().errors.file, name).toEqual([message]);
    }
    // Not multipart, or no file part.
    const json = await s.admin.post(`${s.base}/req-assessments/${req}/evidence/file`, { title: 'x' });
    expect(json.statusCode).toBe(400);
    expect(json.json().message).toBe('Send the file as multipart/form-data in the field "file".');
    const form = multipart({ title: 'No file' });
    const noFile = await s.admin.post(`${s.base}/req-assessments/${req}/evidence/file`, form.payload, form.headers);
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json().errors.file).toEqual(['Choose a file.']);
    const badField = await upload(s.admin, s.base, req, { name: 'minutes.pdf', data: PDF }, { expires_on: 'soon' });
    expect(badField.statusCode).toBe(400);
    expect(badField.json().errors.expires_on).toEqual(['Enter the expiry date like 2027-03-01, or leave it empty.']);

    expect(await standardsSnapshot(db())).toEqual(before);
    expect(await storedCount()).toBe(files);
  });

  // ---------------------------------------------------------------------------------------------- who may

  it("keeps a contributor's evidence in review: they cannot approve it, an editor can", async () => {
    const s = await standardsSetup(ctx);
    const contributor = await ctx.signedIn(s.people.contributor);
    const req = s.reqs['GOV.2.1']; // Cora's element
    const item = await addLink(contributor, s, req, { title: 'QAPI plan 2026' });
    expect(item.status).toBe('in_review');

    const before = await standardsSnapshot(db());
    const asApproved = await contributor.post(
      `${s.base}/req-assessments/${req}/evidence`,
      link({ status: 'approved' }),
    );
    expect(asApproved.statusCode).toBe(403);
    expect(asApproved.json().message).toBe(REVIEW_ONLY);
    const rejectedUpload = await upload(
      contributor,
      s.base,
      req,
      { name: 'plan.pdf', data: PDF },
      { status: 'rejected' },
    );
    expect(rejectedUpload.statusCode).toBe(403);
    const approve = await contributor.put(`${s.base}/evidence/${item.id}`, { status: 'approved' });
    expect(approve.statusCode).toBe(403);
    expect(approve.json().message).toBe(REVIEW_ONLY);
    expect(await standardsSnapshot(db())).toEqual(before);

    // The admin approves it; the contributor's later edit sends it back to review.
    const approved = await s.admin.put(`${s.base}/evidence/${item.id}`, { status: 'approved' });
    expect(approved.statusCode, approved.body).toBe(200);
    expect((approved.json() as StdElement).evidence[0]!.status).toBe('approved');
    const edited = await contributor.put(`${s.base}/evidence/${item.id}`, { title: 'QAPI plan 2026 (signed)' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((edited.json() as StdElement).evidence[0]).toMatchObject({
      title: 'QAPI plan 2026 (signed)',
      status: 'in_review',
    });
    // Withdrawing to draft is theirs to do, and so is removing it.
    expect((await contributor.put(`${s.base}/evidence/${item.id}`, { status: 'draft' })).statusCode).toBe(200);
    expect((await contributor.delete(`${s.base}/evidence/${item.id}`)).statusCode).toBe(204);

    // A chapter lead approves below the nodes they lead.
    const lead = await ctx.signedIn(s.people.lead);
    const led = await addLink(lead, s, s.reqs['IC.1.1'], { status: 'approved' });
    expect(led.status).toBe('approved');
  });

  it('refuses people who may not link evidence to the element: the owner of another element, assessors', async () => {
    const s = await standardsSetup(ctx);
    const item = await addLink(s.admin, s, s.reqs['GOV.2.1']);
    const owner = await ctx.signedIn(s.people.owner); // owns GOV.1, not GOV.2
    const assessor = await ctx.signedIn(s.people.assessor);
    const contributor = await ctx.signedIn(s.people.contributor); // owns GOV.2, not GOV.1
    const before = await standardsSnapshot(db());
    const files = await storedCount();
    for (const [who, agent, reqId, evidenceId] of [
      ['owner', owner, s.reqs['GOV.2.1'], item.id],
      ['assessor', assessor, s.reqs['GOV.2.1'], item.id],
      ['contributor', contributor, s.reqs['GOV.1.1'], null],
      ['owner on an unowned element', owner, s.reqs['OB.1'], null],
    ] as const) {
      const add = await agent.post(`${s.base}/req-assessments/${reqId}/evidence`, link());
      expect(add.statusCode, who).toBe(403);
      expect(add.json().message, who).toBe(STANDARDS_FORBIDDEN);
      expect((await upload(agent, s.base, reqId, { name: 'a.pdf', data: PDF })).statusCode, who).toBe(403);
      if (evidenceId !== null) {
        expect((await agent.put(`${s.base}/evidence/${evidenceId}`, { title: 'Mine now' })).statusCode, who).toBe(403);
        expect((await agent.delete(`${s.base}/evidence/${evidenceId}`)).statusCode, who).toBe(403);
      }
    }
    // Reading is anyone's with a standards role.
    expect((await readElement(assessor, s.base, s.reqs['GOV.2.1'])).evidence).toHaveLength(1);
    expect(await standardsSnapshot(db())).toEqual(before);
    expect(await storedCount()).toBe(files);
    expect((await s.admin.put(`${s.base}/evidence/999999`, { title: 'x' })).statusCode).toBe(404);
    expect((await s.admin.get(`${s.base}/evidence/${item.id}/file`)).statusCode).toBe(404); // a link has no file
  });

  // ---------------------------------------------------------------------------------------------- changes

  it('audits changes and removal in the element history; removal deletes the file', async () => {
    ctx.clock.set(TODAY);
    const s = await standardsSetup(ctx);
    const req = s.reqs['GOV.1.2'];
    const uploaded = await upload(s.admin, s.base, req, { name: 'minutes.pdf', data: PDF }, { title: 'Minutes' });
    const item = (uploaded.json() as StdElement).evidence[0]!;
    const changed = await s.admin.put(`${s.base}/evidence/${item.id}`, {
      title: 'Signed minutes',
      note: 'All four meetings.',
      status: 'approved',
      expires_on: '2027-12-31',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const panel = changed.json() as StdElement;
    expect(panel.evidence[0]).toMatchObject({
      title: 'Signed minutes',
      note: 'All four meetings.',
      status: 'approved',
      expires_on: '2027-12-31',
    });
    expect(panel.history[0]).toMatchObject({
      action: 'evidence_updated',
      actor: 'Ada Admin',
      summary:
        'Evidence Minutes: title → Signed minutes; Evidence Minutes: In review → Approved; Evidence Minutes: expires never → 2027-12-31; Evidence Minutes: note changed',
    });
    const [updated] = await auditOf(db(), s.project.id, 'standards.evidence_updated');
    expect(updated).toMatchObject({ subjectType: 'std_req_assessment', subjectId: String(req) });
    expect(updated!.data).toMatchObject({
      evidence_id: item.id,
      status: { from: 'in_review', to: 'approved' },
      expires_on: { from: null, to: '2027-12-31' },
    });
    // The same values again record nothing.
    const unchanged = await standardsSnapshot(db());
    expect((await s.admin.put(`${s.base}/evidence/${item.id}`, { status: 'approved' })).statusCode).toBe(200);
    expect(await standardsSnapshot(db())).toEqual(unchanged);
    const nothing = await s.admin.put(`${s.base}/evidence/${item.id}`, {});
    expect(nothing.statusCode).toBe(400);

    const removed = await s.admin.delete(`${s.base}/evidence/${item.id}`);
    expect(removed.statusCode).toBe(204);
    const after = await readElement(s.admin, s.base, req);
    expect(after.evidence).toEqual([]);
    expect(after.history[0]).toMatchObject({ action: 'evidence_removed', summary: 'Evidence removed: Signed minutes' });
    expect(await db().select().from(storedFiles).where(eq(storedFiles.id, item.file!.id))).toEqual([]);
    expect((await s.admin.get(`${s.base}/evidence/${item.id}/file`)).statusCode).toBe(404);
    expect((await s.admin.delete(`${s.base}/evidence/${item.id}`)).statusCode).toBe(404);
  });

  it('flags evidence expired (the day after its expiry) and expiring (within 60 days)', async () => {
    ctx.clock.set(TODAY); // 2026-11-27; 60 days on is 2027-01-26
    const s = await standardsSetup(ctx);
    const req = s.reqs['IC.1.1'];
    for (const day of ['2026-11-26', '2026-11-27', '2027-01-26', '2027-01-27', null]) {
      await addLink(s.admin, s, req, { title: `Until ${day}`, expires_on: day });
    }
    expect(
      (await readElement(s.admin, s.base, req)).evidence.map((e) => [e.expires_on, e.expired, e.expiring]),
    ).toEqual([
      ['2026-11-26', true, false],
      ['2026-11-27', false, true],
      ['2027-01-26', false, true],
      ['2027-01-27', false, false],
      [null, false, false],
    ]);
  });

  // ---------------------------------------------------------------------------------------------- tree, readiness

  /**
   * GOV.1.1 approved link, no expiry; GOV.1.2 approved link expired; GOV.2.1 a link in review and a rejected link
   * expiring; IC.1.1 a policy whose review is in 30 days; IC.1.2 an unpublished policy; OB.1 (not applicable) an
   * approved link expiring in 10 days and one far ahead.
   */
  async function scene() {
    ctx.clock.set(TODAY);
    const s = await standardsSetup(ctx);
    await saveElement(s.admin, s.base, s.reqs['OB.1'], { result: 'not_applicable', na_justification: 'No births.' });
    await addLink(s.admin, s, s.reqs['GOV.1.1'], { status: 'approved', title: 'Bylaws' });
    await addLink(s.admin, s, s.reqs['GOV.1.2'], {
      status: 'approved',
      title: 'Old minutes',
      expires_on: '2026-10-31',
    });
    await addLink(s.admin, s, s.reqs['GOV.2.1'], { status: 'in_review', title: 'Draft plan' });
    await addLink(s.admin, s, s.reqs['GOV.2.1'], { status: 'rejected', title: 'Wrong plan', expires_on: '2026-12-01' });
    await addLink(s.admin, s, s.reqs['OB.1'], { status: 'approved', title: 'Staffing rota', expires_on: '2026-12-07' });
    await addLink(s.admin, s, s.reqs['OB.1'], { status: 'approved', title: 'Licence', expires_on: '2028-01-01' });
    const soon = await addPolicy(db(), s.project.id, {
      title: 'Hand hygiene',
      number: '3.1',
      nextReviewOn: '2026-12-27',
    });
    const draft = await addPolicy(db(), s.project.id, { title: 'Alcohol rub', published: false });
    // The admin links the draft as an author (only those who see drafts in policy management find it).
    await setMainRole(db(), s.project.id, s.people.admin.id, 'policy_management', 'author');
    for (const [ref, policy] of [
      ['IC.1.1', soon],
      ['IC.1.2', draft],
    ] as const) {
      const linked = await s.admin.post(`${s.base}/links`, {
        node_id: s.nodes[ref],
        target_type: 'policy',
        target_id: policy.id,
        note: '',
      });
      expect(linked.statusCode, linked.body).toBe(201);
    }
    return s;
  }

  it('filters the tree: no evidence (no link, nothing approved and valid) and evidence expiring', async () => {
    const s = await scene();
    const tree = async (filter: string) => {
      const answer = await s.admin.get(`${s.base}/assessments/${s.assessmentId}/tree?filter=${filter}`);
      expect(answer.statusCode, answer.body).toBe(200);
      const body = answer.json() as StdTree;
      return { refs: body.rows.map((r) => r.ref_id), matches: body.matches };
    };
    expect(await tree('no_evidence')).toEqual({ refs: ['GOV', 'GOV.1', 'GOV.1.2', 'GOV.2', 'GOV.2.1'], matches: 2 });
    expect(await tree('expiring')).toEqual({
      refs: ['GOV', 'GOV.1', 'GOV.1.2', 'IC', 'IC.1', 'IC.1.1', 'IC.1.2', 'OB', 'OB.1'],
      matches: 4,
    });
    // With a search too.
    const searched = await s.admin.get(`${s.base}/assessments/${s.assessmentId}/tree?filter=expiring&search=hand`);
    expect((searched.json() as StdTree).rows.map((r) => r.ref_id)).toEqual(['IC', 'IC.1', 'IC.1.1']);
  });

  it('lists expired and expiring evidence items in readiness, expired first, rejected ones left out', async () => {
    const s = await scene();
    const answer = await (await ctx.signedIn(s.people.viewer)).get(`${s.base}/assessments/${s.assessmentId}/readiness`);
    expect(answer.statusCode, answer.body).toBe(200);
    const r = answer.json() as StdReadiness;
    expect(r.evidence_items).toEqual([
      {
        id: expect.any(Number),
        req_id: s.reqs['GOV.1.2'],
        ref_id: 'GOV.1.2',
        title: 'Old minutes',
        expires_on: '2026-10-31',
        state: 'expired',
      },
      {
        id: expect.any(Number),
        req_id: s.reqs['OB.1'],
        ref_id: 'OB.1',
        title: 'Staffing rota',
        expires_on: '2026-12-07',
        state: 'expiring',
      },
    ]);
    // The viewer reads policies as a reader: the never-published draft is not theirs to see.
    expect(r.policy_evidence.map((p) => [p.title, p.state])).toEqual([['Hand hygiene', 'expiring']]);
    const asAuthor = (await s.admin.get(`${s.base}/assessments/${s.assessmentId}/readiness`)).json() as StdReadiness;
    expect(asAuthor.policy_evidence.map((p) => [p.title, p.state])).toEqual([
      ['Alcohol rub', 'expired'],
      ['Hand hygiene', 'expiring'],
    ]);
  });

  // ---------------------------------------------------------------------------------------------- the job

  it('sends done elements with expired evidence back to review once, and leaves the rest alone', async () => {
    // Set up before the job's runs (the 26th and the 27th): the element's history lists its events by their time.
    ctx.clock.set(new Date('2026-11-25T12:00:00Z'));
    const s = await standardsSetup(ctx);
    const done = { result: 'compliant', status: 'done' } as const;
    for (const ref of ['GOV.1.1', 'GOV.1.2', 'IC.1.1', 'IC.1.2'] as const) {
      expect((await saveElement(s.admin, s.base, s.reqs[ref], done)).statusCode).toBe(200);
    }
    await saveElement(s.admin, s.base, s.reqs['GOV.2.1'], { result: 'compliant', status: 'in_progress' });
    const na = { result: 'not_applicable', status: 'done', na_justification: 'No births.' } as const;
    expect((await saveElement(s.admin, s.base, s.reqs['OB.1'], na)).statusCode).toBe(200);
    // GOV.1.1: approved evidence that expires on 26 November (expired from the 27th).
    const fireDrill = await addLink(s.admin, s, s.reqs['GOV.1.1'], {
      status: 'approved',
      title: 'Fire drill log',
      expires_on: '2026-11-26',
    });
    await addLink(s.admin, s, s.reqs['GOV.1.1'], {
      status: 'approved',
      title: 'Still valid',
      expires_on: '2027-11-26',
    });
    // GOV.1.2: approved, expiring later. GOV.2.1: expired, but not done. IC.1.1: expired, but only in review.
    await addLink(s.admin, s, s.reqs['GOV.1.2'], { status: 'approved', expires_on: '2026-12-20' });
    await addLink(s.admin, s, s.reqs['GOV.2.1'], { status: 'approved', expires_on: '2026-11-01' });
    await addLink(s.admin, s, s.reqs['IC.1.1'], { status: 'in_review', expires_on: '2026-11-01' });
    // IC.1.2: a linked policy that gets archived; OB.1 (not applicable, done) a policy past its review.
    const archived = await addPolicy(db(), s.project.id, { title: 'Hand hygiene', number: '3.1' });
    const overdue = await addPolicy(db(), s.project.id, { title: 'Births', nextReviewOn: '2026-01-01' });
    for (const [ref, policyId] of [
      ['IC.1.2', archived.id],
      ['OB.1', overdue.id],
    ] as const) {
      await s.admin.post(`${s.base}/links`, {
        node_id: s.nodes[ref],
        target_type: 'policy',
        target_id: policyId,
        note: '',
      });
    }
    await db().update(policyDocuments).set({ status: 'archived' }).where(eq(policyDocuments.id, archived.id));

    // Another project, with standards switched off: its done element with expired evidence is not touched.
    const outsider = await ctx.signedIn(s.people.outsider);
    const theirs = await importFramework(db(), outsider, s.otherBase, { code: 'SOUTH', name: 'South standards' });
    const theirAssessment = await createAssessment(db(), outsider, s.otherBase, theirs.framework.id);
    const theirReq = theirAssessment.reqs['GOV.1.1']!;
    expect((await saveElement(outsider, s.otherBase, theirReq, done)).statusCode).toBe(200);
    const theirLink = await outsider.post(
      `${s.otherBase}/req-assessments/${theirReq}/evidence`,
      link({ status: 'approved', expires_on: '2026-11-01' }),
    );
    expect(theirLink.statusCode, theirLink.body).toBe(201);
    await db()
      .update(projects)
      .set({ activeApps: ['policy_management'] })
      .where(eq(projects.id, s.other.id));

    const statuses = async () =>
      Object.fromEntries(
        (
          await db()
            .select({ id: stdReqAssessments.id, status: stdReqAssessments.status, version: stdReqAssessments.version })
            .from(stdReqAssessments)
        ).map((r) => [r.id, [r.status, r.version]]),
      );
    const before = await statuses();

    // On the 26th nothing has expired yet but the archived policy.
    expect(await unsafeReopenExpiredEvidence(db(), new Date('2026-11-26T04:30:00Z'))).toEqual([s.reqs['IC.1.2']]);
    // On the 27th the fire drill log has.
    const run = new Date('2026-11-27T04:30:00Z');
    expect(await unsafeReopenExpiredEvidence(db(), run)).toEqual([s.reqs['GOV.1.1']]);
    const after = await statuses();
    for (const ref of ['GOV.1.1', 'IC.1.2'] as const) {
      const [, version] = before[s.reqs[ref]] as [string, number];
      expect(after[s.reqs[ref]], ref).toEqual(['in_review', version + 1]);
    }
    for (const id of [s.reqs['GOV.1.2'], s.reqs['GOV.2.1'], s.reqs['IC.1.1'], s.reqs['OB.1'], theirReq]) {
      expect(after[id], String(id)).toEqual(before[id]);
    }
    const audits = await auditOf(db(), s.project.id, 'standards.evidence_expired');
    expect(audits.map((a) => [a.subjectId, a.actorUserId, a.data.summary, a.data.changes])).toEqual([
      [
        String(s.reqs['IC.1.2']),
        null,
        ['Evidence expired: 3.1 Hand hygiene; back to In review'],
        { status: { from: 'done', to: 'in_review' } },
      ],
      [
        String(s.reqs['GOV.1.1']),
        null,
        ['Evidence expired: Fire drill log; back to In review'],
        { status: { from: 'done', to: 'in_review' } },
      ],
    ]);
    expect(audits[1]!.data).toMatchObject({
      evidence_ids: [fireDrill.id],
      policy_ids: [],
      status: { from: 'done', to: 'in_review' },
    });
    expect((await auditOf(db(), s.other.id, 'standards.evidence_expired')).length).toBe(0);
    const panel = await readElement(s.admin, s.base, s.reqs['GOV.1.1']);
    expect(panel.status).toBe('in_review');
    expect(panel.history[0]).toMatchObject({
      action: 'evidence_expired',
      actor: 'System',
      summary: 'Evidence expired: Fire drill log; back to In review',
    });

    // Once: the next run, and a run after someone sets it done again, change nothing.
    expect(await unsafeReopenExpiredEvidence(db(), run)).toEqual([]);
    expect((await saveElement(s.admin, s.base, s.reqs['GOV.1.1'], { status: 'done' })).statusCode).toBe(200);
    expect(await unsafeReopenExpiredEvidence(db(), new Date('2026-11-28T04:30:00Z'))).toEqual([]);
    // Renewed, then expired again: that is a new expiry.
    const renewed = await s.admin.put(`${s.base}/evidence/${fireDrill.id}`, { expires_on: '2026-11-27' });
    expect(renewed.statusCode, renewed.body).toBe(200);
    expect(await unsafeReopenExpiredEvidence(db(), new Date('2026-11-28T04:30:00Z'))).toEqual([s.reqs['GOV.1.1']]);
    const rows = await db()
      .select({ status: stdReqAssessments.status })
      .from(stdReqAssessments)
      .where(and(eq(stdReqAssessments.projectId, s.project.id), eq(stdReqAssessments.id, s.reqs['GOV.1.1'])));
    expect(rows[0]!.status).toBe('in_review');
    // The evidence itself is left as it was.
    expect(
      (await db().select({ status: stdEvidence.status }).from(stdEvidence).where(eq(stdEvidence.id, fireDrill.id)))[0],
    ).toEqual({ status: 'approved' });
  });
});
