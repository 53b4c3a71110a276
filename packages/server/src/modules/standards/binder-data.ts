import type { Readable } from 'node:stream';
import {
  formatLongDate,
  formatPercent,
  type ImprovementDirection,
  SAFER_LIKELIHOOD_LABELS,
  SAFER_SCOPE_LABELS,
  type SaferLikelihood,
  type SaferScope,
  type SpcChart,
  type SpcRuleSet,
  STD_FINDING_SOURCE_LABELS,
  STD_FINDING_STATUS_LABELS,
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
import { personName as nameSql } from '../../db/person-name.js';
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
import { AppError, notFound } from '../../lib/errors.js';
import { type ChartPoint, type HtmlBlock, htmlBlocks, type Paper } from '../../lib/pdf-drawing.js';
import type { StandardsActor } from '../../policies/standards.js';
import { getDashboard, programHeadlines } from '../chart-review/dashboard.service.js';
import { seriesOfMeasure } from '../monitoring/series.service.js';
import { type LinkRow, linksOfNodes, livePolicies, liveQuestions } from './live-links.js';
import { frameworkNodes, isOverdue, loadAssessment, subtreeIds } from './records.js';
import { isoDay } from './route-kit.js';

/**
 * What the survey binder and the gap report print, read before anything is drawn (docs/standards.md "Survey binder
 * and gap report (PDF)"): the assessment, the elements below a node with their wording, results, findings and links,
 * and the live state of the linked policies (with their approval and signature trail), measures and programmes.
 */

/** The footer of every page of a binder or gap report. */
export const footerOf =
  (facility: string, assessment: string, generatedAt: Date, kind: string) => (page: number, of: number) =>
    `${kind} · ${facility} · ${assessment} · generated ${formatLongDate(generatedAt)} · page ${page} of ${of}`;

export const MAX_BINDER_ELEMENTS = 500;
export const BINDER_TOO_LARGE = 'Choose a smaller part: at most 500 elements per binder.';

/** A moment as the PDFs print it: the shared long date and the UTC time, 'January 10, 2026, 10:00 UTC'. */
export const longMinute = (d: Date) => `${formatLongDate(d)}, ${d.toISOString().slice(11, 16)} UTC`;
/** A calendar day as the PDFs print it, 'November 1, 2026' (formatLongDate); `empty` without one. */
export const longDay = (day: string | null | undefined, empty = 'None') => formatLongDate(day, { empty });
/**
 * A share in the shared percent format, 'None' without one; `digits: 2` for a configured value (a target) as
 * precisely as it was set.
 */
export const percent = (share: number | null, digits = 1) => formatPercent(share, { digits, empty: 'None' });

export const KIND_LABELS: Record<string, string> = { self: 'Self-assessment', mock: 'Mock survey', survey: 'Survey' };
export const EVENT_LABELS: Record<string, string> = {
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
export const METHOD_LABELS: Record<string, string> = { password: 'Password', totp: 'Authenticator code' };
export const VARIATION_LABELS: Record<string, string> = {
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
export const DEFAULTS: RenderOptions = { paper: 'letter', compress: true };

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

export async function facilityName(db: DbOrTx, projectId: number): Promise<string> {
  const [row] = await db
    .select({ name: projects.name, facility: projects.facilityName })
    .from(projects)
    .where(eq(projects.id, projectId));
  return row?.facility.trim() || row?.name || '';
}

export async function personName(db: DbOrTx, userId: number): Promise<string> {
  const [row] = await db.select({ name: nameSql }).from(users).where(eq(users.id, userId));
  return row?.name ?? 'Unknown user';
}

export async function loadFrameworkRow(db: DbOrTx, frameworkId: number) {
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

export async function elementReqs(db: DbOrTx, projectId: number, assessmentId: number, nodeIds: number[]) {
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

export async function localWording(db: DbOrTx, projectId: number, nodeIds: number[]) {
  if (nodeIds.length === 0) return new Map<number, { wording: string; guidance: string }>();
  const rows = await db
    .select({ nodeId: stdNodeLocal.nodeId, wording: stdNodeLocal.wording, guidance: stdNodeLocal.guidance })
    .from(stdNodeLocal)
    .where(and(eq(stdNodeLocal.projectId, projectId), inArray(stdNodeLocal.nodeId, nodeIds)));
  return new Map(rows.map((r) => [r.nodeId, r]));
}

/** Open findings (open or with an action plan) of the elements, by element assessment. */
export async function openFindings(db: DbOrTx, projectId: number, assessmentId: number, today: string) {
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
          at: longMinute(e.at),
          comment: e.comment ?? '',
        })),
      signatures: signatures
        .filter((s) => s.versionId === versionId)
        .map((s) => ({
          signer: s.signerName,
          signedAt: longMinute(s.signedAt),
          meaning: s.meaning,
          method: METHOD_LABELS[s.method] ?? s.method,
          sha256: s.contentSha256,
          voided: s.voidedAt ? `Voided ${longMinute(s.voidedAt)}${s.voidReason ? `: ${s.voidReason}` : ''}` : null,
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
  const links = await linksOfNodes(db, actor, elementIds);
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
        ? `${formatLongDate(req.lastReviewedAt)}${req.lastReviewedBy ? ` by ${req.lastReviewedBy}` : ''}`
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
          ? `${longDay(assessment.surveyWindowStart, '...')} to ${longDay(assessment.surveyWindowEnd, '...')}`
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
