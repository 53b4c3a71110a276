import { expect } from 'vitest';
import type { Database } from '../src/db/client.js';
import { type Agent, send } from './agent.js';
import type { TestApp } from './app.js';

/** One call of an app's API whose guards expectAppGuards checks. */
export interface GuardedCall {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** After the app's prefix, e.g. `/tools/12`. */
  path: string;
  body?: unknown;
  /** The app's viewer may make it. */
  viewer: boolean;
  /** The path names a row of the project (a tool, an assessment, a link...), to try under another project's id. */
  namesRow: boolean;
}

type Person = { email: string };

/** A project with the app on, its people by role, and another project administered by the outsider. */
export interface GuardedProject {
  base: string;
  otherBase: string;
  people: Record<'noRole' | 'viewer' | 'outsider' | 'lead' | 'admin' | 'superadmin', Person>;
}

/** What an app answers when it refuses, and how its tables are read to prove a refused call changed nothing. */
export interface AppRefusals {
  /** The message to a member without a role in the app. */
  unconfigured: string;
  /** The message to the viewer where the call is not theirs. */
  forbidden: string;
  snapshot: (db: Database) => Promise<unknown>;
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'DELETE']);

export function sendCall(agent: Agent, call: GuardedCall, base: string, headers?: Record<string, string>) {
  return agent.request({
    method: call.method,
    url: `${base}${call.path}`,
    ...(call.body === undefined ? {} : { payload: call.body as object }),
    ...(headers ? { headers } : {}),
  });
}

/**
 * Asserts who may not make each call, and that none of the refused calls changed anything: anonymous 401; a member
 * without a role in the app 403 "unconfigured"; the app's viewer 403 where the call is not theirs; an administrator
 * of another project 404 under this project's id, and 404 under their own project's id for this project's rows; a
 * state change without the X-XSRF-TOKEN header 419. Reading calls then answer 200 to the lead, the project admin and
 * a superadmin (and the viewer where allowed).
 */
export async function expectAppGuards(
  ctx: TestApp,
  s: GuardedProject,
  calls: GuardedCall[],
  app: AppRefusals,
): Promise<void> {
  const db = ctx.db.handle.db;
  const anonymous = await ctx.anonymous();
  const agents = await ctx.signedInAll(s.people, 'noRole', 'viewer', 'outsider', 'lead', 'admin', 'superadmin');
  const before = await app.snapshot(db);
  for (const call of calls) {
    const label = `${call.method} ${call.path}`;
    const anon = await sendCall(anonymous, call, s.base);
    expect(anon.statusCode, `${label} anonymous: ${anon.body}`).toBe(401);
    const unconfigured = await sendCall(agents.noRole, call, s.base);
    expect(unconfigured.statusCode, `${label} without a role: ${unconfigured.body}`).toBe(403);
    expect(unconfigured.json().message, `${label} without a role`).toBe(app.unconfigured);
    if (!call.viewer) {
      const forbidden = await sendCall(agents.viewer, call, s.base);
      expect(forbidden.statusCode, `${label} as the viewer: ${forbidden.body}`).toBe(403);
      expect(forbidden.json().message, `${label} as the viewer`).toBe(app.forbidden);
    }
    const outside = await sendCall(agents.outsider, call, s.base);
    expect(outside.statusCode, `${label} from another project: ${outside.body}`).toBe(404);
    if (call.namesRow) {
      const foreign = await sendCall(agents.outsider, call, s.otherBase);
      expect(foreign.statusCode, `${label} under the other project's id: ${foreign.body}`).toBe(404);
    }
    if (STATE_CHANGING.has(call.method)) {
      const noToken = await sendCall(agents.admin, call, s.base, { 'x-xsrf-token': '' });
      expect(noToken.statusCode, `${label} without the XSRF header`).toBe(419);
    }
  }
  expect(await app.snapshot(db)).toEqual(before);
  for (const call of calls.filter((c) => c.method === 'GET')) {
    const allowed = call.viewer
      ? (['viewer', 'lead', 'admin', 'superadmin'] as const)
      : (['lead', 'admin', 'superadmin'] as const);
    for (const who of allowed) {
      const answer = await sendCall(agents[who], call, s.base);
      expect(answer.statusCode, `${call.method} ${call.path} as ${who}: ${answer.body}`).toBe(200);
    }
  }
}

/** A row of a guard test's call table: method, url, body, then whatever decides who may make the call. */
type CallRow = readonly [
  method: 'get' | 'post' | 'put' | 'patch' | 'delete',
  url: string,
  body?: unknown,
  ...rest: unknown[],
];

/**
 * Makes each call as each person `expected` names for it and expects that person's status; a failure names the
 * call, the person and the answer.
 */
export async function expectStatuses<Call extends CallRow, Who extends string>(
  agents: Record<Who, Agent>,
  calls: readonly Call[],
  expected: (call: Call) => readonly (readonly [Who, number])[],
): Promise<void> {
  for (const call of calls) {
    const [method, url, body] = call;
    for (const [who, status] of expected(call)) {
      const answer = await send(agents[who], method, url, body);
      expect(answer.statusCode, `${method} ${url} as ${who}: ${answer.body}`).toBe(status);
    }
  }
}
