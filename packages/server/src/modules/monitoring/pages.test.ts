import { count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { expectStatuses } from '../../../test/guards-kit.js';
import { insertPage, monitoringProject } from '../../../test/monitoring-kit.js';
import {
  auditEvents,
  monPageLevels,
  monPagePermissions,
  monPages,
  monRoleMembers,
  monRoles,
  monSettings,
} from '../../db/schema/index.js';

describe('monitoring pages', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;

  async function setup() {
    const s = await monitoringProject(db());
    const base = `/api/projects/${s.project.id}/monitoring`;
    return { ...s, base, admin: await ctx.signedIn(s.people.admin) };
  }

  type Answer = { json(): unknown; statusCode: number; body: string };
  const titles = (answer: Answer) => (answer.json() as { pages: { title: string }[] }).pages.map((p) => p.title);
  const auditOf = async (action: string) => db().select().from(auditEvents).where(eq(auditEvents.action, action));

  it('guards every call: 401 signed out, 403 without a role or with a wrong one, 404 outside; nothing changes', async () => {
    const s = await setup();
    const top = await insertPage(db(), s.project.id, { title: 'Safety', number: '1' });
    const calls = [
      ['get', `${s.base}/pages`, undefined, 200],
      ['get', `${s.base}/pages/used-numbers`, undefined, 200],
      ['get', `${s.base}/pages/owner-candidates`, undefined, 403],
      ['get', `${s.base}/pages/${top.id}`, undefined, 200],
      ['post', `${s.base}/pages`, { title: 'New', parent_id: top.id }, 403],
      ['put', `${s.base}/pages/${top.id}`, { version: 1, title: 'Changed' }, 403],
      ['delete', `${s.base}/pages/${top.id}`, undefined, 403],
      ['get', `${s.base}/introduction`, undefined, 200],
      ['put', `${s.base}/introduction`, { introduction: '<p>Hi</p>' }, 403],
    ] as const;
    const agents = {
      anonymous: await ctx.anonymous(),
      ...(await ctx.signedInAll(s.people, 'noRole', 'viewer', 'outsider')),
    };
    const snapshot = async () => ({
      pages: await db().select().from(monPages),
      settings: await db().select().from(monSettings),
      audit: (await db().select({ n: count() }).from(auditEvents))[0]!.n,
    });
    const before = await snapshot();
    await expectStatuses(agents, calls, ([, , , viewerStatus]) => [
      ['anonymous', 401],
      ['noRole', 403],
      ['viewer', viewerStatus],
      ['outsider', 404],
    ]);
    // The page's project, for links without one: only for those who may see the page.
    const lookup = `/api/monitoring/pages/${top.id}/project`;
    expect((await agents.anonymous.get(lookup)).statusCode).toBe(401);
    expect((await agents.noRole.get(lookup)).statusCode).toBe(404);
    expect((await agents.outsider.get(lookup)).statusCode).toBe(404);
    expect((await agents.viewer.get(lookup)).json()).toEqual({ project_id: s.project.id });
    expect((await agents.viewer.get('/api/monitoring/pages/999999/project')).statusCode).toBe(404);
    expect(await snapshot()).toEqual(before);
  });

  it('creates pages in tree order with automatic numbers (1.9 before 1.10), levels and abilities', async () => {
    const s = await setup();
    const empty = await s.admin.get(`${s.base}/pages`);
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({ pages: [], numbering_mode: 'auto', max_depth: 3 });
    const levels = await db().select().from(monPageLevels).where(eq(monPageLevels.projectId, s.project.id));
    expect(levels.map((l) => l.name).sort()).toEqual(['Domain', 'Indicator', 'Programme']);

    const domain = await s.admin.post(`${s.base}/pages`, {
      title: 'Safety',
      status: 'published',
      owner_id: s.people.owner.id,
      introduction: '<p>Why</p><script>alert(1)</script>',
    });
    expect(domain.statusCode, domain.body).toBe(201);
    const created = domain.json() as { id: number; number: string; introduction: string };
    expect(domain.json()).toMatchObject({
      title: 'Safety',
      number: '1',
      depth: 1,
      status: 'published',
      owner: { id: s.people.owner.id, name: 'Owen Owner' },
      level: { name: 'Domain', icon: 'folder' },
      version: 1,
      ancestors: [],
      children: [],
      abilities: { level: 'manage', edit: true, delete: true, manage_permissions: true, add_insight: true },
    });
    expect(created.introduction).toBe('<p>Why</p>');
    const [event] = await auditOf('monitoring.page_created');
    expect(event).toMatchObject({ subjectId: String(created.id), actorUserId: s.people.admin.id });

    for (let i = 1; i <= 10; i++) {
      const child = await s.admin.post(`${s.base}/pages`, { title: `Child ${i}`, parent_id: created.id });
      expect(child.statusCode, child.body).toBe(201);
    }
    await s.admin.post(`${s.base}/pages`, { title: 'Quality' });
    const tree = await s.admin.get(`${s.base}/pages`);
    const pages = (tree.json() as { pages: { number: string; title: string; child_count: number }[] }).pages;
    expect(pages.map((p) => p.number)).toEqual([
      '1',
      '1.1',
      '1.2',
      '1.3',
      '1.4',
      '1.5',
      '1.6',
      '1.7',
      '1.8',
      '1.9',
      '1.10',
      '2',
    ]);
    expect(pages[0]!.child_count).toBe(10);
    expect(pages[10]!.title).toBe('Child 10');
    const used = await s.admin.get(`${s.base}/pages/used-numbers`);
    expect((used.json() as { numbers: string[] }).numbers.slice(8, 12)).toEqual(['1.8', '1.9', '1.10', '2']);

    // The page view: ancestors and children.
    const tenth = await db().select().from(monPages).where(eq(monPages.title, 'Child 10'));
    const view = await s.admin.get(`${s.base}/pages/${tenth[0]!.id}`);
    expect(view.json()).toMatchObject({
      number: '1.10',
      ancestors: [{ id: created.id, number: '1', title: 'Safety' }],
      level: { name: 'Programme' },
    });
  });

  it('refuses bad input with field messages and keeps the tree within its levels', async () => {
    const s = await setup();
    const bad = await s.admin.post(`${s.base}/pages`, { title: ' ', status: 'gone' });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys((bad.json() as { errors: Record<string, string[]> }).errors).sort()).toEqual([
      'status',
      'title',
    ]);
    const a = await insertPage(db(), s.project.id, { title: 'A', number: '1', depth: 1 });
    const b = await insertPage(db(), s.project.id, { title: 'B', number: '1.1', depth: 2, parentId: a.id });
    const c = await insertPage(db(), s.project.id, { title: 'C', number: '1.1.1', depth: 3, parentId: b.id });
    const tooDeep = await s.admin.post(`${s.base}/pages`, { title: 'D', parent_id: c.id });
    expect(tooDeep.statusCode).toBe(400);
    expect((tooDeep.json() as { errors: Record<string, string[]> }).errors.parent_id![0]).toContain(
      'Indicator is the deepest level',
    );
    const otherPage = await insertPage(db(), s.other.id, { title: 'Elsewhere', number: '1' });
    const foreign = await s.admin.post(`${s.base}/pages`, { title: 'D', parent_id: otherPage.id });
    expect((foreign.json() as { errors: Record<string, string[]> }).errors).toEqual({
      parent_id: ['Choose a page you may edit.'],
    });
    const stranger = await s.admin.post(`${s.base}/pages`, { title: 'D', owner_id: s.people.noRole.id });
    expect((stranger.json() as { errors: Record<string, string[]> }).errors).toEqual({
      owner_id: ['Choose a monitoring user of this project.'],
    });
    const number = await s.admin.put(`${s.base}/pages/${a.id}`, { version: 1, number: '7' });
    expect((number.json() as { errors: Record<string, string[]> }).errors).toEqual({
      number: ['Numbers follow the tree in automatic numbering.'],
    });
    // A foreign page is missing here, whatever the method.
    expect((await s.admin.get(`${s.base}/pages/${otherPage.id}`)).statusCode).toBe(404);
    expect((await s.admin.put(`${s.base}/pages/${otherPage.id}`, { version: 1, title: 'X' })).statusCode).toBe(404);
    expect((await s.admin.delete(`${s.base}/pages/${otherPage.id}`)).statusCode).toBe(404);
    expect((await db().select().from(monPages).where(eq(monPages.id, otherPage.id)))[0]!.title).toBe('Elsewhere');
  });

  it('never shows a restricted page to a viewer outside its role, nor its branch, nor their numbers', async () => {
    const s = await setup();
    const open = await insertPage(db(), s.project.id, { title: 'Open', number: '1' });
    const secret = await insertPage(db(), s.project.id, {
      title: 'Secret',
      number: '2',
      position: 1,
      restricted: true,
    });
    const below = await insertPage(db(), s.project.id, {
      title: 'Below secret',
      number: '2.1',
      depth: 2,
      parentId: secret.id,
    });
    const draft = await insertPage(db(), s.project.id, { title: 'Draft', number: '3', position: 2, status: 'draft' });
    const [role] = await db().insert(monRoles).values({ projectId: s.project.id, name: 'Infection team' }).returning();
    await db()
      .insert(monRoleMembers)
      .values({ projectId: s.project.id, roleId: role!.id, userId: s.people.dataEntry.id });
    await db()
      .insert(monPagePermissions)
      .values({ projectId: s.project.id, pageId: secret.id, roleId: role!.id, level: 'view' });

    const viewer = await ctx.signedIn(s.people.viewer);
    const list = await viewer.get(`${s.base}/pages`);
    expect(titles(list)).toEqual(['Open']);
    expect(list.body).not.toContain('Secret');
    expect((list.json() as { pages: { abilities: { edit: boolean } }[] }).pages[0]!.abilities.edit).toBe(false);
    for (const id of [secret.id, below.id, draft.id]) {
      const one = await viewer.get(`${s.base}/pages/${id}`);
      expect(one.statusCode).toBe(404);
      expect(one.body).not.toContain('Secret');
    }
    const intro = await viewer.get(`${s.base}/introduction`);
    expect(intro.body).not.toContain('Secret');
    expect(intro.body).not.toContain('Draft');
    expect((await viewer.get(`/api/monitoring/pages/${below.id}/project`)).statusCode).toBe(404);
    const used = await viewer.get(`${s.base}/pages/used-numbers`);
    // Only the numbers of the pages the viewer sees (the restricted branch and the draft are not listed).
    expect(used.json()).toEqual({ numbers: ['1'] });

    // The role member sees the branch (but not the draft); the admin sees everything.
    const member = await ctx.signedIn(s.people.dataEntry);
    expect(titles(await member.get(`${s.base}/pages`))).toEqual(['Open', 'Secret', 'Below secret']);
    const detail = await member.get(`${s.base}/pages/${below.id}`);
    expect(detail.json()).toMatchObject({ ancestors: [{ title: 'Secret' }] });
    expect((await member.get(`${s.base}/pages/used-numbers`)).json()).toEqual({ numbers: ['1', '2', '2.1'] });
    expect(titles(await s.admin.get(`${s.base}/pages`))).toEqual(['Open', 'Secret', 'Below secret', 'Draft']);
    expect((await s.admin.get(`${s.base}/pages/used-numbers`)).json()).toEqual({ numbers: ['1', '2', '2.1', '3'] });
    const parent = await s.admin.get(`${s.base}/pages/${open.id}`);
    expect(parent.statusCode).toBe(200);
  });

  it('answers a stale edit with 409 and the current version; audits changed field names only', async () => {
    const s = await setup();
    const page = await insertPage(db(), s.project.id, { title: 'Falls', number: '1', ownerId: s.people.owner.id });
    const owner = await ctx.signedIn(s.people.owner);
    const first = await owner.put(`${s.base}/pages/${page.id}`, {
      version: 1,
      title: 'Falls with harm',
      benchmarks: '<p>NDNQI</p><img src=x onerror=alert(1)>',
    });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ title: 'Falls with harm', version: 2, updated_by: { name: 'Owen Owner' } });
    expect((first.json() as { benchmarks: string }).benchmarks).not.toContain('onerror');
    const [event] = await auditOf('monitoring.page_updated');
    expect(event!.data).toMatchObject({ fields: ['title', 'benchmarks'] });
    expect(JSON.stringify(event!.data)).not.toContain('NDNQI');
    // The title before and after; the contents only named as changed.
    expect(event!.data.changes).toEqual({
      title: { from: 'Falls', to: 'Falls with harm' },
      benchmarks: { changed: true },
    });

    const stale = await s.admin.put(`${s.base}/pages/${page.id}`, { version: 1, title: 'Mine' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({
      message: 'This page was changed by someone else. Reload it to see their changes.',
      errors: { version: ['2'] },
    });
    // The owner edits but may not restrict the page (that needs manage).
    const restrict = await owner.put(`${s.base}/pages/${page.id}`, { version: 2, restricted: true });
    expect(restrict.statusCode).toBe(403);
    const [row] = await db().select().from(monPages).where(eq(monPages.id, page.id));
    expect(row).toMatchObject({ title: 'Falls with harm', version: 2, restricted: false });
    // A viewer's answer: edit-page is not their section.
    const viewer = await ctx.signedIn(s.people.viewer);
    expect((await viewer.put(`${s.base}/pages/${page.id}`, { version: 2, title: 'X' })).statusCode).toBe(403);
  });

  it('refuses to delete a page with sub-pages unless the whole branch goes; renumbers after', async () => {
    const s = await setup();
    const a = await insertPage(db(), s.project.id, { title: 'A', number: '1' });
    const a1 = await insertPage(db(), s.project.id, { title: 'A1', number: '1.1', depth: 2, parentId: a.id });
    const b = await insertPage(db(), s.project.id, { title: 'B', number: '2', position: 1 });
    const refused = await s.admin.delete(`${s.base}/pages/${a.id}`);
    expect(refused.statusCode).toBe(409);
    expect((refused.json() as { message: string }).message).toBe(
      'This page has sub-pages. Delete them first, or delete the whole branch.',
    );
    expect((await db().select().from(monPages).where(eq(monPages.id, a.id)))[0]!.deletedAt).toBeNull();
    const owner = await ctx.signedIn(s.people.owner);
    expect((await owner.delete(`${s.base}/pages/${a1.id}`)).statusCode).toBe(403);

    const gone = await s.admin.delete(`${s.base}/pages/${a.id}?cascade=true`);
    expect(gone.statusCode, gone.body).toBe(200);
    expect((gone.json() as { deleted: number[] }).deleted.sort()).toEqual([a.id, a1.id].sort());
    const list = await s.admin.get(`${s.base}/pages`);
    expect((list.json() as { pages: { id: number; number: string }[] }).pages).toMatchObject([
      { id: b.id, number: '1' },
    ]);
    expect((await s.admin.get(`${s.base}/pages/${a1.id}`)).statusCode).toBe(404);
    const [event] = await auditOf('monitoring.page_deleted');
    expect(event!.data).toMatchObject({ cascade: true, renumbered: [{ id: b.id, from: '2', to: '1' }] });
  });

  it('in manual numbering requires a unique number on create and on edit', async () => {
    const s = await setup();
    await db().insert(monSettings).values({ projectId: s.project.id, numberingMode: 'manual' });
    const missing = await s.admin.post(`${s.base}/pages`, { title: 'No number' });
    expect(missing.statusCode).toBe(400);
    expect(Object.keys((missing.json() as { errors: object }).errors)).toEqual(['number']);
    const first = await s.admin.post(`${s.base}/pages`, { title: 'First', number: '1.2' });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({ number: '1.2' });
    const again = await s.admin.post(`${s.base}/pages`, { title: 'Second', number: '1.2' });
    expect(again.statusCode).toBe(400);
    expect((again.json() as { errors: object }).errors).toEqual({ number: ['Number 1.2 is already used.'] });
    const second = await s.admin.post(`${s.base}/pages`, { title: 'Second', number: '4' });
    const id = (second.json() as { id: number }).id;
    const clash = await s.admin.put(`${s.base}/pages/${id}`, { version: 1, number: '1.2' });
    expect((clash.json() as { errors: object }).errors).toEqual({ number: ['Number 1.2 is already used.'] });
    const renamed = await s.admin.put(`${s.base}/pages/${id}`, { version: 1, number: '3' });
    expect(renamed.json()).toMatchObject({ number: '3', version: 2 });
    const list = await s.admin.get(`${s.base}/pages`);
    expect(list.json()).toMatchObject({ numbering_mode: 'manual' });
  });

  it('lists owner candidates and lets administrators change the introduction', async () => {
    const s = await setup();
    const candidates = await s.admin.get(`${s.base}/pages/owner-candidates`);
    expect((candidates.json() as { people: { name: string }[] }).people.map((p) => p.name)).toEqual([
      'Ada Admin',
      'Dana Entry',
      'Owen Owner',
      'Vera Viewer',
    ]);
    await insertPage(db(), s.project.id, { title: 'Safety', number: '1' });
    const saved = await s.admin.put(`${s.base}/introduction`, {
      introduction: '<p>Our programme</p><script>x</script>',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({
      introduction: '<p>Our programme</p>',
      can_edit: true,
      top_pages: [{ title: 'Safety', number: '1', status: 'published', child_count: 0 }],
    });
    expect(await auditOf('monitoring.introduction_updated')).toHaveLength(1);
    // A second change records the sanitised text before and after, long text shortened to 200 characters.
    const long = `<p>${'Falls, pressure injuries and infections. '.repeat(8)}</p>`;
    expect((await s.admin.put(`${s.base}/introduction`, { introduction: long })).statusCode).toBe(200);
    const intros = (await auditOf('monitoring.introduction_updated')).sort((a, b) => Number(a.id) - Number(b.id));
    expect(intros.map((e) => e.data.changes)).toEqual([
      { introduction: { from: '', to: '<p>Our programme</p>' } },
      { introduction: { from: '<p>Our programme</p>', to: `${long.slice(0, 200)}…` } },
    ]);
    expect((await s.admin.put(`${s.base}/introduction`, { introduction: '<p>Our programme</p>' })).statusCode).toBe(
      200,
    );
    const owner = await ctx.signedIn(s.people.owner);
    expect((await owner.get(`${s.base}/introduction`)).json()).toMatchObject({
      introduction: '<p>Our programme</p>',
      can_edit: false,
    });
    expect((await owner.put(`${s.base}/introduction`, { introduction: 'x' })).statusCode).toBe(403);
  });
});
