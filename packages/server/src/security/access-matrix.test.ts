import { APP_CODES, PERMISSION_APPS, type PermissionApp } from '@portal/shared';
import { eq, inArray } from 'drizzle-orm';
import type { LightMyRequestResponse, RouteOptions } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { createAgent } from '../../test/agent.js';
import { useTestApp } from '../../test/app.js';
import { changedTables, tableFingerprint } from '../../test/db-fingerprint.js';
import { addMember, createProject, createUser, setMainRole } from '../../test/factories.js';
import { sampleFromSchema } from '../../test/schema-sample.js';
import {
  permissionRules,
  projectMemberRoles,
  projectMemberships,
  projects,
  stdMembers,
  users,
} from '../db/schema/index.js';
import {
  ACTORS,
  type AccessRule,
  type Actor,
  access,
  MEMBER_ROLES,
  MEMBER_STANDARDS_ROLE,
} from '../policies/access.js';

/**
 * The access matrix (issue 13). Every route the server registers is called as each actor of policies/access.ts and
 * the answer is compared with the route's declared `config.access`:
 * - a denial must be exactly the declared 401, 403 or 404 (or, for a call whose body or query the schema refuses
 *   before the handler runs, 400/415), and a state-changing call denied must change nothing in the database;
 * - an allowed call must not be refused by a gate (401, 403, or 404 for the project);
 * - every state-changing route refuses a missing or a wrong X-XSRF-TOKEN with 419 and changes nothing; a route
 *   authenticated by a bearer token (`access.bearerToken`, SCIM) refuses every session, the superadmin's too, with 401.
 * Record ids are ones that do not exist (MISSING_ID), so allowed calls touch no record; what a missing record
 * answers is each module's own concern (their tests also prove another project's records answer 404).
 */
// The writing assistant's calls exist only when it is configured: a port where nothing answers.
const t = useTestApp({ env: { ASSIST_URL: 'http://127.0.0.1:9/v1' } });
const MISSING_ID = '2147483000';
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Routes the server gets from plugins, not from a module: no handler of ours, nothing to declare. */
const PLUGIN_ROUTE = /^\/api\/docs(\/|$)|^\/\*$|^\/assets\//;
/** Tables every request may write whatever it is allowed (sessions touched, throttles, the audit trail). */
const VOLATILE_TABLES = new Set([
  'sessions',
  'login_attempts',
  'audit_events',
  'rate_limits',
  // The fixed-window throttles (lib/rate-limit.ts): a refused SCIM bearer token is counted per address.
  'rate_limit_hits',
  'captcha_solutions',
]);
/** A 404 that comes from the project gate (projects.ts, app-access.ts, standards.ts), not from a record lookup. */
const PROJECT_GONE = /^Project not found\.$|is not switched on for this project\.$/;

type Agent = ReturnType<typeof createAgent>;
const agents = {} as Record<Actor, Agent>;
let projectId = 0;
const people = {} as Record<Exclude<Actor, 'anonymous'>, { id: number; email: string }>;

// Routes of ours have one method each; @fastify/static registers each file of the web build for HEAD and GET.
const routes = () =>
  t.app.routeTable.filter(
    (r) => typeof r.method === 'string' && r.method !== 'HEAD' && !PLUGIN_ROUTE.test(r.url),
  ) as (RouteOptions & {
    method: string;
  })[];
/** The live notifications stream never ends: it is read as far as its headers. */
const STREAMS = new Set(['/api/notifications/stream']);

const TOP_ROLES: Record<PermissionApp, string> = {
  policy_management: 'policy_admin',
  monitoring: 'monitoring_admin',
  chart_review: 'chart_review_admin',
};
let otherProjectId = 0;

/**
 * Puts the actors back as the matrix describes them. Allowed calls run for real (with sample bodies), so one may
 * have replaced a project's role lists, switched an app off or changed the permission rules.
 */
async function restoreActors() {
  const { db } = t.db.handle;
  const ids = [projectId, otherProjectId];
  await db
    .update(projects)
    .set({ activeApps: [...APP_CODES], isActive: true })
    .where(inArray(projects.id, ids));
  await db
    .update(users)
    .set({ status: 'active', role: 'user' })
    .where(inArray(users.id, [people.member.id, people.noRole.id, people.admin.id, people.outsider.id]));
  await db.update(users).set({ status: 'active', role: 'superadmin' }).where(eq(users.id, people.superadmin.id));
  for (const table of [projectMemberships, projectMemberRoles, stdMembers, permissionRules]) {
    await db.delete(table).where(inArray(table.projectId, ids));
  }
  await addMember(db, projectId, people.member.id, 'simple');
  await addMember(db, projectId, people.noRole.id, 'simple');
  await addMember(db, projectId, people.admin.id, 'admin');
  await addMember(db, otherProjectId, people.outsider.id, 'admin');
  for (const app of PERMISSION_APPS) {
    await setMainRole(db, projectId, people.member.id, app, MEMBER_ROLES[app]);
    await setMainRole(db, projectId, people.admin.id, app, TOP_ROLES[app]);
    await setMainRole(db, otherProjectId, people.outsider.id, app, TOP_ROLES[app]);
  }
  await db.insert(stdMembers).values({ projectId, userId: people.member.id, role: MEMBER_STANDARDS_ROLE });
}

beforeAll(async () => {
  const { db } = t.db.handle;
  projectId = (await createProject(db)).id;
  otherProjectId = (await createProject(db)).id;
  Object.assign(people, {
    member: await createUser(db),
    noRole: await createUser(db),
    admin: await createUser(db),
    outsider: await createUser(db),
    superadmin: await createUser(db, { role: 'superadmin' }),
  });
  await restoreActors();
  agents.anonymous = t.agent();
  await agents.anonymous.csrf();
  for (const actor of ACTORS) if (actor !== 'anonymous') agents[actor] = await t.signedIn(people[actor]);
});

/** A JSON schema of a route part (params, querystring, body), if the route has one. */
function jsonSchemaOf(schema: unknown): Record<string, unknown> | null {
  if (!schema) return null;
  try {
    return z.toJSONSchema(schema as z.ZodType, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  } catch {
    return null;
  }
}

interface Variant {
  request: { method: string; url: string; payload?: object; payloadAsStream?: boolean };
  rule: AccessRule;
}

/**
 * The calls to make of a route: one per value of each path parameter that is a choice (`:app`, `:action`), each
 * with the rule declared for those values; any other parameter is a record id that does not exist.
 */
function variantsOf(route: RouteOptions & { method: string }): Variant[] {
  const params = jsonSchemaOf(route.schema?.params);
  const props = (params?.properties ?? {}) as Record<string, Record<string, unknown>>;
  let choices: Record<string, string>[] = [{}];
  for (const [, name = ''] of route.url.matchAll(/:([A-Za-z]+)/g)) {
    const choice = props[name]?.enum;
    const values =
      name === 'projectId' && route.url.startsWith('/api/projects/')
        ? [String(projectId)]
        : Array.isArray(choice)
          ? choice.map(String)
          : [MISSING_ID];
    choices = choices.flatMap((chosen) => values.map((value) => ({ ...chosen, [name]: value })));
  }
  const query = sampleFromSchema(jsonSchemaOf(route.schema?.querystring)) as Record<string, unknown> | undefined;
  // The one call that names its project in the query (`/api/me/permissions?project=`).
  if (query && 'project' in query) query.project = projectId;
  const body = sampleFromSchema(jsonSchemaOf(route.schema?.body));
  const qs = query ? new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString() : '';
  const declared = route.config?.access;
  return choices.map((chosen) => ({
    request: {
      method: route.method,
      url: `${route.url.replace(/:([A-Za-z]+)/g, (_m, name: string) => chosen[name] ?? MISSING_ID).replace(/\*$/, 'x')}${qs ? `?${qs}` : ''}`,
      ...(body !== undefined && route.method !== 'GET' ? { payload: body as object } : {}),
      ...(STREAMS.has(route.url) ? { payloadAsStream: true } : {}),
    },
    rule: typeof declared === 'function' ? declared(chosen) : (declared as AccessRule),
  }));
}

function outcomeOf(res: LightMyRequestResponse, url: string): 'allow' | 401 | 403 | 404 | 419 {
  // The superadmin's project calls name the project as their record: its 404 is a missing record, not a gate.
  const gate404 = !url.startsWith('/super/');
  if (res.body === undefined) return res.statusCode < 400 ? 'allow' : (res.statusCode as 401);
  if (res.statusCode === 401 || res.statusCode === 403 || res.statusCode === 419) return res.statusCode;
  if (res.statusCode === 404) {
    const message = (res.json() as { message?: string }).message ?? '';
    return gate404 && PROJECT_GONE.test(message) ? 404 : 'allow';
  }
  return 'allow';
}

const fingerprint = () => tableFingerprint(t.db.handle.db, (name) => VOLATILE_TABLES.has(name));

/** Whether a denied answer matches: the declared status, or a schema refusal before the handler ran. */
function deniedAsDeclared(expected: AccessRule[Actor], res: LightMyRequestResponse, url: string): boolean {
  if (
    expected === 'record' &&
    (res.statusCode === 403 || (res.statusCode === 404 && outcomeOf(res, url) === 'allow'))
  ) {
    return true;
  }
  if (outcomeOf(res, url) === expected) return true;
  const validation = res.statusCode === 400 && (res.json() as { code?: string }).code === 'VALIDATION_FAILED';
  return validation || res.statusCode === 415 || res.statusCode === 406;
}

/** Signs a session back in when an allowed call ended it (sign-out is allowed to everyone). */
async function keepSignedIn(actor: Actor) {
  await restoreActors();
  // A sign-out ends the anonymous session too: its XSRF token goes with it.
  if (actor === 'anonymous') return void (await agents.anonymous.csrf());
  const res = await agents[actor].get('/api/user');
  if (res.statusCode === 401) agents[actor] = await t.signedIn(people[actor]);
}

describe('access matrix', () => {
  it('has an access declaration on every route', () => {
    const undeclared = routes()
      .filter((r) => !r.config?.access)
      .map((r) => `${r.method} ${r.url}`);
    expect(undeclared).toEqual([]);
    expect(routes().length).toBeGreaterThan(300);
  });

  // The guest reader (issue 28) is public by declaration but decided by the project's setting and the address alone:
  // the session is never read, so while guest reading is off every actor, the superadmin too, gets the same 404.
  it('declares the guest reader public, and answers every actor alike while guest reading is off', async () => {
    const guest = routes().filter((r) => r.url.startsWith('/api/guest/'));
    expect(guest.map((r) => `${r.method} ${r.url}`).sort()).toEqual([
      'GET /api/guest/projects/:projectId',
      'GET /api/guest/projects/:projectId/documents',
      'GET /api/guest/projects/:projectId/documents/:documentId',
      'GET /api/guest/projects/:projectId/search',
    ]);
    for (const route of guest) {
      expect(route.config?.access, route.url).toBe(access.public);
      const url = route.url.replace(':projectId', String(projectId)).replace(':documentId', MISSING_ID);
      for (const actor of ACTORS) {
        const res = await agents[actor].get(`${url}${url.endsWith('/search') ? '?q=policy' : ''}`);
        expect([res.statusCode, res.json().message], `${url} as ${actor}`).toEqual([
          404,
          'Reading without an account is not available here.',
        ]);
      }
    }
  });

  // The text read from a version's PDF (issue 28) is shown to whoever may load that version: same declaration.
  it("declares the text of a version's PDF like the version it was read from", () => {
    const declared = (url: string) => routes().find((r) => r.method === 'GET' && r.url === url)?.config?.access;
    const version = '/api/projects/:projectId/policy-management/documents/:documentId/versions/:versionId';
    expect(declared(version)).toBeDefined();
    expect(declared(`${version}/source-text`)).toEqual(declared(version));
  });

  it('answers every actor on every route as declared, and a denied write changes nothing', async () => {
    const mismatches: string[] = [];
    const counts = { routes: 0, calls: 0, deniedExact: 0, deniedEarly: 0, allowed: 0, unchangedChecks: 0 };
    const only = process.env.MATRIX_ROUTES ? new RegExp(process.env.MATRIX_ROUTES) : null;
    for (const route of routes()) {
      if (!route.config?.access || (only && !only.test(`${route.method} ${route.url}`))) continue;
      counts.routes++;
      const writes = STATE_CHANGING.has(route.method);
      for (const { request, rule } of variantsOf(route)) {
        const label = `${request.method} ${request.url}`;
        const before = writes ? await fingerprint() : new Map<string, string>();
        for (const actor of ACTORS.filter((a) => rule[a] !== 'allow')) {
          const res = await agents[actor].request(request);
          counts.calls++;
          if (!deniedAsDeclared(rule[actor], res, request.url)) {
            mismatches.push(
              `${label} as ${actor}: expected ${rule[actor]}, got ${res.statusCode} ${res.body?.slice(0, 120)}`,
            );
          } else if (outcomeOf(res, request.url) === rule[actor]) counts.deniedExact++;
          else counts.deniedEarly++;
        }
        if (writes && ACTORS.some((a) => rule[a] !== 'allow')) {
          counts.unchangedChecks++;
          const changed = changedTables(before, await fingerprint());
          if (changed.length) mismatches.push(`${label}: a denied call changed ${changed.join(', ')}`);
        }
        for (const actor of ACTORS.filter((a) => rule[a] === 'allow')) {
          const res = await agents[actor].request(request);
          if (request.payloadAsStream) res.stream().destroy();
          counts.calls++;
          // A 503 is a coded answer (the writing assistant is down); only a 500 is a failure of ours.
          if (res.statusCode === 500 || outcomeOf(res, request.url) !== 'allow') {
            mismatches.push(`${label} as ${actor}: expected allow, got ${res.statusCode} ${res.body?.slice(0, 120)}`);
          } else counts.allowed++;
          if (writes) await keepSignedIn(actor);
        }
      }
    }
    console.log(`access matrix: ${JSON.stringify(counts)}`);
    expect(mismatches).toEqual([]);
  }, 600_000);

  it('refuses every state-changing route without or with a wrong X-XSRF-TOKEN, and changes nothing', async () => {
    const wrong: string[] = [];
    const cookie = [...agents.superadmin.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const before = await fingerprint();
    let checked = 0;
    for (const route of routes().filter((r) => STATE_CHANGING.has(r.method))) {
      const [{ request }] = variantsOf(route) as [Variant];
      for (const header of [undefined, 'not-the-token']) {
        const res = await t.app.inject({
          method: request.method as 'POST',
          url: request.url,
          ...(request.payload ? { payload: request.payload } : {}),
          headers: { cookie, ...(header ? { 'x-xsrf-token': header } : {}) },
        });
        checked++;
        // A bearer-token route (SCIM) asks no CSRF token and no session gets in: the session's call is a 401. A signed
        // message's route (the SAML ACS) asks none either: what the sweep posts is no signed response, refused with
        // the sign-in page's error (303), and nothing changes but the refusal's audit (not fingerprinted).
        const expected = route.config?.bearerToken ? 401 : route.config?.signedMessage ? 303 : 419;
        if (res.statusCode !== expected)
          wrong.push(`${route.method} ${route.url} (${header ? 'wrong' : 'no'} token): ${res.statusCode}`);
      }
    }
    console.log(`XSRF: ${checked} state-changing calls refused`);
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(150);
    expect(changedTables(before, await fingerprint())).toEqual([]);
  }, 300_000);
});
