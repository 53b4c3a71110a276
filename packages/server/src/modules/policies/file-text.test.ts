import { readFileSync } from 'node:fs';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { multipart, policyProject, publishDraft } from '../../../test/policy-kit.js';
import { statementsOf } from '../../../test/statements.js';
import { auditEvents, policyFileTexts, policyVersions } from '../../db/schema/index.js';
import { PDF_TEXT_MESSAGES } from '../../lib/pdf-text.js';
import { unsafeQueueMissingFileTexts, unsafeReadQueuedFileTexts } from './file-text.service.js';

// Real PDFs from test/fixtures (made with pdfkit; the scanned one is a page that is only an image of a sentence,
// rendered by ImageMagick). The job is not running here: each test reads the queue itself, as the job does.
const fixture = (name: string) => readFileSync(new URL(`../../../test/fixtures/${name}`, import.meta.url));
const MINUTE = 60_000;

describe('text of uploaded PDFs', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;
  const readQueue = (offsetMs = 0) => unsafeReadQueuedFileTexts(db(), new Date(ctx.clock.now().getTime() + offsetMs));

  async function setup() {
    const s = await policyProject(db());
    const base = `/api/projects/${s.project.id}/policy-management`;
    const admin = await ctx.signedIn(s.people.admin);
    const upload = async (name: string, data = fixture(name)) => {
      const body = multipart({}, { name, data });
      const answer = await admin.post(`${base}/documents/upload`, body.payload, body.headers);
      expect(answer.statusCode, answer.body).toBe(201);
      const doc = answer.json() as { id: number; draft_version: { id: number; source_file: { id: number } } };
      const url = `${base}/documents/${doc.id}/versions/${doc.draft_version.id}/source-text`;
      return { id: doc.id, versionId: doc.draft_version.id, fileId: doc.draft_version.source_file.id, url };
    };
    const search = async (q: string) =>
      ((await admin.get(`${base}/search?q=${q}`)).json() as { results: { id: number }[] }).results.map((r) => r.id);
    return { ...s, base, admin, upload, search };
  }

  it('reads a text PDF after upload, so search finds its words, and shows the text to who may see the version', async () => {
    const s = await setup();
    const doc = await s.upload('policy-text.pdf');
    expect((await s.admin.get(doc.url)).json()).toEqual({
      state: 'queued',
      method: null,
      progress: 0,
      pages: null,
      error: null,
      text: '',
    });
    expect(await s.search('quinquennial')).toEqual([]);

    expect(await readQueue()).toBe(1);
    const read = (await s.admin.get(doc.url)).json();
    expect(read).toMatchObject({ state: 'done', method: 'pdf_text', progress: 100, pages: 2, error: null });
    expect(read.text).toContain('Every infusion pump is inspected on a quinquennial schedule');
    expect(await s.search('quinquennial')).toEqual([doc.id]);
    const [event] = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.projectId, s.project.id), eq(auditEvents.action, 'policy.file_text_read')));
    expect(event?.data).toEqual({ state: 'done', method: 'pdf_text', pages: 2, characters: read.text.length });
    expect(await readQueue()).toBe(0);

    // The same file uploaded again is the same stored file: read once, found at once.
    const again = await s.upload('policy-text.pdf');
    expect(again.fileId).toBe(doc.fileId);
    expect((await s.search('quinquennial')).sort()).toEqual([doc.id, again.id].sort());
    expect(await readQueue()).toBe(0);

    // A reader sees no draft, so not its text either; once published, they do. Another project never does.
    const reader = await ctx.signedIn(s.people.reader);
    expect((await reader.get(doc.url)).statusCode).toBe(404);
    await publishDraft(db(), doc.id);
    expect((await reader.get(doc.url)).json().text).toContain('quinquennial');
    const outsider = await ctx.signedIn(s.people.outsider);
    expect((await outsider.get(doc.url)).statusCode).toBe(404);
    const elsewhere = doc.url.replace(`/projects/${s.project.id}/`, `/projects/${s.other.id}/`);
    expect((await outsider.get(elsewhere)).statusCode).toBe(404);
    expect((await ctx.agent().get(doc.url)).statusCode).toBe(401);
  });

  it('recognises the text of a scanned page', async () => {
    const s = await setup();
    const doc = await s.upload('policy-scanned.pdf');
    const started = performance.now();
    expect(await readQueue()).toBe(1);
    // About 1.5 s on 2 busy CPUs, most of it starting the recognition worker.
    expect(performance.now() - started).toBeLessThan(30_000);
    const read = (await s.admin.get(doc.url)).json();
    expect(read).toMatchObject({ state: 'done', method: 'ocr', pages: 1, error: null });
    expect(read.text).toMatch(/Wash hands before every zygomatic exam/);
    expect(await s.search('zygomatic')).toEqual([doc.id]);
  });

  it('answers an empty text for a PDF with nothing to read, and a failure in words for a damaged one', async () => {
    const s = await setup();
    const blank = await s.upload('policy-blank.pdf');
    const broken = await s.upload('policy-corrupt.pdf');
    expect(await readQueue()).toBe(2);
    expect((await s.admin.get(blank.url)).json()).toEqual({
      state: 'done',
      method: 'pdf_text',
      progress: 100,
      pages: 1,
      error: null,
      text: '',
    });
    expect((await s.admin.get(broken.url)).json()).toMatchObject({
      state: 'failed',
      error: PDF_TEXT_MESSAGES.unreadable,
      text: '',
    });

    // Tried again ten minutes after each failure, three times in all.
    expect(await readQueue()).toBe(0);
    expect(await readQueue(11 * MINUTE)).toBe(1);
    expect(await readQueue(22 * MINUTE)).toBe(1);
    expect(await readQueue(33 * MINUTE)).toBe(0);
    const [row] = await db().select().from(policyFileTexts).where(eq(policyFileTexts.fileId, broken.fileId));
    expect(row).toMatchObject({ state: 'failed', attempts: 3 });
  });

  it('answers 404 for a version without a PDF, shows progress, picks up a reading that died and backfills', async () => {
    const s = await setup();
    const typed = await s.admin.post(`${s.base}/documents`, { title: 'Typed', content: '<p>Typed here.</p>' });
    const typedDoc = typed.json() as { id: number; draft_version: { id: number } };
    const noPdf = await s.admin.get(
      `${s.base}/documents/${typedDoc.id}/versions/${typedDoc.draft_version.id}/source-text`,
    );
    expect(noPdf.statusCode).toBe(404);

    const doc = await s.upload('policy-text.pdf');
    const died = new Date(ctx.clock.now().getTime() - 11 * MINUTE);
    await db()
      .update(policyFileTexts)
      .set({ state: 'reading', progress: 40, attempts: 1, queuedAt: died })
      .where(eq(policyFileTexts.fileId, doc.fileId));
    expect((await s.admin.get(doc.url)).json()).toMatchObject({ state: 'reading', progress: 40 });
    expect(await readQueue()).toBe(1);
    expect((await s.admin.get(doc.url)).json()).toMatchObject({ state: 'done', pages: 2 });

    // A PDF stored before text was read (no row): the backfill queues it, once.
    await db().delete(policyFileTexts).where(eq(policyFileTexts.fileId, doc.fileId));
    expect((await s.admin.get(doc.url)).json()).toMatchObject({ state: 'queued' });
    expect(await unsafeQueueMissingFileTexts(db(), ctx.clock.now())).toBe(1);
    expect(await unsafeQueueMissingFileTexts(db(), ctx.clock.now())).toBe(0);
    expect(await readQueue()).toBe(1);
    const [version] = await db().select().from(policyVersions).where(eq(policyVersions.id, doc.versionId));
    expect(version?.sourceFileId).toBe(doc.fileId);
    expect(await s.search('quinquennial')).toEqual([doc.id]);
  });

  it('writes nothing when nothing waits to be read: every write makes every instance forget its kept answers', async () => {
    await readQueue();
    let read = -1;
    const texts = await statementsOf(ctx.db.handle.pool, async () => {
      read = await readQueue();
    });
    expect(read).toBe(0);
    expect(texts.filter((text) => /^\s*(insert|update|delete)\b/i.test(text))).toEqual([]);
    expect(texts.length).toBeGreaterThan(0);
  });
});
