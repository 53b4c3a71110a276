import {
  STD_RESULT_LABELS,
  STD_STATUS_LABELS,
  type StdBulk,
  type StdElement,
  type StdElementUpdate,
  type StdNodeType,
  type StdResult,
  type StdStatus,
  type StdTextPolicy,
} from '@portal/shared';
import { and, asc, desc, eq, inArray, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database, DbOrTx } from '../../db/client.js';
import { personName as nameSql } from '../../db/person-name.js';
import {
  auditEvents,
  stdComments,
  stdFrameworks,
  stdMappings,
  stdNodeLocal,
  stdNodes,
  stdReqAssessments,
  users,
} from '../../db/schema/index.js';
import { changes } from '../../lib/audit-diff.js';
import { AppError, notFound } from '../../lib/errors.js';
import { authorize, serialize } from '../../policies/rules.js';
import { ledNodes, mayAssign, STANDARDS_FORBIDDEN, type StandardsActor } from '../../policies/standards.js';
import { elementFacts, elementRules } from '../../policies/standards-records.js';
import { evidenceOfElement } from './evidence.service.js';
import { findingsOfElement } from './findings.service.js';
import { linksOfNodes, liveMeasures, livePolicies, livePrograms, liveQuestions, visibleLinks } from './live-links.js';
import { assignableIds } from './people.service.js';
import { isOverdue, loadReq, type ReqRow } from './records.js';
import { isoDay, standardsAudit } from './route-kit.js';

/**
 * One element of an assessment (docs/standards.md "The element panel"): its text and the facility's wording, the
 * assessment (result apart from status, optimistic version), crosswalk, the live state of what supports it,
 * comments and history; and the changes to it, each audited in its transaction with what changed in words.
 */

/** What the element's panel offers: the abilities the record rules give (policies/standards-records.ts). */
const ELEMENT_ABILITIES = ['edit', 'comment', 'link', 'edit_wording', 'finding'] as const;

async function personName(db: DbOrTx, id: number | null): Promise<string | null> {
  if (id === null) return null;
  const [row] = await db.select({ name: nameSql }).from(users).where(eq(users.id, id));
  return row?.name ?? null;
}

/** GET /req-assessments/{id} */
export async function getElement(db: DbOrTx, actor: StandardsActor, id: number, now: Date): Promise<StdElement> {
  const req = await loadReq(db, actor.projectId, id);
  const [node] = await db
    .select({ node: stdNodes, framework: stdFrameworks })
    .from(stdNodes)
    .innerJoin(stdFrameworks, eq(stdFrameworks.id, stdNodes.frameworkId))
    .where(eq(stdNodes.id, req.nodeId));
  if (!node) throw notFound('Element not found.');
  const path: { ref_id: string; title: string }[] = [];
  // The source note is the section's: the nearest node up the path that has one.
  let sourceNote = node.node.sourceNote;
  let parentId = node.node.parentId;
  while (parentId !== null) {
    const [parent] = await db
      .select({
        parentId: stdNodes.parentId,
        refId: stdNodes.refId,
        title: stdNodes.title,
        sourceNote: stdNodes.sourceNote,
      })
      .from(stdNodes)
      .where(eq(stdNodes.id, parentId));
    if (!parent) break;
    path.unshift({ ref_id: parent.refId, title: parent.title });
    sourceNote ??= parent.sourceNote;
    parentId = parent.parentId;
  }
  const [local] = await db
    .select()
    .from(stdNodeLocal)
    .where(and(eq(stdNodeLocal.projectId, actor.projectId), eq(stdNodeLocal.nodeId, node.node.id)));
  const other = alias(stdNodes, 'other');
  const otherFramework = alias(stdFrameworks, 'other_framework');
  const crosswalk = await db
    .select({
      framework: sql<string>`${otherFramework.name} || ' ' || ${otherFramework.edition}`,
      refId: other.refId,
      title: other.title,
      relationship: stdMappings.relationship,
    })
    .from(stdMappings)
    .innerJoin(
      other,
      sql`${other.id} = case when ${stdMappings.sourceNodeId} = ${node.node.id} then ${stdMappings.targetNodeId} else ${stdMappings.sourceNodeId} end`,
    )
    .innerJoin(otherFramework, eq(otherFramework.id, other.frameworkId))
    .where(
      and(
        or(eq(stdMappings.sourceNodeId, node.node.id), eq(stdMappings.targetNodeId, node.node.id)),
        or(sql`${stdMappings.projectId} is null`, eq(stdMappings.projectId, actor.projectId)),
        or(sql`${otherFramework.projectId} is null`, eq(otherFramework.projectId, actor.projectId)),
      ),
    );
  const links = await linksOfNodes(db, actor, [node.node.id]);
  const comments = await db
    .select({
      id: stdComments.id,
      authorId: stdComments.authorId,
      name: nameSql,
      body: stdComments.body,
      createdAt: stdComments.createdAt,
    })
    .from(stdComments)
    .leftJoin(users, eq(users.id, stdComments.authorId))
    .where(and(eq(stdComments.projectId, actor.projectId), eq(stdComments.reqAssessmentId, req.id)))
    .orderBy(asc(stdComments.createdAt), asc(stdComments.id));
  const history = await db
    .select({
      id: auditEvents.id,
      action: auditEvents.action,
      actor: nameSql,
      at: auditEvents.createdAt,
      data: auditEvents.data,
    })
    .from(auditEvents)
    .leftJoin(users, eq(users.id, auditEvents.actorUserId))
    .where(
      and(
        eq(auditEvents.projectId, actor.projectId),
        // The element's own changes, and the links made or removed on its node (from either end).
        or(
          and(eq(auditEvents.subjectType, 'std_req_assessment'), eq(auditEvents.subjectId, String(req.id))),
          and(eq(auditEvents.subjectType, 'std_node'), eq(auditEvents.subjectId, String(node.node.id))),
        ),
      ),
    )
    .orderBy(desc(auditEvents.createdAt), desc(auditEvents.id))
    .limit(50);
  // A link event names its target: it is shown only to those who may see the target (decision record 021).
  const linkEvents = history.flatMap((h) =>
    typeof h.data.target_type === 'string' && typeof h.data.target_id === 'number'
      ? [{ id: h.id, targetType: h.data.target_type, targetId: h.data.target_id }]
      : [],
  );
  const shownLinks = new Set((await visibleLinks(db, actor, linkEvents)).map((event) => event.id));
  const hiddenEvents = new Set(linkEvents.filter((event) => !shownLinks.has(event.id)).map((event) => event.id));
  // An expiry names the policies it came from: only those the reader may see.
  const expiryPolicies = history.flatMap((h) =>
    Array.isArray(h.data.policy_ids)
      ? (h.data.policy_ids as unknown[]).flatMap((id) =>
          typeof id === 'number' ? [{ targetType: 'policy', targetId: id }] : [],
        )
      : [],
  );
  const seenPolicies = new Set((await visibleLinks(db, actor, expiryPolicies)).map((policy) => policy.targetId));
  const textPolicy = node.framework.textPolicy as StdTextPolicy;
  return {
    id: req.id,
    assessment_id: req.assessmentId,
    version: req.version,
    node: {
      id: node.node.id,
      ref_id: node.node.refId,
      title: node.node.title,
      node_type: node.node.nodeType as StdNodeType,
      // Never shown for identifiers-only frameworks, whatever a row holds.
      official_text: textPolicy === 'identifiers_only' ? null : node.node.officialText,
      heading: textPolicy === 'identifiers_only' ? null : node.node.heading,
      in_force_from: node.node.inForceFrom,
      source_note: textPolicy === 'identifiers_only' ? null : sourceNote,
      public_url: node.framework.publicUrl,
      path,
    },
    framework: {
      id: node.framework.id,
      name: node.framework.name,
      edition: node.framework.edition,
      text_policy: textPolicy,
    },
    local: { wording: local?.wording ?? '', guidance: local?.guidance ?? '', public_url: local?.publicUrl ?? '' },
    result: req.result as StdResult,
    status: req.status as StdStatus,
    na_justification: req.naJustification,
    owner: req.ownerId === null ? null : { id: req.ownerId, name: (await personName(db, req.ownerId)) ?? '' },
    due_date: req.dueDate,
    overdue: isOverdue(req.dueDate, req.status, isoDay(now)),
    observation: req.observation,
    last_reviewed_at: req.lastReviewedAt?.toISOString() ?? null,
    last_reviewed_by: await personName(db, req.lastReviewedBy),
    carried_from: req.carriedFrom,
    crosswalk: crosswalk.map((c) => ({
      framework: c.framework,
      ref_id: c.refId,
      title: c.title,
      relationship: c.relationship,
    })),
    policies: await livePolicies(db, actor.projectId, links, now),
    measures: await liveMeasures(db, actor.projectId, links, now),
    programs: await livePrograms(db, actor.projectId, links, now),
    questions: await liveQuestions(db, actor.projectId, links),
    evidence: await evidenceOfElement(db, actor.projectId, req.id, now),
    comments: comments.map((c) => ({
      id: c.id,
      author: { id: c.authorId ?? 0, name: c.name ?? 'Former user' },
      body: c.body,
      created_at: c.createdAt.toISOString(),
    })),
    history: history
      .filter((h) => !hiddenEvents.has(h.id))
      .map((h) => ({
        id: h.id,
        action: h.action.replace(/^standards\./, ''),
        actor: h.actor ?? 'System',
        at: h.at.toISOString(),
        // `summary`: what changed in words (older rows kept them in `changes`, which now holds the field changes).
        summary: namesHiddenPolicy(h.data, seenPolicies)
          ? expirySummary(h.data, seenPolicies)
          : Array.isArray(h.data.summary)
            ? (h.data.summary as string[]).join('; ')
            : Array.isArray(h.data.changes)
              ? (h.data.changes as string[]).join('; ')
              : String(h.data.summary ?? ''),
      })),
    findings: (await findingsOfElement(db, actor.projectId, req.id, now)).map((f) => ({
      id: f.id,
      source: f.source,
      text: f.text,
      likelihood: f.likelihood,
      scope: f.scope,
      immediate_threat: f.immediate_threat,
      due_date: f.due_date,
      overdue: f.overdue,
      status: f.status,
      high_risk: f.high_risk,
    })),
    abilities: serialize(elementRules, actor, await elementFacts(db, actor, req), ELEMENT_ABILITIES),
  };
}

/** Whether a history event names a policy (an evidence expiry) that the reader may not see. */
const namesHiddenPolicy = (data: Record<string, unknown>, seen: ReadonlySet<number>) =>
  Array.isArray(data.policy_ids) && data.policy_ids.some((id) => typeof id === 'number' && !seen.has(id));

/** An evidence expiry in words without the policies the reader may not see (older rows: without any title). */
function expirySummary(data: Record<string, unknown>, seen: ReadonlySet<number>): string {
  const expired = Array.isArray(data.expired) ? (data.expired as { title?: unknown; policy_id?: unknown }[]) : [];
  const titles = expired
    .filter((item) => typeof item.title === 'string' && (item.policy_id === null || seen.has(item.policy_id as number)))
    .map((item) => item.title as string);
  const back = `back to ${STD_STATUS_LABELS.in_review}`;
  return titles.length > 0 ? `Evidence expired: ${titles.join(', ')}; ${back}` : `Evidence expired; ${back}`;
}

/** What changed, in words, for the history ("Result: Not assessed -> Compliant"). */
function describeChanges(before: ReqRow, after: StdElementUpdate, names: Map<number, string>): string[] {
  const changes: string[] = [];
  const person = (id: number | null) => (id === null ? 'nobody' : (names.get(id) ?? `user ${id}`));
  if (before.result !== after.result) {
    changes.push(`Result: ${STD_RESULT_LABELS[before.result as StdResult]} → ${STD_RESULT_LABELS[after.result]}`);
  }
  if (before.status !== after.status) {
    changes.push(`Status: ${STD_STATUS_LABELS[before.status as StdStatus]} → ${STD_STATUS_LABELS[after.status]}`);
  }
  if (before.ownerId !== after.owner_id) changes.push(`Owner: ${person(before.ownerId)} → ${person(after.owner_id)}`);
  if (before.dueDate !== after.due_date) changes.push(`Due: ${before.dueDate ?? 'none'} → ${after.due_date ?? 'none'}`);
  if (before.naJustification !== after.na_justification) changes.push('Justification changed');
  if (before.observation !== after.observation) changes.push('Observation changed');
  return changes;
}

/** PUT /req-assessments/{id}: the assessment of one element, refused (409) when someone saved in between. */
export async function updateElement(
  db: Database,
  actor: StandardsActor,
  id: number,
  input: StdElementUpdate,
  now: Date,
): Promise<StdElement> {
  await db.transaction(async (tx) => {
    const req = await loadReq(tx, actor.projectId, id, true);
    const facts = await elementFacts(tx, actor, req);
    authorize(elementRules, 'edit', actor, facts);
    if (req.version !== input.version) {
      throw new AppError(
        'CONFLICT',
        'Someone else changed this element after you opened it. Reload to see their changes, then apply yours.',
      );
    }
    if (input.owner_id !== req.ownerId) {
      // Owners hand elements on only through their lead or an admin.
      authorize(elementRules, 'assign', actor, facts);
      if (input.owner_id !== null && !(await assignableIds(tx, actor.projectId)).has(input.owner_id)) {
        const message = 'Choose a person with a standards role that may own elements.';
        throw new AppError('VALIDATION_FAILED', message, { owner_id: [message] });
      }
    }
    const ids = [req.ownerId, input.owner_id].filter((v): v is number => v !== null);
    const names = new Map(
      ids.length === 0
        ? []
        : (await tx.select({ id: users.id, name: nameSql }).from(users).where(inArray(users.id, ids))).map(
            (u) => [u.id, u.name] as const,
          ),
    );
    const summary = describeChanges(req, input, names);
    if (summary.length === 0) return;
    const assessed = req.result !== input.result || req.observation !== input.observation;
    const naJustification = input.result === 'not_applicable' ? input.na_justification : '';
    await tx
      .update(stdReqAssessments)
      .set({
        result: input.result,
        status: input.status,
        naJustification,
        ownerId: input.owner_id,
        dueDate: input.due_date,
        observation: input.observation,
        version: req.version + 1,
        updatedAt: now,
        updatedBy: actor.userId,
        ...(assessed ? { lastReviewedAt: now, lastReviewedBy: actor.userId } : {}),
      })
      .where(and(eq(stdReqAssessments.projectId, actor.projectId), eq(stdReqAssessments.id, req.id)));
    await standardsAudit(
      tx,
      actor,
      'element_updated',
      { type: 'std_req_assessment', id: req.id },
      {
        summary,
        // Each changed field before and after (a long observation shortened to 200 characters).
        changes: changes(
          {
            result: req.result,
            status: req.status,
            owner_id: req.ownerId,
            due_date: req.dueDate,
            na_justification: req.naJustification,
            observation: req.observation,
          },
          {
            result: input.result,
            status: input.status,
            owner_id: input.owner_id,
            due_date: input.due_date,
            na_justification: naJustification,
            observation: input.observation,
          },
        ),
      },
      now,
    );
  });
  return getElement(db, actor, id, now);
}

/** PUT /req-assessments/{id}/wording: the facility's own words for the element's node. */
export async function updateWording(
  db: Database,
  actor: StandardsActor,
  id: number,
  input: { wording: string; guidance: string; public_url: string },
  now: Date,
): Promise<StdElement> {
  await db.transaction(async (tx) => {
    const req = await loadReq(tx, actor.projectId, id, true);
    authorize(elementRules, 'edit_wording', actor, await elementFacts(tx, actor, req));
    const [before] = await tx
      .select({ wording: stdNodeLocal.wording, guidance: stdNodeLocal.guidance, public_url: stdNodeLocal.publicUrl })
      .from(stdNodeLocal)
      .where(and(eq(stdNodeLocal.projectId, actor.projectId), eq(stdNodeLocal.nodeId, req.nodeId)))
      .for('update');
    await tx
      .insert(stdNodeLocal)
      .values({
        projectId: actor.projectId,
        nodeId: req.nodeId,
        wording: input.wording,
        guidance: input.guidance,
        publicUrl: input.public_url,
        updatedBy: actor.userId,
        updatedAt: now,
      })
      .onConflictDoUpdate({
        target: [stdNodeLocal.projectId, stdNodeLocal.nodeId],
        set: {
          wording: input.wording,
          guidance: input.guidance,
          publicUrl: input.public_url,
          updatedAt: now,
          updatedBy: actor.userId,
        },
      });
    await standardsAudit(
      tx,
      actor,
      'wording_updated',
      { type: 'std_req_assessment', id: req.id },
      {
        summary: ['Facility wording changed'],
        node_id: req.nodeId,
        // Long text shortened to its first 200 characters (lib/audit-diff.ts).
        changes: changes(before ?? { wording: '', guidance: '', public_url: '' }, input),
      },
      now,
    );
  });
  return getElement(db, actor, id, now);
}

/** POST /req-assessments/{id}/comments */
export async function addComment(
  db: Database,
  actor: StandardsActor,
  id: number,
  body: string,
  now: Date,
): Promise<StdElement> {
  await db.transaction(async (tx) => {
    const req = await loadReq(tx, actor.projectId, id);
    authorize(elementRules, 'comment', actor, await elementFacts(tx, actor, req));
    const [comment] = await tx
      .insert(stdComments)
      .values({ projectId: actor.projectId, reqAssessmentId: req.id, authorId: actor.userId, body, createdAt: now })
      .returning({ id: stdComments.id });
    await standardsAudit(
      tx,
      actor,
      'comment_added',
      { type: 'std_req_assessment', id: req.id },
      {
        summary: ['Comment added'],
        comment_id: comment!.id,
      },
      now,
    );
  });
  return getElement(db, actor, id, now);
}

/** POST /req-assessments/bulk: owner and/or due date for many elements (admins; leads below their nodes). */
export async function bulkUpdate(db: Database, actor: StandardsActor, input: StdBulk, now: Date) {
  if (!mayAssign(actor)) throw new AppError('FORBIDDEN', STANDARDS_FORBIDDEN);
  const ids = [...new Set(input.ids)];
  const rows = await db
    .select()
    .from(stdReqAssessments)
    .where(and(eq(stdReqAssessments.projectId, actor.projectId), inArray(stdReqAssessments.id, ids)));
  // Another project's ids are not found, like missing ones: nothing is changed.
  if (rows.length !== ids.length) throw notFound('Element not found.');
  // Each element by the record rules (a chapter lead: those of the chapters they lead).
  const ledBy = new Map<number, Set<number>>();
  for (const row of rows) {
    if (!ledBy.has(row.assessmentId)) ledBy.set(row.assessmentId, await ledNodes(db, actor, row.assessmentId));
    const led = ledBy.get(row.assessmentId)!.has(row.nodeId);
    authorize(elementRules, 'assign', actor, { projectId: row.projectId, ownerId: row.ownerId, led });
  }
  if (input.owner_id != null && !(await assignableIds(db, actor.projectId)).has(input.owner_id)) {
    const message = 'Choose a person with a standards role that may own elements.';
    throw new AppError('VALIDATION_FAILED', message, { owner_id: [message] });
  }
  await db.transaction(async (tx) => {
    await tx
      .update(stdReqAssessments)
      .set({
        ...(input.owner_id !== undefined ? { ownerId: input.owner_id } : {}),
        ...(input.due_date !== undefined ? { dueDate: input.due_date } : {}),
        version: sql`${stdReqAssessments.version} + 1`,
        updatedAt: now,
        updatedBy: actor.userId,
      })
      .where(and(eq(stdReqAssessments.projectId, actor.projectId), inArray(stdReqAssessments.id, ids)));
    const summary = [
      ...(input.owner_id !== undefined ? [`Owner set in bulk`] : []),
      ...(input.due_date !== undefined ? [`Due: ${input.due_date ?? 'none'} (bulk)`] : []),
    ];
    const after = {
      ...(input.owner_id !== undefined ? { owner_id: input.owner_id } : {}),
      ...(input.due_date !== undefined ? { due_date: input.due_date } : {}),
    };
    for (const row of rows) {
      await standardsAudit(
        tx,
        actor,
        'element_updated',
        { type: 'std_req_assessment', id: row.id },
        {
          summary,
          bulk: true,
          owner_id: input.owner_id,
          due_date: input.due_date,
          changes: changes({ owner_id: row.ownerId, due_date: row.dueDate }, after),
        },
        now,
      );
    }
  });
  return { updated: ids.length };
}
