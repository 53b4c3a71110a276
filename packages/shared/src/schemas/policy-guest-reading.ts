import { z } from 'zod';

/**
 * Reading policies without an account (issue 28): a project's guest reading setting (its administrators, under
 * /api/projects/{id}/policy-management/guest-reading) and the guest reader's calls (no session, under
 * /api/guest/projects/{id}). docs/policies.md lists them.
 */

export const GUEST_RANGES_MAX = 50;

/**
 * PUT .../guest-reading. Each range is checked on the server (an address parser lives there): the message names the
 * entry, so the screen can show it beside the line.
 */
export const guestReadingInputSchema = z
  .object({
    enabled: z.boolean({ error: 'Say whether guest reading is on or off.' }),
    ip_ranges: z
      .array(z.string().trim().max(100, 'An address range is at most 100 characters.'), {
        error: 'List the address ranges, one per line.',
      })
      .max(GUEST_RANGES_MAX, `At most ${GUEST_RANGES_MAX} address ranges.`),
  })
  .strict();
export type GuestReadingInput = z.infer<typeof guestReadingInputSchema>;

export const guestReadingSchema = z.object({
  enabled: z.boolean(),
  /** Normalised: "10.20.0.0/16"; a single address as "10.1.2.3/32". */
  ip_ranges: z.array(z.string()),
  /** The address the server sees for the administrator's own request, to check before saving. */
  your_address: z.string(),
  /** Whether that address is inside the saved ranges. */
  you_are_inside: z.boolean(),
  updated_at: z.string().nullable(),
});
export type GuestReadingSettings = z.infer<typeof guestReadingSchema>;

export const GUEST_READ_KINDS = ['read', 'search', 'link'] as const;
export type GuestReadKind = (typeof GUEST_READ_KINDS)[number];

export const guestReadsQuerySchema = z.object({
  page: z.coerce.number().int().min(1, 'Pages start at 1.').max(10_000, 'No such page.').default(1),
});

export const guestReadsSchema = z.object({
  reads: z.array(
    z.object({
      at: z.string(),
      ip: z.string(),
      kind: z.enum(GUEST_READ_KINDS),
      query: z.string().nullable(),
      /** The policy opened (null for a search, or a policy since deleted). */
      document: z.object({ id: z.number().int(), number: z.string().nullable(), title: z.string() }).nullable(),
    }),
  ),
  page: z.number().int(),
  page_size: z.number().int(),
  total: z.number().int(),
});
export type GuestReads = z.infer<typeof guestReadsSchema>;

// ---------------------------------------------------------------- the guest reader (no session)

export const guestProjectSchema = z.object({
  project: z.object({ id: z.number().int(), name: z.string() }),
});
export type GuestProject = z.infer<typeof guestProjectSchema>;

const guestEntry = z.object({
  id: z.number().int(),
  number: z.string().nullable(),
  title: z.string(),
  department: z.string().nullable(),
});

/** The table of contents: every published, not archived policy, by number. */
export const guestTocSchema = z.object({ documents: z.array(guestEntry) });
export type GuestToc = z.infer<typeof guestTocSchema>;

export const guestSearchQuerySchema = z.object({
  q: z.string().trim().min(1, 'Enter words to search for.').max(200, 'Search text is at most 200 characters.'),
});

export const guestSearchSchema = z.object({
  results: z.array(
    z.object({
      id: z.number().int(),
      number: z.string().nullable(),
      title: z.string(),
      /** Matches marked with SNIPPET_START and SNIPPET_STOP. */
      snippet: z.string(),
    }),
  ),
  total: z.number().int(),
});
export type GuestSearch = z.infer<typeof guestSearchSchema>;

/** The current published version of a policy: never its authors, reviewers, signers, attestation or drafts. */
export const guestDocumentSchema = guestEntry.extend({
  version: z.number().int(),
  effective_on: z.string().nullable(),
  approved_on: z.string().nullable(),
  /** Sanitised HTML. */
  content: z.string(),
});
export type GuestDocument = z.infer<typeof guestDocumentSchema>;
