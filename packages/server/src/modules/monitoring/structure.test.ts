import { asc, count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { buildDocx } from '../../../test/docx-fixture.js';
import { insertPage, monitoringProject } from '../../../test/monitoring-kit.js';
import { multipart } from '../../../test/policy-kit.js';
import { auditEvents, monPageLevels, monPages, monSettings, monUsers } from '../../db/schema/index.js';

describe('monitoring tree structure', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;

  async function setup() {
    const s = await monitoringProject(db());
    const base = `/api/projects/${s.project.id}/monitoring`;
    return { ...s, base, admin: await ctx.signedIn(s.people.admin) };
  }

  /**
   * 1 Safety (1.1 Falls, 1.2 Infections, 1.3 Medication (1.3.1 Doses)), 2 Quality (2.1 Waiting times).
   */
  async function tree(projectId: number) {
    const page = (title: string, number: string, parentId: number | null, position: number, depth: number) =>
      insertPage(db(), projectId, { title, number, parentId, position, depth });
    const safety = await page('Safety', '1', null, 0, 1);
    const quality = await page('Quality', '2', null, 1, 1);
    const falls = await page('Falls', '1.1', safety.id, 0, 2);
    const infections = await page('Infections', '1.2', safety.id, 1, 2);
    const medication = await page('Medication', '1.3', safety.id, 2, 2);
    const doses = await page('Doses', '1.3.1', medication.id, 0, 3);
    const waiting = await page('Waiting times', '2.1', quality.id, 0, 2);
    return { safety, quality, falls, infections, medication, doses, waiting };
  }

  type Answer = { json(): unknown; statusCode: number; body: string };
  const numbered = (answer: Answer) =>
    (answer.json() as { pages: { number: string; title: string }[] }).pages.map((p) => `${p.number} ${p.title}`);
  const auditOf = async (action: string) => db().select().from(auditEvents).where(eq(auditEvents.action, action));
  const pagesOf = async (projectId: number) =>
    db().select().from(monPages).where(eq(monPages.projectId, projectId)).orderBy(asc(monPages.id));
  const snapshot = async () => ({
    pages: await db().select().from(monPages).orderBy(asc(monPages.id)),
    levels: await db().select().from(monPageLevels).orderBy(asc(monPageLevels.id)),
    settings: await db().select().from(monSettings),
    audit: (await db().select({ n: count() }).from(auditEvents))[0]!.n,
  });
  const outline = (text: string, fields: Record<string, string> = {}, name = 'outline.txt') =>
    multipart(fields, { name, data: Buffer.from(text, 'utf8'), type: 'text/plain' });

  it('guards every call: 401 signed out, 403 without a role or with a wrong one, 404 outside; nothing changes', async () => {
    const s = await setup();
    const t = await tree(s.project.id);
    const levels = await s.admin.get(`${s.base}/page-levels`);
    const [, , indicator] = (levels.json() as { levels: { id: number }[] }).levels;
    const upload = outline('One\nTwo');
    const calls = [
      // [method, url, body, status for a page owner (a main role without the admin sections), headers]
      ['get', `${s.base}/page-levels`, undefined, 200],
      ['post', `${s.base}/page-levels`, { name: 'Measure', icon: 'target', may_hold_measures: true }, 403],
      ['put', `${s.base}/page-levels/${indicator!.id}`, { name: 'KPI', icon: 'chart', may_hold_measures: true }, 403],
      ['delete', `${s.base}/page-levels/${indicator!.id}`, undefined, 403],
      ['get', `${s.base}/numbering`, undefined, 403],
      ['post', `${s.base}/numbering`, { mode: 'manual' }, 403],
      ['get', `${s.base}/numbering/preview`, undefined, 403],
      ['post', `${s.base}/numbering/apply`, undefined, 403],
      ['post', `${s.base}/pages/${t.medication.id}/move`, { parent_id: t.quality.id, version: 1 }, 403],
      ['post', `${s.base}/pages/bulk`, { rows: [{ id: t.falls.id, version: 1, title: 'Slips' }] }, 403],
      ['post', `${s.base}/pages/convert?preview=true`, upload.payload, 403, upload.headers],
      ['post', `${s.base}/pages/convert`, upload.payload, 403, upload.headers],
    ] as const;
    const agents = {
      anonymous: await ctx.anonymous(),
      ...(await ctx.signedInAll(s.people, 'noRole', 'owner', 'outsider')),
    };
    const viewer = await ctx.signedIn(s.people.viewer);
    const before = await snapshot();
    for (const [method, url, body, ownerStatus, headers] of calls) {
      for (const [who, status] of [
        ['anonymous', 401],
        ['noRole', 403],
        ['owner', ownerStatus],
        ['outsider', 404],
      ] as const) {
        const agent = agents[who];
        const answer =
          method === 'get'
            ? await agent.get(url)
            : method === 'post'
              ? await agent.post(url, body, headers as Record<string, string> | undefined)
              : await agent[method](url, body);
        expect(answer.statusCode, `${method} ${url} as ${who}: ${answer.body}`).toBe(status);
      }
    }
    // A viewer reads the level names for the tree (section pages) but changes nothing.
    expect((await viewer.get(`${s.base}/page-levels`)).statusCode).toBe(200);
    expect((await viewer.get(`${s.base}/numbering`)).statusCode).toBe(403);
    expect(await snapshot()).toEqual(before);
  });

  describe('levels', () => {
    it('lists the default levels with their page counts, adds, edits and checks every field', async () => {
      const s = await setup();
      await tree(s.project.id);
      const list = await s.admin.get(`${s.base}/page-levels`);
      expect(list.statusCode).toBe(200);
      expect(list.json()).toMatchObject({
        max_levels: 8,
        levels: [
          { depth: 1, name: 'Domain', icon: 'folder', may_hold_measures: false, page_count: 2 },
          { depth: 2, name: 'Programme', icon: 'layers', may_hold_measures: true, page_count: 4 },
          { depth: 3, name: 'Indicator', icon: 'chart', may_hold_measures: true, page_count: 1 },
        ],
      });

      const bad = await s.admin.post(`${s.base}/page-levels`, { name: ' ', icon: 'rocket', may_hold_measures: 'yes' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().errors).toMatchObject({
        name: ['Enter a name.'],
        icon: ['Choose one of the icons.'],
        may_hold_measures: ['Say whether pages of this level may hold measures.'],
      });
      const twice = await s.admin.post(`${s.base}/page-levels`, { name: 'domain', icon: 'target' });
      expect(twice.statusCode).toBe(400);
      expect(twice.json().errors).toEqual({ name: ['Another level has this name.'] });

      const added = await s.admin.post(`${s.base}/page-levels`, { name: 'Measure', icon: 'target' });
      expect(added.statusCode, added.body).toBe(201);
      expect(added.json()).toMatchObject({ depth: 4, name: 'Measure', icon: 'target', may_hold_measures: false });
      const [created] = await auditOf('monitoring.level_created');
      expect(created).toMatchObject({ subjectId: String(added.json().id), data: { depth: 4, name: 'Measure' } });

      const edited = await s.admin.put(`${s.base}/page-levels/${added.json().id}`, {
        name: 'Sub-indicator',
        icon: 'heart',
        may_hold_measures: true,
      });
      expect(edited.statusCode, edited.body).toBe(200);
      expect(edited.json()).toMatchObject({ depth: 4, name: 'Sub-indicator', icon: 'heart', may_hold_measures: true });
      expect(await auditOf('monitoring.level_updated')).toHaveLength(1);

      // At most eight levels.
      for (const name of ['Five', 'Six', 'Seven', 'Eight']) {
        expect((await s.admin.post(`${s.base}/page-levels`, { name, icon: 'folder' })).statusCode).toBe(201);
      }
      const ninth = await s.admin.post(`${s.base}/page-levels`, { name: 'Nine', icon: 'folder' });
      expect(ninth.statusCode).toBe(409);
      expect(ninth.json().message).toBe('The tree has the most levels it may have (8).');
    });

    it('deletes only the deepest level and only while no live page is that deep', async () => {
      const s = await setup();
      const t = await tree(s.project.id);
      const levels = (await s.admin.get(`${s.base}/page-levels`)).json().levels as { id: number; name: string }[];
      const before = await snapshot();
      const notDeepest = await s.admin.delete(`${s.base}/page-levels/${levels[1]!.id}`);
      expect(notDeepest.statusCode).toBe(409);
      expect(notDeepest.json().message).toBe(
        'Only the deepest level can be deleted. Delete the levels below it first.',
      );
      const withPages = await s.admin.delete(`${s.base}/page-levels/${levels[2]!.id}`);
      expect(withPages.statusCode).toBe(409);
      expect(withPages.json().message).toBe('1 page is at the level "Indicator". Move or delete it first.');
      expect(await snapshot()).toEqual(before);
      const other = await s.admin.delete(`${s.base}/page-levels/999999`);
      expect(other.statusCode).toBe(404);

      // A deleted page does not count.
      await db().update(monPages).set({ deletedAt: new Date() }).where(eq(monPages.id, t.doses.id));
      const deleted = await s.admin.delete(`${s.base}/page-levels/${levels[2]!.id}`);
      expect(deleted.statusCode, deleted.body).toBe(200);
      expect(deleted.json()).toEqual({ deleted: levels[2]!.id });
      const after = (await s.admin.get(`${s.base}/page-levels`)).json().levels as { name: string }[];
      expect(after.map((l) => l.name)).toEqual(['Domain', 'Programme']);
      const [event] = await auditOf('monitoring.level_deleted');
      expect(event).toMatchObject({ data: { depth: 3, name: 'Indicator' } });
    });
  });

  describe('numbering', () => {
    it('switches to manual keeping the numbers and back to auto renumbering the tree', async () => {
      const s = await setup();
      const t = await tree(s.project.id);
      expect((await s.admin.get(`${s.base}/numbering`)).json()).toEqual({ mode: 'auto', pages: 7 });
      const bad = await s.admin.post(`${s.base}/numbering`, { mode: 'sometimes' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().errors).toEqual({ mode: ['Choose automatic or manual numbering.'] });

      const manual = await s.admin.post(`${s.base}/numbering`, { mode: 'manual' });
      expect(manual.statusCode, manual.body).toBe(200);
      expect(manual.json()).toEqual({ mode: 'manual', changed: 0, changes: [] });
      expect((await s.admin.get(`${s.base}/numbering`)).json()).toEqual({ mode: 'manual', pages: 7 });
      // People type numbers by hand meanwhile.
      await db().update(monPages).set({ number: '7' }).where(eq(monPages.id, t.quality.id));
      await db().update(monPages).set({ number: '7.4' }).where(eq(monPages.id, t.waiting.id));

      const auto = await s.admin.post(`${s.base}/numbering`, { mode: 'auto' });
      expect(auto.statusCode, auto.body).toBe(200);
      expect(auto.json()).toMatchObject({ mode: 'auto', changed: 2 });
      expect(auto.json().changes).toEqual(
        expect.arrayContaining([
          { id: t.quality.id, title: 'Quality', from: '7', to: '2' },
          { id: t.waiting.id, title: 'Waiting times', from: '7.4', to: '2.1' },
        ]),
      );
      const events = await auditOf('monitoring.numbering_changed');
      expect(events.map((e) => e.data)).toEqual([
        expect.objectContaining({ from: 'auto', to: 'manual', changes: 0 }),
        expect.objectContaining({ from: 'manual', to: 'auto', changes: 2 }),
      ]);
    });

    it('previews what numbering from the tree would change without writing, then applies it', async () => {
      const s = await setup();
      const t = await tree(s.project.id);
      await s.admin.post(`${s.base}/numbering`, { mode: 'manual' });
      await db().update(monPages).set({ number: '9' }).where(eq(monPages.id, t.safety.id));
      await db().update(monPages).set({ number: '5.5' }).where(eq(monPages.id, t.falls.id));
      const before = await snapshot();
      const preview = await s.admin.get(`${s.base}/numbering/preview`);
      expect(preview.statusCode, preview.body).toBe(200);
      expect(preview.json()).toEqual([
        { id: t.safety.id, title: 'Safety', from: '9', to: '1' },
        { id: t.falls.id, title: 'Falls', from: '5.5', to: '1.1' },
      ]);
      expect(await snapshot()).toEqual(before);

      const applied = await s.admin.post(`${s.base}/numbering/apply`);
      expect(applied.statusCode, applied.body).toBe(200);
      expect(applied.json()).toMatchObject({ mode: 'manual', changed: 2 });
      const pages = await pagesOf(s.project.id);
      expect(pages.map((p) => p.number)).toEqual(['1', '2', '1.1', '1.2', '1.3', '1.3.1', '2.1']);
      expect((await s.admin.get(`${s.base}/numbering/preview`)).json()).toEqual([]);
      const [event] = await auditOf('monitoring.pages_renumbered');
      expect(event).toMatchObject({ data: { mode: 'manual', changes: 2, renumbered: ['9 -> 1', '5.5 -> 1.1'] } });
    });
  });

  describe('moves', () => {
    it('moves a page with its branch; old siblings close the gap and new ones make room', async () => {
      const s = await setup();
      const t = await tree(s.project.id);
      const moved = await s.admin.post(`${s.base}/pages/${t.medication.id}/move`, {
        parent_id: t.quality.id,
        before_id: t.waiting.id,
        version: 1,
      });
      expect(moved.statusCode, moved.body).toBe(200);
      expect(numbered(moved)).toEqual([
        '1 Safety',
        '1.1 Falls',
        '1.2 Infections',
        '2 Quality',
        '2.1 Medication',
        '2.1.1 Doses',
        '2.2 Waiting times',
      ]);
      const [event] = await auditOf('monitoring.page_moved');
      expect(event!.subjectId).toBe(String(t.medication.id));
      expect((event!.data as { renumbered: string[] }).renumbered).toEqual(
        expect.arrayContaining(['1.3 -> 2.1', '1.3.1 -> 2.1.1', '2.1 -> 2.2']),
      );
      const [page] = await db().select().from(monPages).where(eq(monPages.id, t.medication.id));
      expect(page).toMatchObject({ parentId: t.quality.id, depth: 2, version: 2 });

      // Up to the top level, first; and last among siblings without before_id.
      const top = await s.admin.post(`${s.base}/pages/${t.falls.id}/move`, {
        parent_id: null,
        before_id: t.safety.id,
        version: 1,
      });
      expect(numbered(top).slice(0, 3)).toEqual(['1 Falls', '2 Safety', '2.1 Infections']);
      const last = await s.admin.post(`${s.base}/pages/${t.falls.id}/move`, { parent_id: t.safety.id, version: 2 });
      expect(numbered(last).slice(0, 3)).toEqual(['1 Safety', '1.1 Infections', '1.2 Falls']);
    });

    it('refuses a move under itself or its sub-pages, too deep, stale, hidden or with a wrong sibling', async () => {
      const s = await setup();
      const t = await tree(s.project.id);
      const outsider = await ctx.signedIn(s.people.outsider);
      const before = await snapshot();
      const url = (id: number) => `${s.base}/pages/${id}/move`;
      for (const parent of [t.safety.id, t.medication.id]) {
        const answer = await s.admin.post(url(t.safety.id), { parent_id: parent, version: 1 });
        expect(answer.statusCode).toBe(400);
        expect(answer.json().errors).toEqual({ parent_id: ['A page cannot move under itself or its own sub-pages.'] });
      }
      const deep = await s.admin.post(url(t.medication.id), { parent_id: t.waiting.id, version: 1 });
      expect(deep.statusCode).toBe(400);
      expect(deep.json().errors.parent_id[0]).toContain('The tree has 3 levels');
      const stale = await s.admin.post(url(t.falls.id), { parent_id: t.quality.id, version: 7 });
      expect(stale.statusCode).toBe(409);
      expect(stale.json()).toMatchObject({
        message: 'This page was changed by someone else. Reload it to see their changes.',
        errors: { version: ['1'] },
      });
      const sibling = await s.admin.post(url(t.falls.id), {
        parent_id: t.quality.id,
        before_id: t.infections.id,
        version: 1,
      });
      expect(sibling.statusCode).toBe(400);
      expect(Object.keys(sibling.json().errors)).toEqual(['before_id']);
      const invalid = await s.admin.post(url(t.falls.id), { parent_id: 'x', version: 0 });
      expect(invalid.statusCode).toBe(400);
      expect(Object.keys(invalid.json().errors).sort()).toEqual(['parent_id', 'version']);

      // Another project's pages are not found, as page and as parent.
      const elsewhere = await insertPage(db(), s.other.id, { title: 'Elsewhere', number: '1' });
      expect((await s.admin.post(url(elsewhere.id), { parent_id: null, version: 1 })).statusCode).toBe(404);
      const foreignParent = await s.admin.post(url(t.falls.id), { parent_id: elsewhere.id, version: 1 });
      expect(foreignParent.statusCode).toBe(400);
      expect(foreignParent.json().errors).toEqual({ parent_id: ['Choose a page you may edit.'] });
      expect(
        (
          await outsider.post(`/api/projects/${s.other.id}/monitoring/pages/${t.falls.id}/move`, {
            parent_id: null,
            version: 1,
          })
        ).statusCode,
      ).toBe(404);
      expect(await snapshot()).toEqual({
        ...before,
        pages: [...before.pages, expect.objectContaining({ id: elsewhere.id })],
      });
    });
  });

  describe('bulk update', () => {
    it('refuses the whole batch when one row is wrong, with errors by row and field', async () => {
      const s = await setup();
      const t = await tree(s.project.id);
      const before = await snapshot();
      const answer = await s.admin.post(`${s.base}/pages/bulk`, {
        rows: [
          { id: t.falls.id, version: 1, title: 'Slips and falls' },
          { id: t.infections.id, version: 3, title: 'Infection control' },
          { id: t.safety.id, version: 1, parent_id: t.doses.id },
          { id: t.quality.id, version: 1, owner_id: s.people.noRole.id },
          { id: t.waiting.id, version: 1, number: '4.4' },
        ],
      });
      expect(answer.statusCode).toBe(400);
      expect(answer.json().errors).toEqual({
        'rows.1.version': ['Changed by someone else since you loaded it.'],
        'rows.2.parent_id': ['A page cannot move under itself or its own sub-pages.'],
        'rows.3.owner_id': ['Choose a monitoring user of this project.'],
        'rows.4.number': ['Numbers follow the tree in automatic numbering.'],
      });
      const blank = await s.admin.post(`${s.base}/pages/bulk`, { rows: [{ id: t.falls.id, version: 1, title: '' }] });
      expect(blank.json().errors).toEqual({ 'rows.0.title': ['Enter a title.'] });
      const deep = await s.admin.post(`${s.base}/pages/bulk`, {
        rows: [{ id: t.medication.id, version: 1, parent_id: t.waiting.id }],
      });
      expect(deep.json().errors['rows.0.parent_id'][0]).toContain('The tree has 3 levels');
      expect(await snapshot()).toEqual(before);
    });

    it('applies every row in one go, renumbers and audits one event', async () => {
      const s = await setup();
      const t = await tree(s.project.id);
      await db().insert(monUsers).values({ projectId: s.project.id, userId: s.people.owner.id }).onConflictDoNothing();
      const answer = await s.admin.post(`${s.base}/pages/bulk`, {
        rows: [
          { id: t.falls.id, version: 1, title: 'Slips and falls', status: 'archived' },
          { id: t.infections.id, version: 1, parent_id: t.quality.id },
          { id: t.quality.id, version: 1, owner_id: s.people.owner.id },
          { id: t.doses.id, version: 1 },
        ],
      });
      expect(answer.statusCode, answer.body).toBe(200);
      expect(numbered(answer)).toEqual([
        '1 Safety',
        '1.1 Slips and falls',
        '1.2 Medication',
        '1.2.1 Doses',
        '2 Quality',
        '2.1 Waiting times',
        '2.2 Infections',
      ]);
      const pages = await pagesOf(s.project.id);
      expect(pages.find((p) => p.id === t.falls.id)).toMatchObject({ status: 'archived', version: 2 });
      expect(pages.find((p) => p.id === t.quality.id)).toMatchObject({ ownerId: s.people.owner.id, version: 2 });
      expect(pages.find((p) => p.id === t.doses.id)).toMatchObject({ version: 1 });
      const events = await auditOf('monitoring.pages_bulk_updated');
      expect(events).toHaveLength(1);
      expect(events[0]!.data).toMatchObject({
        ids: [t.falls.id, t.infections.id, t.quality.id],
        renumbered: expect.arrayContaining(['1.3 -> 1.2', '1.3.1 -> 1.2.1', '1.2 -> 2.2']),
      });
    });

    it('keeps manual numbers unique across the whole result, swaps allowed', async () => {
      const s = await setup();
      const t = await tree(s.project.id);
      await s.admin.post(`${s.base}/numbering`, { mode: 'manual' });
      const clash = await s.admin.post(`${s.base}/pages/bulk`, {
        rows: [{ id: t.falls.id, version: 1, number: '2.1' }],
      });
      expect(clash.json().errors).toEqual({ 'rows.0.number': ['Number 2.1 is already used.'] });
      const swap = await s.admin.post(`${s.base}/pages/bulk`, {
        rows: [
          { id: t.falls.id, version: 1, number: '1.2' },
          { id: t.infections.id, version: 1, number: '1.1' },
        ],
      });
      expect(swap.statusCode, swap.body).toBe(200);
      const pages = await pagesOf(s.project.id);
      expect(pages.find((p) => p.id === t.falls.id)!.number).toBe('1.2');
      expect(pages.find((p) => p.id === t.infections.id)!.number).toBe('1.1');
    });
  });

  describe('outline import', () => {
    it('previews a text outline (indentation, dotted numbers, Markdown) without writing', async () => {
      const s = await setup();
      await s.admin.get(`${s.base}/page-levels`);
      const before = await snapshot();
      const text = '# Safety\n  Falls\n  Infections\n    Hand hygiene\nQuality\n\t- Waiting times\n';
      const body = outline(text);
      const answer = await s.admin.post(`${s.base}/pages/convert?preview=true`, body.payload, body.headers);
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.json()).toEqual({
        pages: [
          { title: 'Safety', depth: 1, number: null },
          { title: 'Falls', depth: 2, number: null },
          { title: 'Infections', depth: 2, number: null },
          { title: 'Hand hygiene', depth: 3, number: null },
          { title: 'Quality', depth: 1, number: null },
          { title: 'Waiting times', depth: 2, number: null },
        ],
      });
      const dotted = outline('1 Safety\n1.1 Falls\n1.2. Infections\n2 Quality');
      const numbers = await s.admin.post(`${s.base}/pages/convert?preview=true`, dotted.payload, dotted.headers);
      expect(numbers.json().pages).toEqual([
        { title: 'Safety', depth: 1, number: '1' },
        { title: 'Falls', depth: 2, number: '1.1' },
        { title: 'Infections', depth: 2, number: '1.2' },
        { title: 'Quality', depth: 1, number: '2' },
      ]);
      expect(await snapshot()).toEqual(before);
    });

    it('creates draft pages under a parent in one go and renumbers', async () => {
      const s = await setup();
      const t = await tree(s.project.id);
      const body = outline('Hand hygiene\n  Audits\nIsolation\n', { parent_id: String(t.falls.id) });
      const tooDeep = await s.admin.post(`${s.base}/pages/convert`, body.payload, body.headers);
      expect(tooDeep.statusCode).toBe(400);
      expect(tooDeep.json().errors.file[0]).toContain('under this parent pages may go 1 level deep');

      const flat = outline('Hand hygiene\n  Audits\nIsolation\n', { parent_id: String(t.safety.id) });
      const answer = await s.admin.post(`${s.base}/pages/convert`, flat.payload, flat.headers);
      expect(answer.statusCode, answer.body).toBe(201);
      expect(answer.json()).toEqual({ created: 3 });
      const list = await s.admin.get(`${s.base}/pages`);
      expect(numbered(list).slice(0, 9)).toEqual([
        '1 Safety',
        '1.1 Falls',
        '1.2 Infections',
        '1.3 Medication',
        '1.3.1 Doses',
        '1.4 Hand hygiene',
        '1.4.1 Audits',
        '1.5 Isolation',
        '2 Quality',
      ]);
      const created = (await pagesOf(s.project.id)).filter((p) => p.id > t.waiting.id);
      expect(created.every((p) => p.status === 'draft' && p.createdBy === s.people.admin.id)).toBe(true);
      const [event] = await auditOf('monitoring.pages_imported');
      expect(event).toMatchObject({ data: { parent_id: t.safety.id, file_name: 'outline.txt' } });
      expect((event!.data as { created: number[] }).created).toHaveLength(3);
    });

    it('reads the headings of a Word file and refuses other files', async () => {
      const s = await setup();
      const docx = buildDocx({
        headings: [
          { level: 1, text: 'Safety' },
          { level: 2, text: 'Falls' },
          { level: 3, text: 'Falls per 1000 bed days' },
          { level: 1, text: 'Quality' },
        ],
        paragraphs: ['Ignored body text'],
      });
      const body = multipart({}, { name: 'programme.docx', data: docx });
      const preview = await s.admin.post(`${s.base}/pages/convert?preview=true`, body.payload, body.headers);
      expect(preview.statusCode, preview.body).toBe(200);
      expect(preview.json().pages).toEqual([
        { title: 'Safety', depth: 1, number: null },
        { title: 'Falls', depth: 2, number: null },
        { title: 'Falls per 1000 bed days', depth: 3, number: null },
        { title: 'Quality', depth: 1, number: null },
      ]);
      const created = await s.admin.post(`${s.base}/pages/convert`, body.payload, body.headers);
      expect(created.json()).toEqual({ created: 4 });
      expect((await pagesOf(s.project.id)).map((p) => `${p.number} ${p.title}`)).toEqual([
        '1 Safety',
        '1.1 Falls',
        '1.1.1 Falls per 1000 bed days',
        '2 Quality',
      ]);

      const before = await snapshot();
      for (const data of [Buffer.from('%PDF-1.4 fake'), Buffer.from([0, 1, 2, 3, 255, 254])]) {
        const file = multipart({}, { name: 'x.pdf', data });
        const refused = await s.admin.post(`${s.base}/pages/convert`, file.payload, file.headers);
        expect(refused.statusCode).toBe(400);
        expect(refused.json()).toMatchObject({
          message: 'Upload a Word (.docx) or text outline.',
          errors: { file: ['Upload a Word (.docx) or text outline.'] },
        });
      }
      const empty = multipart({});
      const none = await s.admin.post(`${s.base}/pages/convert`, empty.payload, empty.headers);
      expect(none.statusCode).toBe(400);
      expect(await snapshot()).toEqual(before);
    });
  });
});
