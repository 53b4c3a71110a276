// Hostile request bodies (issue: oversized bodies and deep JSON refused). Every refusal answers the error envelope
// ({ message, ... }) with a 4xx, the server keeps answering afterwards, and nothing a body says reaches a prototype.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Agent } from '../../test/agent.js';
import { useTestApp } from '../../test/app.js';
import { createUser } from '../../test/factories.js';
import { insertPage, monitoringProject } from '../../test/monitoring-kit.js';
import { users } from '../db/schema/index.js';
import { BROKEN_UNICODE, JSON_MAX_DEPTH, JSON_TOO_DEEP, jsonTooDeep, NUL_REFUSED } from '../plugins/input-guards.js';

const ctx = useTestApp();
const BODY_LIMIT = 1_048_576; // app.ts: Fastify({ bodyLimit })

const json = (agent: Agent, method: string, url: string, payload: string | Buffer, type = 'application/json') =>
  agent.request({ method, url, payload, headers: { 'content-type': type } });

/** The server still answers an ordinary call. */
async function stillAnswers(agent: Agent) {
  const res = await agent.get('/api/auth/check');
  expect(res.statusCode).toBe(200);
}

async function signedInUser() {
  const user = await createUser(ctx.db.handle.db, { firstName: 'Body', lastName: 'Tester' });
  return { user, agent: await ctx.signedIn(user) };
}

async function namesOf(id: number) {
  const [row] = await ctx.db.handle.db
    .select({ first: users.firstName, last: users.lastName })
    .from(users)
    .where(eq(users.id, id));
  return row;
}

describe('oversized bodies', () => {
  it('answers 413 with the error envelope for a JSON body over the 1 MiB body limit, and changes nothing', async () => {
    const { user, agent } = await signedInUser();
    const body = JSON.stringify({ first_name: 'A', last_name: 'x'.repeat(BODY_LIMIT) });
    const res = await json(agent, 'PUT', '/api/user/profile', body);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ message: 'Request body is too large' });
    expect(await namesOf(user.id)).toEqual({ first: 'Body', last: 'Tester' });
    await stillAnswers(agent);
  });

  it('answers 413 before the login (no session, no CSRF check needed to refuse it)', async () => {
    const agent = ctx.agent();
    await agent.csrf();
    const res = await json(agent, 'POST', '/login', `{"email":"${'a'.repeat(BODY_LIMIT + 10)}","password":"x"}`);
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe('Request body is too large');
  });

  it('accepts a body just under the limit as far as the limit goes (the schema then refuses the long field)', async () => {
    const { agent } = await signedInUser();
    const body = JSON.stringify({ first_name: 'A', last_name: 'x'.repeat(BODY_LIMIT - 100) });
    expect(Buffer.byteLength(body)).toBeLessThan(BODY_LIMIT);
    const res = await json(agent, 'PUT', '/api/user/profile', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.last_name[0]).toMatch(/at most|characters/i);
  });
});

describe('huge strings and arrays in fields', () => {
  it('refuses a 500,000-character name with a message under that field', async () => {
    const { user, agent } = await signedInUser();
    const res = await agent.put('/api/user/profile', { first_name: 'y'.repeat(500_000), last_name: 'Tester' });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(Object.keys(body.errors)).toEqual(['first_name']);
    expect(body.message).toBe(body.errors.first_name[0]);
    expect(await namesOf(user.id)).toEqual({ first: 'Body', last: 'Tester' });
  });

  it('refuses U+0000 in a JSON field with a 400 naming it (PostgreSQL text cannot hold it: it was a 500)', async () => {
    const { user, agent } = await signedInUser();
    const res = await agent.put('/api/user/profile', { first_name: 'Bo\u0000dy', last_name: 'Tester' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', errors: { first_name: [NUL_REFUSED] } });
    expect(await namesOf(user.id)).toEqual({ first: 'Body', last: 'Tester' });
  });

  it('refuses an unpaired surrogate in a JSON field or key with a 400 naming it, and keeps real emoji', async () => {
    const { user, agent } = await signedInUser();
    for (const [body, field] of [
      [{ first_name: 'Bo\uD800dy', last_name: 'Tester' }, 'first_name'],
      [{ first_name: 'Body', last_name: 'Tester\uDC00' }, 'last_name'],
      [{ first_name: 'Body', last_name: 'Tester', 'x\uD83D': 1 }, 'x'],
    ] as const) {
      const res = await agent.put('/api/user/profile', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', errors: { [field]: [BROKEN_UNICODE] } });
    }
    expect(await namesOf(user.id)).toEqual({ first: 'Body', last: 'Tester' });
    const emoji = await agent.put('/api/user/profile', { first_name: 'Body \uD83D\uDE00', last_name: 'Tester' });
    expect(emoji.statusCode, emoji.body).toBe(200);
    expect(await namesOf(user.id)).toEqual({ first: 'Body \u{1F600}', last: 'Tester' });
  });

  it('refuses an array over its maximum (2001 rows to the page grid) with the field message', async () => {
    const db = ctx.db.handle.db;
    const m = await monitoringProject(db);
    const page = await insertPage(db, m.project.id, { title: 'Falls' });
    const admin = await ctx.signedIn(m.people.admin);
    const rows = Array.from({ length: 2001 }, () => ({ id: page.id, version: 1, title: 'Renamed' }));
    const res = await admin.post(`/api/projects/${m.project.id}/monitoring/pages/bulk`, { rows });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      message: 'At most 2000 pages at once.',
      errors: { rows: ['At most 2000 pages at once.'] },
    });
    await stillAnswers(admin);
  });
});

describe('deeply nested JSON', () => {
  const nestedArray = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
  const nestedObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

  it.each([
    ['an array nested 10,000 levels as the body', nestedArray(10_000)],
    ['an object nested 10,000 levels as the body', nestedObject(10_000)],
    [
      'an unknown field nested 10,000 levels beside valid ones',
      `{"first_name":"A","last_name":"B","x":${nestedObject(10_000)}}`,
    ],
    ['an array nested 500,000 levels (1 MB)', nestedArray(500_000)],
    ['brackets inside strings do not count, real ones do', `{"s":"${'['.repeat(200)}","x":${nestedArray(100)}}`],
  ])('refuses %s with 400 and a clear message, and keeps answering', async (_label, body) => {
    const { user, agent } = await signedInUser();
    const res = await json(agent, 'PUT', '/api/user/profile', body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      message: JSON_TOO_DEEP,
      code: 'VALIDATION_FAILED',
      errors: { body: [JSON_TOO_DEEP] },
    });
    expect(await namesOf(user.id)).toEqual({ first: 'Body', last: 'Tester' });
    await stillAnswers(agent);
  });

  it('lets ordinary nesting through (the limit is far above any request schema)', async () => {
    const { user, agent } = await signedInUser();
    const body = `{"first_name":"Deep","last_name":"Enough","x":${nestedArray(JSON_MAX_DEPTH - 1)},"s":"${'{'.repeat(500)}"}`;
    const res = await json(agent, 'PUT', '/api/user/profile', body);
    expect(res.statusCode, res.body).toBe(200);
    expect(await namesOf(user.id)).toEqual({ first: 'Deep', last: 'Enough' });
  });

  it('counts depth exactly, skipping escaped quotes inside strings', () => {
    expect(jsonTooDeep(nestedArray(JSON_MAX_DEPTH), JSON_MAX_DEPTH)).toBe(false);
    expect(jsonTooDeep(nestedArray(JSON_MAX_DEPTH + 1), JSON_MAX_DEPTH)).toBe(true);
    expect(jsonTooDeep(`["\\"[[[[",[[1]]]`, 3)).toBe(false);
    expect(jsonTooDeep(`["\\"",[[[1]]]]`, 3)).toBe(true);
    expect(jsonTooDeep(`{"a":[{},{},{}],"b":[[],[]]}`, 3)).toBe(false);
    expect(jsonTooDeep(`{"a":[{},{},{}],"b":[[],[]]}`, 2)).toBe(true);
  });
});

describe('malformed bodies and wrong content types', () => {
  it('reads text/plain as a string, which the schema refuses (400, not parsed as anything else)', async () => {
    const { user, agent } = await signedInUser();
    const res = await json(agent, 'PUT', '/api/user/profile', '{"first_name":"A","last_name":"B"}', 'text/plain');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'This value is not valid.',
    });
    expect(await namesOf(user.id)).toEqual({ first: 'Body', last: 'Tester' });
  });

  it.each([
    ['application/xml', '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>', 415],
    ['application/x-www-form-urlencoded', 'first_name=A&last_name=B', 415],
  ])('answers %s with %s and the envelope', async (type, payload, status) => {
    const { user, agent } = await signedInUser();
    const res = await json(agent, 'PUT', '/api/user/profile', payload, type);
    expect(res.statusCode).toBe(status);
    expect(res.json().message).toMatch(/Unsupported Media Type/i);
    expect(res.body).not.toContain('root:');
    expect(await namesOf(user.id)).toEqual({ first: 'Body', last: 'Tester' });
  });

  it.each([
    ['truncated JSON', '{"first_name":"A",'],
    ['an empty body', ''],
    ['single quotes', "{'first_name':'A'}"],
  ])('answers %s with 400 and a message, never 500', async (_label, payload) => {
    const { agent } = await signedInUser();
    const res = await json(agent, 'PUT', '/api/user/profile', payload);
    expect(res.statusCode).toBe(400);
    expect(typeof res.json().message).toBe('string');
    expect(res.body).not.toMatch(/at .*\.(js|ts):\d+/); // no stack trace
    await stillAnswers(agent);
  });
});

describe('prototype pollution', () => {
  it.each([
    ['__proto__', '{"first_name":"A","last_name":"B","__proto__":{"polluted":1}}'],
    ['nested __proto__', '{"first_name":"A","last_name":"B","x":{"__proto__":{"polluted":1}}}'],
    ['constructor.prototype', '{"first_name":"A","last_name":"B","constructor":{"prototype":{"polluted":1}}}'],
    ['escaped __proto__ key', '{"first_name":"A","last_name":"B","\\u005f_proto__":{"polluted":1}}'],
  ])('refuses a body with %s (400) and no object gains the property', async (_label, payload) => {
    const { user, agent } = await signedInUser();
    const res = await json(agent, 'PUT', '/api/user/profile', payload);
    expect(res.statusCode).toBe(400);
    expect(typeof res.json().message).toBe('string');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
    expect(await namesOf(user.id)).toEqual({ first: 'Body', last: 'Tester' });
    await stillAnswers(agent);
  });

  it('a __proto__ key in a multipart field does not pollute either', async () => {
    const { agent } = await signedInUser();
    const boundary = '----portalproto';
    const payload =
      `--${boundary}\r\nContent-Disposition: form-data; name="__proto__"\r\n\r\n{"polluted":1}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="constructor"\r\n\r\nx\r\n--${boundary}--\r\n`;
    const res = await agent.request({
      method: 'POST',
      url: '/api/projects/1/policy-management/documents/convert',
      payload,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(res.statusCode).toBeLessThan(500);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
