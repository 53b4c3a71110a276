import { z } from 'zod';
import { isRealDay } from './common.js';

/**
 * Contracts of evidence on standard elements (issue 11; DOMAIN.md 3.2 `std_evidence`, 3.5 "Evidence validity"):
 * a link, a file or a note attached to an element assessment, with a review status and an expiry date. Calls under
 * /api/projects/{id}/standards; docs/standards.md "Evidence". Days are 'YYYY-MM-DD'.
 */

export const STD_EVIDENCE_KINDS = ['link', 'file', 'note'] as const;
export type StdEvidenceKind = (typeof STD_EVIDENCE_KINDS)[number];
export const STD_EVIDENCE_KIND_LABELS: Record<StdEvidenceKind, string> = { link: 'Link', file: 'File', note: 'Note' };

export const STD_EVIDENCE_STATUSES = ['draft', 'in_review', 'approved', 'rejected'] as const;
export type StdEvidenceStatus = (typeof STD_EVIDENCE_STATUSES)[number];
export const STD_EVIDENCE_STATUS_LABELS: Record<StdEvidenceStatus, string> = {
  draft: 'Draft',
  in_review: 'In review',
  approved: 'Approved',
  rejected: 'Rejected',
};
/** Statuses only those who may change the element set (a contributor's evidence waits in review). */
export const STD_EVIDENCE_REVIEW_STATUSES: readonly StdEvidenceStatus[] = ['approved', 'rejected'];

export const STD_EVIDENCE_LIMITS = {
  title: 200,
  url: 2000,
  note: 4000,
  fileName: 200,
  fileBytes: 10 * 1024 * 1024,
} as const;

/** Evidence expiring within this many days shows as "Expiring" (and in readiness and the `expiring` filter). */
export const STD_EVIDENCE_EXPIRING_DAYS = 60;

/**
 * The files evidence may be, by extension: the content type stored and sent is this one, after the server has read
 * the first bytes and found the file is what its name says (PDF, Word, Excel, images, CSV, text; never SVG or HTML).
 */
export const STD_EVIDENCE_FILE_TYPES = {
  pdf: 'application/pdf',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  csv: 'text/csv',
  txt: 'text/plain',
} as const;
export type StdEvidenceFileExtension = keyof typeof STD_EVIDENCE_FILE_TYPES;
/** For a file input's `accept`. */
export const STD_EVIDENCE_FILE_ACCEPT = Object.keys(STD_EVIDENCE_FILE_TYPES)
  .map((ext) => `.${ext}`)
  .join(',');
export const STD_EVIDENCE_FILE_HELP = 'PDF, Word, Excel, PNG, JPEG, GIF, WebP, CSV or text; at most 10 MB.';

/** The extension of a file name in lower case, if it is one evidence may have. */
export function stdEvidenceExtension(fileName: string): StdEvidenceFileExtension | null {
  const match = /\.([A-Za-z0-9]{1,5})$/.exec(fileName.trim());
  const ext = match?.[1]?.toLowerCase();
  return ext && Object.hasOwn(STD_EVIDENCE_FILE_TYPES, ext) ? (ext as StdEvidenceFileExtension) : null;
}

/** Whether a link may be kept and shown: http or https only (never javascript:, data: or file:). */
export function stdIsHttpUrl(value: string): boolean {
  if (!/^https?:\/\/[^\s/?#]+[^\s]*$/i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

const id = z.number().int();
const person = z.object({ id, name: z.string() });
const text = (max: number, label: string) => z.string().trim().max(max, `${label} is at most ${max} characters.`);
const title = text(STD_EVIDENCE_LIMITS.title, 'The title').min(1, 'Give the evidence a title.');
const note = text(STD_EVIDENCE_LIMITS.note, 'The note');
const status = z.enum(STD_EVIDENCE_STATUSES, 'Choose draft, in review, approved or rejected.');
const expiresOn = z.string().refine(isRealDay, 'Enter the expiry date like 2027-03-01, or leave it empty.').nullable();
const url = z
  .string()
  .trim()
  .max(STD_EVIDENCE_LIMITS.url, `The link is at most ${STD_EVIDENCE_LIMITS.url} characters.`)
  .refine(stdIsHttpUrl, 'Enter a link starting with https:// or http://.');

/** One piece of evidence of an element (in the element panel). */
export const stdEvidenceItemSchema = z.object({
  id,
  kind: z.enum(STD_EVIDENCE_KINDS),
  title: z.string(),
  /** Links only. */
  url: z.string().nullable(),
  /** Files only: download it from GET /evidence/{id}/file. */
  file: z.object({ id, name: z.string(), size: z.number().int(), content_type: z.string() }).nullable(),
  note: z.string(),
  status: z.enum(STD_EVIDENCE_STATUSES),
  expires_on: z.string().nullable(),
  /** The expiry date has passed (expires_on before today). */
  expired: z.boolean(),
  /** Not expired yet, but within STD_EVIDENCE_EXPIRING_DAYS days. */
  expiring: z.boolean(),
  created_by: person.nullable(),
  created_at: z.string(),
});
export type StdEvidenceItem = z.infer<typeof stdEvidenceItemSchema>;

/**
 * POST /req-assessments/{id}/evidence (JSON): a link or a note. `status` left out means in review; approved and
 * rejected are for those who may change the element.
 */
export const stdEvidenceInputSchema = z.discriminatedUnion(
  'kind',
  [
    z
      .object({
        kind: z.literal('link'),
        title,
        url,
        note: note.default(''),
        status: status.optional(),
        expires_on: expiresOn.default(null),
      })
      .strict(),
    z
      .object({
        kind: z.literal('note'),
        title,
        note: note.min(1, 'Write the note.'),
        status: status.optional(),
        expires_on: expiresOn.default(null),
      })
      .strict(),
  ],
  'Choose a link or a note (files are uploaded to /evidence/file).',
);
export type StdEvidenceInput = z.infer<typeof stdEvidenceInputSchema>;

/**
 * POST /req-assessments/{id}/evidence/file (multipart/form-data): the fields `title`, `note`, `status`,
 * `expires_on` before the field `file`; empty fields count as left out.
 */
export const stdEvidenceFileFieldsSchema = z
  .object({
    /** Left out: the file's name. */
    title: title.optional(),
    note: note.default(''),
    status: status.optional(),
    expires_on: expiresOn.default(null),
  })
  .strict();
export type StdEvidenceFileFields = z.infer<typeof stdEvidenceFileFieldsSchema>;

/** PUT /evidence/{id}: what to change (at least one field); the kind, link and file stay. */
export const stdEvidenceUpdateSchema = z
  .object({
    title: title.optional(),
    note: note.optional(),
    status: status.optional(),
    expires_on: expiresOn.optional(),
  })
  .strict()
  .refine((v) => Object.values(v).some((value) => value !== undefined), {
    message: 'Change the title, note, status or expiry date.',
    path: ['title'],
  });
export type StdEvidenceUpdate = z.infer<typeof stdEvidenceUpdateSchema>;
