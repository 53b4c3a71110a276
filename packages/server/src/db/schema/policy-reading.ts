import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { at, createdAt, project, ref, updatedAt, userRef } from './columns.js';
import { storedFiles } from './files.js';
import { policyDocuments } from './policies.js';
import { projects } from './projects.js';

/**
 * What the portal could read of an uploaded policy file (modules/policies/file-text.service.ts): a PDF's own text, or
 * what optical character recognition read from its scanned pages. One row per stored file, so the same bytes
 * uploaded again are read once. Search finds it with the version's own text.
 */
export const policyFileTexts = pgTable(
  'policy_file_texts',
  {
    fileId: integer('file_id')
      .primaryKey()
      .references(() => storedFiles.id, { onDelete: 'cascade' }),
    projectId: project(),
    /** queued, reading, done (text may still be empty: a PDF with nothing to read), failed. */
    state: text('state').notNull().default('queued'),
    /** How the text was read: the PDF's text layer, or recognition of its page images. */
    method: text('method'),
    /** 0 to 100 while reading, for the uploader's progress bar. */
    progress: integer('progress').notNull().default(0),
    pages: integer('pages'),
    text: text('text').notNull().default(''),
    /** Why reading failed, in words for the policy's editors. */
    error: text('error'),
    attempts: integer('attempts').notNull().default(0),
    queuedAt: at('queued_at').notNull().defaultNow(),
    finishedAt: at('finished_at'),
  },
  (t) => [
    index('policy_file_texts_state_idx').on(t.state),
    check('policy_file_texts_state_check', sql`${t.state} in ('queued', 'reading', 'done', 'failed')`),
    check('policy_file_texts_method_check', sql`${t.method} is null or ${t.method} in ('pdf_text', 'ocr')`),
    check('policy_file_texts_progress_check', sql`${t.progress} between 0 and 100`),
  ],
);

/** Words that search treats as one (fall and falls, hand hygiene and handwashing): a group of terms per row. */
export const policySearchSynonyms = pgTable(
  'policy_search_synonyms',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: project(),
    /** Two or more words or phrases, lower case, each at most 60 characters. */
    terms: text('terms').array().notNull(),
    createdAt: createdAt(),
    createdBy: userRef('created_by'),
    updatedAt: updatedAt(),
    updatedBy: userRef('updated_by'),
  },
  (t) => [
    index('policy_search_synonyms_project_idx').on(t.projectId),
    check('policy_search_synonyms_terms_check', sql`cardinality(${t.terms}) between 2 and 20`),
  ],
);

/**
 * Reading without an account (issue 28): off unless a project's administrator turns it on, and then only from the
 * listed networks (CIDR ranges, e.g. the unit kiosks'). Guests see published policies only.
 */
export const policyGuestAccess = pgTable('policy_guest_access', {
  projectId: integer('project_id')
    .primaryKey()
    .references(() => projects.id, { onDelete: 'restrict' }),
  enabled: boolean('enabled').notNull().default(false),
  /** CIDR ranges, normalised ("10.20.0.0/16", "2001:db8::/32"); a single address is a /32 or /128. */
  ipRanges: text('ip_ranges').array().notNull().default(sql`'{}'::text[]`),
  updatedAt: updatedAt(),
  updatedBy: userRef('updated_by'),
});

/** Every search and read by a guest, with the address it came from (kept like the audit log). */
export const policyGuestReads = pgTable(
  'policy_guest_reads',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: project(),
    /** read (a policy opened), search (words searched), link (a stable link or QR code followed). */
    kind: text('kind').notNull(),
    documentId: integer('document_id').references(() => policyDocuments.id, { onDelete: 'set null' }),
    versionId: integer('version_id'),
    query: text('query'),
    ip: text('ip').notNull(),
    userAgent: text('user_agent').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    index('policy_guest_reads_project_idx').on(t.projectId, t.createdAt),
    check('policy_guest_reads_kind_check', sql`${t.kind} in ('read', 'search', 'link')`),
  ],
);

/**
 * Links from one policy's current text to other policies by their stable address (/p/{project}/{number}), found
 * when a version is published: the dashboard lists those whose target is retired or missing.
 */
export const policyReferences = pgTable(
  'policy_references',
  {
    projectId: project(),
    documentId: ref('document_id', () => policyDocuments.id, 'cascade'),
    targetNumber: text('target_number').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.documentId, t.targetNumber] }),
    index('policy_references_target_idx').on(t.projectId, t.targetNumber),
  ],
);
