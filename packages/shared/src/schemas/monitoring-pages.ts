import { z } from 'zod';
import { NUMBERING_MODES, PAGE_ACCESS_LEVELS, PAGE_STATUSES } from '../monitoring/vocabulary.js';
import { INT4_MAX, recordId } from './common.js';

/**
 * Contracts of the monitoring page tree (issue 8; decision record 008). Calls under
 * /api/projects/{id}/monitoring; docs/monitoring.md lists them. Times are ISO strings.
 */

const id = z.number().int();
const ref = z.object({ id, name: z.string() });

/** What the signed-in user may do on a page (from page-access.ts and the section rules). */
export const pageAbilitiesSchema = z.object({
  level: z.enum(PAGE_ACCESS_LEVELS),
  edit: z.boolean(),
  delete: z.boolean(),
  manage_permissions: z.boolean(),
  add_insight: z.boolean(),
});
export type PageAbilities = z.infer<typeof pageAbilitiesSchema>;

/** A page as the tree lists it (GET /pages). Only pages the user may see are listed. */
export const pageNodeSchema = z.object({
  id,
  parent_id: id.nullable(),
  position: z.number().int(),
  depth: z.number().int(),
  number: z.string().nullable(),
  title: z.string(),
  status: z.enum(PAGE_STATUSES),
  restricted: z.boolean(),
  owner: ref.nullable(),
  level: z.object({ id, name: z.string(), icon: z.string() }).nullable(),
  version: z.number().int(),
  /** How many of its children the user may see. */
  child_count: z.number().int(),
  abilities: pageAbilitiesSchema,
});
export type PageNode = z.infer<typeof pageNodeSchema>;

/** GET /pages: the flat list in tree order (parents before children, siblings by position). */
export const pageTreeSchema = z.object({
  pages: z.array(pageNodeSchema),
  numbering_mode: z.enum(NUMBERING_MODES),
  /** How deep the tree may grow (the number of levels). */
  max_depth: z.number().int(),
});
export type PageTree = z.infer<typeof pageTreeSchema>;

/** GET /pages/{id}: the page with its content sections and where it sits. */
export const pageDetailSchema = pageNodeSchema.extend({
  introduction: z.string(),
  benchmarks: z.string(),
  parameters_and_metrics: z.string(),
  /** Ancestors from the top, for the breadcrumb (all visible: a hidden ancestor hides the page). */
  ancestors: z.array(z.object({ id, number: z.string().nullable(), title: z.string() })),
  /** Visible children, in order. */
  children: z.array(z.object({ id, number: z.string().nullable(), title: z.string(), status: z.enum(PAGE_STATUSES) })),
  created_at: z.string(),
  updated_at: z.string(),
  updated_by: ref.nullable(),
});
export type PageDetail = z.infer<typeof pageDetailSchema>;

const title = z.string().trim().min(1, 'Enter a title.').max(200, 'A title is at most 200 characters.');
const richText = z.string().max(200_000, 'This section is too long (at most 200,000 characters).');
/** A dotted number typed in manual mode ("1", "2.3", "4.1.2"). */
export const pageNumberSchema = z
  .string()
  .trim()
  .regex(/^\d{1,4}(\.\d{1,4}){0,7}$/, 'Use a dotted number such as 2.3.1.');

/** POST /pages. */
export const pageCreateSchema = z
  .object({
    title,
    parent_id: recordId.nullable().default(null),
    /** Manual numbering only; ignored in auto mode. */
    number: pageNumberSchema.nullable().optional(),
    status: z.enum(PAGE_STATUSES).default('draft'),
    owner_id: recordId.nullable().default(null),
    introduction: richText.default(''),
    benchmarks: richText.default(''),
    parameters_and_metrics: richText.default(''),
    restricted: z.boolean().default(false),
  })
  .strict();
export type PageCreate = z.input<typeof pageCreateSchema>;

/** PUT /pages/{id}: the fields to change, with the version the edit started from (409 when stale). */
export const pageUpdateSchema = z
  .object({
    version: id.positive().max(INT4_MAX, 'No such version.'),
    title: title.optional(),
    number: pageNumberSchema.nullable().optional(),
    status: z.enum(PAGE_STATUSES).optional(),
    owner_id: recordId.nullable().optional(),
    introduction: richText.optional(),
    benchmarks: richText.optional(),
    parameters_and_metrics: richText.optional(),
    restricted: z.boolean().optional(),
  })
  .strict();
export type PageUpdate = z.infer<typeof pageUpdateSchema>;

/** DELETE /pages/{id}?cascade=true deletes the branch; without it a page with children is refused (409). */
export const pageDeleteQuerySchema = z.object({ cascade: z.enum(['true', 'false']).default('false') });
export const pageDeletedSchema = z.object({ deleted: z.array(id) });

/** GET /pages/used-numbers: the numbers of every live page (numbers only: a manual number must not collide with a page the user cannot see, and no title is revealed). */
export const usedPageNumbersSchema = z.object({ numbers: z.array(z.string()) });

/** GET /pages/owner-candidates: the monitoring users of the project, who may own a page (the page form's list). */
export const pageOwnerCandidatesSchema = z.object({ people: z.array(ref) });
export type PageOwnerCandidates = z.infer<typeof pageOwnerCandidatesSchema>;

/** GET /api/monitoring/pages/{id}/project: the project of a page the user may see (links without a project). */
export const pageProjectSchema = z.object({ project_id: id });

/** GET /introduction: the programme overview and the top-level pages the user may see. */
export const monitoringIntroductionSchema = z.object({
  /** Sanitised rich text ('' while nobody has written it). */
  introduction: z.string(),
  /** Whether the user may change the introduction (monitoring administrators). */
  can_edit: z.boolean(),
  top_pages: z.array(
    z.object({
      id,
      number: z.string().nullable(),
      title: z.string(),
      status: z.enum(PAGE_STATUSES),
      child_count: z.number().int(),
    }),
  ),
  updated_at: z.string().nullable(),
});
export type MonitoringIntroduction = z.infer<typeof monitoringIntroductionSchema>;

/** PUT /introduction. */
export const monitoringIntroductionUpdateSchema = z.object({ introduction: richText }).strict();
export type MonitoringIntroductionUpdate = z.infer<typeof monitoringIntroductionUpdateSchema>;
