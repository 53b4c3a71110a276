import { emailLogDetailSchema } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';
import { apiQuery } from '../../../lib/api-hooks';
import { EMAIL_LOGS_KEY } from './get-email-logs';

export type EmailLogDetail = z.infer<typeof emailLogDetailSchema>;

/** GET /super/email-logs/{id}: one email with its body (plain text, shown as text). */
export function getEmailLog(id: number, signal?: AbortSignal): Promise<EmailLogDetail> {
  return apiFetch(`/super/email-logs/${id}`, { signal, schema: emailLogDetailSchema });
}

export function emailLogQueryOptions(id: number) {
  return apiQuery([...EMAIL_LOGS_KEY, 'detail', id] as const, (signal) => getEmailLog(id, signal));
}

/** Nothing is fetched while `id` is null. */
export function useEmailLog(id: number | null) {
  return useQuery({ ...emailLogQueryOptions(id ?? 0), enabled: id !== null });
}
