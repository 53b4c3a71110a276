import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { MESSAGES } from '@portal/shared';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TEST_APP_KEY } from '../../test/app.js';
import { useTestDatabase } from '../../test/database.js';
import { createUser, TEST_PASSWORD } from '../../test/factories.js';
import { createMailbox } from '../../test/mailbox.js';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { connectDatabase, type DatabaseHandle } from '../db/client.js';
import { sessions } from '../db/schema/index.js';
import { minutes, testClock } from '../lib/clock.js';
import { sha256 } from '../lib/crypto.js';
import { currentCode } from '../lib/totp.js';

/**
 * The authentication attack suite (issue: "lockout and throttling hold across two server instances on one database;
 * the time to answer an unknown account is within 10% (median) of a known one; TOTP and recovery codes replay-proof;
 * reset tokens single-use; sessions end at once when a user is disabled").
 *
 * Two apps are built on the SAME database, each with its own connection pool, as two processes behind a load
 * balancer would be. Nothing may hold in one process's memory only: every property is checked with requests that
 * alternate between instance A and instance B.
 */

const STEP = 30_000;
const WRONG_PASSWORD = 'Not-the-password-9!';
const NEW_PASSWORD = 'Wj4$nBc8!tRy6#Pq';
const SESSION_COOKIE = 'portal_session';
const TOO_MANY = /^Too many login attempts\. Please try again in \d+ minutes?\.$/;

interface Instances {
  a: FastifyInstance;
  b: FastifyInstance;
  /** Shared by both instances: the machines of one deployment read one wall clock. */
  clock: ReturnType<typeof testClock>;
  mailbox: ReturnType<typeof createMailbox>;
  db: ReturnType<typeof useTestDatabase>;
}

/** Two app instances on this file's one database, each with its own pool. */
function useTwoInstances(): Instances {
  const db = useTestDatabase();
  const clock = testClock();
  const state = { db, clock, mailbox: createMailbox(() => db.handle.db, clock, TEST_APP_KEY) } as Instances;
  const pools: DatabaseHandle[] = [];
  beforeAll(async () => {
    const config = loadConfig({
      DATABASE_URL: db.url,
      DATA_DIR: path.join(os.tmpdir(), 'portal-test-data'),
      LOG_LEVEL: 'silent',
      CAPTCHA_PROVIDER: 'off',
      CAPTCHA_COST: '50',
    });
    const build = async () => {
      const database = connectDatabase(db.url, { max: 4 });
      pools.push(database);
      const app = await buildApp({
        config,
        database,
        appKey: TEST_APP_KEY,
        clock: state.clock,
        mailer: state.mailbox,
      });
      await app.ready();
      return app;
    };
    state.a = await build();
    state.b = await build();
  });
  afterAll(async () => {
    await state.a?.close();
    await state.b?.close();
    await Promise.all(pools.map((p) => p.close()));
  });
  return state;
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * One browser (one cookie jar, one address) that can send each request to either instance, as a load balancer
 * without sticky sessions would. Sends X-XSRF-TOKEN from the XSRF-TOKEN cookie, as the web's API client does.
 */
function browser(ip: string) {
  const jar = new Map<string, string>();

  async function send(
    app: FastifyInstance,
    method: string,
    url: string,
    payload?: unknown,
    extraHeaders: Record<string, string> = {},
    options: { xsrf?: boolean } = {},
  ): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = { ...extraHeaders };
    if (jar.size) headers.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const xsrf = jar.get('XSRF-TOKEN');
    if (options.xsrf !== false && STATE_CHANGING.has(method) && xsrf && !('x-xsrf-token' in headers)) {
      headers['x-xsrf-token'] = decodeURIComponent(xsrf);
    }
    const res = await app.inject({
      method,
      url,
      headers,
      remoteAddress: ip,
      ...(payload === undefined ? {} : { payload: payload as object }),
    } as InjectOptions);
    for (const cookie of res.cookies as { name: string; value: string; expires?: Date; maxAge?: number }[]) {
      const cleared =
        cookie.value === '' || cookie.maxAge === 0 || (cookie.expires && cookie.expires.getTime() <= Date.now());
      if (cleared) jar.delete(cookie.name);
      else jar.set(cookie.name, cookie.value);
    }
    return res;
  }

  const on = (app: FastifyInstance) => ({
    get: (url: string) => send(app, 'GET', url),
    post: (url: string, payload?: unknown, headers?: Record<string, string>) =>
      send(app, 'POST', url, payload, headers),
    /** A POST that does not echo the XSRF token (what a cross-site form can do). */
    postWithoutXsrf: (url: string, payload?: unknown) => send(app, 'POST', url, payload, {}, { xsrf: false }),
    csrf: () => send(app, 'GET', '/sanctum/csrf-cookie'),
    async login(login: string, password: string, extra: Record<string, unknown> = {}) {
      if (!jar.has('XSRF-TOKEN')) await send(app, 'GET', '/sanctum/csrf-cookie');
      return send(app, 'POST', '/login', { email: login, password, ...extra });
    },
  });
  return { ip, jar, on };
}

let nextAddress = 1;
/** A fresh client address for each browser, so tests do not share a throttle by accident. */
const freshIp = () => {
  const n = nextAddress++;
  return `10.77.${Math.floor(n / 250)}.${(n % 250) + 1}`;
};

const retryAfter = (res: LightMyRequestResponse) => Number(res.headers['retry-after']);

function expectThrottled(res: LightMyRequestResponse) {
  expect(res.statusCode).toBe(429);
  expect(res.json().message).toMatch(TOO_MANY);
  expect(retryAfter(res)).toBeGreaterThan(0);
  expect(res.cookies.find((c) => c.name === SESSION_COOKIE && c.value)).toBeUndefined();
}

function expectWrongPassword(res: LightMyRequestResponse) {
  expect(res.statusCode).toBe(422);
  expect(res.json().message).toBe(MESSAGES.invalidCredentials);
}

const median = (values: number[]) => {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

describe('authentication attacks across two instances on one database', () => {
  const ctx = useTwoInstances();
  const db = () => ctx.db.handle.db;
  const instances = () => [ctx.a, ctx.b] as const;
  /** Instance A for even i, B for odd i. */
  const alternate = (i: number) => (i % 2 === 0 ? ctx.a : ctx.b);

  describe('throttling and lockout', () => {
    it('throttles one account from one address after 5 failures, whichever instance answers', async () => {
      const user = await createUser(db());
      const attacker = browser(freshIp());
      // Email on one instance, upper-cased username on the other: both name the same account.
      const names = [user.email, user.username.toUpperCase()];
      for (let i = 0; i < 5; i++) {
        expectWrongPassword(await attacker.on(alternate(i)).login(names[i % 2]!, WRONG_PASSWORD));
      }
      for (const app of instances()) {
        expectThrottled(await attacker.on(app).login(user.email, WRONG_PASSWORD));
        // The right password is not even checked while throttled.
        const right = await attacker.on(app).login(user.username, TEST_PASSWORD);
        expectThrottled(right);
        expect(retryAfter(right)).toBeLessThanOrEqual(15 * 60);
        expect(retryAfter(right)).toBeGreaterThan(14 * 60);
      }
      // The throttle is per account and address: the owner elsewhere still signs in.
      expect((await browser(freshIp()).on(ctx.b).login(user.email, TEST_PASSWORD)).statusCode).toBe(200);
      // ...and the window ends 15 minutes after the failures.
      ctx.clock.advance(minutes(15) + 1000);
      expect((await attacker.on(ctx.a).login(user.email, TEST_PASSWORD)).statusCode).toBe(200);
    });

    it('counts simultaneous guesses spread over both instances before verifying any of them', async () => {
      const user = await createUser(db());
      const guess = (client: ReturnType<typeof browser>, i: number) =>
        client.on(alternate(i)).post('/login', { email: user.email, password: `${WRONG_PASSWORD}${i}` });
      // Twelve guesses at once from one address, half to each instance: five are checked, the rest throttled.
      const sameAddress = freshIp();
      const burst = Array.from({ length: 12 }, () => browser(sameAddress));
      for (const [i, client] of burst.entries()) await client.on(alternate(i)).csrf();
      const first = await Promise.all(burst.map(guess));
      expect(first.filter((r) => r.statusCode === 422)).toHaveLength(5);
      for (const res of first.filter((r) => r.statusCode !== 422)) expectThrottled(res);
      // Twelve at once from twelve addresses: five more are checked (ten in a row), the rest meet the lock.
      const spread = Array.from({ length: 12 }, () => browser(freshIp()));
      for (const [i, client] of spread.entries()) await client.on(alternate(i)).csrf();
      const second = await Promise.all(spread.map(guess));
      expect(second.filter((r) => r.statusCode === 422)).toHaveLength(5);
      for (const res of second.filter((r) => r.statusCode !== 422)) expectThrottled(res);
      for (const app of instances()) expectThrottled(await browser(freshIp()).on(app).login(user.email, TEST_PASSWORD));
    });

    it('locks the account after 10 consecutive failures from any addresses, on both instances', async () => {
      const user = await createUser(db());
      // Two addresses, five failures each (under the per-address throttle), alternating instances.
      for (let i = 0; i < 10; i++) {
        const attacker = browser(i < 5 ? '10.78.0.1' : '10.78.0.2');
        const res = await attacker.on(alternate(i)).login(i % 2 ? user.username : user.email, WRONG_PASSWORD);
        expectWrongPassword(res);
      }
      // Locked: the right password from a third, clean address is refused by both instances.
      for (const app of instances()) {
        const owner = browser(freshIp());
        const res = await owner.on(app).login(user.email, TEST_PASSWORD);
        expectThrottled(res);
        expect(retryAfter(res)).toBeGreaterThan(14 * 60);
        expect((await owner.on(app).get('/api/user')).statusCode).toBe(401);
      }
      // Still locked a minute before the end; open again after 15 minutes.
      ctx.clock.advance(minutes(14));
      expectThrottled(await browser(freshIp()).on(ctx.b).login(user.email, TEST_PASSWORD));
      ctx.clock.advance(minutes(1) + 1000);
      const back = browser(freshIp());
      expect((await back.on(ctx.b).login(user.email, TEST_PASSWORD)).statusCode).toBe(200);
      expect((await back.on(ctx.a).get('/api/user')).json().id).toBe(user.id);
    });

    it('throttles and locks an unknown account name exactly like a real one', async () => {
      const ghost = `ghost-${randomBytes(4).toString('hex')}@example.test`;
      const attacker = browser(freshIp());
      // The typed name is the key, whatever its case and surrounding spaces.
      const spellings = [ghost, ` ${ghost.toUpperCase()} `];
      for (let i = 0; i < 5; i++) {
        expectWrongPassword(await attacker.on(alternate(i)).login(spellings[i % 2]!, WRONG_PASSWORD));
      }
      for (const app of instances()) expectThrottled(await attacker.on(app).login(ghost, WRONG_PASSWORD));
      const second = browser(freshIp());
      for (let i = 0; i < 5; i++) {
        expectWrongPassword(await second.on(alternate(i + 1)).login(ghost, WRONG_PASSWORD));
      }
      for (const app of instances()) {
        const res = await browser(freshIp()).on(app).login(ghost, TEST_PASSWORD);
        expectThrottled(res);
        expect(retryAfter(res)).toBeGreaterThan(14 * 60);
      }
    });

    it('answers known and unknown accounts with the same status, message and headers', async () => {
      const user = await createUser(db());
      const ghost = `ghost-${randomBytes(4).toString('hex')}`;
      const known = browser(freshIp());
      const unknown = browser(freshIp());
      for (let i = 0; i < 6; i++) {
        const k = await known.on(alternate(i)).login(user.username, WRONG_PASSWORD);
        const u = await unknown.on(alternate(i)).login(ghost, WRONG_PASSWORD);
        expect(u.statusCode).toBe(k.statusCode);
        expect(u.json()).toEqual(k.json());
        expect(Object.keys(u.headers).sort()).toEqual(Object.keys(k.headers).sort());
      }
    });
  });

  it('takes as long to refuse an unknown account as a known one (median within 10%)', async () => {
    const user = await createUser(db());
    const WARMUP = 3;
    const SAMPLES = 31;
    // The machines that run this suite are shared: a round spoiled by a burst of load elsewhere is measured again,
    // up to three rounds. An account check that skips the hash (several times faster) fails every round.
    const ROUNDS = 3;
    const sample = async (kind: 'known' | 'unknown', app: FastifyInstance) => {
      // A fresh address and browser each time, and the clock past the lockout, so no answer is a fast 429.
      ctx.clock.advance(minutes(16));
      const client = browser(freshIp());
      await client.on(app).csrf();
      const login = kind === 'known' ? user.email : `nobody-${randomBytes(5).toString('hex')}@example.test`;
      const started = performance.now();
      const res = await client.on(app).post('/login', { email: login, password: WRONG_PASSWORD });
      const elapsed = performance.now() - started;
      expectWrongPassword(res);
      return elapsed;
    };
    const measure = async () => {
      const timings = { known: [] as number[], unknown: [] as number[] };
      for (let i = -WARMUP; i < SAMPLES; i++) {
        const app = alternate(i + WARMUP);
        // Interleaved, and each kind goes first every other time.
        const order = i % 2 === 0 ? (['known', 'unknown'] as const) : (['unknown', 'known'] as const);
        for (const kind of order) {
          const elapsed = await sample(kind, app);
          if (i >= 0) timings[kind].push(elapsed);
        }
      }
      const known = median(timings.known);
      const unknown = median(timings.unknown);
      return { known, unknown, gap: Math.abs(unknown - known) / known };
    };
    let result = await measure();
    for (let round = 1; ; round++) {
      console.log(
        `login timing (round ${round}, ${SAMPLES} samples each): median known account (wrong password) ` +
          `${result.known.toFixed(1)} ms, median unknown account ${result.unknown.toFixed(1)} ms, ` +
          `gap ${(result.gap * 100).toFixed(1)}%`,
      );
      if (result.gap <= 0.1 || round === ROUNDS) break;
      result = await measure();
    }
    // A real argon2 verification (19 MiB) happened on both paths.
    expect(result.known).toBeGreaterThan(5);
    expect(result.unknown).toBeGreaterThan(5);
    expect(result.gap).toBeLessThanOrEqual(0.1);
  }, 180_000);

  describe('sessions', () => {
    it('a session made on A is valid on B, and a logout on A ends it on B', async () => {
      const user = await createUser(db());
      const client = browser(freshIp());
      expect((await client.on(ctx.a).login(user.email, TEST_PASSWORD)).statusCode).toBe(200);
      expect((await client.on(ctx.b).get('/api/user')).json().id).toBe(user.id);
      const stolen = new Map(client.jar);
      expect((await client.on(ctx.a).post('/logout')).statusCode).toBe(204);
      expect((await client.on(ctx.b).get('/api/user')).statusCode).toBe(401);
      // A copy of the cookie from before the logout is dead on both instances: on A at once, on B as soon as
      // PostgreSQL's notice of the deleted session reaches it (decision record 029), well within a second.
      const replay = browser(client.ip);
      for (const [k, v] of stolen) replay.jar.set(k, v);
      expect((await replay.on(ctx.a).get('/api/user')).statusCode).toBe(401);
      await vi.waitFor(async () => expect((await replay.on(ctx.b).get('/api/user')).statusCode).toBe(401), {
        timeout: 1000,
        interval: 20,
      });
      for (const app of instances()) {
        expect((await replay.on(app).get('/api/auth/check')).json()).toEqual({ authenticated: false, user: null });
      }
      const [row] = await db()
        .select()
        .from(sessions)
        .where(eq(sessions.idHash, sha256(stolen.get(SESSION_COOKIE)!)));
      expect(row).toBeUndefined();
    });

    it('gives a new session id at login (no fixation), even when another instance answers', async () => {
      const user = await createUser(db());
      const client = browser(freshIp());
      // csrf-cookie stores no session for a visitor; an anonymous session is stored only by a step that keeps state
      // (a pending two-factor step, a single sign-on start): plant one such as the attacker's own step left.
      const planted = randomBytes(32).toString('base64url');
      const plantedXsrf = randomBytes(32).toString('base64url');
      const now = ctx.clock.now();
      await db()
        .insert(sessions)
        .values({
          idHash: sha256(planted),
          userId: null,
          csrfTokenHash: sha256(plantedXsrf),
          createdAt: now,
          lastSeenAt: now,
          expiresAt: new Date(now.getTime() + minutes(120)),
        });
      client.jar.set(SESSION_COOKIE, planted);
      client.jar.set('XSRF-TOKEN', plantedXsrf);
      expect((await client.on(ctx.b).login(user.email, TEST_PASSWORD)).statusCode).toBe(200);
      const issued = client.jar.get(SESSION_COOKIE);
      expect(issued).toBeDefined();
      expect(issued).not.toBe(planted);
      expect(client.jar.get('XSRF-TOKEN')).not.toBe(plantedXsrf);
      expect((await client.on(ctx.a).get('/api/user')).json().id).toBe(user.id);
      // The id an attacker planted before the login carries no rights, on either instance.
      for (const app of instances()) {
        const attacker = browser(freshIp());
        attacker.jar.set(SESSION_COOKIE, planted);
        attacker.jar.set('XSRF-TOKEN', plantedXsrf);
        expect((await attacker.on(app).get('/api/user')).statusCode).toBe(401);
      }
      expect(
        await db()
          .select()
          .from(sessions)
          .where(eq(sessions.idHash, sha256(planted))),
      ).toHaveLength(0);
    });

    it('refuses /login without the XSRF header (419), and signs nobody in', async () => {
      const user = await createUser(db());
      for (const app of instances()) {
        // No session at all.
        const bare = browser(freshIp());
        const none = await bare.on(app).post('/login', { email: user.email, password: TEST_PASSWORD });
        expect(none.statusCode).toBe(419);
        expect(none.json().message).toBe(MESSAGES.csrfMismatch);
        // A token cookie, but no header (a cross-site form post).
        const client = browser(freshIp());
        await client.on(app).csrf();
        const missing = await client.on(app).postWithoutXsrf('/login', { email: user.email, password: TEST_PASSWORD });
        expect(missing.statusCode).toBe(419);
        expect(missing.json().message).toBe(MESSAGES.csrfMismatch);
        // A wrong header.
        const wrong = await client
          .on(app)
          .post('/login', { email: user.email, password: TEST_PASSWORD }, { 'x-xsrf-token': 'forged' });
        expect(wrong.statusCode).toBe(419);
        for (const res of [none, missing, wrong]) {
          expect(res.cookies.find((c) => c.name === SESSION_COOKIE && c.value)).toBeUndefined();
        }
        expect((await client.on(app).get('/api/user')).statusCode).toBe(401);
        // The token of another browser does not fit this one.
        const other = browser(freshIp());
        await other.on(app).csrf();
        const foreign = await client
          .on(app)
          .post(
            '/login',
            { email: user.email, password: TEST_PASSWORD },
            { 'x-xsrf-token': decodeURIComponent(other.jar.get('XSRF-TOKEN')!) },
          );
        expect(foreign.statusCode).toBe(419);
      }
      // None of these counted as a failed attempt or signed in: the real login still works at once.
      expect((await browser(freshIp()).on(ctx.a).login(user.email, TEST_PASSWORD)).statusCode).toBe(200);
    });

    it('signs a user out at once on every instance when a superadmin disables the account', async () => {
      const superadmin = await createUser(db(), { role: 'superadmin' });
      const user = await createUser(db());
      const admin = browser(freshIp());
      expect((await admin.on(ctx.a).login(superadmin.email, TEST_PASSWORD)).statusCode).toBe(200);
      const onA = browser(freshIp());
      const onB = browser(freshIp());
      expect((await onA.on(ctx.a).login(user.email, TEST_PASSWORD)).statusCode).toBe(200);
      expect((await onB.on(ctx.b).login(user.email, TEST_PASSWORD)).statusCode).toBe(200);
      expect((await onB.on(ctx.b).get('/api/user')).statusCode).toBe(200);

      const disabled = await admin.on(ctx.a).post(`/super/users/${user.id}/disable`);
      expect(disabled.statusCode).toBe(200);
      expect(disabled.json().status).toBe('disabled');

      // No clock moved: 401 on A (the instance that disabled) at once, and on B as soon as PostgreSQL's notice of the
      // change reaches it (decision record 029), well within a second.
      expect((await onA.on(ctx.a).get('/api/user')).statusCode).toBe(401);
      await vi.waitFor(
        async () => {
          const nextB = await onB.on(ctx.b).get('/api/user');
          expect(nextB.statusCode).toBe(401);
          expect(nextB.json().message).toBe(MESSAGES.unauthenticated);
        },
        { timeout: 1000, interval: 20 },
      );
      expect((await onA.on(ctx.b).get('/api/auth/check')).json().authenticated).toBe(false);
      expect(await db().select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);
      // And the right password gets the wrong-password answer on both instances.
      for (const app of instances())
        expectWrongPassword(await browser(freshIp()).on(app).login(user.email, TEST_PASSWORD));
    });
  });

  describe('two-factor codes', () => {
    /** Turns two-factor on through the API (instance A); returns the secret and the ten recovery codes. */
    async function enrolledUser() {
      const user = await createUser(db());
      const client = browser(freshIp());
      expect((await client.on(ctx.a).login(user.email, TEST_PASSWORD)).statusCode).toBe(200);
      const setup = await client.on(ctx.a).post('/api/two-factor/enable');
      expect(setup.statusCode).toBe(200);
      const secret: string = setup.json().secret;
      ctx.clock.advance(STEP);
      const confirm = await client
        .on(ctx.b)
        .post('/api/two-factor/confirm', { code: currentCode(secret, ctx.clock.now()) });
      expect(confirm.statusCode).toBe(200);
      const codes: string[] = confirm.json().recovery_codes;
      expect(codes).toHaveLength(10);
      // Two steps on: the step before the current one was never used.
      ctx.clock.advance(2 * STEP);
      return { user, secret, codes };
    }

    /** Password step on `app` from a fresh browser: answers the pending two-factor step. */
    async function passwordStep(app: FastifyInstance, email: string) {
      const client = browser(freshIp());
      const res = await client.on(app).login(email, TEST_PASSWORD);
      expect(res.json()).toEqual({ two_factor: true });
      return client;
    }

    const codeStep = (client: ReturnType<typeof browser>, app: FastifyInstance, email: string, code: string) =>
      client.on(app).post('/login', { email, one_time_password: code });

    function expectInvalidCode(res: LightMyRequestResponse) {
      expect(res.statusCode).toBe(422);
      expect(res.json().message).toBe(MESSAGES.invalidCode);
      expect(res.cookies.find((c) => c.name === SESSION_COOKIE && c.value)).toBeUndefined();
    }

    it('accepts a TOTP code once: a replay on the other instance and an older step are refused', async () => {
      const { user, secret } = await enrolledUser();
      const now = () => ctx.clock.now().getTime();
      const code = currentCode(secret, ctx.clock.now());
      // The previous step's code: inside the +-1 window and never used, but older than the one accepted below.
      const previous = currentCode(secret, new Date(now() - STEP));
      const first = await passwordStep(ctx.a, user.email);
      expect((await codeStep(first, ctx.a, user.email, code)).statusCode).toBe(200);
      expect((await first.on(ctx.b).get('/api/user')).json().id).toBe(user.id);

      // Same 30-second step, replayed through instance B.
      const replay = await passwordStep(ctx.b, user.email);
      expectInvalidCode(await codeStep(replay, ctx.b, user.email, code));
      expect((await replay.on(ctx.b).get('/api/user')).statusCode).toBe(401);
      // And through A, with the code sent along with the password in one request.
      expectInvalidCode(
        await browser(freshIp()).on(ctx.a).login(user.email, TEST_PASSWORD, { one_time_password: code }),
      );
      // An older step, never used before: refused too.
      expectInvalidCode(await codeStep(replay, ctx.a, user.email, previous));

      // One step later the used code is still inside the +-1 window, but its step is not newer: refused.
      ctx.clock.advance(STEP);
      const later = await passwordStep(ctx.a, user.email);
      expectInvalidCode(await codeStep(later, ctx.a, user.email, code));
      // The current step's code works, once.
      const fresh = currentCode(secret, ctx.clock.now());
      expect((await codeStep(later, ctx.b, user.email, fresh)).statusCode).toBe(200);
      expectInvalidCode(await codeStep(await passwordStep(ctx.a, user.email), ctx.a, user.email, fresh));
    });

    it('lets only one of two simultaneous uses of one TOTP code through (A and B at once)', async () => {
      const { user, secret } = await enrolledUser();
      const code = currentCode(secret, ctx.clock.now());
      const onA = await passwordStep(ctx.a, user.email);
      const onB = await passwordStep(ctx.b, user.email);
      const results = await Promise.all([
        codeStep(onA, ctx.a, user.email, code),
        codeStep(onB, ctx.b, user.email, code),
      ]);
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 422]);
    });

    it('accepts a recovery code exactly once, across instances and at the same time', async () => {
      const { user, codes } = await enrolledUser();
      const first = await passwordStep(ctx.a, user.email);
      expect((await codeStep(first, ctx.a, user.email, codes[0]!)).statusCode).toBe(200);
      // Replayed on B, as typed and in upper case: spent.
      const replay = await passwordStep(ctx.b, user.email);
      expectInvalidCode(await codeStep(replay, ctx.b, user.email, codes[0]!));
      expectInvalidCode(await codeStep(replay, ctx.b, user.email, codes[0]!.toUpperCase()));
      // Another unused code still works, once.
      expect((await codeStep(replay, ctx.b, user.email, codes[1]!)).statusCode).toBe(200);
      expectInvalidCode(await codeStep(await passwordStep(ctx.a, user.email), ctx.a, user.email, codes[1]!));

      // The same code sent to A and B at the same moment: exactly one gets in.
      const onA = await passwordStep(ctx.a, user.email);
      const onB = await passwordStep(ctx.b, user.email);
      const results = await Promise.all([
        codeStep(onA, ctx.a, user.email, codes[2]!),
        codeStep(onB, ctx.b, user.email, codes[2]!),
      ]);
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 422]);
      const status = await browser(freshIp()).on(ctx.a).login(user.email, TEST_PASSWORD);
      expect(status.json()).toEqual({ two_factor: true });
    });
  });

  describe('password reset tokens', () => {
    async function requestLink(app: FastifyInstance, email: string) {
      const client = browser(freshIp());
      await client.on(app).csrf();
      const res = await client.on(app).post('/password/forgot', { email });
      expect(res.statusCode).toBe(200);
      const match = ctx.mailbox.last(email)?.text.match(/\/reset-password\?token=([0-9a-f]{64})&email=/);
      expect(match).toBeTruthy();
      return match![1]!;
    }

    async function reset(app: FastifyInstance, email: string, token: string, password = NEW_PASSWORD) {
      const client = browser(freshIp());
      await client.on(app).csrf();
      return client.on(app).post('/password/reset', { token, email, password, password_confirmation: password });
    }

    function expectInvalidLink(res: LightMyRequestResponse) {
      expect(res.statusCode).toBe(422);
      expect(res.json().message).toBe(MESSAGES.resetInvalidToken);
    }

    it('a token works once, whichever instance sees it second', async () => {
      const user = await createUser(db());
      const token = await requestLink(ctx.a, user.email);
      expect((await reset(ctx.b, user.email, token)).statusCode).toBe(200);
      expectInvalidLink(await reset(ctx.a, user.email, token, 'Kx7#qPv9!mZt2$Lw'));
      expectInvalidLink(await reset(ctx.b, user.email, token, 'Kx7#qPv9!mZt2$Lw'));
      // The first reset's password stands.
      expectWrongPassword(await browser(freshIp()).on(ctx.a).login(user.email, 'Kx7#qPv9!mZt2$Lw'));
      expect((await browser(freshIp()).on(ctx.a).login(user.email, NEW_PASSWORD)).statusCode).toBe(200);
    });

    it('two resets with one token at the same time on A and B: only one goes through', async () => {
      const user = await createUser(db());
      const token = await requestLink(ctx.b, user.email);
      const results = await Promise.all([
        reset(ctx.a, user.email, token, NEW_PASSWORD),
        reset(ctx.b, user.email, token, 'Kx7#qPv9!mZt2$Lw'),
      ]);
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 422]);
    });

    it('a newer request voids the older token', async () => {
      const user = await createUser(db());
      const older = await requestLink(ctx.a, user.email);
      const newer = await requestLink(ctx.b, user.email);
      expect(newer).not.toBe(older);
      expectInvalidLink(await reset(ctx.b, user.email, older));
      expect((await reset(ctx.a, user.email, newer)).statusCode).toBe(200);
    });

    it('a token expires after 60 minutes', async () => {
      const user = await createUser(db());
      const early = await requestLink(ctx.a, user.email);
      ctx.clock.advance(minutes(59));
      // Still good just before the hour (used here, so request another for the expiry).
      expect((await reset(ctx.b, user.email, early)).statusCode).toBe(200);
      const late = await requestLink(ctx.b, user.email);
      ctx.clock.advance(minutes(60) + 1000);
      expectInvalidLink(await reset(ctx.a, user.email, late, 'Kx7#qPv9!mZt2$Lw'));
      expectInvalidLink(await reset(ctx.b, user.email, late, 'Kx7#qPv9!mZt2$Lw'));
      expect((await browser(freshIp()).on(ctx.a).login(user.email, NEW_PASSWORD)).statusCode).toBe(200);
    });

    it('a reset ends every session of the account, on both instances', async () => {
      const user = await createUser(db());
      const onA = browser(freshIp());
      const onB = browser(freshIp());
      expect((await onA.on(ctx.a).login(user.email, TEST_PASSWORD)).statusCode).toBe(200);
      expect((await onB.on(ctx.b).login(user.email, TEST_PASSWORD)).statusCode).toBe(200);
      const token = await requestLink(ctx.a, user.email);
      expect((await reset(ctx.b, user.email, token)).statusCode).toBe(200);
      for (const client of [onA, onB]) {
        for (const app of instances()) {
          const copy = browser(client.ip);
          for (const [k, v] of client.jar) copy.jar.set(k, v);
          expect((await copy.on(app).get('/api/user')).statusCode).toBe(401);
        }
      }
      expect(await db().select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);
      expectWrongPassword(await browser(freshIp()).on(ctx.b).login(user.email, TEST_PASSWORD));
    });
  });
});
