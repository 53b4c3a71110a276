import type {
  ImprovementDirection,
  SpcChart,
  SpcRuleSet,
  StdLinkedMeasure,
  StdLinkedPolicy,
  StdLinkedProgram,
  StdLinkedQuestion,
} from '@portal/shared';
import { periodLabel, questionCompliance } from '@portal/shared';
import { and, asc, count, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import {
  crPrograms,
  crQuestions,
  crTools,
  crToolVersions,
  monMeasures,
  monPages,
  policyAttestations,
  policyDocuments,
  policySignatures,
  policyVersions,
  traceLinks,
} from '../../db/schema/index.js';
import type { Viewer } from '../../policies/app-access.js';
import { latestCountedAnswers, programHeadlines } from '../chart-review/dashboard.service.js';
import { loadSettings } from '../chart-review/settings.service.js';
import { seriesOfMeasure } from '../monitoring/series.service.js';
import { visibleMeasures } from '../monitoring/visibility.js';
import { departmentRoles } from '../policies/department-roles.service.js';
import { visibleDocuments } from '../policies/visibility.js';
import { isoDay } from './route-kit.js';

/**
 * The live state of what supports a standard element (the closed loop, docs/standards.md "Links"): each linked
 * policy's approval, signatures, read rate and review date; each linked measure's latest value, target and
 * variation from the monitoring series; each linked audit's latest compliance from the chart review dashboard.
 * Nothing is copied: every read asks the modules that own the data, scoped by the project.
 */

export interface LinkRow {
  id: number;
  nodeId: number;
  targetType: string;
  targetId: number;
  note: string;
}

/** The node's links whose targets the viewer may see where they live (a hidden one is left out, never named). */
export async function linksOfNodes(db: DbOrTx, viewer: Viewer, nodeIds: readonly number[]): Promise<LinkRow[]> {
  if (nodeIds.length === 0) return [];
  return db
    .select({
      id: traceLinks.id,
      nodeId: traceLinks.nodeId,
      targetType: traceLinks.targetType,
      targetId: traceLinks.targetId,
      note: traceLinks.note,
    })
    .from(traceLinks)
    .where(
      and(
        eq(traceLinks.projectId, viewer.projectId),
        inArray(traceLinks.nodeId, [...nodeIds]),
        await targetVisible(db, viewer),
      ),
    )
    .orderBy(asc(traceLinks.createdAt), asc(traceLinks.id));
}

/**
 * A condition on `trace_links`: the viewer may see the link's target where it lives, the same rule as visibleLinks
 * in SQL, so that a list of links is read in one statement.
 */
async function targetVisible(db: DbOrTx, viewer: Viewer): Promise<SQL> {
  const policies = (await visibleDocuments(db, viewer)) ?? sql`true`;
  const measures = await visibleMeasures(db, viewer);
  return sql`case ${traceLinks.targetType}
    when 'policy' then exists (select 1 from ${policyDocuments} where ${policyDocuments.projectId} = ${viewer.projectId}
      and ${policyDocuments.id} = ${traceLinks.targetId} and ${policies})
    when 'measure' then exists (select 1 from ${monMeasures} where ${monMeasures.projectId} = ${viewer.projectId}
      and ${monMeasures.id} = ${traceLinks.targetId} and ${measures})
    else true end`;
}

/**
 * The links whose targets the viewer may see: policies as policy management shows them, measures as monitoring does
 * (decision record 021). Audits and their questions are not hidden from the project's members.
 */
export async function visibleLinks<T extends { targetType: string; targetId: number }>(
  db: DbOrTx,
  viewer: Viewer,
  links: readonly T[],
): Promise<T[]> {
  const idsOf = (type: string) => [...new Set(links.filter((l) => l.targetType === type).map((l) => l.targetId))];
  const policyIds = idsOf('policy');
  const measureIds = idsOf('measure');
  const policies =
    policyIds.length === 0
      ? []
      : await db
          .select({ id: policyDocuments.id })
          .from(policyDocuments)
          .where(
            and(
              eq(policyDocuments.projectId, viewer.projectId),
              inArray(policyDocuments.id, policyIds),
              await visibleDocuments(db, viewer),
            ),
          );
  const measures =
    measureIds.length === 0
      ? []
      : await db
          .select({ id: monMeasures.id })
          .from(monMeasures)
          .where(
            and(
              eq(monMeasures.projectId, viewer.projectId),
              inArray(monMeasures.id, measureIds),
              await visibleMeasures(db, viewer),
            ),
          );
  const seen = { policy: new Set(policies.map((p) => p.id)), measure: new Set(measures.map((m) => m.id)) };
  return links.filter((link) =>
    link.targetType === 'policy' || link.targetType === 'measure' ? seen[link.targetType].has(link.targetId) : true,
  );
}

export async function livePolicies(
  db: DbOrTx,
  projectId: number,
  links: readonly LinkRow[],
  now: Date,
): Promise<StdLinkedPolicy[]> {
  const ids = links.filter((l) => l.targetType === 'policy').map((l) => l.targetId);
  if (ids.length === 0) return [];
  const docs = await db
    .select({
      id: policyDocuments.id,
      number: policyDocuments.number,
      title: policyDocuments.title,
      status: policyDocuments.status,
      departmentId: policyDocuments.departmentId,
      currentVersionId: policyDocuments.currentVersionId,
      nextReviewOn: policyDocuments.nextReviewOn,
      version: policyVersions.version,
      effectiveOn: policyVersions.effectiveOn,
      round: policyVersions.round,
    })
    .from(policyDocuments)
    .leftJoin(
      policyVersions,
      and(eq(policyVersions.id, policyDocuments.currentVersionId), eq(policyVersions.projectId, projectId)),
    )
    .where(and(eq(policyDocuments.projectId, projectId), inArray(policyDocuments.id, ids)));
  const byId = new Map(docs.map((doc) => [doc.id, doc]));
  const versionIds = docs.flatMap((doc) => (doc.currentVersionId === null ? [] : [doc.currentVersionId]));
  const signatures =
    versionIds.length === 0
      ? []
      : await db
          .select({ versionId: policySignatures.versionId, n: count() })
          .from(policySignatures)
          .where(
            and(
              eq(policySignatures.projectId, projectId),
              inArray(policySignatures.versionId, versionIds),
              isNull(policySignatures.voidedAt),
            ),
          )
          .groupBy(policySignatures.versionId);
  const signed = new Map(signatures.map((row) => [row.versionId, row.n]));
  const today = isoDay(now);
  const result: StdLinkedPolicy[] = [];
  for (const link of links) {
    if (link.targetType !== 'policy') continue;
    const doc = byId.get(link.targetId);
    if (!doc) continue;
    const approved = doc.currentVersionId !== null && doc.status !== 'archived';
    let rate: number | null = null;
    if (approved && doc.departmentId !== null) {
      const readers = (await departmentRoles(db, projectId, doc.departmentId)).readers.map((r) => r.id);
      if (readers.length > 0) {
        const [row] = await db
          .select({ n: count() })
          .from(policyAttestations)
          .where(
            and(
              eq(policyAttestations.projectId, projectId),
              eq(policyAttestations.versionId, doc.currentVersionId!),
              inArray(policyAttestations.userId, readers),
            ),
          );
        rate = (row?.n ?? 0) / readers.length;
      }
    }
    const reviewOverdue = approved && doc.nextReviewOn !== null && doc.nextReviewOn < today;
    result.push({
      link_id: link.id,
      note: link.note,
      id: doc.id,
      number: doc.number,
      title: doc.title,
      status: doc.status,
      approved,
      version: approved ? doc.version : null,
      effective_on: approved ? doc.effectiveOn : null,
      signatures: approved ? (signed.get(doc.currentVersionId!) ?? 0) : 0,
      attestation_rate: rate,
      next_review_on: doc.nextReviewOn,
      review_overdue: reviewOverdue,
      evidence_expired: !approved || reviewOverdue,
    });
  }
  return result;
}

const meets = (value: number, target: number, direction: ImprovementDirection) =>
  direction === 'down' ? value <= target : value >= target;

export async function liveMeasures(
  db: DbOrTx,
  projectId: number,
  links: readonly LinkRow[],
  now: Date,
): Promise<StdLinkedMeasure[]> {
  const ids = links.filter((l) => l.targetType === 'measure').map((l) => l.targetId);
  if (ids.length === 0) return [];
  const measures = await db
    .select({ measure: monMeasures, pageTitle: monPages.title })
    .from(monMeasures)
    .innerJoin(
      monPages,
      and(eq(monPages.id, monMeasures.pageId), eq(monPages.projectId, projectId), isNull(monPages.deletedAt)),
    )
    .where(and(eq(monMeasures.projectId, projectId), inArray(monMeasures.id, ids), isNull(monMeasures.deletedAt)));
  const byId = new Map(measures.map((row) => [row.measure.id, row]));
  const result: StdLinkedMeasure[] = [];
  for (const link of links) {
    if (link.targetType !== 'measure') continue;
    const row = byId.get(link.targetId);
    if (!row) continue;
    const { measure } = row;
    const series = await seriesOfMeasure(
      db,
      measure,
      { chart: measure.chartDefault as SpcChart, stratum: '', ruleProfile: measure.ruleProfile as SpcRuleSet },
      now,
    ).catch(() => null);
    // The latest complete period (the current one is provisional) with a value.
    const latest = [...(series?.points ?? [])].reverse().find((p) => !p.provisional && p.value !== null) ?? null;
    const target = latest?.target ?? null;
    result.push({
      link_id: link.id,
      note: link.note,
      id: measure.id,
      name: measure.name,
      page_id: measure.pageId,
      page_title: row.pageTitle,
      unit_label: measure.unitLabel,
      latest: latest ? { period: latest.period, value: latest.value } : null,
      target,
      meets_target:
        latest?.value == null || target === null
          ? null
          : meets(latest.value, target, measure.direction as ImprovementDirection),
      variation: latest?.variation ?? series?.summary.variation ?? null,
      empty_reason: series ? series.empty_reason : 'The series could not be computed.',
    });
  }
  return result;
}

export async function livePrograms(
  db: DbOrTx,
  projectId: number,
  links: readonly LinkRow[],
  now: Date,
): Promise<StdLinkedProgram[]> {
  const ids = links.filter((l) => l.targetType === 'cr_program').map((l) => l.targetId);
  const headlines = await programHeadlines(db, projectId, ids, now);
  return links.flatMap((link) => {
    const program = link.targetType === 'cr_program' ? headlines.get(link.targetId) : undefined;
    if (!program) return [];
    return [
      {
        link_id: link.id,
        note: link.note,
        id: program.id,
        name: program.name,
        target: program.target,
        latest: program.period
          ? { period: program.period.label, rate: program.compliance.rate, n: program.compliance.n }
          : null,
      },
    ];
  });
}

/**
 * Linked audit questions: for each, its compliance (the question's own rate: N/A left out, Partial as the project
 * says) in every programme that audits with the question's tool, in that programme's newest period with counted
 * results. The question is followed by its key, so it reads every version of the tool.
 */
export async function liveQuestions(
  db: DbOrTx,
  projectId: number,
  links: readonly LinkRow[],
): Promise<StdLinkedQuestion[]> {
  const ids = links.filter((l) => l.targetType === 'cr_question').map((l) => l.targetId);
  if (ids.length === 0) return [];
  const questions = await db
    .select({
      id: crQuestions.id,
      key: crQuestions.key,
      text: crQuestions.text,
      toolId: crTools.id,
      tool: crTools.name,
    })
    .from(crQuestions)
    .innerJoin(crToolVersions, eq(crToolVersions.id, crQuestions.toolVersionId))
    .innerJoin(crTools, and(eq(crTools.id, crToolVersions.toolId), eq(crTools.projectId, projectId)))
    .where(and(eq(crQuestions.projectId, projectId), inArray(crQuestions.id, ids)));
  const byId = new Map(questions.map((q) => [q.id, q]));
  const toolIds = [...new Set(questions.map((q) => q.toolId))];
  const programs =
    toolIds.length === 0
      ? []
      : await db
          .select()
          .from(crPrograms)
          .where(and(eq(crPrograms.projectId, projectId), inArray(crPrograms.toolId, toolIds)))
          .orderBy(asc(crPrograms.name));
  const { partialEnabled } = await loadSettings(db, projectId);
  // Each programme's newest period with counted results, and those results' answers.
  const latest = await latestCountedAnswers(
    db,
    projectId,
    programs.map((program) => program.id),
  );
  return links.flatMap((link) => {
    const question = link.targetType === 'cr_question' ? byId.get(link.targetId) : undefined;
    if (!question) return [];
    return [
      {
        link_id: link.id,
        note: link.note,
        id: question.id,
        key: question.key,
        text: question.text,
        tool: question.tool,
        tool_id: question.toolId,
        programs: programs
          .filter((program) => program.toolId === question.toolId)
          .map((program) => {
            const results = latest.get(program.id);
            const rate = results ? questionCompliance(results.answersOf(question.key), { partialEnabled }) : null;
            return {
              id: program.id,
              name: program.name,
              target: program.target,
              latest:
                results && rate
                  ? {
                      period: periodLabel(results.period, program.grain as 'month' | 'quarter'),
                      rate: rate.rate,
                      n: rate.n,
                    }
                  : null,
            };
          }),
      },
    ];
  });
}

export type LinkCounts = Map<number, { policy: number; measure: number; cr_program: number }>;

/**
 * How many links of each kind every node has, of those the viewer may see (the tree's icons; questions count with
 * audits), as a JSON value of `[node id, target type, count]` to read with another statement's row (linkCountsOf).
 */
export async function linkCountsJson(db: DbOrTx, viewer: Viewer): Promise<SQL<[number, string, number][]>> {
  return sql<[number, string, number][]>`(select coalesce(json_agg(json_build_array(l.node_id, l.target_type, l.n)),
    '[]') from (select ${traceLinks.nodeId} as node_id, ${traceLinks.targetType} as target_type, count(*)::int as n
    from ${traceLinks} where ${traceLinks.projectId} = ${viewer.projectId} and ${await targetVisible(db, viewer)}
    group by 1, 2) l)`;
}

/** linkCountsJson's value by node. */
export function linkCountsOf(rows: readonly [number, string, number][]): LinkCounts {
  const counts: LinkCounts = new Map();
  for (const [nodeId, targetType, n] of rows) {
    const entry = counts.get(nodeId) ?? { policy: 0, measure: 0, cr_program: 0 };
    const bucket = targetType === 'cr_question' ? 'cr_program' : (targetType as 'policy' | 'measure' | 'cr_program');
    entry[bucket] += n;
    counts.set(nodeId, entry);
  }
  return counts;
}
