import { type AuditEvent, auditChainSchema, auditEventListSchema } from '@portal/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';
import { searchOf } from './query-string';

export type { AuditEvent };
export type AuditEventList = z.infer<typeof auditEventListSchema>;

/** The filters of GET /super/audit-events (and of its CSV export); from and to are ISO date-times. */
export interface AuditFilters {
  actor?: number;
  project?: number;
  action?: string;
  from?: string;
  to?: string;
}

export const AUDIT_EVENTS_PATH = '/super/audit-events';

/** GET /super/audit-events?actor&project&action&from&to&page&page_size. */
export function getAuditEvents(
  filters: AuditFilters & { page: number; page_size: number },
  signal?: AbortSignal,
): Promise<AuditEventList> {
  return apiFetch(`${AUDIT_EVENTS_PATH}?${searchOf({ ...filters })}`, { signal, schema: auditEventListSchema });
}

export function auditEventsQueryOptions(filters: AuditFilters & { page: number; page_size: number }) {
  return queryOptions({
    queryKey: ['super', 'audit-events', filters] as const,
    queryFn: ({ signal }) => getAuditEvents(filters, signal),
    placeholderData: keepPreviousData,
  });
}

export function useAuditEvents(filters: AuditFilters & { page: number; page_size: number }) {
  return useQuery(auditEventsQueryOptions(filters));
}

/** GET /super/audit-events.csv with the same filters: a plain link, the session cookie goes along. */
export function auditCsvUrl(filters: AuditFilters): string {
  const search = searchOf({ ...filters });
  return `${AUDIT_EVENTS_PATH}.csv${search ? `?${search}` : ''}`;
}

export type AuditChain = z.infer<typeof auditChainSchema>;

/** GET /super/audit-chain: seals new events into the hash chain and verifies the whole chain. */
export function useAuditChain() {
  return useQuery({
    queryKey: ['super', 'audit-chain'] as const,
    queryFn: ({ signal }) => apiFetch('/super/audit-chain', { signal, schema: auditChainSchema }),
    staleTime: 0,
  });
}
