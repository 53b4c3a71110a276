import {
  type AnswerLookup,
  type Answers,
  assemblePolicy,
  citesStandard,
  type GenerateInput,
  type GeneratorLookups,
  nextPolicyNumber,
  type PreviewResult,
  type ProfileValues,
  profileValues,
  redlineHtml,
  resolveAnswers,
  type StandardRef,
  type TemplateBody,
  type TemplateSectionKey,
} from '@portal/shared';
import { and, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { personName } from '../../db/person-name.js';
import {
  pgGenerations,
  pgTemplateVersions,
  policyDepartmentRoles,
  policyDepartments,
  policyDocuments,
  policyUsers,
  policyVersions,
  traceLinks,
  users,
} from '../../db/schema/index.js';
import { sha256 } from '../../lib/crypto.js';
import { AppError, notFound } from '../../lib/errors.js';
import { sanitizeHtml } from '../../lib/sanitize.js';
import {
  draftsPolicies,
  editsTemplates,
  generationRules,
  templateFacts,
  templateRules,
} from '../../policies/generator-records.js';
import { authorize } from '../../policies/rules.js';
import {
  insertDocument,
  loadScheme,
  lockDocument,
  openDraft,
  policyAudit,
  refreshSearchText,
} from '../policies/documents.service.js';
import { lockNumbering, nextFreeNumber, numbersByDepartment } from '../policies/numbering.service.js';
import { type GeneratorActor, generatorAudit, hashOf } from './kit.js';
import { standardNodes, standardsInProject } from './standards-lookup.js';
import { loadTemplateVersion } from './templates.service.js';

/**
 * From a template version, the facility profile and the wizard's answers to a draft in policy management (issue 12;
 * DOMAIN.md 4.2-4.6): preview, generate, the generations list and regenerate. The renderer is the shared one, so
 * the preview the web shows is the text the draft gets.
 */

// ---------------------------------------------------------------- lookups

async function answerLookup(
  db: DbOrTx,
  projectId: number,
): Promise<AnswerLookup & { people: { id: number; name: string }[] }> {
  const departments = await db
    .select({ id: policyDepartments.id, name: policyDepartments.name })
    .from(policyDepartments)
    .where(eq(policyDepartments.projectId, projectId));
  const people = await db
    .select({ id: users.id, name: personName })
    .from(policyUsers)
    .innerJoin(users, eq(users.id, policyUsers.userId))
    .where(and(eq(policyUsers.projectId, projectId), ne(users.status, 'disabled')))
    .orderBy(personName);
  return {
    departments: new Map(departments.map((d) => [d.id, d.name])),
    users: new Map(people.map((p) => [p.id, p.name])),
    people,
  };
}

export async function generatorLookups(db: DbOrTx, actor: GeneratorActor): Promise<GeneratorLookups> {
  const scheme = await loadScheme(db, actor.projectId);
  const { used, byDepartment } = await numbersByDepartment(db, actor.projectId);
  const { people } = await answerLookup(db, actor.projectId);
  const departments = await db
    .select({ id: policyDepartments.id, name: policyDepartments.name, code: policyDepartments.code })
    .from(policyDepartments)
    .where(eq(policyDepartments.projectId, actor.projectId))
    .orderBy(policyDepartments.name);
  const roles = await db
    .select({ departmentId: policyDepartmentRoles.departmentId, role: policyDepartmentRoles.role, name: personName })
    .from(policyDepartmentRoles)
    .innerJoin(users, eq(users.id, policyDepartmentRoles.userId))
    .where(
      and(
        eq(policyDepartmentRoles.projectId, actor.projectId),
        inArray(policyDepartmentRoles.role, ['reviewer', 'signer']),
      ),
    )
    .orderBy(personName);
  const named = (departmentId: number, role: string) =>
    roles.filter((r) => r.departmentId === departmentId && r.role === role).map((r) => r.name);
  return {
    departments: departments.map((d) => ({
      ...d,
      // A policy of the department goes into its chapter (policy management's own rule, nextPolicyNumber).
      next_number: nextPolicyNumber(scheme, used, { code: d.code, numbers: byDepartment.get(d.id) ?? [] }),
      reviewers: named(d.id, 'reviewer'),
      signers: named(d.id, 'signer'),
    })),
    next_number: nextPolicyNumber(scheme, used, null),
    used_numbers: used,
    people,
    can_generate: draftsPolicies(actor),
    can_edit_templates: editsTemplates(actor),
  };
}

// ---------------------------------------------------------------- rendering

interface Rendered {
  html: string;
  sections: PreviewResult['sections'];
  unresolved: string[];
  missing: string[];
  errors: Record<string, string>;
  profile: Record<string, string | number | boolean | null>;
}

function render(
  body: TemplateBody,
  profile: ProfileValues,
  answers: Answers,
  lookup: AnswerLookup,
  overrides: Partial<Record<TemplateSectionKey, string>> | undefined,
  markUnresolved: boolean,
): Rendered {
  const resolved = resolveAnswers(body.variables, answers, lookup);
  const lent = profileValues(profile);
  const clean = overrides
    ? Object.fromEntries(Object.entries(overrides).map(([k, v]) => [k, sanitizeHtml(v ?? '')]))
    : undefined;
  const policy = assemblePolicy(body.sections, { ...lent, ...resolved.values }, { markUnresolved, overrides: clean });
  return {
    html: policy.html,
    sections: policy.sections,
    unresolved: policy.unresolved,
    missing: resolved.missing,
    errors: resolved.errors,
    profile: lent,
  };
}

function refuseErrors(errors: Record<string, string>) {
  const entries = Object.entries(errors);
  if (!entries.length) return;
  throw new AppError(
    'VALIDATION_FAILED',
    entries[0]![1],
    Object.fromEntries(entries.map(([key, message]) => [`answers.${key}`, [message]])),
  );
}

export async function previewPolicy(
  db: DbOrTx,
  actor: GeneratorActor,
  profile: ProfileValues,
  input: { template_version_id: number; answers: Answers; overrides?: Partial<Record<TemplateSectionKey, string>> },
): Promise<PreviewResult> {
  const { body } = await loadTemplateVersion(db, actor, input.template_version_id);
  const lookup = await answerLookup(db, actor.projectId);
  const out = render(body, profile, input.answers, lookup, input.overrides, true);
  const known = await standardsInProject(db, actor.projectId, body.standards);
  return {
    sections: out.sections,
    html: sanitizeHtml(out.html),
    unresolved: out.unresolved,
    missing_required: out.missing,
    errors: out.errors,
    standards: known.map((standard) => ({ ...standard, cited: citesStandard(out.html, standard.ref_id) })),
  };
}

// ---------------------------------------------------------------- suggested standards links

/**
 * Links the draft to the elements the template lists, among the frameworks this project assesses (a suggestion the
 * standards team can remove). Refs the project has no element for are reported back.
 */
async function suggestLinks(
  tx: DbOrTx,
  actor: GeneratorActor,
  documentId: number,
  refs: readonly StandardRef[],
  label: string,
  now: Date,
): Promise<{ added: number; unmatched: string[] }> {
  if (!refs.length) return { added: 0, unmatched: [] };
  const nodes = (await standardNodes(tx, actor.projectId, refs)).filter((n) => n.assessed);
  const matched = nodes.filter((n) => refs.some((r) => r.framework === n.code && r.ref_id === n.refId));
  const unmatched = refs
    .filter((r) => !matched.some((n) => n.code === r.framework && n.refId === r.ref_id))
    .map((r) => `${r.framework} ${r.ref_id}`);
  if (!matched.length) return { added: 0, unmatched };
  const inserted = await tx
    .insert(traceLinks)
    .values(
      matched.map((n) => ({
        projectId: actor.projectId,
        nodeId: n.id,
        targetType: 'policy',
        targetId: documentId,
        note: `Suggested by the policy generator (${label}).`.slice(0, 500),
        createdBy: actor.userId,
        createdAt: now,
      })),
    )
    .onConflictDoNothing()
    .returning({ id: traceLinks.id });
  return { added: inserted.length, unmatched };
}

// ---------------------------------------------------------------- generate

async function currentPublished(db: DbOrTx, actor: GeneratorActor, versionId: number) {
  const loaded = await loadTemplateVersion(db, actor, versionId);
  if (loaded.version.status !== 'published') {
    throw new AppError(
      'CONFLICT',
      loaded.version.status === 'retired'
        ? 'A newer version of this template was published meanwhile. Reload the template to use it.'
        : 'Publish the template before generating policies from it.',
    );
  }
  return loaded;
}

export async function generatePolicy(
  db: DbOrTx,
  actor: GeneratorActor,
  profile: ProfileValues,
  input: GenerateInput,
  now: Date,
) {
  const { template, version, body } = await currentPublished(db, actor, input.template_version_id);
  authorize(templateRules, 'generate', actor, templateFacts(actor, template));
  const lookup = await answerLookup(db, actor.projectId);
  const out = render(body, profile, input.answers, lookup, input.overrides, false);
  refuseErrors(out.errors);
  return db.transaction(async (tx) => {
    const label = `"${body.title}" version ${version.version}`;
    // Without a number of its own the draft takes the next free one in its department's chapter, as numbering does.
    let number = input.number || null;
    if (!number) {
      await lockNumbering(tx, actor.projectId);
      number = await nextFreeNumber(tx, actor.projectId, input.department_id);
    }
    const documentId = await insertDocument(
      tx,
      actor,
      {
        title: input.title,
        number,
        department_id: input.department_id,
        owner_id: input.owner_id,
        review_interval_months: profile.default_review_interval_months,
        next_review_on: null,
        content: out.html,
      },
      now,
      { changeSummary: `Generated from the template ${label}.` },
    );
    const [draft] = await tx
      .select({ id: policyVersions.id, content: policyVersions.content })
      .from(policyVersions)
      .where(and(eq(policyVersions.projectId, actor.projectId), eq(policyVersions.documentId, documentId)));
    const [generation] = await tx
      .insert(pgGenerations)
      .values({
        projectId: actor.projectId,
        kind: 'generate',
        templateId: template.id,
        templateVersionId: version.id,
        answers: { ...input.answers } as Record<string, string | number | boolean | null>,
        profile: out.profile,
        inputsHash: hashOf({ version: version.id, answers: input.answers, profile: out.profile }),
        unresolved: out.unresolved,
        overrides: (input.overrides ?? {}) as Record<string, string>,
        documentId,
        versionId: draft!.id,
        contentHash: sha256(draft!.content),
        createdBy: actor.userId,
        createdAt: now,
      })
      .returning({ id: pgGenerations.id });
    const links = await suggestLinks(tx, actor, documentId, body.standards, label, now);
    await generatorAudit(
      tx,
      actor,
      'policy_generated',
      { type: 'policy_document', id: documentId },
      {
        template_id: template.id,
        template_version: version.version,
        generation_id: generation!.id,
        unresolved: out.unresolved,
        links_added: links.added,
        assisted: Object.keys(input.overrides ?? {}).length > 0,
      },
      now,
    );
    return {
      document_id: documentId,
      generation_id: generation!.id,
      unresolved: out.unresolved,
      links_added: links.added,
      links_unmatched: links.unmatched,
    };
  });
}

// ---------------------------------------------------------------- generations

async function generationRows(db: DbOrTx, projectId: number, where?: ReturnType<typeof eq>) {
  return db
    .select({
      generation: pgGenerations,
      templateVersion: pgTemplateVersions.version,
      body: pgTemplateVersions.body,
      document: {
        id: policyDocuments.id,
        number: policyDocuments.number,
        title: policyDocuments.title,
        status: policyDocuments.status,
      },
      by: personName,
      latest: sql<
        number | null
      >`(select max(v.version) from pg_template_versions v where v.template_id = ${pgGenerations.templateId} and v.status = 'published')`,
    })
    .from(pgGenerations)
    .innerJoin(pgTemplateVersions, eq(pgTemplateVersions.id, pgGenerations.templateVersionId))
    .innerJoin(
      policyDocuments,
      and(eq(policyDocuments.id, pgGenerations.documentId), eq(policyDocuments.projectId, projectId)),
    )
    .leftJoin(users, eq(users.id, pgGenerations.createdBy))
    .where(and(eq(pgGenerations.projectId, projectId), where))
    .orderBy(desc(pgGenerations.createdAt), desc(pgGenerations.id));
}

type GenerationRow = Awaited<ReturnType<typeof generationRows>>[number];

function generationOut(row: GenerationRow, newest: boolean) {
  const latest = row.latest === null ? null : Number(row.latest);
  return {
    id: row.generation.id,
    document: row.document,
    template: { id: row.generation.templateId, title: (row.body as TemplateBody).title },
    version: row.templateVersion,
    latest_version: latest,
    // Only the newest generation of a policy can be brought forward, and never an archived policy.
    update_available: newest && latest !== null && latest > row.templateVersion && row.document.status !== 'archived',
    kind: row.generation.kind as 'generate' | 'regenerate',
    unresolved: row.generation.unresolved,
    assisted: Object.keys(row.generation.overrides).length > 0,
    created: { at: row.generation.createdAt.toISOString(), by: row.by },
  };
}

export async function listGenerations(db: DbOrTx, actor: GeneratorActor) {
  const rows = await generationRows(db, actor.projectId);
  const seen = new Set<number>();
  return {
    generations: rows.map((row) => {
      const newest = !seen.has(row.document.id);
      seen.add(row.document.id);
      return generationOut(row, newest);
    }),
  };
}

export async function generationDetail(db: DbOrTx, actor: GeneratorActor, generationId: number) {
  const [row] = await generationRows(db, actor.projectId, eq(pgGenerations.id, generationId));
  if (!row) throw notFound('Generation not found.');
  const [newer] = await db
    .select({ id: pgGenerations.id })
    .from(pgGenerations)
    .where(
      and(
        eq(pgGenerations.projectId, actor.projectId),
        eq(pgGenerations.documentId, row.document.id),
        sql`${pgGenerations.id} > ${row.generation.id}`,
      ),
    )
    .limit(1);
  return {
    ...generationOut(row, !newer),
    answers: row.generation.answers,
    template_version_id: row.generation.templateVersionId,
  };
}

// ---------------------------------------------------------------- regenerate

/**
 * A new draft version of a generated policy from a newer template version (or changed answers), with a redline
 * against the current text. Never over a draft someone edited since it was generated, never during review.
 */
export async function regeneratePolicy(
  db: DbOrTx,
  actor: GeneratorActor,
  profile: ProfileValues,
  documentId: number,
  input: { template_version_id?: number; answers?: Answers },
  now: Date,
) {
  const [last] = await db
    .select()
    .from(pgGenerations)
    .where(and(eq(pgGenerations.projectId, actor.projectId), eq(pgGenerations.documentId, documentId)))
    .orderBy(desc(pgGenerations.id))
    .limit(1);
  if (!last) throw notFound('This policy was not made by the policy generator.');
  authorize(generationRules, 'regenerate', actor, { projectId: last.projectId });
  let versionId = input.template_version_id;
  if (versionId === undefined) {
    const [latest] = await db
      .select({ id: pgTemplateVersions.id })
      .from(pgTemplateVersions)
      .where(and(eq(pgTemplateVersions.templateId, last.templateId), eq(pgTemplateVersions.status, 'published')));
    if (!latest) throw new AppError('CONFLICT', 'The template has no published version to regenerate from.');
    versionId = latest.id;
  }
  const { template, version, body } = await currentPublished(db, actor, versionId);
  if (template.id !== last.templateId) {
    const message = 'Choose a version of the template this policy was generated from.';
    throw new AppError('VALIDATION_FAILED', message, { template_version_id: [message] });
  }
  const answers = { ...last.answers, ...(input.answers ?? {}) };
  const lookup = await answerLookup(db, actor.projectId);
  const out = render(body, profile, answers, lookup, undefined, false);
  refuseErrors(out.errors);
  return db.transaction(async (tx) => {
    const doc = await lockDocument(tx, actor, documentId);
    if (doc.status === 'archived') throw new AppError('CONFLICT', 'Restore this policy from the archive to change it.');
    if (doc.status === 'in_review' || doc.status === 'pending_signature') {
      throw new AppError(
        'CONFLICT',
        'This policy is out for review or signature. Withdraw it or let the round finish before regenerating.',
      );
    }
    const content = sanitizeHtml(out.html);
    const summary = `Regenerated from the template "${body.title}" version ${version.version}.`;
    let before: string;
    let draftId: number;
    if (doc.draftVersionId !== null) {
      const [draft] = await tx
        .select()
        .from(policyVersions)
        .where(and(eq(policyVersions.projectId, actor.projectId), eq(policyVersions.id, doc.draftVersionId)));
      if (sha256(draft!.content) !== last.contentHash) {
        throw new AppError(
          'CONFLICT',
          'The open draft was edited after it was generated. Regenerating would overwrite those edits: send it through review or restore it first.',
        );
      }
      before = draft!.content;
      await tx
        .update(policyVersions)
        .set({
          content,
          changeSummary: summary,
          revision: draft!.revision + 1,
          updatedAt: now,
          updatedBy: actor.userId,
        })
        .where(and(eq(policyVersions.projectId, actor.projectId), eq(policyVersions.id, draft!.id)));
      draftId = draft!.id;
    } else {
      const [current] = doc.currentVersionId
        ? await tx
            .select({ content: policyVersions.content })
            .from(policyVersions)
            .where(and(eq(policyVersions.projectId, actor.projectId), eq(policyVersions.id, doc.currentVersionId)))
        : [];
      before = current?.content ?? '';
      draftId = (await openDraft(tx, actor, doc, now, content, summary)).id;
    }
    await refreshSearchText(tx, actor.projectId, doc.id);
    const [saved] = await tx
      .select({ version: policyVersions.version, content: policyVersions.content })
      .from(policyVersions)
      .where(and(eq(policyVersions.projectId, actor.projectId), eq(policyVersions.id, draftId)));
    const [generation] = await tx
      .insert(pgGenerations)
      .values({
        projectId: actor.projectId,
        kind: 'regenerate',
        templateId: template.id,
        templateVersionId: version.id,
        answers: answers as Record<string, string | number | boolean | null>,
        profile: out.profile,
        inputsHash: hashOf({ version: version.id, answers, profile: out.profile }),
        unresolved: out.unresolved,
        documentId: doc.id,
        versionId: draftId,
        contentHash: sha256(saved!.content),
        createdBy: actor.userId,
        createdAt: now,
      })
      .returning({ id: pgGenerations.id });
    await suggestLinks(tx, actor, doc.id, body.standards, `"${body.title}" version ${version.version}`, now);
    await policyAudit(
      tx,
      actor,
      'draft_edited',
      { type: 'policy_document', id: doc.id },
      { version: saved!.version },
      now,
    );
    await generatorAudit(
      tx,
      actor,
      'policy_regenerated',
      { type: 'policy_document', id: doc.id },
      {
        template_id: template.id,
        template_version: version.version,
        generation_id: generation!.id,
        unresolved: out.unresolved,
      },
      now,
    );
    const redline = redlineHtml(before, saved!.content);
    return {
      document_id: doc.id,
      generation_id: generation!.id,
      version: saved!.version,
      unresolved: out.unresolved,
      redline: { ...redline, html: sanitizeHtml(redline.html) },
    };
  });
}
