import { atLeast, CANCELLABLE_REQUEST_STATUSES, type DataRequestStatus, type PageAccessLevel } from '@portal/shared';
import { mayUseSection } from './app-access.js';
import type { MonitoringActor } from './monitoring.js';
import { allow } from './rules.js';

/**
 * What a person may do on one monitoring page and what it holds: its measures, charts and key insights
 * (docs/monitoring.md "People and permissions"; rules.ts says how a rule is asked). The page level comes from the
 * grant matrix (modules/monitoring/page-access.ts: restricted branches, role grants, owners); a page the actor may
 * not see is answered 404 before any rule is asked.
 */
export interface PageFacts {
  projectId: number;
  level: PageAccessLevel;
}

const edits = (page: PageFacts) => atLeast(page.level, 'edit');

export const pageRules = allow<
  MonitoringActor,
  PageFacts,
  'edit' | 'manage' | 'edit_measures' | 'edit_charts' | 'edit_insights'
>('Page', 'You may not change this page.', {
  /** Its text, status and place: owners, editors by grant, administrators. */
  edit: (_actor, page) => edits(page),
  /** Its permissions and deletion. */
  manage: (_actor, page) => atLeast(page.level, 'manage'),
  /** Its measures (definitions, formulas, targets): editors of the page who may use the formula builder. */
  edit_measures: (actor, page) =>
    (edits(page) && mayUseSection(actor, 'formula-builder')) || 'You may not change the measures of this page.',
  /** Its charts: editors of the page who may use the page charts. */
  edit_charts: (actor, page) => edits(page) && mayUseSection(actor, 'page-charts'),
  /** Its key insights (drafts, publishing, deleting): editors of the page who may write key insights. */
  edit_insights: (actor, page) =>
    (edits(page) && mayUseSection(actor, 'key-insights')) || 'You may not change the insights of this page.',
});

/** What the data request rules read: who asked, and where the request stands. */
export interface RequestFacts {
  projectId: number;
  requesterId: number | null;
  status: DataRequestStatus;
}

/** The data stewards: the roles the request-queue section allows (they see the queue of every request). */
export const isDataSteward = (actor: MonitoringActor) => mayUseSection(actor, 'request-queue');
const asked = (actor: MonitoringActor, request: RequestFacts) => request.requesterId === actor.userId;

/**
 * A data request (docs/monitoring.md "Data requests"): its requester and the data stewards see it and comment on it
 * (anyone else is answered as if it did not exist); the stewards handle it and deliver its file; its requester may
 * cancel it while it is open.
 */
export const requestRules = allow<MonitoringActor, RequestFacts, 'see' | 'handle' | 'deliver' | 'cancel'>(
  'Request',
  'Only data stewards handle data requests.',
  {
    see: (actor, request) => asked(actor, request) || isDataSteward(actor),
    handle: (actor) => isDataSteward(actor),
    deliver: (actor) => isDataSteward(actor) || 'Only data stewards deliver files.',
    cancel: (actor, request) => asked(actor, request) && CANCELLABLE_REQUEST_STATUSES.includes(request.status),
  },
);
