import {
  type GuestReadingInput,
  type GuestReadingSettings,
  type GuestReads,
  guestReadingSchema,
  guestReadsSchema,
} from '@portal/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { apiQuery, useApiMutation } from '../../../lib/api-hooks';
import { policyKey, policyPath } from './keys';

export type { GuestReadingInput, GuestReadingSettings, GuestReads };

export function guestReadingKey(projectId: string) {
  return [...policyKey(projectId), 'guest-reading'] as const;
}

/** GET .../guest-reading: whether guests may read, from which ranges, and the administrator's own address. */
export function useGuestReading(projectId: string) {
  return useQuery(
    apiQuery(guestReadingKey(projectId), (signal) =>
      apiFetch(`${policyPath(projectId)}/guest-reading`, { signal, schema: guestReadingSchema }),
    ),
  );
}

/** PUT .../guest-reading: a 400 names each bad range under `ip_ranges.{index}`. */
export function useSaveGuestReading(projectId: string) {
  return useApiMutation(
    (input: GuestReadingInput) =>
      apiFetch(`${policyPath(projectId)}/guest-reading`, { method: 'PUT', body: input, schema: guestReadingSchema }),
    (queryClient, saved) => queryClient.setQueryData(guestReadingKey(projectId), saved),
  );
}

/** GET .../guest-reads?page=: the guest reads log, newest first. */
export function useGuestReads(projectId: string, page: number) {
  return useQuery({
    ...apiQuery([...guestReadingKey(projectId), 'reads', page] as const, (signal) =>
      apiFetch(`${policyPath(projectId)}/guest-reads?page=${page}`, { signal, schema: guestReadsSchema }),
    ),
    placeholderData: keepPreviousData,
  });
}
