// SQL injection through every filter and search parameter (issue: "SQL injection attempts in every filter and search
// parameter change nothing and leak nothing"). The routes and their string query parameters are read from the
// server's own route table (the OpenAPI document @fastify/swagger builds from every route's zod schema), never from a
// hand list. Each parameter gets a fixed list of classic attacks and fast-check strings (fixed seed), called as the
// administrator of a seeded project (a superadmin for /super routes). Every answer must be below 500, must not carry
// anything of a second project (whose names all hold a marker), nor a password hash or a database error, and the
// database must be exactly as it was (every table's row count and the MD5 of its rows, before and after).

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Agent } from '../../test/agent.js';
import { useTestApp } from '../../test/app.js';
import { createTool, programInput, question } from '../../test/chart-review-kit.js';
import { changedTables, tableFingerprint } from '../../test/db-fingerprint.js';
import { addMember, createProject, createUser, setMainRole } from '../../test/factories.js';
import { addDataset, addMeasure } from '../../test/monitoring-data-kit.js';
import { insertPage } from '../../test/monitoring-kit.js';
import { createAssessment, importFramework, setStandardsRole } from '../../test/standards-kit.js';

const ctx = useTestApp();
const MARKER = 'Zqxmarker';
const APPS = ['standards', 'policy_management', 'monitoring', 'chart_review'];
/** fast-check runs per free-text parameter, and per enum or pattern parameter. */
const RUNS_PER_PARAM = 20;
const RUNS_PER_CONSTRAINED_PARAM = 5;
/** The classic attacks sent to an enum or pattern parameter (all of them go to free-text ones). */
const CONSTRAINED_ATTACKS = 10;

/**
 * Tables a read may legitimately change: sessions (last seen), sign-in and rate-limit bookkeeping, and the audit trail
 * (some reads are audited, e.g. CSV exports). Everything else must stay byte for byte the same.
 */
const VOLATILE = /^(sessions|login_attempts|rate_limit.*|audit_events|audit_.*|captcha_solutions|mon_series)$/;
// mon_series is the cache of computed control-chart series: reading a measure's series fills it.

const ATTACKS = [
  "' OR 1=1 --",
  "' OR '1'='1",
  '" OR ""="',
  "'; DROP TABLE users; --",
  "1'; UPDATE users SET role='superadmin'; --",
  "%' UNION SELECT password_hash FROM users --",
  "' UNION SELECT null, password_hash, email FROM users --",
  "') OR ('a'='a",
  '1 OR 1=1',
  '1; SELECT pg_sleep(5)',
  "' AND (SELECT pg_sleep(5)) IS NULL --",
  '$$; DROP TABLE projects; $$',
  '\\',
  "\\'",
  "\\'; DELETE FROM projects; --",
  "'\u0000' OR 1=1",
  '\u0000',
  'a\u0000b',
  '\u2019 OR 1=1 --', // right single quotation mark
  '\u02bc OR \u02bc1\u02bc=\u02bc1', // modifier letter apostrophe
  '\uff07 OR 1=1 --', // fullwidth apostrophe
  '%',
  '_',
  '%%%%_%%%%',
  '\\%',
  '[a-z]*',
  '.*',
  '(a+)+$',
  '^$|()',
  '{1,}',
  "' || (SELECT string_agg(name, ',') FROM projects) || '",
  '"; --',
  '--',
  '/*',
  '*/ OR 1=1 /*',
  '\ud800', // a lone surrogate
  '\ud83d\ude00',
  '<script>alert(1)</script>',
  'x'.repeat(10_000),
  "'".repeat(2000),
];

const fuzz = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc
    .tuple(
      fc.constantFrom("'", '"', '%', '\\', '--', ';', '\u0000', ')'),
      fc.string(),
      fc.constantFrom('--', '', "'", '/*'),
    )
    .map(([a, b, c]) => `${a}${b}${c}`),
  fc.constantFrom(...ATTACKS).chain((attack) => fc.string().map((tail) => `${attack}${tail}`)),
);

interface Seeded {
  id: number;
  admin: Agent;
  ids: Record<string, number>;
}

/** A project with every app on, its administrator, and one thing of each kind, all named with `label`. */
async function seedProject(label: string): Promise<Seeded> {
  const db = ctx.db.handle.db;
  const project = await createProject(db, { name: `${label} Clinic`, activeApps: APPS });
  const user = await createUser(db, {
    firstName: label,
    lastName: 'Admin',
    email: `${label.toLowerCase()}@example.test`,
  });
  await addMember(db, project.id, user.id, 'admin');
  await setMainRole(db, project.id, user.id, 'policy_management', 'policy_admin');
  await setMainRole(db, project.id, user.id, 'monitoring', 'monitoring_admin');
  await setMainRole(db, project.id, user.id, 'chart_review', 'chart_review_admin');
  await setStandardsRole(db, project.id, user.id, 'standards_admin');
  const admin = await ctx.signedIn(user);
  const base = `/api/projects/${project.id}`;

  const doc = await admin.post(`${base}/policy-management/documents`, {
    title: `${label} hand hygiene policy`,
    content: `<p>${label} washes hands</p>`,
  });
  expect(doc.statusCode, doc.body).toBe(201);

  const page = await insertPage(db, project.id, { title: `${label} falls page` });
  const dataset = await addDataset(db, project.id, { name: `${label} falls census` });
  const measure = await addMeasure(db, project.id, page.id, dataset.id, { name: `${label} falls measure` });

  const tool = await createTool(admin, `${base}/chart-review`, `${label} falls tool`, [question('fall_risk')]);
  const program = await admin.post(
    `${base}/chart-review/programs`,
    programInput(tool.id, { name: `${label} programme` }),
  );
  expect(program.statusCode, program.body).toBe(201);

  const { framework } = await importFramework(db, admin, `${base}/standards`, {
    code: `${label.toUpperCase()}-QS`,
    name: `${label} standards`,
  });
  const assessment = await createAssessment(db, admin, `${base}/standards`, framework.id, {
    name: `${label} assessment`,
  });

  const contact = await admin.post(`${base}/contact-us`, {
    subject: `${label} subject`,
    message: `${label} message body`,
  });
  expect(contact.statusCode, contact.body).toBeLessThan(300);

  return {
    id: project.id,
    admin,
    ids: {
      projectId: project.id,
      documentId: (doc.json() as { id: number }).id,
      measureId: measure.id,
      programId: (program.json() as { id: number }).id,
      id: assessment.id,
      sampleId: 1,
    },
  };
}

const fingerprint = () => tableFingerprint(ctx.db.handle.db, (name) => VOLATILE.test(name));

interface Target {
  path: string;
  param: string;
  superadmin: boolean;
  /** An enum or a pattern: the schema refuses anything else, so fewer attempts prove it. */
  constrained: boolean;
}

/** GET routes with string-typed query parameters, from the server's OpenAPI document. */
function targets(): Target[] {
  const doc = (ctx.app as unknown as { swagger(): { paths: Record<string, Record<string, unknown>> } }).swagger();
  const found: Target[] = [];
  for (const [path, operations] of Object.entries(doc.paths)) {
    const get = operations.get as
      | { parameters?: { in: string; name: string; schema?: { type?: string; enum?: unknown; pattern?: unknown } }[] }
      | undefined;
    if (!get || path.includes('/stream')) continue;
    for (const parameter of get.parameters ?? []) {
      if (parameter.in !== 'query' || parameter.schema?.type !== 'string') continue;
      found.push({
        path,
        param: parameter.name,
        superadmin: path.startsWith('/super') || path.startsWith('/api/super'),
        constrained: parameter.schema.enum !== undefined || parameter.schema.pattern !== undefined,
      });
    }
  }
  return found;
}

const LEAKS: [string, RegExp][] = [
  ['the other project', new RegExp(MARKER, 'i')],
  ['a password hash', /\$argon2|password_hash|passwordHash/i],
  [
    'a database error',
    /syntax error|unterminated|invalid input syntax|invalid byte sequence|SQLSTATE|pg_catalog|relation "|at character \d/i,
  ],
];

describe('SQL injection in query parameters', () => {
  let a: Seeded;
  let superadmin: Agent;
  let before: Map<string, string>;
  let list: Target[];
  let attempts = 0;
  const startedAt = Date.now();

  beforeAll(async () => {
    a = await seedProject('North');
    await seedProject(MARKER);
    const db = ctx.db.handle.db;
    const root = await createUser(db, { firstName: 'Sam', lastName: 'Super', role: 'superadmin' });
    superadmin = await ctx.signedIn(root);
    list = targets();
    before = await fingerprint();
  }, 60_000);

  afterAll(() => {
    if (!list) return;
    console.info(
      `sql-injection: ${list.length} string query parameters (${list.filter((t) => !t.constrained).length} free text) on ` +
        `${new Set(list.map((t) => t.path)).size} GET routes, ${attempts} attempts in ${Date.now() - startedAt} ms`,
    );
  });

  it('finds the filter and search parameters in the route table', () => {
    const names = list.map((t) => `${t.path}?${t.param}`);
    // The known search boxes must be among them (a regression in the enumeration would otherwise pass vacuously).
    expect(names).toEqual(
      expect.arrayContaining([
        '/api/projects/{projectId}/policy-management/search?q',
        '/api/projects/{projectId}/policy-management/documents?text',
        '/api/projects/{projectId}/standards/elements?search',
        '/super/users?q',
        '/super/projects?q',
        '/super/email-logs?q',
      ]),
    );
    expect(list.length).toBeGreaterThanOrEqual(30);
  });

  async function attack(target: Target, value: string) {
    attempts++;
    const url = target.path.replace(/\{(\w+)\}/g, (_, name: string) =>
      name === 'app' ? 'monitoring' : String(a.ids[name] ?? 1),
    );
    const agent = target.superadmin ? superadmin : a.admin;
    const res = await agent.request({ method: 'GET', url, query: { [target.param]: value } });
    const where = `GET ${url}?${target.param}=${JSON.stringify(value.slice(0, 80))}`;
    expect(res.statusCode, `${where} -> ${res.statusCode} ${res.body.slice(0, 300)}`).toBeLessThan(500);
    for (const [what, pattern] of LEAKS) {
      // Superadmin lists span every project by design: there only hashes and database errors count as leaks.
      if (target.superadmin && what === 'the other project') continue;
      expect(pattern.test(res.body), `${where} leaks ${what}: ${res.body.slice(0, 300)}`).toBe(false);
    }
  }

  it('answers every classic attack below 500 and leaks nothing', async () => {
    for (const target of list) {
      for (const value of target.constrained ? ATTACKS.slice(0, CONSTRAINED_ATTACKS) : ATTACKS)
        await attack(target, value);
    }
  }, 60_000);

  it('answers fast-check strings below 500 and leaks nothing (fixed seed)', async () => {
    for (const [index, target] of list.entries()) {
      await fc.assert(
        fc.asyncProperty(fuzz, (value) => attack(target, value)),
        {
          numRuns: target.constrained ? RUNS_PER_CONSTRAINED_PARAM : RUNS_PER_PARAM,
          seed: 20_240_102 + index,
          endOnFailure: true,
        },
      );
    }
  }, 60_000);

  it('changed nothing in the database', async () => {
    const after = await fingerprint();
    expect(changedTables(before, after)).toEqual([]);
    expect(after.size).toBeGreaterThan(50);
  });
});
