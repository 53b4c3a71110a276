import { z } from 'zod';
import { DEPARTMENT_CODE_PATTERN, MAX_LEVELS, PREFIX_SEPARATORS } from '../policy/numbering.js';
import { DOCUMENT_STATUSES, VERSION_STATES } from '../policy/statuses.js';
import { INT4_MAX, queryRecordId, recordId } from './common.js';

/**
 * Contracts of policy management, part 1 (issue 6): departments, numbering, documents, versions, Word import,
 * search, archive and renumbering. Every call is under /api/projects/{id}/policy-management; docs/policies.md lists
 * them. Times are ISO strings, dates YYYY-MM-DD.
 */

const id = z.number().int();
const time = z.string();
const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date like 2026-12-31.');
const trimmed = (max: number, label: string) =>
  z.string().trim().max(max, `${label} must be at most ${max} characters.`);
const required = (max: number, label: string) => trimmed(max, label).min(1, `Enter the ${label.toLowerCase()}.`);
const personRef = z.object({ id, name: z.string() }).nullable();

/** The longest policy title, in characters. */
export const POLICY_TITLE_MAX = 200;

/** Upload limits (also shown on the convert screen). */
export const POLICY_UPLOAD_MAX_BYTES = 10 * 1024 * 1024;
export const POLICY_UPLOAD_TYPES = {
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  pdf: 'application/pdf',
} as const;
/** Stored content of one version (after sanitising). */
export const POLICY_CONTENT_MAX_CHARS = 5_000_000;
export const REVIEW_INTERVALS = [6, 12, 24, 36] as const;

export const documentStatusSchema = z.enum(DOCUMENT_STATUSES);
export const policyIdParams = z.object({
  documentId: z
    .string()
    .regex(/^\d{1,10}$/)
    .transform(Number)
    .pipe(recordId),
});

// ---------------------------------------------------------------- departments

const departmentCode = z
  .string()
  .trim()
  .toUpperCase()
  .regex(DEPARTMENT_CODE_PATTERN, 'Use 1 to 10 capital letters or digits, starting with a letter (e.g. NUR).');

export const departmentFields = {
  name: required(120, 'Name'),
  code: departmentCode,
  parent_id: recordId.nullable(),
};
export const departmentInputSchema = z.object({
  ...departmentFields,
  parent_id: departmentFields.parent_id.default(null),
});
export const departmentPatchSchema = z.object(departmentFields).partial().strict();
export type DepartmentInput = z.infer<typeof departmentInputSchema>;

export const departmentSchema = z.object({
  id,
  name: z.string(),
  code: z.string(),
  parent_id: id.nullable(),
  document_count: z.number().int(),
});
export type Department = z.infer<typeof departmentSchema>;
export const departmentListSchema = z.object({ departments: z.array(departmentSchema) });

// ---------------------------------------------------------------- numbering

export const numberingSchemeSchema = z.object({
  levels: z.number().int().min(1, 'Allow at least 1 level.').max(MAX_LEVELS, `Allow at most ${MAX_LEVELS} levels.`),
  department_prefixes: z.boolean(),
  prefix_separator: z.enum(PREFIX_SEPARATORS),
});

export const numberSchema = z.string().trim().min(1, 'Enter a number.').max(40, 'A number is at most 40 characters.');

export const numberAssignmentSchema = z.object({ document_id: recordId, number: numberSchema.nullable() });
export const numberingUpdateSchema = z
  .object({
    scheme: numberingSchemeSchema.optional(),
    assignments: z.array(numberAssignmentSchema).max(500, 'Assign at most 500 numbers at once.').optional(),
  })
  .strict()
  .refine((body) => body.scheme || body.assignments?.length, 'Send a scheme or number assignments.');
export type NumberingUpdate = z.infer<typeof numberingUpdateSchema>;

export const numberingSchema = z.object({
  scheme: numberingSchemeSchema,
  used_count: z.number().int(),
  unassigned_count: z.number().int(),
});
/**
 * GET .../documents/used-numbers: every number a document holds, and the chapter each department's policies are
 * numbered in (departments with a numbered policy only): what a new number is suggested from (`newPolicyParent`).
 */
export const usedNumbersSchema = z.object({
  numbers: z.array(z.string()),
  chapters: z.array(z.object({ department_id: z.number().int(), chapter: z.string() })),
});

// ---------------------------------------------------------------- documents

export const documentListQuerySchema = z.object({
  status: documentStatusSchema.optional(),
  department_id: queryRecordId.optional(),
  text: z.string().trim().max(200, 'Search text is at most 200 characters.').optional(),
  include_archived: z.enum(['true', 'false']).optional(),
});

/** One row of GET .../documents (SPEC: id, number, title) with what the lists and trees show. */
export const documentRowSchema = z.object({
  id,
  number: z.string().nullable(),
  title: z.string(),
  status: documentStatusSchema,
  department_id: id.nullable(),
  has_draft: z.boolean(),
  /** State of the working version (a new version of a published policy too), for those who see drafts. */
  working_state: z.enum(VERSION_STATES).nullable(),
  next_review_on: date.nullable(),
  updated_at: time,
});
export type DocumentRow = z.infer<typeof documentRowSchema>;
export const documentListSchema = z.array(documentRowSchema);

export const documentFields = {
  title: required(POLICY_TITLE_MAX, 'Title'),
  number: numberSchema.nullable(),
  department_id: recordId.nullable(),
  owner_id: recordId.nullable(),
  review_interval_months: z
    .number()
    .int()
    .min(1, 'Review at least every month.')
    .max(60, 'Review at least every 5 years.'),
  next_review_on: date.nullable(),
};
export const documentCreateSchema = z
  .object({
    ...documentFields,
    number: documentFields.number.default(null),
    department_id: documentFields.department_id.default(null),
    owner_id: documentFields.owner_id.default(null),
    /** Left out: the project's default review interval (workflow settings). */
    review_interval_months: documentFields.review_interval_months.optional(),
    next_review_on: documentFields.next_review_on.default(null),
    content: z.string().max(POLICY_CONTENT_MAX_CHARS, 'The policy text is too long.').default(''),
  })
  .strict();
export const documentPatchSchema = z.object(documentFields).partial().strict();
export type DocumentCreate = z.infer<typeof documentCreateSchema>;

export const versionSummarySchema = z.object({
  id,
  version: z.number().int(),
  state: z.enum(VERSION_STATES),
  change_summary: z.string(),
  effective_on: date.nullable(),
  author: personRef,
  created_at: time,
  updated_at: time,
  source_file: z.object({ id, name: z.string(), content_type: z.string() }).nullable(),
});
export type VersionSummary = z.infer<typeof versionSummarySchema>;
export const versionSchema = versionSummarySchema.extend({ content: z.string(), revision: z.number().int() });
export type PolicyVersion = z.infer<typeof versionSchema>;

export const documentDetailSchema = z.object({
  id,
  number: z.string().nullable(),
  title: z.string(),
  status: documentStatusSchema,
  department: z.object({ id, name: z.string(), code: z.string() }).nullable(),
  owner: personRef,
  review_interval_months: z.number().int(),
  next_review_on: date.nullable(),
  effective_on: date.nullable(),
  /** When the current version was approved (published by the workflow, or its last valid signature); null if unknown. */
  approved_at: time.nullable(),
  created_at: time,
  updated_at: time,
  /** What readers see: the published version (null until one is). */
  current_version: versionSchema.nullable(),
  /** The working version (draft, in review or pending signature), for those who may see it. */
  draft_version: versionSchema.nullable(),
  versions: z.array(versionSummarySchema),
  number_history: z.array(
    z.object({ from: z.string().nullable(), to: z.string().nullable(), by: personRef, at: time }),
  ),
  abilities: z.object({ edit: z.boolean(), archive: z.boolean(), restore: z.boolean(), renumber: z.boolean() }),
  /** The policy generator's latest draft of this policy (template and version), for those who may edit it. */
  generated_from: z
    .object({ template_id: id, template_title: z.string(), template_version: z.number().int(), at: time })
    .nullable(),
});
export type DocumentDetail = z.infer<typeof documentDetailSchema>;

export const draftSaveSchema = z
  .object({
    content: z.string().max(POLICY_CONTENT_MAX_CHARS, 'The policy text is too long.'),
    change_summary: trimmed(500, 'Change summary').default(''),
    /** The revision the editor started from; a different one means someone else saved in between. */
    base_revision: z.number().int().min(0).max(INT4_MAX, 'No such revision.'),
  })
  .strict();
export const draftSavedSchema = z.object({
  version_id: id,
  revision: z.number().int(),
  saved_at: time,
  content: z.string(),
});

export const compareQuerySchema = z.object({
  from: queryRecordId,
  to: queryRecordId,
});
export const compareSchema = z.object({
  from: versionSummarySchema,
  to: versionSummarySchema,
  html: z.string(),
  insertions: z.number().int(),
  deletions: z.number().int(),
});

// ---------------------------------------------------------------- import

export const convertResultSchema = z.object({
  title: z.string(),
  html: z.string(),
  /** What mammoth could not carry over (unknown styles and the like), in plain words. */
  messages: z.array(z.string()),
  images: z.number().int(),
});
export const uploadFieldsSchema = z.object({
  title: trimmed(POLICY_TITLE_MAX, 'Title').optional(),
  number: numberSchema.optional(),
  department_id: queryRecordId.optional(),
});

// ---------------------------------------------------------------- search, archive, moves

export const searchQuerySchema = z.object({
  q: z.string().trim().min(1, 'Enter words to search for.').max(200, 'Search text is at most 200 characters.'),
  include_archived: z.enum(['true', 'false']).optional(),
  department_id: queryRecordId.optional(),
  /** Only for those who see drafts; a reader asking for drafts finds nothing. */
  status: documentStatusSchema.optional(),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});
export type SearchQuery = z.infer<typeof searchQuerySchema>;
/** Snippets mark matches between these two characters; the web turns them into <mark>. */
export const SNIPPET_START = '\u0002';
export const SNIPPET_STOP = '\u0003';
export const searchResultSchema = z.object({
  results: z.array(
    z.object({
      id,
      number: z.string().nullable(),
      title: z.string(),
      status: documentStatusSchema,
      snippet: z.string(),
      rank: z.number(),
    }),
  ),
  total: z.number().int(),
  /** More documents match than were counted (total is then the cap, shown as "1000+"). */
  total_capped: z.boolean(),
  /** No exact match: the results are policies whose titles or numbers look like the words (a spelling guess). */
  fuzzy: z.boolean(),
  /** Other words searched because the project lists them as synonyms of the query's words. */
  synonyms: z.array(z.string()),
});

export const archiveSchema = z.object({
  documents: z.array(
    z.object({
      id,
      number: z.string().nullable(),
      title: z.string(),
      archived_at: time.nullable(),
      archived_by: personRef,
    }),
  ),
  versions: z.array(
    z.object({
      document_id: id,
      number: z.string().nullable(),
      title: z.string(),
      version_id: id,
      version: z.number().int(),
      effective_on: date.nullable(),
      superseded_at: time,
    }),
  ),
});

export const restoreResultSchema = z.object({ document: documentDetailSchema, message: z.string() });

export const moveSchema = z
  .object({
    document_id: recordId,
    /** The parent's number, a department prefix such as "NUR-", or "" for the top level. */
    parent: z.string().max(40),
    index: z.number().int().min(0).max(10_000),
    /** The changes the user confirmed; the server refuses when its own plan differs (someone renumbered meanwhile). */
    expected: z.array(z.object({ id: recordId, from: z.string(), to: z.string() })).max(10_000),
  })
  .strict();
export const moveResultSchema = z.object({ changes: z.array(z.object({ id, from: z.string(), to: z.string() })) });
