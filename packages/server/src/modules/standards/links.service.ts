import type {
  PermissionApp,
  PermissionSection,
  StdElementHit,
  StdLink,
  StdLinkInput,
  StdLinkTarget,
} from '@portal/shared';
import { and, asc, desc, eq, ilike, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../db/client.js';
import { personName } from '../../db/person-name.js';
import {
  crPrograms,
  crQuestions,
  crTools,
  crToolVersions,
  monMeasures,
  monPages,
  policyDocuments,
  stdAssessments,
  stdFrameworks,
  stdNodeLocal,
  stdNodes,
  stdReqAssessments,
  traceLinks,
  users,
} from '../../db/schema/index.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { SessionUser } from '../../plugins/session.js';
import { appAccess, type Viewer } from '../../policies/app-access.js';
import { projectAccess } from '../../policies/projects.js';
import { can } from '../../policies/rules.js';
import {
  isStandardsAdmin,
  STANDARDS_FORBIDDEN,
  STANDARDS_OFF,
  STANDARDS_UNCONFIGURED,
  type StandardsActor,
  standardsAccess,
} from '../../policies/standards.js';
import { elementFacts, elementRules } from '../../policies/standards-records.js';
import { visibleMeasures } from '../monitoring/visibility.js';
import { visibleDocuments } from '../policies/visibility.js';
import { standardsAudit } from './route-kit.js';

/**
 * The closed-loop links (docs/standards.md "Links"; DOMAIN.md 0.1): one table from standard elements to policies,
 * measures and chart review programmes, written from both ends. From the target's side the target's own app
 * decides (the add-standards sections of policy management and monitoring, the programmes section of chart
 * review); from the element's side the standards roles do (who may edit or link the element).
 */

/** A section of an app, as a pair whose parts agree. */
type AppSection = { [A in PermissionApp]: { app: A; section: PermissionSection<A> } }[PermissionApp];

const TARGET_APP: Record<StdLinkTarget, AppSection & { label: string }> = {
  policy: { app: 'policy_management', section: 'add-standards', label: 'policy' },
  measure: { app: 'monitoring', section: 'add-standards', label: 'measure' },
  cr_program: { app: 'chart_review', section: 'programs', label: 'chart review programme' },
  cr_question: { app: 'chart_review', section: 'tools', label: 'chart review question' },
};

export interface LinkActor {
  userId: number;
  projectId: number;
  isSuperadmin: boolean;
  ip: string | null;
  requestId: string | null;
  /** Set when the access came through standards (the element side). */
  standards: StandardsActor | null;
}

const isDenied = (error: unknown) =>
  error instanceof AppError &&
  (error.status === 403 || (error.status === 404 && error.message !== 'Project not found.'));

/**
 * Access to the links of a target type: the target's app section first, then standards. A non-member gets 404
 * from the project check; a member with neither gets 403.
 */
export async function linkAccess(
  db: DbOrTx,
  user: SessionUser,
  request: { ip: string; id: string },
  projectId: number,
  targetType: StdLinkTarget,
): Promise<LinkActor> {
  const project = await projectAccess(db, user, projectId);
  // The links are the standards app's: switched off, they are not found from either side.
  if (!project.project.activeApps.includes('standards')) throw notFound(STANDARDS_OFF);
  const base = {
    userId: user.id,
    projectId: project.project.id,
    isSuperadmin: project.isSuperadmin,
    ip: request.ip,
    requestId: request.id,
  };
  const target = TARGET_APP[targetType];
  try {
    await appAccess(db, target.app, user, request, projectId, target.section);
    return { ...base, standards: null };
  } catch (error) {
    if (!isDenied(error)) throw error;
  }
  try {
    return { ...base, standards: await standardsAccess(db, user, request, projectId) };
  } catch (error) {
    if (!isDenied(error)) throw error;
    // A member with neither the section nor any standards role is told how to get access.
    if (error instanceof AppError && error.message === STANDARDS_UNCONFIGURED) throw error;
    throw new AppError('FORBIDDEN', STANDARDS_FORBIDDEN);
  }
}

/** From the element side, the actor must be allowed to link some assessment's element of the node. */
async function requireNodeLinkable(db: DbOrTx, actor: LinkActor, nodeId: number): Promise<void> {
  if (actor.standards === null) return;
  const standards = actor.standards;
  if (isStandardsAdmin(standards)) return;
  const reqs = await db
    .select({
      projectId: stdReqAssessments.projectId,
      assessmentId: stdReqAssessments.assessmentId,
      nodeId: stdReqAssessments.nodeId,
      ownerId: stdReqAssessments.ownerId,
    })
    .from(stdReqAssessments)
    .where(and(eq(stdReqAssessments.projectId, actor.projectId), eq(stdReqAssessments.nodeId, nodeId)));
  for (const req of reqs) {
    if (can(elementRules, 'link', standards, await elementFacts(db, standards, req))) return;
  }
  throw new AppError('FORBIDDEN', STANDARDS_FORBIDDEN);
}

/** A node of a framework the project has an assessment of (elements to link), or 404. */
async function requireProjectNode(db: DbOrTx, projectId: number, nodeId: number) {
  const [node] = await db
    .select({ id: stdNodes.id, refId: stdNodes.refId, title: stdNodes.title })
    .from(stdNodes)
    .innerJoin(stdAssessments, eq(stdAssessments.frameworkId, stdNodes.frameworkId))
    .where(and(eq(stdNodes.id, nodeId), eq(stdAssessments.projectId, projectId)))
    .limit(1);
  if (!node) {
    throw new AppError('NOT_FOUND', 'Standard element not found.', {
      node_id: ['Choose a standard element of this project.'],
    });
  }
  return node;
}

/** The target's label, or 404 when it is not a live one of the project that the viewer may see. */
async function targetLabel(db: DbOrTx, viewer: Viewer, type: StdLinkTarget, id: number): Promise<string> {
  const { projectId } = viewer;
  const missing = () =>
    new AppError('NOT_FOUND', `This ${TARGET_APP[type].label} was not found.`, {
      target_id: [`Choose a ${TARGET_APP[type].label} of this project.`],
    });
  if (type === 'policy') {
    const [doc] = await db
      .select({ number: policyDocuments.number, title: policyDocuments.title })
      .from(policyDocuments)
      .where(
        and(
          eq(policyDocuments.projectId, projectId),
          eq(policyDocuments.id, id),
          ne(policyDocuments.status, 'archived'),
          await visibleDocuments(db, viewer),
        ),
      );
    if (!doc) throw missing();
    return [doc.number, doc.title].filter(Boolean).join(' ');
  }
  if (type === 'measure') {
    const [measure] = await db
      .select({ name: monMeasures.name })
      .from(monMeasures)
      .innerJoin(monPages, and(eq(monPages.id, monMeasures.pageId), isNull(monPages.deletedAt)))
      .where(
        and(
          eq(monMeasures.projectId, projectId),
          eq(monMeasures.id, id),
          isNull(monMeasures.deletedAt),
          await visibleMeasures(db, viewer),
        ),
      );
    if (!measure) throw missing();
    return measure.name;
  }
  if (type === 'cr_question') {
    const [question] = await db
      .select({ key: crQuestions.key, text: crQuestions.text, tool: crTools.name })
      .from(crQuestions)
      .innerJoin(crToolVersions, eq(crToolVersions.id, crQuestions.toolVersionId))
      .innerJoin(crTools, and(eq(crTools.id, crToolVersions.toolId), eq(crTools.projectId, projectId)))
      .where(and(eq(crQuestions.projectId, projectId), eq(crQuestions.id, id)));
    if (!question) throw missing();
    return `${question.tool}: ${question.text}`;
  }
  const [program] = await db
    .select({ name: crPrograms.name })
    .from(crPrograms)
    .where(and(eq(crPrograms.projectId, projectId), eq(crPrograms.id, id)));
  if (!program) throw missing();
  return program.name;
}

async function linkRows(db: DbOrTx, projectId: number, where: ReturnType<typeof and>): Promise<StdLink[]> {
  const rows = await db
    .select({
      id: traceLinks.id,
      nodeId: traceLinks.nodeId,
      refId: stdNodes.refId,
      title: stdNodes.title,
      framework: sql<string>`${stdFrameworks.code} || ' ' || ${stdFrameworks.edition}`,
      targetType: traceLinks.targetType,
      targetId: traceLinks.targetId,
      note: traceLinks.note,
      createdAt: traceLinks.createdAt,
      createdBy: personName,
    })
    .from(traceLinks)
    .innerJoin(stdNodes, eq(stdNodes.id, traceLinks.nodeId))
    .innerJoin(stdFrameworks, eq(stdFrameworks.id, stdNodes.frameworkId))
    .leftJoin(users, eq(users.id, traceLinks.createdBy))
    .where(and(eq(traceLinks.projectId, projectId), where))
    .orderBy(asc(stdNodes.position), asc(traceLinks.id));
  return rows.map((r) => ({
    id: r.id,
    node_id: r.nodeId,
    ref_id: r.refId,
    title: r.title,
    framework: r.framework,
    target_type: r.targetType as StdLinkTarget,
    target_id: r.targetId,
    note: r.note,
    created_at: r.createdAt.toISOString(),
    created_by: r.createdBy ?? 'Former user',
  }));
}

/** GET /links?target_type=&target_id= */
export async function linksOfTarget(db: DbOrTx, actor: LinkActor, type: StdLinkTarget, id: number) {
  await targetLabel(db, actor, type, id);
  return linkRows(db, actor.projectId, and(eq(traceLinks.targetType, type), eq(traceLinks.targetId, id)));
}

/** POST /links */
export async function createLink(db: Database, actor: LinkActor, input: StdLinkInput, now: Date): Promise<StdLink> {
  const node = await requireProjectNode(db, actor.projectId, input.node_id);
  // Who may link here first: a refusal then says nothing about the target.
  await requireNodeLinkable(db, actor, node.id);
  const label = await targetLabel(db, actor, input.target_type, input.target_id);
  const id = await db.transaction(async (tx) => {
    const [link] = await tx
      .insert(traceLinks)
      .values({
        projectId: actor.projectId,
        nodeId: node.id,
        targetType: input.target_type,
        targetId: input.target_id,
        note: input.note,
        createdBy: actor.userId,
        createdAt: now,
      })
      .onConflictDoNothing()
      .returning({ id: traceLinks.id });
    if (!link) {
      const message = `${node.refId} is linked to this ${TARGET_APP[input.target_type].label} already.`;
      throw new AppError('CONFLICT', message, { node_id: [message] });
    }
    await standardsAudit(
      tx,
      actor,
      'link_created',
      { type: 'std_node', id: node.id },
      {
        link_id: link.id,
        target_type: input.target_type,
        target_id: input.target_id,
        summary: [`Linked ${TARGET_APP[input.target_type].label} ${label}`],
      },
      now,
    );
    return link.id;
  });
  const [link] = await linkRows(db, actor.projectId, eq(traceLinks.id, id));
  return link!;
}

/** The link of the project, or 404 (another project's link is not found). */
export async function loadLink(db: DbOrTx, projectId: number, id: number) {
  const [link] = await db
    .select()
    .from(traceLinks)
    .where(and(eq(traceLinks.projectId, projectId), eq(traceLinks.id, id)));
  if (!link) throw notFound('Link not found.');
  return link;
}

/** DELETE /links/{id} */
export async function deleteLink(db: Database, actor: LinkActor, id: number, now: Date): Promise<void> {
  const link = await loadLink(db, actor.projectId, id);
  await requireNodeLinkable(db, actor, link.nodeId);
  await db.transaction(async (tx) => {
    await tx.delete(traceLinks).where(and(eq(traceLinks.projectId, actor.projectId), eq(traceLinks.id, link.id)));
    await standardsAudit(
      tx,
      actor,
      'link_deleted',
      { type: 'std_node', id: link.nodeId },
      {
        link_id: link.id,
        target_type: link.targetType,
        target_id: link.targetId,
        summary: [`Unlinked ${TARGET_APP[link.targetType as StdLinkTarget].label} #${link.targetId}`],
      },
      now,
    );
  });
}

const SEARCH_LIMIT = 30;

/** GET /elements?for=&search=: assessable elements of the frameworks the project assesses. */
export async function searchElements(
  db: DbOrTx,
  actor: LinkActor,
  search: string,
): Promise<{ elements: StdElementHit[]; more: boolean }> {
  const like = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const frameworks = db
    .selectDistinct({ id: stdAssessments.frameworkId })
    .from(stdAssessments)
    .where(eq(stdAssessments.projectId, actor.projectId));
  const rows = await db
    .select({
      nodeId: stdNodes.id,
      refId: stdNodes.refId,
      title: stdNodes.title,
      parentId: stdNodes.parentId,
      framework: sql<string>`${stdFrameworks.code} || ' ' || ${stdFrameworks.edition}`,
      wording: stdNodeLocal.wording,
    })
    .from(stdNodes)
    .innerJoin(stdFrameworks, eq(stdFrameworks.id, stdNodes.frameworkId))
    .leftJoin(stdNodeLocal, and(eq(stdNodeLocal.nodeId, stdNodes.id), eq(stdNodeLocal.projectId, actor.projectId)))
    .where(
      and(
        inArray(stdNodes.frameworkId, frameworks),
        eq(stdNodes.assessable, true),
        search === ''
          ? undefined
          : or(ilike(stdNodes.refId, like), ilike(stdNodes.title, like), ilike(stdNodeLocal.wording, like)),
      ),
    )
    .orderBy(asc(stdFrameworks.code), asc(stdNodes.position))
    .limit(SEARCH_LIMIT + 1);
  const page = rows.slice(0, SEARCH_LIMIT);
  // The path of each hit: its ancestors' ref ids.
  const paths = new Map<number, string>();
  for (const row of page) {
    const refs: string[] = [];
    let parentId = row.parentId;
    while (parentId !== null) {
      const [parent] = await db
        .select({ parentId: stdNodes.parentId, refId: stdNodes.refId })
        .from(stdNodes)
        .where(eq(stdNodes.id, parentId));
      if (!parent) break;
      refs.unshift(parent.refId);
      parentId = parent.parentId;
    }
    paths.set(row.nodeId, refs.join(' › '));
  }
  return {
    elements: page.map((row) => ({
      node_id: row.nodeId,
      ref_id: row.refId,
      title: row.title,
      wording: row.wording ?? '',
      framework: row.framework,
      path: paths.get(row.nodeId) ?? '',
    })),
    more: rows.length > SEARCH_LIMIT,
  };
}

/** GET /link-targets?type=&search=: the project's policies, measures or programmes, for the element panel. */
export async function linkTargets(db: DbOrTx, actor: StandardsActor, type: StdLinkTarget, search: string) {
  const like = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const limit = 50;
  if (type === 'policy') {
    const rows = await db
      .select({
        id: policyDocuments.id,
        number: policyDocuments.number,
        title: policyDocuments.title,
        status: policyDocuments.status,
      })
      .from(policyDocuments)
      .where(
        and(
          eq(policyDocuments.projectId, actor.projectId),
          ne(policyDocuments.status, 'archived'),
          await visibleDocuments(db, actor),
          search === '' ? undefined : or(ilike(policyDocuments.title, like), ilike(policyDocuments.number, like)),
        ),
      )
      .orderBy(asc(policyDocuments.number), asc(policyDocuments.title))
      .limit(limit);
    return rows.map((r) => ({
      id: r.id,
      label: [r.number, r.title].filter(Boolean).join(' '),
      detail: r.status.replace('_', ' '),
    }));
  }
  if (type === 'measure') {
    const rows = await db
      .select({ id: monMeasures.id, name: monMeasures.name, page: monPages.title })
      .from(monMeasures)
      .innerJoin(
        monPages,
        and(eq(monPages.id, monMeasures.pageId), eq(monPages.projectId, actor.projectId), isNull(monPages.deletedAt)),
      )
      .where(
        and(
          eq(monMeasures.projectId, actor.projectId),
          isNull(monMeasures.deletedAt),
          await visibleMeasures(db, actor),
          search === '' ? undefined : or(ilike(monMeasures.name, like), ilike(monPages.title, like)),
        ),
      )
      .orderBy(asc(monPages.title), asc(monMeasures.name))
      .limit(limit);
    return rows.map((r) => ({ id: r.id, label: r.name, detail: r.page }));
  }
  if (type === 'cr_question') {
    // The questions of each tool's published version (a question is followed by its key across versions).
    const rows = await db
      .select({ id: crQuestions.id, key: crQuestions.key, text: crQuestions.text, tool: crTools.name })
      .from(crQuestions)
      .innerJoin(
        crToolVersions,
        and(eq(crToolVersions.id, crQuestions.toolVersionId), eq(crToolVersions.status, 'published')),
      )
      .innerJoin(crTools, and(eq(crTools.id, crToolVersions.toolId), eq(crTools.projectId, actor.projectId)))
      .where(
        and(
          eq(crQuestions.projectId, actor.projectId),
          search === ''
            ? undefined
            : or(ilike(crQuestions.text, like), ilike(crTools.name, like), ilike(crQuestions.key, like)),
        ),
      )
      .orderBy(asc(crTools.name), asc(crQuestions.position))
      .limit(limit);
    return rows.map((r) => ({ id: r.id, label: r.text, detail: `${r.tool} · ${r.key}` }));
  }
  const rows = await db
    .select({ id: crPrograms.id, name: crPrograms.name, status: crPrograms.status })
    .from(crPrograms)
    .where(and(eq(crPrograms.projectId, actor.projectId), search === '' ? undefined : ilike(crPrograms.name, like)))
    .orderBy(desc(crPrograms.status), asc(crPrograms.name))
    .limit(limit);
  return rows.map((r) => ({ id: r.id, label: r.name, detail: `Chart review programme (${r.status})` }));
}
