import { type EMAIL_STATUSES, emailLogListSchema, type emailLogRowSchema } from '@portal/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';
import { searchOf } from './query-string';

export type EmailStatus = (typeof EMAIL_STATUSES)[number];
export type EmailLogRow = z.infer<typeof emailLogRowSchema>;
export type EmailLogList = z.infer<typeof emailLogListSchema>;

export interface EmailLogFilters {
  q?: string;
  status?: EmailStatus;
  project?: number;
  page: number;
  page_size: number;
}

/** Every email-log query: what a resend makes stale. */
export const EMAIL_LOGS_KEY = ['super', 'email-logs'] as const;

/** GET /super/email-logs?q&status&project&page&page_size. */
export function getEmailLogs(filters: EmailLogFilters, signal?: AbortSignal): Promise<EmailLogList> {
  return apiFetch(`/super/email-logs?${searchOf({ ...filters })}`, { signal, schema: emailLogListSchema });
}

export function emailLogsQueryOptions(filters: EmailLogFilters) {
  return queryOptions({
    queryKey: [...EMAIL_LOGS_KEY, 'list', filters] as const,
    queryFn: ({ signal }) => getEmailLogs(filters, signal),
    // The table keeps the page it shows while the next one loads: no jump to a skeleton on every filter change.
    placeholderData: keepPreviousData,
  });
}

export function useEmailLogs(filters: EmailLogFilters) {
  return useQuery(emailLogsQueryOptions(filters));
}
