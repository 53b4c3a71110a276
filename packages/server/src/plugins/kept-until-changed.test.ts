import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app.js';
import { addMember, createProject, createUser } from '../../test/factories.js';
import { statementsOf } from '../../test/statements.js';
import { projectMemberships, sessions, users } from '../db/schema/index.js';
import { ACCESS_CHANNEL, DATA_CHANNEL, deepFreeze, KeptUntilChanged } from './kept-until-changed.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `read` until it answers `status`, for at most `ms`: how long a change made elsewhere takes to hold here. */
async function within(ms: number, read: () => Promise<number>, status: number): Promise<number> {
  const started = Date.now();
  for (;;) {
    if ((await read()) === status) return Date.now() - started;
    if (Date.now() - started > ms) throw new Error(`still not ${status} after ${ms} ms`);
    await sleep(10);
  }
}

/**
 * What the session statement read, kept between reads (decision record 029). Changes below are made in the
 * database directly, as another instance or a script makes them: they hold within a second (in practice at the
 * next read after PostgreSQL's notice); changes made through this instance hold at its very next read.
 */
describe('the access kept between reads', () => {
  const ctx = useTestApp({ env: { ACCESS_CACHE_SECONDS: '10' } });
  const db = () => ctx.db.handle.db;
  const sessionReads = (texts: string[]) => texts.filter((text) => /from "sessions"/.test(text)).length;

  async function member() {
    const project = await createProject(db());
    const user = await createUser(db());
    await addMember(db(), project.id, user.id, 'simple');
    const agent = await ctx.signedIn(user);
    const read = async () => (await agent.get(`/api/projects/${project.id}/notifications/`)).statusCode;
    return { project, user, agent, read };
  }

  /**
   * Reads until a read comes with its data statement alone: the notices of the setup's own writes may still be on
   * their way, and each makes the instance forget.
   */
  async function readAlone(read: () => Promise<number>): Promise<string[]> {
    let texts: string[] = [];
    const alone = async () => {
      texts = await statementsOf(ctx.db.handle.pool, async () => expect(await read()).toBe(200));
      return texts.length === 1 ? 1 : 0;
    };
    await within(2000, alone, 1);
    return texts;
  }

  it('answers a second read with its data statement only', async () => {
    const { read } = await member();
    expect(await read()).toBe(200);
    const texts = await readAlone(read);
    expect(sessionReads(texts)).toBe(0);
  });

  it('refuses within a second a membership, a user or a session ended elsewhere', async () => {
    const a = await member();
    expect(await a.read()).toBe(200);
    await db().delete(projectMemberships).where(eq(projectMemberships.userId, a.user.id));
    expect(await within(1000, a.read, 404)).toBeLessThan(1000);

    const b = await member();
    expect(await b.read()).toBe(200);
    await db().update(users).set({ status: 'disabled' }).where(eq(users.id, b.user.id));
    expect(await within(1000, b.read, 401)).toBeLessThan(1000);

    const c = await member();
    expect(await c.read()).toBe(200);
    await db().delete(sessions).where(eq(sessions.userId, c.user.id));
    expect(await within(1000, c.read, 401)).toBeLessThan(1000);
  });

  it('holds a change made through this instance at its very next read', async () => {
    const a = await member();
    const admin = await ctx.signedIn(await createUser(db(), { role: 'superadmin' }));
    expect(await a.read()).toBe(200);
    const removed = await admin.delete(`/super/projects/${a.project.id}/members/${a.user.id}`);
    expect(removed.statusCode).toBe(204);
    expect(await a.read()).toBe(404);

    const b = await member();
    expect(await b.read()).toBe(200);
    expect((await b.agent.post('/logout')).statusCode).toBe(204);
    expect(await b.read()).toBe(401);
  });

  it('ends a kept session that went idle, and touches a kept one still in use', async () => {
    const { user, read } = await member();
    expect(await read()).toBe(200);
    const lastSeen = async () =>
      (await db().select({ at: sessions.lastSeenAt }).from(sessions).where(eq(sessions.userId, user.id)))[0]?.at;
    const before = await lastSeen();
    // Past the once-a-minute touch, still in use: the kept row is read again and the session touched.
    ctx.clock.advance(2 * 60_000);
    expect(await read()).toBe(200);
    expect((await lastSeen())!.getTime()).toBeGreaterThan(before!.getTime());
    // Idle past SESSION_IDLE_MINUTES (30): refused and removed, though the row was kept.
    expect(await read()).toBe(200);
    ctx.clock.advance(31 * 60_000);
    expect(await read()).toBe(401);
    expect(await lastSeen()).toBeUndefined();
  });

  it('keeps nothing while its listener is disconnected, and listens again', async () => {
    const { read } = await member();
    expect(await read()).toBe(200);
    expect(ctx.app.accessCache.enabled).toBe(true);
    await ctx.db.handle.pool.query(
      `select pg_terminate_backend(pid) from pg_stat_activity where query = 'listen ${ACCESS_CHANNEL}' and datname = current_database()`,
    );
    await within(1000, async () => (ctx.app.accessCache.enabled ? 1 : 0), 0);
    for (let i = 0; i < 2; i++) {
      const texts = await statementsOf(ctx.db.handle.pool, async () => expect(await read()).toBe(200));
      expect(sessionReads(texts)).toBe(1);
    }
    await within(5000, async () => (ctx.app.accessCache.enabled ? 1 : 0), 1);
    expect(await read()).toBe(200);
    expect(sessionReads(await readAlone(read))).toBe(0);
  });

  it("is told of a session's change, but not of the touch of last_seen_at", async () => {
    const { user } = await member();
    const listener = new pg.Client({ connectionString: ctx.db.url });
    await listener.connect();
    const heard: string[] = [];
    listener.on('notification', (message) => heard.push(message.channel));
    await listener.query(`listen ${ACCESS_CHANNEL}`);
    try {
      await db().update(sessions).set({ lastSeenAt: sql`now()` }).where(eq(sessions.userId, user.id));
      await listener.query('select 1');
      expect(heard).toEqual([]);
      await db()
        .update(sessions)
        .set({ data: { passwordConfirmedAt: new Date().toISOString() } })
        .where(eq(sessions.userId, user.id));
      await within(1000, async () => heard.length, 1);
    } finally {
      await listener.end();
    }
  });
});

describe('KeptUntilChanged', () => {
  const ctx = useTestApp();
  let cache: KeptUntilChanged<{ n: number; inner: { list: number[] } }> | undefined;
  afterEach(() => cache?.stop());
  const started = async (ttlMs: number, max = 10) => {
    cache = new KeptUntilChanged({ pool: ctx.db.handle.pool, log: { warn: () => {} }, ttlMs, max });
    await cache.start();
    return cache;
  };

  it('forgets after its time, keeps at most its size and stores nothing read before a clear', async () => {
    const c = await started(200, 2);
    c.set('a', deepFreeze({ n: 1, inner: { list: [1] } }), c.generation);
    expect(c.get('a')?.n).toBe(1);
    // Shared between requests: frozen to the bottom.
    expect(() => c.get('a')!.inner.list.push(2)).toThrow(TypeError);

    c.set('b', { n: 2, inner: { list: [] } }, c.generation);
    c.set('c', { n: 3, inner: { list: [] } }, c.generation);
    expect(c.get('a')).toBeUndefined();
    expect(c.get('c')?.n).toBe(3);

    const before = c.generation;
    c.clear();
    c.set('d', { n: 4, inner: { list: [] } }, before);
    expect(c.get('d')).toBeUndefined();
    expect(c.get('c')).toBeUndefined();

    c.set('e', { n: 5, inner: { list: [] } }, c.generation);
    await sleep(250);
    expect(c.get('e')).toBeUndefined();
  });

  it('keeps at most its weight, the oldest going first, and nothing heavier than all of it', async () => {
    const c = new KeptUntilChanged<{ n: number; inner: { list: number[] } }>({
      pool: ctx.db.handle.pool,
      log: { warn: () => {} },
      ttlMs: 10_000,
      max: 100,
      maxWeight: 10,
      weigh: (value) => value.n,
    });
    cache = c;
    await c.start();
    c.set('four', { n: 4, inner: { list: [] } }, c.generation);
    c.set('five', { n: 5, inner: { list: [] } }, c.generation);
    expect([c.get('four')?.n, c.get('five')?.n]).toEqual([4, 5]);
    c.set('three', { n: 3, inner: { list: [] } }, c.generation);
    expect([c.get('four'), c.get('five')?.n, c.get('three')?.n]).toEqual([undefined, 5, 3]);
    c.set('eleven', { n: 11, inner: { list: [] } }, c.generation);
    expect([c.get('eleven'), c.get('five')?.n]).toEqual([undefined, 5]);
    // Kept again under the same key: weighed once.
    c.set('five', { n: 5, inner: { list: [] } }, c.generation);
    c.set('two', { n: 2, inner: { list: [] } }, c.generation);
    expect([c.get('three')?.n, c.get('five')?.n, c.get('two')?.n]).toEqual([3, 5, 2]);
  });

  it('forgets on a notice of any of its channels', async () => {
    const c = new KeptUntilChanged<{ n: number }>({
      pool: ctx.db.handle.pool,
      log: { warn: () => {} },
      ttlMs: 10_000,
      max: 10,
      channels: [ACCESS_CHANNEL, DATA_CHANNEL],
    });
    cache = c as never;
    await c.start();
    for (const channel of [ACCESS_CHANNEL, DATA_CHANNEL]) {
      c.set('a', { n: 1 }, c.generation);
      expect(c.get('a')?.n).toBe(1);
      await ctx.db.handle.pool.query('select pg_notify($1, $2)', [channel, '']);
      await within(1000, async () => (c.get('a') ? 1 : 0), 0);
    }
  });

  it('keeps nothing with no time to keep it', async () => {
    const c = await started(0);
    c.set('a', { n: 1, inner: { list: [] } }, c.generation);
    expect(c.enabled).toBe(false);
    expect(c.get('a')).toBeUndefined();
  });
});
