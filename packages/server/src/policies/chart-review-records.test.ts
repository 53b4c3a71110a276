import { CR_RATER_CANNOT_ADJUDICATE } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import type { ChartReviewActor } from './chart-review.js';
import {
  ALREADY_SUBMITTED,
  type CaseFacts,
  caseFacts,
  caseRules,
  DRAW_BEFORE_LOCKING,
  FIRST_VERSION,
  findingRules,
  KEEPS_NO_REFS,
  LEADS_ONLY,
  mayReadEncounterRefs,
  NOT_WAITING,
  nothingToAdjudicate,
  ONLY_DRAFT_DISCARDED,
  ONLY_REVIEWER,
  ONLY_SUBMITTED_RETURNS,
  type PairFacts,
  PROGRAMS_ROLE,
  PUBLISHED_CANNOT_CHANGE,
  PULL_LIST_DRAW_FIRST,
  PULL_LIST_ROLE,
  pairRules,
  programRules,
  REFS_GONE,
  REVEAL_ROLE,
  type ReviewStepFacts,
  reviewedPair,
  reviewStepRules,
  SAMPLE_LOCKED,
  SAMPLING_ROLE,
  type SampleFacts,
  SUBMITTED,
  SUBMITTED_NOT_REASSIGNED,
  sampleRules,
  TOOLS_ROLE,
  type ToolVersionFacts,
  toolRules,
  toolVersionRules,
} from './chart-review-records.js';
import { DEFAULT_RULES } from './permission-defaults.js';
import { authorize, can, serialize } from './rules.js';
import { refusal } from './rules-test-kit.js';

const actor = (role: string | null, userId = 5, isSuperadmin = false): ChartReviewActor => ({
  userId,
  projectId: 1,
  isSuperadmin,
  role,
  rules: DEFAULT_RULES.chart_review,
  ip: null,
  requestId: null,
});
const admin = actor('chart_review_admin');
const lead = actor('program_lead');
const reviewer = actor('reviewer');
const viewer = actor('viewer');

describe('case rules: revealing an encounter reference', () => {
  const kase = (facts: Partial<CaseFacts> = {}): CaseFacts => ({
    projectId: 1,
    keepsRefs: true,
    revealRoles: ['chart_review_admin'],
    ...facts,
  });

  it('reveals to the reveal roles and superadmins only, with the role sentence for the others', () => {
    expect(can(caseRules, 'reveal', admin, kase())).toBe(true);
    expect(can(caseRules, 'reveal', actor(null, 9, true), kase({ revealRoles: [] }))).toBe(true);
    expect(refusal(() => authorize(caseRules, 'reveal', lead, kase()))).toEqual({ status: 403, message: REVEAL_ROLE });
    expect(can(caseRules, 'reveal', lead, kase({ revealRoles: ['chart_review_admin', 'program_lead'] }))).toBe(true);
    expect(REVEAL_ROLE).toBe('Your chart review role may not reveal encounter references.');
  });

  it('reveals nothing when the project does not keep references, whoever asks', () => {
    for (const who of [admin, actor(null, 9, true)]) {
      expect(refusal(() => authorize(caseRules, 'reveal', who, kase({ keepsRefs: false })))).toEqual({
        status: 403,
        message: 'This project does not keep encounter references, so none can be revealed.',
      });
    }
    expect(KEEPS_NO_REFS).toBe('This project does not keep encounter references, so none can be revealed.');
  });

  it('answers 404 for another project’s case, even to a reveal role', () => {
    expect(refusal(() => authorize(caseRules, 'reveal', admin, kase({ projectId: 2 })))).toEqual({
      status: 404,
      message: 'Case not found.',
    });
  });

  it('reads the facts from the case and the settings', () => {
    expect(caseFacts({ projectId: 3 }, { storeEncounterRef: false, revealRoles: ['viewer'] })).toEqual({
      projectId: 3,
      keepsRefs: false,
      revealRoles: ['viewer'],
    });
    expect(mayReadEncounterRefs(viewer, ['viewer'])).toBe(true);
    expect(mayReadEncounterRefs(actor(null), ['viewer'])).toBe(false);
  });
});

describe('sample rules', () => {
  const sample = (facts: Partial<SampleFacts> = {}): SampleFacts => ({
    projectId: 1,
    status: 'drawn',
    refsStored: true,
    revealRoles: ['chart_review_admin'],
    ...facts,
  });

  it('offers a sample’s steps by its state to the sampling section', () => {
    expect(serialize(sampleRules, admin, sample({ status: 'uploaded', refsStored: false }))).toEqual({
      upload: true,
      draw: true,
      exclude: false,
      lock: false,
      pull_list: false,
    });
    expect(serialize(sampleRules, admin, sample())).toEqual({
      upload: true,
      draw: true,
      exclude: true,
      lock: true,
      pull_list: true,
    });
    expect(serialize(sampleRules, admin, sample({ status: 'locked' }))).toEqual({
      upload: false,
      draw: false,
      exclude: true,
      lock: false,
      pull_list: true,
    });
    expect(refusal(() => authorize(sampleRules, 'lock', admin, sample({ status: 'locked' })))).toEqual({
      status: 403,
      message: SAMPLE_LOCKED,
    });
    expect(refusal(() => authorize(sampleRules, 'lock', admin, sample({ status: 'uploaded' })))).toEqual({
      status: 403,
      message: DRAW_BEFORE_LOCKING,
    });
  });

  it('offers nothing to a role without the sampling section', () => {
    expect(serialize(sampleRules, reviewer, sample({ revealRoles: ['reviewer'] }))).toEqual({
      upload: false,
      draw: false,
      exclude: false,
      lock: false,
      pull_list: false,
    });
    expect(refusal(() => authorize(sampleRules, 'draw', viewer, sample()))).toEqual({
      status: 403,
      message: SAMPLING_ROLE,
    });
  });

  it('gives the pull list to the reveal roles only, once drawn and while the references are stored', () => {
    // A programme lead has the sampling section, but the settings do not let the role read references.
    expect(refusal(() => authorize(sampleRules, 'pull_list', lead, sample()))).toEqual({
      status: 403,
      message: PULL_LIST_ROLE,
    });
    expect(can(sampleRules, 'pull_list', lead, sample({ revealRoles: ['program_lead'] }))).toBe(true);
    expect(can(sampleRules, 'pull_list', actor(null, 9, true), sample({ revealRoles: [] }))).toBe(true);
    expect(refusal(() => authorize(sampleRules, 'pull_list', admin, sample({ refsStored: false })))).toEqual({
      status: 403,
      message: REFS_GONE,
    });
    expect(refusal(() => authorize(sampleRules, 'pull_list', admin, sample({ status: 'uploaded' })))).toEqual({
      status: 403,
      message: PULL_LIST_DRAW_FIRST,
    });
  });

  it('answers 404 for another project’s sample', () => {
    expect(refusal(() => authorize(sampleRules, 'pull_list', admin, sample({ projectId: 2 })))).toEqual({
      status: 404,
      message: 'Sample not found.',
    });
  });
});

describe('review step rules', () => {
  const review = (facts: Partial<ReviewStepFacts> = {}): ReviewStepFacts => ({
    projectId: 1,
    reviewerId: 5,
    otherReviewerId: 6,
    status: 'in_progress',
    ...facts,
  });

  it('lets its reviewer edit and submit an open review, and nobody once it is submitted', () => {
    expect(serialize(reviewStepRules, reviewer, review())).toEqual({
      edit: true,
      submit: true,
      return: false,
      reassign: false,
    });
    expect(serialize(reviewStepRules, reviewer, review({ status: 'submitted' }))).toEqual({
      edit: false,
      submit: false,
      return: false,
      reassign: false,
    });
    expect(refusal(() => authorize(reviewStepRules, 'edit', reviewer, review({ status: 'submitted' })))).toEqual({
      status: 403,
      message: SUBMITTED,
    });
    expect(refusal(() => authorize(reviewStepRules, 'submit', reviewer, review({ status: 'submitted' })))).toEqual({
      status: 403,
      message: ALREADY_SUBMITTED,
    });
  });

  it('lets leads return a submitted review and reassign an open one, never change its answers', () => {
    const other = actor('program_lead', 7);
    expect(serialize(reviewStepRules, other, review())).toEqual({
      edit: false,
      submit: false,
      return: false,
      reassign: true,
    });
    expect(serialize(reviewStepRules, other, review({ status: 'submitted' }))).toEqual({
      edit: false,
      submit: false,
      return: true,
      reassign: false,
    });
    expect(refusal(() => authorize(reviewStepRules, 'edit', other, review()))).toEqual({
      status: 403,
      message: ONLY_REVIEWER,
    });
    expect(refusal(() => authorize(reviewStepRules, 'return', other, review()))).toEqual({
      status: 403,
      message: ONLY_SUBMITTED_RETURNS,
    });
    expect(refusal(() => authorize(reviewStepRules, 'reassign', other, review({ status: 'submitted' })))).toEqual({
      status: 403,
      message: SUBMITTED_NOT_REASSIGNED,
    });
    // A reviewer (no programs section) neither returns nor reassigns, even their own.
    expect(refusal(() => authorize(reviewStepRules, 'return', reviewer, review({ status: 'submitted' })))).toEqual({
      status: 403,
      message: LEADS_ONLY,
    });
  });

  it('answers 404 for another project’s review', () => {
    expect(refusal(() => authorize(reviewStepRules, 'edit', reviewer, review({ projectId: 2 })))).toEqual({
      status: 404,
      message: 'Review not found.',
    });
  });
});

describe('pair rules: adjudication', () => {
  const pair = (facts: Partial<PairFacts> = {}): PairFacts => ({
    projectId: 1,
    reviewerIds: [5, 6],
    status: 'disagreed',
    ...facts,
  });
  const other = actor('program_lead', 7);

  it('leaves a disagreeing pair to someone who reviewed neither side, again after adjudication', () => {
    expect(serialize(pairRules, other, pair())).toEqual({ adjudicate: true });
    expect(can(pairRules, 'adjudicate', other, pair({ status: 'adjudicated' }))).toBe(true);
  });

  it('refuses a rater, with the sentence the screen shows, whatever the pair’s state', () => {
    for (const status of ['disagreed', 'agreed'] as const) {
      expect(refusal(() => authorize(pairRules, 'adjudicate', lead, pair({ status })))).toEqual({
        status: 403,
        message: CR_RATER_CANNOT_ADJUDICATE,
      });
    }
    expect(reviewedPair(lead, pair())).toBe(true);
    expect(reviewedPair(other, pair())).toBe(false);
  });

  it('has nothing to adjudicate while a review is open or when the reviews agree', () => {
    for (const status of ['pending', 'agreed'] as const) {
      expect(nothingToAdjudicate(pair({ status }))).toBe(true);
      expect(refusal(() => authorize(pairRules, 'adjudicate', other, pair({ status })))).toEqual({
        status: 403,
        message: NOT_WAITING,
      });
    }
    expect(nothingToAdjudicate(pair())).toBe(false);
  });

  it('answers 404 for another project’s pair', () => {
    expect(refusal(() => authorize(pairRules, 'adjudicate', other, pair({ projectId: 2 })))).toEqual({
      status: 404,
      message: 'Second review not found.',
    });
  });
});

describe('programme, tool, tool version and finding rules', () => {
  const version = (facts: Partial<ToolVersionFacts> = {}): ToolVersionFacts => ({
    projectId: 1,
    status: 'draft',
    frozen: false,
    version: 2,
    ...facts,
  });

  it('lets the programs, tools and findings sections change their records, and says why not to the others', () => {
    expect(serialize(programRules, lead, { projectId: 1 })).toEqual({ edit: true });
    expect(serialize(toolRules, lead, { projectId: 1 })).toEqual({ edit: true });
    expect(serialize(findingRules, lead, { projectId: 1 })).toEqual({ edit: true });
    expect(refusal(() => authorize(programRules, 'edit', reviewer, { projectId: 1 }))).toEqual({
      status: 403,
      message: PROGRAMS_ROLE,
    });
    expect(refusal(() => authorize(toolRules, 'edit', viewer, { projectId: 1 }))).toEqual({
      status: 403,
      message: TOOLS_ROLE,
    });
    expect(refusal(() => authorize(findingRules, 'edit', reviewer, { projectId: 1 }))).toEqual({
      status: 403,
      message: 'Your chart review role does not change findings.',
    });
    expect(refusal(() => authorize(findingRules, 'edit', lead, { projectId: 2 }))).toEqual({
      status: 404,
      message: 'Finding not found.',
    });
  });

  it('changes, publishes and discards only an open draft, and never version 1', () => {
    expect(serialize(toolVersionRules, lead, version())).toEqual({ edit: true, publish: true, discard: true });
    expect(serialize(toolVersionRules, lead, version({ version: 1 }))).toEqual({
      edit: true,
      publish: true,
      discard: false,
    });
    expect(refusal(() => authorize(toolVersionRules, 'discard', lead, version({ version: 1 })))).toEqual({
      status: 403,
      message: FIRST_VERSION,
    });
    // Once an answer refers to a draft, nothing in it changes.
    expect(serialize(toolVersionRules, lead, version({ frozen: true }))).toEqual({
      edit: false,
      publish: false,
      discard: false,
    });
    expect(refusal(() => authorize(toolVersionRules, 'edit', lead, version({ status: 'published' })))).toEqual({
      status: 403,
      message: PUBLISHED_CANNOT_CHANGE,
    });
    expect(refusal(() => authorize(toolVersionRules, 'discard', lead, version({ status: 'retired' })))).toEqual({
      status: 403,
      message: ONLY_DRAFT_DISCARDED,
    });
    expect(serialize(toolVersionRules, reviewer, version())).toEqual({ edit: false, publish: false, discard: false });
    expect(refusal(() => authorize(toolVersionRules, 'publish', reviewer, version()))).toEqual({
      status: 403,
      message: TOOLS_ROLE,
    });
  });
});
