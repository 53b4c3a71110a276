import { INSIGHT_TITLE_MAX } from '@portal/shared';

/** Why a key insight's title cannot be saved (checked before sending), or null when it can. */
export function insightTitleProblem(title: string): string | null {
  const trimmed = title.trim();
  if (!trimmed) return 'Enter a title.';
  if (trimmed.length > INSIGHT_TITLE_MAX) return `A title is at most ${INSIGHT_TITLE_MAX} characters.`;
  return null;
}
