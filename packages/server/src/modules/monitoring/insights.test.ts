import { STALE_INSIGHT_MESSAGE } from '@portal/shared';
import { count, desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { expectStatuses } from '../../../test/guards-kit.js';
import { insertPage, monitoringProject } from '../../../test/monitoring-kit.js';
import { auditEvents, monInsightRevisions, monInsights, monPages } from '../../db/schema/index.js';

describe('key insights', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;

  async function setup() {
    const s = await monitoringProject(db());
    const page = await insertPage(db(), s.project.id, {
      title: 'Falls with injury',
      number: '1',
      ownerId: s.people.owner.id,
    });
    const base = `/api/projects/${s.project.id}/monitoring`;
    const admin = await ctx.signedIn(s.people.admin);
    return { ...s, page, base, admin };
  }

  async function lastAudit() {
    const [event] = await db().select().from(auditEvents).orderBy(desc(auditEvents.id)).limit(1);
    return event!;
  }

  async function addInsight(
    s: Awaited<ReturnType<typeof setup>>,
    body: { title: string; body?: string; status?: 'draft' | 'published' },
    pageId = s.page.id,
  ) {
    const answer = await s.admin.post(`${s.base}/pages/${pageId}/insights`, body);
    expect(answer.statusCode, answer.body).toBe(201);
    return answer.json() as { id: number; version: number };
  }

  it('guards every call: 401 signed out, 403 without a role or as a viewer, 404 outside; nothing changes', async () => {
    const s = await setup();
    const insight = await addInsight(s, { title: 'Falls fell', body: '<p>Down 20%</p>', status: 'published' });
    const calls = [
      ['get', `${s.base}/pages/${s.page.id}/insights`, undefined, false],
      ['post', `${s.base}/pages/${s.page.id}/insights`, { title: 'New', body: '', status: 'draft' }, true],
      ['get', `${s.base}/insights/${insight.id}`, undefined, true],
      ['put', `${s.base}/insights/${insight.id}`, { version: insight.version, title: 'Changed' }, true],
      ['delete', `${s.base}/insights/${insight.id}`, undefined, true],
      ['get', `${s.base}/insights/${insight.id}/revisions`, undefined, true],
    ] as const;
    const agents = {
      anonymous: await ctx.anonymous(),
      ...(await ctx.signedInAll(s.people, 'noRole', 'viewer', 'outsider')),
    };
    const snapshot = async () => ({
      insights: await db().select().from(monInsights),
      revisions: await db().select().from(monInsightRevisions),
      audit: (await db().select({ n: count() }).from(auditEvents))[0]!.n,
    });
    const before = await snapshot();
    await expectStatuses(agents, calls, ([, , , keyInsights]) => [
      ['anonymous', 401],
      ['noRole', 403],
      ['outsider', 404],
      ...(keyInsights ? ([['viewer', 403]] as const) : []),
    ]);
    expect(await snapshot()).toEqual(before);
  });

  it('adds, lists and shows insights: viewers read published ones only, editors drafts too', async () => {
    const s = await setup();
    const published = await addInsight(s, { title: 'Falls fell', body: '<p>Down 20%</p>', status: 'published' });
    const event = await lastAudit();
    expect(event).toMatchObject({
      action: 'monitoring.insight_created',
      projectId: s.project.id,
      actorUserId: s.people.admin.id,
      subjectType: 'mon_insight',
      subjectId: String(published.id),
    });
    const draft = await addInsight(s, { title: 'Working on it' });

    const owner = await ctx.signedIn(s.people.owner);
    const forOwner = await owner.get(`${s.base}/pages/${s.page.id}/insights`);
    expect(forOwner.statusCode).toBe(200);
    expect(forOwner.json().insights.map((i: { title: string; status: string }) => [i.title, i.status])).toEqual([
      ['Working on it', 'draft'],
      ['Falls fell', 'published'],
    ]);
    expect(forOwner.json().insights[1]).toMatchObject({
      id: published.id,
      page_id: s.page.id,
      body: '<p>Down 20%</p>',
      author: { id: s.people.admin.id, name: 'Ada Admin' },
      version: 1,
      abilities: { edit: true, publish: true, delete: true },
    });
    expect(forOwner.json().insights[1].published_at).not.toBeNull();
    expect(forOwner.json().insights[0].published_at).toBeNull();

    const viewer = await ctx.signedIn(s.people.viewer);
    const forViewer = await viewer.get(`${s.base}/pages/${s.page.id}/insights`);
    expect(forViewer.json().insights).toHaveLength(1);
    expect(forViewer.json().insights[0]).toMatchObject({
      id: published.id,
      abilities: { edit: false, publish: false, delete: false },
    });

    const detail = await owner.get(`${s.base}/insights/${draft.id}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.json()).toMatchObject({
      title: 'Working on it',
      page: { id: s.page.id, number: '1', title: 'Falls with injury' },
    });

    // A page owner of another page may not change this one's insights.
    const other = await insertPage(db(), s.project.id, { title: 'CLABSI', number: '2' });
    const refused = await owner.post(`${s.base}/pages/${other.id}/insights`, { title: 'Mine', body: '' });
    expect(refused.statusCode).toBe(403);
  });

  it('answers 404 for the insights of a hidden, deleted or unknown page, without its title', async () => {
    const s = await setup();
    const hidden = await insertPage(db(), s.project.id, { title: 'Secret programme', number: '9' });
    const insight = await addInsight(s, { title: 'Hidden finding', status: 'published' }, hidden.id);
    await db().update(monPages).set({ restricted: true }).where(eq(monPages.id, hidden.id));
    const viewer = await ctx.signedIn(s.people.viewer);
    const owner = await ctx.signedIn(s.people.owner);
    const list = await viewer.get(`${s.base}/pages/${hidden.id}/insights`);
    expect(list.statusCode).toBe(404);
    expect(list.body).not.toContain('Secret');
    const detail = await owner.get(`${s.base}/insights/${insight.id}`);
    expect(detail.statusCode).toBe(404);
    expect(detail.body).not.toContain('Hidden finding');
    expect((await owner.post(`${s.base}/pages/${hidden.id}/insights`, { title: 'X' })).statusCode).toBe(404);

    await db().update(monPages).set({ deletedAt: new Date() }).where(eq(monPages.id, s.page.id));
    expect((await s.admin.get(`${s.base}/pages/${s.page.id}/insights`)).statusCode).toBe(404);
    expect((await s.admin.get(`${s.base}/pages/999999/insights`)).statusCode).toBe(404);
  });

  it('refuses bad input with field messages', async () => {
    const s = await setup();
    const empty = await s.admin.post(`${s.base}/pages/${s.page.id}/insights`, { title: '  ', body: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors.title).toEqual(['Enter a title.']);
    const long = await s.admin.post(`${s.base}/pages/${s.page.id}/insights`, {
      title: 'x'.repeat(201),
      body: 'y'.repeat(100_001),
      status: 'final',
    });
    expect(long.statusCode).toBe(400);
    expect(Object.keys(long.json().errors).sort()).toEqual(['body', 'status', 'title']);
    const insight = await addInsight(s, { title: 'Fine' });
    const noVersion = await s.admin.put(`${s.base}/insights/${insight.id}`, { title: 'Changed' });
    expect(noVersion.statusCode).toBe(400);
    expect(noVersion.json().errors.version).toBeDefined();
  });

  it('sanitises the body: <script> and event handlers never reach the database', async () => {
    const s = await setup();
    const insight = await addInsight(s, {
      title: 'Careful',
      body: '<p onclick="steal()">Hello</p><script>alert(1)</script><img src=x onerror=alert(2)>',
    });
    const [row] = await db().select().from(monInsights).where(eq(monInsights.id, insight.id));
    expect(row!.body).toContain('Hello');
    expect(row!.body).not.toContain('<script');
    expect(row!.body).not.toContain('onclick');
    expect(row!.body).not.toContain('onerror');
    const put = await s.admin.put(`${s.base}/insights/${insight.id}`, {
      version: 1,
      body: '<p>Again</p><script>alert(3)</script>',
    });
    expect(put.json().body).toBe('<p>Again</p>');
  });

  it('publishes with an optimistic version: a stale edit is 409, every save adds a revision', async () => {
    const s = await setup();
    const insight = await addInsight(s, { title: 'Draft one', body: '<p>a</p>' });
    const owner = await ctx.signedIn(s.people.owner);

    const published = await owner.put(`${s.base}/insights/${insight.id}`, { version: 1, status: 'published' });
    expect(published.statusCode).toBe(200);
    expect(published.json()).toMatchObject({ version: 2, status: 'published' });
    expect(published.json().published_at).not.toBeNull();
    expect(await lastAudit()).toMatchObject({
      action: 'monitoring.insight_published',
      actorUserId: s.people.owner.id,
      data: { fields: ['status'], version: 2, status: { from: 'draft', to: 'published' } },
    });

    const stale = await s.admin.put(`${s.base}/insights/${insight.id}`, { version: 1, title: 'Lost edit' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ message: STALE_INSIGHT_MESSAGE, errors: { version: ['2'] } });

    const renamed = await s.admin.put(`${s.base}/insights/${insight.id}`, { version: 2, title: 'Final title' });
    expect(renamed.json()).toMatchObject({ version: 3, title: 'Final title', status: 'published' });
    const unpublished = await s.admin.put(`${s.base}/insights/${insight.id}`, { version: 3, status: 'draft' });
    expect(unpublished.json()).toMatchObject({ version: 4, status: 'draft', published_at: null });

    const history = await owner.get(`${s.base}/insights/${insight.id}/revisions`);
    expect(history.statusCode).toBe(200);
    expect(
      history
        .json()
        .revisions.map((r: { version: number; title: string; status: string; edited_by: { name: string } }) => [
          r.version,
          r.title,
          r.status,
          r.edited_by.name,
        ]),
    ).toEqual([
      [4, 'Final title', 'draft', 'Ada Admin'],
      [3, 'Final title', 'published', 'Ada Admin'],
      [2, 'Draft one', 'published', 'Owen Owner'],
      [1, 'Draft one', 'draft', 'Ada Admin'],
    ]);
  });

  it('deletes softly: gone from the page, kept in the database, audited', async () => {
    const s = await setup();
    const insight = await addInsight(s, { title: 'Going away', status: 'published' });
    const owner = await ctx.signedIn(s.people.owner);
    const deleted = await owner.delete(`${s.base}/insights/${insight.id}`);
    expect(deleted.statusCode).toBe(204);
    expect((await owner.get(`${s.base}/pages/${s.page.id}/insights`)).json().insights).toEqual([]);
    expect((await owner.get(`${s.base}/insights/${insight.id}`)).statusCode).toBe(404);
    expect((await owner.delete(`${s.base}/insights/${insight.id}`)).statusCode).toBe(404);
    const [row] = await db().select().from(monInsights).where(eq(monInsights.id, insight.id));
    expect(row!.deletedAt).not.toBeNull();
    expect(await lastAudit()).toMatchObject({
      action: 'monitoring.insight_deleted',
      actorUserId: s.people.owner.id,
      subjectId: String(insight.id),
    });
  });
});
