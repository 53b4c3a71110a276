import { z } from 'zod';
import { INT4_MAX, queryRecordId, recordId } from './common.js';

/**
 * Stable links, QR code sheets and cross-references between policies (issue 28, docs/policies.md "Stable links,
 * QR codes and cross-references"). A policy's stable address is /p/{projectId}/{number}: it always opens the
 * current published version, whatever version or document holds the number today.
 */

const id = z.number().int();

/** The path of a policy's stable link (the web route and what policy text links to). */
export const stableLinkPath = (projectId: number | string, number: string) =>
  `/p/${projectId}/${encodeURIComponent(number)}`;

/** GET /api/policy-links/{projectId}/{number}: the number as typed ("ic-3.1" finds IC-3.1). */
export const policyLinkParamsSchema = z.object({
  projectId: z
    .string()
    .regex(/^\d{1,10}$/, 'The project id is 1 to 10 digits.')
    .transform(Number)
    .refine((value) => value <= INT4_MAX, 'No such project.'),
  number: z
    .string()
    .max(60, 'A policy number is at most 60 characters.')
    .transform((value) => value.trim().toUpperCase()),
});

const replacementSchema = z.object({ document_id: id, number: z.string().nullable(), title: z.string() });

/**
 * Where a stable link leads the caller: the member's policy page, the guest reader's page, the sign-in page (not
 * signed in and no guest reading from this address), or the note that the policy was retired. An unknown number,
 * or a policy the caller may not see, is a 404.
 */
export const policyLinkSchema = z.discriminatedUnion('outcome', [
  z.object({ outcome: z.literal('member'), document_id: id }),
  z.object({ outcome: z.literal('guest'), document_id: id }),
  z.object({ outcome: z.literal('sign_in') }),
  z.object({
    outcome: z.literal('retired'),
    number: z.string(),
    title: z.string(),
    /** YYYY-MM-DD. */
    retired_on: z.string(),
    /** The policy that took its place, when one was named and the caller may see it. */
    replaced_by: replacementSchema.nullable(),
  }),
]);
export type PolicyLink = z.infer<typeof policyLinkSchema>;

/**
 * POST .../documents/{id}/archive: optionally the published policy that replaces the archived one (a call without
 * a body, as before, archives without one).
 */
export const archiveInputSchema = z.object({ replaced_by_id: recordId.nullable().optional() }).strict().nullish();
export type ArchiveInput = z.infer<typeof archiveInputSchema>;

/** GET .../qr-sheet: one policy or a whole department; `svg` is for one policy only. */
export const qrSheetQuerySchema = z
  .object({
    document_id: queryRecordId.optional(),
    department_id: queryRecordId.optional(),
    paper: z.enum(['letter', 'a4']).default('letter'),
    format: z.enum(['pdf', 'svg']).default('pdf'),
  })
  .refine((q) => (q.document_id === undefined) !== (q.department_id === undefined), {
    message: 'Choose one policy or one department.',
    path: ['document_id'],
  })
  .refine((q) => q.format === 'pdf' || q.document_id !== undefined, {
    message: 'An SVG is made for one policy only.',
    path: ['format'],
  });
export type QrSheetQuery = z.infer<typeof qrSheetQuerySchema>;

/** A published policy whose text links to a number that no current policy holds (the admin dashboard). */
export const brokenReferenceSchema = z.object({
  source: z.object({ id, number: z.string().nullable(), title: z.string() }),
  target_number: z.string(),
  /** retired: the number's policy was archived; unpublished: a policy holds it but was never published. */
  reason: z.enum(['retired', 'missing', 'unpublished']),
  /** The retired policy's title (the dashboard is for policy administrators, who see every policy). */
  target_title: z.string().nullable(),
});
export type BrokenReference = z.infer<typeof brokenReferenceSchema>;
