import type { CrAssignmentStatus, CrPairStatus, CrSampleStatus, CrVersionStatus } from '@portal/shared';
import { CR_RATER_CANNOT_ADJUDICATE } from '@portal/shared';
import { type ChartReviewActor, mayUse } from './chart-review.js';
import { allow, can } from './rules.js';

/**
 * What a chart review role may do to one record: a case's encounter reference, a sample, a review and a pair of
 * reviews, a programme, a tool and its versions, a finding (docs/chart-review.md; rules.ts says how a rule is asked).
 * The section gate (chart-review.ts) has let the actor in; what a record's state forbids is said here too, so the
 * abilities a response carries match what the server takes. A service still answers a state it cannot act on with
 * 409 (its own check, first, with the same sentence) and asks `authorize` for who may.
 */

// ------------------------------------------------------------------------------------------------ sentences

export const KEEPS_NO_REFS = 'This project does not keep encounter references, so none can be revealed.';
export const REVEAL_ROLE = 'Your chart review role may not reveal encounter references.';
export const PULL_LIST_ROLE =
  'Your chart review role may not download the pull list: it holds encounter references, which the project’s settings let only some roles read.';
export const SAMPLING_ROLE = 'Your chart review role does not take samples.';
export const LIST_LOCKED = 'The sample of this period is locked: its list can no longer be replaced.';
export const SAMPLE_LOCKED = 'This sample is locked: its cases and selection no longer change.';
export const DRAW_FIRST = 'Draw the sample first.';
export const DRAW_BEFORE_EXCLUDING = 'Draw the sample before excluding cases.';
export const DRAW_BEFORE_LOCKING = 'Draw the sample before locking it.';
export const PULL_LIST_DRAW_FIRST = `${DRAW_FIRST} The pull list holds the selected cases.`;
export const REFS_GONE = 'The encounter references of this sample are no longer stored.';
export const ONLY_REVIEWER = 'Only the reviewer of this case can change its answers.';
export const SUBMITTED = 'This review is submitted. Its answers no longer change unless a programme lead returns it.';
export const ALREADY_SUBMITTED = 'This review is already submitted.';
export const LEADS_ONLY = 'Only programme leads return and reassign reviews.';
export const ONLY_SUBMITTED_RETURNS = 'Only a submitted review can be returned.';
export const SUBMITTED_NOT_REASSIGNED = 'A submitted review cannot be reassigned. Return it first.';
export const NOT_WAITING = 'Only a case whose two reviews disagree can be adjudicated.';
export const PROGRAMS_ROLE = 'Your chart review role does not change programmes.';
export const TOOLS_ROLE = 'Your chart review role does not change audit tools.';
export const PUBLISHED_CANNOT_CHANGE = 'A published version cannot change. Start a new version.';
export const ONLY_DRAFT_PUBLISHES = 'Only a draft can be published. Start a new version.';
export const ONLY_DRAFT_DISCARDED = 'Only a draft can be discarded.';
export const FIRST_VERSION = 'The first version cannot be discarded.';
export const FINDINGS_ROLE = 'Your chart review role does not change findings.';

// ------------------------------------------------------------------------------------------------ encounter references

/**
 * Whether the actor may read encounter references (reveal one case's, download a sample's pull list): superadmins,
 * and the chart review roles the project's settings list (reveal_roles). Every read is logged with its reason.
 */
export const mayReadEncounterRefs = (actor: ChartReviewActor, revealRoles: readonly string[]): boolean =>
  actor.isSuperadmin || (actor.role !== null && revealRoles.includes(actor.role));

/** What the case rules need to know: whether the project keeps references, and the roles that may read them. */
export interface CaseFacts {
  projectId: number;
  keepsRefs: boolean;
  revealRoles: readonly string[];
}

export const caseFacts = (
  kase: { projectId: number },
  settings: { storeEncounterRef: boolean; revealRoles: readonly string[] },
): CaseFacts => ({
  projectId: kase.projectId,
  keepsRefs: settings.storeEncounterRef,
  revealRoles: settings.revealRoles,
});

/**
 * A case of a sample. reveal: its encounter reference is shown, only when the project keeps references and only to
 * the roles its settings let read them (whether this case's reference is still stored is the service's 404).
 */
export const caseRules = allow<ChartReviewActor, CaseFacts, 'reveal'>('Case', REVEAL_ROLE, {
  reveal: (actor, kase) =>
    !kase.keepsRefs ? KEEPS_NO_REFS : mayReadEncounterRefs(actor, kase.revealRoles) || REVEAL_ROLE,
});

// ------------------------------------------------------------------------------------------------ samples

/** What the sample rules need to know: its state, whether its selected cases still hold references, who reads them. */
export interface SampleFacts {
  projectId: number;
  status: CrSampleStatus;
  /** Every selected case still holds its encounter reference (false before the draw and once they are purged). */
  refsStored: boolean;
  revealRoles: readonly string[];
}

/** The sampling section, and then what the sample's state allows. */
const samples = (actor: ChartReviewActor, verdict: () => true | string) =>
  mayUse(actor, 'sampling') ? verdict() : SAMPLING_ROLE;

/**
 * A programme period's sample, for the sampling section: its list is replaced and drawn until it is locked; its cases
 * are excluded once drawn; it is locked once drawn; and its pull list (every selected case with its encounter
 * reference) goes, once drawn and while the references are stored, to the roles that may read encounter references.
 */
export const sampleRules = allow<ChartReviewActor, SampleFacts, 'upload' | 'draw' | 'exclude' | 'lock' | 'pull_list'>(
  'Sample',
  SAMPLING_ROLE,
  {
    upload: (actor, sample) => samples(actor, () => sample.status !== 'locked' || LIST_LOCKED),
    draw: (actor, sample) => samples(actor, () => sample.status !== 'locked' || SAMPLE_LOCKED),
    exclude: (actor, sample) => samples(actor, () => sample.status !== 'uploaded' || DRAW_BEFORE_EXCLUDING),
    lock: (actor, sample) =>
      samples(actor, () =>
        sample.status === 'locked' ? SAMPLE_LOCKED : sample.status === 'drawn' || DRAW_BEFORE_LOCKING,
      ),
    pull_list: (actor, sample) =>
      samples(actor, () =>
        sample.status === 'uploaded'
          ? PULL_LIST_DRAW_FIRST
          : !sample.refsStored
            ? REFS_GONE
            : mayReadEncounterRefs(actor, sample.revealRoles) || PULL_LIST_ROLE,
      ),
  },
);

// ------------------------------------------------------------------------------------------------ reviews

/** What the review rules need to know of one review (an assignment of a case to a reviewer). */
export interface ReviewFacts {
  projectId: number;
  reviewerId: number;
  /** The case's other reviewer (the blind second review, or the primary seen from the second); null without one. */
  otherReviewerId: number | null;
}

/**
 * One review of a case; a case may have two, the second blind (docs/chart-review.md "Blind second review"):
 * - see: its reviewer, and those with the programs section who are not the case's other reviewer (the reviews stay
 *   blind to each other); anyone else is answered as if it did not exist;
 * - change: its reviewer only.
 */
export const reviewRules = allow<ChartReviewActor, ReviewFacts, 'see' | 'change'>('Review', ONLY_REVIEWER, {
  see: (actor, review) =>
    review.reviewerId === actor.userId || (mayUse(actor, 'programs') && review.otherReviewerId !== actor.userId),
  change: (actor, review) => review.reviewerId === actor.userId,
});

/** A review with its state, for the steps of its workflow. */
export interface ReviewStepFacts extends ReviewFacts {
  status: CrAssignmentStatus;
}

const leads = (actor: ChartReviewActor) => mayUse(actor, 'programs');
const mine = (actor: ChartReviewActor, review: ReviewStepFacts) => can(reviewRules, 'change', actor, review);

/**
 * The steps of one review (what its form offers): its reviewer edits and submits it until it is submitted; the
 * programme leads (the programs section) return a submitted one to its reviewer and hand an open one to another.
 */
export const reviewStepRules = allow<ChartReviewActor, ReviewStepFacts, 'edit' | 'submit' | 'return' | 'reassign'>(
  'Review',
  ONLY_REVIEWER,
  {
    edit: (actor, review) => (!mine(actor, review) ? ONLY_REVIEWER : review.status !== 'submitted' || SUBMITTED),
    submit: (actor, review) =>
      !mine(actor, review) ? ONLY_REVIEWER : review.status !== 'submitted' || ALREADY_SUBMITTED,
    return: (actor, review) => (!leads(actor) ? LEADS_ONLY : review.status === 'submitted' || ONLY_SUBMITTED_RETURNS),
    reassign: (actor, review) =>
      !leads(actor) ? LEADS_ONLY : review.status !== 'submitted' || SUBMITTED_NOT_REASSIGNED,
  },
);

/** What the pair rule needs to know: who reviewed the case, and where the pair stands. */
export interface PairFacts {
  projectId: number;
  reviewerIds: number[];
  status: CrPairStatus;
}

/** Whether the actor wrote one of the pair's reviews (they are told so, whatever the pair's state). */
export const reviewedPair = (actor: ChartReviewActor, pair: { reviewerIds: readonly number[] }): boolean =>
  pair.reviewerIds.includes(actor.userId);

/** A pair with a review still open, or whose two reviews agree, has nothing to adjudicate. */
export const nothingToAdjudicate = (pair: { status: CrPairStatus }): boolean =>
  pair.status === 'pending' || pair.status === 'agreed';

/**
 * A pair of reviews of one case (the second review): adjudicated, once its two reviews disagree (and again after),
 * by someone who reviewed neither.
 */
export const pairRules = allow<ChartReviewActor, PairFacts, 'adjudicate'>('Second review', CR_RATER_CANNOT_ADJUDICATE, {
  adjudicate: (actor, pair) =>
    reviewedPair(actor, pair) ? CR_RATER_CANNOT_ADJUDICATE : !nothingToAdjudicate(pair) || NOT_WAITING,
});

// ------------------------------------------------------------------------------------------------ programmes, tools, findings

/** A record known only by its project: what a section decides alone. */
interface Scoped {
  projectId: number;
}

/** A programme: changed (its settings, plan, owner, measure) by the programs section. */
export const programRules = allow<ChartReviewActor, Scoped, 'edit'>('Programme', PROGRAMS_ROLE, {
  edit: (actor) => mayUse(actor, 'programs'),
});

/** An audit tool: renamed, retired and given new versions by the tools section. */
export const toolRules = allow<ChartReviewActor, Scoped, 'edit'>('Tool', TOOLS_ROLE, {
  edit: (actor) => mayUse(actor, 'tools'),
});

/** What the tool version rules need to know: its state, whether answers refer to it, and its number. */
export interface ToolVersionFacts {
  projectId: number;
  status: CrVersionStatus;
  /** An answer refers to it: nothing in it changes any more. */
  frozen: boolean;
  version: number;
}

const openDraft = (version: ToolVersionFacts) => version.status === 'draft' && !version.frozen;

/**
 * A version of an audit tool, for the tools section: only a draft no answer refers to changes, is published or is
 * discarded; version 1, the tool's start, is never discarded.
 */
export const toolVersionRules = allow<ChartReviewActor, ToolVersionFacts, 'edit' | 'publish' | 'discard'>(
  'Tool version',
  TOOLS_ROLE,
  {
    edit: (actor, version) => mayUse(actor, 'tools') && (openDraft(version) || PUBLISHED_CANNOT_CHANGE),
    publish: (actor, version) => mayUse(actor, 'tools') && (openDraft(version) || ONLY_DRAFT_PUBLISHES),
    discard: (actor, version) =>
      mayUse(actor, 'tools') && (!openDraft(version) ? ONLY_DRAFT_DISCARDED : version.version > 1 || FIRST_VERSION),
  },
);

/**
 * A finding and its action plan: planned, closed and reopened by the findings section. A closed finding is still
 * offered to them (it is reopened from the same screen); a change it cannot take is refused when asked (409).
 */
export const findingRules = allow<ChartReviewActor, Scoped, 'edit'>('Finding', FINDINGS_ROLE, {
  edit: (actor) => mayUse(actor, 'findings'),
});
