import { documentListSchema } from '@portal/shared';
import { and, count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { expectExactly } from '../../../test/contract.js';
import { buildDocx, buildManyEntries, buildZipBomb, TINY_PNG } from '../../../test/docx-fixture.js';
import { multipart, policyProject, publishDraft } from '../../../test/policy-kit.js';
import { auditEvents, policyDocuments, policyNumberHistory } from '../../db/schema/index.js';

describe('policy management', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;

  async function setup() {
    const s = await policyProject(db());
    const base = `/api/projects/${s.project.id}/policy-management`;
    const admin = await ctx.signedIn(s.people.admin);
    const create = async (body: Record<string, unknown>) => {
      const answer = await admin.post(`${base}/documents`, body);
      expect(answer.statusCode, answer.body).toBe(201);
      return answer.json() as { id: number; number: string | null; draft_version: { id: number; revision: number } };
    };
    return { ...s, base, admin, create };
  }

  describe('departments', () => {
    it('adds, changes and deletes departments with clear refusals', async () => {
      const s = await setup();
      const nursing = await s.admin.post(`${s.base}/departments`, { name: 'Nursing', code: 'nur' });
      expect(nursing.statusCode).toBe(201);
      expect(nursing.json()).toMatchObject({ name: 'Nursing', code: 'NUR', parent_id: null, document_count: 0 });
      const icu = (
        await s.admin.post(`${s.base}/departments`, { name: 'ICU', code: 'ICU', parent_id: nursing.json().id })
      ).json();

      const duplicate = await s.admin.post(`${s.base}/departments`, { name: 'Other', code: 'NUR' });
      expect(duplicate.statusCode).toBe(409);
      expect(duplicate.json().errors.code).toEqual(['The code NUR is already used by another department.']);
      const badCode = await s.admin.post(`${s.base}/departments`, { name: 'Lab', code: '1AB' });
      expect(badCode.statusCode).toBe(400);
      expect(badCode.json().errors.code[0]).toMatch(/capital letters/);
      const blank = await s.admin.post(`${s.base}/departments`, { name: '  ', code: 'LAB' });
      expect(blank.json().errors.name).toEqual(['Enter the name.']);
      const cycle = await s.admin.patch(`${s.base}/departments/${nursing.json().id}`, { parent_id: icu.id });
      expect(cycle.statusCode).toBe(400);
      expect(cycle.json().errors.parent_id).toEqual(['A department cannot sit inside itself.']);

      await s.create({ title: 'Rounds', department_id: icu.id });
      const busy = await s.admin.delete(`${s.base}/departments/${icu.id}`);
      expect(busy.statusCode).toBe(409);
      expect(busy.json().message).toMatch(/still has 1 policy/);
      const parent = await s.admin.delete(`${s.base}/departments/${nursing.json().id}`);
      expect(parent.json().message).toMatch(/sub-departments/);

      const renamed = await s.admin.patch(`${s.base}/departments/${nursing.json().id}`, { name: 'Nursing services' });
      expect(renamed.json()).toMatchObject({ name: 'Nursing services', code: 'NUR' });
      const list = (await s.admin.get(`${s.base}/departments`)).json();
      expect(list.departments.map((d: { name: string; document_count: number }) => [d.name, d.document_count])).toEqual(
        [
          ['ICU', 1],
          ['Nursing services', 0],
        ],
      );
      const audits = await db()
        .select({ n: count() })
        .from(auditEvents)
        .where(and(eq(auditEvents.projectId, s.project.id), eq(auditEvents.action, 'policy.department_created')));
      expect(audits[0]!.n).toBe(2);
    });
  });

  describe('numbering', () => {
    it("tells the chapter each department's policies are numbered in, where a new number is suggested", async () => {
      const s = await setup();
      const nursing = (await s.admin.post(`${s.base}/departments`, { name: 'Nursing', code: 'NUR' })).json();
      const pharmacy = (await s.admin.post(`${s.base}/departments`, { name: 'Pharmacy', code: 'PHA' })).json();
      await s.create({ title: 'General', number: '1' });
      for (const number of ['3', '3.1', '3.2', '4.1']) {
        await s.create({ title: `Nursing ${number}`, number, department_id: nursing.id });
      }
      await s.create({ title: 'Pharmacy, unnumbered', department_id: pharmacy.id });
      const used = (await s.admin.get(`${s.base}/documents/used-numbers`)).json();
      expect(used).toEqual({
        numbers: ['1', '3', '3.1', '3.2', '4.1'],
        chapters: [{ department_id: nursing.id, chapter: '3' }],
      });
    });

    it('orders numbers numerically, keeps gaps, refuses duplicates and keeps history', async () => {
      const s = await setup();
      for (const number of ['1.10', '1.9', '1', '2', '1.2']) await s.create({ title: `Policy ${number}`, number });
      const used = (await s.admin.get(`${s.base}/documents/used-numbers`)).json();
      expect(used).toEqual({ numbers: ['1', '1.2', '1.9', '1.10', '2'], chapters: [] });

      const duplicate = await s.admin.post(`${s.base}/documents`, { title: 'Again', number: '1.9' });
      expect(duplicate.statusCode).toBe(409);
      expect(duplicate.json().errors.number).toEqual(['Number 1.9 is already used by "Policy 1.9".']);
      const tooDeep = await s.admin.post(`${s.base}/documents`, { title: 'Deep', number: '1.2.3.4' });
      expect(tooDeep.json().errors.number).toEqual(['Numbers have at most 3 levels in this project.']);
      const leadingZero = await s.admin.post(`${s.base}/documents`, { title: 'Zero', number: '1.02' });
      expect(leadingZero.statusCode).toBe(400);

      const loose = await s.create({ title: 'Unnumbered' });
      const other = await s.create({ title: 'Also unnumbered' });
      const unassigned = (await s.admin.get(`${s.base}/documents/unassigned`)).json();
      expect(unassigned.map((d: { title: string }) => d.title).sort()).toEqual(['Also unnumbered', 'Unnumbered']);

      // Both asking for the same free number, and one asking for a taken one.
      const clash = await s.admin.post(`${s.base}/numbering`, {
        assignments: [
          { document_id: loose.id, number: '3' },
          { document_id: other.id, number: '3' },
        ],
      });
      expect(clash.statusCode).toBe(400);
      expect(Object.keys(clash.json().errors)).toEqual(['assignments.0', 'assignments.1']);
      const gap = await s.admin.post(`${s.base}/numbering`, {
        assignments: [
          { document_id: loose.id, number: '5' },
          { document_id: other.id, number: '1.11' },
        ],
      });
      expect(gap.statusCode, gap.body).toBe(200);
      expect(gap.json()).toMatchObject({ used_count: 7, unassigned_count: 0 });
      const history = await db().select().from(policyNumberHistory).where(eq(policyNumberHistory.documentId, loose.id));
      expect(history.map((h) => [h.fromNumber, h.toNumber, h.reason])).toEqual([[null, '5', 'assign']]);
    });

    it('saves the scheme and applies department prefixes', async () => {
      const s = await setup();
      const nur = (await s.admin.post(`${s.base}/departments`, { name: 'Nursing', code: 'NUR' })).json();
      const saved = await s.admin.post(`${s.base}/numbering`, {
        scheme: { levels: 2, department_prefixes: true, prefix_separator: '-' },
      });
      expect(saved.json().scheme).toEqual({ levels: 2, department_prefixes: true, prefix_separator: '-' });
      const missing = await s.admin.post(`${s.base}/documents`, { title: 'A', number: '1', department_id: nur.id });
      expect(missing.json().errors.number).toEqual(['Numbers in this department start with "NUR-".']);
      const ok = await s.admin.post(`${s.base}/documents`, { title: 'A', number: 'NUR-1.2', department_id: nur.id });
      expect(ok.statusCode).toBe(201);
      const tooFew = await s.admin.post(`${s.base}/numbering`, {
        scheme: { levels: 1, department_prefixes: true, prefix_separator: '-' },
      });
      expect(tooFew.statusCode).toBe(400);
      expect(tooFew.json().errors['scheme.levels'][0]).toMatch(/already use 2 levels/);
      const bad = await s.admin.post(`${s.base}/numbering`, {
        scheme: { levels: 9, department_prefixes: false, prefix_separator: '/' },
      });
      expect(bad.statusCode).toBe(400);
      const empty = await s.admin.post(`${s.base}/numbering`, {});
      expect(empty.statusCode).toBe(400);
    });

    it('moves a branch with its children and renumbers; a stale preview changes nothing', async () => {
      const s = await setup();
      const ids: Record<string, number> = {};
      for (const number of ['1', '1.1', '1.2', '2', '2.1', '2.1.1', '3']) {
        ids[number] = (await s.create({ title: `P${number}`, number })).id;
      }
      const body = {
        document_id: ids['2.1']!,
        parent: '1',
        index: 0,
        expected: [
          { id: ids['2.1']!, from: '2.1', to: '1.1' },
          { id: ids['2.1.1']!, from: '2.1.1', to: '1.1.1' },
          { id: ids['1.1']!, from: '1.1', to: '1.2' },
          { id: ids['1.2']!, from: '1.2', to: '1.3' },
        ],
      };
      const stale = await s.admin.post(`${s.base}/documents/move`, { ...body, expected: body.expected.slice(1) });
      expect(stale.statusCode).toBe(409);
      expect((await s.admin.get(`${s.base}/documents/used-numbers`)).json().numbers).toEqual([
        '1',
        '1.1',
        '1.2',
        '2',
        '2.1',
        '2.1.1',
        '3',
      ]);
      const moved = await s.admin.post(`${s.base}/documents/move`, body);
      expect(moved.statusCode, moved.body).toBe(200);
      const rows = await db().select().from(policyDocuments).where(eq(policyDocuments.projectId, s.project.id));
      const numberOf = (id: number) => rows.find((r) => r.id === id)!.number;
      expect(numberOf(ids['2.1']!)).toBe('1.1');
      expect(numberOf(ids['2.1.1']!)).toBe('1.1.1');
      expect(numberOf(ids['1.1']!)).toBe('1.2');
      expect(numberOf(ids['1.2']!)).toBe('1.3');
      const below = await s.admin.post(`${s.base}/documents/move`, {
        document_id: ids['1']!,
        parent: '1.2',
        index: 0,
        expected: [],
      });
      expect(below.statusCode).toBe(400);
      expect(below.json().message).toBe('A document cannot be moved below itself.');
      const detail = (await s.admin.get(`${s.base}/documents/${ids['2.1.1']}`)).json();
      expect(detail.number_history[0]).toMatchObject({ from: '2.1.1', to: '1.1.1' });
    });
  });

  describe('documents and versions', () => {
    it('sanitises stored content, guards against stale saves and hides drafts from readers', async () => {
      const s = await setup();
      const doc = await s.create({ title: 'Falls prevention', number: '4' });
      const hostile =
        '<h2>Scope</h2><p onclick="alert(1)">All wards</p><script>alert(1)</script><a href="javascript:alert(1)">x</a><img src="data:image/png;base64,AAAA"><iframe src="https://evil.example"></iframe>';
      const saved = await s.admin.put(`${s.base}/documents/${doc.id}/draft`, {
        content: hostile,
        change_summary: 'Scope added',
        base_revision: doc.draft_version.revision,
      });
      expect(saved.statusCode, saved.body).toBe(200);
      const stored = saved.json().content as string;
      expect(stored).toContain('<h2>Scope</h2>');
      expect(stored).not.toMatch(/onclick|<script|javascript:|data:|<iframe/);
      const stale = await s.admin.put(`${s.base}/documents/${doc.id}/draft`, {
        content: '<p>old</p>',
        base_revision: 0,
      });
      expect(stale.statusCode).toBe(409);
      expect(stale.json().message).toMatch(/^Ada Admin saved this draft at/);

      const reader = await ctx.signedIn(s.people.reader);
      expect((await reader.get(`${s.base}/documents/${doc.id}`)).statusCode).toBe(404);
      expect((await reader.get(`${s.base}/documents`)).json()).toEqual([]);
      await publishDraft(db(), doc.id);
      const seen = (await reader.get(`${s.base}/documents/${doc.id}`)).json();
      expect(seen.current_version.content).toContain('All wards');
      expect(seen.draft_version).toBeNull();
      expect(seen.abilities).toEqual({ edit: false, archive: false, restore: false, renumber: false });
      // The TOC is serialized as built (lib/built-json.ts): exactly its contract, for an author and a reader.
      for (const agent of [reader, s.admin]) {
        const toc = (await agent.get(`${s.base}/documents`)).json();
        expect(toc.length).toBeGreaterThan(0);
        expectExactly(documentListSchema, toc);
      }
      const tooLong = await s.admin.patch(`${s.base}/documents/${doc.id}`, { title: 'x'.repeat(201) });
      expect(tooLong.json().errors.title).toEqual(['Title must be at most 200 characters.']);
    });

    it('starts a new version from the current one and shows the redline between versions', async () => {
      const s = await setup();
      const doc = await s.create({ title: 'Visiting hours', content: '<p>Visitors are welcome from 9 to 17.</p>' });
      await publishDraft(db(), doc.id);
      const started = (await s.admin.post(`${s.base}/documents/${doc.id}/new-version`)).json();
      expect(started.status).toBe('published');
      expect(started.draft_version).toMatchObject({ version: 2, state: 'draft' });
      expect(started.draft_version.content).toBe('<p>Visitors are welcome from 9 to 17.</p>');
      await s.admin.put(`${s.base}/documents/${doc.id}/draft`, {
        content: '<p>Visitors are welcome from 10 to 20.</p>',
        base_revision: started.draft_version.revision,
      });
      const compare = await s.admin.get(
        `${s.base}/documents/${doc.id}/compare?from=${started.current_version.id}&to=${started.draft_version.id}`,
      );
      expect(compare.statusCode).toBe(200);
      expect(compare.json().html).toBe(
        '<p>Visitors are welcome from <del>9</del><ins>10</ins> to <del>17</del><ins>20</ins>.</p>',
      );
      expect(compare.json()).toMatchObject({ insertions: 2, deletions: 2 });
      const restore = await s.admin.post(
        `${s.base}/documents/${doc.id}/versions/${started.current_version.id}/restore`,
      );
      expect(restore.statusCode).toBe(409);
    });

    it('reads a version, restores an earlier text as the new draft, and edits the settings', async () => {
      const s = await setup();
      const doc = await s.create({ title: 'Restraints', number: '8', content: '<p>Version one text.</p>' });
      await publishDraft(db(), doc.id);
      const started = (await s.admin.post(`${s.base}/documents/${doc.id}/new-version`)).json();
      await s.admin.put(`${s.base}/documents/${doc.id}/draft`, {
        content: '<p>Version two text.</p>',
        base_revision: started.draft_version.revision,
      });
      await publishDraft(db(), doc.id);
      const detail = (await s.admin.get(`${s.base}/documents/${doc.id}`)).json();
      const first = detail.versions.find((v: { version: number }) => v.version === 1);
      expect(first.state).toBe('superseded');
      const version = await s.admin.get(`${s.base}/documents/${doc.id}/versions/${first.id}`);
      expect(version.json()).toMatchObject({ version: 1, content: '<p>Version one text.</p>' });
      const archive = (await s.admin.get(`${s.base}/archive`)).json();
      expect(archive.versions).toMatchObject([{ document_id: doc.id, version: 1 }]);

      const restored = await s.admin.post(`${s.base}/documents/${doc.id}/versions/${first.id}/restore`);
      expect(restored.statusCode).toBe(200);
      expect(restored.json().draft_version).toMatchObject({
        version: 3,
        content: '<p>Version one text.</p>',
        change_summary: 'Restored from version 1.',
      });

      await s.create({ title: 'Other', number: '9' });
      const taken = await s.admin.patch(`${s.base}/documents/${doc.id}`, { number: '9' });
      expect(taken.statusCode).toBe(409);
      expect(taken.json().errors.number).toEqual(['Number 9 is already used by "Other".']);
      const author = await ctx.signedIn(s.people.author);
      const renumber = await author.patch(`${s.base}/documents/${doc.id}`, { number: '10' });
      expect(renumber.statusCode).toBe(403);
      const edited = await author.patch(`${s.base}/documents/${doc.id}`, {
        title: 'Restraint and seclusion',
        review_interval_months: 24,
        next_review_on: '2027-06-30',
      });
      expect(edited.statusCode).toBe(200);
      expect(edited.json()).toMatchObject({
        title: 'Restraint and seclusion',
        number: '8',
        review_interval_months: 24,
        next_review_on: '2027-06-30',
        abilities: { edit: true, archive: false, renumber: false },
      });
      const badDate = await author.patch(`${s.base}/documents/${doc.id}`, { next_review_on: '30/06/2027' });
      expect(badDate.json().errors.next_review_on).toEqual(['Use a date like 2026-12-31.']);
    });

    it('archives and restores; a number taken meanwhile is freed with a clear message', async () => {
      const s = await setup();
      const doc = await s.create({ title: 'Old policy', number: '7' });
      const archived = await s.admin.post(`${s.base}/documents/${doc.id}/archive`);
      expect(archived.json()).toMatchObject({ status: 'archived', abilities: { restore: true, edit: false } });
      expect((await s.admin.get(`${s.base}/documents`)).json()).toEqual([]);
      expect((await s.admin.get(`${s.base}/archive`)).json().documents).toMatchObject([
        { id: doc.id, number: '7', archived_by: { name: 'Ada Admin' } },
      ]);
      await s.create({ title: 'New policy', number: '7' });
      const restored = await s.admin.post(`${s.base}/documents/${doc.id}/restore`);
      expect(restored.statusCode).toBe(200);
      expect(restored.json().message).toBe(
        '"Old policy" is back without a number: 7 now belongs to "New policy". Assign a new number under Numbering.',
      );
      expect(restored.json().document).toMatchObject({ status: 'draft', number: null });
      expect((await s.admin.post(`${s.base}/documents/${doc.id}/restore`)).statusCode).toBe(409);
    });
  });

  describe('search', () => {
    it('finds words inside policies, ranked, with marked snippets, only in this project', async () => {
      const s = await setup();
      const a = await s.create({
        title: 'Hand hygiene',
        number: '1',
        content: '<p>Use alcohol-based rub before touching a patient.</p>',
      });
      await s.create({ title: 'Catheter care', number: '2', content: '<p>Clean the catheter site daily.</p>' });
      const archived = await s.create({ title: 'Old rub rules', content: '<p>Rub rules.</p>' });
      await s.admin.post(`${s.base}/documents/${archived.id}/archive`);
      const otherAdmin = await ctx.signedIn(s.people.outsider);
      await otherAdmin.post(`/api/projects/${s.other.id}/policy-management/documents`, {
        title: 'Secret rub',
        content: '<p>touching secret</p>',
      });

      const found = (await s.admin.get(`${s.base}/search?q=touching`)).json();
      expect(found.total).toBe(1);
      expect(found.results[0]).toMatchObject({ id: a.id, title: 'Hand hygiene' });
      expect(found.results[0].snippet).toContain('\u0002touching\u0003');
      const rub = (await s.admin.get(`${s.base}/search?q=rub`)).json();
      expect(rub.results.map((r: { title: string }) => r.title)).toEqual(['Hand hygiene']);
      const withArchive = (await s.admin.get(`${s.base}/search?q=rub&include_archived=true`)).json();
      expect(withArchive.results.map((r: { title: string }) => r.title).sort()).toEqual([
        'Hand hygiene',
        'Old rub rules',
      ]);
      const byNumber = (await s.admin.get(`${s.base}/search?q=2`)).json();
      expect(byNumber.results[0].title).toBe('Catheter care');
      const empty = await s.admin.get(`${s.base}/search?q=%20`);
      expect(empty.statusCode).toBe(400);
      expect(empty.json().errors.q).toEqual(['Enter words to search for.']);
    });
  });

  describe('Word and PDF import', () => {
    const docx = () =>
      buildDocx({
        title: 'Medication safety',
        headings: [{ level: 2, text: 'Purpose' }],
        paragraphs: ['Every dose is checked twice.'],
        table: [
          ['Drug', 'Check'],
          ['Insulin', 'Two nurses'],
        ],
        link: { text: 'WHO', href: 'https://www.who.int' },
        image: TINY_PNG,
      });

    it('converts a .docx for preview, keeping structure and storing images as files', async () => {
      const s = await setup();
      const body = multipart({}, { name: 'medication.docx', data: docx() });
      const answer = await s.admin.post(`${s.base}/documents/convert`, body.payload, body.headers);
      expect(answer.statusCode, answer.body).toBe(200);
      const result = answer.json();
      expect(result.title).toBe('Medication safety');
      // The title is the policy's title, not a second heading in its text.
      expect(result.html).not.toContain('<h1>');
      expect(result.html).toContain('<h2>Purpose</h2>');
      expect(result.html).toContain('<table>');
      expect(result.html).toContain('href="https://www.who.int"');
      expect(result.html).not.toContain('data:');
      const src = /<img[^>]+src="([^"]+)"/.exec(result.html)![1]!;
      expect(src).toMatch(new RegExp(`^/api/projects/${s.project.id}/policy-management/files/\\d+$`));
      expect(result.images).toBe(1);
    });

    it('uploads a .docx as a draft once per Idempotency-Key, and a PDF as its source file', async () => {
      const s = await setup();
      const body = multipart(
        { number: '3.1', title: 'Medication safety policy' },
        { name: 'medication.docx', data: docx() },
      );
      const key = { ...body.headers, 'idempotency-key': 'upload-0123456789' };
      const first = await s.admin.post(`${s.base}/documents/upload`, body.payload, key);
      expect(first.statusCode, first.body).toBe(201);
      const again = await s.admin.post(`${s.base}/documents/upload`, body.payload, key);
      expect(again.statusCode).toBe(200);
      expect(again.json().id).toBe(first.json().id);
      const docs = await db().select().from(policyDocuments).where(eq(policyDocuments.projectId, s.project.id));
      expect(docs).toHaveLength(1);
      const created = first.json();
      expect(created).toMatchObject({ title: 'Medication safety policy', number: '3.1', status: 'draft' });
      expect(created.draft_version.content).toContain('<h2>Purpose</h2>');
      expect(created.draft_version.source_file).toMatchObject({ name: 'medication.docx' });
      // The image inside is served to members, with a safe content type.
      const src = /<img[^>]+src="([^"]+)"/.exec(created.draft_version.content)![1]!;
      const image = await s.admin.get(src);
      expect(image.statusCode).toBe(200);
      expect(image.headers['content-type']).toBe('image/png');
      const outsider = await ctx.signedIn(s.people.outsider);
      expect((await outsider.get(src)).statusCode).toBe(404);
      expect((await ctx.agent().get(src)).statusCode).toBe(401);
      expect((await (await ctx.signedIn(s.people.noRole)).get(src)).statusCode).toBe(403);
      // A reader may not see the draft that uses the image, so not the image either.
      expect((await (await ctx.signedIn(s.people.reader)).get(src)).statusCode).toBe(404);

      const pdf = multipart({}, { name: 'scan.pdf', data: Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\n%%EOF\n') });
      const fromPdf = await s.admin.post(`${s.base}/documents/upload`, pdf.payload, pdf.headers);
      expect(fromPdf.statusCode).toBe(201);
      expect(fromPdf.json()).toMatchObject({
        title: 'scan',
        draft_version: { source_file: { content_type: 'application/pdf' } },
      });
    });

    it('refuses wrong types, hostile archives and files over the limit with clear messages', async () => {
      const s = await setup();
      const send = (name: string, data: Buffer, path = 'upload') => {
        const body = multipart({}, { name, data });
        return s.admin.post(`${s.base}/documents/${path}`, body.payload, body.headers);
      };
      const text = await send('policy.docx', Buffer.from('just text pretending to be Word'));
      expect(text.statusCode).toBe(415);
      expect(text.json().message).toBe('Only Word (.docx) and PDF files can be imported. This file is neither.');
      const bomb = await send('bomb.docx', buildZipBomb());
      expect(bomb.statusCode).toBe(400);
      expect(bomb.json().message).toBe('The Word file expands to too much data; it looks like a zip bomb.');
      const many = await send('many.docx', buildManyEntries(1200));
      expect(many.json().message).toBe('The Word file has too many parts (more than 1000).');
      const entity = await send('xxe.docx', buildDocx({ title: 'X', doctype: true }), 'convert');
      expect(entity.json().message).toBe('The Word file contains external entities, which are not allowed.');
      const big = await send(
        'big.pdf',
        Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(10 * 1024 * 1024 + 10)]),
      );
      expect(big.statusCode).toBe(413);
      expect(big.json().message).toBe('The file is larger than 10 MB. Split it or compress its images.');
      const noFile = await s.admin.post(`${s.base}/documents/upload`, { title: 'x' });
      expect(noFile.statusCode).toBe(400);
      const badKey = multipart({}, { name: 'a.pdf', data: Buffer.from('%PDF-1.4\n') });
      const refused = await s.admin.post(`${s.base}/documents/upload`, badKey.payload, {
        ...badKey.headers,
        'idempotency-key': 'x',
      });
      expect(refused.statusCode).toBe(400);
      const count = await db().select().from(policyDocuments).where(eq(policyDocuments.projectId, s.project.id));
      expect(count).toHaveLength(0);
    });
  });
});
