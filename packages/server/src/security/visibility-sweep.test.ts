import { DEFAULT_CLAIMS } from '@portal/shared';
import type { LightMyRequestResponse, RouteOptions } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Agent } from '../../test/agent.js';
import { useTestApp } from '../../test/app.js';
import { sampleFromSchema } from '../../test/schema-sample.js';
import {
  agentsOf,
  hiddenFrom,
  holds,
  MARKER_KINDS,
  MARKER_PREFIX,
  type Marker,
  type MarkerKind,
  OBSERVER_ROLES,
  OBSERVERS,
  type Observer,
  pdfTexts,
  type SweepSeed,
  visibilitySweepSeed,
} from '../../test/visibility-sweep-kit.js';

/**
 * The visibility sweep (issue 26). One project holds one record of every kind the code hides from some of its
 * members (a restricted monitoring page with its child, measures, chart and insight; draft and archived pages, a
 * draft page's measure and every hidden page's manual number; a draft insight; someone else's data request;
 * never-published policies, typed, uploaded from Word and generated; a published policy's new draft; encrypted
 * encounter references; a blind second review), each named with a unique marker (test/visibility-sweep-kit.ts), and
 * linked to everything it can be linked to (standards elements, findings and their plans, a chart review programme
 * and finding that follow the restricted measure).
 * Every GET route the server registers is then called as each observer - a member who may not see those records -
 * with every real id of the project in its path (hidden and visible records alike, read from the database after the
 * seed, never made up) and the markers in its searches; an answer (body, headers, CSV, PDF text) that holds a
 * marker is a leak. The same sweep as the project's administrator (every top role) must meet every marker, and must
 * get a 2xx from every route it calls with real ids, and each observer must reach the screens its roles open, so a
 * seed that silently failed, ids that match nothing or a session that ended fail the test instead of passing it.
 * Emails sent to the observers are read too. VSWEEP_DEBUG and VSWEEP_TIMING help when it fails.
 */
const t = useTestApp({ env: { ASSIST_URL: 'http://127.0.0.1:9/v1' } });

/** Routes the server gets from plugins (API docs, the web build): no data of ours. */
const PLUGIN_ROUTE = /^\/api\/docs(\/|$)|^\/\*$|^\/assets\//;
/** The live notifications stream never ends. */
const STREAMS = new Set(['/api/notifications/stream']);
/** Query choices that change how an answer is drawn, not which records it holds. */
const LAYOUT_CHOICES = new Set(['chart', 'rule_profile', 'paper']);
/** Free-text query parameters: given the markers' common word, and each page number. */
const SEARCHES = new Set(['search', 'q', 'text']);
/** VSWEEP_DEBUG=<regex over "actor url">: prints the matching answers. */
const DEBUG = process.env.VSWEEP_DEBUG ? new RegExp(process.env.VSWEEP_DEBUG) : null;
/** Calls in flight at once (app.inject, one process; the database does the waiting). */
const CONCURRENCY = 4;
/**
 * Routes the administrator's sweep may call without a 2xx, and why. Anything else that answers the administrator
 * (and the superadmin) nothing but errors means its ids or parameters are wrong: the observers' calls would prove
 * nothing.
 */
const NO_2XX_EXPECTED: Record<string, string> = {
  '/api/projects/:projectId/logo': 'the project has no logo (404); a logo holds no record of the sweep',
  '/auth/oidc/:slug/login': 'a single sign-on starts with a redirect (302) to the provider or the sign-in page',
  '/auth/oidc/:slug/callback': 'a single sign-on ends with a redirect (302); the sweep has no provider to sign in at',
  '/auth/saml/:slug/login': 'a SAML sign-in starts with a redirect (302) to the provider or the sign-in page',
  '/auth/saml/:slug/slo': 'single logout answers with a redirect (302) to the provider or the sign-in page',
  '/auth/saml/:slug/metadata': 'the sweep’s provider is OpenID Connect: no SAML metadata (404); metadata is public',
};
/** The superadmin's calls (the console's API): swept as the superadmin, not as the project's administrator. */
const isSuperRoute = (url: string) => url.startsWith('/super/');

type Route = RouteOptions & { method: string; url: string };
interface Call {
  route: string;
  url: string;
}

let seed: SweepSeed;
let agents: Record<string, Agent>;
/** Real ids of the project by kind, read from the database after the seed. */
const ids = new Map<string, string[]>();
/** Version ids of each policy document (the compare call pairs versions of one document). */
const versionsOf = new Map<string, string[]>();
/** Link targets by type (the links call pairs a type with ids of that type). */
const targetsOf = new Map<string, string[]>();

/**
 * Routes no session reaches (SCIM, authenticated by a provider's bearer token: every session gets 401); that a token
 * sees only its own provider's people is proved in modules/identity/scim.test.ts.
 */
const isBearerRoute = (r: Route) => r.config?.bearerToken === true;
const getRoutes = () =>
  (t.app.routeTable as Route[]).filter(
    (r) => r.method === 'GET' && !PLUGIN_ROUTE.test(r.url) && !STREAMS.has(r.url) && !isBearerRoute(r),
  );

function jsonSchemaOf(schema: unknown): Record<string, unknown> | null {
  if (!schema) return null;
  try {
    return z.toJSONSchema(schema as z.ZodType, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  } catch {
    return null;
  }
}

async function column(sql: string, ...params: unknown[]): Promise<string[]> {
  const rows = await t.db.handle.pool.query(sql, params);
  return rows.rows.map((row: { id: number | string }) => String(row.id));
}

/** Reads every id of the project, by kind, as the database holds them now. */
async function loadIds() {
  const p = seed.projectId;
  const ofProject = (table: string) => column(`select id from ${table} where project_id = $1 order by id`, p);
  const kinds: Record<string, Promise<string[]>> = {
    projectId: Promise.resolve([String(p)]),
    documentId: ofProject('policy_documents'),
    // Stable links name a policy by its number.
    number: column(
      'select distinct number as id from policy_documents where project_id = $1 and number is not null order by 1',
      p,
    ),
    policyVersion: ofProject('policy_versions'),
    fileId: ofProject('stored_files'),
    departmentId: ofProject('policy_departments'),
    pageId: ofProject('mon_pages'),
    insightId: ofProject('mon_insights'),
    requestId: ofProject('mon_requests'),
    datasetId: ofProject('mon_datasets'),
    importId: ofProject('mon_imports'),
    measureId: ofProject('mon_measures'),
    chartId: ofProject('mon_charts'),
    toolId: ofProject('cr_tools'),
    crToolVersion: ofProject('cr_tool_versions'),
    crQuestion: ofProject('cr_questions'),
    programId: ofProject('cr_programs'),
    sampleId: ofProject('cr_samples'),
    assignmentId: ofProject('cr_assignments'),
    pairId: ofProject('cr_irr_pairs'),
    findingId: ofProject('cr_findings'),
    'std:assessments': ofProject('std_assessments'),
    'std:req-assessments': ofProject('std_req_assessments'),
    'std:findings': ofProject('std_findings'),
    'std:tracers': ofProject('std_tracers'),
    'std:evidence': ofProject('std_evidence'),
    // The binder of each chapter (everything below it) and of each element with links (the element alone).
    stdNode: column(
      `select distinct n.id from std_nodes n join std_assessments a on a.framework_id = n.framework_id
       where a.project_id = $1
         and (n.parent_id is null or n.id in (select node_id from trace_links where project_id = $1))
       order by n.id`,
      p,
    ),
    templateId: column(
      'select id from pg_templates where project_id = $1 or project_id is null order by project_id nulls last, id limit 3',
      p,
    ),
    pgTemplateVersion: column(
      'select id from pg_template_versions where project_id = $1 or project_id is null order by project_id nulls last, id limit 3',
      p,
    ),
    generationId: ofProject('pg_generations'),
    userId: column('select user_id as id from project_memberships where project_id = $1 order by user_id', p),
    emailId: column('select id from email_log order by project_id = $1 desc nulls last, id limit 3', p),
    termsVersion: column('select id from terms_versions order by id limit 3'),
    slug: column('select slug as id from identity_providers order by id'),
    identityProvider: column('select id from identity_providers order by id'),
    userImportId: column('select id from user_imports order by id'),
  };
  for (const [kind, rows] of Object.entries(kinds)) ids.set(kind, await rows);
  const versions = await t.db.handle.pool.query(
    'select document_id, id from policy_versions where project_id = $1 order by id',
    [p],
  );
  for (const row of versions.rows as { document_id: number; id: number }[]) {
    const list = versionsOf.get(String(row.document_id)) ?? [];
    list.push(String(row.id));
    versionsOf.set(String(row.document_id), list);
  }
  targetsOf.set('policy', ids.get('documentId')!);
  targetsOf.set('measure', ids.get('measureId')!);
  targetsOf.set('cr_program', ids.get('programId')!);
  targetsOf.set('cr_question', ids.get('crQuestion')!);
}

/** The kind of record a path parameter names, from its name and where it sits. */
function kindOf(param: string, url: string): string {
  if (param === 'id') {
    const under = /\/standards\/([a-z-]+)\/:id/.exec(url);
    if (under) return `std:${under[1]}`;
    if (url.startsWith('/super/identity-providers/:id/')) return 'identityProvider';
  }
  if (param === 'versionId') {
    if (url.includes('/policy-management/')) return 'policyVersion';
    if (url.includes('/chart-review/')) return 'crToolVersion';
    if (url.includes('/policy-generator/')) return 'pgTemplateVersion';
    if (url.startsWith('/super/terms/')) return 'termsVersion';
  }
  if (ids.has(param)) return param;
  throw new Error(`The sweep has no ids for :${param} of ${url}: add its kind to loadIds and kindOf.`);
}

const product = <T>(lists: T[][]): T[][] =>
  lists.reduce<T[][]>((acc, list) => acc.flatMap((chosen) => list.map((value) => [...chosen, value])), [[]]);

/** Query variants: each a list of [name, value] pairs. */
function queryVariants(route: Route, params: Record<string, string>, markers: Marker[]): [string, string][][] {
  const schema = jsonSchemaOf(route.schema?.querystring);
  const props = (schema?.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = new Set((schema?.required ?? []) as string[]);
  // Each dimension: the choices of one parameter (or of a pair that goes together); [] means leave it out.
  const dimensions: [string, string][][][] = [];
  let search: string | null = null;
  const names = Object.keys(props);
  if (route.url.endsWith('/compare')) {
    const versions = versionsOf.get(params.documentId ?? '') ?? [];
    const pairs = versions.flatMap((from) =>
      versions.map((to): [string, string][] => [
        ['from', from],
        ['to', to],
      ]),
    );
    dimensions.push(pairs.length ? pairs : [[]]);
  } else if (route.url.endsWith('/standards/links')) {
    dimensions.push(
      [...targetsOf].flatMap(([type, list]) =>
        list.map((id): [string, string][] => [
          ['target_type', type],
          ['target_id', id],
        ]),
      ),
    );
  }
  for (const name of names) {
    if (dimensions.some((d) => d.some((choice) => choice.some(([n]) => n === name)))) continue;
    const prop = props[name]!;
    const optional = required.has(name) ? [] : [[]];
    const values = (list: string[]) => [...optional, ...list.map((v): [string, string][] => [[name, v]])];
    if (name === 'project') dimensions.push([[[name, String(seed.projectId)]]]);
    else if (name === 'department_id') dimensions.push(values(ids.get('departmentId')!));
    else if (name === 'program') dimensions.push(values(ids.get('programId')!));
    else if (name === 'node') dimensions.push(values(ids.get('stdNode')!));
    else if (name === 'period') dimensions.push(values(seed.periods));
    else if (name === 'reason') dimensions.push([[[name, 'Visibility sweep']]]);
    else if (SEARCHES.has(name)) search = name;
    else if (Array.isArray(prop.enum) && !LAYOUT_CHOICES.has(name)) dimensions.push(values(prop.enum.map(String)));
    else if (required.has(name)) dimensions.push([[[name, String(sampleFromSchema(prop))]]]);
  }
  // The first choice of every parameter, then each other choice of one parameter at a time (filters narrow an answer
  // one by one: a record one filter lets through is met that way).
  const first = dimensions.map((choices) => choices[0]!);
  const variants = [
    first.flat(),
    ...dimensions.flatMap((choices, d) =>
      choices.slice(1).map((choice) => first.flatMap((chosen, i) => (i === d ? choice : chosen))),
    ),
  ];
  if (search === null) return variants;
  const name = search;
  // Every choice without a search and with the markers' common word (the first word of every marker but the page
  // numbers: as a substring and as a full-text word it finds them all); the page numbers with the first choice.
  return [
    ...variants,
    ...variants.map((v): [string, string][] => [...v, [name, MARKER_PREFIX]]),
    ...markers.filter((m) => m.pattern).map((m): [string, string][] => [...variants[0]!, [name, m.text]]),
  ];
}

/** Every call of a route: its path filled with each real id of each parameter's kind, times its query variants. */
function callsOf(route: Route, markers: Marker[]): Call[] {
  const names = [...route.url.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]!);
  const pathSchema = jsonSchemaOf(route.schema?.params);
  const props = (pathSchema?.properties ?? {}) as Record<string, Record<string, unknown>>;
  const choices = names.map((name) => {
    const choice = props[name]?.enum;
    return Array.isArray(choice) ? choice.map(String) : ids.get(kindOf(name, route.url))!;
  });
  const calls: Call[] = [];
  for (const values of product(choices)) {
    const params = Object.fromEntries(names.map((name, i) => [name, values[i]!]));
    const path = route.url.replace(/:([A-Za-z]+)/g, (_m, name: string) => params[name]!);
    for (const query of queryVariants(route, params, markers)) {
      const qs = new URLSearchParams(query).toString();
      calls.push({ route: route.url, url: qs ? `${path}?${qs}` : path });
    }
  }
  return calls;
}

/** Everything of an answer a marker could be in, lower case. */
function textOf(res: LightMyRequestResponse): string {
  const raw = res.rawPayload;
  const parts = [raw.toString('utf8'), JSON.stringify(res.headers)];
  if (raw.subarray(0, 5).toString('latin1') === '%PDF-' || String(res.headers['content-type']).includes('pdf')) {
    parts.push(pdfTexts(raw));
  }
  return parts.join('\n').toLowerCase();
}

async function pool<T>(items: T[], worker: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < items.length) await worker(items[next++]!);
    }),
  );
}

/**
 * Screens each observer's roles open (a 2xx expected): proves the observer was signed in and reached the views that
 * show linked records, so a sweep of refusals cannot pass for a sweep of answers.
 */
const P = '/api/projects/:projectId';
const REACHES: Record<Observer, string[]> = {
  reader: [
    `${P}/monitoring/pages`,
    `${P}/policy-management/documents`,
    `${P}/chart-review/dashboard`,
    `${P}/standards/req-assessments/:id`,
    `${P}/standards/assessments/:id/binder.pdf`,
  ],
  policyReviewer: [
    `${P}/policy-management/documents`,
    `${P}/monitoring/requests`,
    `${P}/standards/my`,
    `${P}/standards/req-assessments/:id`,
  ],
  crLead: [
    `${P}/chart-review/programs/:programId`,
    `${P}/chart-review/samples/:sampleId`,
    `${P}/chart-review/assignments/:assignmentId`,
    `${P}/chart-review/findings/:findingId`,
    `${P}/standards/req-assessments/:id`,
  ],
  crReviewer: [
    `${P}/chart-review/me/assignments`,
    `${P}/chart-review/assignments/:assignmentId`,
    `${P}/standards/req-assessments/:id`,
  ],
  pageOwner: [
    `${P}/monitoring/pages`,
    `${P}/monitoring/pages/:pageId`,
    `${P}/monitoring/measures/:measureId`,
    `${P}/standards/req-assessments/:id`,
  ],
  projectAdmin: [
    `${P}/admin/dashboard`,
    `${P}/admin/members/:userId`,
    `${P}/standards/req-assessments/:id`,
    `${P}/standards/assessments/:id/binder.pdf`,
  ],
  standardsOnly: [
    `${P}/standards/req-assessments/:id`,
    `${P}/standards/link-targets`,
    `${P}/standards/findings/:id`,
    `${P}/standards/assessments/:id/binder.pdf`,
  ],
};

/** Time spent per route (ms), for VSWEEP_TIMING. */
const timing = new Map<string, number>();

interface Sweep {
  calls: number;
  /** actor -> route -> answers counted by 2xx and errors */
  outcomes: Map<string, { ok: number; other: number; statuses: Set<number> }>;
  /** marker kind -> actor -> route -> first url */
  found: Map<MarkerKind, Map<string, Map<string, string>>>;
  errors: string[];
}

/** Calls every GET route as each actor, recording which markers each answer holds. */
async function sweep(actors: string[], filter: (route: Route) => boolean = () => true): Promise<Sweep> {
  const markers = Object.values(seed.markers);
  const result: Sweep = { calls: 0, outcomes: new Map(), found: new Map(), errors: [] };
  const calls = getRoutes()
    .filter(filter)
    .flatMap((route) => callsOf(route, markers));
  const tasks = actors.flatMap((actor) => calls.map((call) => ({ actor, call })));
  await pool(tasks, async ({ actor, call }) => {
    const before = performance.now();
    const res = await agents[actor]!.get(call.url);
    timing.set(call.route, (timing.get(call.route) ?? 0) + performance.now() - before);
    result.calls++;
    const key = `${actor} ${call.route}`;
    const outcome = result.outcomes.get(key) ?? { ok: 0, other: 0, statuses: new Set<number>() };
    if (res.statusCode >= 200 && res.statusCode < 300) outcome.ok++;
    else outcome.other++;
    outcome.statuses.add(res.statusCode);
    result.outcomes.set(key, outcome);
    if (res.statusCode >= 500 && res.statusCode !== 503) {
      result.errors.push(`${actor}: GET ${call.url} answered ${res.statusCode} ${res.body.slice(0, 200)}`);
    }
    if (DEBUG?.test(`${actor} ${call.url}`))
      console.info(`${actor} GET ${call.url} -> ${res.statusCode} ${res.body.slice(0, 2000)}`);
    const text = textOf(res);
    for (const marker of markers) {
      if (!holds(text, marker)) continue;
      const byActor = result.found.get(marker.kind) ?? new Map<string, Map<string, string>>();
      const byRoute = byActor.get(actor) ?? new Map<string, string>();
      if (!byRoute.has(call.route)) byRoute.set(call.route, `${call.url} (${res.statusCode})`);
      byActor.set(actor, byRoute);
      result.found.set(marker.kind, byActor);
    }
  });
  return result;
}

beforeAll(async () => {
  const started = performance.now();
  seed = await visibilitySweepSeed(t);
  // An identity provider for the single sign-on routes' :slug; its issuer answers nothing (discovery fails at once).
  await t.db.handle.pool.query(
    `insert into identity_providers (slug, name, kind, claims, issuer, client_id, scopes)
     values ('sweep-sso', 'Sweep SSO', 'oidc', $1::jsonb, 'http://127.0.0.1:9', 'sweep', 'openid')`,
    [JSON.stringify(DEFAULT_CLAIMS)],
  );
  // A CSV import of people, for its progress route's :userImportId (an import holds no project's records).
  await t.db.handle.pool.query('insert into user_imports (total) values (0)');
  agents = await agentsOf(t, seed);
  await loadIds();
  console.info(`visibility sweep: seeded in ${(performance.now() - started).toFixed(0)} ms`);
}, 120_000);

describe('visibility sweep', () => {
  it('reads real ids of every kind a route names', () => {
    const empty = getRoutes()
      .flatMap((route) => [...route.url.matchAll(/:([A-Za-z]+)/g)].map((m) => [route.url, m[1]!] as const))
      .filter(([url, name]) => {
        const props = (jsonSchemaOf(getRoutes().find((r) => r.url === url)!.schema?.params)?.properties ??
          {}) as Record<string, Record<string, unknown>>;
        return !Array.isArray(props[name]?.enum) && ids.get(kindOf(name, url))!.length === 0;
      })
      .map(([url, name]) => `${url} :${name}`);
    expect(empty).toEqual([]);
    // The seed's hidden records are among the ids the observers are given.
    const r = seed.records;
    expect(ids.get('pageId')).toEqual(expect.arrayContaining([r.restricted, r.child, r.draftPage].map(String)));
    expect(ids.get('measureId')).toContain(String(r.restrictedMeasure.id));
    expect(ids.get('programId')).toContain(String(r.program.id));
    expect(ids.get('sampleId')).toContain(String(r.sample.sampleId));
  });

  it('shows every marked record to the administrator (every top role), and every route answers a 2xx', async () => {
    const started = performance.now();
    const admin = await sweep(['admin']);
    const superadmin = await sweep(['superadmin'], (route) => isSuperRoute(route.url));
    const ms = performance.now() - started;
    console.info(`visibility sweep, positive control: ${admin.calls + superadmin.calls} calls in ${ms.toFixed(0)} ms`);
    const seen = MARKER_KINDS.map((kind) => {
      const routes = [...(admin.found.get(kind)?.get('admin')?.keys() ?? [])];
      return `${kind}: ${routes.length ? `seen on ${routes.length} routes: ${routes.join(', ')}` : 'NEVER SEEN'}`;
    });
    console.info(`markers the administrator sees:\n  ${seen.join('\n  ')}`);
    expect(seen.filter((line) => line.endsWith('NEVER SEEN'))).toEqual([]);

    const silent: string[] = [];
    for (const route of getRoutes()) {
      const outcome =
        admin.outcomes.get(`admin ${route.url}`) ??
        superadmin.outcomes.get(`superadmin ${route.url}`) ??
        ({ ok: 0, other: 0, statuses: new Set<number>() } as const);
      if (isSuperRoute(route.url)) {
        const s = superadmin.outcomes.get(`superadmin ${route.url}`);
        if (s?.ok) continue;
      } else if (outcome.ok) continue;
      if (NO_2XX_EXPECTED[route.url]) continue;
      silent.push(`${route.url}: ${outcome.ok + outcome.other} calls, answers ${[...outcome.statuses].join(', ')}`);
    }
    expect(silent, 'routes that answered the administrator no 2xx: their ids or parameters prove nothing').toEqual([]);
    expect([...admin.errors, ...superadmin.errors]).toEqual([]);
  }, 300_000);

  it('shows no observer any marked record on any GET route', async () => {
    const started = performance.now();
    const result = await sweep([...OBSERVERS]);
    const ms = performance.now() - started;
    console.info(
      `visibility sweep: ${getRoutes().length} GET routes, ${OBSERVERS.length} observers, ${result.calls} calls in ${ms.toFixed(0)} ms`,
    );
    if (process.env.VSWEEP_TIMING) {
      const slow = [...timing].sort((a, b) => b[1] - a[1]).slice(0, 15);
      console.info(`slowest routes:\n  ${slow.map(([r, spent]) => `${spent.toFixed(0)} ms ${r}`).join('\n  ')}`);
    }
    const leaks: string[] = [];
    for (const kind of MARKER_KINDS) {
      const marker = seed.markers[kind];
      for (const observer of OBSERVERS as readonly Observer[]) {
        if (!hiddenFrom(observer, kind)) continue;
        for (const [route, example] of result.found.get(kind)?.get(observer) ?? []) {
          leaks.push(`${route} | ${observer} | ${kind} (${marker.what}) | e.g. GET ${example}`);
        }
      }
    }
    leaks.sort();
    // The observers were really in: signed in all along, and each read the screens their roles open.
    const unreached: string[] = [];
    for (const observer of OBSERVERS) {
      for (const [key, outcome] of result.outcomes) {
        if (key.startsWith(`${observer} `) && outcome.statuses.has(401)) unreached.push(`${key}: 401 (signed out?)`);
      }
      for (const route of REACHES[observer]) {
        if (!result.outcomes.get(`${observer} ${route}`)?.ok) unreached.push(`${observer} ${route}: no 2xx`);
      }
    }
    if (leaks.length || result.errors.length) {
      const who = OBSERVERS.map((o) => `  ${o}: ${OBSERVER_ROLES[o]}`).join('\n');
      console.info(
        `observers:\n${who}\nleaks (route | observer | marker | example):\n  ${leaks.join('\n  ')}\n` +
          `server errors:\n  ${result.errors.join('\n  ')}`,
      );
    }
    expect({ leaks, errors: result.errors, unreached }).toEqual({ leaks: [], errors: [], unreached: [] });
  }, 600_000);

  it('sent no observer an email naming a marked record', () => {
    const leaks: string[] = [];
    let read = 0;
    for (const observer of OBSERVERS) {
      const to = seed.people[observer].email;
      for (const mail of t.mailbox.sent.filter((m) => m.to === to)) {
        read++;
        const text = JSON.stringify(mail).toLowerCase();
        for (const marker of Object.values(seed.markers)) {
          if (hiddenFrom(observer, marker.kind) && holds(text, marker)) {
            leaks.push(`email "${mail.subject}" | ${observer} | ${marker.kind} (${marker.what})`);
          }
        }
      }
    }
    console.info(`visibility sweep: ${read} emails to observers read`);
    expect(leaks).toEqual([]);
  });
});
