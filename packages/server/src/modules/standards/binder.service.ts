import type { Readable } from 'node:stream';
import {
  type ImprovementDirection,
  SAFER_LIKELIHOOD_LABELS,
  SAFER_SCOPE_LABELS,
  type SaferLikelihood,
  type SaferScope,
  type SpcChart,
  type SpcRuleSet,
  STD_FINDING_SOURCE_LABELS,
  STD_FINDING_STATUS_LABELS,
  STD_RESULT_LABELS,
  STD_STATUS_LABELS,
  type StdFindingSource,
  type StdFindingStatus,
  type StdLinkedQuestion,
  type StdLinkTarget,
  type StdResult,
  type StdStatus,
  type StdTextPolicy,
} from '@portal/shared';
import { and, asc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import {
  monMeasures,
  monPages,
  policyDocuments,
  policySignatures,
  policyVersions,
  policyWorkflowEvents,
  projects,
  stdFindings,
  stdFrameworks,
  stdNodeLocal,
  stdNodes,
  stdReqAssessments,
  users,
} from '../../db/schema/index.js';
import { safeFileName } from '../../lib/csv.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { StandardsActor } from '../../policies/standards.js';
import { getDashboard, programHeadlines } from '../chart-review/dashboard.service.js';
import { seriesOfMeasure } from '../monitoring/series.service.js';
import { frameworkNodes, isOverdue, loadAssessment, subtreeIds } from './assessments.service.js';
import {
  type ChartPoint,
  CONTENTS_LINE,
  type ContentsEntry,
  clip,
  contentsLine,
  contentsLinesPerPage,
  createPdf,
  drawHtml,
  ensureSpace,
  facts,
  footers,
  formatNumber,
  type HtmlBlock,
  heading,
  htmlBlocks,
  lineChart,
  monoLine,
  type Paper,
  type Pdf,
  pageIndex,
  paragraph,
  rule,
  table,
} from './binder.pdf.js';
import { type LinkRow, linksOfNodes, livePolicies, liveQuestions } from './live-links.js';
import { standardsAudit } from './route-kit.js';

/**
 * The survey binder and the gap report as PDF (issue 11; docs/standards.md "Survey binder and gap report (PDF)").
 * Everything is read first (loadBinder, loadGapReport), then drawn in memory (renderBinder, renderGapReport), then
 * audited; only then does the route stream the finished document, so a failure answers JSON, never half a PDF.
 */

export const MAX_BINDER_ELEMENTS = 500;
export const BINDER_TOO_LARGE = 'Choose a smaller part: at most 500 elements per binder.';

const nameSql = sql<string>`coalesce(nullif(trim(${users.firstName} || ' ' || ${users.lastName}), ''), ${users.username})`;
const isoDay = (d: Date) => d.toISOString().slice(0, 10);
const isoMinute = (d: Date) => `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
const percent = (share: number | null) => (share === null ? 'None' : `${Math.round(share * 1000) / 10} %`);

const KIND_LABELS: Record<string, string> = { self: 'Self-assessment', mock: 'Mock survey', survey: 'Survey' };
const EVENT_LABELS: Record<string, string> = {
  send_to_review: 'Sent for review',
  withdraw: 'Withdrawn from the workflow',
  approve: 'Approved',
  request_changes: 'Changes requested',
  sign: 'Signed',
  decline: 'Signature declined',
  published: 'Published',
  new_version: 'New version started',
  reassigned: 'Reviewers or signers changed',
};
const METHOD_LABELS: Record<string, string> = { password: 'Password', totp: 'Authenticator code' };
const VARIATION_LABELS: Record<string, string> = {
  improvement: 'Improvement',
  concern: 'Concern',
  common: 'Common cause',
  neutral: 'Neutral',
};

export interface RenderOptions {
  paper: Paper;
  /** false: uncompressed content streams (tests read the text). */
  compress: boolean;
}
const DEFAULTS: RenderOptions = { paper: 'letter', compress: true };

export interface PdfFile {
  filename: string;
  /** The finished document (already ended): streaming it cannot fail half way on our side. */
  stream: Readable;
  pages: number;
}

// ------------------------------------------------------------------------------------------------ binder data

export interface BinderFinding {
  source: string;
  text: string;
  cell: string;
  immediateThreat: boolean;
  status: string;
  citedOn: string;
  dueDate: string;
  overdue: boolean;
}

export interface BinderElement {
  kind: 'element';
  nodeId: number;
  refId: string;
  title: string;
  depth: number;
  path: string;
  /** The publisher's or the facility's framework text; always null for identifiers-only frameworks. */
  text: string | null;
  wording: string;
  guidance: string;
  result: StdResult;
  status: StdStatus;
  naJustification: string;
  owner: string | null;
  dueDate: string | null;
  overdue: boolean;
  lastReviewed: string | null;
  observation: string;
  findings: BinderFinding[];
  links: { type: StdLinkTarget; id: number; note: string }[];
}

export interface BinderSection {
  kind: 'section';
  nodeId: number;
  refId: string;
  title: string;
  depth: number;
  text: string | null;
}

export interface BinderPolicy {
  id: number;
  number: string | null;
  title: string;
  status: string;
  approved: boolean;
  version: number | null;
  effectiveOn: string | null;
  nextReviewOn: string | null;
  reviewOverdue: boolean;
  evidenceExpired: boolean;
  attestationRate: number | null;
  events: { step: string; who: string; at: string; comment: string }[];
  signatures: {
    signer: string;
    signedAt: string;
    meaning: string;
    method: string;
    sha256: string;
    voided: string | null;
  }[];
  blocks: HtmlBlock[];
}

export interface BinderMeasure {
  id: number;
  name: string;
  page: string;
  unit: string;
  direction: string;
  variation: string | null;
  emptyReason: string | null;
  chart: ChartPoint[];
  periods: { period: string; value: number | null; target: number | null }[];
}

export interface BinderProgram {
  id: number;
  name: string;
  target: number;
  latest: { period: string; rate: number | null; n: number } | null;
  trend: { period: string; value: number | null; cases: number }[];
}

export interface BinderData {
  facility: string;
  assessment: { id: number; name: string; kind: string; surveyWindow: string | null };
  framework: { name: string; edition: string; publisher: string; textPolicy: StdTextPolicy; licenceNote: string };
  node: { id: number; refId: string; title: string; nodeType: string };
  generatedAt: Date;
  generatedBy: string;
  items: (BinderSection | BinderElement)[];
  policies: Map<number, BinderPolicy>;
  measures: Map<number, BinderMeasure>;
  programs: Map<number, BinderProgram>;
  /** Linked audit questions by question id, with their compliance per programme. */
  questions: Map<number, StdLinkedQuestion>;
}

async function facilityName(db: DbOrTx, projectId: number): Promise<string> {
  const [row] = await db
    .select({ name: projects.name, facility: projects.facilityName })
    .from(projects)
    .where(eq(projects.id, projectId));
  return row?.facility.trim() || row?.name || '';
}

async function personName(db: DbOrTx, userId: number): Promise<string> {
  const [row] = await db.select({ name: nameSql }).from(users).where(eq(users.id, userId));
  return row?.name ?? 'Unknown user';
}

async function loadFrameworkRow(db: DbOrTx, frameworkId: number) {
  const [row] = await db.select().from(stdFrameworks).where(eq(stdFrameworks.id, frameworkId));
  if (!row) throw notFound('Assessment not found.');
  return row;
}

/** The framework text of the nodes (never for identifiers-only frameworks, whatever a row holds). */
async function nodeTexts(db: DbOrTx, ids: number[], textPolicy: StdTextPolicy): Promise<Map<number, string>> {
  if (textPolicy === 'identifiers_only' || ids.length === 0) return new Map();
  const rows = await db
    .select({ id: stdNodes.id, text: stdNodes.officialText })
    .from(stdNodes)
    .where(inArray(stdNodes.id, ids));
  return new Map(rows.flatMap((r) => (r.text?.trim() ? [[r.id, r.text] as const] : [])));
}

async function elementReqs(db: DbOrTx, projectId: number, assessmentId: number, nodeIds: number[]) {
  if (nodeIds.length === 0) return [];
  const reviewer = sql<string | null>`(select coalesce(nullif(trim(r.first_name || ' ' || r.last_name), ''), r.username)
    from users r where r.id = ${stdReqAssessments.lastReviewedBy})`;
  return db
    .select({
      id: stdReqAssessments.id,
      nodeId: stdReqAssessments.nodeId,
      result: stdReqAssessments.result,
      status: stdReqAssessments.status,
      naJustification: stdReqAssessments.naJustification,
      ownerName: sql<string | null>`case when ${stdReqAssessments.ownerId} is null then null else ${nameSql} end`,
      dueDate: stdReqAssessments.dueDate,
      observation: stdReqAssessments.observation,
      lastReviewedAt: stdReqAssessments.lastReviewedAt,
      lastReviewedBy: reviewer,
    })
    .from(stdReqAssessments)
    .leftJoin(users, eq(users.id, stdReqAssessments.ownerId))
    .where(
      and(
        eq(stdReqAssessments.projectId, projectId),
        eq(stdReqAssessments.assessmentId, assessmentId),
        inArray(stdReqAssessments.nodeId, nodeIds),
      ),
    );
}

async function localWording(db: DbOrTx, projectId: number, nodeIds: number[]) {
  if (nodeIds.length === 0) return new Map<number, { wording: string; guidance: string }>();
  const rows = await db
    .select({ nodeId: stdNodeLocal.nodeId, wording: stdNodeLocal.wording, guidance: stdNodeLocal.guidance })
    .from(stdNodeLocal)
    .where(and(eq(stdNodeLocal.projectId, projectId), inArray(stdNodeLocal.nodeId, nodeIds)));
  return new Map(rows.map((r) => [r.nodeId, r]));
}

/** Open findings (open or with an action plan) of the elements, by element assessment. */
async function openFindings(db: DbOrTx, projectId: number, assessmentId: number, today: string) {
  const rows = await db
    .select()
    .from(stdFindings)
    .where(
      and(
        eq(stdFindings.projectId, projectId),
        eq(stdFindings.assessmentId, assessmentId),
        ne(stdFindings.status, 'closed'),
      ),
    )
    .orderBy(asc(stdFindings.dueDate), asc(stdFindings.id));
  const byReq = new Map<number, BinderFinding[]>();
  for (const f of rows) {
    const list = byReq.get(f.reqAssessmentId) ?? [];
    list.push({
      source: STD_FINDING_SOURCE_LABELS[f.source as StdFindingSource] ?? f.source,
      text: f.text,
      cell: `${SAFER_LIKELIHOOD_LABELS[f.likelihood as SaferLikelihood]} likelihood, ${SAFER_SCOPE_LABELS[
        f.scope as SaferScope
      ].toLowerCase()} scope`,
      immediateThreat: f.immediateThreat,
      status: STD_FINDING_STATUS_LABELS[f.status as StdFindingStatus] ?? f.status,
      citedOn: f.citedOn,
      dueDate: f.dueDate,
      overdue: f.dueDate < today,
    });
    byReq.set(f.reqAssessmentId, list);
  }
  return byReq;
}

/** One link per linked thing (an element's several links to the same policy read it once). */
const uniqueLinks = (links: readonly LinkRow[], type: string) => [
  ...new Map(links.filter((l) => l.targetType === type).map((l) => [l.targetId, l])).values(),
];

async function binderPolicies(
  db: DbOrTx,
  projectId: number,
  links: readonly LinkRow[],
  now: Date,
): Promise<Map<number, BinderPolicy>> {
  const live = await livePolicies(db, projectId, uniqueLinks(links, 'policy'), now);
  if (live.length === 0) return new Map();
  const docs = await db
    .select({ id: policyDocuments.id, versionId: policyDocuments.currentVersionId })
    .from(policyDocuments)
    .where(
      and(
        eq(policyDocuments.projectId, projectId),
        inArray(
          policyDocuments.id,
          live.map((p) => p.id),
        ),
      ),
    );
  const versionOf = new Map(docs.map((d) => [d.id, d.versionId]));
  const versionIds = live.flatMap((p) => (p.approved && versionOf.get(p.id) ? [versionOf.get(p.id)!] : []));
  const [contents, events, signatures] =
    versionIds.length === 0
      ? [[], [], []]
      : await Promise.all([
          db
            .select({ id: policyVersions.id, content: policyVersions.content })
            .from(policyVersions)
            .where(and(eq(policyVersions.projectId, projectId), inArray(policyVersions.id, versionIds))),
          db
            .select({
              versionId: policyWorkflowEvents.versionId,
              action: policyWorkflowEvents.action,
              who: nameSql,
              at: policyWorkflowEvents.createdAt,
              comment: policyWorkflowEvents.comment,
            })
            .from(policyWorkflowEvents)
            .leftJoin(users, eq(users.id, policyWorkflowEvents.actorId))
            .where(
              and(eq(policyWorkflowEvents.projectId, projectId), inArray(policyWorkflowEvents.versionId, versionIds)),
            )
            .orderBy(asc(policyWorkflowEvents.createdAt), asc(policyWorkflowEvents.id)),
          db
            .select()
            .from(policySignatures)
            .where(and(eq(policySignatures.projectId, projectId), inArray(policySignatures.versionId, versionIds)))
            .orderBy(asc(policySignatures.signedAt), asc(policySignatures.id)),
        ]);
  const result = new Map<number, BinderPolicy>();
  for (const policy of live) {
    const versionId = policy.approved ? (versionOf.get(policy.id) ?? null) : null;
    const content = contents.find((c) => c.id === versionId)?.content ?? '';
    result.set(policy.id, {
      id: policy.id,
      number: policy.number,
      title: policy.title,
      status: policy.status,
      approved: policy.approved,
      version: policy.version,
      effectiveOn: policy.effective_on,
      nextReviewOn: policy.next_review_on,
      reviewOverdue: policy.review_overdue,
      evidenceExpired: policy.evidence_expired,
      attestationRate: policy.attestation_rate,
      events: events
        .filter((e) => e.versionId === versionId)
        .map((e) => ({
          step: EVENT_LABELS[e.action] ?? e.action,
          who: e.who ?? 'Former user',
          at: isoMinute(e.at),
          comment: e.comment ?? '',
        })),
      signatures: signatures
        .filter((s) => s.versionId === versionId)
        .map((s) => ({
          signer: s.signerName,
          signedAt: isoMinute(s.signedAt),
          meaning: s.meaning,
          method: METHOD_LABELS[s.method] ?? s.method,
          sha256: s.contentSha256,
          voided: s.voidedAt ? `Voided ${isoMinute(s.voidedAt)}${s.voidReason ? `: ${s.voidReason}` : ''}` : null,
        })),
      blocks: content ? htmlBlocks(content) : [],
    });
  }
  return result;
}

const CHART_PERIODS = 24;
const TABLE_PERIODS = 12;

async function binderMeasures(
  db: DbOrTx,
  projectId: number,
  links: readonly LinkRow[],
  now: Date,
): Promise<Map<number, BinderMeasure>> {
  const ids = uniqueLinks(links, 'measure').map((l) => l.targetId);
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ measure: monMeasures, page: monPages.title })
    .from(monMeasures)
    .innerJoin(
      monPages,
      and(eq(monPages.id, monMeasures.pageId), eq(monPages.projectId, projectId), isNull(monPages.deletedAt)),
    )
    .where(and(eq(monMeasures.projectId, projectId), inArray(monMeasures.id, ids), isNull(monMeasures.deletedAt)));
  const result = new Map<number, BinderMeasure>();
  for (const { measure, page } of rows) {
    const series = await seriesOfMeasure(
      db,
      measure,
      { chart: measure.chartDefault as SpcChart, stratum: '', ruleProfile: measure.ruleProfile as SpcRuleSet },
      now,
    ).catch(() => null);
    const points = series?.points ?? [];
    const complete = points.filter((p) => !p.provisional);
    result.set(measure.id, {
      id: measure.id,
      name: measure.name,
      page,
      unit: measure.unitLabel,
      direction: measure.direction as ImprovementDirection,
      variation: series?.summary.variation ?? null,
      emptyReason: series ? series.empty_reason : 'The series could not be computed.',
      chart: points.slice(-CHART_PERIODS).map((p) => ({
        label: p.label,
        value: p.value,
        cl: p.cl,
        ucl: p.ucl,
        lcl: p.lcl,
        target: p.target,
        provisional: p.provisional,
      })),
      periods: complete.slice(-TABLE_PERIODS).map((p) => ({ period: p.label, value: p.value, target: p.target })),
    });
  }
  return result;
}

async function binderPrograms(
  db: DbOrTx,
  actor: StandardsActor,
  links: readonly LinkRow[],
  now: Date,
): Promise<Map<number, BinderProgram>> {
  const ids = uniqueLinks(links, 'cr_program').map((l) => l.targetId);
  const headlines = await programHeadlines(db, actor.projectId, ids, now);
  // The dashboard's trend is read with no chart review role at all (no section of the app is opened by it): the
  // standards panel shows every standards reader the same programme figures (programHeadlines).
  const reader = {
    userId: actor.userId,
    projectId: actor.projectId,
    isSuperadmin: false,
    role: null,
    rules: [],
    ip: actor.ip,
    requestId: actor.requestId,
  };
  const result = new Map<number, BinderProgram>();
  for (const [id, program] of headlines) {
    const dashboard = await getDashboard(db, reader, id, undefined, now).catch(() => null);
    result.set(id, {
      id,
      name: program.name,
      target: program.target,
      latest: program.period
        ? { period: program.period.label, rate: program.compliance.rate, n: program.compliance.n }
        : null,
      trend: (dashboard?.trend.points ?? [])
        .slice(-TABLE_PERIODS)
        .map((p) => ({ period: p.label, value: p.value, cases: p.cases })),
    });
  }
  return result;
}

/** Reads everything the binder of one node of an assessment shows (404 when the node is not in its framework). */
export async function loadBinder(
  db: DbOrTx,
  actor: StandardsActor,
  assessmentId: number,
  nodeId: number,
  now: Date,
): Promise<BinderData> {
  const assessment = await loadAssessment(db, actor.projectId, assessmentId);
  const framework = await loadFrameworkRow(db, assessment.frameworkId);
  const textPolicy = framework.textPolicy as StdTextPolicy;
  const nodes = await frameworkNodes(db, assessment.frameworkId);
  const root = nodes.find((n) => n.id === nodeId);
  if (!root) throw notFound('That part is not in the framework of this assessment.');
  const below = subtreeIds(nodes, root.id);
  const inScope = nodes.filter((n) => below.has(n.id));
  const reqs = await elementReqs(
    db,
    actor.projectId,
    assessment.id,
    inScope.filter((n) => n.assessable).map((n) => n.id),
  );
  if (reqs.length > MAX_BINDER_ELEMENTS) {
    throw new AppError('VALIDATION_FAILED', BINDER_TOO_LARGE, { node: [BINDER_TOO_LARGE] });
  }
  const reqOf = new Map(reqs.map((r) => [r.nodeId, r]));
  const ids = inScope.map((n) => n.id);
  const texts = await nodeTexts(db, ids, textPolicy);
  const local = await localWording(db, actor.projectId, ids);
  const today = isoDay(now);
  const findings = await openFindings(db, actor.projectId, assessment.id, today);
  const elementIds = reqs.map((r) => r.nodeId);
  const links = await linksOfNodes(db, actor.projectId, elementIds);
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const pathOf = (id: number) => {
    const parts: string[] = [];
    for (let at = byId.get(id)?.parentId ?? null; at !== null; at = byId.get(at)?.parentId ?? null) {
      const node = byId.get(at);
      if (node) parts.unshift(`${node.refId} ${node.title}`);
    }
    return parts.join(' > ');
  };

  const items: (BinderSection | BinderElement)[] = [];
  for (const node of inScope) {
    const depth = node.depth - root.depth;
    const req = reqOf.get(node.id);
    if (!node.assessable || !req) {
      if (!node.assessable) {
        items.push({
          kind: 'section',
          nodeId: node.id,
          refId: node.refId,
          title: node.title,
          depth,
          text: texts.get(node.id) ?? null,
        });
      }
      continue;
    }
    items.push({
      kind: 'element',
      nodeId: node.id,
      refId: node.refId,
      title: node.title,
      depth,
      path: pathOf(node.id),
      text: texts.get(node.id) ?? null,
      wording: local.get(node.id)?.wording ?? '',
      guidance: local.get(node.id)?.guidance ?? '',
      result: req.result as StdResult,
      status: req.status as StdStatus,
      naJustification: req.naJustification,
      owner: req.ownerName,
      dueDate: req.dueDate,
      overdue: isOverdue(req.dueDate, req.status, today),
      lastReviewed: req.lastReviewedAt
        ? `${isoDay(req.lastReviewedAt)}${req.lastReviewedBy ? ` by ${req.lastReviewedBy}` : ''}`
        : null,
      observation: req.observation,
      findings: findings.get(req.id) ?? [],
      links: links
        .filter((l) => l.nodeId === node.id)
        .map((l) => ({ type: l.targetType as StdLinkTarget, id: l.targetId, note: l.note })),
    });
  }
  return {
    facility: await facilityName(db, actor.projectId),
    assessment: {
      id: assessment.id,
      name: assessment.name,
      kind: KIND_LABELS[assessment.kind] ?? assessment.kind,
      surveyWindow:
        assessment.surveyWindowStart || assessment.surveyWindowEnd
          ? `${assessment.surveyWindowStart ?? '...'} to ${assessment.surveyWindowEnd ?? '...'}`
          : null,
    },
    framework: {
      name: framework.name,
      edition: framework.edition,
      publisher: framework.publisher,
      textPolicy,
      licenceNote: framework.licenceNote,
    },
    node: { id: root.id, refId: root.refId, title: root.title, nodeType: root.nodeType },
    generatedAt: now,
    generatedBy: await personName(db, actor.userId),
    items,
    policies: await binderPolicies(db, actor.projectId, links, now),
    measures: await binderMeasures(db, actor.projectId, links, now),
    programs: await binderPrograms(db, actor, links, now),
    questions: new Map((await liveQuestions(db, actor.projectId, links)).map((q) => [q.id, q])),
  };
}

// ------------------------------------------------------------------------------------------------ binder drawing

const TEXT_LABELS: Record<StdTextPolicy, string> = {
  public_domain: 'Regulation text',
  tenant_text: 'Standard text',
  identifiers_only: '',
};

const footerOf =
  (facility: string, assessment: string, generatedAt: Date, kind: string) => (page: number, of: number) =>
    `${kind} · ${facility} · ${assessment} · generated ${isoDay(generatedAt)} · page ${page} of ${of}`;

function coverFacts(data: BinderData): [string, string][] {
  const elements = data.items.filter((i) => i.kind === 'element').length;
  return [
    ['Facility', data.facility],
    ['Assessment', `${data.assessment.name} (${data.assessment.kind})`],
    ...(data.assessment.surveyWindow ? [['Survey window', data.assessment.surveyWindow] as [string, string]] : []),
    ['Framework', `${data.framework.name}, edition ${data.framework.edition} (${data.framework.publisher})`],
    ['Part', `${data.node.refId} ${data.node.title} (${data.node.nodeType}), ${elements} elements`],
    ['Generated', isoMinute(data.generatedAt)],
    ['Generated by', data.generatedBy],
  ];
}

const coverNote = (data: BinderData) =>
  data.framework.textPolicy === 'identifiers_only'
    ? 'This framework is kept by identifiers and titles only: the publisher’s text is not reproduced. The facility’s own wording is shown where it was written.'
    : data.framework.textPolicy === 'public_domain'
      ? 'The regulation text is reproduced from a public-domain source.'
      : '';

/** The cover: what, whose, when, by whom; the contents follow on reserved lines filled in at the end. */
function drawCover(doc: Pdf, data: BinderData): number {
  heading(doc, 'Survey binder', 1);
  paragraph(doc, `${data.node.refId} ${data.node.title}`, { bold: true, size: 13 });
  facts(doc, coverFacts(data), 95);
  paragraph(doc, coverNote(data), { muted: true, italic: true, size: 8.5 });
  heading(doc, 'Contents', 2);
  return doc.y;
}

/** Blank pages kept for the contents beyond the first page (one line per section and element). */
function reserveContents(doc: Pdf, entries: number, firstTop: number): number {
  const first = contentsLinesPerPage(doc, firstTop);
  const more = contentsLinesPerPage(doc, doc.page.margins.top);
  const extraPages = entries <= first ? 0 : Math.ceil((entries - first) / more);
  for (let i = 0; i < extraPages; i += 1) doc.addPage();
  return extraPages + 1;
}

function fillContents(doc: Pdf, entries: readonly ContentsEntry[], firstTop: number): void {
  let page = 0;
  let y = firstTop;
  doc.switchToPage(0);
  for (const entry of entries) {
    if (y + CONTENTS_LINE > doc.page.height - doc.page.margins.bottom) {
      page += 1;
      doc.switchToPage(page);
      y = doc.page.margins.top;
    }
    contentsLine(doc, entry, y);
    y += CONTENTS_LINE;
  }
}

function drawSection(doc: Pdf, section: BinderSection, textLabel: string): void {
  heading(doc, `${section.refId} ${section.title}`, section.depth === 0 ? 2 : 3);
  if (section.text) paragraph(doc, `${textLabel}: ${section.text}`, { muted: true, size: 8.5 });
}

function elementFacts(element: BinderElement): [string, string][] {
  const result = STD_RESULT_LABELS[element.result];
  return [
    ['Result', element.result === 'not_applicable' ? `${result}: ${element.naJustification}` : result],
    ['Status', STD_STATUS_LABELS[element.status]],
    ['Owner', element.owner ?? 'Nobody'],
    ['Due', element.dueDate ? `${element.dueDate}${element.overdue ? ' (overdue)' : ''}` : 'None'],
    ['Last reviewed', element.lastReviewed ?? 'Never'],
    ['Observation', element.observation],
  ];
}

function drawFindings(doc: Pdf, findings: readonly BinderFinding[]): void {
  heading(doc, 'Open findings', 4);
  if (findings.length === 0) {
    paragraph(doc, 'No open findings.', { muted: true });
    return;
  }
  table(
    doc,
    [
      { header: 'Finding', weight: 5 },
      { header: 'SAFER cell', weight: 2.4 },
      { header: 'Source', weight: 1.4 },
      { header: 'Status', weight: 1.3 },
      { header: 'Cited', weight: 1.3 },
      { header: 'Due', weight: 1.5 },
    ],
    findings.map((f) => [
      f.text,
      `${f.cell}${f.immediateThreat ? ', immediate threat' : ''}`,
      f.source,
      f.status,
      f.citedOn,
      `${f.dueDate}${f.overdue ? ' (overdue)' : ''}`,
    ]),
  );
}

function policyName(policy: BinderPolicy): string {
  return `${policy.number ? `${policy.number} ` : ''}${policy.title}`;
}

function drawSignatures(doc: Pdf, policy: BinderPolicy): void {
  heading(doc, 'Signatures', 4);
  if (policy.signatures.length === 0) {
    paragraph(doc, 'No signatures on this version.', { muted: true });
    return;
  }
  for (const s of policy.signatures) {
    // A signature and its hash stay on one page.
    ensureSpace(doc, s.voided ? 100 : 86);
    facts(
      doc,
      [
        ['Signer', s.voided ? `${s.signer} (VOIDED)` : s.signer],
        ['Signed at', s.signedAt],
        ['Meaning', s.meaning],
        ['Method', s.method],
        ...(s.voided ? [['Voided', s.voided] as [string, string]] : []),
      ],
      95,
    );
    monoLine(doc, 'SHA-256 of the content signed', s.sha256);
    doc.moveDown(0.2);
  }
}

/** A policy in full; returns the (zero-based) page its heading landed on. */
function drawPolicy(doc: Pdf, policy: BinderPolicy, note: string): number {
  heading(doc, `Policy ${policyName(policy)}`, 3);
  const page = pageIndex(doc);
  facts(doc, [
    ['Version', policy.approved ? `${policy.version ?? ''}` : 'No approved version'],
    ['Effective', policy.effectiveOn ?? 'None'],
    [
      'Next review',
      `${policy.nextReviewOn ?? 'None'}${policy.reviewOverdue ? ' (past its review date: evidence expired)' : ''}`,
    ],
    [
      'Read attestation',
      policy.attestationRate === null ? 'Nobody is asked to read it' : percent(policy.attestationRate),
    ],
    ...(note ? [['Link note', note] as [string, string]] : []),
  ]);
  if (!policy.approved) {
    paragraph(
      doc,
      policy.status === 'archived'
        ? 'This policy is archived: the evidence it gave is expired.'
        : 'This policy has never been published: it is not evidence yet.',
      { italic: true },
    );
    return page;
  }
  heading(doc, 'Approval trail', 4);
  if (policy.events.length === 0) paragraph(doc, 'No workflow steps were recorded for this version.', { muted: true });
  table(
    doc,
    [
      { header: 'Step', weight: 2 },
      { header: 'Who', weight: 2 },
      { header: 'When', weight: 2 },
      { header: 'Comment', weight: 4 },
    ],
    policy.events.map((e) => [e.step, e.who, e.at, e.comment]),
  );
  drawSignatures(doc, policy);
  heading(doc, 'Policy text', 4);
  if (policy.blocks.length === 0) paragraph(doc, 'The version has no text.', { muted: true });
  drawHtml(doc, policy.blocks);
  rule(doc);
  return page;
}

function drawMeasure(doc: Pdf, measure: BinderMeasure, note: string): void {
  heading(doc, `Measure ${measure.name}`, 3);
  facts(doc, [
    ['Monitoring page', measure.page],
    ['Unit', measure.unit],
    ['Better when', measure.direction === 'down' ? 'Lower' : 'Higher'],
    ['Variation', measure.variation ? (VARIATION_LABELS[measure.variation] ?? measure.variation) : 'None'],
    ...(note ? [['Link note', note] as [string, string]] : []),
  ]);
  if (measure.chart.every((p) => p.value === null)) {
    paragraph(doc, measure.emptyReason ?? 'No data yet.', { muted: true });
    return;
  }
  lineChart(doc, measure.chart, measure.unit);
  table(
    doc,
    [
      { header: 'Period', weight: 2 },
      { header: 'Value', weight: 1.5, align: 'right' },
      { header: 'Target', weight: 1.5, align: 'right' },
    ],
    measure.periods.map((p) => [
      p.period,
      p.value === null ? 'No data' : formatNumber(p.value, measure.unit),
      formatNumber(p.target, measure.unit),
    ]),
  );
}

/** A linked audit question: its compliance in each programme auditing with its tool (newest counted period). */
function drawQuestion(doc: Pdf, question: StdLinkedQuestion, note: string): void {
  heading(doc, `Audit question (${question.tool})`, 3);
  paragraph(doc, question.text);
  facts(doc, [['Key', question.key], ...(note ? [['Link note', note] as [string, string]] : [])]);
  if (question.programs.length === 0) {
    paragraph(doc, 'No programme audits with this tool yet.', { muted: true });
    return;
  }
  table(
    doc,
    [
      { header: 'Programme', weight: 3 },
      { header: 'Latest period', weight: 2 },
      { header: 'Compliance', weight: 2 },
      { header: 'Target', weight: 1 },
    ],
    question.programs.map((p) => [
      p.name,
      p.latest?.period ?? 'No reviewed period yet',
      p.latest ? `${percent(p.latest.rate)} (n = ${p.latest.n})` : '',
      percent(p.target),
    ]),
  );
}

function drawProgram(doc: Pdf, program: BinderProgram, note: string): void {
  heading(doc, `Chart review ${program.name}`, 3);
  facts(doc, [
    [
      'Latest period',
      program.latest
        ? `${program.latest.period}: ${percent(program.latest.rate)} compliance, n = ${program.latest.n}`
        : 'No reviewed period yet',
    ],
    ['Target', percent(program.target)],
    ...(note ? [['Link note', note] as [string, string]] : []),
  ]);
  const reviewed = program.trend.filter((p) => p.value !== null);
  if (reviewed.length >= 2) {
    lineChart(
      doc,
      program.trend.map((p) => ({
        label: p.period,
        value: p.value === null ? null : p.value * 100,
        cl: null,
        ucl: null,
        lcl: null,
        target: program.target * 100,
        provisional: false,
      })),
      '%',
      110,
    );
  }
  if (program.trend.length > 0) {
    table(
      doc,
      [
        { header: 'Period', weight: 2 },
        { header: 'Compliance', weight: 1.5, align: 'right' },
        { header: 'Cases', weight: 1, align: 'right' },
      ],
      program.trend.map((p) => [p.period, p.value === null ? 'Not reviewed' : percent(p.value), String(p.cases)]),
    );
  }
}

/** Where each policy was printed in full (a zero-based page index), so later elements refer to it. */
type Printed = Map<number, number>;

function drawPolicyLink(doc: Pdf, policy: BinderPolicy, note: string, printed: Printed): void {
  const page = printed.get(policy.id);
  if (page === undefined) {
    printed.set(policy.id, drawPolicy(doc, policy, note));
    return;
  }
  heading(doc, `Policy ${policyName(policy)}`, 3);
  paragraph(doc, `Printed in full on page ${page + 1}, with its approval trail and signatures.`, { muted: true });
  if (note) facts(doc, [['Link note', note]]);
}

function drawElement(doc: Pdf, data: BinderData, element: BinderElement, printed: Printed): void {
  doc.outline.addItem(`${element.refId} ${element.title}`);
  if (element.path) paragraph(doc, element.path, { muted: true, size: 8 });
  heading(doc, `${element.refId} ${element.title}`, 2);
  if (element.text) {
    heading(doc, TEXT_LABELS[data.framework.textPolicy], 4);
    paragraph(doc, element.text);
  }
  if (element.wording.trim()) {
    heading(doc, 'Facility wording', 4);
    paragraph(doc, element.wording);
  }
  if (element.guidance.trim()) {
    heading(doc, 'Guidance', 4);
    paragraph(doc, element.guidance);
  }
  heading(doc, 'Assessment', 4);
  facts(doc, elementFacts(element));
  drawFindings(doc, element.findings);
  if (element.links.length === 0) {
    heading(doc, 'Evidence', 4);
    paragraph(doc, 'Nothing is linked to this element.', { muted: true });
  }
  for (const link of element.links) {
    if (link.type === 'policy') {
      const policy = data.policies.get(link.id);
      if (policy) drawPolicyLink(doc, policy, link.note, printed);
    } else if (link.type === 'measure') {
      const measure = data.measures.get(link.id);
      if (measure) drawMeasure(doc, measure, link.note);
    } else if (link.type === 'cr_program') {
      const program = data.programs.get(link.id);
      if (program) drawProgram(doc, program, link.note);
    } else {
      const question = data.questions.get(link.id);
      if (question) drawQuestion(doc, question, link.note);
    }
  }
}

/**
 * Draws the binder: the cover with its contents (page numbers filled in once known), then each element from a new
 * page in document order, under the headings of the chapters and standards it opens, each policy in full the first
 * time it appears.
 */
export function renderBinder(data: BinderData, options: Partial<RenderOptions> = {}): { doc: Pdf; pages: number } {
  const { paper, compress } = { ...DEFAULTS, ...options };
  const title = `Survey binder ${data.node.refId} ${data.node.title}`;
  const doc = createPdf({ paper, compress, title, author: data.facility, createdAt: data.generatedAt });
  const contentsTop = drawCover(doc, data);
  reserveContents(doc, data.items.length, contentsTop);
  const entries: ContentsEntry[] = [];
  const printed: Printed = new Map();
  const textLabel = TEXT_LABELS[data.framework.textPolicy];
  let pending: BinderSection[] = [];
  const startPage = () => {
    doc.addPage();
    for (const section of pending) {
      doc.outline.addItem(`${section.refId} ${section.title}`);
      drawSection(doc, section, textLabel);
      entries.push({ ref: section.refId, title: section.title, depth: section.depth, page: pageIndex(doc) + 1 });
    }
    pending = [];
  };
  for (const item of data.items) {
    if (item.kind === 'section') {
      pending.push(item);
      continue;
    }
    startPage();
    entries.push({ ref: item.refId, title: item.title, depth: item.depth, page: pageIndex(doc) + 1 });
    drawElement(doc, data, item, printed);
  }
  if (pending.length > 0) startPage();
  fillContents(doc, entries, contentsTop);
  const pages = doc.bufferedPageRange().count;
  footers(doc, footerOf(data.facility, data.assessment.name, data.generatedAt, 'Survey binder'));
  doc.end();
  return { doc, pages };
}

// ------------------------------------------------------------------------------------------------ gap report

export interface GapRow {
  chapter: string;
  refId: string;
  title: string;
  result: StdResult;
  status: StdStatus;
  owner: string;
  dueDate: string;
  overdue: boolean;
  observation: string;
  wording: string;
  findings: string;
}

export interface GapReportData {
  facility: string;
  assessment: { id: number; name: string; kind: string };
  framework: { name: string; edition: string };
  generatedAt: Date;
  generatedBy: string;
  applicable: number;
  rows: GapRow[];
}

/** The rows of the gap report (the CSV's: every applicable element short of compliant, in document order). */
export async function loadGapReport(
  db: DbOrTx,
  actor: StandardsActor,
  assessmentId: number,
  now: Date,
): Promise<GapReportData> {
  const assessment = await loadAssessment(db, actor.projectId, assessmentId);
  const framework = await loadFrameworkRow(db, assessment.frameworkId);
  const nodes = await frameworkNodes(db, assessment.frameworkId);
  const reqs = await elementReqs(
    db,
    actor.projectId,
    assessment.id,
    nodes.filter((n) => n.assessable).map((n) => n.id),
  );
  const reqOf = new Map(reqs.map((r) => [r.nodeId, r]));
  const wording = await localWording(
    db,
    actor.projectId,
    nodes.map((n) => n.id),
  );
  const today = isoDay(now);
  const findings = await openFindings(db, actor.projectId, assessment.id, today);
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const chapterOf = (id: number) => {
    let at = byId.get(id)!;
    while (at.parentId !== null && byId.has(at.parentId)) at = byId.get(at.parentId)!;
    return at.refId;
  };
  const rows: GapRow[] = [];
  for (const node of nodes) {
    const req = reqOf.get(node.id);
    if (!req || req.result === 'compliant' || req.result === 'not_applicable') continue;
    rows.push({
      chapter: chapterOf(node.id),
      refId: node.refId,
      title: node.title,
      result: req.result as StdResult,
      status: req.status as StdStatus,
      owner: req.ownerName ?? '',
      dueDate: req.dueDate ?? '',
      overdue: isOverdue(req.dueDate, req.status, today),
      observation: req.observation,
      wording: wording.get(node.id)?.wording ?? '',
      findings: (findings.get(req.id) ?? []).map((f) => `${f.text} (due ${f.dueDate})`).join(' | '),
    });
  }
  return {
    facility: await facilityName(db, actor.projectId),
    assessment: { id: assessment.id, name: assessment.name, kind: KIND_LABELS[assessment.kind] ?? assessment.kind },
    framework: { name: framework.name, edition: framework.edition },
    generatedAt: now,
    generatedBy: await personName(db, actor.userId),
    applicable: reqs.filter((r) => r.result !== 'not_applicable').length,
    rows,
  };
}

function gapSummary(data: GapReportData): [string, string][] {
  const count = (result: StdResult) => data.rows.filter((r) => r.result === result).length;
  return [
    ['Facility', data.facility],
    ['Assessment', `${data.assessment.name} (${data.assessment.kind})`],
    ['Framework', `${data.framework.name}, edition ${data.framework.edition}`],
    [
      'Gaps',
      `${data.rows.length} of ${data.applicable} applicable elements: ${count('non_compliant')} non-compliant, ${count(
        'partially_compliant',
      )} partially compliant, ${count('not_assessed')} not assessed; ${data.rows.filter((r) => r.overdue).length} overdue`,
    ],
    ['Generated', `${isoMinute(data.generatedAt)} by ${data.generatedBy}`],
  ];
}

/** Draws the gap report: a summary, then one landscape table row per gap (the CSV's columns). */
export function renderGapReport(
  data: GapReportData,
  options: Partial<RenderOptions> = {},
): { doc: Pdf; pages: number } {
  const { paper, compress } = { ...DEFAULTS, ...options };
  const doc = createPdf({
    paper,
    compress,
    layout: 'landscape',
    title: `Gap report ${data.assessment.name}`,
    author: data.facility,
    createdAt: data.generatedAt,
  });
  heading(doc, 'Gap report', 1);
  facts(doc, gapSummary(data), 80);
  if (data.rows.length === 0) paragraph(doc, 'No gaps: every applicable element is compliant.', { italic: true });
  table(
    doc,
    [
      { header: 'Chapter', weight: 0.9 },
      { header: 'Ref', weight: 1.1 },
      { header: 'Title', weight: 2.4 },
      { header: 'Result', weight: 1.6 },
      { header: 'Status', weight: 1.1 },
      { header: 'Owner', weight: 1.4 },
      { header: 'Due', weight: 1.2 },
      { header: 'Overdue', weight: 1.1 },
      { header: 'Observation', weight: 3 },
      { header: 'Facility wording', weight: 2.8 },
      { header: 'Open findings', weight: 3 },
    ],
    data.rows.map((r) => [
      r.chapter,
      r.refId,
      r.title,
      STD_RESULT_LABELS[r.result],
      STD_STATUS_LABELS[r.status],
      r.owner,
      r.dueDate,
      r.overdue ? 'yes' : 'no',
      clip(r.observation, 600),
      clip(r.wording, 600),
      clip(r.findings, 600),
    ]),
    7,
  );
  const pages = doc.bufferedPageRange().count;
  footers(doc, footerOf(data.facility, data.assessment.name, data.generatedAt, 'Gap report'));
  doc.end();
  return { doc, pages };
}

// ------------------------------------------------------------------------------------------------ exports

const slug = (value: string) =>
  safeFileName(value.replace(/\s+/g, '-'))
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 60) || 'part';

/**
 * GET /assessments/{id}/binder.pdf?node=: the survey binder of a chapter, condition, standard or element (at most
 * 500 elements). Read and drawn before anything is sent; audited with the node and the counts.
 */
export async function binderPdf(
  db: DbOrTx,
  actor: StandardsActor,
  assessmentId: number,
  nodeId: number,
  now: Date,
  options: Partial<RenderOptions> = {},
): Promise<PdfFile> {
  const data = await loadBinder(db, actor, assessmentId, nodeId, now);
  const { doc, pages } = renderBinder(data, options);
  const elements = data.items.filter((i): i is BinderElement => i.kind === 'element');
  await standardsAudit(
    db,
    actor,
    'binder_exported',
    { type: 'std_assessment', id: data.assessment.id },
    {
      node_id: data.node.id,
      ref_id: data.node.refId,
      elements: elements.length,
      policies: data.policies.size,
      measures: data.measures.size,
      programs: data.programs.size,
      pages,
    },
  );
  return { filename: `survey-binder-${slug(data.node.refId)}-${isoDay(now)}.pdf`, stream: doc, pages };
}

/** GET /assessments/{id}/gap-report.pdf: the gap report's rows as a landscape table. Audited (format pdf). */
export async function gapReportPdf(
  db: DbOrTx,
  actor: StandardsActor,
  assessmentId: number,
  now: Date,
  options: Partial<RenderOptions> = {},
): Promise<PdfFile> {
  const data = await loadGapReport(db, actor, assessmentId, now);
  const { doc, pages } = renderGapReport(data, options);
  await standardsAudit(
    db,
    actor,
    'gap_report_exported',
    { type: 'std_assessment', id: data.assessment.id },
    { rows: data.rows.length, format: 'pdf' },
  );
  return { filename: `gap-report-${slug(data.assessment.name.toLowerCase())}-${isoDay(now)}.pdf`, stream: doc, pages };
}
