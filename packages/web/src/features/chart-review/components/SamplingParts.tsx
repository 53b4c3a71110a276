import { Badge } from '@mantine/core';
import { type CrGrain, type CrSampleStatus, periodLabel as sharedPeriodLabel } from '@portal/shared';

/** What the sampling screens share: the status words, the periods one may upload for, the privilege banner. */

export const SAMPLE_STATUS_LABELS: Record<CrSampleStatus, string> = {
  uploaded: 'List uploaded',
  drawn: 'Drawn',
  locked: 'Locked and assigned',
};
// Dark shades keep the light badges' text at 4.5:1.
const STATUS_COLORS: Record<CrSampleStatus, string> = { uploaded: 'gray.8', drawn: 'blue.9', locked: 'green.9' };

export function SampleStatusBadge({ status }: { status: CrSampleStatus }) {
  return (
    <Badge variant="light" color={STATUS_COLORS[status]}>
      {SAMPLE_STATUS_LABELS[status]}
    </Badge>
  );
}

export const CASE_STATUS_LABELS = { eligible: 'Eligible', selected: 'Selected', excluded: 'Excluded' } as const;
export const ASSIGNMENT_STATUS_LABELS: Record<string, string> = {
  assigned: 'Assigned',
  in_progress: 'In progress',
  submitted: 'Submitted',
  returned: 'Returned',
};

/** "Mar 2026" or "2026 Q1": the shared period label every chart review and monitoring screen uses. */
export const periodLabel = sharedPeriodLabel;

/** The periods a list may be uploaded for: this one and the 11 before it (months) or the 7 before it (quarters). */
export function periodChoices(grain: CrGrain, today = new Date()): { value: string; label: string }[] {
  const step = grain === 'month' ? 1 : 3;
  const count = grain === 'month' ? 12 : 8;
  const first = grain === 'month' ? today.getUTCMonth() : Math.floor(today.getUTCMonth() / 3) * 3;
  return Array.from({ length: count }, (_, i) => {
    const date = new Date(Date.UTC(today.getUTCFullYear(), first - i * step, 1));
    const value = date.toISOString().slice(0, 10);
    return { value, label: periodLabel(value, grain) };
  });
}
