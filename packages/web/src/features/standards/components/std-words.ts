import {
  formatPercent,
  STD_RESULT_LABELS,
  type StdAssessmentKind,
  type StdCounts,
  type StdLinkTarget,
  type StdResult,
  type StdRollup,
  type StdTextPolicy,
} from '@portal/shared';

/** The words and colours of the standards screens (DOMAIN.md 3.3), kept in one place. */

export const ROLLUP_LABELS: Record<StdRollup, string> = { ...STD_RESULT_LABELS, incomplete: 'Incomplete' };

/** Badge colours by result; text uses the dark shade (`.9`) so it reads on the light badge. */
export const RESULT_COLORS: Record<StdRollup, string> = {
  compliant: 'green',
  partially_compliant: 'orange',
  non_compliant: 'red',
  not_applicable: 'gray',
  not_assessed: 'gray',
  incomplete: 'blue',
};

/** The order results are counted in, worst first after compliant. */
export const RESULT_ORDER: readonly StdResult[] = [
  'compliant',
  'partially_compliant',
  'non_compliant',
  'not_applicable',
  'not_assessed',
];

export const KIND_LABELS: Record<StdAssessmentKind, string> = {
  self: 'Self-assessment',
  mock: 'Mock survey',
  survey: 'Survey record',
};

export const KIND_HELP: Record<StdAssessmentKind, string> = {
  self: 'Your team checks each element against its evidence.',
  mock: 'A practice survey, led by someone playing the surveyor.',
  survey: 'The record of a real survey and what the surveyors found.',
};

export const TEXT_POLICY_LABELS: Record<StdTextPolicy, string> = {
  public_domain: 'Public domain text included',
  identifiers_only: 'Identifiers only; the facility writes its own wording',
  tenant_text: "The facility's own text",
};

export const TEXT_POLICY_HELP: Record<StdTextPolicy, string> = {
  public_domain: 'The regulation text is a US government work and ships with the portal.',
  identifiers_only:
    'The publisher’s text is copyrighted: the portal keeps identifiers and titles only, and your facility writes its own wording for each element.',
  tenant_text: 'Text your facility imported; only members of this project can read it.',
};

export const LICENCE_RULE =
  'Copyrighted standards (Joint Commission, DNV) are stored as identifiers and titles only; write your facility’s own wording per element.';

export const LINK_TYPE_LABELS: Record<StdLinkTarget, string> = {
  policy: 'Policy',
  measure: 'Measure',
  cr_program: 'Chart review programme',
  cr_question: 'Audit question',
};

export const VARIATION_LABELS: Record<'improvement' | 'concern' | 'common' | 'neutral', string> = {
  improvement: 'Improvement',
  concern: 'Concern',
  common: 'Common cause',
  neutral: 'Neutral',
};

/** '3 compliant, 1 non-compliant, 2 not assessed' (zero counts left out). */
export function countsText(counts: StdCounts): string {
  const parts = RESULT_ORDER.filter((result) => counts[result] > 0).map(
    (result) => `${counts[result]} ${STD_RESULT_LABELS[result].toLowerCase()}`,
  );
  return parts.length > 0 ? parts.join(', ') : 'No elements';
}

/** A share 0..1 as a whole percentage ('85%', the shared percent format); a dash when there is none. */
export function formatShare(share: number | null | undefined): string {
  return formatPercent(share, { digits: 0, empty: '–' });
}

/** A number as people read it: at most two decimals, no trailing zeros. */
export function formatNumber(value: number): string {
  return new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 }).format(value);
}

/** 'element' or 'elements'. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
