/**
 * The SAFER matrix (DOMAIN.md 3.1): a finding's likelihood to harm a patient, staff or visitor by its scope. Cells
 * to the upper right need leadership involvement and a preventive analysis in the plan; an immediate threat to
 * life must be removed in 72 hours; other corrections are due 60 days after the finding is cited.
 */
export const SAFER_LIKELIHOODS = ['low', 'moderate', 'high'] as const;
export type SaferLikelihood = (typeof SAFER_LIKELIHOODS)[number];
export const SAFER_SCOPES = ['limited', 'pattern', 'widespread'] as const;
export type SaferScope = (typeof SAFER_SCOPES)[number];

export const SAFER_LIKELIHOOD_LABELS: Record<SaferLikelihood, string> = {
  low: 'Low',
  moderate: 'Moderate',
  high: 'High',
};
export const SAFER_SCOPE_LABELS: Record<SaferScope, string> = {
  limited: 'Limited',
  pattern: 'Pattern',
  widespread: 'Widespread',
};

export const STD_FINDING_SOURCES = ['self', 'mock', 'tracer', 'survey'] as const;
export type StdFindingSource = (typeof STD_FINDING_SOURCES)[number];
export const STD_FINDING_SOURCE_LABELS: Record<StdFindingSource, string> = {
  self: 'Self-assessment',
  mock: 'Mock survey',
  tracer: 'Tracer',
  survey: 'Survey',
};

export const STD_FINDING_STATUSES = ['open', 'action_plan', 'closed'] as const;
export type StdFindingStatus = (typeof STD_FINDING_STATUSES)[number];
export const STD_FINDING_STATUS_LABELS: Record<StdFindingStatus, string> = {
  open: 'Open',
  action_plan: 'Action plan',
  closed: 'Closed',
};

/** Days to correct: 60 (Evidence of Standards Compliance, CMS plan of correction), 3 for an immediate threat. */
export const CORRECTION_DAYS = 60;
export const IMMEDIATE_THREAT_DAYS = 3;

/** The correction's due date from the day the finding was cited ('YYYY-MM-DD'). */
export function correctionDue(citedOn: string, immediateThreat: boolean): string {
  const date = new Date(`${citedOn}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + (immediateThreat ? IMMEDIATE_THREAT_DAYS : CORRECTION_DAYS));
  return date.toISOString().slice(0, 10);
}

/** Whether a cell is in the upper right of the matrix: the plan then needs leadership and a preventive analysis. */
export function needsLeadership(likelihood: SaferLikelihood, scope: SaferScope, immediateThreat = false): boolean {
  if (immediateThreat) return true;
  if (likelihood === 'high') return scope !== 'limited';
  return likelihood === 'moderate' && scope === 'widespread';
}
