import { atLeast, CANCELLABLE_REQUEST_STATUSES, type DataRequestStatus, type PageAccessLevel } from '@portal/shared';
import { mayUseSection } from './app-access.js';
import { administersMonitoring, canUse, type MonitoringActor } from './monitoring.js';
import { allow, can } from './rules.js';

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
const manages = (page: PageFacts) => page.level === 'manage';
const deletes = (actor: MonitoringActor, page: PageFacts) => manages(page) && canUse(actor, 'create-page');

/**
 * The page's level and what it holds: `edit` and `manage` are the levels a call needs (requirePageAccess), the others
 * its measures, charts and key insights, each for editors of the page whose role may use that section.
 */
export const pageRules = allow<
  MonitoringActor,
  PageFacts,
  'edit' | 'manage' | 'edit_measures' | 'edit_charts' | 'edit_insights'
>('Page', 'You may not change this page.', {
  /** Its text, status and place: owners, editors by grant, administrators. */
  edit: (_actor, page) => edits(page),
  /** Its permissions and deletion. */
  manage: (_actor, page) => manages(page),
  /** Its measures (definitions, formulas, targets): editors of the page who may use the formula builder. */
  edit_measures: (actor, page) =>
    (edits(page) && mayUseSection(actor, 'formula-builder')) || 'You may not change the measures of this page.',
  /** Its charts: editors of the page who may use the page charts. */
  edit_charts: (actor, page) => edits(page) && mayUseSection(actor, 'page-charts'),
  /** Its key insights (drafts, publishing, deleting): editors of the page who may write key insights. */
  edit_insights: (actor, page) =>
    (edits(page) && mayUseSection(actor, 'key-insights')) || 'You may not change the insights of this page.',
});

/** A page as a node of the tree; `below` is asked only when its whole branch is deleted. */
export interface PageNodeFacts extends PageFacts {
  /** The actor's level on each live page below it ('none' for one hidden from them). */
  below?: readonly PageAccessLevel[];
}

/**
 * The page itself as a node of the tree, on the level pageRules reads: changing it, deleting it or its branch,
 * restricting it and its permissions, the abilities every page of the tree carries (PAGE_NODE_ABILITIES).
 */
export const pageNodeRules = allow<
  MonitoringActor,
  PageNodeFacts,
  'edit' | 'delete' | 'manage_permissions' | 'add_insight' | 'restrict' | 'restrict_new' | 'delete_branch'
>('Page', pageRules.refusal, {
  /** Its title, status, owner and words (the page form): its editors whose role may edit pages. */
  edit: (actor, page) => edits(page) && canUse(actor, 'edit-page'),
  /** Deleting it: those who manage it and whose role may create pages. */
  delete: deletes,
  /** Its grants (the permissions screen): those who manage it and whose role may use page permissions. */
  manage_permissions: (actor, page) => manages(page) && canUse(actor, 'page-permissions'),
  /** A new key insight on it: pageRules' edit_insights. */
  add_insight: (actor, page) => can(pageRules, 'edit_insights', actor, page),
  /** Restricting it or opening it up: those who manage it. */
  restrict: (_actor, page) => manages(page) || 'Only people who manage this page can restrict it or open it up.',
  /** Restricting a page being created (it has no level yet; its facts are its project's): administrators. */
  restrict_new: (actor) => administersMonitoring(actor) || 'Only monitoring administrators can restrict a new page.',
  /** Deleting it with its sub-pages: whoever may delete it, if they manage every page below it too. */
  delete_branch: (actor, page) =>
    deletes(actor, page) &&
    ((page.below ?? []).every((level) => level === 'manage') ||
      'Some sub-pages of this branch are not yours to delete.'),
});

/** What the tree and a page carry as `abilities` (PageAbilities, besides the level). */
export const PAGE_NODE_ABILITIES = ['edit', 'delete', 'manage_permissions', 'add_insight'] as const;

/**
 * A key insight of a page, on its page's facts: drafting, changing, publishing and deleting it are pageRules'
 * edit_insights, with its reason (everyone who sees the page reads its published insights).
 */
export const insightRules = allow<MonitoringActor, PageFacts, 'edit' | 'publish' | 'delete'>(
  'Insight',
  'You may not change the insights of this page.',
  {
    edit: (actor, page) => pageRules.rules.edit_insights(actor, page),
    publish: (actor, page) => pageRules.rules.edit_insights(actor, page),
    delete: (actor, page) => pageRules.rules.edit_insights(actor, page),
  },
);

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
 * only cancel it, while it is open.
 */
export const requestRules = allow<MonitoringActor, RequestFacts, 'see' | 'handle' | 'deliver' | 'cancel'>(
  'Request',
  'Only data stewards handle data requests.',
  {
    see: (actor, request) => asked(actor, request) || isDataSteward(actor),
    handle: (actor) => isDataSteward(actor) || 'You may only cancel your request; the data stewards handle the rest.',
    deliver: (actor) => isDataSteward(actor) || 'Only data stewards deliver files.',
    cancel: (actor, request) => asked(actor, request) && CANCELLABLE_REQUEST_STATUSES.includes(request.status),
  },
);

/** The statuses in which a request takes no file (closed, rejected or cancelled; a delivered one takes a new one). */
export const TAKES_NO_FILE: readonly DataRequestStatus[] = ['closed', 'rejected', 'cancelled'];

/**
 * A data request as its screen offers it, in requestRules' words: the stewards' controls, cancelling, commenting
 * (whoever sees it) and uploading its file (the stewards, while it takes one).
 */
export const requestDetailRules = allow<MonitoringActor, RequestFacts, 'steward' | 'cancel' | 'comment' | 'upload'>(
  'Request',
  requestRules.refusal,
  {
    steward: (actor, request) => can(requestRules, 'handle', actor, request),
    cancel: (actor, request) => can(requestRules, 'cancel', actor, request),
    comment: (actor, request) => can(requestRules, 'see', actor, request),
    upload: (actor, request) => can(requestRules, 'deliver', actor, request) && !TAKES_NO_FILE.includes(request.status),
  },
);

/** What the dataset rules read: its project (what a person may do to a dataset depends on their role alone). */
export interface DatasetFacts {
  projectId: number;
}

/**
 * A dataset of monitoring (docs/monitoring.md "Datasets"): whoever may import CSV files fills it and names it; only
 * monitoring administrators mark it patient-level, set how long its rows are kept, or delete it.
 */
export const datasetRules = allow<MonitoringActor, DatasetFacts, 'import' | 'manage' | 'delete'>(
  'Dataset',
  'You may not change this dataset.',
  {
    /** Imports, its name and description: the csv-import section. */
    import: (actor) => canUse(actor, 'csv-import'),
    /** Patient-level and retention. */
    manage: (actor) =>
      administersMonitoring(actor) ||
      'Only a monitoring administrator may mark a dataset patient-level or set how long its rows are kept.',
    delete: (actor) => administersMonitoring(actor) || 'Only a monitoring administrator may delete a dataset.',
  },
);

/** What a dataset carries as `abilities` (DatasetAbilities). */
export const DATASET_ABILITIES = ['import', 'manage'] as const;
