import type { VersionState } from '@portal/shared';
import { mayUseSection } from './app-access.js';
import { EDIT_DOCUMENTS, type PolicyActor } from './policy-management.js';
import { allow } from './rules.js';

/**
 * What a person may do to a policy's working version in its workflow (docs/policies.md "Workflow"; rules.ts says how
 * a rule is asked). Which documents and versions they see at all is modules/policies/visibility.ts.
 */

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

/** Authors and policy administrators (the edit-documents section). */
const edits = (actor: PolicyActor) => mayUseSection(actor, EDIT_DOCUMENTS);
const open = (version: VersionFacts, state: VersionState) => !version.archived && version.state === state;

export const versionRules = allow<
  PolicyActor,
  VersionFacts,
  'send_to_review' | 'withdraw' | 'approve' | 'request_changes' | 'sign' | 'decline'
>('Policy', 'Your policy management role does not allow this.', {
  /** Authors and admins send a draft to the department's reviewers. */
  send_to_review: (actor, version) => edits(actor) && open(version, 'draft'),
  /** ... and take it back while it is in review or waiting for signatures. */
  withdraw: (actor, version) => edits(actor) && (open(version, 'in_review') || open(version, 'pending_signature')),
  /** The reviewers asked in this round answer. */
  approve: (_actor, version) => open(version, 'in_review') && version.asked.review,
  request_changes: (_actor, version) => open(version, 'in_review') && version.asked.review,
  /** The signers asked sign; the author only where the project allows self-signing. */
  sign: (actor, version) =>
    !open(version, 'pending_signature') || !version.asked.signature
      ? false
      : !signsOwnVersion(actor.userId, version, version.allowSelfSigning) ||
        'You wrote this version: another signer must sign it.',
  decline: (_actor, version) => open(version, 'pending_signature') && version.asked.signature,
});
