import type { StdElement, StdElementUpdate, StdFramework, StdRole } from '@portal/shared';
import { and, asc, count, eq, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Database } from '../src/db/client.js';
import {
  auditEvents,
  crPrograms,
  crTools,
  policyDocuments,
  policySignatures,
  policyVersions,
  projects,
  stdLeads,
  stdMembers,
  stdNodes,
  stdReqAssessments,
} from '../src/db/schema/index.js';
import { STANDARDS_FORBIDDEN, STANDARDS_UNCONFIGURED } from '../src/policies/standards.js';
import type { Agent } from './agent.js';
import type { TestApp } from './app.js';
import { addMember, createProject, createUser, setMainRole } from './factories.js';
import { expectAppGuards, type GuardedCall, sendCall } from './guards-kit.js';

/**
 * Fixtures shared by the standards API tests (issue 11): a project with standards on (and policy management,
 * monitoring and chart review, for the closed-loop links), its people by standards role (rows of std_members; the
 * project admin acts as standards admin without one), a policy admin and a monitoring admin without any standards
 * role, a superadmin, and an outsider who administers another project with standards on. Most tests use the small
 * framework of KIT_CSV, imported through the API, rather than the big built-in CMS file.
 */

const APPS = ['standards', 'policy_management', 'monitoring', 'chart_review'];

export async function standardsProject(db: Database) {
  const project = await createProject(db, { name: 'North Clinic', activeApps: APPS });
  const other = await createProject(db, { name: 'South Clinic', activeApps: APPS });
  const people = {
    admin: await createUser(db, { firstName: 'Ada', lastName: 'Admin' }),
    stdAdmin: await createUser(db, { firstName: 'Stan', lastName: 'Standards' }),
    lead: await createUser(db, { firstName: 'Leo', lastName: 'Lead' }),
    owner: await createUser(db, { firstName: 'Owen', lastName: 'Owner' }),
    owner2: await createUser(db, { firstName: 'Olive', lastName: 'Second' }),
    contributor: await createUser(db, { firstName: 'Cora', lastName: 'Contributor' }),
    assessor: await createUser(db, { firstName: 'Max', lastName: 'Mock' }),
    viewer: await createUser(db, { firstName: 'Vera', lastName: 'Viewer' }),
    noRole: await createUser(db, { firstName: 'Nora', lastName: 'None' }),
    policyAdmin: await createUser(db, { firstName: 'Paula', lastName: 'Policy' }),
    monitoringAdmin: await createUser(db, { firstName: 'Mona', lastName: 'Monitor' }),
    outsider: await createUser(db, { firstName: 'Olga', lastName: 'Outside' }),
    superadmin: await createUser(db, { firstName: 'Sam', lastName: 'Super', role: 'superadmin' }),
  };
  await addMember(db, project.id, people.admin.id, 'admin');
  const roles: [keyof typeof people, StdRole | null][] = [
    ['stdAdmin', 'standards_admin'],
    ['lead', 'chapter_lead'],
    ['owner', 'owner'],
    ['owner2', 'owner'],
    ['contributor', 'contributor'],
    ['assessor', 'mock_assessor'],
    ['viewer', 'viewer'],
    ['noRole', null],
    ['policyAdmin', null],
    ['monitoringAdmin', null],
  ];
  for (const [who, role] of roles) {
    await addMember(db, project.id, people[who].id, 'simple');
    if (role) await setStandardsRole(db, project.id, people[who].id, role);
  }
  await setMainRole(db, project.id, people.policyAdmin.id, 'policy_management', 'policy_admin');
  await setMainRole(db, project.id, people.monitoringAdmin.id, 'monitoring', 'monitoring_admin');
  await addMember(db, other.id, people.outsider.id, 'admin');
  const base = `/api/projects/${project.id}/standards`;
  const otherBase = `/api/projects/${other.id}/standards`;
  return { project, other, people, base, otherBase };
}
export type StandardsProject = Awaited<ReturnType<typeof standardsProject>>;

/** Signed-in agents of some of the people (signing in is audited: sign in before taking a snapshot). */
export async function agentsOf<K extends keyof StandardsProject['people']>(
  ctx: TestApp,
  s: StandardsProject,
  who: readonly K[],
): Promise<Record<K, Agent>> {
  const agents = {} as Record<K, Agent>;
  for (const key of who) agents[key] = await ctx.signedIn(s.people[key]);
  return agents;
}

/** A standards role, stored as manage-users stores it. */
export async function setStandardsRole(db: Database, projectId: number, userId: number, role: StdRole) {
  await db
    .insert(stdMembers)
    .values({ projectId, userId, role })
    .onConflictDoUpdate({ target: [stdMembers.projectId, stdMembers.userId], set: { role } });
}

/**
 * The kit's framework: three chapters, six assessable elements (leaves), the facility's own text on some rows.
 * GOV > GOV.1 > GOV.1.1, GOV.1.2; GOV > GOV.2 > GOV.2.1; IC > IC.1 > IC.1.1, IC.1.2; OB > OB.1.
 */
export const KIT_CSV = [
  'ref_id,parent_ref_id,type,title,text',
  'GOV,,chapter,Governance,',
  'GOV.1,GOV,standard,Governing body,The governing body is responsible for the hospital.',
  'GOV.1.1,GOV.1,element,Board meets quarterly,The board meets at least once a quarter.',
  'GOV.1.2,GOV.1,element,Minutes are kept,Minutes of every board meeting are kept.',
  'GOV.2,GOV,standard,Quality programme,',
  'GOV.2.1,GOV.2,element,QAPI plan approved,The QAPI plan is approved every year.',
  'IC,,chapter,Infection control,',
  'IC.1,IC,standard,Hand hygiene,',
  'IC.1.1,IC.1,element,Hand hygiene audits,Hand hygiene is audited every month.',
  'IC.1.2,IC.1,element,Alcohol rub at every bed,',
  'OB,,chapter,Obstetrics,',
  'OB.1,OB,element,Labour ward staffing,A midwife is on the labour ward at all times.',
].join('\n');
export const KIT_ELEMENTS = ['GOV.1.1', 'GOV.1.2', 'GOV.2.1', 'IC.1.1', 'IC.1.2', 'OB.1'] as const;
export type KitRef = 'GOV' | 'GOV.1' | 'GOV.2' | 'IC' | 'IC.1' | 'OB' | (typeof KIT_ELEMENTS)[number];

/** A valid import body (the kit's framework unless `overrides` says otherwise). */
export const importInput = (overrides: Record<string, unknown> = {}) => ({
  code: 'STATE-QS',
  name: 'State quality standards',
  publisher: 'State Department of Health',
  edition: '2026',
  text_policy: 'tenant_text',
  public_url: 'https://health.example.gov/standards',
  csv: KIT_CSV,
  ...overrides,
});

/** Imports a framework through the API (as `agent`, a standards admin) and returns it with its node ids by ref_id. */
export async function importFramework(
  db: Database,
  agent: Agent,
  base: string,
  overrides: Record<string, unknown> = {},
): Promise<{ framework: StdFramework; nodes: Record<string, number> }> {
  const answer = await agent.post(`${base}/frameworks/import`, importInput(overrides));
  expect(answer.statusCode, answer.body).toBe(201);
  const framework = answer.json() as StdFramework;
  return { framework, nodes: await nodeIds(db, framework.id) };
}

export async function nodeIds(db: Database, frameworkId: number): Promise<Record<string, number>> {
  const rows = await db
    .select({ id: stdNodes.id, refId: stdNodes.refId })
    .from(stdNodes)
    .where(eq(stdNodes.frameworkId, frameworkId));
  return Object.fromEntries(rows.map((row) => [row.refId, row.id]));
}

/** A valid wizard answer for a framework. */
export const assessmentInput = (frameworkId: number, overrides: Record<string, unknown> = {}) => ({
  framework_id: frameworkId,
  name: 'Self-assessment 2026',
  kind: 'self',
  scope_note: '',
  survey_window_start: null,
  survey_window_end: null,
  not_applicable: [],
  owners: [],
  ...overrides,
});

/** Creates an assessment through the API and returns its id and its element assessments' ids by ref_id. */
export async function createAssessment(
  db: Database,
  agent: Agent,
  base: string,
  frameworkId: number,
  overrides: Record<string, unknown> = {},
): Promise<{ id: number; reqs: Record<string, number> }> {
  const answer = await agent.post(`${base}/assessments`, assessmentInput(frameworkId, overrides));
  expect(answer.statusCode, answer.body).toBe(201);
  const { id } = answer.json() as { id: number };
  return { id, reqs: await reqIds(db, id) };
}

export async function reqIds(db: Database, assessmentId: number): Promise<Record<string, number>> {
  const rows = await db
    .select({ id: stdReqAssessments.id, refId: stdNodes.refId })
    .from(stdReqAssessments)
    .innerJoin(stdNodes, eq(stdNodes.id, stdReqAssessments.nodeId))
    .where(eq(stdReqAssessments.assessmentId, assessmentId));
  return Object.fromEntries(rows.map((row) => [row.refId, row.id]));
}

/** Records a chapter lead directly (what PUT assignments with lead_id stores). */
export async function addLead(
  db: Database,
  projectId: number,
  assessmentId: number,
  nodeId: number,
  userId: number,
): Promise<void> {
  await db.insert(stdLeads).values({ projectId, assessmentId, nodeId, userId });
}

/**
 * The usual setup: the project and its people, the kit's framework imported by the project admin, and an
 * assessment of it where Owen owns GOV.1 (GOV.1.1, GOV.1.2), Cora (contributor) owns GOV.2 (GOV.2.1), and Leo
 * leads IC (IC.1.1, IC.1.2 unowned); OB.1 is unowned and unled.
 */
export async function standardsSetup(ctx: TestApp) {
  const db = ctx.db.handle.db;
  const s = await standardsProject(db);
  const admin = await ctx.signedIn(s.people.admin);
  const { framework, nodes } = await importFramework(db, admin, s.base);
  const assessment = await createAssessment(db, admin, s.base, framework.id, {
    owners: [
      { node_id: nodes['GOV.1']!, user_id: s.people.owner.id },
      { node_id: nodes['GOV.2']!, user_id: s.people.contributor.id },
    ],
  });
  await addLead(db, s.project.id, assessment.id, nodes.IC!, s.people.lead.id);
  return {
    ...s,
    admin,
    framework,
    nodes: nodes as Record<KitRef, number>,
    assessmentId: assessment.id,
    reqs: assessment.reqs as Record<(typeof KIT_ELEMENTS)[number], number>,
  };
}
export type StandardsSetup = Awaited<ReturnType<typeof standardsSetup>>;

/** Reads the element panel (200 expected). */
export async function readElement(agent: Agent, base: string, reqId: number): Promise<StdElement> {
  const answer = await agent.get(`${base}/req-assessments/${reqId}`);
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json() as StdElement;
}

/** The PUT body of an element as it stands now, with `changes`. */
export async function elementBody(
  agent: Agent,
  base: string,
  reqId: number,
  changes: Partial<StdElementUpdate> = {},
): Promise<StdElementUpdate> {
  const current = await readElement(agent, base, reqId);
  return {
    version: current.version,
    result: current.result,
    status: current.status,
    na_justification: current.na_justification,
    owner_id: current.owner?.id ?? null,
    due_date: current.due_date,
    observation: current.observation,
    ...changes,
  };
}

/** Saves an element's assessment from its current state with `changes` (reads it first as `reader`). */
export async function saveElement(
  agent: Agent,
  base: string,
  reqId: number,
  changes: Partial<StdElementUpdate>,
  reader: Agent = agent,
) {
  return agent.put(`${base}/req-assessments/${reqId}`, await elementBody(reader, base, reqId, changes));
}

// ------------------------------------------------------------------------------------------------ link targets

/**
 * A policy document inserted directly: published (version 1 current) unless `published: false` (a draft only).
 * `signatures` adds that many signatures of the current version by the given users.
 */
export async function addPolicy(
  db: Database,
  projectId: number,
  values: {
    title: string;
    number?: string | null;
    published?: boolean;
    nextReviewOn?: string | null;
    departmentId?: number | null;
    signers?: { id: number; name: string }[];
  },
) {
  const published = values.published ?? true;
  const [doc] = await db
    .insert(policyDocuments)
    .values({
      projectId,
      title: values.title,
      number: values.number ?? null,
      status: published ? 'published' : 'draft',
      departmentId: values.departmentId ?? null,
      nextReviewOn: values.nextReviewOn ?? null,
      effectiveOn: published ? '2026-01-15' : null,
    })
    .returning();
  const [version] = await db
    .insert(policyVersions)
    .values({
      projectId,
      documentId: doc!.id,
      version: 1,
      state: published ? 'published' : 'draft',
      content: `<p>${values.title}</p>`,
      effectiveOn: published ? '2026-01-15' : null,
      round: 1,
    })
    .returning();
  await db
    .update(policyDocuments)
    .set(published ? { currentVersionId: version!.id } : { draftVersionId: version!.id })
    .where(eq(policyDocuments.id, doc!.id));
  for (const signer of values.signers ?? []) {
    await db.insert(policySignatures).values({
      projectId,
      documentId: doc!.id,
      versionId: version!.id,
      round: 1,
      signerId: signer.id,
      signerName: signer.name,
      signedAt: new Date('2026-01-10T10:00:00Z'),
      contentSha256: 'a'.repeat(64),
      method: 'password',
      meaning: 'Approved',
    });
  }
  return { id: doc!.id, versionId: version!.id };
}

/** A chart review programme (and its tool) inserted directly. */
export async function addProgram(db: Database, projectId: number, name: string) {
  const [tool] = await db
    .insert(crTools)
    .values({ projectId, name: `${name} tool` })
    .returning();
  const [program] = await db
    .insert(crPrograms)
    .values({ projectId, name, toolId: tool!.id, sampling: { method: 'jc_table' } })
    .returning();
  return program!;
}

// ------------------------------------------------------------------------------------------------ snapshots

/**
 * Every row of every std_* table (those of later parts too) and of trace_links, of every project, and the number of
 * audit events: "nothing changed" compares two.
 */
export async function standardsSnapshot(db: Database) {
  const tables = await db.execute<{ name: string }>(sql`
    select table_name as name from information_schema.tables
    where table_schema = current_schema() and (table_name like 'std\\_%' or table_name = 'trace_links')
    order by table_name`);
  const snapshot: Record<string, unknown> = {};
  for (const { name } of tables.rows) {
    const rows = await db.execute(sql`select * from ${sql.identifier(name)}`);
    snapshot[name] = rows.rows.map((row) => JSON.stringify(row)).sort();
  }
  snapshot.audit = (await db.select({ n: count() }).from(auditEvents))[0]!.n;
  return snapshot;
}

/** The newest audit events of a project with a given action (newest first). */
export async function auditOf(db: Database, projectId: number, action: string) {
  return db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.projectId, projectId), eq(auditEvents.action, action)))
    .orderBy(asc(auditEvents.id));
}

// ------------------------------------------------------------------------------------------------ guards

export type { GuardedCall } from './guards-kit.js';

/** The guards of the standards calls (expectAppGuards), with its refusal messages and tables. */
export function expectGuards(ctx: TestApp, s: StandardsProject, calls: GuardedCall[]): Promise<void> {
  return expectAppGuards(ctx, s, calls, {
    unconfigured: STANDARDS_UNCONFIGURED,
    forbidden: STANDARDS_FORBIDDEN,
    snapshot: standardsSnapshot,
  });
}

/** Asserts every call answers 404 once the project has standards switched off, and nothing changes. */
export async function expectSwitchedOff(ctx: TestApp, s: StandardsProject, calls: GuardedCall[]): Promise<void> {
  const db = ctx.db.handle.db;
  await db
    .update(projects)
    .set({ activeApps: APPS.filter((app) => app !== 'standards') })
    .where(eq(projects.id, s.project.id));
  const agents = [
    await ctx.signedIn(s.people.admin),
    await ctx.signedIn(s.people.lead),
    await ctx.signedIn(s.people.policyAdmin),
  ];
  const before = await standardsSnapshot(db);
  for (const call of calls) {
    for (const agent of agents) {
      const answer = await sendCall(agent, call, s.base);
      expect(answer.statusCode, `${call.method} ${call.path}: ${answer.body}`).toBe(404);
      expect(answer.json().message).toBe('Standards is not switched on for this project.');
    }
  }
  expect(await standardsSnapshot(db)).toEqual(before);
}
