import { SNIPPET_START } from '@portal/shared';
import { and, desc, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { policyProject, publishDraft } from '../../../test/policy-kit.js';
import {
  auditEvents,
  policyDepartments,
  policyDocuments,
  policyGuestReads,
  policyWorkflowEvents,
  projects,
} from '../../db/schema/index.js';

/** Reading without an account (issue 28): the setting, its ranges, what a guest sees, and the log of guest reads. */
describe('guest reading', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;
  const KIOSK = '10.1.2.3';
  const ELSEWHERE = '192.168.5.5';
  let s: Awaited<ReturnType<typeof policyProject>>;
  let base = '';
  let guestBase = '';
  const docs = { published: 0, draft: 0, archived: 0, revised: 0 };
  let publishedVersion = 0;

  const kiosk = () => ctx.agent({ ip: KIOSK });
  const outside = () => ctx.agent({ ip: ELSEWHERE });
  const turnOn = async (ranges = ['10.1.0.0/16']) => {
    const admin = await ctx.signedIn(s.people.admin, { ip: '10.1.9.9' });
    const res = await admin.put(`${base}/guest-reading`, { enabled: true, ip_ranges: ranges });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  /** Every guest call, as a list: each must answer alike (all open, or all the same 404). */
  const guestCalls = () => [
    guestBase,
    `${guestBase}/documents`,
    `${guestBase}/search?q=handwashing`,
    `${guestBase}/documents/${docs.published}`,
  ];

  beforeAll(async () => {
    s = await policyProject(db());
    base = `/api/projects/${s.project.id}/policy-management`;
    guestBase = `/api/guest/projects/${s.project.id}`;
    const [nursing] = await db()
      .insert(policyDepartments)
      .values({ projectId: s.project.id, name: 'Nursing', code: 'NUR' })
      .returning();
    const author = await ctx.signedIn(s.people.author);
    const create = async (title: string, number: string, content: string) => {
      const res = await author.post(`${base}/documents`, { title, number, department_id: nursing!.id, content });
      expect(res.statusCode, res.body).toBe(201);
      return (res.json() as { id: number }).id;
    };
    docs.published = await create('Hand hygiene', '1.1', '<p>Handwashing before every patient contact.</p>');
    docs.draft = await create('Restraint draft', '1.2', '<p>Handwashing in the secret draft.</p>');
    docs.archived = await create('Old falls', '1.3', '<p>Handwashing in a retired policy.</p>');
    docs.revised = await create('Isolation', '1.4', '<p>Isolation gowns and handwashing.</p>');
    for (const id of [docs.published, docs.archived, docs.revised]) await publishDraft(db(), id);
    await db()
      .update(policyDocuments)
      .set({ status: 'archived', archivedAt: new Date() })
      .where(eq(policyDocuments.id, docs.archived));
    // A new version of a published policy: its draft text is never a guest's.
    expect((await author.post(`${base}/documents/${docs.revised}/new-version`)).statusCode).toBe(200);
    const [published] = await db().select().from(policyDocuments).where(eq(policyDocuments.id, docs.published));
    publishedVersion = published!.currentVersionId!;
    await db()
      .insert(policyWorkflowEvents)
      .values({
        projectId: s.project.id,
        documentId: docs.published,
        versionId: publishedVersion,
        actorId: s.people.admin.id,
        action: 'published',
        createdAt: new Date('2026-01-10T12:00:00Z'),
      });
  });

  it('is off by default: every guest call is the same 404, the project’s existence unrevealed', async () => {
    const admin = await ctx.signedIn(s.people.admin, { ip: '10.1.9.9' });
    const setting = await admin.get(`${base}/guest-reading`);
    expect(setting.json()).toMatchObject({ enabled: false, ip_ranges: [], your_address: '10.1.9.9' });
    const answers = [];
    for (const url of [...guestCalls(), '/api/guest/projects/2147483000', '/api/guest/projects/9999999999']) {
      const res = await kiosk().get(url);
      answers.push([res.statusCode, res.json().message]);
    }
    expect(new Set(answers.map((a) => JSON.stringify(a)))).toEqual(
      new Set([JSON.stringify([404, 'Reading without an account is not available here.'])]),
    );
  });

  it('opens inside the ranges only; a project without policy management stays closed', async () => {
    const saved = await turnOn();
    expect(saved).toMatchObject({ enabled: true, ip_ranges: ['10.1.0.0/16'], you_are_inside: true });
    for (const url of guestCalls()) {
      expect((await kiosk().get(url)).statusCode, url).toBe(200);
      expect((await outside().get(url)).statusCode, url).toBe(404);
    }
    // A signed-in member outside the ranges is no guest either: the session is not used.
    const reader = await ctx.signedIn(s.people.reader, { ip: ELSEWHERE });
    expect((await reader.get(guestBase)).statusCode).toBe(404);
    expect((await kiosk().get(guestBase)).json()).toEqual({ project: { id: s.project.id, name: 'North Clinic' } });
    // Another project's guest calls do not open with this one's setting.
    expect((await kiosk().get(`/api/guest/projects/${s.other.id}`)).statusCode).toBe(404);
    await db().update(projects).set({ activeApps: [] }).where(eq(projects.id, s.project.id));
    expect((await kiosk().get(guestBase)).statusCode).toBe(404);
    await db()
      .update(projects)
      .set({ activeApps: ['policy_management'] })
      .where(eq(projects.id, s.project.id));
  });

  it('shows published policies only, never drafts, archived policies or the names of people', async () => {
    await turnOn();
    const guest = kiosk();
    const toc = await guest.get(`${guestBase}/documents`);
    expect(toc.json()).toEqual({
      documents: [
        { id: docs.published, number: '1.1', title: 'Hand hygiene', department: 'Nursing' },
        { id: docs.revised, number: '1.4', title: 'Isolation', department: 'Nursing' },
      ],
    });
    const search = await guest.get(`${guestBase}/search?q=handwashing`);
    expect(
      search
        .json()
        .results.map((r: { id: number }) => r.id)
        .sort(),
    ).toEqual([docs.published, docs.revised].sort());
    expect(search.json().results[0].snippet).toContain(SNIPPET_START);
    expect((await guest.get(`${guestBase}/search?q=secret`)).json().results).toEqual([]);
    const read = await guest.get(`${guestBase}/documents/${docs.published}`);
    expect(read.json()).toEqual({
      id: docs.published,
      number: '1.1',
      title: 'Hand hygiene',
      department: 'Nursing',
      version: 1,
      effective_on: '2026-01-15',
      approved_on: '2026-01-10',
      content: '<p>Handwashing before every patient contact.</p>',
    });
    // The revised policy reads as published, not as its new draft.
    expect((await guest.get(`${guestBase}/documents/${docs.revised}`)).json()).toMatchObject({ version: 1 });
    for (const id of [docs.draft, docs.archived, 2147483000]) {
      expect((await guest.get(`${guestBase}/documents/${id}`)).statusCode, String(id)).toBe(404);
    }
    const everything = [toc.body, search.body, read.body].join('\n');
    for (const name of ['Otto', 'Author', 'Ada', 'Admin', 'Rita', 'author', 'signer', 'reviewer', 'attest']) {
      expect(everything).not.toContain(name);
    }
  });

  it('logs every read and search with the address, and shows the log to the administrators', async () => {
    await turnOn();
    await db().delete(policyGuestReads).where(eq(policyGuestReads.projectId, s.project.id));
    const guest = ctx.agent({ ip: '10.1.7.7' });
    await guest.get(`${guestBase}/search?q=hygiene`);
    await guest.get(`${guestBase}/documents/${docs.published}`);
    await guest.get(`${guestBase}/documents`);
    await outside().get(`${guestBase}/documents/${docs.published}`);
    const rows = await db()
      .select()
      .from(policyGuestReads)
      .where(eq(policyGuestReads.projectId, s.project.id))
      .orderBy(policyGuestReads.id);
    expect(rows.map((r) => [r.kind, r.ip, r.query, r.documentId, r.versionId])).toEqual([
      ['search', '10.1.7.7', 'hygiene', null, null],
      ['read', '10.1.7.7', null, docs.published, publishedVersion],
    ]);
    const admin = await ctx.signedIn(s.people.admin);
    const log = await admin.get(`${base}/guest-reads?page=1`);
    expect(log.statusCode, log.body).toBe(200);
    expect(log.json()).toMatchObject({
      total: 2,
      reads: [
        { kind: 'read', ip: '10.1.7.7', document: { id: docs.published, number: '1.1', title: 'Hand hygiene' } },
        { kind: 'search', ip: '10.1.7.7', query: 'hygiene', document: null },
      ],
    });
  });

  it('validates the ranges, naming each bad entry', async () => {
    const admin = await ctx.signedIn(s.people.admin);
    const put = (body: unknown) => admin.put(`${base}/guest-reading`, body);
    const bad = await put({ enabled: true, ip_ranges: ['10.0.0.0/8', '10.0.0.300', 'kiosk'] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual({
      'ip_ranges.1': ['“10.0.0.300” is not an IP address or range such as 10.20.0.0/16.'],
      'ip_ranges.2': ['“kiosk” is not an IP address or range such as 10.20.0.0/16.'],
    });
    for (const everyone of ['0.0.0.0/0', '::/0']) {
      const res = await put({ enabled: true, ip_ranges: [everyone] });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toContain('whole internet');
    }
    const empty = await put({ enabled: true, ip_ranges: ['', ' '] });
    expect(empty.json().message).toBe('List at least one address range to turn guest reading on.');
    const many = await put({ enabled: false, ip_ranges: Array.from({ length: 51 }, (_, i) => `10.0.${i}.0/24`) });
    expect(many.json().message).toBe('At most 50 address ranges.');
    // Off with no range is fine; a single address and IPv6 are normalised, each kept once.
    expect((await put({ enabled: false, ip_ranges: [] })).statusCode).toBe(200);
    const saved = await put({ enabled: true, ip_ranges: [' 10.9.9.9 ', '10.9.9.9/32', '2001:DB8::/32'] });
    expect(saved.json()).toMatchObject({ ip_ranges: ['10.9.9.9/32', '2001:db8::/32'], you_are_inside: false });
  });

  it('belongs to the policy administrators of the project, and audits what changed', async () => {
    const reader = await ctx.signedIn(s.people.reader);
    const author = await ctx.signedIn(s.people.author);
    const outsider = await ctx.signedIn(s.people.outsider);
    for (const agent of [reader, author]) {
      expect((await agent.get(`${base}/guest-reading`)).statusCode).toBe(403);
      expect((await agent.put(`${base}/guest-reading`, { enabled: false, ip_ranges: [] })).statusCode).toBe(403);
      expect((await agent.get(`${base}/guest-reads`)).statusCode).toBe(403);
    }
    expect((await outsider.get(`${base}/guest-reading`)).statusCode).toBe(404);
    expect((await outsider.put(`${base}/guest-reading`, { enabled: false, ip_ranges: [] })).statusCode).toBe(404);
    expect((await (await ctx.anonymous()).get(`${base}/guest-reading`)).statusCode).toBe(401);

    const admin = await ctx.signedIn(s.people.admin);
    await admin.put(`${base}/guest-reading`, { enabled: false, ip_ranges: ['10.2.0.0/16'] });
    await admin.put(`${base}/guest-reading`, { enabled: true, ip_ranges: ['10.2.0.0/16', '10.3.0.0/16'] });
    const [event] = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.projectId, s.project.id), eq(auditEvents.action, 'policy.guest_reading_changed')))
      .orderBy(desc(auditEvents.id))
      .limit(1);
    expect(event?.actorUserId).toBe(s.people.admin.id);
    expect(event?.data).toMatchObject({
      changes: {
        enabled: { from: false, to: true },
        ip_ranges: { from: ['10.2.0.0/16'], to: ['10.2.0.0/16', '10.3.0.0/16'] },
      },
    });
  });

  it('slows down an address that reads without end', async () => {
    await turnOn();
    const windowMs = 600_000;
    const windowStart = new Date(Math.floor(ctx.clock.now().getTime() / windowMs) * windowMs);
    await db().execute(sql`insert into rate_limit_hits (key, window_start, count)
      values ('guest-read:10.1.8.8', ${windowStart.toISOString()}, 300)
      on conflict (key, window_start) do update set count = 300`);
    const res = await ctx.agent({ ip: '10.1.8.8' }).get(`${guestBase}/documents`);
    expect(res.statusCode).toBe(429);
    expect((await kiosk().get(`${guestBase}/documents`)).statusCode).toBe(200);
  });
});
