import { z } from 'zod';
import { INT4_MAX } from './common.js';

/**
 * Contracts of crosswalks between frameworks and editions, and of the edition upgrade (issue 11; DOMAIN.md 3.2
 * `std_mapping`, 3.5 "Edition upgrade"). Calls under /api/projects/{id}/standards; docs/standards.md "Crosswalks and
 * edition upgrades" lists them with the carry rules.
 */

/** How a source node relates to a target node (the set relations of OSCAL mappings and CISO Assistant). */
export const STD_RELATIONSHIPS = ['equal', 'subset', 'superset', 'intersect', 'not_related'] as const;
export type StdRelationship = (typeof STD_RELATIONSHIPS)[number];

export const STD_RELATIONSHIP_LABELS: Record<StdRelationship, string> = {
  equal: 'Equal',
  subset: 'Subset',
  superset: 'Superset',
  intersect: 'Intersect',
  not_related: 'Not related',
};

export const STD_CROSSWALK_LIMITS = {
  csvBytes: 1_000_000,
  csvRows: 5000,
  rationale: 1000,
} as const;

const id = z.number().int();

/**
 * POST /crosswalks/import: a crosswalk from CSV (header `source_ref_id,target_ref_id,relationship[,rationale]`)
 * between two frameworks the project may use. It replaces the project's own mappings between the two.
 */
export const stdCrosswalkImportSchema = z
  .object({
    source_framework_id: id.positive('Choose the framework the crosswalk maps from.').max(INT4_MAX, 'No such record.'),
    target_framework_id: id.positive('Choose the framework the crosswalk maps to.').max(INT4_MAX, 'No such record.'),
    csv: z.string().min(1, 'Choose a CSV file.').max(STD_CROSSWALK_LIMITS.csvBytes, 'The file is larger than 1 MB.'),
  })
  .strict()
  .refine((v) => v.source_framework_id !== v.target_framework_id, {
    message: 'Choose two different frameworks or editions.',
    path: ['target_framework_id'],
  });
export type StdCrosswalkImport = z.infer<typeof stdCrosswalkImportSchema>;
export const stdCrosswalkImportedSchema = z.object({ mappings: z.number().int() });
export type StdCrosswalkImported = z.infer<typeof stdCrosswalkImportedSchema>;

const frameworkRef = z.object({ id, code: z.string(), name: z.string(), edition: z.string() });

/** GET /crosswalks: the mapping sets the project sees, by source and target framework. */
export const stdCrosswalkSetSchema = z.object({
  source: frameworkRef,
  target: frameworkRef,
  mappings: z.number().int(),
  /** Shipped with the product rather than imported by this project. */
  built_in: z.boolean(),
});
export type StdCrosswalkSet = z.infer<typeof stdCrosswalkSetSchema>;
export const stdCrosswalkListSchema = z.object({ sets: z.array(stdCrosswalkSetSchema) });
export type StdCrosswalkList = z.infer<typeof stdCrosswalkListSchema>;

/**
 * POST /assessments/{id}/upgrade: a new assessment of another framework or edition, its mapped elements carrying the
 * old results as "in review" (answers 201 {id}).
 */
export const stdUpgradeSchema = z
  .object({
    framework_id: id.positive('Choose the edition to upgrade to.').max(INT4_MAX, 'No such record.'),
    name: z
      .string()
      .trim()
      .min(1, 'Enter a name for the new assessment.')
      .max(200, 'The name is at most 200 characters.'),
  })
  .strict();
export type StdUpgrade = z.infer<typeof stdUpgradeSchema>;
