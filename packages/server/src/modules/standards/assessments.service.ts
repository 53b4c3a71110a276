import {
  complianceScore,
  rollUp,
  type StdAssessment,
  type StdAssessmentCreate,
  type StdAssessmentKind,
  type StdCounts,
  type StdNodeType,
  type StdResult,
  type StdStatus,
  type StdTextPolicy,
  type StdTree,
  type StdTreeFilter,
  type StdTreeRow,
  treeCounts,
} from '@portal/shared';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database, DbOrTx } from '../../db/client.js';
import { personName } from '../../db/person-name.js';
import { prepared } from '../../db/prepared.js';
import {
  stdAssessments,
  stdComments,
  stdFrameworks,
  stdLeads,
  stdNodeLocal,
  stdNodes,
  stdReqAssessments,
  users,
} from '../../db/schema/index.js';
import { AppError, addFieldError, notFound } from '../../lib/errors.js';
import { mayAssign, requireStandardsAdmin, type StandardsActor } from '../../policies/standards.js';
import { evidenceSignals } from './evidence.service.js';
import { ensureBuiltInFrameworks, loadFramework } from './frameworks.service.js';
import { linkCountsJson, linkCountsOf } from './live-links.js';
import { assignableIds } from './people.service.js';
import { frameworkNodes, inForceOn, isOverdue, subtreeIds } from './records.js';
import { isoDay, standardsAudit } from './route-kit.js';

/**
 * Assessments (docs/standards.md "Assessments"): what /create makes (one row per assessable element of a framework
 * edition), the list with counts, and the compliance tree with roll-ups and filters.
 */

async function summaries(db: DbOrTx, projectId: number, ids: number[], today: string) {
  if (ids.length === 0) return new Map<number, { counts: StdCounts; overdue: number }>();
  const rows = await db
    .select({
      assessmentId: stdReqAssessments.assessmentId,
      result: stdReqAssessments.result,
      n: sql<number>`count(*)::int`,
      overdue: sql<number>`count(*) filter (where ${stdReqAssessments.dueDate} < ${today} and ${stdReqAssessments.status} <> 'done')::int`,
    })
    .from(stdReqAssessments)
    .where(and(eq(stdReqAssessments.projectId, projectId), inArray(stdReqAssessments.assessmentId, ids)))
    .groupBy(stdReqAssessments.assessmentId, stdReqAssessments.result);
  const map = new Map<number, { counts: StdCounts; overdue: number }>();
  for (const row of rows) {
    const entry = map.get(row.assessmentId) ?? { counts: noCounts(), overdue: 0 };
    entry.counts[row.result as StdResult] += row.n;
    entry.overdue += row.overdue;
    map.set(row.assessmentId, entry);
  }
  return map;
}

export async function listAssessments(db: DbOrTx, actor: StandardsActor, now: Date): Promise<StdAssessment[]> {
  const rows = await db
    .select({ assessment: stdAssessments, framework: stdFrameworks })
    .from(stdAssessments)
    .innerJoin(stdFrameworks, eq(stdFrameworks.id, stdAssessments.frameworkId))
    .where(eq(stdAssessments.projectId, actor.projectId))
    .orderBy(desc(stdAssessments.createdAt), desc(stdAssessments.id));
  const sums = await summaries(
    db,
    actor.projectId,
    rows.map((r) => r.assessment.id),
    isoDay(now),
  );
  return rows.map(({ assessment, framework }) =>
    summaryOf(
      assessment,
      framework,
      sums.get(assessment.id) ?? { counts: noCounts(), overdue: 0 },
      rows.find((r) => r.assessment.id === assessment.upgradedFromId)?.assessment ?? null,
    ),
  );
}

const noCounts = (): StdCounts => ({
  compliant: 0,
  partially_compliant: 0,
  non_compliant: 0,
  not_applicable: 0,
  not_assessed: 0,
});

/** An assessment as the list and the tree show it, with its elements' counts. */
function summaryOf(
  assessment: typeof stdAssessments.$inferSelect,
  framework: typeof stdFrameworks.$inferSelect,
  sum: { counts: StdCounts; overdue: number },
  upgradedFrom: { id: number; name: string } | null,
): StdAssessment {
  return {
    id: assessment.id,
    name: assessment.name,
    kind: assessment.kind as StdAssessmentKind,
    framework: {
      id: framework.id,
      code: framework.code,
      name: framework.name,
      edition: framework.edition,
      text_policy: framework.textPolicy as StdTextPolicy,
    },
    survey_window_start: assessment.surveyWindowStart,
    survey_window_end: assessment.surveyWindowEnd,
    scope_note: assessment.scopeNote,
    created_at: assessment.createdAt.toISOString(),
    counts: sum.counts,
    score: complianceScore(sum.counts),
    overdue: sum.overdue,
    upgraded_from: upgradedFrom && { id: upgradedFrom.id, name: upgradedFrom.name },
  };
}

/** POST /assessments: the wizard's answer becomes an assessment with one row per assessable element. */
export async function createAssessment(db: Database, actor: StandardsActor, input: StdAssessmentCreate, now: Date) {
  requireStandardsAdmin(actor);
  await ensureBuiltInFrameworks(db);
  const framework = await loadFramework(db, actor.projectId, input.framework_id);
  const nodes = await frameworkNodes(db, framework.id);
  const known = new Set(nodes.map((n) => n.id));
  const fieldErrors: Record<string, string[]> = {};
  input.not_applicable.forEach((item, i) => {
    if (!known.has(item.node_id))
      addFieldError(fieldErrors, `not_applicable.${i}.node_id`, 'Choose a part of this framework.');
  });
  const allowed = await assignableIds(db, actor.projectId);
  input.owners.forEach((item, i) => {
    if (!known.has(item.node_id)) addFieldError(fieldErrors, `owners.${i}.node_id`, 'Choose a part of this framework.');
    if (!allowed.has(item.user_id)) {
      addFieldError(fieldErrors, `owners.${i}.user_id`, 'Choose a person with a standards role that may own elements.');
    }
  });
  const first = Object.values(fieldErrors)[0]?.[0];
  if (first) throw new AppError('VALIDATION_FAILED', first, fieldErrors);

  const naReason = new Map<number, string>();
  for (const item of input.not_applicable) {
    for (const id of subtreeIds(nodes, item.node_id)) naReason.set(id, item.reason);
  }
  const ownerOf = new Map<number, number>();
  for (const item of input.owners) {
    for (const id of subtreeIds(nodes, item.node_id)) ownerOf.set(id, item.user_id);
  }
  const elements = nodes.filter((n) => n.assessable);
  return db.transaction(async (tx) => {
    const [assessment] = await tx
      .insert(stdAssessments)
      .values({
        projectId: actor.projectId,
        frameworkId: framework.id,
        name: input.name,
        kind: input.kind,
        scopeNote: input.scope_note,
        surveyWindowStart: input.survey_window_start,
        surveyWindowEnd: input.survey_window_end,
        createdBy: actor.userId,
        createdAt: now,
      })
      .returning();
    for (let i = 0; i < elements.length; i += 500) {
      await tx.insert(stdReqAssessments).values(
        elements.slice(i, i + 500).map((node) => {
          const reason = naReason.get(node.id);
          return {
            projectId: actor.projectId,
            assessmentId: assessment!.id,
            nodeId: node.id,
            result: reason ? 'not_applicable' : 'not_assessed',
            status: reason ? 'done' : 'to_do',
            naJustification: reason ?? '',
            ownerId: ownerOf.get(node.id) ?? null,
            updatedBy: actor.userId,
            updatedAt: now,
          };
        }),
      );
    }
    if (input.owners.length > 0) {
      await tx
        .insert(stdLeads)
        .values(
          input.owners.map((item) => ({
            projectId: actor.projectId,
            assessmentId: assessment!.id,
            nodeId: item.node_id,
            userId: item.user_id,
            createdBy: actor.userId,
            createdAt: now,
          })),
        )
        .onConflictDoNothing();
    }
    await standardsAudit(
      tx,
      actor,
      'assessment_created',
      { type: 'std_assessment', id: assessment!.id },
      {
        framework: `${framework.code} ${framework.edition}`,
        name: input.name,
        kind: input.kind,
        elements: elements.length,
        not_applicable: input.not_applicable.map((item) => item.node_id),
        owners: input.owners,
      },
      now,
    );
    return { id: assessment!.id };
  });
}

/** A node of the tree as its statement returns it: the node, then its element in the assessment (nulls if none). */
type TreeNodeTuple = [
  id: number,
  parentId: number | null,
  refId: string,
  title: string,
  nodeType: string,
  assessable: boolean,
  depth: number,
  inForceFrom: string | null,
  reqId: number | null,
  result: string | null,
  status: string | null,
  ownerId: number | null,
  ownerName: string | null,
  dueDate: string | null,
  comments: number,
];

/**
 * The tree's nodes in framework order with their elements in an assessment, owners and comment counts, as one JSON
 * array of tuples (a framework has a thousand nodes: one value to parse instead of a thousand rows to map); its
 * values are placeholders.
 */
function treeNodesQuery(db: DbOrTx) {
  const projectId = sql.placeholder('projectId');
  const comments = db
    .select({ reqId: stdComments.reqAssessmentId, n: sql<number>`count(*)::int`.as('n') })
    .from(stdComments)
    .where(eq(stdComments.projectId, projectId))
    .groupBy(stdComments.reqAssessmentId)
    .as('comments');
  const n = stdNodes;
  const r = stdReqAssessments;
  return db
    .select({
      nodes: sql<TreeNodeTuple[]>`coalesce(json_agg(json_build_array(${n.id}, ${n.parentId}, ${n.refId}, ${n.title},
        ${n.nodeType}, ${n.assessable}, ${n.depth}, ${n.inForceFrom}, ${r.id}, ${r.result}, ${r.status}, ${r.ownerId},
        ${personName}, ${r.dueDate}, coalesce(${comments.n}, 0)) order by ${n.position}), '[]')`,
    })
    .from(n)
    .leftJoin(
      r,
      and(eq(r.nodeId, n.id), eq(r.projectId, projectId), eq(r.assessmentId, sql.placeholder('assessmentId'))),
    )
    .leftJoin(users, eq(users.id, r.ownerId))
    .leftJoin(comments, eq(comments.reqId, r.id))
    .where(eq(n.frameworkId, sql.placeholder('frameworkId')));
}

/** GET /assessments/{id}/tree?filter=&search=: every node with its roll-up; filtered trees keep ancestors. */
export async function assessmentTree(
  db: DbOrTx,
  actor: StandardsActor,
  assessmentId: number,
  query: { filter: StdTreeFilter; search: string },
  now: Date,
): Promise<StdTree> {
  const previous = alias(stdAssessments, 'previous');
  // The assessment, its framework and the link counts of the project in one statement, the nodes in a second.
  const [head] = await db
    .select({
      assessment: stdAssessments,
      framework: stdFrameworks,
      previous: { id: previous.id, name: previous.name },
      links: await linkCountsJson(db, actor),
    })
    .from(stdAssessments)
    .innerJoin(stdFrameworks, eq(stdFrameworks.id, stdAssessments.frameworkId))
    .leftJoin(previous, and(eq(previous.id, stdAssessments.upgradedFromId), eq(previous.projectId, actor.projectId)))
    .where(and(eq(stdAssessments.projectId, actor.projectId), eq(stdAssessments.id, assessmentId)));
  if (!head) throw notFound('Assessment not found.');
  const { assessment } = head;
  const today = isoDay(now);
  // Every node of the edition with its element's assessment and comment count, in one named statement.
  const [read] = await prepared(db, 'portal_std_tree_nodes', (handle, name) =>
    treeNodesQuery(handle).prepare(name),
  ).execute({ projectId: actor.projectId, assessmentId: assessment.id, frameworkId: assessment.frameworkId });
  const tuples = read?.nodes ?? [];
  const nodes = tuples.map(([id, parentId, refId, title, nodeType, assessable, depth, inForceFrom]) => ({
    id,
    parentId,
    refId,
    title,
    nodeType,
    assessable,
    depth,
    inForceFrom,
  }));
  // A node that is no element of this assessment has no element row (its req fields are null).
  const reqs = tuples.flatMap(([nodeId, , , , , , , , id, result, status, ownerId, ownerName, dueDate, comments]) =>
    id === null
      ? []
      : [{ id, nodeId, result: result!, status: status!, ownerId, ownerName: ownerName ?? '', dueDate, comments }],
  );
  const reqOf = new Map(reqs.map((r) => [r.nodeId, r]));
  const sum = { counts: noCounts(), overdue: 0 };
  for (const req of reqs) {
    sum.counts[req.result as StdResult] += 1;
    if (isOverdue(req.dueDate, req.status, today)) sum.overdue += 1;
  }
  const links = linkCountsOf(head.links);
  // Evidence items and linked policies' expiry: read only for the filters that ask.
  const evidence =
    query.filter === 'no_evidence' || query.filter === 'expiring'
      ? await evidenceSignals(db, actor.projectId, assessment.id, now)
      : null;
  const search = query.search.toLowerCase();
  const wordingMatches =
    search === ''
      ? new Set<number>()
      : new Set(
          (
            await db
              .select({ nodeId: stdNodeLocal.nodeId })
              .from(stdNodeLocal)
              .where(
                and(
                  eq(stdNodeLocal.projectId, actor.projectId),
                  sql`strpos(lower(${stdNodeLocal.wording}), ${search}) > 0`,
                ),
              )
          ).map((r) => r.nodeId),
        );

  // A paragraph not in force yet is listed but not counted (docs/standards.md "Editions from the eCFR").
  const counts = treeCounts(
    nodes.map((n) => ({
      id: n.id,
      parentId: n.parentId,
      result: inForceOn(n, today) ? ((reqOf.get(n.id)?.result as StdResult) ?? null) : null,
    })),
  );
  const nodeById = new Map(nodes.map((n) => [n.id, n]));
  const matchesFilter = (nodeId: number): boolean => {
    const req = reqOf.get(nodeId);
    if (!req) return false;
    const node = nodeById.get(nodeId);
    if (search !== '') {
      const hit =
        node!.refId.toLowerCase().includes(search) ||
        node!.title.toLowerCase().includes(search) ||
        wordingMatches.has(nodeId);
      if (!hit) return false;
    }
    switch (query.filter) {
      case 'mine':
        return req.ownerId === actor.userId;
      case 'gaps':
        return req.result === 'non_compliant' || req.result === 'partially_compliant';
      case 'unassessed':
        return req.result === 'not_assessed';
      case 'no_evidence': {
        // No link, and no evidence item that is approved and not expired.
        const l = links.get(nodeId);
        return (
          req.result !== 'not_applicable' &&
          (!l || l.policy + l.measure + l.cr_program === 0) &&
          !evidence!.valid.has(req.id)
        );
      }
      case 'expiring':
        // An evidence item or a linked policy expired or expiring within 60 days.
        return evidence!.alerts.has(req.id) || evidence!.policyAlerts.has(nodeId);
      case 'overdue':
        return isOverdue(req.dueDate, req.status, today);
      default:
        return true;
    }
  };
  const filtering = query.filter !== 'all' || search !== '';
  const keep = new Set<number>();
  let matches = 0;
  const parentOf = new Map(nodes.map((n) => [n.id, n.parentId]));
  for (const node of nodes) {
    if (!node.assessable || !reqOf.has(node.id)) continue;
    if (filtering && !matchesFilter(node.id)) continue;
    matches += 1;
    let at: number | null = node.id;
    while (at !== null && !keep.has(at)) {
      keep.add(at);
      at = parentOf.get(at) ?? null;
    }
  }
  const rows: StdTreeRow[] = nodes
    .filter((n) => keep.has(n.id))
    .map((n) => {
      const req = reqOf.get(n.id);
      const own = counts.get(n.id)!;
      return {
        node_id: n.id,
        parent_id: n.parentId,
        depth: n.depth,
        ref_id: n.refId,
        title: n.title,
        node_type: n.nodeType as StdNodeType,
        in_force_from: n.inForceFrom && !inForceOn(n, today) ? n.inForceFrom : null,
        rollup: rollUp(own),
        counts: own,
        score: complianceScore(own),
        req: req
          ? {
              id: req.id,
              result: req.result as StdResult,
              status: req.status as StdStatus,
              owner: req.ownerId === null ? null : { id: req.ownerId, name: req.ownerName },
              due_date: req.dueDate,
              overdue: isOverdue(req.dueDate, req.status, today),
              links: links.get(n.id) ?? { policy: 0, measure: 0, cr_program: 0 },
              comments: req.comments,
            }
          : null,
      };
    });
  const summary = summaryOf(assessment, head.framework, sum, head.previous);
  return { assessment: summary, rows, matches, abilities: { bulk: mayAssign(actor) } };
}
