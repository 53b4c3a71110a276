import { termsEditorSchema } from '@portal/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';

export type TermsEditorState = z.infer<typeof termsEditorSchema>;

/** Every terms query of the console: what saving or publishing makes stale. */
export const SUPER_TERMS_KEY = ['super', 'terms'] as const;

/** GET /super/terms/editor: the draft if there is one, and the newest published version. */
export function getTermsEditor(signal?: AbortSignal): Promise<TermsEditorState> {
  return apiFetch('/super/terms/editor', { signal, schema: termsEditorSchema });
}

export function termsEditorQueryOptions() {
  return queryOptions({
    queryKey: [...SUPER_TERMS_KEY, 'editor'] as const,
    queryFn: ({ signal }) => getTermsEditor(signal),
    // The editor's starting point must not change under the writer's hands.
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });
}

export function useTermsEditor() {
  return useQuery(termsEditorQueryOptions());
}
