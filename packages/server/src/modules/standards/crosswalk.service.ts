import {
  rollUp,
  STD_CROSSWALK_LIMITS,
  STD_RELATIONSHIPS,
  STD_RESULT_LABELS,
  type StdCrosswalkImport,
  type StdCrosswalkImported,
  type StdCrosswalkList,
  type StdRelationship,
  type StdResult,
  type StdUpgrade,
} from '@portal/shared';
import { parse } from 'csv-parse/sync';
import { and, asc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import { type AnyPgColumn, alias } from 'drizzle-orm/pg-core';
import type { Database, DbOrTx } from '../../db/client.js';
import {
  stdAssessments,
  stdEvidence,
  stdFrameworks,
  stdLeads,
  stdMappings,
  stdNodes,
  stdReqAssessments,
  traceLinks,
} from '../../db/schema/index.js';
import { AppError } from '../../lib/errors.js';
import { requireStandardsAdmin, type StandardsActor } from '../../policies/standards.js';
import { ensureBuiltInFrameworks, loadFramework } from './frameworks.service.js';
import { frameworkNodes, loadAssessment } from './records.js';
import { standardsAudit } from './route-kit.js';

/**
 * Crosswalks between frameworks and between editions of one framework, and the edition upgrade that carries an
 * assessment's results through them (docs/standards.md "Crosswalks and edition upgrades"; DOMAIN.md 3.5).
 *
 * A mapping links a node of one framework to a node of another with a set relation. Built-in mappings have no
 * project; a project's own are stored with its id and seen by it only. Every read is scoped to the mappings the
 * project sees, between frameworks the project may use.
 */

type FrameworkRow = Awaited<ReturnType<typeof loadFramework>>;

const REF_MAX = 60;
const ROW_LIST_MAX = 5;

const rowList = (rows: number[]) =>
  rows.length > ROW_LIST_MAX
    ? `${rows.slice(0, ROW_LIST_MAX).join(', ')} and ${rows.length - ROW_LIST_MAX} more`
    : rows.join(', ');

function refuseCsv(message: string): never {
  throw new AppError('VALIDATION_FAILED', message, { csv: [message] });
}

/** Mappings the project sees: built in, or its own. */
const mappingVisible = (projectId: number) => or(isNull(stdMappings.projectId), eq(stdMappings.projectId, projectId));

const label = (framework: { code: string; edition: string }) => `${framework.code} ${framework.edition}`;

interface CrosswalkRow {
  row: number;
  sourceNodeId: number;
  targetNodeId: number;
  relationship: StdRelationship;
  rationale: string;
}

/**
 * Reads a crosswalk CSV: header `source_ref_id,target_ref_id,relationship[,rationale]`, one row per pair of nodes.
 * Every refusal is a 400 on the field `csv`, one message per kind of problem naming its rows.
 */
function parseCrosswalkCsv(
  csv: string,
  source: { framework: FrameworkRow; nodes: Map<string, number> },
  target: { framework: FrameworkRow; nodes: Map<string, number> },
): CrosswalkRow[] {
  let records: string[][];
  try {
    records = parse(csv.replace(/^\uFEFF/, ''), { relax_column_count: true, skip_empty_lines: true, trim: true });
  } catch {
    refuseCsv('The file is not a readable CSV file.');
  }
  const [header, ...body] = records;
  if (!header) refuseCsv('The file is empty.');
  const columns = header.map((name) =>
    name
      .trim()
      .toLowerCase()
      .replace(/[\s-]+/g, '_'),
  );
  const at = (name: string) => columns.indexOf(name);
  const missing = ['source_ref_id', 'target_ref_id', 'relationship'].filter((name) => at(name) < 0);
  if (missing.length > 0) {
    refuseCsv(
      `The header needs the columns source_ref_id, target_ref_id and relationship (missing: ${missing.join(', ')}).`,
    );
  }
  if (body.length === 0) refuseCsv('The file has a header but no rows.');
  if (body.length > STD_CROSSWALK_LIMITS.csvRows) {
    refuseCsv(`A crosswalk has at most ${STD_CROSSWALK_LIMITS.csvRows.toLocaleString('en-US')} rows.`);
  }
  const cell = (record: string[], name: string) => {
    const index = at(name);
    return index < 0 ? '' : (record[index] ?? '').trim();
  };
  const problems = new Map<string, number[]>();
  const note = (message: string, row: number) => problems.set(message, [...(problems.get(message) ?? []), row]);
  const seen = new Set<string>();
  const rows: CrosswalkRow[] = [];
  body.forEach((record, i) => {
    const row = i + 2;
    const sourceRef = cell(record, 'source_ref_id');
    const targetRef = cell(record, 'target_ref_id');
    const relationship = cell(record, 'relationship')
      .toLowerCase()
      .replace(/[\s-]+/g, '_');
    const rationale = cell(record, 'rationale');
    const sourceNodeId = source.nodes.get(sourceRef);
    const targetNodeId = target.nodes.get(targetRef);
    const problem =
      !sourceRef || !targetRef
        ? 'A row has no source_ref_id or no target_ref_id'
        : sourceRef.length > REF_MAX || targetRef.length > REF_MAX
          ? `A ref_id is longer than ${REF_MAX} characters`
          : sourceNodeId === undefined
            ? `A source_ref_id is not in ${label(source.framework)}`
            : targetNodeId === undefined
              ? `A target_ref_id is not in ${label(target.framework)}`
              : !(STD_RELATIONSHIPS as readonly string[]).includes(relationship)
                ? `A relationship is not one of ${STD_RELATIONSHIPS.join(', ')}`
                : rationale.length > STD_CROSSWALK_LIMITS.rationale
                  ? `A rationale is longer than ${STD_CROSSWALK_LIMITS.rationale} characters`
                  : seen.has(`${sourceNodeId}>${targetNodeId}`)
                    ? 'A pair of source_ref_id and target_ref_id appears twice'
                    : null;
    if (problem) {
      note(problem, row);
      return;
    }
    seen.add(`${sourceNodeId}>${targetNodeId}`);
    rows.push({
      row,
      sourceNodeId: sourceNodeId!,
      targetNodeId: targetNodeId!,
      relationship: relationship as StdRelationship,
      rationale,
    });
  });
  const messages = [...problems].map(([message, at]) => `${message} (rows ${rowList(at)}).`);
  if (messages.length > 0) throw new AppError('VALIDATION_FAILED', messages[0]!, { csv: messages });
  return rows;
}

async function nodesByRef(db: DbOrTx, frameworkId: number): Promise<Map<string, number>> {
  const rows = await db
    .select({ id: stdNodes.id, refId: stdNodes.refId })
    .from(stdNodes)
    .where(eq(stdNodes.frameworkId, frameworkId));
  return new Map(rows.map((row) => [row.refId, row.id]));
}

/** The sql condition "the mapping links a node of framework `a` with a node of framework `b`, either way". */
function between(a: number, b: number) {
  const inFramework = (column: AnyPgColumn, frameworkId: number) =>
    sql`exists (select 1 from ${stdNodes} n where n.id = ${column} and n.framework_id = ${frameworkId})`;
  return or(
    and(inFramework(stdMappings.sourceNodeId, a), inFramework(stdMappings.targetNodeId, b)),
    and(inFramework(stdMappings.sourceNodeId, b), inFramework(stdMappings.targetNodeId, a)),
  );
}

/**
 * POST /crosswalks/import: replaces the project's own mappings between two frameworks (either way) with the CSV's,
 * in one transaction, audited.
 */
export async function importCrosswalk(
  db: Database,
  actor: StandardsActor,
  input: StdCrosswalkImport,
  now: Date,
): Promise<StdCrosswalkImported> {
  requireStandardsAdmin(actor);
  await ensureBuiltInFrameworks(db);
  const sourceFramework = await loadFramework(db, actor.projectId, input.source_framework_id);
  const targetFramework = await loadFramework(db, actor.projectId, input.target_framework_id);
  const rows = parseCrosswalkCsv(
    input.csv,
    { framework: sourceFramework, nodes: await nodesByRef(db, sourceFramework.id) },
    { framework: targetFramework, nodes: await nodesByRef(db, targetFramework.id) },
  );
  return db.transaction(async (tx) => {
    const removed = await tx
      .delete(stdMappings)
      .where(and(eq(stdMappings.projectId, actor.projectId), between(sourceFramework.id, targetFramework.id)))
      .returning({ id: stdMappings.id });
    // A pair the built-in crosswalk holds is not stored a second time for the project (other projects' crosswalks
    // are theirs alone and never block this one).
    const held = new Set<string>();
    for (let i = 0; i < rows.length; i += 500) {
      const batch = rows.slice(i, i + 500);
      const existing = await tx
        .select({ source: stdMappings.sourceNodeId, target: stdMappings.targetNodeId })
        .from(stdMappings)
        .where(
          and(
            isNull(stdMappings.projectId),
            inArray(
              stdMappings.sourceNodeId,
              batch.map((row) => row.sourceNodeId),
            ),
            inArray(
              stdMappings.targetNodeId,
              batch.map((row) => row.targetNodeId),
            ),
          ),
        );
      for (const pair of existing) held.add(`${pair.source}>${pair.target}`);
    }
    const clashes = rows.filter((row) => held.has(`${row.sourceNodeId}>${row.targetNodeId}`)).map((row) => row.row);
    if (clashes.length > 0) {
      const message = `A pair is already mapped by the built-in crosswalk (rows ${rowList(clashes)}).`;
      throw new AppError('CONFLICT', message, { csv: [message] });
    }
    for (let i = 0; i < rows.length; i += 500) {
      await tx.insert(stdMappings).values(
        rows.slice(i, i + 500).map((row) => ({
          projectId: actor.projectId,
          sourceNodeId: row.sourceNodeId,
          targetNodeId: row.targetNodeId,
          relationship: row.relationship,
          rationale: row.rationale,
          createdAt: now,
        })),
      );
    }
    const byRelationship = Object.fromEntries(
      STD_RELATIONSHIPS.map((relationship) => [
        relationship,
        rows.filter((row) => row.relationship === relationship).length,
      ]),
    );
    await standardsAudit(
      tx,
      actor,
      'crosswalk_imported',
      { type: 'std_framework', id: sourceFramework.id },
      {
        source: label(sourceFramework),
        target: label(targetFramework),
        target_framework_id: targetFramework.id,
        mappings: rows.length,
        replaced: removed.length,
        relationships: byRelationship,
      },
      now,
    );
    return { mappings: rows.length };
  });
}

/** GET /crosswalks: the mapping sets the project sees, by source and target framework. */
export async function listCrosswalks(db: Database, actor: StandardsActor): Promise<StdCrosswalkList> {
  await ensureBuiltInFrameworks(db);
  const sourceNode = alias(stdNodes, 'source_node');
  const targetNode = alias(stdNodes, 'target_node');
  const source = alias(stdFrameworks, 'source_framework');
  const target = alias(stdFrameworks, 'target_framework');
  const builtIn = sql<boolean>`${stdMappings.projectId} is null`;
  const rows = await db
    .select({
      sourceId: source.id,
      sourceCode: source.code,
      sourceName: source.name,
      sourceEdition: source.edition,
      targetId: target.id,
      targetCode: target.code,
      targetName: target.name,
      targetEdition: target.edition,
      builtIn,
      n: sql<number>`count(*)::int`,
    })
    .from(stdMappings)
    .innerJoin(sourceNode, eq(sourceNode.id, stdMappings.sourceNodeId))
    .innerJoin(targetNode, eq(targetNode.id, stdMappings.targetNodeId))
    .innerJoin(source, eq(source.id, sourceNode.frameworkId))
    .innerJoin(target, eq(target.id, targetNode.frameworkId))
    .where(
      and(
        mappingVisible(actor.projectId),
        or(isNull(source.projectId), eq(source.projectId, actor.projectId)),
        or(isNull(target.projectId), eq(target.projectId, actor.projectId)),
      ),
    )
    .groupBy(
      source.id,
      source.code,
      source.name,
      source.edition,
      target.id,
      target.code,
      target.name,
      target.edition,
      builtIn,
    )
    .orderBy(asc(source.code), asc(source.edition), asc(target.code), asc(target.edition), builtIn);
  return {
    sets: rows.map((row) => ({
      source: { id: row.sourceId, code: row.sourceCode, name: row.sourceName, edition: row.sourceEdition },
      target: { id: row.targetId, code: row.targetCode, name: row.targetName, edition: row.targetEdition },
      mappings: row.n,
      built_in: row.builtIn,
    })),
  };
}

// ------------------------------------------------------------------------------------------------ upgrade

export const NO_CROSSWALK = 'No crosswalk links these editions: import one first.';
export const SAME_FRAMEWORK = 'Choose another framework or edition: the assessment already uses this one.';

/** How strongly a mapping ties two elements: equal first, then subset or superset, then intersect. */
const TIER: Record<Exclude<StdRelationship, 'not_related'>, number> = {
  equal: 0,
  subset: 1,
  superset: 1,
  intersect: 2,
};

/** A relation read the other way round (A subset of B is B superset of A). */
const REVERSED: Record<StdRelationship, StdRelationship> = {
  equal: 'equal',
  subset: 'superset',
  superset: 'subset',
  intersect: 'intersect',
  not_related: 'not_related',
};

/**
 * The result several old elements give one new element: read like the roll-up (DOMAIN.md 3.5). Non-compliant when
 * any is, else partially compliant when any is, else not assessed when any applicable one is not assessed, else
 * compliant when any is, else not applicable (all of them are).
 */
export function carriedResult(results: readonly StdResult[]): StdResult {
  const counts = { compliant: 0, partially_compliant: 0, non_compliant: 0, not_applicable: 0, not_assessed: 0 };
  for (const result of results) counts[result] += 1;
  const rolled = rollUp(counts);
  return rolled === 'incomplete' ? 'not_assessed' : rolled;
}

const distinct = (values: readonly string[]) => [...new Set(values.map((v) => v.trim()).filter(Boolean))];
const clip = (value: string, max: number) => (value.length > max ? `${value.slice(0, max - 1)}…` : value);

/**
 * POST /assessments/{id}/upgrade: a new assessment of another framework or edition, in the same project with the
 * same kind, scope and survey window. Each assessable element of the new framework takes what the old assessment
 * said about the elements a crosswalk maps to it (docs/standards.md "Crosswalks and edition upgrades"): result,
 * owner, due date, observation and justification, as "in review" for someone to confirm, with `carried_from`
 * naming where it came from. Unmapped elements start not assessed, to do. The old assessment is not touched.
 */
export async function upgradeAssessment(
  db: Database,
  actor: StandardsActor,
  assessmentId: number,
  input: StdUpgrade,
  now: Date,
): Promise<{ id: number }> {
  requireStandardsAdmin(actor);
  await ensureBuiltInFrameworks(db);
  const old = await loadAssessment(db, actor.projectId, assessmentId);
  const target = await loadFramework(db, actor.projectId, input.framework_id);
  if (target.id === old.frameworkId) {
    throw new AppError('VALIDATION_FAILED', SAME_FRAMEWORK, { framework_id: [SAME_FRAMEWORK] });
  }
  const from = await loadFramework(db, actor.projectId, old.frameworkId);
  const mappings = await db
    .select({
      sourceNodeId: stdMappings.sourceNodeId,
      targetNodeId: stdMappings.targetNodeId,
      relationship: stdMappings.relationship,
    })
    .from(stdMappings)
    .where(and(mappingVisible(actor.projectId), between(from.id, target.id)))
    .orderBy(asc(stdMappings.id));
  if (mappings.length === 0) {
    throw new AppError('VALIDATION_FAILED', NO_CROSSWALK, { framework_id: [NO_CROSSWALK] });
  }

  const oldNodes = await frameworkNodes(db, from.id);
  const newNodes = await frameworkNodes(db, target.id);
  const oldNodeIds = new Set(oldNodes.map((node) => node.id));
  const refOf = new Map(oldNodes.map((node) => [node.id, node.refId]));
  const positionOf = new Map(oldNodes.map((node, i) => [node.id, i]));
  const oldReqs = await db
    .select()
    .from(stdReqAssessments)
    .where(and(eq(stdReqAssessments.projectId, actor.projectId), eq(stdReqAssessments.assessmentId, old.id)));
  const reqOf = new Map(oldReqs.map((req) => [req.nodeId, req]));

  // Every link between an old node and a new node, read old -> new, not_related left out.
  interface Link {
    oldId: number;
    newId: number;
    relationship: Exclude<StdRelationship, 'not_related'>;
  }
  const links: Link[] = [];
  for (const mapping of mappings) {
    const forward = oldNodeIds.has(mapping.sourceNodeId);
    const relationship = forward
      ? (mapping.relationship as StdRelationship)
      : REVERSED[mapping.relationship as StdRelationship];
    if (relationship === 'not_related') continue;
    links.push({
      oldId: forward ? mapping.sourceNodeId : mapping.targetNodeId,
      newId: forward ? mapping.targetNodeId : mapping.sourceNodeId,
      relationship,
    });
  }
  const linksTo = new Map<number, Link[]>();
  const linksFrom = new Map<number, Link[]>();
  for (const link of links) {
    linksTo.set(link.newId, [...(linksTo.get(link.newId) ?? []), link]);
    linksFrom.set(link.oldId, [...(linksFrom.get(link.oldId) ?? []), link]);
  }

  const elements = newNodes.filter((node) => node.assessable);
  const carriedOld = new Set<number>();
  /** The closed loop follows the results: links of old elements go to the new elements they carry into. */
  const linkCarries: { from: number; to: number }[] = [];
  let carried = 0;
  let mappedUnassessed = 0;
  const values = elements.map((node) => {
    const base = {
      projectId: actor.projectId,
      nodeId: node.id,
      result: 'not_assessed' as StdResult,
      status: 'to_do',
      naJustification: '',
      ownerId: null as number | null,
      dueDate: null as string | null,
      observation: '',
      carriedFrom: '',
      updatedBy: actor.userId,
      updatedAt: now,
    };
    // The old elements this one maps to, through its strongest kind of link only.
    const candidates = (linksTo.get(node.id) ?? []).filter((link) => reqOf.has(link.oldId));
    if (candidates.length === 0) return base;
    const best = Math.min(...candidates.map((link) => TIER[link.relationship]));
    const chosen = candidates
      .filter((link) => TIER[link.relationship] === best)
      .sort((a, b) => positionOf.get(a.oldId)! - positionOf.get(b.oldId)!);
    const sources = chosen.map((link) => ({ link, req: reqOf.get(link.oldId)! }));
    const result = carriedResult(sources.map((s) => s.req.result as StdResult));
    // The owner of the element that gave the result (the first in document order), else any owner.
    const giver =
      sources.find((s) => s.req.result === result && s.req.ownerId !== null) ??
      sources.find((s) => s.req.ownerId !== null);
    const dues = sources
      .map((s) => s.req.dueDate)
      .filter((due): due is string => due !== null)
      .sort();
    const several = sources.length > 1;
    const observations = distinct(
      sources.map((s) =>
        several && s.req.observation.trim() ? `${refOf.get(s.link.oldId)}: ${s.req.observation}` : s.req.observation,
      ),
    );
    for (const s of sources) {
      carriedOld.add(s.link.oldId);
      linkCarries.push({ from: s.link.oldId, to: node.id });
    }
    const assessed = result !== 'not_assessed';
    if (assessed) carried += 1;
    else mappedUnassessed += 1;
    return {
      ...base,
      result,
      // Someone confirms what was carried; an element whose old elements were never assessed is still to do.
      status: assessed ? 'in_review' : 'to_do',
      naJustification:
        result === 'not_applicable'
          ? clip(distinct(sources.map((s) => s.req.naJustification)).join('\n'), 2000) ||
            'Not applicable in the earlier edition.'
          : '',
      ownerId: giver?.req.ownerId ?? null,
      dueDate: dues[0] ?? null,
      observation: clip(observations.join('\n\n'), 4000),
      carriedFrom: sources
        .map(
          (s) =>
            `${refOf.get(s.link.oldId)} (${from.edition}): ${STD_RESULT_LABELS[s.req.result as StdResult]}, ${s.link.relationship}`,
        )
        .join('; '),
    };
  });

  // Leads: a lead of a chapter or standard carries when its node maps to exactly one node above the elements of the
  // new framework, and that node to it only. Anything less simple is left for the new assessment's assign-users.
  const oldLeads = await db
    .select({ nodeId: stdLeads.nodeId, userId: stdLeads.userId })
    .from(stdLeads)
    .where(and(eq(stdLeads.projectId, actor.projectId), eq(stdLeads.assessmentId, old.id)));
  const newBranch = new Set(newNodes.filter((node) => !node.assessable).map((node) => node.id));
  const oldBranch = new Set(oldNodes.filter((node) => !node.assessable).map((node) => node.id));
  const leads = oldLeads.flatMap((lead) => {
    if (!oldBranch.has(lead.nodeId)) return [];
    const out = linksFrom.get(lead.nodeId) ?? [];
    if (out.length !== 1 || !newBranch.has(out[0]!.newId)) return [];
    const back = linksTo.get(out[0]!.newId) ?? [];
    if (back.length !== 1) return [];
    return [{ nodeId: out[0]!.newId, userId: lead.userId }];
  });

  const retired = oldReqs.filter((req) => !carriedOld.has(req.nodeId)).length;
  return db.transaction(async (tx) => {
    const [assessment] = await tx
      .insert(stdAssessments)
      .values({
        projectId: actor.projectId,
        frameworkId: target.id,
        name: input.name,
        kind: old.kind,
        scopeNote: old.scopeNote,
        surveyWindowStart: old.surveyWindowStart,
        surveyWindowEnd: old.surveyWindowEnd,
        upgradedFromId: old.id,
        createdBy: actor.userId,
        createdAt: now,
      })
      .returning();
    const newReqOf = new Map<number, number>();
    for (let i = 0; i < values.length; i += 500) {
      const inserted = await tx
        .insert(stdReqAssessments)
        .values(values.slice(i, i + 500).map((value) => ({ ...value, assessmentId: assessment!.id })))
        .returning({ id: stdReqAssessments.id, nodeId: stdReqAssessments.nodeId });
      for (const row of inserted) newReqOf.set(row.nodeId, row.id);
    }
    // Evidence follows the results too: each item of an old element is copied to every new element it carries into
    // (a shared file stays one stored file), keeping its status and expiry.
    const oldEvidence =
      linkCarries.length === 0
        ? []
        : await tx
            .select()
            .from(stdEvidence)
            .where(
              and(
                eq(stdEvidence.projectId, actor.projectId),
                inArray(
                  stdEvidence.reqAssessmentId,
                  [...new Set(linkCarries.map((c) => reqOf.get(c.from)?.id))].filter((id): id is number => !!id),
                ),
              ),
            )
            .orderBy(asc(stdEvidence.id));
    const evidenceCopies = linkCarries.flatMap((carry) => {
      const fromReq = reqOf.get(carry.from)?.id;
      const toReq = newReqOf.get(carry.to);
      if (fromReq === undefined || toReq === undefined) return [];
      return oldEvidence
        .filter((item) => item.reqAssessmentId === fromReq)
        .map(({ id: _id, reqAssessmentId: _req, createdAt: _at, updatedAt: _up, ...item }) => ({
          ...item,
          reqAssessmentId: toReq,
          createdAt: now,
          updatedAt: now,
          updatedBy: actor.userId,
        }));
    });
    for (let i = 0; i < evidenceCopies.length; i += 500) {
      await tx.insert(stdEvidence).values(evidenceCopies.slice(i, i + 500));
    }
    if (leads.length > 0) {
      await tx
        .insert(stdLeads)
        .values(
          leads.map((lead) => ({
            projectId: actor.projectId,
            assessmentId: assessment!.id,
            nodeId: lead.nodeId,
            userId: lead.userId,
            createdBy: actor.userId,
            createdAt: now,
          })),
        )
        .onConflictDoNothing();
    }
    // Copies of the old elements' links to policies, measures, programmes and questions (the project's own links
    // only; a link the new node has already is kept once).
    const oldLinks =
      linkCarries.length === 0
        ? []
        : await tx
            .select()
            .from(traceLinks)
            .where(
              and(
                eq(traceLinks.projectId, actor.projectId),
                inArray(traceLinks.nodeId, [...new Set(linkCarries.map((c) => c.from))]),
              ),
            );
    const copies = linkCarries.flatMap((carry) =>
      oldLinks
        .filter((link) => link.nodeId === carry.from)
        .map((link) => ({
          projectId: actor.projectId,
          nodeId: carry.to,
          targetType: link.targetType,
          targetId: link.targetId,
          note: link.note,
          createdBy: actor.userId,
          createdAt: now,
        })),
    );
    let linksCarried = 0;
    for (let i = 0; i < copies.length; i += 500) {
      const inserted = await tx
        .insert(traceLinks)
        .values(copies.slice(i, i + 500))
        .onConflictDoNothing()
        .returning({ id: traceLinks.id });
      linksCarried += inserted.length;
    }
    await standardsAudit(
      tx,
      actor,
      'assessment_upgraded',
      { type: 'std_assessment', id: assessment!.id },
      {
        from_assessment_id: old.id,
        from: label(from),
        to: label(target),
        name: input.name,
        elements: values.length,
        carried,
        mapped_not_assessed: mappedUnassessed,
        new: values.length - carried - mappedUnassessed,
        not_carried: retired,
        leads: leads.length,
        links_carried: linksCarried,
        evidence_carried: evidenceCopies.length,
      },
      now,
    );
    return { id: assessment!.id };
  });
}
