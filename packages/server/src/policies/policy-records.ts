import type { VersionState } from '@portal/shared';
import { mayUseSection } from './app-access.js';
import { ARCHIVE_DOCUMENTS, EDIT_DOCUMENTS, type PolicyActor } from './policy-management.js';
import { allow } from './rules.js';

/**
 * What a person may do to a policy document and to its working version in its workflow (docs/policies.md
 * "Workflow"; rules.ts says how a rule is asked). Which documents and versions they see at all is
 * modules/policies/visibility.ts.
 */

/** The refusal of a policy rule that answers false. */
const REFUSAL = 'Your policy management role does not allow this.';

/** What the rules need to know of a policy document: its project and whether it is in the archive. */
export interface DocumentFacts {
  projectId: number;
  archived: boolean;
}

/** The facts of a policy document row. */
export const documentFacts = (doc: { projectId: number; status: string }): DocumentFacts => ({
  projectId: doc.projectId,
  archived: doc.status === 'archived',
});

/** Authors and policy administrators (the edit-documents section). */
const edits = (actor: PolicyActor) => mayUseSection(actor, EDIT_DOCUMENTS);
/** The archive-documents section. */
const archives = (actor: PolicyActor) => mayUseSection(actor, ARCHIVE_DOCUMENTS);

/**
 * A policy document itself. Authors and administrators change a live document (its details, its draft, a new
 * version); those with the archive section archive a live one and restore an archived one; only those who manage
 * numbering give a live document another number. An archived document changes only by being restored.
 */
export const documentRules = allow<PolicyActor, DocumentFacts, 'edit' | 'archive' | 'restore' | 'renumber'>(
  'Policy',
  REFUSAL,
  {
    edit: (actor, doc) => !doc.archived && edits(actor),
    archive: (actor, doc) => !doc.archived && archives(actor),
    restore: (actor, doc) => doc.archived && archives(actor),
    renumber: (actor, doc) =>
      !doc.archived &&
      (mayUseSection(actor, 'numbering') || 'Only those who manage numbering can change a policy number.'),
  },
);

/** What the rules need to know of a document and its working version, for the actor. */
export interface VersionFacts {
  projectId: number;
  archived: boolean;
  /** The working version's state; null without one. */
  state: VersionState | null;
  authorId: number | null;
  /** The actor's own pending requests on the working version. */
  asked: { review: boolean; signature: boolean };
  allowSelfSigning: boolean;
}

/**
 * Whether `userId` would sign a version they wrote while the project does not allow it. Decides both who is asked to
 * sign a round and whether a signature is taken.
 */
export const signsOwnVersion = (userId: number, version: { authorId: number | null }, allowSelfSigning: boolean) =>
  !allowSelfSigning && version.authorId === userId;

const open = (version: VersionFacts, state: VersionState) => !version.archived && version.state === state;

const NOT_REVIEWER = 'You are not a reviewer of this version.';
const NOT_SIGNER = 'You are not asked to sign this version.';

/**
 * A policy's working version in its workflow: authors and administrators send a draft to review and take it back;
 * the reviewers and signers asked in this round (and still waiting to answer) approve, ask for changes, sign or
 * decline.
 */
export const versionRules = allow<
  PolicyActor,
  VersionFacts,
  'send_to_review' | 'withdraw' | 'approve' | 'request_changes' | 'sign' | 'decline'
>('Policy', REFUSAL, {
  /** Authors and admins send a draft to the department's reviewers. */
  send_to_review: (actor, version) => edits(actor) && open(version, 'draft'),
  /** ... and take it back while it is in review or waiting for signatures. */
  withdraw: (actor, version) => edits(actor) && (open(version, 'in_review') || open(version, 'pending_signature')),
  /** The reviewers asked in this round answer. */
  approve: (_actor, version) => open(version, 'in_review') && (version.asked.review || NOT_REVIEWER),
  request_changes: (_actor, version) => open(version, 'in_review') && (version.asked.review || NOT_REVIEWER),
  /** The signers asked sign; the author only where the project allows self-signing. */
  sign: (actor, version) =>
    !open(version, 'pending_signature')
      ? false
      : !version.asked.signature
        ? NOT_SIGNER
        : !signsOwnVersion(actor.userId, version, version.allowSelfSigning) ||
          'You wrote this version: another signer must sign it.',
  decline: (_actor, version) => open(version, 'pending_signature') && (version.asked.signature || NOT_SIGNER),
});
