import { describe, expect, it } from 'vitest';
import { pairRules, reviewRules } from './chart-review-records.js';
import { pageRules, requestRules } from './monitoring-records.js';
import { DEFAULT_RULES } from './permission-defaults.js';
import { signsOwnVersion, type VersionFacts, versionRules } from './policy-records.js';
import { allow, authorize, can, serialize } from './rules.js';
import { refusal } from './rules-test-kit.js';
import type { StandardsActor } from './standards.js';
import { type ElementFacts, elementRules, evidenceRules, findingRules } from './standards-records.js';

describe('record rules', () => {
  const notes = allow<{ projectId: number; userId: number }, { projectId: number; ownerId: number }, 'edit' | 'read'>(
    'Note',
    'You may not.',
    { read: () => true, edit: (actor, note) => note.ownerId === actor.userId || 'Only its owner edits a note.' },
  );
  const me = { projectId: 1, userId: 7 };

  it('asks "same project" first: another project’s record is not found, whatever the rule says', () => {
    expect(can(notes, 'read', me, { projectId: 2, ownerId: 7 })).toBe(false);
    expect(refusal(() => authorize(notes, 'read', me, { projectId: 2, ownerId: 7 }))).toEqual({
      status: 404,
      message: 'Note not found.',
    });
  });

  it('answers 403 with the rule’s sentence, and nothing when allowed', () => {
    expect(refusal(() => authorize(notes, 'edit', me, { projectId: 1, ownerId: 8 }))).toEqual({
      status: 403,
      message: 'Only its owner edits a note.',
    });
    expect(refusal(() => authorize(notes, 'edit', me, { projectId: 1, ownerId: 7 }))).toBeNull();
  });

  it('serializes every action, or the ones asked for', () => {
    expect(serialize(notes, me, { projectId: 1, ownerId: 8 })).toEqual({ read: true, edit: false });
    expect(serialize(notes, me, { projectId: 1, ownerId: 7 }, ['edit'])).toEqual({ edit: true });
  });
});

describe('standards element, evidence and finding rules', () => {
  const actor = (role: StandardsActor['role'], userId = 5): StandardsActor => ({
    userId,
    projectId: 1,
    isSuperadmin: false,
    role,
    ip: null,
    requestId: null,
  });
  const element = (facts: Partial<ElementFacts> = {}): ElementFacts => ({
    projectId: 1,
    ownerId: null,
    led: false,
    ...facts,
  });

  it('lets admins, the lead above and the owner change an element; contributors link what they own', () => {
    expect(can(elementRules, 'edit', actor('standards_admin'), element())).toBe(true);
    expect(can(elementRules, 'edit', actor('chapter_lead'), element({ led: true }))).toBe(true);
    expect(can(elementRules, 'edit', actor('chapter_lead'), element())).toBe(false);
    expect(can(elementRules, 'edit', actor('owner'), element({ ownerId: 5 }))).toBe(true);
    expect(can(elementRules, 'edit', actor('owner'), element({ ownerId: 6 }))).toBe(false);
    expect(serialize(elementRules, actor('contributor'), element({ ownerId: 5 }))).toMatchObject({
      edit: false,
      link: true,
      comment: true,
      finding: false,
    });
    expect(serialize(elementRules, actor('mock_assessor'), element())).toMatchObject({ finding: true, link: false });
    expect(serialize(elementRules, actor('viewer'), element())).toEqual({
      edit: false,
      edit_wording: false,
      comment: false,
      link: false,
      finding: false,
      assign: false,
    });
  });

  it('says why an owner may not hand an element on, and a lead only within their chapters', () => {
    expect(refusal(() => authorize(elementRules, 'assign', actor('owner'), element({ ownerId: 5 })))).toEqual({
      status: 403,
      message: 'Only standards admins and chapter leads change owners.',
    });
    expect(refusal(() => authorize(elementRules, 'assign', actor('chapter_lead'), element()))).toEqual({
      status: 403,
      message: 'You can change only the elements of the chapters you lead.',
    });
  });

  it('keeps evidence review to the element’s editors, with the reason', () => {
    expect(can(evidenceRules, 'add', actor('contributor'), element({ ownerId: 5 }))).toBe(true);
    expect(refusal(() => authorize(evidenceRules, 'review', actor('contributor'), element({ ownerId: 5 })))).toEqual({
      status: 403,
      message: 'Only those who may change this element approve or reject evidence; yours waits in review.',
    });
  });

  it('lets whoever recorded a finding edit it while open; closing is for admins and the lead above', () => {
    const finding = (facts: { createdBy?: number; closed?: boolean; led?: boolean } = {}) => ({
      projectId: 1,
      element: element({ led: facts.led ?? false }),
      createdBy: facts.createdBy ?? 9,
      closed: facts.closed ?? false,
    });
    expect(serialize(findingRules, actor('mock_assessor'), finding({ createdBy: 5 }))).toEqual({
      create: true,
      edit: true,
      plan: false,
      close: false,
    });
    expect(can(findingRules, 'edit', actor('mock_assessor'), finding({ createdBy: 5, closed: true }))).toBe(false);
    expect(serialize(findingRules, actor('chapter_lead'), finding({ led: true }))).toEqual({
      create: true,
      edit: true,
      plan: true,
      close: true,
    });
  });
});

describe('policy version rules', () => {
  const reader = { userId: 5, projectId: 1, isSuperadmin: false, role: 'signer', rules: [], ip: null, requestId: null };
  const version = (facts: Partial<VersionFacts> = {}): VersionFacts => ({
    projectId: 1,
    archived: false,
    state: 'pending_signature',
    authorId: 9,
    asked: { review: false, signature: true },
    allowSelfSigning: false,
    ...facts,
  });

  it('takes the signature of a signer asked, never the author’s own unless the project allows it', () => {
    expect(can(versionRules, 'sign', reader, version())).toBe(true);
    expect(refusal(() => authorize(versionRules, 'sign', reader, version({ authorId: 5 })))).toEqual({
      status: 403,
      message: 'You wrote this version: another signer must sign it.',
    });
    expect(can(versionRules, 'sign', reader, version({ authorId: 5, allowSelfSigning: true }))).toBe(true);
    expect(can(versionRules, 'sign', reader, version({ asked: { review: false, signature: false } }))).toBe(false);
    expect(can(versionRules, 'sign', reader, version({ archived: true }))).toBe(false);
    expect(signsOwnVersion(5, { authorId: 5 }, false)).toBe(true);
    expect(signsOwnVersion(5, { authorId: 5 }, true)).toBe(false);
  });
});

describe('monitoring page rules', () => {
  const defaults = DEFAULT_RULES.monitoring;
  const actor = (role: string) => ({
    userId: 5,
    projectId: 1,
    isSuperadmin: false,
    role,
    rules: defaults,
    ip: null,
    requestId: null,
  });

  it('lets editors of a page change what it holds only through the sections their role has', () => {
    const editable = { projectId: 1, level: 'edit' as const };
    expect(serialize(pageRules, actor('page_owner'), editable)).toEqual({
      edit: true,
      manage: false,
      edit_measures: true,
      edit_charts: true,
      edit_insights: true,
    });
    // Data entry may edit charts and measures of a page they may edit, never write its key insights.
    expect(serialize(pageRules, actor('data_entry'), editable)).toMatchObject({
      edit_measures: true,
      edit_charts: true,
      edit_insights: false,
    });
    expect(refusal(() => authorize(pageRules, 'edit_insights', actor('data_entry'), editable))).toEqual({
      status: 403,
      message: 'You may not change the insights of this page.',
    });
  });

  it('shows a data request to its requester and the stewards; only stewards handle it, its requester cancels it', () => {
    const open = { projectId: 1, requesterId: 5, status: 'submitted' as const };
    expect(serialize(requestRules, actor('viewer'), open)).toEqual({
      see: true,
      handle: false,
      deliver: false,
      cancel: true,
    });
    expect(serialize(requestRules, actor('data_entry'), { ...open, requesterId: 9 })).toEqual({
      see: true,
      handle: true,
      deliver: true,
      cancel: false,
    });
    expect(can(requestRules, 'see', actor('page_owner'), { ...open, requesterId: 9 })).toBe(false);
    expect(can(requestRules, 'cancel', actor('viewer'), { ...open, status: 'closed' })).toBe(false);
    expect(refusal(() => authorize(requestRules, 'deliver', actor('viewer'), open))).toEqual({
      status: 403,
      message: 'Only data stewards deliver files.',
    });
  });

  it('gives a page someone only views nothing to change, whatever their role', () => {
    expect(serialize(pageRules, actor('monitoring_admin'), { projectId: 1, level: 'view' })).toEqual({
      edit: false,
      manage: false,
      edit_measures: false,
      edit_charts: false,
      edit_insights: false,
    });
    expect(
      refusal(() => authorize(pageRules, 'edit_measures', actor('page_owner'), { projectId: 1, level: 'view' })),
    ).toEqual({
      status: 403,
      message: 'You may not change the measures of this page.',
    });
  });
});

describe('chart review review and pair rules', () => {
  const actor = (userId: number, role: string) => ({
    userId,
    projectId: 1,
    isSuperadmin: false,
    role,
    rules: DEFAULT_RULES.chart_review,
    ip: null,
    requestId: null,
  });
  const review = { projectId: 1, reviewerId: 5, otherReviewerId: 6 };

  it('keeps the two reviews of a case blind to each other; leads see them, only the reviewer changes one', () => {
    expect(serialize(reviewRules, actor(5, 'reviewer'), review)).toEqual({ see: true, change: true });
    // The other reviewer of the case does not see this review, even as a programme lead.
    expect(serialize(reviewRules, actor(6, 'program_lead'), review)).toEqual({ see: false, change: false });
    expect(serialize(reviewRules, actor(7, 'program_lead'), review)).toEqual({ see: true, change: false });
    expect(serialize(reviewRules, actor(7, 'reviewer'), review)).toEqual({ see: false, change: false });
    expect(refusal(() => authorize(reviewRules, 'change', actor(7, 'program_lead'), review))).toEqual({
      status: 403,
      message: 'Only the reviewer of this case can change its answers.',
    });
  });

  it('leaves adjudication to someone who reviewed neither side', () => {
    const pair = { projectId: 1, reviewerIds: [5, 6], status: 'disagreed' as const };
    expect(can(pairRules, 'adjudicate', actor(7, 'program_lead'), pair)).toBe(true);
    expect(refusal(() => authorize(pairRules, 'adjudicate', actor(6, 'program_lead'), pair))).toEqual({
      status: 403,
      message: 'You reviewed this case, so someone else must adjudicate it.',
    });
  });
});
