import { Badge } from '@mantine/core';
import { DOCUMENT_STATUS_LABELS, type DocumentStatus } from '@portal/shared';

const COLORS: Record<DocumentStatus, string> = {
  draft: 'gray',
  in_review: 'yellow',
  pending_signature: 'orange',
  published: 'teal',
  archived: 'dark',
};

/** A document's status, in the same words and colours on every policy screen. */
export function StatusBadge({ status }: { status: DocumentStatus }) {
  return (
    // Dark text on the light tint: Mantine's light badges fall under 4.5:1 for teal and yellow.
    <Badge color={COLORS[status]} variant="light" radius="sm" c="dark.8">
      {DOCUMENT_STATUS_LABELS[status]}
    </Badge>
  );
}
