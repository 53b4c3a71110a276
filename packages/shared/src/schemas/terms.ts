import { z } from 'zod';

/** GET /api/public/terms-and-conditions: the newest published terms version, or nulls when none is published. */
export const publicTermsSchema = z.object({
  content: z.string().nullable().describe('Sanitised rich-text HTML of the newest published terms version'),
  lastUpdated: z.iso.date().nullable().describe('Date the version was published (YYYY-MM-DD, UTC)'),
});
export type PublicTerms = z.infer<typeof publicTermsSchema>;
