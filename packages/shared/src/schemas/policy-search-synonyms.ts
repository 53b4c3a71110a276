import { z } from 'zod';

/**
 * Search synonyms of policy management (issue 28): groups of words or phrases that search treats as one ("fall" also
 * finds "falls"). Calls under /api/projects/{id}/policy-management/search-synonyms; docs/policies.md lists them.
 */

export const SYNONYM_TERM_MAX = 60;
export const SYNONYM_GROUP_MIN = 2;
export const SYNONYM_GROUP_MAX = 20;

/** One word or phrase, stored in lower case with single spaces. */
export const synonymTermSchema = z
  .string()
  .transform((term) => term.trim().replace(/\s+/g, ' ').toLowerCase())
  .pipe(
    z
      .string()
      .min(1, 'A synonym cannot be empty.')
      .max(SYNONYM_TERM_MAX, `A synonym is at most ${SYNONYM_TERM_MAX} characters.`)
      .regex(/^[\p{L}\p{N}][\p{L}\p{N} '’-]*$/u, 'Use letters, digits, spaces, hyphens and apostrophes in synonyms.'),
  );

export const synonymGroupInputSchema = z
  .object({
    terms: z
      .array(synonymTermSchema, { error: 'List the words that mean the same.' })
      .min(SYNONYM_GROUP_MIN, `A group needs at least ${SYNONYM_GROUP_MIN} words or phrases.`)
      .max(SYNONYM_GROUP_MAX, `A group has at most ${SYNONYM_GROUP_MAX} words or phrases.`)
      .refine((terms) => new Set(terms).size === terms.length, 'Each word or phrase once per group.'),
  })
  .strict();
export type SynonymGroupInput = z.infer<typeof synonymGroupInputSchema>;

export const synonymGroupSchema = z.object({
  id: z.number().int(),
  terms: z.array(z.string()),
  updated_at: z.string(),
});
export type SynonymGroup = z.infer<typeof synonymGroupSchema>;
export const synonymGroupListSchema = z.object({ groups: z.array(synonymGroupSchema) });

/** What "Add the suggested synonyms" creates (and the demo data has): common pairs in hospital policy manuals. */
export const SUGGESTED_SYNONYM_GROUPS: readonly (readonly string[])[] = [
  ['fall', 'falls'],
  ['hand hygiene', 'handwashing', 'hand washing'],
  ['restraint', 'seclusion'],
  ['pressure injury', 'pressure ulcer', 'bedsore'],
  ['medication', 'medicine', 'drug'],
];
