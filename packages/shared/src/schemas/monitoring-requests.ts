import { z } from 'zod';
import { DATA_REQUEST_STATUSES, type DataRequestStatus, REQUEST_FORMATS } from '../monitoring/vocabulary.js';
import { recordId } from './common.js';

/**
 * Contracts of monitoring (issue 8; decision record 008): data requests ("Request Data") and the data stewards'
 * queue. Calls under /api/projects/{id}/monitoring; docs/monitoring.md "Data requests" lists them. Times are ISO
 * strings, dates YYYY-MM-DD.
 */

const id = z.number().int();
const ref = z.object({ id, name: z.string() });
const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date like 2026-12-31.');

/** Where a steward may move a request from each status (the requester may only cancel, see below). */
export const DATA_REQUEST_TRANSITIONS: Record<DataRequestStatus, readonly DataRequestStatus[]> = {
  submitted: ['triaged', 'in_progress', 'rejected'],
  triaged: ['in_progress', 'rejected'],
  in_progress: ['delivered', 'rejected'],
  delivered: ['closed'],
  closed: [],
  rejected: [],
  cancelled: [],
};
/** The statuses in which the requester may still cancel. */
export const CANCELLABLE_REQUEST_STATUSES: readonly DataRequestStatus[] = ['submitted', 'triaged', 'in_progress'];
/** Statuses in which nothing is awaited any more (never overdue). */
export const FINISHED_REQUEST_STATUSES: readonly DataRequestStatus[] = ['delivered', 'closed', 'rejected', 'cancelled'];

export const JUSTIFICATION_REQUIRED_MESSAGE = 'Explain why patient-level data is needed (minimum necessary).';
export const HIDDEN_PAGE_MESSAGE = 'Choose pages you can see.';
export const REJECT_NEEDS_RESPONSE_MESSAGE = 'Say why the request is rejected.';
/** Largest delivered file. */
export const REQUEST_FILE_MAX_BYTES = 20 * 1024 * 1024;

/** POST /requests. */
export const dataRequestCreateSchema = z
  .object({
    title: z.string().trim().min(1, 'Enter a title.').max(200, 'A title is at most 200 characters.'),
    purpose: z
      .string()
      .trim()
      .min(1, 'Say what the data is for.')
      .max(5000, 'The purpose is at most 5,000 characters.'),
    page_ids: z
      .array(recordId)
      .min(1, 'Choose at least one page.')
      .max(100, 'Choose at most 100 pages.')
      .refine((ids) => new Set(ids).size === ids.length, 'A page is listed twice.'),
    period_from: date,
    period_to: date,
    format: z.enum(REQUEST_FORMATS, { error: 'Choose a format.' }),
    patient_level: z.boolean().default(false),
    justification: z.string().trim().max(5000, 'The justification is at most 5,000 characters.').nullish(),
    needed_by: date.nullish(),
  })
  .strict()
  .superRefine((value, context) => {
    if (value.period_from > value.period_to) {
      context.addIssue({
        code: 'custom',
        path: ['period_to'],
        message: 'The end of the period must not be before its start.',
      });
    }
    if (value.patient_level && !value.justification) {
      context.addIssue({ code: 'custom', path: ['justification'], message: JUSTIFICATION_REQUIRED_MESSAGE });
    }
  });
export type DataRequestCreate = z.input<typeof dataRequestCreateSchema>;

/** GET /requests?scope=mine|queue: the actor's own requests, or (data stewards) every request of the project. */
export const dataRequestListQuerySchema = z.object({ scope: z.enum(['mine', 'queue']).default('mine') });

/** A page a request names, as the reader may see it. */
const requestPageSchema = z.object({ id, number: z.string().nullable(), title: z.string() });

export const dataRequestRowSchema = z.object({
  id,
  title: z.string(),
  status: z.enum(DATA_REQUEST_STATUSES),
  requester: ref.nullable(),
  assignee: ref.nullable(),
  /** The pages the reader may see; the others are only counted. */
  pages: z.array(requestPageSchema),
  other_page_count: z.number().int(),
  period_from: date.nullable(),
  period_to: date.nullable(),
  format: z.enum(REQUEST_FORMATS),
  patient_level: z.boolean(),
  needed_by: date.nullable(),
  /** needed_by has passed and the request is not finished. */
  overdue: z.boolean(),
  comment_count: z.number().int(),
  delivered_file: z.object({ name: z.string(), size: z.number().int() }).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type DataRequestRow = z.infer<typeof dataRequestRowSchema>;
export const dataRequestListSchema = z.object({ requests: z.array(dataRequestRowSchema) });
export type DataRequestList = z.infer<typeof dataRequestListSchema>;

export const dataRequestCommentSchema = z.object({
  id,
  author: ref.nullable(),
  body: z.string(),
  created_at: z.string(),
});
export type DataRequestComment = z.infer<typeof dataRequestCommentSchema>;

/** GET /requests/{requestId}: the request, its comments and what the reader may do with it. */
export const dataRequestDetailSchema = dataRequestRowSchema.extend({
  purpose: z.string(),
  justification: z.string().nullable(),
  response: z.string().nullable(),
  delivered_at: z.string().nullable(),
  comments: z.array(dataRequestCommentSchema),
  /** The statuses the reader may move it to now. */
  transitions: z.array(z.enum(DATA_REQUEST_STATUSES)),
  abilities: z.object({
    /** A data steward: assign, answer, change the status, deliver a file. */
    steward: z.boolean(),
    cancel: z.boolean(),
    comment: z.boolean(),
    upload: z.boolean(),
  }),
});
export type DataRequestDetail = z.infer<typeof dataRequestDetailSchema>;

/** PATCH /requests/{requestId}: a status change, an assignee, an answer (stewards; the requester may only cancel). */
export const dataRequestUpdateSchema = z
  .object({
    status: z.enum(DATA_REQUEST_STATUSES).optional(),
    assignee_id: recordId.nullable().optional(),
    response: z.string().trim().max(5000, 'The response is at most 5,000 characters.').nullable().optional(),
  })
  .strict()
  .refine(
    (value) => value.status !== undefined || value.assignee_id !== undefined || value.response !== undefined,
    'Change the status, the assignee or the response.',
  );
export type DataRequestUpdate = z.infer<typeof dataRequestUpdateSchema>;

/** POST /requests/{requestId}/comments. */
export const dataRequestCommentCreateSchema = z
  .object({
    body: z.string().trim().min(1, 'Write a comment.').max(5000, 'A comment is at most 5,000 characters.'),
  })
  .strict();
export type DataRequestCommentCreate = z.infer<typeof dataRequestCommentCreateSchema>;

/** GET /requests/stewards: who may be assigned a request. */
export const dataRequestStewardsSchema = z.object({ people: z.array(ref) });
export type DataRequestStewards = z.infer<typeof dataRequestStewardsSchema>;
