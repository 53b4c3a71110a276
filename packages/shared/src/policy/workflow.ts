import type { PolicySection } from '../schemas/permissions.js';
import type { VersionState } from './statuses.js';

/**
 * The review, signature and attestation workflow of a policy (issue 7; decision record 007). Written once here;
 * the server enforces it and the web shows the actions the server's `abilities` allow.
 *
 * A document's working version moves draft -> in_review -> pending_signature -> published; the version it replaces
 * becomes superseded. The document's own status follows its working version until it is first published, and stays
 * `published` while a new version is prepared (readers keep the current one).
 */

/** How a policy is named in lists, links and messages: "1.2 Hand hygiene", or the title alone without a number. */
export function documentName(document: { number: string | null; title: string }): string {
  return document.number ? `${document.number} ${document.title}` : document.title;
}

/** What a department asks of its people: review drafts, sign them, read what is published. */
export const DEPARTMENT_ROLES = ['reviewer', 'signer', 'reader'] as const;
export type DepartmentRole = (typeof DEPARTMENT_ROLES)[number];

export const DEPARTMENT_ROLE_LABELS: Record<DepartmentRole, { one: string; many: string }> = {
  reviewer: { one: 'Reviewer', many: 'Reviewers' },
  signer: { one: 'Signer', many: 'Signers' },
  reader: { one: 'Reader', many: 'Readers' },
};

/**
 * Policy main roles that may hold each department role (docs/permissions.md). Signing needs a main role that may
 * sign (`can_sign`); everyone who takes part in policy management reads.
 */
export const DEPARTMENT_ROLE_ELIGIBILITY: Record<DepartmentRole, readonly string[]> = {
  reviewer: ['policy_admin', 'author', 'reviewer', 'signer'],
  signer: ['policy_admin', 'signer'],
  reader: ['policy_admin', 'author', 'reviewer', 'signer', 'reader'],
};

export function eligibleFor(role: DepartmentRole, mainRole: string | null): boolean {
  return mainRole !== null && DEPARTMENT_ROLE_ELIGIBILITY[role].includes(mainRole);
}

/** The steps a person takes on a working version, and the state each one starts from. */
export const WORKFLOW_ACTIONS = [
  'send_to_review',
  'withdraw',
  'approve',
  'request_changes',
  'sign',
  'decline',
] as const;
export type WorkflowAction = (typeof WORKFLOW_ACTIONS)[number];

export const WORKFLOW_ACTION_FROM: Record<WorkflowAction, readonly VersionState[]> = {
  /** An author sends a draft to the department's reviewers. */
  send_to_review: ['draft'],
  /** An author takes a version back from review or signature to change it (signatures already given are void). */
  withdraw: ['in_review', 'pending_signature'],
  /** A reviewer approves; once every reviewer asked has, the version goes to the signers. */
  approve: ['in_review'],
  /** A reviewer sends the version back to draft with a comment. */
  request_changes: ['in_review'],
  /** A signer signs; once the signatures needed are in, the version is published. */
  sign: ['pending_signature'],
  /** A signer refuses to sign and sends the version back to draft with a comment. */
  decline: ['pending_signature'],
};

/** Which state a version may move to from each state. */
export const VERSION_TRANSITIONS: Record<VersionState, readonly VersionState[]> = {
  draft: ['in_review'],
  in_review: ['draft', 'pending_signature'],
  pending_signature: ['draft', 'published'],
  published: ['superseded'],
  superseded: [],
};

export function canMoveVersion(from: VersionState, to: VersionState): boolean {
  return VERSION_TRANSITIONS[from].includes(to);
}

export function actionAllowedFrom(action: WorkflowAction, state: VersionState): boolean {
  return WORKFLOW_ACTION_FROM[action].includes(state);
}

/** Actions that need a comment: a version sent back says why. */
export const COMMENT_REQUIRED: ReadonlySet<WorkflowAction> = new Set(['request_changes', 'decline', 'withdraw']);

/** How many of the department's signers must sign before a version is published (a project setting). */
export const SIGNATURE_POLICIES = ['all', 'one'] as const;
export type SignaturePolicy = (typeof SIGNATURE_POLICIES)[number];

/** A review is "due soon" this many days before its date (SPEC-free constant of issue 7). */
export const REVIEW_DUE_SOON_DAYS = 30;
/**
 * Readers attest a newly published version within this many days; after that the reading shows as overdue on their
 * tasks (the usual expectation of policy management programmes: read within 30 days of publication).
 */
export const READ_WITHIN_DAYS = 30;
/** A document's owner is reminded of a due or overdue review at most this often. */
export const REVIEW_REMINDER_EVERY_DAYS = 7;

/** The statement a signer agrees to; it is stored with every signature. */
export const SIGNATURE_MEANING = 'I have reviewed this version and approve it for publication.';
/** The statement a reader agrees to. */
export const ATTESTATION_STATEMENT = 'I have read and understood this policy.';

/** The bulk actions of SPEC section 2, by their route segment and permission section. */
export const BULK_ACTIONS = ['sign', 'send-to-sign', 'read', 'new-version'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];
export const BULK_ACTION_SECTION: Record<BulkAction, PolicySection> = {
  sign: 'bulk-sign',
  'send-to-sign': 'bulk-send-to-sign',
  read: 'bulk-read',
  'new-version': 'bulk-new-version',
};
/** Items per bulk request: the web sends a long selection in chunks of this size to show progress. */
export const BULK_CHUNK = 10;
export const BULK_MAX_ITEMS = 500;
/** How long the credentials entered once for a batch of signatures stay good for that batch. */
export const SIGNING_BATCH_MINUTES = 10;
