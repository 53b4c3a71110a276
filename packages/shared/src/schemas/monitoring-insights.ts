import { z } from 'zod';
import { INSIGHT_STATUSES } from '../monitoring/vocabulary.js';
import { INT4_MAX } from './common.js';

/**
 * Contracts of monitoring (issue 8; decision record 008): key insights of pages. Calls under
 * /api/projects/{id}/monitoring; docs/monitoring.md "Key insights" lists them. Times are ISO strings.
 */

const id = z.number().int();
const ref = z.object({ id, name: z.string() });

/** Shown (409) when the version an edit started from is no longer the current one. */
export const STALE_INSIGHT_MESSAGE = 'This insight was changed by someone else. Reload it to see their changes.';

/** What the signed-in user may do with an insight (page edit access and the key-insights section). */
export const insightAbilitiesSchema = z.object({
  edit: z.boolean(),
  publish: z.boolean(),
  delete: z.boolean(),
});
export type InsightAbilities = z.infer<typeof insightAbilitiesSchema>;

export const insightSchema = z.object({
  id,
  page_id: id,
  title: z.string(),
  /** Sanitised rich text. */
  body: z.string(),
  status: z.enum(INSIGHT_STATUSES),
  author: ref.nullable(),
  published_at: z.string().nullable(),
  updated_at: z.string(),
  version: z.number().int(),
  abilities: insightAbilitiesSchema,
});
export type Insight = z.infer<typeof insightSchema>;

/** GET /pages/{pageId}/insights: published ones newest first; drafts too for those who may edit the page. */
export const insightListSchema = z.object({ insights: z.array(insightSchema) });
export type InsightList = z.infer<typeof insightListSchema>;

/** GET /insights/{insightId}: the insight with the page it belongs to. */
export const insightDetailSchema = insightSchema.extend({
  page: z.object({ id, number: z.string().nullable(), title: z.string() }),
});
export type InsightDetail = z.infer<typeof insightDetailSchema>;

export const INSIGHT_TITLE_MAX = 200;
export const INSIGHT_BODY_MAX = 100_000;

const title = z
  .string()
  .trim()
  .min(1, 'Enter a title.')
  .max(INSIGHT_TITLE_MAX, `A title is at most ${INSIGHT_TITLE_MAX} characters.`);
const body = z.string().max(INSIGHT_BODY_MAX, 'The insight is too long (at most 100,000 characters).');

/** POST /pages/{pageId}/insights. */
export const insightCreateSchema = z
  .object({
    title,
    body: body.default(''),
    status: z.enum(INSIGHT_STATUSES).default('draft'),
  })
  .strict();
export type InsightCreate = z.input<typeof insightCreateSchema>;

/** PUT /insights/{insightId}: the fields to change and the version the edit started from (409 when stale). */
export const insightUpdateSchema = z
  .object({
    version: id.positive().max(INT4_MAX, 'No such version.'),
    title: title.optional(),
    body: body.optional(),
    status: z.enum(INSIGHT_STATUSES).optional(),
  })
  .strict();
export type InsightUpdate = z.infer<typeof insightUpdateSchema>;

/** GET /insights/{insightId}/revisions: every saved state, newest first. */
export const insightRevisionSchema = z.object({
  version: z.number().int(),
  title: z.string(),
  status: z.enum(INSIGHT_STATUSES),
  edited_by: ref.nullable(),
  edited_at: z.string(),
});
export type InsightRevision = z.infer<typeof insightRevisionSchema>;
export const insightRevisionsSchema = z.object({ revisions: z.array(insightRevisionSchema) });
export type InsightRevisions = z.infer<typeof insightRevisionsSchema>;
