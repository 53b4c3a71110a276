import type { CrAssignmentStatus, CrPairStatus } from '@portal/shared';

export const REVIEW_STATUS_LABELS: Record<CrAssignmentStatus, string> = {
  assigned: 'Not started',
  in_progress: 'In progress',
  submitted: 'Submitted',
  returned: 'Returned',
};
// Dark shades: the light badges' text keeps 4.5:1 contrast.
export const REVIEW_STATUS_COLORS: Record<CrAssignmentStatus, string> = {
  assigned: 'gray.8',
  in_progress: 'blue.9',
  submitted: 'green.9',
  returned: 'orange.9',
};

export const PAIR_STATUS_LABELS: Record<CrPairStatus, string> = {
  pending: 'Waiting for both reviews',
  agreed: 'Agreed',
  disagreed: 'Needs adjudication',
  adjudicated: 'Adjudicated',
};
export const PAIR_STATUS_COLORS: Record<CrPairStatus, string> = {
  pending: 'gray.8',
  agreed: 'green.9',
  disagreed: 'red.9',
  adjudicated: 'blue.9',
};
