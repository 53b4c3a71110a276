import type { PolicySection } from '@portal/shared';
import type { DbOrTx } from '../db/client.js';
import type { SessionUser } from '../plugins/session.js';
import { type AppActor, appAccess, mayUseSection } from './app-access.js';

/**
 * Who may do what in a project's policy management (docs/permissions.md): the shared app access rules
 * (app-access.ts) over the policy management sections.
 */
export type PolicyActor = AppActor;

/**
 * The actor of a policy change caused outside policy management (a main role changed in the project Admin app or
 * by the superadmin): who and where, for the audit and the workflow history. It passes no section check.
 */
export function writerActor(
  projectId: number,
  who: { userId: number; ip: string | null; requestId: string | null },
): PolicyActor {
  return {
    userId: who.userId,
    projectId,
    isSuperadmin: false,
    role: null,
    rules: [],
    ip: who.ip,
    requestId: who.requestId,
  };
}

/** Sections of calls that have no screen of their own. */
export const EDIT_DOCUMENTS = 'edit-documents' satisfies PolicySection;
export const ARCHIVE_DOCUMENTS = 'archive-documents' satisfies PolicySection;

export function policyAccess(
  db: DbOrTx,
  user: SessionUser,
  request: { ip: string; id: string },
  projectId: number,
  section: PolicySection,
): Promise<PolicyActor> {
  return appAccess(db, 'policy_management', user, request, projectId, section);
}

/** Whether the actor's role may use a section (for abilities and for what a list shows). */
export const can: (actor: PolicyActor, section: PolicySection) => boolean = mayUseSection;

/** Authors and admins see drafts and never-published documents; everyone else sees published versions only. */
export const seesDrafts = (actor: PolicyActor) => can(actor, EDIT_DOCUMENTS);
