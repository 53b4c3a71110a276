import type { CrAnswerType, CrToolVersionSummary, CrVersionStatus } from '@portal/shared';
import { formatDate } from '../../../lib/dates';

/** "v2 · published Mar 2, 2026", or "Not published" before the first publication. */
export function publishedLabel(version: CrToolVersionSummary | null): string {
  if (!version) return 'Not published';
  return version.published_at
    ? `v${version.version} · published ${formatDate(version.published_at)}`
    : `v${version.version}`;
}

export const VERSION_STATUS_LABELS: Record<CrVersionStatus, string> = {
  draft: 'Draft',
  published: 'Published',
  retired: 'Retired',
};

export const ANSWER_TYPE_LABELS: Record<CrAnswerType, string> = {
  yes_no_na: 'Yes / No / N/A',
  yes_partial_no_na: 'Yes / Partial / No / N/A',
};

export const questionCount = (n: number) => `${n} ${n === 1 ? 'question' : 'questions'}`;
