import { Badge } from '@mantine/core';
import { DOCUMENT_STATUS_LABELS, type DocumentStatus } from '@portal/shared';
import { TONE } from '../status-tones';

const COLORS: Record<DocumentStatus, string> = {
  draft: TONE.neutral,
  in_review: TONE.attention,
  pending_signature: TONE.attention,
  published: TONE.done,
  archived: TONE.neutral,
};

/** A document's status, in the same words and colours on every policy screen. */
export function StatusBadge({ status }: { status: DocumentStatus }) {
  return (
    <Badge color={COLORS[status]} variant="light" radius="sm">
      {DOCUMENT_STATUS_LABELS[status]}
    </Badge>
  );
}
