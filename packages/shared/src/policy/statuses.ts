/**
 * The life of a policy document. A document's status is where it stands as a whole; each version has its own
 * state. Part 1 (issue 6) creates drafts, archives and restores; the review and signature workflow (issue 7) moves
 * documents along the other transitions listed here.
 */
export const DOCUMENT_STATUSES = ['draft', 'in_review', 'pending_signature', 'published', 'archived'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

export const DOCUMENT_STATUS_LABELS: Record<DocumentStatus, string> = {
  draft: 'Draft',
  in_review: 'In review',
  pending_signature: 'Pending signature',
  published: 'Published',
  archived: 'Archived',
};

export const DOCUMENT_STATUS_DESCRIPTIONS: Record<DocumentStatus, string> = {
  draft: 'Being written or changed by its authors; readers still see the published version, if there is one.',
  in_review: 'Sent to the department reviewers, who approve it or send it back with comments.',
  pending_signature: 'Approved by the reviewers and waiting for the signatures it needs.',
  published: 'In force: signed, effective and shown to every reader.',
  archived: 'Retired: kept with its whole history, shown only in the archive, and can be restored.',
};

/** Which status a document may move to from each status (restore from the archive goes back where it was). */
export const DOCUMENT_TRANSITIONS: Record<DocumentStatus, readonly DocumentStatus[]> = {
  draft: ['in_review', 'archived'],
  in_review: ['draft', 'pending_signature', 'archived'],
  pending_signature: ['draft', 'published', 'archived'],
  published: ['archived'],
  archived: ['draft', 'published'],
};

export function canTransition(from: DocumentStatus, to: DocumentStatus): boolean {
  return DOCUMENT_TRANSITIONS[from].includes(to);
}

/**
 * Versions: one working version at most (draft, in review or pending signature), one published (the current one,
 * shown to readers), and the superseded ones before it.
 */
export const VERSION_STATES = ['draft', 'in_review', 'pending_signature', 'published', 'superseded'] as const;
export type VersionState = (typeof VERSION_STATES)[number];

export const VERSION_STATE_LABELS: Record<VersionState, string> = {
  draft: 'Draft',
  in_review: 'In review',
  pending_signature: 'Pending signature',
  published: 'Current',
  superseded: 'Superseded',
};
