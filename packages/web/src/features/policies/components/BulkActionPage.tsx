import type { BulkAction } from '@portal/shared';

/** PLACEHOLDER (issue 7, being built): bulk-sign, bulk-send-to-sign, bulk-read, bulk-new-version. */
export function BulkActionPage(_props: { action: BulkAction }) {
  return null;
}
