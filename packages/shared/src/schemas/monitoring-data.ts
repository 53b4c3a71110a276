import { z } from 'zod';
import {
  DATASET_COLUMN_TYPES,
  DATE_FORMATS,
  IMPORT_ERROR_POLICIES,
  IMPORT_MODES,
  IMPORT_STATUSES,
} from '../monitoring/vocabulary.js';

/**
 * Contracts of monitoring datasets and CSV imports (issue 9; decision record 010; DOMAIN.md 1.4). Calls under
 * /api/projects/{id}/monitoring; docs/monitoring.md "Datasets and CSV import" lists them. Dates are ISO
 * 'YYYY-MM-DD', times ISO strings.
 */

const id = z.number().int();
const ref = z.object({ id, name: z.string() });
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date like 2026-03-31.');

export const COLUMN_KEY_MESSAGE =
  'A column key starts with a lower-case letter and has only lower-case letters, digits and _ (at most 63).';
export const columnKey = z
  .string()
  .trim()
  .regex(/^[a-z][a-z0-9_]{0,62}$/, COLUMN_KEY_MESSAGE);

export const datasetColumnSchema = z.object({
  key: columnKey,
  label: z.string().trim().min(1, 'Enter a label.').max(120, 'A label is at most 120 characters.'),
  type: z.enum(DATASET_COLUMN_TYPES),
  /** Looks like a patient identifier (Safe Harbor): only a patient-level dataset may hold it. */
  phi: z.boolean(),
});
export type DatasetColumn = z.infer<typeof datasetColumnSchema>;

export const datasetAbilitiesSchema = z.object({
  /** Upload, commit and roll back imports (csv-import section). */
  import: z.boolean(),
  /** Rename, delete, mark patient-level (monitoring admins). */
  manage: z.boolean(),
});
export type DatasetAbilities = z.infer<typeof datasetAbilitiesSchema>;

export const datasetSchema = z.object({
  id,
  name: z.string(),
  description: z.string(),
  time_column: z.string().nullable(),
  columns: z.array(datasetColumnSchema),
  patient_level: z.boolean(),
  retention_months: z.number().int().nullable(),
  /** Goes up with every committed or rolled back import. */
  version: z.number().int(),
  row_count: z.number().int(),
  first_date: z.string().nullable(),
  last_date: z.string().nullable(),
  measure_count: z.number().int(),
  updated_at: z.string(),
  abilities: datasetAbilitiesSchema,
});
export type Dataset = z.infer<typeof datasetSchema>;

/** GET /datasets. */
export const datasetListSchema = z.object({ datasets: z.array(datasetSchema) });
export type DatasetList = z.infer<typeof datasetListSchema>;

export const DATASET_NAME_MAX = 120;
const datasetName = z
  .string()
  .trim()
  .min(1, 'Enter a name.')
  .max(DATASET_NAME_MAX, `A name is at most ${DATASET_NAME_MAX} characters.`);

/** POST /datasets. */
export const datasetCreateSchema = z
  .object({
    name: datasetName,
    description: z.string().trim().max(2_000, 'A description is at most 2,000 characters.').default(''),
  })
  .strict();
export type DatasetCreate = z.input<typeof datasetCreateSchema>;

/** PUT /datasets/{id}: patient_level and retention_months only by monitoring admins. */
export const datasetUpdateSchema = z
  .object({
    name: datasetName.optional(),
    description: z.string().trim().max(2_000, 'A description is at most 2,000 characters.').optional(),
    patient_level: z.boolean().optional(),
    retention_months: z
      .number()
      .int()
      .min(1, 'Keep rows at least 1 month.')
      .max(600, 'Keep rows at most 600 months.')
      .nullable()
      .optional(),
  })
  .strict();
export type DatasetUpdate = z.infer<typeof datasetUpdateSchema>;

/** What the server found in an uploaded file. */
export const importDetectedSchema = z.object({
  delimiter: z.string(),
  encoding: z.enum(['utf-8', 'utf-8-bom', 'windows-1252']),
  has_header: z.boolean(),
  headers: z.array(z.string()),
  /** The date format found in the first rows; null when none fits or when it is ambiguous. */
  date_format: z.enum(DATE_FORMATS).nullable(),
  /** More than one format fits (03/04/2026): the person must choose among these. */
  date_format_choices: z.array(z.enum(DATE_FORMATS)),
  /** A suggestion per file column, in file order. */
  columns: z.array(
    z.object({
      source: z.number().int(),
      header: z.string(),
      key: z.string(),
      label: z.string(),
      type: z.enum(DATASET_COLUMN_TYPES),
      phi: z.boolean(),
    }),
  ),
  time_column: z.string().nullable(),
  /** The first rows as read (at most 20), for the mapping screen. */
  sample: z.array(z.array(z.string())),
  /** Data lines in the file (counted while storing it). */
  row_count: z.number().int(),
});
export type ImportDetected = z.infer<typeof importDetectedSchema>;

/** The person's choices for an import (PUT /imports/{id}/settings). */
export const importSettingsSchema = z
  .object({
    delimiter: z.string().min(1).max(1),
    encoding: z.enum(['utf-8', 'utf-8-bom', 'windows-1252']),
    has_header: z.boolean(),
    columns: z
      .array(
        z.object({
          /** Index of the column in the file. */
          source: z.number().int().min(0).max(499),
          /** Not imported. */
          skip: z.boolean(),
          key: columnKey,
          label: z.string().trim().min(1, 'Enter a label.').max(120, 'A label is at most 120 characters.'),
          type: z.enum(DATASET_COLUMN_TYPES),
        }),
      )
      .min(1, 'Map at least one column.')
      .max(500, 'A file may have at most 500 columns.'),
    /** Key of the date column that places each row in a period. */
    time_column: columnKey,
    date_format: z.enum(DATE_FORMATS),
    mode: z.enum(IMPORT_MODES),
    error_policy: z.enum(IMPORT_ERROR_POLICIES),
    /** replace_range: active rows dated in [range_from, range_to] are replaced. */
    range_from: isoDate.nullable(),
    range_to: isoDate.nullable(),
    /** upsert: rows with the same values in these columns (the time column among them) are replaced. */
    key_columns: z.array(columnKey).max(10, 'Use at most 10 key columns.'),
  })
  .strict();
export type ImportSettings = z.infer<typeof importSettingsSchema>;

export const rowErrorSchema = z.object({
  /** Line in the file (the header is line 1). */
  line: z.number().int(),
  column: z.string(),
  value: z.string(),
  reason: z.string(),
});
export type RowError = z.infer<typeof rowErrorSchema>;

export const importSummarySchema = z.object({
  id,
  dataset_id: id,
  file_name: z.string(),
  size: z.number().int(),
  sha256: z.string(),
  status: z.enum(IMPORT_STATUSES),
  mode: z.enum(IMPORT_MODES),
  error_policy: z.enum(IMPORT_ERROR_POLICIES),
  rows_total: z.number().int(),
  rows_ok: z.number().int(),
  rows_err: z.number().int(),
  rows_replaced: z.number().int(),
  /** Rows read so far while committing. */
  progress: z.number().int(),
  message: z.string().nullable(),
  created_at: z.string(),
  created_by: ref.nullable(),
  committed_at: z.string().nullable(),
  committed_by: ref.nullable(),
  rolled_back_at: z.string().nullable(),
  rolled_back_by: ref.nullable(),
  /** Only the latest committed import of a dataset may be rolled back. */
  can_roll_back: z.boolean(),
});
export type ImportSummary = z.infer<typeof importSummarySchema>;

/** GET /datasets/{id}/imports: newest first. */
export const importListSchema = z.object({ imports: z.array(importSummarySchema) });
export type ImportList = z.infer<typeof importListSchema>;

/** A preview row: the values as they would be stored (by column key) and what is wrong with them. */
export const previewRowSchema = z.object({
  line: z.number().int(),
  values: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  errors: z.array(z.object({ column: z.string(), reason: z.string() })),
});
export type PreviewRow = z.infer<typeof previewRowSchema>;

/** GET /imports/{id}, and the answer of upload and settings calls. */
export const importDetailSchema = importSummarySchema.extend({
  detected: importDetectedSchema,
  settings: importSettingsSchema.nullable(),
  /** After settings: the first 50 rows with their errors (from the first 200 read). */
  preview: z.array(previewRowSchema),
  /** Rows with errors among the rows previewed. */
  preview_errors: z.number().int(),
  /** Columns refused because they look like patient identifiers and the dataset is not patient-level. */
  phi_blocked: z.array(z.object({ column: z.string(), reason: z.string() })),
  /** The first 1,000 errors of a commit. */
  errors: z.array(rowErrorSchema),
});
export type ImportDetail = z.infer<typeof importDetailSchema>;

/** Upload limit of a CSV file. */
export const IMPORT_MAX_BYTES = 512 * 1024 * 1024;
