import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { type BuildAppOptions, buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { testClock } from '../src/lib/clock.js';
import { type Agent, createAgent } from './agent.js';
import { type TestDatabase, useTestDatabase } from './database.js';
import { TEST_PASSWORD } from './factories.js';
import { createMailbox } from './mailbox.js';

export const TEST_APP_KEY = Buffer.alloc(32, 9);

export interface TestApp {
  app: FastifyInstance;
  db: TestDatabase;
  /** Move it instead of sleeping: sessions, tokens and lockouts read the time from here. */
  clock: ReturnType<typeof testClock>;
  mailbox: ReturnType<typeof createMailbox>;
  /** A new browser-like client (own cookies); `ip` sets its address. */
  agent(options?: { ip?: string }): ReturnType<typeof createAgent>;
  /** A new client signed in as `user` (made by the factories, password TEST_PASSWORD). */
  signedIn(user: { email: string }, options?: { ip?: string }): Promise<ReturnType<typeof createAgent>>;
  /** A client signed in as each person named, one after another: `await ctx.signedInAll(s.people, 'admin', 'viewer')`. */
  signedInAll<P extends Record<string, { email: string }>, K extends keyof P & string>(
    people: P,
    ...names: K[]
  ): Promise<Record<K, Agent>>;
  /** A signed-out client that holds an XSRF token, so a state change it tries is refused as anonymous (401), not 419. */
  anonymous(): Promise<Agent>;
}

/**
 * An app on this file's own database, for fastify.inject. `env` overrides configuration variables (the captcha is
 * off unless a test turns it on); `beforeReady` adds routes (tests of the error envelope) before the app is sealed.
 */
export function useTestApp(
  options: {
    env?: Record<string, string>;
    beforeReady?: (app: FastifyInstance) => void;
    /** Where the app logs (tests of what is logged); silent otherwise. */
    logger?: BuildAppOptions['logger'];
  } = {},
): TestApp {
  const db = useTestDatabase();
  const clock = testClock();
  const state = { db, clock, mailbox: createMailbox(() => db.handle.db, clock, TEST_APP_KEY) } as TestApp;
  state.agent = (agentOptions) => createAgent(state.app, agentOptions);
  state.signedIn = async (user, agentOptions) => {
    const agent = createAgent(state.app, agentOptions);
    const res = await agent.login(user.email, TEST_PASSWORD);
    if (res.statusCode !== 200) throw new Error(`sign-in of ${user.email} failed: ${res.statusCode} ${res.body}`);
    return agent;
  };
  state.signedInAll = async (people, ...names) => {
    const agents = {} as Record<(typeof names)[number], Agent>;
    for (const name of names) agents[name] = await state.signedIn(people[name]!);
    return agents;
  };
  state.anonymous = async () => {
    const agent = createAgent(state.app);
    await agent.csrf();
    return agent;
  };
  beforeAll(async () => {
    const config = loadConfig({
      DATABASE_URL: db.url,
      DATA_DIR: path.join(os.tmpdir(), 'portal-test-data'),
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      CAPTCHA_PROVIDER: 'off',
      CAPTCHA_COST: '50',
      // Tests change access behind the server's back and read at once: nothing kept between reads, except in the
      // tests of what is kept (plugins/kept-until-changed.test.ts, plugins/kept-answers.test.ts).
      ACCESS_CACHE_SECONDS: '0',
      ANSWER_CACHE_SECONDS: '0',
      ...options.env,
    });
    state.app = await buildApp({
      config,
      database: db.handle,
      appKey: TEST_APP_KEY,
      clock: state.clock,
      mailer: state.mailbox,
      ...(options.logger ? { logger: options.logger } : {}),
    });
    options.beforeReady?.(state.app);
    await state.app.ready();
  });
  afterAll(async () => {
    await state.app?.close();
  });
  return state;
}
