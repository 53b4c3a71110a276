import { APP_CODES } from '@portal/shared';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse, RouteOptions } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Agent } from '../../test/agent.js';
import { useTestApp } from '../../test/app.js';
import { createTool, programInput, question } from '../../test/chart-review-kit.js';
import {
  insertAssignment,
  insertCase,
  insertFinding,
  insertSample,
  insertSecondReview,
} from '../../test/chart-review-results-kit.js';
import { changedTables, tableFingerprint } from '../../test/db-fingerprint.js';
import { addMember, createProject, createUser, setMainRole } from '../../test/factories.js';
import {
  addAnnotation,
  addBenchmark,
  addDataset,
  addMeasure,
  addPhase,
  addTarget,
} from '../../test/monitoring-data-kit.js';
import { insertPage } from '../../test/monitoring-kit.js';
import { sampleFromSchema } from '../../test/schema-sample.js';
import { createAssessment, importFramework, setStandardsRole } from '../../test/standards-kit.js';
import { notifications } from '../db/schema/index.js';

/**
 * Integers PostgreSQL's `integer` (int4) cannot hold. A request field that reaches an integer column with one made
 * the database fail with 22003 "out of range for type integer", and the server answered 500. Every route of the
 * server's own route table that takes an integer (a path parameter, a query parameter, or an integer property of its
 * JSON body, nested ones included) is called as a superadmin, who passes every gate, in a project with every app on
 * and one record of each kind, with that one input set to 2^31 (and to -2^31 - 1 where the input takes a sign) and
 * everything else valid: the answer must be below 500, and a refused state-changing call must change nothing in the
 * database. The schemas refuse such numbers up front (ids: "No such record."), so no query ever sees them.
 */
// The writing assistant's calls exist only when it is configured: a port where nothing answers.
const t = useTestApp({ env: { ASSIST_URL: 'http://127.0.0.1:9/v1' } });
/** Just past each end of PostgreSQL's integer range. */
const OUT_OF_RANGE = [2_147_483_648, -2_147_483_649];
/** A record id no table holds (a parameter without a seeded record of its kind). */
const MISSING_ID = '2147483000';
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Routes the server gets from plugins, not from a module. */
const PLUGIN_ROUTE = /^\/api\/docs(\/|$)|^\/\*$|^\/assets\//;
/** The live notifications stream never ends: it is read as far as its headers. */
const STREAMS = new Set(['/api/notifications/stream']);
/** Tables any request may write (sessions touched, throttles, the audit trail, the cache of computed series). */
const VOLATILE_TABLES = new Set([
  'sessions',
  'login_attempts',
  'audit_events',
  'rate_limit_hits',
  'captcha_solutions',
  'mon_series',
]);

/**
 * The table whose records a path parameter names, by the path segment before it and the parameter's name. A
 * parameter of a kind not seeded (or not listed) gets MISSING_ID.
 */
const RECORD_TABLES: Record<string, string> = {
  'annotations/:annotationId': 'mon_annotations',
  'assessments/:id': 'std_assessments',
  'assignments/:assignmentId': 'cr_assignments',
  'benchmarks/:benchmarkId': 'mon_benchmarks',
  'calls/:callId': 'pg_llm_calls',
  'cases/:caseId': 'cr_cases',
  'charts/:chartId': 'mon_charts',
  'contact-us-messages/:messageId': 'contact_messages',
  'datasets/:datasetId': 'mon_datasets',
  'departments/:departmentId': 'policy_departments',
  'documents/:documentId': 'policy_documents',
  'email-logs/:emailId': 'email_log',
  'evidence/:id': 'std_evidence',
  'findings/:findingId': 'cr_findings',
  'findings/:id': 'std_findings',
  'generations/:generationId': 'pg_generations',
  'imports/:importId': 'mon_imports',
  'insights/:insightId': 'mon_insights',
  'irr/:pairId': 'cr_irr_pairs',
  'links/:id': 'trace_links',
  'measures/:measureId': 'mon_measures',
  'notifications/:nid': 'notifications',
  'page-levels/:levelId': 'mon_page_levels',
  'pages/:pageId': 'mon_pages',
  'phases/:phaseId': 'mon_phases',
  'programs/:programId': 'cr_programs',
  'req-assessments/:id': 'std_req_assessments',
  'requests/:requestId': 'mon_requests',
  'roles/:roleId': 'mon_roles',
  'samples/:sampleId': 'cr_samples',
  'targets/:targetId': 'mon_targets',
  'templates/:templateId': 'pg_templates',
  'terms/:versionId': 'terms_versions',
  'tool-versions/:versionId': 'cr_tool_versions',
  'tools/:toolId': 'cr_tools',
  'tracers/:id': 'std_tracers',
  'user-requests/:requestId': 'user_requests',
  'versions/:versionId': 'policy_versions',
};

type JsonSchema = Record<string, unknown>;
type Route = RouteOptions & { method: string };

let projectId = 0;
let memberId = 0;
let superadminId = 0;
let superadmin: Agent;
let superadminUser: { email: string };
/** Seeded record ids by `segment/:param` (RECORD_TABLES' keys). */
const recordIds: Record<string, string> = {};

const routes = () =>
  t.app.routeTable.filter(
    (r) => typeof r.method === 'string' && r.method !== 'HEAD' && !PLUGIN_ROUTE.test(r.url),
  ) as Route[];

/** A JSON schema of a route part (params, querystring, body), if the route has one. */
function jsonSchemaOf(schema: unknown): JsonSchema | null {
  if (!schema) return null;
  try {
    return z.toJSONSchema(schema as z.ZodType, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  } catch {
    return null;
  }
}

const typesOf = (schema: JsonSchema): unknown[] => (Array.isArray(schema.type) ? schema.type : [schema.type]);

/**
 * Whether a path or query parameter takes the integer `value`: typed integer, or a string of digits, one whose pattern
 * lets the value through but no letter (ids in the path are `^\d{1,10}$` strings turned into numbers: they take 2^31
 * but no sign).
 */
function takes(schema: JsonSchema | undefined, value: number): boolean {
  if (!schema) return false;
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = schema[key] as JsonSchema[] | undefined;
    if (options?.some((option) => takes(option, value))) return true;
  }
  const types = typesOf(schema);
  if (types.includes('integer')) return true;
  if (!types.includes('string') || typeof schema.pattern !== 'string') return false;
  const pattern = new RegExp(schema.pattern);
  return pattern.test(`${value}`) && !pattern.test('a');
}

/** One body with a single integer somewhere in it out of range: where (.a[].b) and the body. */
interface Probe {
  at: string;
  value: unknown;
}

/**
 * Every way to put `big` in one integer of a value of `schema`, the rest sampled: each integer property of an object
 * (optional ones too), of an array's item (the array then holds one such item), of a record's value, and of each
 * option of a choice.
 */
function probesOf(schema: JsonSchema | undefined, big: number, depth = 0): Probe[] {
  if (!schema || depth > 8) return [];
  if ('const' in schema || Array.isArray(schema.enum)) return [];
  const found: Probe[] = [];
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const options = (schema[key] as JsonSchema[] | undefined) ?? [];
    options.forEach((option, index) => {
      for (const probe of probesOf(option, big, depth + 1)) {
        // An option that is the integer itself (`anyOf: [integer, null]`) is the property, not a choice of it.
        const at = probe.at === '' || options.length === 1 ? probe.at : `${probe.at} (${key} ${index})`;
        if (!found.some((p) => p.at === at)) found.push({ ...probe, at });
      }
    });
  }
  const types = typesOf(schema);
  if (types.includes('integer')) found.push({ at: '', value: big });
  if (types.includes('object')) {
    const base = (sampleFromSchema(schema) ?? {}) as Record<string, unknown>;
    for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>)) {
      for (const probe of probesOf(property, big, depth + 1)) {
        found.push({ at: `.${name}${probe.at}`, value: { ...base, [name]: probe.value } });
      }
    }
    if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
      const key = String(sampleFromSchema(schema.propertyNames as JsonSchema | undefined) ?? 'x');
      for (const probe of probesOf(schema.additionalProperties as JsonSchema, big, depth + 1)) {
        found.push({ at: `{}${probe.at}`, value: { ...base, [key]: probe.value } });
      }
    }
  }
  if (types.includes('array') && schema.items && typeof schema.items === 'object') {
    const base = (sampleFromSchema(schema) ?? []) as unknown[];
    for (const probe of probesOf(schema.items as JsonSchema, big, depth + 1)) {
      found.push({ at: `[]${probe.at}`, value: [probe.value, ...base.slice(1)] });
    }
  }
  return found;
}

/** The value of a path parameter: the project, a choice's first value, a seeded record, or a missing one. */
function paramValue(url: string, name: string, params: Record<string, JsonSchema>): string {
  const choice = params[name]?.enum;
  if (Array.isArray(choice)) return String(choice[0]);
  if (name === 'projectId') return String(projectId);
  if (name === 'userId') return String(memberId);
  const segment = new RegExp(`([a-z-]+)/:${name}(?:/|$)`).exec(url)?.[1];
  return recordIds[`${segment}/:${name}`] ?? MISSING_ID;
}

interface Call {
  method: string;
  url: string;
  /** Which input is out of range, and how: `path :name`, `query name` or `body .a[].b`, then `= value`. */
  input: string;
  payload?: unknown;
  stream: boolean;
}

/** The calls to make of a route: one per integer input and value, that input out of range and the others valid. */
function callsOf(route: Route): Call[] {
  const params = (jsonSchemaOf(route.schema?.params)?.properties ?? {}) as Record<string, JsonSchema>;
  const names = [...route.url.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1] ?? '');
  const path = (big?: { name: string; value: number }) =>
    route.url
      .replace(/:([A-Za-z]+)/g, (_m, name: string) =>
        name === big?.name ? String(big.value) : paramValue(route.url, name, params),
      )
      .replace(/\*$/, 'x');
  const querySchema = jsonSchemaOf(route.schema?.querystring);
  const queryProps = (querySchema?.properties ?? {}) as Record<string, JsonSchema>;
  const query = (sampleFromSchema(querySchema) ?? {}) as Record<string, unknown>;
  // The calls that name their project in the query (`/api/me/permissions?project=`).
  if ('project' in query) query.project = projectId;
  const queryString = (extra: Record<string, unknown> = {}) => {
    const entries = Object.entries({ ...query, ...extra }).map(([k, v]) => [k, String(v)]);
    return entries.length ? `?${new URLSearchParams(entries).toString()}` : '';
  };
  const bodySchema = route.method === 'GET' ? null : jsonSchemaOf(route.schema?.body);
  const body = sampleFromSchema(bodySchema);
  const common = { method: route.method, stream: STREAMS.has(route.url) };
  const calls: Call[] = [];
  for (const value of OUT_OF_RANGE) {
    const withBody = body === undefined ? {} : { payload: body };
    for (const name of names.filter((n) => takes(params[n], value))) {
      const url = `${path({ name, value })}${queryString()}`;
      calls.push({ ...common, url, input: `path :${name} = ${value}`, ...withBody });
    }
    for (const name of Object.keys(queryProps).filter((n) => takes(queryProps[n], value))) {
      const url = `${path()}${queryString({ [name]: value })}`;
      calls.push({ ...common, url, input: `query ${name} = ${value}`, ...withBody });
    }
    for (const probe of probesOf(bodySchema ?? undefined, value)) {
      const url = `${path()}${queryString()}`;
      calls.push({ ...common, url, input: `body ${probe.at} = ${value}`, payload: probe.value });
    }
  }
  return calls;
}
const fingerprint = () => tableFingerprint(t.db.handle.db, (name) => VOLATILE_TABLES.has(name));

/** A route's sampled body with `overrides`, for the seeding calls. */
function sampledBody(method: string, url: string, overrides: Record<string, unknown>): Record<string, unknown> {
  const route = routes().find((r) => r.method === method && r.url === url);
  if (!route) throw new Error(`no route ${method} ${url}`);
  return { ...((sampleFromSchema(jsonSchemaOf(route.schema?.body)) ?? {}) as object), ...overrides };
}

/** Calls the API to make a record, which must work. */
async function seed(method: string, template: string, overrides: Record<string, unknown> = {}, ids: object = {}) {
  const url = Object.entries({ projectId, ...ids }).reduce((u, [k, v]) => u.replace(`:${k}`, String(v)), template);
  const res = await superadmin.request({ method, url, payload: sampledBody(method, template, overrides) });
  expect(res.statusCode, `seeding ${method} ${url}: ${res.body}`).toBeLessThan(300);
  return res.json() as { id: number };
}

/** One record of each kind in the project (directly or through the API), as the calls' valid path parameters. */
async function seedRecords() {
  const { db } = t.db.handle;
  const P = '/api/projects/:projectId';
  await seed('POST', `${P}/policy-management/departments`, { name: 'Probe department', code: 'PRB' });
  const document = await seed('POST', `${P}/policy-management/documents`, {
    title: 'Probe policy',
    content: '<p>Probe</p>',
  });

  const page = await insertPage(db, projectId, { title: 'Probe page' });
  const dataset = await addDataset(db, projectId, { name: 'Probe census' });
  const measure = await addMeasure(db, projectId, page.id, dataset.id);
  await addTarget(db, measure, 1, '2026-01-01');
  await addBenchmark(db, measure, { source: 'Probe', value: 1, asOf: '2026-01-01' });
  await addPhase(db, measure, '2026-01-01');
  await addAnnotation(db, measure, '2026-01-01', false);
  await seed('POST', `${P}/monitoring/page-levels`);
  await seed('POST', `${P}/monitoring/roles`, { name: 'Probe role' });
  await seed('POST', `${P}/monitoring/pages/:pageId/insights`, { title: 'Probe insight' }, { pageId: page.id });
  await seed(
    'POST',
    `${P}/monitoring/pages/:pageId/charts`,
    { measure_id: measure.id, title: 'Probe chart' },
    { pageId: page.id },
  );
  await seed('POST', `${P}/monitoring/requests`, {
    page_ids: [page.id],
    period_from: '2026-01-01',
    period_to: '2026-03-01',
  });

  const base = `/api/projects/${projectId}/chart-review`;
  const tool = await createTool(superadmin, base, 'Probe tool', [question('fall_risk')]);
  const program = await seed('POST', `${P}/chart-review/programs`, programInput(tool.id, { name: 'Probe programme' }));
  const sample = await insertSample(db, {
    projectId,
    programId: program.id,
    periodStart: '2026-01-01',
    toolVersionId: tool.versionId,
  });
  const kase = await insertCase(db, sample, { code: 'C-1', unit: 'Ward A' });
  const primary = await insertAssignment(db, kase, { reviewerId: memberId, toolVersionId: tool.versionId });
  await insertSecondReview(db, { kase, primary }, { reviewerId: superadminId, answers: {}, status: 'pending' });
  await insertFinding(db, { projectId, programId: program.id, periodStart: '2026-01-01', status: 'open' });

  const standards = `/api/projects/${projectId}/standards`;
  const { framework, nodes } = await importFramework(db, superadmin, standards, { code: 'PROBE-QS' });
  const assessment = await createAssessment(db, superadmin, standards, framework.id);
  const reqId = Object.values(assessment.reqs)[0];
  await seed(
    'POST',
    `${P}/standards/req-assessments/:id/findings`,
    { text: 'Probe finding', cited_on: '2026-01-15' },
    { id: reqId },
  );
  await seed(
    'POST',
    `${P}/standards/assessments/:id/tracers`,
    { lead_id: null, traced_on: '2026-01-15' },
    { id: assessment.id },
  );

  await seed(
    'POST',
    `${P}/standards/req-assessments/:id/evidence`,
    { title: 'Probe evidence', url: 'https://example.test/evidence' },
    { id: reqId },
  );
  await seed('POST', `${P}/standards/links`, {
    node_id: nodes['GOV.1.1'],
    target_type: 'policy',
    target_id: document.id,
    note: '',
  });

  await seed('POST', `${P}/contact-us`, { subject: 'Probe subject', message: 'Probe message' });
  await seed('POST', `${P}/admin/user-requests`, { email: 'probe-request@example.test' });
  await db.insert(notifications).values({ userId: superadminId, projectId, message: 'Probe notice' });

  for (const [key, table] of Object.entries(RECORD_TABLES)) {
    const scoped = await db.execute<{ n: string }>(
      sql`select count(*)::text as n from information_schema.columns where table_schema = 'public' and table_name = ${table} and column_name = 'project_id'`,
    );
    const where = scoped.rows[0]?.n === '1' ? `where project_id = ${projectId}` : '';
    const found = await db.execute<{ id: number | null }>(sql.raw(`select min(id) as id from "${table}" ${where}`));
    const id = found.rows[0]?.id;
    if (id !== null && id !== undefined) recordIds[key] = String(id);
  }
}

beforeAll(async () => {
  const { db } = t.db.handle;
  projectId = (await createProject(db, { activeApps: [...APP_CODES] })).id;
  const member = await createUser(db);
  memberId = member.id;
  await addMember(db, projectId, memberId, 'simple');
  for (const [app, role] of [
    ['policy_management', 'author'],
    ['monitoring', 'page_owner'],
    ['chart_review', 'reviewer'],
  ] as const) {
    await setMainRole(db, projectId, memberId, app, role);
  }
  await setStandardsRole(db, projectId, memberId, 'contributor');
  const root = await createUser(db, { role: 'superadmin' });
  superadminId = root.id;
  superadminUser = root;
  superadmin = await t.signedIn(root);
  await seedRecords();
}, 60_000);

/** Signs the superadmin back in when a call ended the session; whether it had to. */
async function keepSignedIn(res: LightMyRequestResponse): Promise<boolean> {
  if (res.statusCode !== 401 && res.statusCode >= 300) return false;
  const me = await superadmin.get('/api/user');
  if (me.statusCode !== 401) return false;
  superadmin = await t.signedIn(superadminUser);
  return true;
}

describe('integers beyond PostgreSQL integer', () => {
  it('answers every integer input out of range below 500, and a refused write changes nothing', async () => {
    const startedAt = Date.now();
    const failures: string[] = [];
    const statuses: Record<number, number> = {};
    const counts = { routes: 0, calls: 0, path: 0, query: 0, body: 0, unchangedChecks: 0 };
    let before: Map<string, string> | null = null;
    for (const route of routes()) {
      const calls = callsOf(route);
      if (calls.length === 0) continue;
      counts.routes++;
      const writes = STATE_CHANGING.has(route.method);
      for (const call of calls) {
        if (writes) before ??= await fingerprint();
        else before = null;
        const res = await superadmin.request({
          method: call.method,
          url: call.url,
          ...(call.payload === undefined ? {} : { payload: call.payload as object }),
          ...(call.stream ? { payloadAsStream: true } : {}),
        });
        if (call.stream) res.stream().destroy();
        counts.calls++;
        counts[call.input.split(' ')[0] as 'path' | 'query' | 'body']++;
        statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
        const where = `${call.method} ${call.url} [${call.input}]`;
        if (res.statusCode >= 500) failures.push(`${where}: ${res.statusCode} ${res.body?.slice(0, 160)}`);
        if (writes) {
          const after = await fingerprint();
          if (res.statusCode >= 400) {
            counts.unchangedChecks++;
            const changed = changedTables(before as Map<string, string>, after);
            if (changed.length)
              failures.push(`${where}: refused with ${res.statusCode} but changed ${changed.join(', ')}`);
          }
          before = after;
        }
        // A sign-in writes more than the volatile tables: the next write takes a fresh fingerprint.
        if (await keepSignedIn(res)) before = null;
      }
    }
    const seeded = `${Object.keys(recordIds).length}/${Object.keys(RECORD_TABLES).length}`;
    console.log(`number ranges: ${JSON.stringify({ ...counts, seeded, statuses, ms: Date.now() - startedAt })}`);
    expect(failures).toEqual([]);
    expect(counts.routes).toBeGreaterThan(250);
    expect(counts.body).toBeGreaterThan(100);
    expect(counts.query).toBeGreaterThan(10);
    // The record kinds seedRecords makes: without them, calls would stop at a missing record before the input counts.
    expect(Object.keys(recordIds).length).toBeGreaterThanOrEqual(30);
  }, 120_000);
});
