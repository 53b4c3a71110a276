import { z } from 'zod';
import { LEVEL_ICONS, MAX_PAGE_LEVELS, NUMBERING_MODES, PAGE_STATUSES } from '../monitoring/vocabulary.js';
import { INT4_MAX, recordId } from './common.js';
import { pageNumberSchema } from './monitoring-pages.js';

/**
 * Contracts of monitoring (issue 8; decision record 008): levels, numbering settings, moves, bulk update and outline
 * import of the page tree. Calls under /api/projects/{id}/monitoring; docs/monitoring.md "Tree structure".
 */

const id = z.number().int();

// ------------------------------------------------------------------ levels

/** A level of the tree (GET /page-levels): depth 1 holds the top-level pages. */
export const pageLevelSchema = z.object({
  id,
  depth: z.number().int(),
  name: z.string(),
  icon: z.string(),
  may_hold_measures: z.boolean(),
  /** How many live pages sit at this depth. */
  page_count: z.number().int(),
});
export type PageLevel = z.infer<typeof pageLevelSchema>;

export const pageLevelListSchema = z.object({ levels: z.array(pageLevelSchema), max_levels: z.number().int() });
export type PageLevelList = z.infer<typeof pageLevelListSchema>;

/** POST /page-levels (adds the next depth) and PUT /page-levels/{id}. */
export const pageLevelBodySchema = z
  .object({
    name: z.string().trim().min(1, 'Enter a name.').max(60, 'A name is at most 60 characters.'),
    icon: z.enum(LEVEL_ICONS, { error: 'Choose one of the icons.' }),
    may_hold_measures: z.boolean({ error: 'Say whether pages of this level may hold measures.' }).default(false),
  })
  .strict();
export type PageLevelBody = z.input<typeof pageLevelBodySchema>;

export const pageLevelDeletedSchema = z.object({ deleted: id });

/** The most levels a tree may have (the same as MAX_PAGE_LEVELS, said here for the level screens). */
export const PAGE_LEVEL_LIMIT = MAX_PAGE_LEVELS;

// ------------------------------------------------------------------ numbering

/** GET /numbering: the mode and how many live pages there are. */
export const numberingSettingsSchema = z.object({ mode: z.enum(NUMBERING_MODES), pages: z.number().int() });
export type NumberingSettings = z.infer<typeof numberingSettingsSchema>;

/** POST /numbering: switch the mode (to auto renumbers the whole tree). */
export const numberingModeBodySchema = z
  .object({ mode: z.enum(NUMBERING_MODES, { error: 'Choose automatic or manual numbering.' }) })
  .strict();
export type NumberingModeBody = z.infer<typeof numberingModeBodySchema>;

/** One page whose number changes (only pages the user may see are listed). */
export const numberChangeSchema = z.object({
  id,
  title: z.string(),
  from: z.string().nullable(),
  to: z.string().nullable(),
});
export type NumberChangeRow = z.infer<typeof numberChangeSchema>;

/** GET /numbering/preview: what automatic numbering would change. */
export const renumberPreviewSchema = z.array(numberChangeSchema);

/** POST /numbering and POST /numbering/apply: the mode after, how many numbers changed and which (visible) ones. */
export const numberingResultSchema = z.object({
  mode: z.enum(NUMBERING_MODES),
  changed: z.number().int(),
  changes: z.array(numberChangeSchema),
});
export type NumberingResult = z.infer<typeof numberingResultSchema>;

// ------------------------------------------------------------------ moves and bulk update

/** POST /pages/{id}/move: the new parent (null: top level), the sibling to go before (null/absent: last). */
export const pageMoveSchema = z
  .object({
    parent_id: recordId.nullable(),
    before_id: recordId.nullable().optional(),
    version: id.positive().max(INT4_MAX, 'No such version.'),
  })
  .strict();
export type PageMove = z.infer<typeof pageMoveSchema>;

export const BULK_STALE_MESSAGE = 'Changed by someone else since you loaded it.';

/** One row of POST /pages/bulk: the page, the version it was loaded at and the fields to change. */
export const pageBulkRowSchema = z
  .object({
    id: recordId,
    version: id.positive().max(INT4_MAX, 'No such version.'),
    number: pageNumberSchema.nullable().optional(),
    title: z.string().trim().min(1, 'Enter a title.').max(200, 'A title is at most 200 characters.').optional(),
    parent_id: recordId.nullable().optional(),
    status: z.enum(PAGE_STATUSES).optional(),
    owner_id: recordId.nullable().optional(),
  })
  .strict();
export type PageBulkRow = z.infer<typeof pageBulkRowSchema>;

/** POST /pages/bulk: all rows or none (errors keyed rows.{index}.{field}). */
export const pageBulkSchema = z
  .object({
    rows: z.array(pageBulkRowSchema).min(1, 'Change at least one page.').max(2000, 'At most 2000 pages at once.'),
  })
  .strict();
export type PageBulk = z.infer<typeof pageBulkSchema>;

// ------------------------------------------------------------------ outline import

/** The most pages one outline may create. */
export const OUTLINE_MAX_PAGES = 500;
/** The largest outline file accepted (Word or text). */
export const OUTLINE_MAX_BYTES = 5 * 1024 * 1024;
export const OUTLINE_TYPE_MESSAGE = 'Upload a Word (.docx) or text outline.';

/** A page of an outline: its title, its depth below the chosen parent (1 = a direct child) and a typed number. */
export const outlineItemSchema = z.object({
  title: z.string(),
  depth: z.number().int(),
  number: z.string().nullable(),
});
export type OutlineItem = z.infer<typeof outlineItemSchema>;

/** POST /pages/convert?preview=true. */
export const outlinePreviewSchema = z.object({ pages: z.array(outlineItemSchema) });
export type OutlinePreview = z.infer<typeof outlinePreviewSchema>;

/** POST /pages/convert (without preview): how many draft pages were created. */
export const outlineCreatedSchema = z.object({ created: z.number().int() });

export const outlineQuerySchema = z.object({ preview: z.enum(['true', 'false']).default('false') });
