import zlib from 'node:zlib';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app.js';
import { policyProject } from '../../test/policy-kit.js';
import { statementsOf } from '../../test/statements.js';
import { projectMemberRoles } from '../db/schema/index.js';
// The app's keptAnswers, as it declares them.
import './kept-answers.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it holds, for at most `ms`: how long a change made elsewhere takes to hold here. */
async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started > ms) throw new Error(`still not so after ${ms} ms`);
    await sleep(10);
  }
}

/** Tables no kept answer reads, which reads and sign-ins write: they tell nobody (migration 0031). */
const LEFT_OUT = [
  'audit_events',
  'captcha_solutions',
  'cr_access_log',
  'email_log',
  'login_attempts',
  'password_reset_tokens',
  'pg_llm_calls',
  'rate_limit_hits',
  'saml_message_ids',
];

/**
 * Whole answers of the hottest reads, kept between reads (decision record 032), on the policy table of contents.
 * Changes below are made in the database directly, as another instance or a script makes them, or through this
 * instance; both hold within a second.
 */
describe('the answers kept between reads', () => {
  const ctx = useTestApp({ env: { ANSWER_CACHE_SECONDS: '60' } });
  const db = () => ctx.db.handle.db;
  const pool = () => ctx.db.handle.pool;

  /** A project of 80 drafts (an answer of about 16 KB, compressed when the client accepts it), read by its admin. */
  async function setup() {
    const s = await policyProject(db());
    await pool().query(
      `insert into policy_documents (project_id, number, title, status, search_text)
       select $1, '9.' || g, 'Policy ' || g, 'draft', '' from generate_series(1, 80) g`,
      [s.project.id],
    );
    const admin = await ctx.signedIn(s.people.admin);
    const toc = `/api/projects/${s.project.id}/policy-management/documents`;
    const titles = async (agent = admin) => {
      const res = await agent.get(toc);
      expect(res.statusCode).toBe(200);
      return (res.json() as { title: string }[]).map((row) => row.title);
    };
    return { ...s, admin, toc, titles };
  }

  /**
   * Reads until the answer comes kept, with no statement but the session's: the notices of the setup's own writes
   * may still be on their way, and each makes the instance forget.
   */
  async function keptRead<T>(read: () => Promise<T>): Promise<T> {
    let answer: T | undefined;
    await within(2000, async () => {
      const texts = await statementsOf(pool(), async () => {
        answer = await read();
      });
      return texts.filter((text) => !/from "sessions"/.test(text)).length === 0;
    });
    return answer as T;
  }

  it('answers a second read of the same address with no statement but the session, byte for byte', async () => {
    const { admin, toc } = await setup();
    const first = await admin.get(toc);
    expect(first.statusCode).toBe(200);
    const kept = await keptRead(() => admin.get(toc));
    expect(kept.statusCode).toBe(200);
    expect(kept.body).toBe(first.body);
    expect(kept.headers['content-type']).toBe(first.headers['content-type']);
    expect(kept.headers['cache-control']).toBe('no-store');
  });

  it('reads once for many readers of the same address at the same time', async () => {
    const { admin, toc } = await setup();
    const first = await keptRead(() => admin.get(toc));
    ctx.app.keptAnswers.clear();
    const answers: Awaited<ReturnType<typeof admin.get>>[] = [];
    const texts = await statementsOf(pool(), async () => {
      answers.push(...(await Promise.all(Array.from({ length: 10 }, () => admin.get(toc)))));
    });
    expect(answers.map((answer) => answer.body)).toEqual(Array(10).fill(first.body));
    expect(texts.filter((text) => /from "policy_documents"/.test(text))).toHaveLength(1);
  });

  it('sends a kept answer in the coding each client accepts', async () => {
    const { admin, toc } = await setup();
    const plain = await admin.get(toc, { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/Accept-Encoding/);
    for (const [coding, decode] of [
      ['br', zlib.brotliDecompressSync],
      ['gzip', zlib.gunzipSync],
    ] as const) {
      // The first asks for a form not made yet, the second gets the form kept.
      for (let i = 0; i < 2; i++) {
        const res = await admin.get(toc, { 'accept-encoding': coding });
        expect(res.headers['content-encoding']).toBe(coding);
        expect(res.headers.vary).toMatch(/Accept-Encoding/);
        expect(decode(res.rawPayload).toString()).toBe(plain.body);
      }
    }
  });

  it('holds a change made in the database elsewhere within a second', async () => {
    const { project, titles } = await setup();
    await titles();
    expect(await titles()).toContain('Policy 7');
    await pool().query(
      `update policy_documents set title = 'Renamed elsewhere' where project_id = $1 and number = '9.7'`,
      [project.id],
    );
    expect(await within(1000, async () => (await titles()).includes('Renamed elsewhere'))).toBeLessThan(1000);
  });

  it('holds a change made through this instance at its very next read', async () => {
    const { admin, project, titles } = await setup();
    const doc = (
      await admin.post(`/api/projects/${project.id}/policy-management/documents`, {
        title: 'Hand hygiene',
        content: '<p>Wash hands.</p>',
      })
    ).json() as { id: number };
    expect(await titles()).toContain('Hand hygiene');
    const renamed = await admin.patch(`/api/projects/${project.id}/policy-management/documents/${doc.id}`, {
      title: 'Hand washing',
    });
    expect(renamed.statusCode).toBe(200);
    expect(await titles()).toContain('Hand washing');
  });

  it("keeps each session's own answer, and refuses one whose role was taken away elsewhere", async () => {
    const { toc, people, project, titles } = await setup();
    const reader = await ctx.signedIn(people.reader);
    expect(await titles()).toHaveLength(80);
    // The reader sees no drafts: the admin's kept answer is not theirs.
    expect(await titles(reader)).toEqual([]);
    expect(await titles(reader)).toEqual([]);
    await db()
      .delete(projectMemberRoles)
      .where(and(eq(projectMemberRoles.projectId, project.id), eq(projectMemberRoles.userId, people.reader.id)));
    expect(await within(1000, async () => (await reader.get(toc)).statusCode === 403)).toBeLessThan(1000);
  });

  it("reads again at the clock's next quarter hour: an answer may say what is due today", async () => {
    const { project, titles } = await setup();
    // A minute into a quarter hour, so that the reads below fall in the same one.
    const quarter = 15 * 60_000;
    ctx.clock.advance(quarter - (ctx.clock.now().getTime() % quarter) + 60_000);
    await keptRead(titles);
    // A change nobody is told of (triggers off for this transaction): only the clock can make it show.
    const client = await pool().connect();
    try {
      await client.query('begin');
      await client.query('set local session_replication_role = replica');
      await client.query(`update policy_documents set title = 'Told nobody' where project_id = $1 and number = '9.3'`, [
        project.id,
      ]);
      await client.query('commit');
    } finally {
      client.release();
    }
    await sleep(100);
    expect(await titles()).not.toContain('Told nobody');
    ctx.clock.advance(quarter);
    expect(await titles()).toContain('Told nobody');
  });

  it('is told of a change of every table a kept answer may read', async () => {
    const { rows } = await pool().query<{ table: string }>(
      `select c.relname as table from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'p') and not exists (
          select 1 from pg_trigger t join pg_proc p on p.oid = t.tgfoid
           where t.tgrelid = c.oid and p.proname in ('portal_data_changed', 'portal_access_changed'))
        order by 1`,
    );
    // sessions tells of its changes but not of a touch (migration 0030).
    expect(rows.map((row) => row.table)).toEqual(LEFT_OUT);
  });
});
