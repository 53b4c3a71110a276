import { type PolicyLink, policyLinkSchema, stableLinkPath } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { policyPath } from './keys';

export type { PolicyLink };

/** The absolute address that always opens a policy's current version (for the EHR, emails and posters). */
export function stableLinkUrl(projectId: string | number, number: string): string {
  return `${window.location.origin}${stableLinkPath(projectId, number)}`;
}

/** GET /api/policy-links/{projectId}/{number}: where the stable link leads whoever is asking. */
export function getPolicyLink(projectId: string, number: string, signal?: AbortSignal): Promise<PolicyLink> {
  return apiFetch(`/api/policy-links/${encodeURIComponent(projectId)}/${encodeURIComponent(number)}`, {
    signal,
    schema: policyLinkSchema,
  });
}

export function usePolicyLink(projectId: string, number: string) {
  return useQuery({
    // Not under the project's policy key: the answer depends on the session and the address, never cached long.
    queryKey: ['policy-link', projectId, number],
    queryFn: ({ signal }) => getPolicyLink(projectId, number, signal),
    retry: false,
    gcTime: 0,
  });
}

/** The printable QR code sheet (PDF) of one policy or of a department's published, numbered policies. */
export function qrSheetUrl(projectId: string, of: { documentId: number } | { departmentId: number }): string {
  const query = 'documentId' in of ? `document_id=${of.documentId}` : `department_id=${of.departmentId}`;
  return `${policyPath(projectId)}/qr-sheet?${query}`;
}
