import {
  type GuestDocument,
  type GuestSearch,
  type GuestToc,
  guestDocumentSchema,
  guestProjectSchema,
  guestSearchSchema,
  guestTocSchema,
} from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { ApiError, apiFetch } from '../../../lib/api';
import { apiQuery } from '../../../lib/api-hooks';

export type { GuestDocument, GuestSearch, GuestToc };

/** The guest reader's calls (no session): /api/guest/projects/{id}/... */
const guestPath = (projectId: string) => `/api/guest/projects/${projectId}`;
const guestKey = (projectId: string) => ['guest-reader', projectId] as const;

/** The server's one answer when guest reading is off, the address is outside its ranges, or nothing is there. */
export const isUnavailable = (error: unknown) => error instanceof ApiError && error.status === 404;

export function useGuestProject(projectId: string) {
  return useQuery(
    apiQuery(guestKey(projectId), (signal) => apiFetch(guestPath(projectId), { signal, schema: guestProjectSchema })),
  );
}

export function useGuestToc(projectId: string) {
  return useQuery(
    apiQuery([...guestKey(projectId), 'toc'] as const, (signal) =>
      apiFetch(`${guestPath(projectId)}/documents`, { signal, schema: guestTocSchema }),
    ),
  );
}

export function useGuestSearch(projectId: string, q: string) {
  return useQuery({
    ...apiQuery([...guestKey(projectId), 'search', q] as const, (signal) =>
      apiFetch(`${guestPath(projectId)}/search?${new URLSearchParams({ q })}`, { signal, schema: guestSearchSchema }),
    ),
    enabled: q.trim() !== '',
  });
}

export function useGuestDocument(projectId: string, documentId: string) {
  return useQuery(
    apiQuery([...guestKey(projectId), 'document', documentId] as const, (signal) =>
      apiFetch(`${guestPath(projectId)}/documents/${documentId}`, { signal, schema: guestDocumentSchema }),
    ),
  );
}
