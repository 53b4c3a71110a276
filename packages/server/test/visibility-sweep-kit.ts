import { randomInt } from 'node:crypto';
import { inflateSync } from 'node:zlib';
import { APP_CODES, type ImportDetail, nextPeriod, type StdRole } from '@portal/shared';
import { eq } from 'drizzle-orm';
import PDFDocument from 'pdfkit';
import {
  crActionPlans,
  crPrograms,
  emailLog,
  monAnnotations,
  monBenchmarks,
  monPhases,
  policyDepartmentRoles,
  policyGuestAccess,
  users,
} from '../src/db/schema/index.js';
import { encrypt } from '../src/lib/crypto.js';
import { waitForImport } from '../src/modules/monitoring/imports.commit.js';
import { unsafeReadQueuedFileTexts } from '../src/modules/policies/file-text.service.js';
import { unsafeReopenExpiredEvidence } from '../src/modules/standards/evidence.service.js';
import type { Agent } from './agent.js';
import { TEST_APP_KEY, type TestApp } from './app.js';
import { lockedSample } from './chart-review-cases-kit.js';
import { addResults, times } from './chart-review-findings-kit.js';
import { createTool, programInput, question } from './chart-review-kit.js';
import { buildDocx, TINY_PNG } from './docx-fixture.js';
import { addMember, createProject, createUser, setMainRole } from './factories.js';
import { addMeasure, addTarget } from './monitoring-data-kit.js';
import { multipart, publishDraft } from './policy-kit.js';
import { addLead, createAssessment, importFramework, setStandardsRole } from './standards-kit.js';

/**
 * The seed of the visibility sweep (issue 26): one project with every app on, one record of every kind the code
 * hides from some members, each named with a unique marker, linked to everything it can be linked to, and the
 * members who may not see them (the observers). Records are made through the API as the people who may make them,
 * or with the module kits where the API needs a history first (a locked sample, reviewed cases, measure data).
 */

/** Letters that are no hexadecimal digit: a tag never turns up inside a hash, an id or a random token by chance. */
const TAG_LETTERS = 'ghjkmnpqrstvwxyz';
const tagOf = () => `zq${Array.from({ length: 8 }, () => TAG_LETTERS[randomInt(TAG_LETTERS.length)]).join('')}`;

/** Every common word of the markers: a search for it finds every marked record. */
export const MARKER_PREFIX = 'ZQX';

export const MARKER_KINDS = [
  'RESTRICTED_PAGE',
  'CHILD_PAGE',
  'DRAFT_PAGE',
  'ARCHIVED_PAGE',
  'RESTRICTED_PAGE_NUMBER',
  'CHILD_PAGE_NUMBER',
  'DRAFT_PAGE_NUMBER',
  'ARCHIVED_PAGE_NUMBER',
  'MEASURE',
  'CHILD_MEASURE',
  'DRAFT_MEASURE',
  'CHART',
  'INSIGHT',
  'DRAFT_INSIGHT',
  'DATA_REQUEST',
  'POLICY_DRAFT',
  'POLICY_IN_REVIEW',
  'POLICY_NEW_DRAFT',
  'POLICY_UPLOADED',
  'POLICY_GENERATED',
  'ENCOUNTER_REF',
  'BLIND_REVIEW',
] as const;
export type MarkerKind = (typeof MARKER_KINDS)[number];

export interface Marker {
  kind: MarkerKind;
  /** What is written into the record (title, name, text, number). */
  text: string;
  /** Found in an answer (case-insensitive) means the record leaked: unique to this record and this run. */
  tag: string;
  /** For a page number (digits and dots only): the number standing alone, not inside a longer one. */
  pattern?: RegExp;
  /** What the record is, for the report. */
  what: string;
}

/** Whether an answer's text (lower case) holds the marker. */
export const holds = (text: string, marker: Marker) =>
  marker.pattern ? marker.pattern.test(text) : text.includes(marker.tag);

/** A page number no other record has: three groups of four digits (manual numbering allows up to eight groups). */
const numberOf = () => Array.from({ length: 3 }, () => String(randomInt(1000, 10_000))).join('.');
const NUMBER_KINDS: Partial<Record<MarkerKind, true>> = {
  RESTRICTED_PAGE_NUMBER: true,
  CHILD_PAGE_NUMBER: true,
  DRAFT_PAGE_NUMBER: true,
  ARCHIVED_PAGE_NUMBER: true,
};

function makeMarkers(): Record<MarkerKind, Marker> {
  const what: Record<MarkerKind, string> = {
    RESTRICTED_PAGE: 'restricted monitoring page (title, introduction)',
    CHILD_PAGE: 'page below the restricted page (title, introduction)',
    DRAFT_PAGE: 'draft monitoring page on an open branch (title, introduction)',
    ARCHIVED_PAGE: 'archived monitoring page on an open branch (title)',
    RESTRICTED_PAGE_NUMBER: 'manual number of the restricted page',
    CHILD_PAGE_NUMBER: 'manual number of the page below the restricted page',
    DRAFT_PAGE_NUMBER: 'manual number of the draft page',
    ARCHIVED_PAGE_NUMBER: 'manual number of the archived page',
    MEASURE: 'measure of the restricted page (name, definition, annotation, benchmark, phase)',
    CHILD_MEASURE: 'measure of the page below the restricted page (name)',
    DRAFT_MEASURE: 'measure of the draft page (name)',
    CHART: 'chart of the restricted page (title)',
    INSIGHT: 'published key insight of the restricted page (title, text)',
    DRAFT_INSIGHT: 'draft key insight of an open page (title, text)',
    DATA_REQUEST: "someone else's data request (title, purpose, delivered file name and content)",
    POLICY_DRAFT: 'never published policy draft (title, text)',
    POLICY_IN_REVIEW:
      'never published policy in review, not asked of the observer (title, text, review request comment)',
    POLICY_NEW_DRAFT: 'new draft version of a published policy (text, change summary)',
    POLICY_UPLOADED:
      'never published policy uploaded from Word and as a PDF (title, text, source file name, image bytes, text read from the PDF)',
    POLICY_GENERATED: 'never published policy made by the policy generator (title)',
    ENCOUNTER_REF: 'encrypted encounter reference of a chart review case',
    BLIND_REVIEW: 'blind second review by another reviewer, submitted before the primary one (note, evidence location)',
  };
  const markers = {} as Record<MarkerKind, Marker>;
  for (const kind of MARKER_KINDS) {
    if (NUMBER_KINDS[kind]) {
      const number = numberOf();
      const pattern = new RegExp(`(?<![\\d.])${number.replaceAll('.', '\\.')}(?![\\d]|\\.\\d)`);
      markers[kind] = { kind, tag: number, text: number, pattern, what: what[kind] };
      continue;
    }
    const tag = tagOf();
    markers[kind] = { kind, tag, what: what[kind], text: `${MARKER_PREFIX}-${kind.replaceAll('_', '-')}-${tag}` };
  }
  return markers;
}

/** A one-page PDF whose text layer holds `text` (pdfkit, the portal's own PDF library). */
function textPdf(text: string): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', compress: false });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  doc.fontSize(12).text(text);
  doc.end();
  return done;
}

/** The members who may not see the marked records, as issue 26 lists them. */
export const OBSERVERS = [
  'reader',
  'policyReviewer',
  'crLead',
  'crReviewer',
  'pageOwner',
  'standardsOnly',
  'projectAdmin',
] as const;
export type Observer = (typeof OBSERVERS)[number];

export const OBSERVER_ROLES: Record<Observer, string> = {
  reader:
    '(a) policy reader, monitoring viewer, chart review viewer, standards viewer, no page grant (the demo reader)',
  policyReviewer:
    '(b) policy reviewer of another department, never asked to review the drafts; monitoring data_entry; standards owner of GOV.1',
  crLead:
    '(c) chart review program_lead, not in reveal_roles, primary reviewer of the blind-reviewed case; monitoring viewer; policy reader; standards chapter lead of GOV',
  crReviewer:
    '(c) chart review reviewer, not in reveal_roles, primary reviewer of another case; standards contributor of GOV.2',
  pageOwner:
    '(d) monitoring page_owner (owns an open page) without a grant on the restricted page; policy signer; standards mock assessor',
  standardsOnly: '(e) no main role in any app; standards_admin',
  projectAdmin:
    '(f) project admin (members, details) with no main role in any app and no standards role of its own (acts as standards admin)',
};

/**
 * Markers an observer may see by design (not a leak): page owners see the drafts of the open branches (docs/monitoring.md:
 * "page owners and administrators also see drafts and archived pages"), and so the measures of a draft page; data
 * stewards see every data request.
 */
const SEES: Partial<Record<Observer, MarkerKind[]>> = {
  pageOwner: ['DRAFT_PAGE', 'ARCHIVED_PAGE', 'DRAFT_PAGE_NUMBER', 'ARCHIVED_PAGE_NUMBER', 'DRAFT_MEASURE'],
  // The data stewards (data_entry) handle every data request of the project.
  policyReviewer: ['DATA_REQUEST'],
};
export const hiddenFrom = (observer: Observer, kind: MarkerKind) => !(SEES[observer] ?? []).includes(kind);

/** The first day of the month `back` months before the current one (by the app's clock), YYYY-MM-01. */
export function monthStart(now: Date, back: number): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1));
  return d.toISOString().slice(0, 10);
}

async function ok(answer: { statusCode: number; body: string }, expected: number, what: string) {
  if (answer.statusCode !== expected) {
    throw new Error(`seed: ${what} answered ${answer.statusCode}, not ${expected}: ${answer.body.slice(0, 400)}`);
  }
}

/**
 * The census dataset through the real CSV import (upload, settings as detected, commit): 24 months of one ward from
 * `from`, with the columns the data kit's measures count (month, ward, falls, patient_days). Answers its id.
 */
async function importDataset(admin: Agent, P: string, from: string): Promise<number> {
  const created = await admin.post(`${P}/monitoring/datasets`, { name: 'Ward census' });
  await ok(created, 201, 'POST dataset');
  const datasetId = (created.json() as { id: number }).id;
  const lines = ['month,ward,falls,patient_days'];
  let period = from;
  for (let i = 0; i < 24; i++) {
    lines.push(`${period},North,${i < 12 ? 4 : 2},${i < 12 ? 900 : 950}`);
    period = nextPeriod(period, 'month');
  }
  const form = multipart({}, { name: 'census.csv', data: Buffer.from(`${lines.join('\n')}\n`), type: 'text/csv' });
  const uploaded = await admin.post(`${P}/monitoring/datasets/${datasetId}/imports`, form.payload, form.headers);
  await ok(uploaded, 201, 'upload the census');
  const detail = uploaded.json() as ImportDetail;
  const detected = detail.detected!;
  await ok(
    await admin.put(`${P}/monitoring/imports/${detail.id}/settings`, {
      delimiter: detected.delimiter,
      encoding: detected.encoding,
      has_header: detected.has_header,
      columns: detected.columns.map((c) => ({
        source: c.source,
        skip: false,
        key: c.key,
        label: c.label,
        type: c.type,
      })),
      time_column: 'month',
      date_format: 'YYYY-MM-DD',
      mode: 'append',
      error_policy: 'abort',
      range_from: null,
      range_to: null,
      key_columns: [],
    }),
    200,
    'PUT import settings',
  );
  await ok(await admin.post(`${P}/monitoring/imports/${detail.id}/commit`), 202, 'commit the census');
  await waitForImport(detail.id);
  const committed = (await admin.get(`${P}/monitoring/imports/${detail.id}`)).json() as { status: string };
  if (committed.status !== 'committed') throw new Error(`seed: the census import ended ${committed.status}`);
  return datasetId;
}

export async function visibilitySweepSeed(t: TestApp) {
  const db = t.db.handle.db;
  const markers = makeMarkers();
  const M = (kind: MarkerKind) => markers[kind].text;
  const now = t.clock.now();
  const project = await createProject(db, { name: 'Sweep Clinic', activeApps: [...APP_CODES] });
  const projectId = project.id;
  // Guest reading on for the sweep's own address (app.inject's 127.0.0.1): the no-account reader's calls are swept
  // too, and must show no hidden record to anyone.
  await db.insert(policyGuestAccess).values({ projectId, enabled: true, ipRanges: ['127.0.0.1/32'] });
  const person = async (firstName: string, lastName: string) => {
    const user = await createUser(db, { firstName, lastName });
    // Accounts made "today" by the app's clock (two-factor grace periods count from there).
    await db.update(users).set({ createdAt: now }).where(eq(users.id, user.id));
    return user;
  };
  const people = {
    admin: await person('Ada', 'Admin'),
    askedReviewer: await person('Rob', 'Asked'),
    signer: await person('Sam', 'Signer'),
    blindReviewer: await person('Bea', 'Blind'),
    grantee: await person('Gil', 'Granted'),
    reader: await person('Rita', 'Reader'),
    policyReviewer: await person('Pete', 'Reviewer'),
    crLead: await person('Leo', 'Lead'),
    crReviewer: await person('Cora', 'Reviewer'),
    pageOwner: await person('Owen', 'Owner'),
    standardsOnly: await person('Stan', 'Standards'),
    projectAdmin: await person('Pat', 'Projectadmin'),
  };
  const superadmin = await createUser(db, { firstName: 'Sue', lastName: 'Super', role: 'superadmin' });
  for (const who of Object.keys(people) as (keyof typeof people)[]) {
    await addMember(db, projectId, people[who].id, who === 'admin' || who === 'projectAdmin' ? 'admin' : 'simple');
  }
  const roles: [keyof typeof people, 'policy_management' | 'monitoring' | 'chart_review', string][] = [
    ['admin', 'policy_management', 'policy_admin'],
    ['admin', 'monitoring', 'monitoring_admin'],
    ['admin', 'chart_review', 'chart_review_admin'],
    ['askedReviewer', 'policy_management', 'reviewer'],
    ['signer', 'policy_management', 'signer'],
    ['blindReviewer', 'chart_review', 'reviewer'],
    ['grantee', 'monitoring', 'viewer'],
    ['reader', 'policy_management', 'reader'],
    ['reader', 'monitoring', 'viewer'],
    ['reader', 'chart_review', 'viewer'],
    ['policyReviewer', 'policy_management', 'reviewer'],
    ['policyReviewer', 'monitoring', 'data_entry'],
    ['crLead', 'chart_review', 'program_lead'],
    ['crLead', 'monitoring', 'viewer'],
    ['crLead', 'policy_management', 'reader'],
    ['crReviewer', 'chart_review', 'reviewer'],
    ['pageOwner', 'monitoring', 'page_owner'],
    ['pageOwner', 'policy_management', 'signer'],
  ];
  for (const [who, app, role] of roles) await setMainRole(db, projectId, people[who].id, app, role);
  const standardsRoles: [keyof typeof people, StdRole][] = [
    ['reader', 'viewer'],
    ['policyReviewer', 'owner'],
    ['crLead', 'chapter_lead'],
    ['crReviewer', 'contributor'],
    ['pageOwner', 'mock_assessor'],
    ['standardsOnly', 'standards_admin'],
  ];
  for (const [who, role] of standardsRoles) await setStandardsRole(db, projectId, people[who].id, role);

  const admin = await t.signedIn(people.admin);
  const P = `/api/projects/${projectId}`;

  // ------------------------------------------------------------------------------------------ monitoring
  const page = async (body: Record<string, unknown>) => {
    const answer = await admin.post(`${P}/monitoring/pages`, body);
    await ok(answer, 201, `POST monitoring/pages ${JSON.stringify(body).slice(0, 80)}`);
    return (answer.json() as { id: number }).id;
  };
  const intro = (kind: MarkerKind) => `<p>About ${M(kind)}.</p>`;
  // Manual numbering: each hidden page carries a number of its own, a marker too.
  await ok(await admin.post(`${P}/monitoring/numbering`, { mode: 'manual' }), 200, 'POST manual numbering');
  const openTop = await page({
    title: 'Open programme',
    number: '1',
    status: 'published',
    introduction: '<p>Open to all.</p>',
  });
  // The page owner owns an open page (what makes them a page owner).
  await page({
    title: 'Owned ward page',
    number: '1.1',
    parent_id: openTop,
    status: 'published',
    owner_id: people.pageOwner.id,
  });
  const restricted = await page({
    title: M('RESTRICTED_PAGE'),
    number: M('RESTRICTED_PAGE_NUMBER'),
    status: 'published',
    restricted: true,
    introduction: intro('RESTRICTED_PAGE'),
    benchmarks: intro('RESTRICTED_PAGE'),
  });
  const child = await page({
    title: M('CHILD_PAGE'),
    number: M('CHILD_PAGE_NUMBER'),
    parent_id: restricted,
    status: 'published',
    introduction: intro('CHILD_PAGE'),
  });
  const draftPage = await page({
    title: M('DRAFT_PAGE'),
    number: M('DRAFT_PAGE_NUMBER'),
    parent_id: openTop,
    status: 'draft',
    introduction: intro('DRAFT_PAGE'),
  });
  await page({
    title: M('ARCHIVED_PAGE'),
    number: M('ARCHIVED_PAGE_NUMBER'),
    parent_id: openTop,
    status: 'archived',
  });
  // Someone else is granted the restricted page: a grant exists, just not to any observer.
  await ok(
    await admin.put(`${P}/monitoring/pages/${restricted}/permissions`, {
      restricted: true,
      grants: [{ user_id: people.grantee.id, level: 'view' }],
    }),
    200,
    'PUT restricted page permissions',
  );

  const from = monthStart(now, 24);
  const dataset = await importDataset(admin, P, from);
  const measure = async (pageId: number, name: string, description = '') =>
    addMeasure(db, projectId, pageId, dataset, {
      name,
      definition: {
        description,
        inclusions: '',
        exclusions: '',
        data_source: 'Ward census',
        owner: '',
        collection_plan: '',
      },
    });
  const restrictedMeasure = await measure(restricted, M('MEASURE'), `How ${M('MEASURE')} is counted.`);
  const childMeasure = await measure(child, M('CHILD_MEASURE'));
  const draftMeasure = await measure(draftPage, M('DRAFT_MEASURE'));
  const openMeasure = await measure(openTop, 'Open falls rate');
  await addTarget(db, restrictedMeasure, 3, from);
  await db.insert(monAnnotations).values({
    projectId,
    measureId: restrictedMeasure.id,
    periodStart: monthStart(now, 6),
    kind: 'event',
    text: `${M('MEASURE')} annotation`,
    excludeFromLimits: false,
  });
  await db.insert(monBenchmarks).values({
    projectId,
    measureId: restrictedMeasure.id,
    source: `${M('MEASURE')} registry`,
    statistic: 'mean',
    value: 3.1,
    asOf: monthStart(now, 3),
    specMatch: true,
  });
  await db.insert(monPhases).values({
    projectId,
    measureId: restrictedMeasure.id,
    startPeriod: monthStart(now, 12),
    label: `${M('MEASURE')} phase`,
    reason: 'intervention',
  });
  await ok(
    await admin.post(`${P}/monitoring/pages/${restricted}/charts`, {
      measure_id: restrictedMeasure.id,
      title: M('CHART'),
      chart_type: 'u',
    }),
    201,
    'POST restricted chart',
  );
  await ok(
    await admin.post(`${P}/monitoring/pages/${openTop}/charts`, {
      measure_id: openMeasure.id,
      title: 'Open falls chart',
      chart_type: 'u',
    }),
    201,
    'POST open chart',
  );
  const insight = (pageId: number, kind: MarkerKind | null, status: 'draft' | 'published') =>
    admin.post(`${P}/monitoring/pages/${pageId}/insights`, {
      title: kind ? M(kind) : 'Falls are down',
      body: kind ? `<p>${M(kind)} says so.</p>` : '<p>Fewer falls since the new beds.</p>',
      status,
    });
  await ok(await insight(restricted, 'INSIGHT', 'published'), 201, 'POST restricted insight');
  await ok(await insight(openTop, 'DRAFT_INSIGHT', 'draft'), 201, 'POST draft insight');
  await ok(await insight(openTop, null, 'published'), 201, 'POST open insight');
  // A data request naming a restricted and an open page, by the granted viewer: its requester and the data stewards
  // see it (the stewards without the restricted page's title), nobody else.
  const grantee = await t.signedIn(people.grantee);
  await ok(
    await grantee.post(`${P}/monitoring/requests`, {
      title: M('DATA_REQUEST'),
      purpose: `Quarterly review of ${M('DATA_REQUEST')}.`,
      page_ids: [restricted, openTop],
      period_from: from,
      period_to: monthStart(now, 1),
      format: 'csv',
    }),
    201,
    'POST data request',
  );
  {
    // Delivered, so its file can be downloaded (by the requester and the data stewards).
    const [request] = (await admin.get(`${P}/monitoring/requests?scope=queue`)).json().requests as { id: number }[];
    await ok(
      await admin.patch(`${P}/monitoring/requests/${request!.id}`, { status: 'in_progress' }),
      200,
      'PATCH request',
    );
    const file = multipart(
      {},
      { name: `${M('DATA_REQUEST')}.csv`, data: Buffer.from(`ward,note\nA,${M('DATA_REQUEST')}\n`), type: 'text/csv' },
    );
    await ok(
      await admin.post(`${P}/monitoring/requests/${request!.id}/file`, file.payload, file.headers),
      200,
      'deliver the request file',
    );
  }

  // ------------------------------------------------------------------------------------------ policies
  const PM = `${P}/policy-management`;
  const department = async (name: string, code: string) => {
    const answer = await admin.post(`${PM}/departments`, { name, code });
    await ok(answer, 201, `POST department ${code}`);
    return (answer.json() as { id: number }).id;
  };
  const nursing = await department('Nursing', 'NUR');
  const pharmacy = await department('Pharmacy', 'PHA');
  await db.insert(policyDepartmentRoles).values([
    { projectId, departmentId: nursing, userId: people.askedReviewer.id, role: 'reviewer' },
    { projectId, departmentId: nursing, userId: people.signer.id, role: 'signer' },
    { projectId, departmentId: nursing, userId: people.reader.id, role: 'reader' },
    { projectId, departmentId: pharmacy, userId: people.policyReviewer.id, role: 'reviewer' },
    { projectId, departmentId: pharmacy, userId: people.pageOwner.id, role: 'signer' },
    { projectId, departmentId: pharmacy, userId: people.crLead.id, role: 'reader' },
  ]);
  const document = async (title: string, content: string) => {
    const answer = await admin.post(`${PM}/documents`, { title, department_id: nursing, content });
    await ok(answer, 201, `POST policy ${title}`);
    return answer.json() as { id: number; draft_version: { id: number } };
  };
  const policyDraft = await document(M('POLICY_DRAFT'), `<p>${M('POLICY_DRAFT')}: what to do.</p>`);
  const policyInReview = await document(M('POLICY_IN_REVIEW'), `<p>${M('POLICY_IN_REVIEW')}: what to do.</p>`);
  await ok(
    await admin.post(`${PM}/documents/${policyInReview.id}/send-to-review`, {
      comment: `Please check ${M('POLICY_IN_REVIEW')}.`,
    }),
    200,
    'send the policy to review',
  );
  const published = await document('Hand hygiene', '<p>Wash your hands before and after every patient.</p>');
  await publishDraft(db, published.id, monthStart(now, 3));
  await ok(await admin.post(`${PM}/documents/${published.id}/new-version`, {}), 200, 'new version');
  {
    const detail = (await admin.get(`${PM}/documents/${published.id}`)).json() as {
      draft_version: { revision: number };
    };
    await ok(
      await admin.put(`${PM}/documents/${published.id}/draft`, {
        content: `<p>Wash your hands. ${M('POLICY_NEW_DRAFT')} is new.</p>`,
        change_summary: `Adds ${M('POLICY_NEW_DRAFT')}`,
        base_revision: detail.draft_version.revision,
      }),
      200,
      'save the new draft version',
    );
  }

  let policyUploaded = 0;
  let policyGenerated = 0;
  {
    // A Word file uploaded as a new draft: its source file and its image are files only editors may fetch.
    const png = Buffer.concat([TINY_PNG, Buffer.from(M('POLICY_UPLOADED'))]);
    const docx = buildDocx({
      title: M('POLICY_UPLOADED'),
      paragraphs: [`${M('POLICY_UPLOADED')} applies to every ward.`],
      image: png,
      imageAlt: M('POLICY_UPLOADED'),
    });
    const form = multipart(
      { title: M('POLICY_UPLOADED'), department_id: String(nursing) },
      {
        name: `${M('POLICY_UPLOADED')}.docx`,
        data: docx,
        type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      },
    );
    const uploaded = await admin.post(`${PM}/documents/upload`, form.payload, form.headers);
    await ok(uploaded, 201, 'upload a policy');
    policyUploaded = (uploaded.json() as { id: number }).id;

    // The same policy's text kept as a PDF, uploaded as a draft of its own and read (the text only its editors see).
    const pdf = await textPdf(`${M('POLICY_UPLOADED')} is read from a PDF.`);
    const pdfForm = multipart(
      { title: M('POLICY_UPLOADED'), department_id: String(nursing) },
      { name: `${M('POLICY_UPLOADED')}.pdf`, data: pdf, type: 'application/pdf' },
    );
    await ok(await admin.post(`${PM}/documents/upload`, pdfForm.payload, pdfForm.headers), 201, 'upload a PDF');
    if ((await unsafeReadQueuedFileTexts(db, now)) !== 1) throw new Error('The sweep could not read its PDF.');
  }
  {
    // A draft from the policy generator's library.
    const library = (await admin.get(`${P}/policy-generator/templates`)).json() as {
      templates: { published: { id: number } | null }[];
    };
    const version = library.templates.find((template) => template.published)!.published!.id;
    const generated = await admin.post(`${P}/policy-generator/generate`, {
      template_version_id: version,
      answers: {},
      title: M('POLICY_GENERATED'),
      department_id: nursing,
      number: null,
      owner_id: null,
    });
    await ok(generated, 201, 'generate a policy');
    policyGenerated = (generated.json() as { document_id: number }).document_id;
  }
  // Stable links (/p/{project}/{number}) name policies by number: every policy of the sweep gets one, so the links of
  // the hidden ones are swept too.
  await t.db.handle.pool.query(
    "update policy_documents set number = '90.' || id where project_id = $1 and number is null",
    [projectId],
  );

  // ------------------------------------------------------------------------------------------ chart review
  const CR = `${P}/chart-review`;
  {
    const settings = (await admin.get(`${CR}/settings`)).json() as Record<string, unknown>;
    const input = Object.fromEntries(
      [
        'store_encounter_ref',
        'reveal_roles',
        'retention_months',
        'default_irr_rate',
        'irr_kappa_min',
        'irr_agreement_min',
        'new_reviewer_match_min',
        'partial_enabled',
        'privilege_label',
        'coi_own_unit',
      ].map((key) => [key, settings[key]]),
    );
    await ok(
      await admin.put(`${CR}/settings`, {
        ...input,
        store_encounter_ref: true,
        reveal_roles: ['chart_review_admin'],
        new_reviewer_match_min: 0,
      }),
      200,
      'PUT chart review settings',
    );
  }
  const tool = await createTool(admin, CR, 'Falls', [
    question('fall_risk', { text: 'Fall risk assessed on admission' }),
    question('care_plan', { text: 'Care plan updated' }),
  ]);
  const createdProgram = await admin.post(
    `${CR}/programs`,
    programInput(tool.id, {
      name: 'Falls audit',
      units: ['Ward A', 'Ward B'],
      owner_id: people.crLead.id,
    }),
  );
  await ok(createdProgram, 201, 'POST chart review programme');
  const program = createdProgram.json() as { id: number };
  // The programme follows the restricted measure: stored as the programme form stores a monitoring
  // administrator's choice (set directly, so the seed does not depend on who the form lets choose it).
  await db.update(crPrograms).set({ monMeasureId: restrictedMeasure.id }).where(eq(crPrograms.id, program.id));
  const reviewPeriod = monthStart(now, 1);
  const resultsPeriod = monthStart(now, 2);
  const sample = await lockedSample(
    db,
    { project },
    {
      toolVersionId: tool.versionId,
      programId: program.id,
      periodStart: reviewPeriod,
      cases: [
        {
          unit: 'Ward A',
          reviewerId: people.crLead.id,
          secondReviewerId: people.blindReviewer.id,
          encounterRefEnc: encrypt(`${M('ENCOUNTER_REF')}-1`, TEST_APP_KEY),
        },
        {
          unit: 'Ward B',
          reviewerId: people.crReviewer.id,
          encounterRefEnc: encrypt(`${M('ENCOUNTER_REF')}-2`, TEST_APP_KEY),
        },
      ],
    },
  );
  {
    // The blind second review: answered (a note with the marker) and submitted by its reviewer, through the API.
    const blind = await t.signedIn(people.blindReviewer);
    const secondId = sample.cases[0]!.secondId!;
    const form = (await blind.get(`${CR}/assignments/${secondId}`)).json() as {
      version: number;
      questions: { id: number }[];
    };
    await ok(
      await blind.put(`${CR}/assignments/${secondId}/answers`, {
        version: form.version,
        answers: form.questions.map((q) => ({
          question_id: q.id,
          value: 'no',
          na_reason: '',
          note: `${M('BLIND_REVIEW')} seen in the chart`,
          evidence_location: `${M('BLIND_REVIEW')} page 3`,
        })),
      }),
      200,
      'PUT blind review answers',
    );
    await ok(await blind.post(`${CR}/assignments/${secondId}/submit`, {}), 200, 'submit the blind review');
  }
  // A period with counted results, a finding on it and a plan that follows the restricted measure.
  await addResults(db, { projectId, programId: program.id, toolVersionId: tool.versionId, period: resultsPeriod }, [
    ...times(3, { unit: 'Ward A', answers: { fall_risk: 'no', care_plan: 'yes' } }),
    ...times(2, { unit: 'Ward B', answers: { fall_risk: 'yes', care_plan: 'yes' } }),
  ]);
  const createdFinding = await admin.post(`${CR}/programs/${program.id}/findings`, {
    period_start: resultsPeriod,
    unit: null,
    question_key: null,
    title: 'Falls compliance below target',
  });
  await ok(createdFinding, 201, 'POST chart review finding');
  const crFinding = createdFinding.json() as { id: number };
  await ok(
    await admin.put(`${CR}/findings/${crFinding.id}/plan`, {
      root_cause: 'Night shift handover.',
      actions: [],
      measure_id: null,
      success_periods: 2,
    }),
    200,
    'PUT chart review plan',
  );
  // The plan follows the restricted measure (set directly, as for the programme).
  await db
    .update(crActionPlans)
    .set({ measureId: restrictedMeasure.id })
    .where(eq(crActionPlans.findingId, crFinding.id));

  // ------------------------------------------------------------------------------------------ standards
  const STD = `${P}/standards`;
  const { framework, nodes } = await importFramework(db, admin, STD);
  const assessment = await createAssessment(db, admin, STD, framework.id, {
    owners: [
      { node_id: nodes['GOV.1']!, user_id: people.policyReviewer.id },
      { node_id: nodes['GOV.2']!, user_id: people.crReviewer.id },
    ],
  });
  await addLead(db, projectId, assessment.id, nodes.GOV!, people.crLead.id);
  const [question1] = (
    (await admin.get(`${STD}/link-targets?type=cr_question`)).json() as { targets: { id: number }[] }
  ).targets;
  const targets: [string, number][] = [
    ['measure', restrictedMeasure.id],
    ['measure', childMeasure.id],
    ['measure', draftMeasure.id],
    ['measure', openMeasure.id],
    ['policy', policyDraft.id],
    ['policy', policyInReview.id],
    ['policy', published.id],
    ['policy', policyUploaded],
    ['policy', policyGenerated],
    ['cr_program', program.id],
    ['cr_question', question1!.id],
  ];
  // Every target on an element of each chapter, so every element panel, tree, binder and report meets them.
  for (const ref of ['GOV.1.1', 'GOV.2.1', 'IC.1.1', 'OB.1']) {
    for (const [type, id] of targets) {
      await ok(
        await admin.post(`${STD}/links`, {
          node_id: nodes[ref],
          target_type: type,
          target_id: id,
          note: 'Supports it',
        }),
        201,
        `POST link ${ref} ${type}`,
      );
    }
  }
  for (const ref of ['GOV.1.1', 'GOV.2.1', 'IC.1.1', 'OB.1'] as const) {
    const req = assessment.reqs[ref]!;
    const read = await admin.get(`${STD}/req-assessments/${req}`);
    await ok(read, 200, `GET element ${ref}`);
    const current = read.json() as Record<string, unknown> & { owner: { id: number } | null };
    await ok(
      await admin.put(`${STD}/req-assessments/${req}`, {
        version: current.version,
        result: 'partially_compliant',
        // OB.1 is done, so the evidence job below sends it back to review over its expired (draft) policies.
        status: ref === 'OB.1' ? 'done' : current.status,
        na_justification: current.na_justification,
        owner_id: current.owner?.id ?? null,
        due_date: monthStart(now, -2),
        observation: 'Minutes are incomplete.',
      }),
      200,
      `PUT element ${ref}`,
    );
  }
  // The daily evidence job: its history entry names the expired policies, the never-published ones among them.
  const reopened = await unsafeReopenExpiredEvidence(db, now);
  if (!reopened.includes(assessment.reqs['OB.1']!)) throw new Error('The evidence job did not reopen OB.1.');
  const tracer = await admin.post(`${STD}/assessments/${assessment.id}/tracers`, {
    kind: 'system',
    title: 'Falls tracer',
    traced_on: monthStart(now, 1),
    unit: 'Ward A',
    lead_id: null,
    case_code: 'T-1',
    summary: 'Followed the falls pathway.',
  });
  await ok(tracer, 201, 'POST tracer');
  const stdFinding = await admin.post(`${STD}/req-assessments/${assessment.reqs['GOV.1.1']}/findings`, {
    source: 'mock',
    text: 'Falls are not reviewed by the committee.',
    likelihood: 'low',
    scope: 'pattern',
    immediate_threat: false,
    cited_on: monthStart(now, 1),
  });
  await ok(stdFinding, 201, 'POST standards finding');
  await ok(
    await admin.put(`${STD}/findings/${(stdFinding.json() as { id: number }).id}/plan`, {
      root_cause: 'No one owns the review.',
      actions: [{ what: 'Name an owner', owner_id: null, due: monthStart(now, -1), done: false }],
      leadership_involvement: '',
      preventive_analysis: '',
      measure_id: restrictedMeasure.id,
      success_periods: 2,
    }),
    200,
    'PUT standards plan',
  );
  await ok(
    await admin.post(`${STD}/req-assessments/${assessment.reqs['GOV.1.1']}/evidence`, {
      kind: 'note',
      title: 'Committee minutes',
      note: 'The committee met monthly.',
    }),
    201,
    'POST evidence note',
  );
  {
    const form = multipart(
      { title: 'Minutes scan' },
      { name: 'minutes.pdf', data: Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n%%EOF\n') },
    );
    await ok(
      await admin.post(
        `${STD}/req-assessments/${assessment.reqs['GOV.1.1']}/evidence/file`,
        form.payload,
        form.headers,
      ),
      201,
      'POST evidence file',
    );
  }

  // An entry of the email log (what the mailer records; the tests' mailbox records none there).
  await db.insert(emailLog).values({
    toAddress: people.askedReviewer.email,
    subject: 'Policy to review',
    template: 'policy_review_requested',
    bodyText: 'A policy waits for your review.',
    projectId,
    status: 'logged',
    createdAt: now,
  });
  // A draft of the next terms (the superadmin's terms versions are swept too).
  const superAgent = await t.signedIn(superadmin);
  await ok(await superAgent.put('/super/terms/draft', { content: '<p>Next terms.</p>' }), 200, 'PUT terms draft');

  return {
    project,
    projectId,
    people,
    superadmin,
    markers,
    admin,
    records: { restricted, child, draftPage, openTop, restrictedMeasure, program, crFinding, sample, assessment },
    periods: [reviewPeriod, resultsPeriod],
    nodes,
  };
}
export type SweepSeed = Awaited<ReturnType<typeof visibilitySweepSeed>>;

// ------------------------------------------------------------------------------------------------ reading answers

/** Windows-1252 above 0x7f where it differs from Latin-1 (0x80 to 0x9f). */
const CP1252 = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';
const winAnsi = (bytes: Buffer) =>
  [...bytes].map((b) => (b >= 0x80 && b < 0xa0 ? CP1252[b - 0x80]! : String.fromCharCode(b))).join('');

/**
 * Every text of a PDF a marker could hide in (as the binder tests read it): the strings of the text operators of each
 * content stream (pdfkit writes hex WinAnsi strings, split where it kerns), each stream inflated as it is, and the
 * file's own bytes (metadata, uncompressed objects).
 */
export function pdfTexts(pdf: Buffer): string {
  const raw = pdf.toString('latin1');
  const parts = [raw];
  for (const match of raw.matchAll(/<<([\s\S]*?)>>\s*stream\r?\n/g)) {
    const length = /\/Length (\d+)/.exec(match[1]!);
    const start = match.index + match[0].length;
    const end = length ? start + Number(length[1]) : raw.indexOf('endstream', start);
    if (end < start) continue;
    const body = pdf.subarray(start, end);
    let content = body;
    if (/\/FlateDecode/.test(match[1]!)) {
      try {
        content = inflateSync(body);
      } catch {
        continue;
      }
    }
    const text = content.toString('latin1');
    parts.push(text);
    const lines: string[] = [];
    for (const op of text.matchAll(
      /\[((?:<[0-9a-fA-F]*>|\((?:\\.|[^\\)])*\)|[\s\d.-])*)\]\s*TJ|<([0-9a-fA-F]*)>\s*Tj/g,
    )) {
      const hexes = op[1] !== undefined ? [...op[1].matchAll(/<([0-9a-fA-F]*)>/g)].map((h) => h[1]!) : [op[2]!];
      lines.push(hexes.map((hex) => winAnsi(Buffer.from(hex, 'hex'))).join(''));
    }
    parts.push(lines.join('\n'));
  }
  // Literal strings anywhere (document information such as /Title).
  for (const hex of raw.matchAll(/<([0-9a-fA-F]{8,})>/g)) parts.push(Buffer.from(hex[1]!, 'hex').toString('latin1'));
  return parts.join('\n');
}

/** Signs in every person of the seed (and the superadmin). */
export async function agentsOf(t: TestApp, seed: SweepSeed): Promise<Record<string, Agent>> {
  const agents: Record<string, Agent> = {};
  for (const [who, user] of Object.entries(seed.people)) agents[who] = await t.signedIn(user);
  agents.superadmin = await t.signedIn(seed.superadmin);
  return agents;
}
