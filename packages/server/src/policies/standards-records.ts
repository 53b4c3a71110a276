import type { DbOrTx } from '../db/client.js';
import { allow, can } from './rules.js';
import { ledNodes, STANDARDS_FORBIDDEN, type StandardsActor } from './standards.js';

/**
 * What a standards role may do to one element of an assessment, its findings and its evidence, a part of an
 * assessment people are assigned to, and a tracer (docs/permissions.md "Standards roles"; rules.ts says how a rule is
 * asked). The section gate (standards.ts) has let the actor in.
 */

/** What the rules need to know of an element: its owner, and whether a node the actor leads covers it. */
export interface ElementFacts {
  projectId: number;
  ownerId: number | null;
  led: boolean;
}

/** The facts of an element assessment row (`led` asks the chapter lead's nodes, once per call). */
export async function elementFacts(
  db: DbOrTx,
  actor: StandardsActor,
  element: { projectId: number; assessmentId: number; nodeId: number; ownerId: number | null },
): Promise<ElementFacts> {
  const led = actor.role === 'chapter_lead' && (await ledNodes(db, actor, element.assessmentId)).has(element.nodeId);
  return { projectId: element.projectId, ownerId: element.ownerId, led };
}

const isAdmin = (actor: StandardsActor) => actor.role === 'standards_admin';
/** A chapter lead of a node that covers the record (`led` is only ever true for chapter leads). */
const leads = (actor: StandardsActor, record: { led: boolean }) => actor.role === 'chapter_lead' && record.led;
const owns = (actor: StandardsActor, element: ElementFacts) => element.ownerId === actor.userId;

/** Standards admins, the chapter lead of a node above it, and its owner (an owner or a chapter lead) change it. */
const changes = (actor: StandardsActor, element: ElementFacts) =>
  isAdmin(actor) ||
  leads(actor, element) ||
  ((actor.role === 'owner' || actor.role === 'chapter_lead') && owns(actor, element));

export const elementRules = allow<
  StandardsActor,
  ElementFacts,
  'edit' | 'edit_wording' | 'comment' | 'link' | 'finding' | 'assign'
>('Element', STANDARDS_FORBIDDEN, {
  /** The result, status, observation, due date. */
  edit: changes,
  /** The facility's own wording and guidance. */
  edit_wording: changes,
  /** Everyone but viewers (mock assessors comment too). */
  comment: (actor) => actor.role !== 'viewer',
  /** Links and evidence: whoever changes it, and a contributor on an element they own. */
  link: (actor, element) => changes(actor, element) || (actor.role === 'contributor' && owns(actor, element)),
  /** Findings: whoever changes it, and mock assessors anywhere (they write findings only). */
  finding: (actor, element) => changes(actor, element) || actor.role === 'mock_assessor',
  /**
   * Hand it to another owner, set its due date in bulk: standards admins, and the chapter lead above it (owners hand
   * elements on through them).
   */
  assign: (actor, element) =>
    isAdmin(actor) ||
    leads(actor, element) ||
    (actor.role === 'chapter_lead'
      ? 'You can change only the elements of the chapters you lead.'
      : 'Only standards admins and chapter leads change owners.'),
});

/** Evidence of an element: added, changed and removed by those who may link; approved or rejected by its editors. */
export const evidenceRules = allow<StandardsActor, ElementFacts, 'add' | 'review'>('Element', STANDARDS_FORBIDDEN, {
  add: (actor, element) => can(elementRules, 'link', actor, element),
  review: (actor, element) =>
    changes(actor, element) ||
    'Only those who may change this element approve or reject evidence; yours waits in review.',
});

export interface FindingFacts {
  projectId: number;
  element: ElementFacts;
  createdBy: number | null;
  closed: boolean;
}

const closes = (actor: StandardsActor, finding: FindingFacts) => isAdmin(actor) || leads(actor, finding.element);

export const findingRules = allow<StandardsActor, FindingFacts, 'create' | 'edit' | 'plan' | 'close'>(
  'Finding',
  STANDARDS_FORBIDDEN,
  {
    /** Record a finding on the element. */
    create: (actor, finding) => can(elementRules, 'finding', actor, finding.element),
    /** Its text and rating while open: those who close it, and whoever recorded it. */
    edit: (actor, finding) =>
      !finding.closed &&
      (closes(actor, finding) ||
        (can(elementRules, 'finding', actor, finding.element) && finding.createdBy === actor.userId)),
    /** The action plan while open: whoever changes the element. */
    plan: (actor, finding) => !finding.closed && changes(actor, finding.element),
    /** Close and reopen: standards admins and the chapter lead above the element. */
    close: closes,
  },
);

/** What the rules need to know of a part of an assessment (a node): whether a node the actor leads covers it. */
export interface AssignmentFacts {
  projectId: number;
  led: boolean;
}

/** The facts of a node of an assessment (`led` asks the chapter lead's nodes). */
export async function assignmentFacts(
  db: DbOrTx,
  actor: StandardsActor,
  node: { projectId: number; assessmentId: number; nodeId: number },
): Promise<AssignmentFacts> {
  const led = actor.role === 'chapter_lead' && (await ledNodes(db, actor, node.assessmentId)).has(node.nodeId);
  return { projectId: node.projectId, led };
}

/**
 * A part of an assessment: its lead, and one owner for every element below it. Standards admins assign anywhere;
 * chapter leads only at or below the nodes they lead.
 */
export const assignmentRules = allow<StandardsActor, AssignmentFacts, 'assign'>('Assessment', STANDARDS_FORBIDDEN, {
  assign: (actor, node) =>
    isAdmin(actor) ||
    leads(actor, node) ||
    (actor.role === 'chapter_lead' ? 'You can assign people only below the chapters you lead.' : false),
});

/** What the rules need to know of a tracer (or, to record one, of its assessment): its project. */
export interface TracerFacts {
  projectId: number;
}

/** Those who run mock surveys: standards admins, chapter leads and mock assessors. */
const runsTracers = (actor: StandardsActor) =>
  isAdmin(actor) || actor.role === 'chapter_lead' || actor.role === 'mock_assessor';

/**
 * A tracer of a mock survey: standards admins, chapter leads and mock assessors record one in an assessment and
 * correct it. Each finding a tracer produces is still asked of its element (findingRules).
 */
export const tracerRules = allow<StandardsActor, TracerFacts, 'create' | 'edit'>('Tracer', STANDARDS_FORBIDDEN, {
  create: runsTracers,
  edit: runsTracers,
});
