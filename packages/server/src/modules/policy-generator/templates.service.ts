import {
  checkTemplate,
  isTruthy,
  PROFILE_NAMES,
  type ProfileValues,
  profileValues,
  TEMPLATE_SECTIONS,
  type TemplateBody,
  type TemplateDetail,
  type TemplateSummary,
  type TemplateVersion,
} from '@portal/shared';
import { and, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { personName } from '../../db/person-name.js';
import { pgTemplates, pgTemplateVersions, users } from '../../db/schema/index.js';
import { changes } from '../../lib/audit-diff.js';
import { AppError, notFound } from '../../lib/errors.js';
import { sanitizeHtml } from '../../lib/sanitize.js';
import { editsTemplates, templateFacts, templateRules } from '../../policies/generator-records.js';
import { authorize, can } from '../../policies/rules.js';
import { type GeneratorActor, generatorAudit, hashOf } from './kit.js';
import { LIBRARY } from './library/index.js';
import { standardsInProject } from './standards-lookup.js';

/**
 * Templates (issue 12; DOMAIN.md 4.2-4.6): the library shipped with the product (project_id null, read-only to
 * projects) and each project's own. Content lives in versions: one draft at a time, published versions never change
 * (generations pin them), publishing retires the previous one. A project edits a library template through a copy.
 */

type TemplateRow = typeof pgTemplates.$inferSelect;
type VersionRow = typeof pgTemplateVersions.$inferSelect;

// ---------------------------------------------------------------- the library

const synced = new WeakMap<object, Promise<void>>();

/**
 * Puts the library into the database: a template the first time, a new published version when its text changed
 * (the previous one is retired, generations keep theirs). Once per process and database; an advisory lock keeps
 * several instances starting together from inserting twice.
 */
export function ensureLibrary(db: DbOrTx, now: Date): Promise<void> {
  let done = synced.get(db);
  if (!done) {
    done = syncLibrary(db, now).catch((error) => {
      synced.delete(db);
      throw error;
    });
    synced.set(db, done);
  }
  return done;
}

async function syncLibrary(db: DbOrTx, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('policy-generator-library'))`);
    for (const item of LIBRARY) {
      const hash = hashOf(item.body);
      let [template] = await tx
        .select()
        .from(pgTemplates)
        .where(and(isNull(pgTemplates.projectId), eq(pgTemplates.code, item.code)));
      if (!template) {
        [template] = await tx
          .insert(pgTemplates)
          .values({ code: item.code, builtin: true, createdAt: now, updatedAt: now })
          .returning();
      }
      const [latest] = await tx
        .select()
        .from(pgTemplateVersions)
        .where(and(eq(pgTemplateVersions.templateId, template!.id), eq(pgTemplateVersions.status, 'published')));
      if (latest?.bodyHash === hash) continue;
      const [last] = await tx
        .select({ version: sql<number>`coalesce(max(${pgTemplateVersions.version}), 0)::int` })
        .from(pgTemplateVersions)
        .where(eq(pgTemplateVersions.templateId, template!.id));
      if (latest) {
        await tx.update(pgTemplateVersions).set({ status: 'retired' }).where(eq(pgTemplateVersions.id, latest.id));
      }
      await tx.insert(pgTemplateVersions).values({
        templateId: template!.id,
        version: (last?.version ?? 0) + 1,
        status: 'published',
        body: item.body,
        bodyHash: hash,
        note: latest ? 'Updated with the product.' : 'Shipped with the product.',
        publishedAt: now,
        createdAt: now,
        updatedAt: now,
      });
      await tx.update(pgTemplates).set({ updatedAt: now }).where(eq(pgTemplates.id, template!.id));
    }
  });
}

// ---------------------------------------------------------------- reading

/** A template of the library or of this project (another project's reads as not found). */
export async function templateOf(db: DbOrTx, actor: GeneratorActor, templateId: number): Promise<TemplateRow> {
  const [row] = await db
    .select()
    .from(pgTemplates)
    .where(
      and(
        eq(pgTemplates.id, templateId),
        or(isNull(pgTemplates.projectId), eq(pgTemplates.projectId, actor.projectId)),
      ),
    );
  if (!row) throw notFound('Template not found.');
  return row;
}

async function versionsOf(db: DbOrTx, templateIds: number[]) {
  if (!templateIds.length) return [];
  return db
    .select({ version: pgTemplateVersions, publishedBy: personName })
    .from(pgTemplateVersions)
    .leftJoin(users, eq(users.id, pgTemplateVersions.publishedBy))
    .where(inArray(pgTemplateVersions.templateId, templateIds))
    .orderBy(desc(pgTemplateVersions.version));
}

const bodyOf = (v: VersionRow) => v.body as TemplateBody;

function fitsProfile(body: TemplateBody, profile: ProfileValues): boolean {
  const values = profileValues(profile);
  return body.requires_flags.every((flag) => isTruthy(values[flag]));
}

function versionOut(v: VersionRow, publishedBy: string | null): TemplateVersion {
  return {
    id: v.id,
    template_id: v.templateId,
    version: v.version,
    status: v.status as TemplateVersion['status'],
    note: v.note,
    published: v.publishedAt ? { at: v.publishedAt.toISOString(), by: publishedBy } : null,
    body: bodyOf(v) as TemplateVersion['body'],
  };
}

function summaryOf(
  template: TemplateRow,
  versions: { version: VersionRow; publishedBy: string | null }[],
  profile: ProfileValues,
  derivedTitle: string | null,
): TemplateSummary {
  const published = versions.find((v) => v.version.status === 'published')?.version;
  const draft = versions.find((v) => v.version.status === 'draft')?.version;
  const body = bodyOf((published ?? draft ?? versions[0]!.version) as VersionRow);
  return {
    id: template.id,
    code: template.code,
    title: body.title,
    category: body.category,
    description: body.description,
    scope: template.projectId === null ? 'global' : 'project',
    derived_from: template.derivedFromId && derivedTitle ? { id: template.derivedFromId, title: derivedTitle } : null,
    requires_flags: body.requires_flags,
    fits_profile: fitsProfile(body, profile),
    standards: body.standards,
    published: published
      ? { id: published.id, version: published.version, published_at: published.publishedAt!.toISOString() }
      : null,
    draft: draft ? { id: draft.id, version: draft.version } : null,
    updated_at: template.updatedAt.toISOString(),
  };
}

async function titlesOf(db: DbOrTx, templateIds: number[]): Promise<Map<number, string>> {
  const titles = new Map<number, string>();
  for (const { version } of await versionsOf(db, templateIds)) {
    if (version.status === 'published' || !titles.has(version.templateId)) {
      titles.set(version.templateId, bodyOf(version).title);
    }
  }
  return titles;
}

export async function listTemplates(db: DbOrTx, actor: GeneratorActor, profile: ProfileValues, now: Date) {
  await ensureLibrary(db, now);
  const templates = await db
    .select()
    .from(pgTemplates)
    .where(or(isNull(pgTemplates.projectId), eq(pgTemplates.projectId, actor.projectId)));
  const versions = await versionsOf(
    db,
    templates.map((t) => t.id),
  );
  const editor = editsTemplates(actor);
  const derivedTitles = await titlesOf(db, [
    ...new Set(templates.flatMap((t) => (t.derivedFromId ? [t.derivedFromId] : []))),
  ]);
  const out: TemplateSummary[] = [];
  for (const t of templates) {
    const own = versions.filter((v) => v.version.templateId === t.id && (editor || v.version.status === 'published'));
    if (!own.length || (!editor && !own.some((v) => v.version.status === 'published'))) continue;
    out.push(summaryOf(t, own, profile, t.derivedFromId ? (derivedTitles.get(t.derivedFromId) ?? null) : null));
  }
  out.sort((a, b) => a.title.localeCompare(b.title) || a.id - b.id);
  return { templates: out, can_edit: editor };
}

export async function templateDetail(
  db: DbOrTx,
  actor: GeneratorActor,
  templateId: number,
  profile: ProfileValues,
  now: Date,
): Promise<TemplateDetail> {
  await ensureLibrary(db, now);
  const template = await templateOf(db, actor, templateId);
  const editor = editsTemplates(actor);
  const all = (await versionsOf(db, [template.id])).filter((v) => editor || v.version.status !== 'draft');
  if (!all.length) throw notFound('Template not found.');
  const derived = template.derivedFromId
    ? (await titlesOf(db, [template.derivedFromId])).get(template.derivedFromId)
    : null;
  const published = all.find((v) => v.version.status === 'published');
  const draft = all.find((v) => v.version.status === 'draft');
  return {
    ...summaryOf(template, all, profile, derived ?? null),
    versions: all.map(({ version: v, publishedBy }) => ({
      id: v.id,
      version: v.version,
      status: v.status as TemplateVersion['status'],
      note: v.note,
      published: v.publishedAt ? { at: v.publishedAt.toISOString(), by: publishedBy } : null,
    })),
    current: published ? versionOut(published.version, published.publishedBy) : null,
    working: draft && editor ? versionOut(draft.version, null) : null,
    current_standards: published
      ? await standardsInProject(db, actor.projectId, bodyOf(published.version).standards)
      : [],
    // Template editors change the project's own template, and copy the library's into the project.
    can_edit: can(templateRules, template.projectId === null ? 'copy' : 'edit', actor, templateFacts(actor, template)),
  };
}

/** One version of a template the caller may see (drafts only for template editors). */
export async function loadTemplateVersion(
  db: DbOrTx,
  actor: GeneratorActor,
  versionId: number,
  templateId?: number,
): Promise<{ template: TemplateRow; version: VersionRow; body: TemplateBody }> {
  const [row] = await db
    .select({ template: pgTemplates, version: pgTemplateVersions })
    .from(pgTemplateVersions)
    .innerJoin(pgTemplates, eq(pgTemplates.id, pgTemplateVersions.templateId))
    .where(
      and(
        eq(pgTemplateVersions.id, versionId),
        or(isNull(pgTemplates.projectId), eq(pgTemplates.projectId, actor.projectId)),
        templateId === undefined ? undefined : eq(pgTemplates.id, templateId),
      ),
    );
  if (!row || (row.version.status === 'draft' && !editsTemplates(actor))) {
    throw notFound('Template version not found.');
  }
  return { ...row, body: bodyOf(row.version) };
}

export async function templateVersion(db: DbOrTx, actor: GeneratorActor, templateId: number, versionId: number) {
  const { version } = await loadTemplateVersion(db, actor, versionId, templateId);
  const [by] = version.publishedBy
    ? await db.select({ name: personName }).from(users).where(eq(users.id, version.publishedBy))
    : [];
  return versionOut(version, by?.name ?? null);
}

// ---------------------------------------------------------------- changing

const READ_ONLY = "The library's templates are read-only: copy one to this project to change it.";

async function projectTemplate(tx: DbOrTx, actor: GeneratorActor, templateId: number): Promise<TemplateRow> {
  const template = await templateOf(tx, actor, templateId);
  if (template.projectId === null) throw new AppError('CONFLICT', READ_ONLY);
  authorize(templateRules, 'edit', actor, templateFacts(actor, template));
  const [locked] = await tx.select().from(pgTemplates).where(eq(pgTemplates.id, template.id)).for('update');
  return locked!;
}

const slug = (title: string) =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60) || 'template';

async function freeCode(tx: DbOrTx, projectId: number, base: string): Promise<string> {
  const taken = new Set(
    (await tx.select({ code: pgTemplates.code }).from(pgTemplates).where(eq(pgTemplates.projectId, projectId))).map(
      (r) => r.code,
    ),
  );
  if (!taken.has(base)) return base;
  for (let i = 2; ; i++) if (!taken.has(`${base}-${i}`)) return `${base}-${i}`;
}

function blankBody(title: string): TemplateBody {
  return {
    title,
    category: '',
    description: '',
    requires_flags: [],
    sections: TEMPLATE_SECTIONS.map((key) => ({ key, html: '<p></p>' })),
    variables: [],
    standards: [],
  };
}

/** Sanitises each section as the policy editor's text is, then checks the syntax again (on the sanitised text). */
function cleanBody(body: TemplateBody): TemplateBody {
  const known = new Set([...PROFILE_NAMES, ...body.variables.map((v) => v.key)]);
  const sections = body.sections.map((s, i) => {
    const html = sanitizeHtml(s.html);
    const problems = checkTemplate(html, known);
    if (problems.length) {
      throw new AppError('VALIDATION_FAILED', problems[0]!, { [`sections.${i}.html`]: [problems[0]!] });
    }
    return { key: s.key, html };
  });
  return { ...body, sections };
}

export async function createTemplate(
  db: DbOrTx,
  actor: GeneratorActor,
  input: { copy_of: number } | { title: string },
  now: Date,
): Promise<number> {
  await ensureLibrary(db, now);
  return db.transaction(async (tx) => {
    let body: TemplateBody;
    let derivedFromId: number | null = null;
    let code: string;
    if ('copy_of' in input) {
      const source = await templateOf(tx, actor, input.copy_of);
      authorize(templateRules, 'copy', actor, templateFacts(actor, source));
      const [published] = await tx
        .select()
        .from(pgTemplateVersions)
        .where(and(eq(pgTemplateVersions.templateId, source.id), eq(pgTemplateVersions.status, 'published')));
      if (!published) throw new AppError('CONFLICT', 'Only a published template can be copied.');
      body = bodyOf(published);
      derivedFromId = source.id;
      if (source.projectId === null) {
        const [copy] = await tx
          .select({ id: pgTemplates.id })
          .from(pgTemplates)
          .where(and(eq(pgTemplates.projectId, actor.projectId), eq(pgTemplates.derivedFromId, source.id)));
        if (copy) throw new AppError('CONFLICT', `This project already has a copy of "${body.title}". Edit that one.`);
        code = await freeCode(tx, actor.projectId, source.code);
      } else {
        body = { ...body, title: `${body.title} (copy)`.slice(0, 200) };
        code = await freeCode(tx, actor.projectId, `${source.code}-copy`);
      }
    } else {
      body = blankBody(input.title);
      code = await freeCode(tx, actor.projectId, slug(input.title));
    }
    const [template] = await tx
      .insert(pgTemplates)
      .values({
        projectId: actor.projectId,
        code,
        derivedFromId,
        createdBy: actor.userId,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    await tx.insert(pgTemplateVersions).values({
      projectId: actor.projectId,
      templateId: template!.id,
      version: 1,
      status: 'draft',
      body,
      bodyHash: hashOf(body),
      createdBy: actor.userId,
      createdAt: now,
      updatedAt: now,
    });
    await generatorAudit(
      tx,
      actor,
      'template_created',
      { type: 'pg_template', id: template!.id },
      { code, derived_from_id: derivedFromId, title: body.title },
      now,
    );
    return template!.id;
  });
}

export async function saveTemplateDraft(
  db: DbOrTx,
  actor: GeneratorActor,
  templateId: number,
  input: TemplateBody,
  now: Date,
): Promise<void> {
  const body = cleanBody(input);
  await db.transaction(async (tx) => {
    const template = await projectTemplate(tx, actor, templateId);
    const [draft] = await tx
      .select()
      .from(pgTemplateVersions)
      .where(and(eq(pgTemplateVersions.templateId, template.id), eq(pgTemplateVersions.status, 'draft')));
    // What the save changes: against the draft, or the newest version a new draft starts from.
    const [base] = draft
      ? [draft]
      : await tx
          .select()
          .from(pgTemplateVersions)
          .where(eq(pgTemplateVersions.templateId, template.id))
          .orderBy(desc(pgTemplateVersions.version))
          .limit(1);
    const before = auditFields(base ? bodyOf(base) : undefined);
    const after = auditFields(body);
    if (draft) {
      await tx
        .update(pgTemplateVersions)
        .set({ body, bodyHash: hashOf(body), updatedAt: now })
        .where(eq(pgTemplateVersions.id, draft.id));
    } else {
      const [last] = await tx
        .select({ version: sql<number>`coalesce(max(${pgTemplateVersions.version}), 0)::int` })
        .from(pgTemplateVersions)
        .where(eq(pgTemplateVersions.templateId, template.id));
      await tx.insert(pgTemplateVersions).values({
        projectId: actor.projectId,
        templateId: template.id,
        version: (last?.version ?? 0) + 1,
        status: 'draft',
        body,
        bodyHash: hashOf(body),
        createdBy: actor.userId,
        createdAt: now,
        updatedAt: now,
      });
    }
    await tx.update(pgTemplates).set({ updatedAt: now }).where(eq(pgTemplates.id, template.id));
    await generatorAudit(
      tx,
      actor,
      'template_draft_saved',
      { type: 'pg_template', id: template.id },
      {
        title: body.title,
        sections: body.sections.map((s) => s.key),
        variables: body.variables.map((v) => v.key),
        standards: body.standards.length,
        // Section HTML shortened to its first 200 characters (lib/audit-diff.ts).
        changes: changes(before, after, { fields: [...new Set([...Object.keys(before), ...Object.keys(after)])] }),
      },
      now,
    );
  });
}

/** A template body as the audit compares it: each section on its own (`section_<key>`), variables by key. */
function auditFields(body: TemplateBody | undefined): Record<string, unknown> {
  if (!body) return {};
  return {
    title: body.title,
    category: body.category,
    description: body.description,
    requires_flags: body.requires_flags,
    ...Object.fromEntries(body.sections.map((section) => [`section_${section.key}`, section.html])),
    variables: body.variables.map((variable) => variable.key),
    standards: body.standards,
  };
}

async function draftOf(tx: DbOrTx, templateId: number): Promise<VersionRow> {
  const [draft] = await tx
    .select()
    .from(pgTemplateVersions)
    .where(and(eq(pgTemplateVersions.templateId, templateId), eq(pgTemplateVersions.status, 'draft')));
  if (!draft) throw new AppError('CONFLICT', 'This template has no draft.');
  return draft;
}

export async function publishTemplate(
  db: DbOrTx,
  actor: GeneratorActor,
  templateId: number,
  note: string,
  now: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    const template = await projectTemplate(tx, actor, templateId);
    const draft = await draftOf(tx, template.id);
    const [published] = await tx
      .select()
      .from(pgTemplateVersions)
      .where(and(eq(pgTemplateVersions.templateId, template.id), eq(pgTemplateVersions.status, 'published')));
    if (published && !note) {
      const message = 'Say what changed since the last version.';
      throw new AppError('VALIDATION_FAILED', message, { note: [message] });
    }
    if (published) {
      await tx.update(pgTemplateVersions).set({ status: 'retired' }).where(eq(pgTemplateVersions.id, published.id));
    }
    await tx
      .update(pgTemplateVersions)
      .set({
        status: 'published',
        note: note || 'First version.',
        publishedAt: now,
        publishedBy: actor.userId,
        updatedAt: now,
      })
      .where(eq(pgTemplateVersions.id, draft.id));
    await tx.update(pgTemplates).set({ updatedAt: now }).where(eq(pgTemplates.id, template.id));
    await generatorAudit(
      tx,
      actor,
      'template_published',
      { type: 'pg_template', id: template.id },
      {
        version: draft.version,
        note,
      },
      now,
    );
  });
}

/** Discards the draft; a template that was never published goes with it. Returns whether the template remains. */
export async function discardTemplateDraft(
  db: DbOrTx,
  actor: GeneratorActor,
  templateId: number,
  now: Date,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const template = await projectTemplate(tx, actor, templateId);
    const draft = await draftOf(tx, template.id);
    await tx.delete(pgTemplateVersions).where(eq(pgTemplateVersions.id, draft.id));
    const [other] = await tx
      .select({ id: pgTemplateVersions.id })
      .from(pgTemplateVersions)
      .where(eq(pgTemplateVersions.templateId, template.id))
      .limit(1);
    if (!other) await tx.delete(pgTemplates).where(eq(pgTemplates.id, template.id));
    await generatorAudit(
      tx,
      actor,
      other ? 'template_draft_discarded' : 'template_deleted',
      {
        type: 'pg_template',
        id: template.id,
      },
      { version: draft.version },
      now,
    );
    return Boolean(other);
  });
}
