import { z } from 'zod';
import { DOCUMENT_STATUSES, VERSION_STATES } from '../policy/statuses.js';
import { BULK_CHUNK, BULK_MAX_ITEMS, SIGNATURE_POLICIES, WORKFLOW_ACTIONS } from '../policy/workflow.js';
import { recordId } from './common.js';
import { brokenReferenceSchema } from './policy-links.js';

/**
 * Contracts of policy management, part 2 (issue 7): department reviewers, signers and readers; the review,
 * signature and attestation workflow; bulk actions; periodic review; the admin dashboard. Calls under
 * /api/projects/{id}/policy-management; docs/policies.md lists them. Times are ISO strings, dates YYYY-MM-DD.
 */

const id = z.number().int();
const time = z.string();
const day = z.string();
const ref = z.object({ id, name: z.string() });
const departmentRef = z.object({ id, name: z.string(), code: z.string() });

// ---------------------------------------------------------------- department people

/** A policy user as the department screens list them. */
export const departmentPersonSchema = z.object({
  id,
  name: z.string(),
  username: z.string(),
  email: z.string(),
  main_role: z.string().nullable(),
});
export type DepartmentPerson = z.infer<typeof departmentPersonSchema>;

const departmentBase = { id, name: z.string(), code: z.string(), parent_id: id.nullable() };

/** A department with everyone it asks to review, sign and read its policies. */
export const departmentRolesSchema = z.object({
  ...departmentBase,
  document_count: z.number().int(),
  reviewers: z.array(departmentPersonSchema),
  signers: z.array(departmentPersonSchema),
  readers: z.array(departmentPersonSchema),
});
export type DepartmentRoles = z.infer<typeof departmentRolesSchema>;

/** GET department-assignment-data: every department with its reviewers, signers and readers. */
export const departmentAssignmentDataSchema = z.object({ departments: z.array(departmentRolesSchema) });

/** Who may hold each department role (policy users whose main role allows it). */
export const departmentCandidatesSchema = z.object({
  reviewers: z.array(departmentPersonSchema),
  signers: z.array(departmentPersonSchema),
  readers: z.array(departmentPersonSchema),
});
/** GET department-edit-lists. */
export const departmentEditListsSchema = departmentCandidatesSchema;

/** GET departments/{id}/edit-assignment-data. */
export const editAssignmentDataSchema = z.object({
  department: departmentRolesSchema,
  candidates: departmentCandidatesSchema,
});

/** GET department-reader-data: each department's readers and how many have read its current policies. */
export const departmentReaderDataSchema = z.object({
  departments: z.array(
    z.object({
      ...departmentBase,
      document_count: z.number().int(),
      readers: z.array(departmentPersonSchema),
      attested: z.number().int(),
      required: z.number().int(),
      /** attested / required (0-1); null while nothing is required. */
      attestation_rate: z.number().nullable(),
    }),
  ),
});
/** GET department-reader-edit-lists: everyone who may read (every policy user with a main role). */
export const departmentReaderEditListsSchema = z.object({ readers: z.array(departmentPersonSchema) });
/** GET departments/{id}/reader-edit-data. */
export const readerEditDataSchema = z.object({
  department: z.object({ ...departmentBase, readers: z.array(departmentPersonSchema) }),
  candidates: z.array(departmentPersonSchema),
});

/** GET department-reviewer-data: each department's reviewers and its open reviews. */
export const departmentReviewerDataSchema = z.object({
  departments: z.array(
    z.object({
      ...departmentBase,
      document_count: z.number().int(),
      reviewers: z.array(departmentPersonSchema),
      open_reviews: z.number().int(),
    }),
  ),
});
/** GET department-reviewer-management-data: each reviewer, the departments they review and their open reviews. */
export const departmentReviewerManagementSchema = z.object({
  reviewers: z.array(
    departmentPersonSchema.extend({ departments: z.array(departmentRef), open_reviews: z.number().int() }),
  ),
  /** Policy users who may review but review no department. */
  unassigned: z.array(departmentPersonSchema),
});
/** GET departments/{id}/reviewer-edit-data. */
export const reviewerEditDataSchema = z.object({
  department: z.object({ ...departmentBase, reviewers: z.array(departmentPersonSchema) }),
  candidates: z.array(departmentPersonSchema),
});

const userIdList = (max: number) =>
  z
    .array(recordId)
    .max(max, `Choose at most ${max.toLocaleString('en-US')} people at once.`)
    .refine((ids) => new Set(ids).size === ids.length, 'A person is listed twice.');

/** POST departments/{id}/assign-readers, assign-reviewers (adds) and update-reviewers (the whole list). */
export const departmentUsersBodySchema = z.object({ user_ids: userIdList(5000) }).strict();
export const departmentUsersAddSchema = z
  .object({ user_ids: userIdList(5000).min(1, 'Choose at least one person.') })
  .strict();
/** POST departments/{id}/assign-roles: each list given replaces that role's people. */
export const assignRolesBodySchema = z
  .object({
    reviewer_ids: userIdList(5000).optional(),
    signer_ids: userIdList(5000).optional(),
    reader_ids: userIdList(5000).optional(),
  })
  .strict()
  .refine(
    (body) => body.reviewer_ids || body.signer_ids || body.reader_ids,
    'Send reviewer_ids, signer_ids or reader_ids.',
  );
export type AssignRolesBody = z.infer<typeof assignRolesBodySchema>;

/** GET healthy-departments: is each department ready to run the workflow? */
export const departmentHealthSchema = z.object({
  departments: z.array(
    z.object({
      ...departmentBase,
      reviewers: z.number().int(),
      signers: z.number().int(),
      readers: z.number().int(),
      documents: z.number().int(),
      overdue_reviews: z.number().int(),
      due_soon_reviews: z.number().int(),
      attested: z.number().int(),
      required: z.number().int(),
      attestation_rate: z.number().nullable(),
      /** What is missing, in plain words ("No signer", "3 overdue reviews"); empty when healthy. */
      gaps: z.array(z.string()),
    }),
  ),
});

// ---------------------------------------------------------------- settings

export const workflowSettingsSchema = z
  .object({
    default_review_interval_months: z
      .number()
      .int()
      .min(1, 'Review at least every month.')
      .max(60, 'Review at least every 5 years.'),
    signatures_required: z.enum(SIGNATURE_POLICIES),
    allow_self_signing: z.boolean(),
  })
  .strict();
export type WorkflowSettings = z.infer<typeof workflowSettingsSchema>;

// ---------------------------------------------------------------- one document's workflow

export const REQUEST_STATUSES = [
  'pending',
  'approved',
  'changes_requested',
  'signed',
  'declined',
  'withdrawn',
] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

export const workflowRequestSchema = z.object({
  id,
  kind: z.enum(['review', 'signature']),
  round: z.number().int(),
  person: ref,
  status: z.enum(REQUEST_STATUSES),
  comment: z.string().nullable(),
  decided_at: time.nullable(),
});
export type WorkflowRequest = z.infer<typeof workflowRequestSchema>;

/** One electronic signature: the evidence kept for it. */
export const signatureSchema = z.object({
  id,
  version_id: id,
  version: z.number().int(),
  signer: ref,
  signed_at: time,
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  /** SHA-256 (hex) of the exact HTML content of the version signed. */
  content_sha256: z.string(),
  method: z.enum(['password', 'totp']),
  meaning: z.string(),
  /** The version's content still hashes to content_sha256 and the signature was not voided. */
  valid: z.boolean(),
  voided_at: time.nullable(),
  void_reason: z.string().nullable(),
});
export type Signature = z.infer<typeof signatureSchema>;

export const WORKFLOW_EVENT_ACTIONS = [...WORKFLOW_ACTIONS, 'published', 'new_version', 'reassigned'] as const;
export const workflowEventSchema = z.object({
  id,
  at: time,
  actor: ref.nullable(),
  action: z.enum(WORKFLOW_EVENT_ACTIONS),
  version: z.number().int(),
  comment: z.string().nullable(),
});
export type WorkflowEvent = z.infer<typeof workflowEventSchema>;

/**
 * Why a working version cannot go on (the send for review refuses while there is one): template fields still to fill
 * in, no department, a department without reviewers or signers.
 */
export const WORKFLOW_PROBLEM_KINDS = ['template_fields', 'no_department', 'no_reviewers', 'no_signers'] as const;
export type WorkflowProblemKind = (typeof WORKFLOW_PROBLEM_KINDS)[number];

export const workflowProblemSchema = z.object({
  kind: z.enum(WORKFLOW_PROBLEM_KINDS),
  /** The reason in words, without who fixes it: 'Patient Safety has no reviewers.' */
  message: z.string(),
  /** The department whose reviewers or signers are missing. */
  department: ref.nullable(),
  /**
   * Whether the signed-in user may make the fix: assign the department's reviewers or signers (their sections), or
   * edit the policy (its text, its department). When not, WORKFLOW_PROBLEM_HINTS says who can.
   */
  can_fix: z.boolean(),
});
export type WorkflowProblem = z.infer<typeof workflowProblemSchema>;

/** Who fixes a problem and where, for someone who cannot (and in the server's refusal); empty when the reason says. */
export const WORKFLOW_PROBLEM_HINTS: Record<WorkflowProblemKind, string> = {
  template_fields: '',
  no_department: "Choose one in the policy's Settings.",
  no_reviewers: 'A policy administrator can assign reviewers.',
  no_signers: 'A policy administrator can assign signers.',
};

/** The whole sentence a refusal gives: the reason, then who fixes it. */
export function workflowRefusal(problem: Pick<WorkflowProblem, 'kind' | 'message'>): string {
  const hint = WORKFLOW_PROBLEM_HINTS[problem.kind];
  return hint ? `${problem.message} ${hint}` : problem.message;
}

/** GET documents/{id}/workflow. */
export const documentWorkflowSchema = z.object({
  document_id: id,
  status: z.enum(DOCUMENT_STATUSES),
  /** The version in the workflow (draft, in review, pending signature), for those who may see it. */
  working_version: z
    .object({
      id,
      version: z.number().int(),
      state: z.enum(VERSION_STATES),
      round: z.number().int(),
      author: ref.nullable(),
    })
    .nullable(),
  current_version: z
    .object({ id, version: z.number().int(), effective_on: day.nullable(), content_sha256: z.string() })
    .nullable(),
  /** Requests of the working version's current round. */
  reviews: z.array(workflowRequestSchema),
  signature_requests: z.array(workflowRequestSchema),
  /** Signatures on the working version (this round's and earlier, voided ones marked). */
  signatures: z.array(signatureSchema),
  /** The signature manifest of the current (published) version. */
  published_signatures: z.array(signatureSchema),
  events: z.array(workflowEventSchema),
  settings: workflowSettingsSchema,
  /** The signed-in user's attestation of the current version, when there is one to read. */
  attestation: z.object({ version_id: id, required: z.boolean(), attested_at: time.nullable() }).nullable(),
  abilities: z.object({
    send_to_review: z.boolean(),
    withdraw: z.boolean(),
    approve: z.boolean(),
    request_changes: z.boolean(),
    sign: z.boolean(),
    decline: z.boolean(),
    attest: z.boolean(),
    view_attestations: z.boolean(),
  }),
  /** Why the working version cannot go on yet (no department, no reviewers, ...), for those who edit policies. */
  problems: z.array(workflowProblemSchema),
});
export type DocumentWorkflow = z.infer<typeof documentWorkflowSchema>;

const comment = z.string().trim().max(2000, 'A comment is at most 2,000 characters.');
const requiredComment = comment.min(1, 'Say what needs to change.');

export const sendToReviewBodySchema = z.object({ comment: comment.default('') }).strict();
export const withdrawBodySchema = z.object({ comment: requiredComment }).strict();
export const reviewDecisionBodySchema = z.discriminatedUnion('decision', [
  z.object({ decision: z.literal('approve'), comment: comment.default('') }).strict(),
  z.object({ decision: z.literal('request_changes'), comment: requiredComment }).strict(),
]);
export type ReviewDecisionBody = z.infer<typeof reviewDecisionBodySchema>;

/** Re-entered credentials of an electronic signature: the password, or a code of the authenticator app. */
const credentials = {
  password: z.string().min(1, 'Enter your password.').max(200).optional(),
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'Enter the 6-digit code of your authenticator app.')
    .optional(),
};
const oneCredential = (body: { password?: string | undefined; code?: string | undefined }) =>
  (body.password === undefined) !== (body.code === undefined);
const credentialMessage = { message: 'Enter your password or an authenticator code to sign.', path: ['password'] };

export const signBodySchema = z
  .object({ version_id: recordId, ...credentials })
  .strict()
  .refine(oneCredential, credentialMessage);
export type SignBody = z.infer<typeof signBodySchema>;
export const declineBodySchema = z.object({ version_id: recordId, comment: requiredComment }).strict();
export const attestBodySchema = z.object({ version_id: recordId }).strict();

// ---------------------------------------------------------------- attestation reports

export const attestationReaderSchema = z.object({
  person: departmentPersonSchema,
  /** When they attested the current version; null while they have not. */
  attested_at: time.nullable(),
  /** The latest version they attested (an earlier one means they must read the new one). */
  last_attested_version: z.number().int().nullable(),
});

/** GET documents/{id}/attestations (also as .csv). */
export const documentAttestationsSchema = z.object({
  document: z.object({ id, number: z.string().nullable(), title: z.string(), department: departmentRef.nullable() }),
  version: z.object({ id, version: z.number().int(), effective_on: day.nullable() }).nullable(),
  readers: z.array(attestationReaderSchema),
  /** People who are not readers of the department but attested the current version anyway. */
  others: z.array(z.object({ person: ref, attested_at: time })),
  attested: z.number().int(),
  required: z.number().int(),
  rate: z.number().nullable(),
});

/** GET departments/{id}/attestations (also as .csv). */
export const departmentAttestationsSchema = z.object({
  department: departmentRef,
  readers: z.array(departmentPersonSchema),
  documents: z.array(
    z.object({
      id,
      number: z.string().nullable(),
      title: z.string(),
      version: z.number().int(),
      effective_on: day.nullable(),
      attested: z.number().int(),
      required: z.number().int(),
      rate: z.number().nullable(),
      pending: z.array(ref),
    }),
  ),
  attested: z.number().int(),
  required: z.number().int(),
  rate: z.number().nullable(),
});

// ---------------------------------------------------------------- tasks, reviews due, dashboard

export const taskSchema = z.object({
  id,
  number: z.string().nullable(),
  title: z.string(),
  department: departmentRef.nullable(),
  version_id: id,
  version: z.number().int(),
  /** Since when it waits for this person. */
  since: time,
  /** The comment that sent it back (sent_back only). */
  comment: z.string().nullable(),
  /** To read only: the day the attestation is due (published + READ_WITHIN_DAYS), and whether that day has passed. */
  due_on: day.optional(),
  overdue: z.boolean().optional(),
});
export type Task = z.infer<typeof taskSchema>;

export const reviewDueSchema = z.object({
  id,
  number: z.string().nullable(),
  title: z.string(),
  department: departmentRef.nullable(),
  owner: ref.nullable(),
  next_review_on: day,
  /** Days until the review date: negative when overdue. */
  days: z.number().int(),
});
export type ReviewDue = z.infer<typeof reviewDueSchema>;

/** GET my-tasks: what waits for the signed-in user. */
export const myTasksSchema = z.object({
  to_review: z.array(taskSchema),
  to_sign: z.array(taskSchema),
  to_read: z.array(taskSchema),
  /** Their own drafts sent back by a reviewer or signer. */
  sent_back: z.array(taskSchema),
  /** Policies they own whose periodic review is due within 30 days or overdue. */
  reviews_due: z.array(reviewDueSchema),
});
export type MyTasks = z.infer<typeof myTasksSchema>;

/** GET reviews/due. */
export const reviewsDueSchema = z.object({ overdue: z.array(reviewDueSchema), due_soon: z.array(reviewDueSchema) });

/** GET admin-dashboard. */
export const policyDashboardSchema = z.object({
  by_status: z.record(z.enum(DOCUMENT_STATUSES), z.number().int()),
  /** Published policies with a new version in the workflow, by the new version's state. */
  revisions: z.object({ draft: z.number().int(), in_review: z.number().int(), pending_signature: z.number().int() }),
  my_tasks: z.object({
    to_review: z.number().int(),
    to_sign: z.number().int(),
    to_read: z.number().int(),
    sent_back: z.number().int(),
  }),
  overdue_reviews: z.array(reviewDueSchema),
  due_soon_reviews: z.array(reviewDueSchema),
  overdue_count: z.number().int(),
  due_soon_count: z.number().int(),
  attestation: z.array(
    z.object({
      department: departmentRef.nullable(),
      attested: z.number().int(),
      required: z.number().int(),
      rate: z.number().nullable(),
    }),
  ),
  recent_activity: z.array(
    z.object({
      id,
      at: time,
      actor: z.string().nullable(),
      summary: z.string(),
      document: z.object({ id, number: z.string().nullable(), title: z.string() }).nullable(),
    }),
  ),
  /** Published policies linking to a retired or missing policy (issue 28). */
  broken_references: z.array(brokenReferenceSchema).default([]),
});
export type PolicyDashboard = z.infer<typeof policyDashboardSchema>;

// ---------------------------------------------------------------- bulk actions

/** GET bulk/{action}: what the signed-in user may do the action on. */
export const bulkCandidatesSchema = z.object({
  documents: z.array(
    z.object({
      id,
      number: z.string().nullable(),
      title: z.string(),
      department: departmentRef.nullable(),
      version_id: id.nullable(),
      version: z.number().int().nullable(),
      state: z.enum(VERSION_STATES).nullable(),
      /** Something to know before acting ("No reviewers in NUR"), or null. */
      note: z.string().nullable(),
    }),
  ),
});
export type BulkCandidate = z.infer<typeof bulkCandidatesSchema>['documents'][number];

const documentIds = (max: number) =>
  z
    .array(recordId)
    .min(1, 'Choose at least one policy.')
    .max(max, `Choose at most ${max} policies at once.`)
    .refine((ids) => new Set(ids).size === ids.length, 'A policy is listed twice.');

/** POST bulk/sign/authorize: the credentials, entered once for the whole selection. */
export const bulkSignAuthorizeSchema = z
  .object({ document_ids: documentIds(BULK_MAX_ITEMS), ...credentials })
  .strict()
  .refine(oneCredential, credentialMessage);
export const bulkSignTokenSchema = z.object({ batch_token: z.string(), expires_at: time });

/** POST bulk/{action}: one chunk of the selection (sign also carries the batch token). */
export const bulkBodySchema = z
  .object({
    document_ids: documentIds(BULK_CHUNK * 5),
    batch_token: z.string().min(20).max(200).optional(),
  })
  .strict();
export type BulkBody = z.infer<typeof bulkBodySchema>;

export const BULK_OUTCOMES = ['done', 'already_done', 'failed'] as const;
export const bulkResultSchema = z.object({
  results: z.array(z.object({ document_id: id, outcome: z.enum(BULK_OUTCOMES), message: z.string() })),
});
export type BulkResult = z.infer<typeof bulkResultSchema>['results'][number];
