import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, project, ref, updatedAt, userRef } from './columns.js';
import { policyDocuments, policyVersions } from './policies.js';
import { projects } from './projects.js';

/** Policy generator (issue 12; decision record 016): facility profiles, templates with versions, generations. */

/** One per project: who the facility is, what it offers and who surveys it. Templates read it as variables/flags. */
export const pgFacilityProfiles = pgTable('pg_facility_profiles', {
  projectId: integer('project_id')
    .primaryKey()
    .references(() => projects.id, { onDelete: 'restrict' }),
  legalName: text('legal_name').notNull(),
  shortName: text('short_name').notNull().default(''),
  address: text('address').notNull().default(''),
  state: text('state').notNull().default(''),
  bedCount: integer('bed_count'),
  serviceLines: text('service_lines').array().notNull().default(sql`'{}'::text[]`),
  accreditors: text('accreditors').array().notNull().default(sql`'{}'::text[]`),
  ownerTitles: jsonb('owner_titles').$type<Record<string, string>>().notNull().default({}),
  defaultReviewIntervalMonths: integer('default_review_interval_months').notNull().default(36),
  updatedAt: updatedAt(),
  updatedBy: userRef('updated_by'),
});

/**
 * A template: the library's (project_id null, builtin) or a project's own. Its content lives in versions; a project
 * edits a global template only through a copy (derived_from_id).
 */
export const pgTemplates = pgTable(
  'pg_templates',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: integer('project_id').references(() => projects.id, { onDelete: 'restrict' }),
    code: text('code').notNull(),
    builtin: boolean('builtin').notNull().default(false),
    derivedFromId: integer('derived_from_id').references((): AnyPgColumn => pgTemplates.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    createdBy: userRef('created_by'),
    updatedAt: updatedAt(),
  },
  (t) => [unique('pg_templates_code_unique').on(t.projectId, t.code).nullsNotDistinct()],
);

/** A version of a template: one draft at a time; published versions are never changed (generations pin them). */
export const pgTemplateVersions = pgTable(
  'pg_template_versions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** Null for the library's versions, like their template. */
    projectId: integer('project_id').references(() => projects.id, { onDelete: 'restrict' }),
    templateId: ref('template_id', () => pgTemplates.id, 'cascade'),
    version: integer('version').notNull(),
    status: text('status').notNull().default('draft'),
    /** templateBodySchema: title, category, description, requires_flags, sections, variables, standards. */
    body: jsonb('body').notNull(),
    /** SHA-256 of the body (the library only adds a version when its text changed). */
    bodyHash: text('body_hash').notNull(),
    note: text('note').notNull().default(''),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    publishedBy: userRef('published_by'),
    createdAt: createdAt(),
    createdBy: userRef('created_by'),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('pg_template_versions_unique').on(t.templateId, t.version),
    uniqueIndex('pg_template_versions_one_draft').on(t.templateId).where(sql`${t.status} = 'draft'`),
    check('pg_template_versions_status_check', sql`${t.status} in ('draft', 'published', 'retired')`),
  ],
);

/** What made a policy draft: the template version, the answers, what stayed unresolved (provenance). */
export const pgGenerations = pgTable(
  'pg_generations',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: project(),
    kind: text('kind').notNull().default('generate'),
    templateId: ref('template_id', () => pgTemplates.id, 'restrict'),
    templateVersionId: ref('template_version_id', () => pgTemplateVersions.id, 'restrict'),
    answers: jsonb('answers').$type<Record<string, string | number | boolean | null>>().notNull(),
    /** The profile's values at the time (so the provenance survives a later profile change). */
    profile: jsonb('profile').$type<Record<string, string | number | boolean | null>>().notNull(),
    /** SHA-256 of template version, answers and profile: two generations with the same inputs say so. */
    inputsHash: text('inputs_hash').notNull(),
    unresolved: text('unresolved').array().notNull().default(sql`'{}'::text[]`),
    /** Sections replaced by an accepted suggestion of the writing assistant. */
    overrides: jsonb('overrides').$type<Record<string, string>>().notNull().default({}),
    documentId: ref('document_id', () => policyDocuments.id, 'restrict'),
    versionId: ref('version_id', () => policyVersions.id, 'restrict'),
    /** SHA-256 of the HTML it wrote: a draft still holding exactly that may be regenerated over. */
    contentHash: text('content_hash').notNull(),
    createdAt: createdAt(),
    createdBy: userRef('created_by'),
  },
  (t) => [
    index('pg_generations_document_idx').on(t.projectId, t.documentId, t.createdAt),
    check('pg_generations_kind_check', sql`${t.kind} in ('generate', 'regenerate')`),
  ],
);

/** Every call to the operator's language model (DOMAIN.md 4.2): who, what for, a hash of the prompt, the outcome. */
export const pgLlmCalls = pgTable(
  'pg_llm_calls',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: project(),
    templateVersionId: integer('template_version_id').references(() => pgTemplateVersions.id, {
      onDelete: 'set null',
    }),
    sectionKey: text('section_key').notNull(),
    action: text('action').notNull(),
    model: text('model').notNull(),
    promptHash: text('prompt_hash').notNull(),
    promptTokens: integer('prompt_tokens'),
    completionTokens: integer('completion_tokens'),
    durationMs: integer('duration_ms').notNull(),
    /** ok, or why there is no suggestion (error, timeout, empty). */
    outcome: text('outcome').notNull(),
    /** The author's decision on the suggestion: null until taken. */
    accepted: boolean('accepted'),
    createdAt: createdAt(),
    createdBy: userRef('created_by'),
  },
  (t) => [index('pg_llm_calls_project_idx').on(t.projectId, t.createdAt)],
);
