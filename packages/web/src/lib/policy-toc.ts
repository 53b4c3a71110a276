import { documentListSchema } from '@portal/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from './api';

/**
 * The policy table of contents of the layout's sub-menu: GET .../policy-management/documents (id, number, title).
 * Keyed under ['policies', projectId], so every change the policy screens make refreshes it too.
 */
export function policyTocQueryOptions(projectId: string) {
  return queryOptions({
    queryKey: ['policies', projectId, 'documents', 'toc'] as const,
    queryFn: ({ signal }) =>
      apiFetch(`/api/projects/${projectId}/policy-management/documents`, { signal, schema: documentListSchema }),
    staleTime: 60_000,
  });
}

/** Tree items of the sub-menu: numbered documents, each linking to its page. */
export function usePolicyTocItems(projectId: string | null) {
  const query = useQuery({ ...policyTocQueryOptions(projectId ?? ''), enabled: projectId !== null });
  const items = (query.data ?? [])
    .filter((doc) => doc.number !== null)
    .map((doc) => ({
      id: doc.id,
      number: doc.number!,
      title: doc.title,
      href: `/app/policy_management/${projectId}/documents/${doc.id}`,
    }));
  return { items, loading: query.isPending && projectId !== null, failed: query.isError };
}
