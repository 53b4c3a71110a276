import { readFileSync } from 'node:fs';
import type { StdFramework, StdFrameworkImport, StdTextPolicy } from '@portal/shared';
import { and, asc, desc, eq, isNull, or, sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../db/client.js';
import { stdFrameworks, stdMappings, stdNodes } from '../../db/schema/index.js';
import { AppError } from '../../lib/errors.js';
import { requireStandardsAdmin, type StandardsActor } from '../../policies/standards.js';
import { deriveCrosswalk } from './ecfr/derive-crosswalk.js';
import { parseEcfrPart } from './ecfr/ecfr-xml.js';
import { type FrameworkRow, isCopyrightedCode, LICENCE_REFUSAL, parseFrameworkCsv } from './framework-csv.js';
import { standardsAudit } from './route-kit.js';

/**
 * Frameworks (docs/standards.md "Frameworks"): the built-in CMS Conditions of Participation, inserted on first use
 * on any database, and the frameworks a project imports from CSV. A project sees the built-in ones and its own.
 */

export interface BuiltIn {
  code: string;
  name: string;
  publisher: string;
  edition: string;
  /** The day the publisher's text was taken, for editions read from an official snapshot. */
  asOf: string | null;
  textPolicy: StdTextPolicy;
  licenceNote: string;
  publicUrl: string;
  /** A CSV (framework-csv.ts) or the publisher's XML (ecfr/ecfr-xml.ts) in builtin-frameworks/. */
  file: string;
}

/** Per code: what an eCFR part's edition is called, and which of its subparts a facility takes on only if they apply. */
export const ECFR_PARTS: Record<string, { optionalSubparts: string[] }> = { 'CMS-482': { optionalSubparts: ['E'] } };

const CMS_NAME = 'CMS Conditions of Participation for Hospitals (42 CFR Part 482)';
const CMS_PUBLISHER = 'Centers for Medicare & Medicaid Services';
const CMS_URL = 'https://www.ecfr.gov/current/title-42/chapter-IV/subchapter-G/part-482';

/** The CMS hospital Conditions of Participation: a US government work (17 U.S.C. 105), so its text ships. */
export const CMS_HOSPITAL_COP: BuiltIn = {
  code: 'CMS-482',
  name: CMS_NAME,
  publisher: CMS_PUBLISHER,
  edition: '2024',
  asOf: null,
  textPolicy: 'public_domain',
  licenceNote:
    'Regulation text of 42 CFR Part 482, subparts A to D, a work of the US government in the public domain (17 U.S.C. 105). Not included yet: emergency preparedness (482.15), subpart E and the 2024-2025 amendments (respiratory illness reporting text, obstetrical services). A superadmin can load the official eCFR text as a new edition on the create-assessment screen. Check the current eCFR before a survey.',
  publicUrl: CMS_URL,
  file: 'cms-482.csv',
};

/** Oldest first: a newer edition's crosswalk is derived from the one before it. */
const BUILT_INS = [CMS_HOSPITAL_COP];

/** Reads a built-in framework's rows (builtin-frameworks/ beside this module, copied to dist by the build). */
export function builtInRows(builtIn: BuiltIn): FrameworkRow[] {
  const content = readFileSync(new URL(`./builtin-frameworks/${builtIn.file}`, import.meta.url), 'utf8');
  if (builtIn.file.endsWith('.xml')) return parseEcfrPart(content, ECFR_PARTS[builtIn.code]).rows;
  return parseFrameworkCsv(content, builtIn.textPolicy);
}

/**
 * Inserts a framework's nodes in document order. Leaves are assessable; depth and position are kept so trees read
 * in one ordered query. `urn` is `{code}@{edition}:{ref_id}`: stable across imports of the same edition.
 */
export async function insertNodes(
  tx: DbOrTx,
  framework: { id: number; code: string; edition: string; projectId: number | null },
  rows: readonly FrameworkRow[],
): Promise<number> {
  const parents = new Set(rows.map((row) => row.parentRefId).filter(Boolean));
  const idOf = new Map<string, { id: number; depth: number }>();
  const scope = framework.projectId === null ? 'builtin' : `p${framework.projectId}`;
  // Insert level by level (a parent row is always earlier), in batches, keeping document order in `position`.
  let position = 0;
  const depthOf = new Map<string, number>();
  for (const row of rows) depthOf.set(row.refId, row.parentRefId ? depthOf.get(row.parentRefId)! + 1 : 0);
  const maxDepth = Math.max(...depthOf.values());
  const positionOf = new Map(rows.map((row) => [row.refId, position++]));
  for (let depth = 0; depth <= maxDepth; depth++) {
    const level = rows.filter((row) => depthOf.get(row.refId) === depth);
    for (let i = 0; i < level.length; i += 500) {
      const batch = level.slice(i, i + 500);
      const inserted = await tx
        .insert(stdNodes)
        .values(
          batch.map((row) => ({
            frameworkId: framework.id,
            parentId: row.parentRefId ? idOf.get(row.parentRefId)!.id : null,
            refId: row.refId,
            urn: `${scope}:${framework.code}@${framework.edition}:${row.refId}`,
            nodeType: row.type,
            title: row.title,
            officialText: row.text,
            heading: row.heading ?? null,
            inForceFrom: row.inForceFrom ?? null,
            sourceNote: row.sourceNote ?? null,
            optional: row.optional ?? false,
            assessable: !parents.has(row.refId),
            depth,
            position: positionOf.get(row.refId)!,
          })),
        )
        .returning({ id: stdNodes.id, refId: stdNodes.refId });
      for (const node of inserted) idOf.set(node.refId, { id: node.id, depth });
    }
  }
  return rows.length;
}

/** Inserts the built-in frameworks that are missing (idempotent; a concurrent start waits on the unique key). */
export async function ensureBuiltInFrameworks(db: DbOrTx): Promise<void> {
  for (const builtIn of BUILT_INS) {
    const [existing] = await db
      .select({ id: stdFrameworks.id })
      .from(stdFrameworks)
      .where(
        and(
          isNull(stdFrameworks.projectId),
          eq(stdFrameworks.code, builtIn.code),
          eq(stdFrameworks.edition, builtIn.edition),
        ),
      );
    if (existing) continue;
    // Inside a caller's transaction (the demo seed) this is a savepoint.
    await (db as Database).transaction((tx) => addBuiltInEdition(tx, builtIn, builtInRows(builtIn), null));
  }
}

export interface EditionAdded {
  frameworkId: number;
  previous: { id: number; edition: string } | null;
  mappings: number;
}

/**
 * Adds a built-in edition (every project reads it) and the crosswalk from the edition of the same code before it,
 * derived from the two texts, so assessments upgrade through it. Null when that edition is already there.
 */
export async function addBuiltInEdition(
  tx: DbOrTx,
  meta: Omit<BuiltIn, 'file'>,
  rows: readonly FrameworkRow[],
  createdBy: number | null,
): Promise<EditionAdded | null> {
  const [framework] = await tx
    .insert(stdFrameworks)
    .values({
      projectId: null,
      code: meta.code,
      name: meta.name,
      publisher: meta.publisher,
      edition: meta.edition,
      asOf: meta.asOf,
      textPolicy: meta.textPolicy,
      licenceNote: meta.licenceNote,
      publicUrl: meta.publicUrl,
      createdBy,
    })
    .onConflictDoNothing()
    .returning();
  if (!framework) return null;
  await insertNodes(tx, framework, rows);
  // The edition before: the newest other built-in edition of this code by its text's date (undated ones first).
  const [previous] = await tx
    .select({ id: stdFrameworks.id, edition: stdFrameworks.edition })
    .from(stdFrameworks)
    .where(
      and(
        isNull(stdFrameworks.projectId),
        eq(stdFrameworks.code, meta.code),
        sql`${stdFrameworks.id} <> ${framework.id}`,
        meta.asOf ? sql`(${stdFrameworks.asOf} is null or ${stdFrameworks.asOf} < ${meta.asOf})` : sql`false`,
      ),
    )
    .orderBy(sql`${stdFrameworks.asOf} desc nulls last`, desc(stdFrameworks.id))
    .limit(1);
  if (!previous) return { frameworkId: framework.id, previous: null, mappings: 0 };
  const nodesOf = (frameworkId: number) =>
    tx
      .select({
        id: stdNodes.id,
        refId: stdNodes.refId,
        heading: stdNodes.heading,
        title: stdNodes.title,
        text: stdNodes.officialText,
      })
      .from(stdNodes)
      .where(eq(stdNodes.frameworkId, frameworkId))
      .orderBy(asc(stdNodes.position));
  const mappings = deriveCrosswalk(await nodesOf(previous.id), await nodesOf(framework.id));
  for (let i = 0; i < mappings.length; i += 500) {
    await tx
      .insert(stdMappings)
      .values(mappings.slice(i, i + 500).map((mapping) => ({ projectId: null, ...mapping })))
      .onConflictDoNothing();
  }
  return { frameworkId: framework.id, previous, mappings: mappings.length };
}

/** The frameworks a project may use: the built-in ones and its own. */
export const visibleFramework = (projectId: number) =>
  or(isNull(stdFrameworks.projectId), eq(stdFrameworks.projectId, projectId));

export async function listFrameworks(db: Database, projectId: number): Promise<StdFramework[]> {
  await ensureBuiltInFrameworks(db);
  const frameworks = await db
    .select()
    .from(stdFrameworks)
    .where(visibleFramework(projectId))
    .orderBy(asc(stdFrameworks.name), asc(stdFrameworks.edition));
  if (frameworks.length === 0) return [];
  const nodes = await db
    .select({
      id: stdNodes.id,
      frameworkId: stdNodes.frameworkId,
      parentId: stdNodes.parentId,
      refId: stdNodes.refId,
      title: stdNodes.title,
      assessable: stdNodes.assessable,
      depth: stdNodes.depth,
      optional: stdNodes.optional,
    })
    .from(stdNodes)
    .innerJoin(stdFrameworks, eq(stdFrameworks.id, stdNodes.frameworkId))
    .where(visibleFramework(projectId))
    .orderBy(asc(stdNodes.position));
  // Assessable elements below each top-level node.
  const parentOf = new Map(nodes.map((node) => [node.id, node.parentId]));
  const below = new Map<number, number>();
  for (const node of nodes) {
    if (!node.assessable) continue;
    let at: number | null = node.id;
    let top = node.id;
    while (at !== null) {
      top = at;
      at = parentOf.get(at) ?? null;
    }
    below.set(top, (below.get(top) ?? 0) + 1);
  }
  return frameworks.map((framework) => {
    const own = nodes.filter((node) => node.frameworkId === framework.id);
    return {
      id: framework.id,
      code: framework.code,
      name: framework.name,
      publisher: framework.publisher,
      edition: framework.edition,
      text_policy: framework.textPolicy as StdTextPolicy,
      licence_note: framework.licenceNote,
      public_url: framework.publicUrl,
      as_of: framework.asOf,
      built_in: framework.projectId === null,
      node_count: own.length,
      assessable_count: own.filter((node) => node.assessable).length,
      chapters: own
        .filter((node) => node.depth === 0)
        .map((node) => ({
          id: node.id,
          ref_id: node.refId,
          title: node.title,
          assessable_count: node.assessable ? 1 : (below.get(node.id) ?? 0),
          optional: node.optional,
        })),
    };
  });
}

/** POST /frameworks/import: a project's own framework from CSV, under the licence rule. */
export async function importFramework(
  db: Database,
  actor: StandardsActor,
  input: StdFrameworkImport,
  now: Date,
): Promise<StdFramework> {
  requireStandardsAdmin(actor);
  // A copyrighted publisher's framework keeps identifiers only, whatever the form said.
  if (input.text_policy === 'tenant_text' && isCopyrightedCode(input.code)) {
    throw new AppError('VALIDATION_FAILED', LICENCE_REFUSAL, { text_policy: [LICENCE_REFUSAL] });
  }
  const rows = parseFrameworkCsv(input.csv, input.text_policy);
  const id = await db.transaction(async (tx) => {
    const [framework] = await tx
      .insert(stdFrameworks)
      .values({
        projectId: actor.projectId,
        code: input.code,
        name: input.name,
        publisher: input.publisher,
        edition: input.edition,
        textPolicy: input.text_policy,
        licenceNote:
          input.text_policy === 'identifiers_only'
            ? 'Identifiers and titles only; the facility writes its own wording per element.'
            : 'The facility’s own text, visible inside this project only.',
        publicUrl: input.public_url || null,
        createdBy: actor.userId,
        createdAt: now,
      })
      .onConflictDoNothing()
      .returning();
    if (!framework) {
      const message = `This project already has ${input.code} edition ${input.edition}.`;
      throw new AppError('CONFLICT', message, { edition: [message] });
    }
    await insertNodes(tx, framework, rows);
    await standardsAudit(
      tx,
      actor,
      'framework_imported',
      { type: 'std_framework', id: framework.id },
      {
        code: input.code,
        edition: input.edition,
        text_policy: input.text_policy,
        rows: rows.length,
      },
      now,
    );
    return framework.id;
  });
  const frameworks = await listFrameworks(db, actor.projectId);
  return frameworks.find((framework) => framework.id === id)!;
}

/** A framework the project may use, or 404. */
export async function loadFramework(db: DbOrTx, projectId: number, id: number) {
  const [framework] = await db
    .select()
    .from(stdFrameworks)
    .where(and(eq(stdFrameworks.id, id), visibleFramework(projectId)));
  if (!framework) {
    throw new AppError('NOT_FOUND', 'Framework not found.', { framework_id: ['Choose a framework of this project.'] });
  }
  return framework;
}

/** The sql expression for "node belongs to a framework the project may use". */
export const nodeVisible = (projectId: number) =>
  sql`exists (select 1 from ${stdFrameworks} f where f.id = ${stdNodes.frameworkId} and (f.project_id is null or f.project_id = ${projectId}))`;
