import { Badge } from '@mantine/core';
import type { DataRequestStatus, RequestFormat } from '@portal/shared';
import { TONE } from '../../../components/status-tones';

/** Words and badges the Request Data screen shares (form, tables, drawer). */

export const REQUEST_STATUS_LABEL: Record<DataRequestStatus, string> = {
  submitted: 'Submitted',
  triaged: 'Triaged',
  in_progress: 'In progress',
  delivered: 'Delivered',
  closed: 'Closed',
  rejected: 'Rejected',
  cancelled: 'Cancelled',
};

const STATUS_COLOR: Record<DataRequestStatus, string> = {
  submitted: TONE.progress,
  triaged: TONE.progress,
  in_progress: TONE.progress,
  delivered: TONE.done,
  closed: TONE.neutral,
  rejected: TONE.problem,
  cancelled: TONE.neutral,
};

/** The label of the button that moves a request to a status. */
export const TRANSITION_LABEL: Record<DataRequestStatus, string> = {
  submitted: 'Reopen',
  triaged: 'Mark triaged',
  in_progress: 'Start work',
  delivered: 'Mark delivered',
  closed: 'Close',
  rejected: 'Reject',
  cancelled: 'Cancel request',
};

export const REQUEST_FORMAT_LABEL: Record<RequestFormat, string> = {
  table: 'Table',
  chart: 'Chart',
  csv: 'CSV file',
  pdf: 'PDF report',
};

export function RequestStatusBadge({ status }: { status: DataRequestStatus }) {
  return (
    <Badge color={STATUS_COLOR[status]} variant="light">
      {REQUEST_STATUS_LABEL[status]}
    </Badge>
  );
}

export function OverdueBadge() {
  return (
    <Badge color="red" variant="filled">
      Overdue
    </Badge>
  );
}

/** "1.2 Falls, 2.1 CLABSI and 2 other pages". */
export function pagesText(request: { pages: { number: string | null; title: string }[]; other_page_count: number }) {
  const names = request.pages.map((page) => (page.number ? `${page.number} ${page.title}` : page.title));
  if (request.other_page_count > 0) {
    names.push(`${request.other_page_count} other page${request.other_page_count === 1 ? '' : 's'}`);
  }
  return names.join(', ') || '—';
}

/** Today as YYYY-MM-DD in the user's time zone (for "not in the past" checks). */
export function todayLocal(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
